"""A long table laid out a window of rows at a time (``long_table``) gives the pages one reportlab table gives:
the same rows on each page, the header repeated, a row taller than the space left split within itself; and the
cell fast paths (plain text without the markup parser, unbroken lines without the per-glyph breaker) give what
the long ways give."""

from __future__ import annotations

import io
import random
from typing import Any

import pypdf
import pytest
from hypothesis import given, settings
from hypothesis import strategies as hst
from reportlab.platypus import Paragraph

from procurement.reports import common, text
from procurement.reports.common import GROUP_BG, LongTable, build_pdf, long_table, make_styles, scaled, table

ST = make_styles("en")
WIDTHS = scaled([8, 50, 20, 22], "a4")
WORDS = "quote line name 很长的名称 with several words and a part number SYS-821GE-TNHR".split()


def _items(n: int, seed: int = 7) -> list[tuple[str, int, str]]:
    """Group rows, one-line rows, and rows of every height up to taller than a page (split within)."""
    rnd = random.Random(seed)
    out: list[tuple[str, int, str]] = []
    for i in range(n):
        if i % 37 == 0:
            out.append(("group", i, f"Group {i}"))
        size = rnd.choice([0, 0, 0, 1, 3, 8, 30]) if i % 101 else 420  # words; 420: over a page tall
        out.append(("row", i, " ".join(rnd.choice(WORDS) for _ in range(size))))
    return out


def _row(item: tuple[str, int, str]) -> tuple[list[object], list[tuple[object, ...]]]:
    kind, i, words = item
    if kind == "group":
        return [ST.p(words, ST.cell_head), "", "", ""], [("SPAN", (0, 0), (-1, 0)),
                                                         ("BACKGROUND", (0, 0), (-1, 0), GROUP_BG)]
    return [ST.p(str(i), ST.cell_right), ST.p(f"line {i} {words}", ST.cell), ST.p("pcs", ST.cell),
            ST.p(f"¥{i * 1000:,}.00", ST.cell_right)], []


def _header() -> list[list[object]]:
    return [[ST.p(h, ST.cell_head) for h in ("No.", "Item", "Unit", "Amount")]]


def _pages(body: Any) -> list[str]:
    story = [ST.p("Title", ST.title), ST.p("words " * 300, ST.body), ST.section("Line items", body)]
    pdf = build_pdf(story, paper="a4", lang="en", title="t", footer="f")
    return [page.extract_text() for page in pypdf.PdfReader(io.BytesIO(pdf)).pages]


@pytest.mark.parametrize("n", [40, 65, 300])
def test_a_long_table_pages_as_one_table(n: int) -> None:
    items = _items(n)
    rows = [_row(item) for item in items]
    extra = [(c[0], (c[1][0], r), (c[2][0], r), *c[3:]) for r, (_, cmds) in enumerate(rows, 1) for c in cmds]
    one = _pages(table(_header() + [cells for cells, _ in rows], WIDTHS, extra=extra, font=ST.font))
    windowed = _pages(long_table(_header(), items, _row, WIDTHS, font=ST.font))
    assert windowed == one
    assert sum(page.count("line ") for page in one) > n  # rows split within themselves print on two pages


def test_the_rows_are_built_when_their_page_is_laid_out_and_forgotten_after() -> None:
    built: list[int] = []
    kept: list[int] = []

    def row(item: tuple[str, int, str]) -> tuple[list[object], list[tuple[object, ...]]]:
        built.append(item[1])
        return _row(item)

    items = [("row", i, "") for i in range(3000)]
    body = long_table(_header(), items, row, WIDTHS, font=ST.font)
    assert isinstance(body, LongTable) and built == []
    split = LongTable.split

    def watch(self: LongTable, aw: float, ah: float) -> list[Any]:
        kept.append(len(self.rows.built))
        return split(self, aw, ah)

    LongTable.split = watch  # type: ignore[method-assign]
    try:
        _pages(body)
    finally:
        LongTable.split = split  # type: ignore[method-assign]
    assert sorted(set(built)) == list(range(3000))
    assert len(built) == 3000  # each row built once
    assert max(kept) <= 2 * common.LONG_TABLE_WINDOW


_TEXT = hst.text(alphabet="ab 项¥1.,-\n()（）ي", min_size=0, max_size=40)


@settings(max_examples=300, deadline=None)
@given(words=_TEXT, width=hst.sampled_from([30.0, 80.0, 200.0, 500.0]), right=hst.booleans())
def test_the_unbroken_line_fast_path_makes_the_lines_token_split_makes(words: str, width: float,
                                                                        right: bool) -> None:
    para = ST.p(words, ST.cell_right if right else ST.cell)
    fast = text._one_line(para.frags, [width, width / 2], False)
    if fast is None:
        return
    keep = text._one_line
    text._one_line = lambda *a: None  # type: ignore[assignment]
    try:
        slow = text.token_split(para.frags, [width, width / 2], False)
    finally:
        text._one_line = keep

    def sig(lines: Any) -> list[Any]:
        return [(ln.kind, ln.lineBreak, ln.fontSize, ln.ascent, ln.descent,
                 [(w.text, sorted((k, str(v)) for k, v in w.__dict__.items() if k != "text")) for w in ln.words])
                for ln in lines.lines]

    assert sig(fast) == sig(slow)
    for a, b in zip(fast.lines, slow.lines, strict=True):  # the width summed at once, not glyph by glyph
        assert a.currentWidth == pytest.approx(b.currentWidth, abs=1e-9)
        assert a.extraSpace == pytest.approx(b.extraSpace, abs=1e-9)


@settings(max_examples=300, deadline=None)
@given(words=hst.text(min_size=0, max_size=30))
def test_plain_text_gets_the_fragment_the_markup_parser_makes(words: str) -> None:
    fragment = common.markup(words)
    for style in (ST.cell, ST.cell_right, ST.body):
        ours = text.TextParagraph(fragment, style).frags
        theirs = Paragraph(fragment, style).frags
        assert [f.__dict__ for f in ours] == [f.__dict__ for f in theirs]

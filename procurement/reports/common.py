"""Layout shared by the PDF reports: paper, styles, safe paragraphs, 'page X of Y', atomic writing."""

from __future__ import annotations

import errno
import io
import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any, Generic, Literal, TypeVar

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, LETTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, Paragraph, SimpleDocTemplate, Table, TableStyle

from catalog.loader import Catalog
from procurement.findings import Finding
from procurement.messages import Lang, register, t
from procurement.plan import Plan
from procurement.policy import Policy, default_policy
from procurement.reports.fonts import register_cjk_font, unembedded_note
from procurement.reports.text import HeadingWithStart, TextParagraph, rich
from procurement.safe_io import STDOUT, write_files
from procurement.terminal import clean_text, one_line_name

Paper = Literal["a4", "letter"]
PAGE_SIZES: dict[str, tuple[float, float]] = {"a4": A4, "letter": LETTER}
MARGIN = 16 * mm

register(
    {
        "report.page_of": "Page {page} of {pages}",
        "report.digest": "Plan digest SHA-256",
        "report.write_failed": "cannot write {path}: {reason}",
        "report.is_directory": "is a directory",
        "report.no_folder": "folder {folder} does not exist",
    }
)

GRID = colors.HexColor("#9aa3ad")
HEAD_BG = colors.HexColor("#e4e9ef")
GROUP_BG = colors.HexColor("#f3f5f7")
STATUS_BG = {
    "pass": colors.HexColor("#d9f2dc"),
    "fail": colors.HexColor("#f7d4d4"),
    "attention": colors.HexColor("#fbe9c6"),
    "unknown": colors.HexColor("#e8e8e8"),
    "confirmed": colors.HexColor("#e6f0d4"),  # a person vouched for it: greenish, never the automatic pass green
}


class ExportError(OSError):
    """A report could not be written; the message names the file and why (in the user's language)."""


# ---------------------------------------------------------------- text safety

def markup(text: object) -> str:
    """Escaped paragraph markup of user text: no tags or entities of the user's reach reportlab's parser; each
    run of characters in a font that has them, right-to-left text shaped and ordered (procurement.reports.text)."""
    return rich(clean_text(text))


@dataclass(frozen=True)
class Styles:
    font: str
    lang: Lang
    title: ParagraphStyle
    h2: ParagraphStyle
    body: ParagraphStyle
    small: ParagraphStyle
    cell: ParagraphStyle
    cell_right: ParagraphStyle
    cell_head: ParagraphStyle
    mono: ParagraphStyle

    def p(self, text: object, style: ParagraphStyle | None = None) -> Paragraph:
        """A paragraph of user (or any) text, escaped."""
        return TextParagraph(markup(text), style or self.body)

    def name(self, text: object, style: ParagraphStyle | None = None) -> Paragraph:
        """A paragraph of a name (a node, a vendor, a part): on one line whatever it holds, its line breaks
        shown as ``\x0a`` (a node named 'n1\nFAKE: all passed' printed a line of its own)."""
        return self.p(one_line_name(text), style)

    def raw(self, fragment: str, style: ParagraphStyle | None = None) -> Paragraph:
        """A paragraph of markup we built ourselves (every user part already passed through ``markup``)."""
        return TextParagraph(fragment, style or self.body)

    def section(self, title: object, body: Flowable, lead: Sequence[Flowable] = (), whole: bool = False) -> Flowable:
        """A heading (and the small ``lead`` flowables under it) kept with the first lines of ``body``, which may
        run on to the next page: not the whole body pushed to the next page, nor a heading alone at a page foot.
        ``whole``: the body moves to the next page whole unless it is taller than a page (a signature block)."""
        return HeadingWithStart(self.p(title, self.h2), [*lead, body], whole_below=1e9 if whole else 200.0)


def make_styles(lang: Lang) -> Styles:
    font = register_cjk_font()
    # One line breaker for both languages (TextParagraph): at spaces and around CJK characters, never inside
    # a token such as a part number or a digest; a token longer than a line is cut.
    wrap = "CJK"

    def style(name: str, size: float, leading: float, **kw: Any) -> ParagraphStyle:
        return ParagraphStyle(
            name, fontName=font, fontSize=size, leading=leading, wordWrap=wrap, splitLongWords=True, **kw
        )

    return Styles(
        font=font,
        lang=lang,
        title=style("title", 17, 22, spaceAfter=4),
        h2=style("h2", 12, 16, spaceBefore=8, spaceAfter=4),  # kept with its first lines by section()
        body=style("body", 9.5, 13),
        small=style("small", 7.5, 10, textColor=colors.HexColor("#444444")),
        cell=style("cell", 8.5, 11),
        cell_right=style("cell_right", 8.5, 11, alignment=2),
        cell_head=style("cell_head", 8.5, 11),
        mono=style("mono", 7.5, 10),
    )


def table(
    rows: Sequence[Sequence[Any]],
    widths: Sequence[float],
    *,
    header_rows: int = 1,
    extra: Sequence[tuple[Any, ...]] = (),
    font: str,
    heights: Sequence[float | None] | None = None,
) -> Table:
    """A grid table whose header repeats on every page and whose tall rows may split across pages (``heights``:
    rows' heights already known, None where they are to be measured)."""
    tbl = Table(
        list(map(list, rows)),
        colWidths=list(widths),
        rowHeights=list(heights) if heights is not None else None,
        repeatRows=header_rows,
        splitByRow=1,
        splitInRow=1,
        hAlign="LEFT",
    )
    cmds: list[tuple[Any, ...]] = [
        ("FONTNAME", (0, 0), (-1, -1), font),
        ("FONTSIZE", (0, 0), (-1, -1), 8.5),
        ("GRID", (0, 0), (-1, -1), 0.4, GRID),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("TOPPADDING", (0, 0), (-1, -1), 2.5),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 2.5),
        ("LEFTPADDING", (0, 0), (-1, -1), 3),
        ("RIGHTPADDING", (0, 0), (-1, -1), 3),
    ]
    if header_rows:
        cmds.append(("BACKGROUND", (0, 0), (-1, header_rows - 1), HEAD_BG))
    tbl.setStyle(TableStyle(cmds + list(extra)))
    return tbl


Cmd = tuple[Any, ...]
Item = TypeVar("Item")
LONG_TABLE_WINDOW = 64
"""Body rows handed to reportlab at a time by ``long_table``: more than a page holds (a row is at least 16 pt,
a frame under 740 pt), so each page is split from one window."""


class _Rows(Generic[Item]):
    """The rows of a long table, built on demand from their items and forgotten once printed; each row's
    height is kept once measured (the column widths are fixed, so it does not change)."""

    def __init__(self, header: Sequence[Sequence[Any]], header_extra: Sequence[Cmd], items: Sequence[Item],
                 build: Callable[[Item], tuple[list[Any], Sequence[Cmd]]], widths: Sequence[float], font: str) -> None:
        self.header = [list(r) for r in header]
        self.header_extra = list(header_extra)
        self.items = items
        self.build = build
        self.widths = list(widths)
        self.font = font
        self.built: dict[int, tuple[list[Any], Sequence[Cmd]]] = {}
        self.heights: dict[int, float] = {}

    def forget_before(self, start: int) -> None:
        for i in [i for i in self.built if i < start]:
            del self.built[i]
            self.heights.pop(i, None)

    def table(self, start: int, end: int) -> Table:
        """One reportlab table: the header, then items ``start`` to ``end`` (their style commands moved to
        their rows in it)."""
        hdr = len(self.header)
        rows = list(self.header)
        extra = list(self.header_extra)
        known: list[float | None] = [None] * hdr
        for at, i in enumerate(range(start, end), hdr):
            if i not in self.built:
                self.built[i] = self.build(self.items[i])
            cells, cmds = self.built[i]
            rows.append(cells)
            extra += [(c[0], (c[1][0], at), (c[2][0], at), *c[3:]) for c in cmds]
            known.append(self.heights.get(i))
        # the heights measured in an earlier window are given; the others are measured in this one
        return table(rows, self.widths, header_rows=hdr, extra=extra, font=self.font, heights=known)

    def measured(self, tbl: Table, start: int) -> None:
        """Keeps the rows' heights and their cells as the table prepared them (a cell measured is a tuple of
        flowables: only then can reportlab split the row within itself, as it splits a row of one table)."""
        hdr = len(self.header)
        for at, (h, cells) in enumerate(zip(tbl._rowHeights[hdr:], tbl._cellvalues[hdr:], strict=True)):
            i = start + at
            self.heights[i] = h
            self.built[i] = (cells, self.built[i][1])
        # its next layout (the split) takes them as given, as reportlab gives the parts of a split table theirs
        tbl._argH = list(tbl._rowHeights)


class LongTable(Flowable):
    """A table of many rows laid out as reportlab lays out one table (the header repeated on each page, a row
    taller than the space left split within it), but handed to reportlab a window of rows at a time: split page
    by page, one reportlab table of 5,000 rows was measured whole and then copied and re-measured its remaining
    rows at every page (a 5,000-line quote took 10-20 s and 200 MB), and every row's paragraphs lived to the end.

    Its rows are items ``start`` to the end; ``pending`` is the rest of a window (to item ``end``) whose top
    ``partial`` rows are the remainders of rows split within themselves, printed before item ``start``."""

    def __init__(self, rows: _Rows[Any], start: int, pending: Table | None = None, partial: int = 0,
                 end: int = 0) -> None:
        super().__init__()
        self.rows = rows
        self.start = start
        self.pending = pending
        self.partial = partial
        self.end = end if pending is not None else min(len(rows.items), start + LONG_TABLE_WINDOW)
        self._tbl: Table | None = pending

    def _table(self) -> Table:
        if self._tbl is None:
            self._tbl = self.rows.table(self.start, self.end)
        return self._tbl

    def _more(self) -> bool:
        """Items after this window: then the table goes on past the page, whatever the window measures."""
        return self.end < len(self.rows.items)

    def wrap(self, aw: float, ah: float) -> tuple[float, float]:
        while True:
            tbl = self._table()
            canv = getattr(self, "canv", None)
            w, h = tbl.wrapOn(canv, aw, ah) if canv is not None else tbl.wrap(aw, ah)
            if self.pending is None:
                self.rows.measured(tbl, self.start)
                if h <= ah and self._more():  # shorter rows than a window is sized for: a larger window
                    self.end = min(len(self.rows.items), self.start + 2 * (self.end - self.start))
                    self._tbl = None
                    continue
            self.width, self.height = w, (max(h, ah + 1) if self._more() else h)
            self._wrapped = (aw, ah)
            return self.width, self.height

    def split(self, aw: float, ah: float) -> list[Flowable]:
        if getattr(self, "_wrapped", None) != (aw, ah):
            self.wrap(aw, ah)
        tbl = self._table()
        canv = getattr(self, "canv", None)
        parts = tbl.splitOn(canv, aw, ah) if canv is not None else tbl.split(aw, ah)
        if len(parts) == 1 and self._more():  # a window of remainders that fits (rows taller than two pages)
            return [tbl, LongTable(self.rows, self.end)]
        if len(parts) != 2:
            return list(parts)
        first, rest = parts
        hdr = len(self.rows.header)
        n0 = len(first._cellvalues) - hdr  # the rows here, the last perhaps only its top part
        within = len(first._cellvalues) + len(rest._cellvalues) - hdr > len(tbl._cellvalues)
        if within:  # the last row here was split within itself: its remainder heads the next page
            start, partial = self.start + max(0, n0 - self.partial), 1 + max(0, self.partial - n0)
        else:
            start, partial = self.start + max(0, n0 - self.partial), max(0, self.partial - n0)
        self.rows.forget_before(start)
        if not self._more():
            return [first, rest]  # the table's last window: reportlab's own remainder
        if partial:
            return [first, LongTable(self.rows, start, rest, partial, self.end)]
        return [first, LongTable(self.rows, start)]

    def draw(self) -> None:  # the whole window fits, and it is the table's last
        self._table().drawOn(self.canv, 0, 0)


def long_table(
    header: Sequence[Sequence[Any]],
    items: Sequence[Item],
    build: Callable[[Item], tuple[list[Any], Sequence[Cmd]]],
    widths: Sequence[float],
    *,
    header_extra: Sequence[Cmd] = (),
    font: str,
) -> Flowable:
    """``table`` of the header rows and a row per item, each row built by ``build`` (its cells and its style
    commands, with row 0 for its own row) only when its page is laid out: the same pages as one table, in time
    and memory that grow with the rows (LongTable)."""
    rows = _Rows(header, header_extra, items, build, widths, font)
    if len(items) <= LONG_TABLE_WINDOW:
        return rows.table(0, len(items))
    return LongTable(rows, 0)


FRAME_PADDING = 6  # SimpleDocTemplate's frame pads each side by 6 pt


def frame_width(paper: Paper) -> float:
    return PAGE_SIZES[paper][0] - 2 * MARGIN - 2 * FRAME_PADDING


def scaled(fractions: Sequence[float], paper: Paper) -> list[float]:
    """Column widths from fractions of the frame width (so A4 and Letter both fill the frame)."""
    total = sum(fractions)
    return [frame_width(paper) * f / total for f in fractions]


# ---------------------------------------------------------------- money

CENT = Decimal("0.01")


def money(value: Decimal | None, lang: Lang, on_request: str) -> str:
    if value is None:
        return on_request
    q = value.quantize(CENT, rounding=ROUND_HALF_UP)
    return f"¥{q:,.2f}"


def to_decimal(price: float) -> Decimal:
    return Decimal(str(price))


# ---------------------------------------------------------------- document


FOOTER_SIZE = 7.5
FOOTER_LEADING = 9.0
FOOTER_Y = 9 * mm
FOOTER_LINES = 3
"""The footer's left text wraps upwards into the bottom margin, at most this many lines (then it is cut with
'…'; the full text, e.g. a long quote number, is printed in the document's header table)."""


def footer_paragraph(text: str, font: str, width: float) -> TextParagraph:
    """The footer's left text as a paragraph that fits ``width`` in at most FOOTER_LINES lines."""
    style = ParagraphStyle(
        "footer", fontName=font, fontSize=FOOTER_SIZE, leading=FOOTER_LEADING, wordWrap="CJK",
        textColor=colors.HexColor("#555555"),
    )
    shown = text
    while True:
        para = TextParagraph(markup(shown), style)
        _, h = para.wrap(width, 10_000)
        if h <= FOOTER_LINES * FOOTER_LEADING + 0.1 or len(shown) <= 1:
            return para
        shown = shown[: max(1, int(len(shown) * 0.9)) - 1].rstrip() + "…"


def _footer_canvas(font: str, lang: Lang, left_text: str, first_note: str = "") -> type[Canvas]:
    """A canvas that draws 'page X of Y' once the total is known (pages are buffered until save); the left
    text wraps in the space left of the page number and never runs over it. ``first_note``: a line above the
    first page's footer (no Chinese font embedded)."""

    class NumberedCanvas(Canvas):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            # Start in the embedded font, so no unembedded Helvetica is declared in the PDF.
            if not kwargs.get("initialFontName"):
                kwargs["initialFontName"] = font
            super().__init__(*args, **kwargs)
            self._saved: list[dict[str, Any]] = []

        def showPage(self) -> None:
            self._saved.append(dict(self.__dict__))
            self._startPage()

        def save(self) -> None:
            total = len(self._saved)
            for state in self._saved:
                self.__dict__.update(state)
                self._draw_footer(total)
                super().showPage()
            super().save()

        def _draw_footer(self, total: int) -> None:
            width, _ = self._pagesize
            label = t("report.page_of", lang, page=self._pageNumber, pages=total)
            label_w = stringWidth(label, font, FOOTER_SIZE)
            self.saveState()
            self.setFont(font, FOOTER_SIZE)
            self.setFillColor(colors.HexColor("#555555"))
            self.drawRightString(width - MARGIN, FOOTER_Y, label)
            room = width - 2 * MARGIN - label_w - 6 * mm
            para = footer_paragraph(left_text, font, room)
            para.wrap(room, 10_000)
            # The last line's baseline sits on the page number's baseline.
            para.drawOn(self, MARGIN, FOOTER_Y - FOOTER_LEADING + FOOTER_SIZE)
            if first_note and self._pageNumber == 1:
                note = footer_paragraph(first_note, font, width - 2 * MARGIN)
                note.wrap(width - 2 * MARGIN, 10_000)
                note.drawOn(self, MARGIN, FOOTER_Y - FOOTER_LEADING + FOOTER_SIZE + para.height + 2)
            self.restoreState()

    return NumberedCanvas


def build_pdf(story: list[Flowable], *, paper: Paper, lang: Lang, title: str, footer: str, subject: str = "") -> bytes:
    """Lay out ``story`` and return the PDF bytes."""
    font = register_cjk_font()
    buf = io.BytesIO()
    doc = SimpleDocTemplate(
        buf,
        pagesize=PAGE_SIZES[paper],
        leftMargin=MARGIN,
        rightMargin=MARGIN,
        topMargin=MARGIN,
        bottomMargin=MARGIN + 4 * mm,
        title=clean_text(title),
        author="gpu-procure",
        subject=clean_text(subject),
        creator="gpu-procure",
        lang="zh-CN" if lang == "zh" else "en",
    )
    doc.build(story, canvasmaker=_footer_canvas(font, lang, clean_text(footer), unembedded_note(lang)))
    return buf.getvalue()


def check_target(path: str | Path, lang: Lang = "zh") -> None:
    """ExportError when ``path`` obviously cannot be written (a directory, or in a missing folder)."""
    target = Path(path)
    if target.is_dir():
        raise ExportError(t("report.write_failed", lang, path=target, reason=t("report.is_directory", lang)))
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise ExportError(
            t("report.write_failed", lang, path=target, reason=t("report.no_folder", lang, folder=folder))
        )
    if not os.access(folder, os.W_OK | os.X_OK):
        raise ExportError(t("report.write_failed", lang, path=target, reason=os.strerror(errno.EACCES)))


def write_pdf(path: str | Path, data: bytes, lang: Lang = "zh", inputs: Sequence[str | Path] = ()) -> None:
    """Write ``data`` to ``path`` with the safe writer; ExportError (nothing left behind) when it cannot be
    written."""
    write_pdfs([(path, data)], lang, inputs)


def write_pdfs(items: Sequence[tuple[str | Path, bytes]], lang: Lang = "zh",
               inputs: Sequence[str | Path] = ()) -> None:
    """Write every PDF or none (procurement.safe_io.write_files): a full disk on the second leaves neither;
    ``-`` is standard output; never over a device or one of ``inputs`` (the plan, the policy)."""
    for path, _ in items:
        if str(path) != STDOUT:
            check_target(path, lang)
    try:
        write_files(items, inputs=inputs, allow_stdout=True)
    except OSError as exc:
        target = exc.filename or items[0][0]
        raise ExportError(t("report.write_failed", lang, path=target, reason=exc.strerror or exc)) from None


_UNSAFE_IN_NAMES = re.compile(r'[\\/:*?"<>|\x00-\x1f\x7f]+')


def safe_filename(stem: str, suffix: str = ".pdf", limit: int = 80) -> str:
    """A file name from user text: no path separators or characters Windows refuses, not too long."""
    clean = _UNSAFE_IN_NAMES.sub("_", clean_text(stem)).strip(" ._") or "report"
    return clean[:limit].rstrip(" ._") + suffix


def policy_and_findings(
    plan: Plan, catalog: Catalog, policy: Policy | None, findings: Sequence[Finding] | None, lang: Lang
) -> tuple[Policy, Sequence[Finding]]:
    """The policy and findings a report is drawn from: the caller's (the GUI passes its live findings, so the
    rules are not evaluated twice), else the shipped policy and a fresh evaluation."""
    policy = policy or default_policy()
    if findings is None:
        from procurement.rules import evaluate

        findings = evaluate(plan, catalog, policy, lang)
    return policy, findings

"""One rule set for the text of every PDF: never break inside a word or between a number and its unit, 避头尾 for
Chinese (no '，；：）' at the start of a line, no '（' at its end), in the checklists of every example."""

from __future__ import annotations

import itertools
import re
import subprocess

import pytest
from reportlab.lib.styles import ParagraphStyle

from catalog.loader import Catalog
from procurement.checklist import build_checklists
from procurement.plan import load_plan
from procurement.reports import fonts as fonts_mod
from procurement.reports.text import CANNOT_END, CANNOT_START, TextParagraph, rich
from tests.conftest import EXAMPLES

EXAMPLE_NAMES = sorted(p.name for p in EXAMPLES.glob("*.gpuplan.yaml"))


def lines_of(text: str, width: float, size: float = 8) -> list[str]:
    font = fonts_mod.register_cjk_font()
    style = ParagraphStyle("t", fontName=font, fontSize=size, leading=size + 2, wordWrap="CJK", splitLongWords=True)
    para = TextParagraph(rich(text), style)
    para.wrap(width, 100_000)
    return ["".join(getattr(w, "text", "") for w in line.words) for line in para.blPara.lines]


def test_a_word_is_never_cut_even_in_a_narrow_column() -> None:
    for word in ("Unknown", "Attention", "Confirmed"):
        for width in (12, 20, 28, 36):
            assert word in lines_of(f"{word} {word}", width), (word, width)


def test_full_width_punctuation_never_starts_a_line() -> None:
    text = "PCIe（每台），共 1 台；警告：未知（厂商未提供）；风量（CFM）：按配置指南计算，约 4,000 CFM。"
    for width in range(40, 200, 3):
        got = lines_of(text, width)
        for a, b in itertools.pairwise(got):
            assert b[:1] not in CANNOT_START, (width, a, b)
            assert a.rstrip()[-1:] not in CANNOT_END, (width, a, b)


def test_a_number_stays_with_its_unit() -> None:
    text = "removing 2,063 W at a 20 °F rise needs about 285 CFM"
    for width in range(60, 240, 4):
        joined = "\n".join(lines_of(text, width))
        for kept in ("2,063 W", "20 °F", "285 CFM"):
            assert kept in joined, (width, joined)


@pytest.mark.parametrize("example", EXAMPLE_NAMES)
def test_no_checklist_reason_breaks_badly_at_any_table_width(example: str, catalog: Catalog) -> None:
    plan = load_plan(EXAMPLES / example, catalog)
    for lang in ("zh", "en"):
        texts = [x for cl in build_checklists(plan, catalog, lang=lang).values() for i in cl.items
                 for x in (i.reason, i.label)]
        for text in texts:
            for width in (110, 170, 230):
                got = lines_of(text, width)
                for a, b in itertools.pairwise(got):
                    assert b[:1] not in CANNOT_START, (lang, a, b)
                    inside = a[-1:].isalpha() and a[-1:].isascii() and b[:1].isalpha() and b[:1].isascii()
                    assert not (inside and a[-3:] + b[:3] in text), (lang, a, b)  # cut inside a word


@pytest.mark.parametrize("example", EXAMPLE_NAMES)
def test_the_english_checklist_pdf_prints_status_words_whole(example: str, catalog: Catalog) -> None:
    from procurement.reports.checklist_pdf import render_checklist_pdf

    pdf = render_checklist_pdf(load_plan(EXAMPLES / example, catalog), catalog, lang="en")
    text = subprocess.run(["pdftotext", "-layout", "-", "-"], input=pdf, capture_output=True, check=True).stdout
    layout = text.decode("utf-8")
    assert not re.search(r"\b(Unknow|Attentio|Confirme)\s*$", layout, re.M), "a status word was cut"
    assert "Unknown" in layout


@pytest.mark.parametrize("example", EXAMPLE_NAMES)
def test_english_documents_say_1_gpu_not_1_gpus(example: str, catalog: Catalog) -> None:
    from procurement.reports.acceptance_pdf import render_acceptance_pdf
    from procurement.reports.checklist_pdf import render_checklist_pdf

    plan = load_plan(EXAMPLES / example, catalog)
    for render in (render_checklist_pdf, render_acceptance_pdf):
        pdf = render(plan, catalog, lang="en")
        text = subprocess.run(["pdftotext", "-", "-"], input=pdf, capture_output=True, check=True).stdout.decode()
        flat = " ".join(text.split())
        assert not re.search(r"\b1 (GPUs|servers|nodes|cores|units|sockets|checks|items|modules)\b", flat), \
            re.findall(r".{40}\b1 (?:GPUs|servers|nodes|cores|units|sockets|checks|items|modules)\b", flat)

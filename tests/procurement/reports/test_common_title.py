"""The plan's title on the quote, checklist, acceptance and comparison PDFs: one line whatever it holds, printable, in
the document's metadata too; control characters, a 500-character title, CJK and right-to-left text never break the
paper."""

from __future__ import annotations

import datetime as dt
import io
from pathlib import Path

import pypdf
import pytest

from catalog.loader import Catalog, load_catalog
from procurement.plan import Plan, load_plan, with_value
from procurement.reports import render_checklist_pdf, render_quote_pdf
from procurement.reports.acceptance_pdf import render_acceptance_pdf
from procurement.reports.comparison_pdf import render_comparison_pdf

DATA = Path(__file__).parents[1] / "data"
TODAY = dt.date(2026, 3, 1)


@pytest.fixture(scope="module")
def cat() -> Catalog:
    return load_catalog(data_dir=DATA / "reports_catalog")


@pytest.fixture(scope="module")
def plan(cat: Catalog) -> Plan:
    return load_plan(DATA / "reports_plan.gpuplan.yaml", cat)


def _render(which: str, plan: Plan, cat: Catalog, lang: str) -> bytes:
    if which == "quote":
        return render_quote_pdf(plan, cat, lang=lang, today=TODAY)  # type: ignore[arg-type]
    if which == "acceptance":
        return render_acceptance_pdf(plan, cat, lang=lang, today=TODAY)  # type: ignore[arg-type]
    if which == "comparison":
        return render_comparison_pdf(plan, cat, lang=lang, today=TODAY)  # type: ignore[arg-type]
    return render_checklist_pdf(plan, cat, lang=lang, today=TODAY)  # type: ignore[arg-type]


def _read(pdf: bytes) -> tuple[str, str]:
    reader = pypdf.PdfReader(io.BytesIO(pdf))
    meta = reader.metadata
    return "\n".join(p.extract_text() for p in reader.pages), str(meta.subject if meta else "")


WHICH = ["quote", "checklist", "acceptance", "comparison"]


@pytest.mark.parametrize("which", WHICH)
def test_a_line_break_in_the_title_is_shown_not_obeyed(which: str, plan: Plan, cat: Catalog) -> None:
    """'Lab\\nAPPROVED' printed APPROVED as a heading line of its own; NUL and ESC reached the PDF's metadata."""
    titled = with_value(plan, "title", "Lab\nAPPROVED\x00\x1b[31m")
    text, subject = _read(_render(which, titled, cat, "en"))
    assert "Lab\\x0aAPPROVED[31m" in text
    assert not any(line.strip() == "APPROVED[31m" for line in text.splitlines())
    assert subject == "Lab\\x0aAPPROVED[31m"


@pytest.mark.parametrize("which", WHICH)
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_title_of_500_characters_is_printed_whole(which: str, lang: str, plan: Plan, cat: Catalog) -> None:
    title = "GPU-server-" + "x" * 478 + "-END"
    assert len(title) <= 500
    text, subject = _read(_render(which, with_value(plan, "title", title), cat, lang))
    assert title in text.replace("\n", "").replace(" ", "")  # wrapped, never cut
    assert subject == title


@pytest.mark.parametrize("which", WHICH)
@pytest.mark.parametrize("title", ["实验室训练服务器（第二期）", "خادم التدريب ٢٠٢٦", "Lab ‮evil‬ server"])
def test_cjk_and_right_to_left_titles_print(which: str, title: str, plan: Plan, cat: Catalog) -> None:
    pdf = _render(which, with_value(plan, "title", title), cat, "zh")
    text, subject = _read(pdf)
    assert "\u202e" not in subject and "\u202e" not in text  # a bidi override never reorders the paper
    if title.startswith("实验室"):
        assert title in text.replace(" ", "")
    assert subject == title.replace("\u202e", "").replace("\u202c", "")

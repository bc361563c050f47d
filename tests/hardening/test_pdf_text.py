"""Hostile text in every field that reaches a PDF: it exports, prints literally, injects no markup, reads no file."""

from __future__ import annotations

import datetime as dt
import io
import re
from pathlib import Path

import pypdf
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from catalog.loader import Catalog, load_catalog
from procurement.checklist import NBSP
from procurement.plan import ChecklistMark, Plan, PlanError, load_plan, with_value
from procurement.reports import render_checklist_pdf, render_quote_pdf
from procurement.reports.common import clean_text, one_line_name
from procurement.signoff import sign
from tests.conftest import EXAMPLES, every_part_priced
from tests.hardening.conftest import OpenWatch

TODAY = dt.date(2026, 3, 1)
SHORT_FIELDS = ("title", "quote.number", "quote.buyer.name", "quote.buyer.contact", "quote.buyer.address",
                "quote.vendor.name", "quote.vendor.contact", "quote.vendor.address")
"""Every free-text field of the plan printed on the quote or the checklist (ShortText: at most 500 chars)."""
MARKUP = [
    '<font size="80" color="red">BIG</font>',
    '<a href="file:///etc/passwd">link</a>',
    '<img src="/etc/passwd"/>',
    '<img src="{canary}" width="40" height="40"/>',
    '<onDraw name="showPage" label="x"/>',
    '<para autoLeading="max">p</para><br/><br/>',
    "&lt;b&gt; &amp; &#60;i&#62; &#x3c;u>",
    "<![CDATA[<b>x</b>]]> <seq id='s'/> <span style='x'>s</span> <unknown attr=1>",
    ") /JS (app.alert(1)) \\ (",
]
OTHER = [
    "\u202eevil\u202c مرحبا بالعالم שלום עולם",
    "👩\u200d👩\u200d👧\u200d👦 🚀🎉 \U0001f600 \ufe0f",
    "a\x00b\x01c\x1b[31md\x7f\x85e\u2028f\u2029g\x0b\x0c",
    "長" * 200 + "x" * 299,
]
@pytest.fixture
def watch_reads(open_watch: OpenWatch) -> Path:
    return open_watch.canary  # type: ignore[attr-defined,no-any-return]


def test_the_read_watch_would_see_an_injected_image(open_watch: OpenWatch) -> None:
    """Positive control: reportlab given the same text as markup (not escaped) opens the file."""
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.platypus import Paragraph

    canary = open_watch.canary  # type: ignore[attr-defined]
    try:
        Paragraph(f'<img src="{canary}" width="4" height="4"/>', ParagraphStyle("x")).wrap(100, 100)
    except Exception:  # only whether it tried to open the file matters
        pass
    assert open_watch.opened, "the audit hook saw no open: the no-read checks below would prove nothing"
    open_watch.opened.clear()


@pytest.fixture(scope="module")
def base(catalog: Catalog) -> Plan:
    return load_plan(EXAMPLES / "llm-cluster-node.gpuplan.yaml", catalog)


def _flat(text: str) -> str:
    return re.sub(r"\s+", "", text.replace(NBSP, " "))


def _text(pdf: bytes) -> str:
    return "\n".join(p.extract_text() for p in pypdf.PdfReader(io.BytesIO(pdf)).pages)


_PAGE_BREAK = re.compile(
    r"\n(?:Page \d+ of \d+\nPlan digest|第 \d+ 页，共 \d+ 页\n方案摘要) [0-9a-f]+\n+"
    r"(?:#\nItem\nStatus\nReason and figures\nNote\n|序号\n检查项\n状态\n依据与数值\n备注\n)?")
"""What a page break puts inside a table row that continues on the next page, in either language (the row's
text is whole; the footer and the repeated header stand between its halves). Where the break falls depends on
the payload's length, so a longer temporary path (pytest-xdist's popen-gwN) moves it into the note."""


def _page_furniture_removed(text: str) -> str:
    return _PAGE_BREAK.sub("\n", text)


def _printed_across_a_break(needle: str, flat: str) -> bool:
    """``needle`` starts whole (its first 10 characters) and every one of its characters follows in order
    within a row's reach: when a page break splits a table row, the rest of the row's other cells is extracted
    between the two halves of a long note."""
    start = flat.find(needle[:10])
    if start < 0:
        return False
    window, pos = flat[start:start + 3 * len(needle) + 400], 0
    for ch in needle:
        pos = window.find(ch, pos)
        if pos < 0:
            return False
        pos += 1
    return True


def _fill(plan: Plan, value: str, long_value: str) -> Plan:
    for path in SHORT_FIELDS:
        plan = with_value(plan, path, f"{path}:{value}"[:500])
    plan = with_value(plan, "notes", f"notes:{long_value}")
    plan = plan.model_copy(update={"checklist": {
        "ram": ChecklistMark(note=f"short-note:{value}"),
        "framework_installed": ChecklistMark(checked=True, note=f"long-note:{long_value}")}})
    plan = sign(plan, "approval", f"signer:{value}"[:500], f"role:{value}"[:500], load_catalog(), TODAY)
    report = {"schema_version": 1, "created": f"created:{value}", "host": {"hostname": f"host:{value}"},
              "driver_version": f"drv:{value}", "cuda_version": "12.4",
              "gpus": [{"index": 0, "name": f"gpu:{value}"}], "checks": [{"id": "GPU-COUNT", "status": "pass"}]}
    return with_value(plan, "verification", [report])


_PRICED: dict[int, Catalog] = {}


def _render_both(plan: Plan, catalog: Catalog, lang: str) -> tuple[bytes, bytes]:
    # the buyer's priced copy (notes included), not the vendor-facing request for quotation
    priced = _PRICED.setdefault(id(catalog), every_part_priced())
    quote = render_quote_pdf(plan, priced, findings=[], lang=lang, today=TODAY)  # type: ignore[arg-type]
    checklist = render_checklist_pdf(plan, catalog, findings=[], lang=lang, today=TODAY)  # type: ignore[arg-type]
    return quote, checklist


def _no_injection(pdf: bytes, baseline: bytes) -> None:
    assert pdf.startswith(b"%PDF-") and pdf.rstrip().endswith(b"%%EOF")
    # (the payload ") /JS (…" shows up escaped inside the /Subject string; the metadata check reads it back)
    for marker in (b"/URI", b"/Launch", b"/JavaScript", b"/Annots", b"/OpenAction"):
        assert marker not in pdf, marker
    assert pdf.count(b"/Subtype /Image") == baseline.count(b"/Subtype /Image"), "an image was embedded"


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("payload", MARKUP, ids=lambda s: re.sub(r"\W+", "_", s)[:24])
def test_markup_prints_literally(catalog: Catalog, base: Plan, watch_reads: Path, payload: str, lang: str) -> None:
    payload = payload.replace("{canary}", str(watch_reads))
    baseline = _render_both(base, catalog, lang)
    plan = _fill(base, payload, payload)
    for pdf, ref, fields in zip(_render_both(plan, catalog, lang), baseline,
                                [(*SHORT_FIELDS, "notes"), ("title", "short-note", "long-note", "signer", "role",
                                                            "host", "gpu", "drv", "created")], strict=True):
        _no_injection(pdf, ref)
        flat = _flat(_page_furniture_removed(_text(pdf)))
        for field in fields:
            if field == "long-note":  # a row that a page break splits: the other cells' rest stands inside it
                assert _printed_across_a_break(_flat(f"{field}:{payload}"), flat), (field, payload)
            else:
                assert _flat(f"{field}:{payload}") in flat, (field, payload)
    meta = pypdf.PdfReader(io.BytesIO(_render_both(plan, catalog, lang)[0])).metadata
    assert meta is not None and meta.subject == f"title:{payload}"  # PDF string syntax escaped too


@pytest.mark.parametrize("payload", OTHER, ids=["rtl", "emoji", "controls", "long"])
def test_rtl_emoji_control_characters(catalog: Catalog, base: Plan, watch_reads: Path, payload: str) -> None:
    long_word = "W" * 10_000  # one 10 000-character word in the notes and a checklist note
    plan = _fill(base, payload, long_word)
    quote, checklist = _render_both(plan, catalog, "en")
    text = _text(quote) + _text(checklist)
    assert _flat(text).count("W") >= 2 * 10_000, "the long word wraps; nothing of it is dropped"
    assert "title:" in text and "signer:" in text
    if payload is OTHER[0]:
        assert "evil" in text
    if payload is OTHER[2]:  # control characters are dropped, the letters between them stay in order
        assert "\x1b" not in text and "\x01" not in text and "\x7f" not in text
        # the title is one line: its line breaks print escaped (one_line_name), the rest of the controls dropped
        assert _flat(clean_text(one_line_name(f"title:{payload}"))) in _flat(text)
        assert "quote.number:abc[31mde" in _flat(text)
    if payload is OTHER[3]:
        assert _flat(text).count("長") >= 200 * 8
    assert len(pypdf.PdfReader(io.BytesIO(checklist)).pages) >= 2


def test_arabic_and_hebrew_names_are_printed(catalog: Catalog, base: Plan) -> None:
    """Fallback fonts per run, Arabic letters joined, right-to-left order: poppler reads the names back whole."""
    import subprocess
    import unicodedata

    plan = with_value(base, "quote.vendor.name", "شركة الخادم שרתים בע״מ")
    pdf = render_quote_pdf(plan, catalog, findings=[], lang="en", today=TODAY)
    assert "\x00" not in _text(pdf)  # no .notdef box in the text layer
    out = subprocess.run(["pdftotext", "-", "-"], input=pdf, capture_output=True, check=True).stdout.decode()
    text = re.sub("[\u202a-\u202e]", "", unicodedata.normalize("NFKC", out))
    assert "شركة الخادم" in text and "שרתים בע״מ" in text and "[U+" not in text


def test_lone_surrogates_never_reach_a_pdf(catalog: Catalog, base: Plan, watch_reads: Path) -> None:
    """Typed text with a lone surrogate is refused by the plan; a report's is cleaned (U+FFFD) and prints."""
    for path in (*SHORT_FIELDS, "notes"):
        with pytest.raises(PlanError, match="unable to parse raw data as a unicode string"):
            with_value(base, path, "x\ud800y")
    plan = _fill(base, "ok", "ok")
    plan = with_value(plan, "verification", [{**plan.verification_data()[0], "host": {"hostname": "node\udc80one"}}])
    assert plan.verification[0].host.hostname == "node\ufffdone"
    _, checklist = _render_both(plan, catalog, "en")
    assert "node" in _text(checklist)


hostile_text = st.lists(st.sampled_from(
    [*"<>&;#/=\"' ()\\[]!-axyz09", "<font size=60>", "</font>", "<img src=", "<a href=", "&amp;", "&#60;",
     "<br/>", "<para>", "長", "\x00", "\x1b", "\n"]), max_size=25).map("".join)
"""Markup fragments and the characters markup is made of (RTL and emoji: see the named tests above)."""


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(value=hostile_text, lang=st.sampled_from(["en", "zh"]))
def test_any_mix_of_markup_characters(base: Plan, watch_reads: Path, value: str, lang: str) -> None:
    catalog = load_catalog()  # not the session fixture: hypothesis runs this many times in one function scope
    plan = _fill(base, value, value)
    quote, checklist = _render_both(plan, catalog, lang)
    for pdf in (quote, checklist):
        assert pdf.startswith(b"%PDF-") and b"/URI" not in pdf
    shown = _flat(clean_text(one_line_name(f"title:{value}")))  # the title prints as one line
    assert shown in _flat(_text(quote)), (value, shown)


pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")


def test_typed_into_the_window_and_exported(qtbot, make_window, tmp_path: Path, monkeypatch, watch_reads: Path,
                                            catalog: Catalog, base: Plan) -> None:
    """The same through the real widgets: type markup into the buyer's name, export via File ▸ Export quote."""
    from gui import workers

    win = make_window()
    win.controller.new(base)
    page = win.page("QuotePage")
    assert page is not None
    win.show_page(win.pages.index(page))
    edit = page.fields["quote.buyer.name"]  # public attribute: plan path -> QLineEdit
    typed = f'<img src="{watch_reads}"/><font size=80>&amp;</font>'
    edit.setFocus()
    edit.selectAll()  # typing replaces the example's buyer name
    qtbot.keyClicks(edit, typed)
    assert win.controller.plan.quote.buyer.name == typed
    target = tmp_path / "out.pdf"
    monkeypatch.setattr(workers, "ask_export_path", lambda *args: target)
    with qtbot.waitSignal(page.work_done, timeout=30_000):
        win.named_actions["export_quote"].trigger()
    pdf = target.read_bytes()
    _no_injection(pdf, render_quote_pdf(base, catalog, findings=[], lang="en", today=TODAY))
    assert _flat(typed) in _flat(_text(pdf))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_line_breaks_a_person_typed_read_as_spaces_inside_a_sentence(catalog: Catalog, base: Plan, lang: str,
                                                                     tmp_path: Path) -> None:
    """A delivery term, a price's source, a confirmation note and a waiver's reason typed on two lines are set
    inside a sentence (the RFQ's 'the buyer asks for: …', the prices' sources, the checklist's 'confirmed by
    …: …', a waived finding): one space between the lines, not the '\\x0a' the messages show for a forged line
    break in a name."""
    from procurement.evaluation import evaluate
    from procurement.policy import default_policy
    from procurement.waivers import waive

    plan = with_value(base, "quote.delivery", "within 30 days\nfrom signing")
    plan = with_value(plan, "prices", {"h100-sxm5-80gb": {"price_cny": 250_000, "kind": "vendor_quote",
                                                          "source": "Vendor A quote\nno. 17"}})
    plan = plan.model_copy(update={"checklist": {
        "cooling": ChecklistMark(checked=True, note="airflow confirmed\nby the vendor", by="Zhang\nSan")}})
    finding = next(f for f in evaluate(plan, catalog, default_policy(), lang).findings if f.severity.value != "info")
    plan = waive(plan, finding, "accepted by the lab\nfor this quarter", "Li", TODAY)
    texts = [_flat_spaces(_text(render_quote_pdf(plan, catalog, lang=lang, today=TODAY, document="rfq"))),  # type: ignore[arg-type]
             _flat_spaces(_text(render_quote_pdf(plan, _PRICED.setdefault(id(catalog), every_part_priced()),  # type: ignore[arg-type]
                                                 lang=lang, today=TODAY))),
             _flat_spaces(_text(render_checklist_pdf(plan, catalog, lang=lang, today=TODAY)))]  # type: ignore[arg-type]
    rfq, quote, checklist = texts
    assert "within 30 days from signing" in rfq
    assert "Vendor A quote no. 17" in quote
    assert "airflow confirmed by the vendor" in checklist and "Zhang San" in checklist
    waived = next(f for f in evaluate(plan, catalog, default_policy(), lang).findings if f.waived is not None)
    assert "accepted by the lab for this quarter" in waived.message_text(lang)
    for text in [*texts, waived.message_text(lang)]:
        assert "\\x0a" not in text


def _flat_spaces(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace(NBSP, " "))

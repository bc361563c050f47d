"""The PDF text engine: fallback fonts per run, right-to-left names, tokens never split, headings with their first
lines, the footer clear of the page number, missing glyphs named, export with no system font at all."""

from __future__ import annotations

import datetime as dt
import os
import re
import subprocess
import sys
import unicodedata
from collections.abc import Iterator
from pathlib import Path

import pytest
from reportlab.lib.styles import ParagraphStyle

from catalog.loader import Catalog
from procurement.plan import Plan, canonical_digest, load_plan, save_plan, with_value
from procurement.reports import fonts as fonts_mod
from procurement.reports import render_checklist_pdf, render_quote_pdf
from procurement.reports.checklist_pdf import NOTE_CELL_CHARS
from procurement.reports.text import TextParagraph, collect_missing, rich
from tests.conftest import EXAMPLES

TODAY = dt.date(2026, 3, 1)
SIGNER = "王𡈼"
VENDOR = "艾力·买买提 ئەلى مەمەت 科技有限公司"
DIGEST = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
TOKENS = ("KF556C40BB-32", "SHA-256", DIGEST, "nvcr.io/nvidia/pytorch:24.05-py3")
BIDI_MARKS = re.compile("[\u200e\u200f\u202a-\u202e\u2066-\u2069]")


@pytest.fixture(scope="module")
def base(catalog: Catalog) -> Plan:
    return load_plan(EXAMPLES / "llm-cluster-node.gpuplan.yaml", catalog)


def pdftotext(pdf: bytes, *args: str) -> str:
    """poppler's text layer (it puts right-to-left runs back into logical order), NFKC so that joined Arabic
    forms read as the letters typed, bidi marks removed."""
    out = subprocess.run(["pdftotext", *args, "-", "-"], input=pdf, capture_output=True, check=True).stdout
    return BIDI_MARKS.sub("", unicodedata.normalize("NFKC", out.decode("utf-8")))


def flat(text: str) -> str:
    return re.sub(r"\s+", "", text)


def pages(pdf: bytes) -> list[str]:
    return pdftotext(pdf).split("\f")


def test_hostile_names_print_whole_with_fallback_fonts(
    catalog: Catalog, buyer_catalog: Catalog, base: Plan
) -> None:
    from procurement.signoff import sign

    plan = with_value(base, "quote.vendor.name", VENDOR)
    plan = sign(plan, "approval", SIGNER, "采购负责人", catalog, TODAY)
    for lang in ("zh", "en"):
        with collect_missing() as missing:
            quote = render_quote_pdf(plan, buyer_catalog, findings=[], lang=lang,  # type: ignore[arg-type]
                                     today=TODAY)
            checklist = render_checklist_pdf(plan, catalog, findings=[], lang=lang, today=TODAY)  # type: ignore[arg-type]
        assert not missing
        q, c = pdftotext(quote), pdftotext(checklist)
        # Uyghur letters joined, in logical order once read back (the reader may move a space at the edge of a
        # right-to-left run), the Extension B ideograph kept
        assert flat(VENDOR) in flat(q) and "ئەلى مەمەت" in q
        assert SIGNER in c
        assert "\x00" not in q + c and "[U+" not in q + c


def test_the_acceptance_sheet_prints_hostile_names_whole(catalog: Catalog, base: Plan) -> None:
    from procurement.reports.acceptance_pdf import render_acceptance_pdf
    from procurement.signoff import sign

    contract = "HT-2026/0815-KF556C40BB-32"
    plan = with_value(base, "quote.vendor.name", VENDOR)
    plan = plan.model_copy(update={"acceptance": plan.acceptance.model_copy(update={
        "contract_number": contract, "conclusion": "rework", "reasons": f"{VENDOR} 整改 SHA-256 {DIGEST}"})})
    plan = sign(sign(plan, "approval", SIGNER, "使用部门", catalog, TODAY), "acceptance", SIGNER, "资产管理", catalog,
                TODAY)
    for lang in ("zh", "en"):
        with collect_missing() as missing:
            pdf = render_acceptance_pdf(plan, catalog, findings=[], lang=lang, today=TODAY)  # type: ignore[arg-type]
        assert not missing
        text = pdftotext(pdf)
        assert flat(VENDOR) in flat(text) and "ئەلى مەمەت" in text
        assert text.count(SIGNER) >= 2 and contract in text and DIGEST in text and "SHA-256" in text
        assert "[U+" not in text


def test_arabic_letters_are_joined_and_right_to_left() -> None:
    markup = rich("شركة")
    # joined presentation forms, still in the order typed (the line breaker orders each line for display)
    assert re.sub(r"<[^>]+>", "", markup) == "\ufeb7\ufeae\ufedb\ufe94"
    assert "<font face=" in markup  # not the CJK font: a fallback that has Arabic glyphs
    font = fonts_mod.register_cjk_font()
    para = TextParagraph(markup, ParagraphStyle("t", fontName=font, fontSize=9, leading=11, wordWrap="CJK"))
    para.wrap(200, 1_000)
    # on the page, right to left: final TEH MARBUTA first, initial SHEEN last
    assert _lines(para) == ["\ufe94\ufedb\ufeae\ufeb7"]


def _logical(shown: str) -> str:
    """A displayed right-to-left line read back in typed order: joined forms to letters, reversed."""
    return unicodedata.normalize("NFKC", shown)[::-1]


def test_a_wrapped_right_to_left_name_reads_line_by_line_in_typed_order() -> None:
    """The Uyghur vendor name wrapped in a narrow cell: the first word typed is on the first line (each line ordered
    on its own after breaking), not the last word, as ordering the whole paragraph before breaking did."""
    font = fonts_mod.register_cjk_font()
    style = ParagraphStyle("t", fontName=font, fontSize=9, leading=11, wordWrap="CJK")
    para = TextParagraph(rich(VENDOR), style)
    para.wrap(40, 10_000)
    lines = _lines(para)
    rtl = [i for i, line in enumerate(lines) if re.search("[\u0600-\u06ff\ufb50-\ufeff]", line)]
    assert len(rtl) >= 2, lines  # the two Uyghur words on lines of their own
    first = next(i for i in rtl if "ئەلى" in _logical(lines[i]))
    second = next(i for i in rtl if "مەمەت" in _logical(lines[i]))
    assert first < second, [_logical(lines[i]) for i in rtl]
    assert lines[0].startswith("艾力") and lines[-1].endswith("公司")
    # within one line: each run right to left, the brackets where a reader expects them (mirrored inside a
    # right-to-left run, where the order of the characters is reversed)
    for typed, shown in (("供应商 (ئەلى مەمەت)", "供应商 (تەمەم ىلەئ)"), ("ئەلى (مەمەت) ئەلى", "ىلەئ (تەمەم) ىلەئ")):
        para = TextParagraph(rich(typed), style)
        para.wrap(400, 1_000)
        assert [unicodedata.normalize("NFKC", line) for line in _lines(para)] == [shown]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_tokens_are_never_split_across_lines(
    catalog: Catalog, buyer_catalog: Catalog, base: Plan, lang: str
) -> None:
    sentence = "内存 KF556C40BB-32，校验 SHA-256 摘要 " + DIGEST + " 镜像 nvcr.io/nvidia/pytorch:24.05-py3 。"
    plan = with_value(base, "notes", "\n".join(sentence for _ in range(6)))
    plan = plan.model_copy(update={"checklist": {"ram": _mark(sentence * 2)}})
    quote = pdftotext(render_quote_pdf(plan, buyer_catalog, findings=[], lang=lang,  # type: ignore[arg-type]
                                       today=TODAY))
    for token in TOKENS:  # whole, on one line of the text layer (the notes run the full width)
        assert quote.count(token) >= 6, token
    checklist = pdftotext(render_checklist_pdf(plan, catalog, findings=[], lang=lang, today=TODAY))  # type: ignore[arg-type]
    # a narrow note cell: the tokens that fit its width stay whole (a 64-digit digest cannot, and is cut)
    assert checklist.count("KF556C40BB-32") == 2 and checklist.count("SHA-256") >= 2
    digest = canonical_digest(plan)
    assert quote.count(digest[:16]) >= 2 and digest in quote  # the plan's own digest: whole, in its row
    assert digest in checklist


def _mark(note: str):  # type: ignore[no-untyped-def]
    from procurement.plan import ChecklistMark

    return ChecklistMark(note=note)


def test_the_line_breaker_breaks_at_spaces_and_between_cjk_only() -> None:
    font = fonts_mod.register_cjk_font()
    style = ParagraphStyle("t", fontName=font, fontSize=9, leading=11, wordWrap="CJK")
    text = "型号KF556C40BB-32与SHA-256校验和部件编号MZQL23T8HCLS以及版本535.104.05" * 3
    para = TextParagraph(rich(text), style)
    para.wrap(90, 10_000)
    lines = _lines(para)
    assert len(lines) > 5
    assert "".join(lines) == text
    for token in ("KF556C40BB-32", "SHA-256", "MZQL23T8HCLS", "535.104.05"):
        assert sum(line.count(token) for line in lines) == 3, (token, lines)
    long_token = "x" * 300  # longer than a line: cut, nothing lost
    para = TextParagraph(rich(long_token), style)
    para.wrap(90, 10_000)
    assert len(_lines(para)) > 3 and "".join(_lines(para)) == long_token


def _lines(para: TextParagraph) -> list[str]:
    """The text of each laid-out line (reportlab's two line kinds: (space, words) tuples, or fragment lines)."""
    out = []
    for line in para.blPara.lines:
        if isinstance(line, tuple):
            out.append(" ".join(line[1]))
        else:
            out.append("".join(getattr(f, "text", "") for f in line.words))
    return out


def test_heading_stays_with_its_first_lines_not_its_whole_section(buyer_catalog: Catalog, base: Plan) -> None:
    notes = "\n".join(f"备注第 {i} 行" for i in range(40))
    pdf = render_quote_pdf(with_value(base, "notes", notes), buyer_catalog, findings=[], lang="zh", today=TODAY)
    text = pages(pdf)
    heading = next(i for i, p in enumerate(text) if "方案备注" in p)
    before = next(i for i, p in enumerate(text) if "价格及来源" in p)
    assert "备注第 0 行" in text[heading] and before <= heading
    # the section before (the prices and their sources) ends on the page where the notes start: nothing was
    # pushed to a fresh page
    above = text[heading].split("方案备注", 1)[0]
    assert "来源" in above or "https://" in above, above
    assert any("备注第 39 行" in p for p in text[heading:heading + 2])


def test_long_address_starts_on_the_first_page(buyer_catalog: Catalog, base: Plan) -> None:
    address = "北京市海淀区中关村大街 1 号 " * 40
    pdf = render_quote_pdf(with_value(base, "quote.buyer.address", address[:500]), buyer_catalog, findings=[],
                           lang="zh",
                           today=TODAY)
    first = pages(pdf)[0]
    assert "采购方" in first and "北京市海淀区" in first


def test_checklist_long_note_heading_with_its_first_note(catalog: Catalog, base: Plan) -> None:
    plan = base.model_copy(update={"checklist": {"ram": _mark("很长的备注。" * (NOTE_CELL_CHARS // 3))}})
    text = pages(render_checklist_pdf(plan, catalog, findings=[], lang="zh", today=TODAY))
    page = next(i for i, p in enumerate(text) if "\n备注全文\n" in p)
    assert "很长的备注" in text[page].split("\n备注全文\n", 1)[1]


def _words(pdf: bytes) -> list[tuple[int, float, float, float, float, str]]:
    html = subprocess.run(["pdftotext", "-bbox", "-", "-"], input=pdf, capture_output=True, check=True).stdout
    out = []
    for n, page in enumerate(html.decode().split("<page ")[1:]):
        for m in re.finditer(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>',
                             page):
            out.append((n, *(float(m.group(i)) for i in range(1, 5)), m.group(5)))
    return out


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_long_quote_number_never_runs_over_the_page_number(catalog: Catalog, base: Plan, lang: str) -> None:
    number = "Q-" + "KF556C40BB-32-" * 35
    pdf = render_quote_pdf(with_value(base, "quote.number", number[:500]), catalog,  # type: ignore[arg-type]
                           findings=[], lang=lang,
                           today=TODAY)
    words = _words(pdf)
    label = "第" if lang == "zh" else "Page"
    for n in {w[0] for w in words}:
        page_label = [w for w in words if w[0] == n and w[5] == label and w[2] > 780]
        assert page_label, n
        x0 = page_label[0][1]
        footer = [w for w in words if w[0] == n and w[2] > 760 and w[1] < x0 and w[5] != label]
        assert footer  # the footer's left text is there …
        assert all(w[3] < x0 for w in footer), [w for w in footer if w[3] >= x0]  # … and ends left of the label
        assert all(w[4] < 842 - 8 for w in words if w[0] == n)  # nothing below the paper's edge


def test_export_with_no_system_fonts_at_all(tmp_path: Path, base: Plan) -> None:
    """A machine with no font installed: reportlab's built-in CID font (no file) prints the Chinese text, and
    a character no font has is named in a warning and shown as its code point, never dropped silently."""
    plan = tmp_path / "p.gpuplan.yaml"
    save_plan(with_value(base, "quote.vendor.name", "供应商 ئەلى 王𡈼"), plan)
    env = {**os.environ, "GPU_PROCURE_SYSTEM_FONTS": "0", "PYTHONPATH": str(Path(__file__).parents[3])}
    env.pop("GPU_PROCURE_CJK_FONT", None)
    out = tmp_path / "q.pdf"
    run = subprocess.run([sys.executable, "-m", "procurement.commands.cli", "export", str(plan), "--quote", str(out),
                          "--lang", "zh"], capture_output=True, text=True, env=env, timeout=120, check=False)
    assert run.returncode == 0, run.stderr
    assert "U+2123C" in run.stderr and "U+0626" in run.stderr and "没有可用字体" in run.stderr
    pdf = out.read_bytes()
    assert b"/STSong-Light" in pdf and b"/FontFile2" not in pdf  # nothing of the system embedded
    body = pdftotext(pdf)
    assert "询价单" in body and "[U+2123C]" in body and "王" in body  # the example has lines on request


@pytest.fixture
def bare_chain() -> Iterator[None]:
    old = fonts_mod.reset_font_chain(fonts_mod.build_chain(primary=[], fallbacks=[]))
    try:
        yield
    finally:
        fonts_mod.reset_font_chain(old)


def test_missing_characters_are_collected_once_in_order(bare_chain: None) -> None:
    chain = fonts_mod.font_chain()
    chain.system = False  # no fontconfig look-ups: only the built-in fonts
    with collect_missing() as missing:
        markup = rich("王𡈼 שלום 𡈼")
    assert list(missing) == ["𡈼", "ש", "ל", "ו", "ם"]  # in the order typed
    assert "[U+2123C]" in markup and "王" in markup


def test_acceptance_sheet(catalog: Catalog) -> None:
    from procurement.plan import AcceptanceInfo
    from procurement.reports.acceptance_pdf import render_acceptance_pdf

    plan = load_plan(Path(__file__).parents[1] / "data" / "plans" / "v5.gpuplan.yaml", catalog)
    digest = canonical_digest(plan)
    node = {"schema_version": 1, "plan_digest": digest, "host": {"hostname": "gpu-node-07", "dmi_serial": "S2411-0007"},
            "gpus": [{"index": 0, "name": "NVIDIA A100-PCIE-40GB", "serial": "1324021012345",
                      "uuid": "GPU-5d2c1e0a-1111-2222-3333-444455556666"}],
            "checks": [{"id": "GPU-COUNT", "status": "fail", "expected": "4", "actual": "1", "message": "1 of 4"}]}
    stale = {**node, "plan_digest": "0" * 64, "host": {"hostname": "old-node"}}
    plan = with_value(plan, "verification", [node, stale]).model_copy(update={"acceptance": AcceptanceInfo(
        contract_number="HT-2026-118", delivery_date=TODAY, conclusion="rework", reasons="3 张 GPU 未到货")})
    text = pdftotext(render_acceptance_pdf(plan, catalog, findings=[], lang="zh", today=TODAY))
    for expected in ("到货验收单", "HT-2026-118", "2026-03-01", "gpu-node-07", "S2411-0007", "1324021012345",
                     "GPU-5d2c1e0a-1111-2222-3333-444455556666", "GPU-COUNT", "不通过", "1 of 4",
                     "☑ 整改后复验", "☐ 合格", "3 张 GPU 未到货", "方案审批签署", "到货验收签署", "盖章",
                     "供应商代表", "不证明签署人身份"):
        assert expected in text, expected
    expected = unicodedata.normalize("NFKC", "其他方案或本方案的旧版本（000000000000）——不作为验收依据")
    assert flat(expected) in flat(text)
    assert text.count("GPU-COUNT") == 1  # the other plan's report is not evidence: its checks are not listed
    assert "☐" in text.split("人工检查项", 1)[1]  # manual items print tick boxes

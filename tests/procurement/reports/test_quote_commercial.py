"""The Chinese commercial quote (报价单): terms, parties, signature blocks, the issued number frozen in the plan,
the cost of ownership on the buyer's copy, and a vendor-facing RFQ (询价单) without internal content."""

from __future__ import annotations

import datetime as dt
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from catalog.loader import Catalog
from procurement.plan import Plan, TcoInputs, load_plan, with_value
from procurement.reports import build_quote, issue_quote, render_quote_pdf

EXAMPLES = Path(__file__).resolve().parents[3] / "resources" / "examples"
DAY = dt.date(2026, 12, 1)
NOTE = "内部备注：院系预算卡号 4711 不得外传"

needs_pdftotext = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="pdftotext (poppler-utils) missing")


def pdftotext(pdf: bytes, tmp_path: Path) -> str:
    path = tmp_path / "doc.pdf"
    path.write_bytes(pdf)
    out = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True).stdout
    return re.sub(r"\s+", " ", out)


def _plan(cat: Catalog) -> Plan:
    plan = load_plan(EXAMPLES / "personal-research.gpuplan.yaml", cat)
    for path, value in {
        "quote.delivery": "合同签订后 30 日内", "quote.warranty": "整机三年原厂质保，7×24 小时响应",
        "quote.payment": "验收合格后 30 日内付全款", "quote.invoice": "special",
        "quote.freight": "含运费及上门安装调试",
        "quote.vendor.name": "示例科技有限公司", "quote.vendor.tax_id": "91310000MA1K000000",
        "quote.vendor.bank": "招商银行上海分行", "quote.vendor.bank_account": "1219 0000 0000 001",
        "quote.vendor.phone": "021-87654321", "quote.buyer.tax_id": "12100000400000000X",
        "notes": NOTE,
        "tco": TcoInputs(electricity_cny_per_kwh=0.7, pue=1.3, service_life_years=5),
        "requirements.utilisation_pct": 60,
    }.items():
        plan = with_value(plan, path, value)
    return plan


@needs_pdftotext
def test_the_buyers_quote_carries_the_terms_parties_tco_and_signatures(buyer_catalog: Catalog,
                                                                       tmp_path: Path) -> None:
    plan = issue_quote(_plan(buyer_catalog), DAY)
    text = pdftotext(render_quote_pdf(plan, buyer_catalog, lang="zh"), tmp_path)
    assert text.lstrip().startswith("报价单")
    for label, value in (("交货期", "合同签订后 30 日内"), ("质保/售后", "整机三年原厂质保，7×24 小时响应"),
                         ("付款方式", "验收合格后 30 日内付全款"), ("发票类型", "增值税专用发票"),
                         ("运费/安装调试", "含运费及上门安装调试"), ("报价有效期", "30 天（至 2026-12-31）")):
        assert f"{label} {value}" in text, label
    for value in ("纳税人识别号", "91310000MA1K000000", "12100000400000000X", "开户行", "招商银行上海分行",
                  "账号", "1219 0000 0000 001", "电话", "021-87654321"):
        assert value in text, value
    assert "采购方（盖章）" in text and "供应商（盖章）" in text and text.count("授权代表签字") == 2
    # the cost of ownership, computed from the same figures as check --json, on the buyer's copy
    assert "总拥有成本（购置 + 电费）" in text and "PUE 1.3 × 利用率 60%" in text and "5 年总拥有成本：¥" in text
    # internal content: the buyer's copy only
    assert NOTE in text and "LIC-EXPORT" in text and "出口管制" in text


@needs_pdftotext
def test_the_vendor_rfq_never_carries_internal_content(buyer_catalog: Catalog, tmp_path: Path) -> None:
    plan = issue_quote(_plan(buyer_catalog), DAY)
    text = pdftotext(render_quote_pdf(plan, buyer_catalog, lang="zh", document="rfq"), tmp_path)
    assert text.lstrip().startswith("询价单")
    for internal in (NOTE, "4711", "LIC-EXPORT", "出口管制", "未解决的问题", "总拥有成本", "电费", "PUE",
                     "合计（含税）", "¥11,503.54", "价格及来源"):
        assert internal not in text, internal
    # what the buyer asks of the vendor is there, with the buyer's own terms
    assert "交货期（自合同签订之日起的天数）。（采购方要求：合同签订后 30 日内）" in text
    assert "（采购方要求：增值税专用发票）" in text
    en = pdftotext(render_quote_pdf(plan, buyer_catalog, lang="en", document="rfq"), tmp_path)
    assert "Request for quotation" in en and "4711" not in en and "Export-control" not in en


def test_terms_not_given_say_so_and_extra_party_rows_only_when_given(buyer_catalog: Catalog) -> None:
    from tests.procurement.reports.test_quote_and_checklist_pdf import text as pypdf_text

    plan = load_plan(EXAMPLES / "personal-research.gpuplan.yaml", buyer_catalog)
    text = pypdf_text(render_quote_pdf(plan, buyer_catalog, lang="en", today=DAY))
    assert "Delivery not stated" in text.replace("\n", " ")
    assert "Tax id" not in text and "Bank" not in text


def test_an_issued_quote_keeps_its_number_date_and_validity(buyer_catalog: Catalog) -> None:
    plan = issue_quote(_plan(buyer_catalog).model_copy(update={"quote": _plan(buyer_catalog).quote.model_copy(
        update={"number": ""})}), DAY)
    issued = plan.quote.issued
    assert issued is not None and issued.date == DAY and issued.valid_until == DAY + dt.timedelta(days=30)
    assert issued.number.startswith("Q20261201-")
    later = DAY + dt.timedelta(days=45)
    q = build_quote(plan, buyer_catalog, today=later)
    assert (q.number, q.date, q.valid_until, q.issued) == (issued.number, DAY, issued.valid_until, True)
    assert issue_quote(plan, later) == plan, "re-issuing without asking for a new number changes nothing"
    # changing the validity afterwards does not change the issued quote either
    assert build_quote(with_value(plan, "quote.validity_days", 90), buyer_catalog, today=later).valid_until == \
        issued.valid_until


def test_a_new_quote_number_is_a_different_number(buyer_catalog: Catalog) -> None:
    plan = issue_quote(_plan(buyer_catalog), DAY)
    assert plan.quote.issued is not None and plan.quote.issued.number == "EX-2024-002"  # the buyer's own number
    second = issue_quote(plan, DAY, renew=True)
    third = issue_quote(second, DAY + dt.timedelta(days=3), renew=True)
    assert [p.quote.issued.number for p in (second, third) if p.quote.issued] == ["EX-2024-002-2", "EX-2024-002-3"]
    assert third.quote.issued is not None and third.quote.issued.date == DAY + dt.timedelta(days=3)


def test_a_changed_configuration_is_said_on_the_issued_quote(buyer_catalog: Catalog) -> None:
    plan = issue_quote(_plan(buyer_catalog), DAY)
    assert build_quote(plan, buyer_catalog, lang="en").stale_since is None
    changed = with_value(plan, "gpu.count", 2)
    q = build_quote(changed, buyer_catalog, lang="en", today=DAY + dt.timedelta(days=5))
    # not printed under the old number: the next one, provisionally, dated today with today's validity
    assert q.stale_since is not None and q.number == "EX-2024-002-2" and not q.issued
    assert q.date == DAY + dt.timedelta(days=5) and (q.valid_until - q.date).days == plan.quote.validity_days
    assert any("configuration changed after quote EX-2024-002 was issued" in n for n in q.notes)
    assert any("not issued yet" in n for n in q.notes)


@needs_pdftotext
def test_export_rfq_from_the_command_line(buyer_catalog: Catalog, tmp_path: Path) -> None:
    import argparse

    from procurement.commands.export import run_export
    from procurement.plan import save_plan

    plan_path = tmp_path / "p.gpuplan"
    save_plan(issue_quote(_plan(buyer_catalog), DAY), plan_path)
    rfq, quote = tmp_path / "rfq.pdf", tmp_path / "quote.pdf"
    args = argparse.Namespace(plan=plan_path, quote=quote, rfq=rfq, checklist=None, acceptance=None, lang="zh",
                              paper="a4", policy=None)
    assert run_export(args, buyer_catalog) == 0
    rfq_text = pdftotext(rfq.read_bytes(), tmp_path)
    quote_text = pdftotext(quote.read_bytes(), tmp_path)
    assert rfq_text.lstrip().startswith("询价单") and NOTE not in rfq_text and "EX-2024-002" in rfq_text
    assert quote_text.lstrip().startswith("报价单") and NOTE in quote_text


def test_export_issue_stores_the_quote_in_the_plan_once(buyer_catalog: Catalog, tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    import argparse

    from procurement.commands.export import run_export
    from procurement.plan import save_plan

    plan_path = tmp_path / "p.gpuplan"
    save_plan(_plan(buyer_catalog), plan_path)

    def export(name: str) -> int:
        args = argparse.Namespace(plan=plan_path, quote=tmp_path / name, rfq=None, checklist=None, acceptance=None,
                                  lang="en", paper="a4", policy=None, issue=True)
        return run_export(args, buyer_catalog)

    assert export("a.pdf") == 0
    issued = load_plan(plan_path, buyer_catalog).quote.issued
    assert issued is not None and issued.number == "EX-2024-002"
    out = capsys.readouterr().out
    assert f"issued quote EX-2024-002; its number, date and validity are stored in {plan_path}" in out
    before = plan_path.read_bytes()
    assert export("b.pdf") == 0
    assert plan_path.read_bytes() == before, "issued once: exporting again does not touch the plan"


def test_issuing_the_approved_quote_keeps_the_approval_valid(buyer_catalog: Catalog) -> None:
    """Exporting the quote after the plan approval issues it: the approval covers the quote's content (terms,
    parties, validity days), not when its paper went out, so it stays valid; a changed term voids it."""
    from procurement.signoff import SignoffState, sign, signoff_status

    signed = sign(_plan(buyer_catalog), "approval", "王芳", "user department", buyer_catalog, date=DAY)
    assert signoff_status(signed, "approval", buyer_catalog).state == SignoffState.VALID
    issued = issue_quote(signed, DAY)
    assert issued.quote.issued is not None
    assert signoff_status(issued, "approval", buyer_catalog).state == SignoffState.VALID
    changed = with_value(issued, "quote.payment", "预付 30%")
    status = signoff_status(changed, "approval", buyer_catalog, lang="zh")
    assert status.state == SignoffState.VOID and any("付款方式" in c for c in status.changes)


@needs_pdftotext
def test_an_issued_quote_states_one_validity(buyer_catalog: Catalog, tmp_path: Path) -> None:
    """The validity set after issuing does not change the paper: header and terms say the issued 30 days."""
    plan = with_value(issue_quote(_plan(buyer_catalog), DAY), "quote.validity_days", 90)
    text = pdftotext(render_quote_pdf(plan, buyer_catalog, lang="zh", today=DAY + dt.timedelta(days=2)), tmp_path)
    assert "有效期至 2026-12-31（30 天）" in text and "报价有效期 30 天（至 2026-12-31）" in text
    assert "90 天" not in text


def _numbered(text: str, names: dict[str, str]) -> dict[int, str]:
    """Line number → the parts whose name starts with its first three words, in a pdftotext -layout."""
    out: dict[int, str] = {}
    for m in re.finditer(r"^\s+(\d+) (\S+ \S+ \S+)", text, re.MULTILINE):
        parts = " ".join(sorted(k for k, name in names.items() if name == m.group(2)))
        if parts:  # a line item (not a numbered note, not a part named in fewer than three words)
            out[int(m.group(1))] = parts
    return out


@needs_pdftotext
@pytest.mark.parametrize("example", ["mid-size-training", "llm-cluster-node"])
def test_the_request_and_the_quote_number_the_same_lines_alike(example: str, tmp_path: Path,
                                                                 catalog: Catalog) -> None:
    # the PSUs that ship in the chassis were line 8 of the request and no line of the priced quote, so the
    # quote's line 8 was the chassis: a vendor answering by line number was matched to the wrong item
    from procurement.budgets.cost import bill_of_materials
    from procurement.reports import render_quote_pdf
    from tests.conftest import EXAMPLES, every_part_priced

    plan = load_plan(EXAMPLES / f"{example}.gpuplan.yaml", catalog)
    bom = bill_of_materials(plan, catalog)
    assert bom.included, "the example's chassis ships with its PSUs"
    names = {line.part_id: " ".join(line.name.split()[:3]) for line in bom.lines}
    names |= {inc.part.id: " ".join(inc.part.name.split()[:3]) for inc in bom.included}
    rfq = _numbered(_layout(render_quote_pdf(plan, catalog, lang="en", document="rfq"), tmp_path), names)
    quote = _numbered(_layout(render_quote_pdf(plan, every_part_priced(), lang="en"), tmp_path), names)
    assert rfq == quote and len(quote) >= 8
    assert bom.included[0].part.id in quote.values()


def _layout(pdf: bytes, tmp_path: Path) -> str:
    path = tmp_path / "doc.pdf"
    path.write_bytes(pdf)
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True,
                          check=True).stdout

"""The quote page as a buyer uses it: commercial terms and tax ids typed in, the cost of ownership entered, the
quote exported (and issued), exported again unchanged, a new number issued, and the RFQ for vendors exported
without internal content. Asserts on the plan and on the PDF's text (pdftotext)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from gui import workers
from gui.controller import PlanController
from gui.pages.quote_view import QuotePage
from procurement.plan import load_plan, with_value

EXAMPLES = Path(__file__).resolve().parents[3] / "resources" / "examples"
NOTE = "内部：经费卡号 4711"

pytestmark = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="pdftotext (poppler-utils) missing")


def pdftotext(path: Path) -> str:
    out = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True).stdout
    return re.sub(r"\s+", " ", out)


@pytest.fixture
def page(qtbot, buyer_catalog, policy):
    ctl = PlanController(buyer_catalog, policy, lang="zh")
    plan = load_plan(EXAMPLES / "personal-research.gpuplan.yaml", buyer_catalog)
    ctl.new(with_value(plan, "notes", NOTE))
    page = QuotePage(ctl)
    qtbot.addWidget(page)
    page.show()
    qtbot.waitExposed(page)
    page.refresh_now()
    return page


def _type(qtbot, widget, text: str) -> None:
    """Typed key by key (QTest types ASCII only: a Chinese text is entered through an input method)."""
    widget.setFocus()
    qtbot.keyClicks(widget, text)


def _spin(qtbot, box, text: str) -> None:
    box.setFocus()
    box.selectAll()
    qtbot.keyClicks(box, text)
    qtbot.keyClick(box, Qt.Key.Key_Return)  # the number is taken when finished


def _export(page, qtbot, monkeypatch, button, target: Path) -> str:
    monkeypatch.setattr(workers, "ask_export_path", lambda *a: target)
    with qtbot.waitSignal(page.work_done, timeout=30_000):
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    return pdftotext(target)


def test_terms_tco_export_issue_and_rfq(page, qtbot, monkeypatch, tmp_path):
    ctl = page.controller
    tabs = page.details_tabs
    # commercial terms, on their tab
    tabs.setCurrentWidget(page.terms)
    _type(qtbot, page.terms.edits["quote.delivery"], "within 30 days of signing")
    _type(qtbot, page.terms.edits["quote.payment"], "net 30 after acceptance")
    page.terms.invoice.setCurrentIndex(page.terms.invoice.findData("special"))
    # the vendor's tax id and bank, on the parties' tab
    tabs.setCurrentIndex(1)
    _type(qtbot, page.fields["quote.vendor.tax_id"], "91310000MA1K000000")
    _type(qtbot, page.fields["quote.vendor.bank"], "CMB Shanghai Branch")
    q = ctl.plan.quote
    assert (q.delivery, q.payment, q.invoice, q.vendor.tax_id, q.vendor.bank) == (
        "within 30 days of signing", "net 30 after acceptance", "special", "91310000MA1K000000", "CMB Shanghai Branch")
    # the cost of ownership: nothing assumed until the buyer enters it
    tabs.setCurrentWidget(page.tco)
    assert ctl.plan.tco.pue is None and "电费：未知" in page.tco.result.text()
    _spin(qtbot, page.tco.kwh_price, "0.72")
    _type(qtbot, page.tco.kwh_source, "our bill, 2026-11")
    page.tco.pue_choice.setCurrentIndex(1)
    page.tco.pue_choice.activated.emit(1)  # "1.3 — target for new large data centres", as picked from the list
    _spin(qtbot, page.tco.utilisation, "60")
    _spin(qtbot, page.tco.life, "5")
    tco, req = ctl.plan.tco, ctl.plan.requirements
    assert (tco.electricity_cny_per_kwh, tco.pue, tco.pue_source, tco.service_life_years, req.utilisation_pct) == (
        0.72, 1.3, "docs/sources.md §T T1 T3", 5.0, 60.0)
    ctl.reevaluate()
    page.refresh_now()
    assert "5 年总拥有成本：¥" in page.tco.result.text() and "PUE 1.3 × 利用率 60%" in page.tco.result.text()

    # export: the priced quote is issued and stored in the plan
    assert ctl.plan.quote.issued is None
    text = _export(page, qtbot, monkeypatch, page.export_button, tmp_path / "q1.pdf")
    issued = ctl.plan.quote.issued
    assert issued is not None and issued.number == "EX-2024-002"
    assert text.lstrip().startswith("报价单") and "交货期 within 30 days of signing" in text
    assert "发票类型 增值税专用发票" in text
    assert "91310000MA1K000000" in text and "CMB Shanghai Branch" in text and "供应商（盖章）" in text
    assert "5 年总拥有成本：¥" in text and NOTE in text
    # exported again: the same number, date and validity, and no new edit
    depth = ctl.undo_stack.count()
    again = _export(page, qtbot, monkeypatch, page.export_button, tmp_path / "q2.pdf")
    assert ctl.plan.quote.issued == issued and ctl.undo_stack.count() == depth
    assert f"有效期至 {issued.valid_until.isoformat()}" in again and issued.number in again
    # a new quote number, on request
    tabs.setCurrentWidget(page.terms)
    qtbot.mouseClick(page.terms.new_number, Qt.MouseButton.LeftButton)
    assert ctl.plan.quote.issued is not None and ctl.plan.quote.issued.number == "EX-2024-002-2"
    page.refresh_now()
    assert "EX-2024-002-2" in page.terms.issued_label.text()
    # the RFQ for vendors: the configuration and the asks, nothing internal
    rfq = _export(page, qtbot, monkeypatch, page.rfq_button, tmp_path / "rfq.pdf")
    assert rfq.lstrip().startswith("询价单") and "（采购方要求：within 30 days of signing）" in rfq
    for internal in (NOTE, "4711", "总拥有成本", "出口管制", "未解决的问题", "合计（含税）"):
        assert internal not in rfq, internal


def test_a_cancelled_export_issues_nothing(page, qtbot, monkeypatch):
    monkeypatch.setattr(workers, "ask_export_path", lambda *a: None)
    depth = page.controller.undo_stack.count()
    assert page.export_quote() is None
    assert page.controller.plan.quote.issued is None and page.controller.undo_stack.count() == depth


def test_the_tabs_and_fields_are_reachable_by_keyboard(page, qtbot):
    """Each new field has a label with a buddy (Alt+letter in Chinese and English) and takes focus."""
    from PySide6.QtWidgets import QFormLayout, QLabel

    for editor in (page.terms, page.tco):
        page.details_tabs.setCurrentWidget(editor)
        form = editor.form
        for row in range(form.rowCount()):
            item = form.itemAt(row, QFormLayout.ItemRole.LabelRole)
            label = item.widget() if item is not None else None
            if isinstance(label, QLabel) and label.text():
                assert label.buddy() is not None, label.text()
                label.buddy().setFocus()
                qtbot.waitUntil(lambda lb=label: lb.buddy().hasFocus())
    assert page.focus_field("tco.pue") and page.details_tabs.currentWidget() is page.tco
    assert page.focus_field("quote.invoice") and page.details_tabs.currentWidget() is page.terms


def test_utilisation_is_a_requirement_entered_on_step_1(qtbot, catalog, policy):
    """Step 1 asks how much of the time the servers run at full load; 'not stated' is None (no default)."""
    from gui.pages.step1_requirements import RequirementsPage

    ctl = PlanController(catalog, policy, lang="en")
    page = RequirementsPage(ctl)
    qtbot.addWidget(page)
    spin = page.spins["utilisation_pct"]
    assert spin.text() == "not stated" and ctl.plan.requirements.utilisation_pct is None
    assert page.labels["utilisation_pct"].buddy() is spin
    _spin(qtbot, spin, "70")
    assert ctl.plan.requirements.utilisation_pct == 70
    spin.setValue(spin.minimum())
    assert ctl.plan.requirements.utilisation_pct is None

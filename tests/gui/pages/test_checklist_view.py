"""Checklist view: validated items, a person's tick and note, sign-off valid → void after an edit, PDF export."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader
from PySide6.QtCore import QDate, Qt

from catalog.models import Gpu
from gui import workers
from gui.controller import PlanController
from gui.pages.checklist_view import COL_DONE, COL_NOTE, COL_STATUS, ChecklistPage
from procurement.plan import Plan, canonical_digest
from procurement.signoff import approval_digest


@pytest.fixture
def page(qtbot, catalog, policy):
    gpu = catalog.all(Gpu)[0]
    ctl = PlanController(catalog, policy, lang="en")
    ctl.new(Plan.model_validate({"title": "Lab server", "gpu": {"model": gpu.id, "count": 2}}))
    page = ChecklistPage(ctl)
    qtbot.addWidget(page)
    yield page
    assert workers.wait_for_jobs(20_000)


def test_both_checklists_show_every_item_with_a_status(page):
    hw, sw = page.tables["hardware"], page.tables["software"]
    assert hw.rowCount() == len(page.checklists["hardware"].items) >= 8
    assert sw.rowCount() == len(page.checklists["software"].items) >= 5
    for table in (hw, sw):
        for r in range(table.rowCount()):
            assert table.item(r, COL_STATUS).data(Qt.ItemDataRole.UserRole) in ("pass", "fail", "attention",
                                                                                "unknown")
    # nothing chosen for the software: its items cannot pass
    assert all(sw.item(r, COL_STATUS).data(Qt.ItemDataRole.UserRole) != "pass" for r in range(sw.rowCount()))


def test_a_person_ticks_an_item_and_writes_a_note(page, qtbot, dialog_calls):
    ctl = page.controller
    table = page.tables["software"]
    row = page.item_row("software", "image_trusted")
    assert table.item(row, COL_DONE).flags() & Qt.ItemFlag.ItemIsUserCheckable
    # a plan-decided item has no tick box
    hw_row = page.item_row("hardware", "psu_power")
    assert not page.tables["hardware"].item(hw_row, COL_DONE).flags() & Qt.ItemFlag.ItemIsUserCheckable

    # no image chosen: nothing the app knows backs a tick, so it asks who confirms it (cancelled: no tick)
    dialog_calls.answer("ask_confirmation", None)
    table.item(row, COL_DONE).setCheckState(Qt.CheckState.Checked)
    qtbot.waitUntil(lambda: dialog_calls.names() == ["ask_confirmation"])
    assert "image_trusted" not in ctl.plan.checklist
    row = page.item_row("software", "image_trusted")
    assert table.item(row, COL_DONE).checkState() == Qt.CheckState.Unchecked

    ctl.set_value("software.image", "ngc-pytorch-24.05")  # a trusted image: the tick is the person's own check
    row = page.item_row("software", "image_trusted")
    table.item(row, COL_DONE).setCheckState(Qt.CheckState.Checked)
    assert dialog_calls.names() == ["ask_confirmation"]
    assert ctl.plan.checklist["image_trusted"].checked is True
    row = page.item_row("software", "image_trusted")
    table.item(row, COL_NOTE).setText("pulled from nvcr.io, digest checked")
    mark = ctl.plan.checklist["image_trusted"]
    assert (mark.checked, mark.note) == (True, "pulled from nvcr.io, digest checked")
    ctl.undo_stack.undo()
    assert ctl.plan.checklist["image_trusted"].note == ""
    assert page.tables["software"].item(page.item_row("software", "image_trusted"), COL_NOTE).text() == ""


def test_sign_off_is_valid_until_the_plan_changes(page, qtbot, catalog, dialog_calls):
    dialog_calls.answer("ask_sign_anyway", True)  # the plan still has unknown items
    ctl = page.controller
    ctl.set_value("software.image", "ngc-pytorch-24.05")  # the item ticked below has its evidence
    box = page.signoffs["approval"]
    assert "does not prove who signed" in box.covers_label.text()  # honest wording on screen
    box.name_edit.setText("Wang Li")
    box.role_edit.setText("IT manager")
    box.date_edit.setDate(QDate(2026, 11, 30))
    qtbot.mouseClick(box.sign_button, Qt.MouseButton.LeftButton)
    so = ctl.plan.signoffs["approval"]
    signer = so.signers[0]
    assert (signer.name, signer.role, signer.date.isoformat()) == ("Wang Li", "IT manager", "2026-11-30")
    assert so.digest == approval_digest(ctl.plan, ctl.catalog)
    assert box.state.value == "valid"
    assert box.state_label.text() == "valid (Wang Li (IT manager), 2026-11-30)"
    assert page.signoffs["acceptance"].state.value == "unsigned"

    # ticking a person-judged item changes what the approval signed: void, and the view says what changed
    row = page.item_row("software", "image_trusted")
    page.tables["software"].item(row, COL_DONE).setCheckState(Qt.CheckState.Checked)
    assert box.state.value == "void"
    assert "Image from a trusted source" in box.changes_label.text() and "no → yes" in box.changes_label.text()
    assert box.sign_button.text() == "Sign again"
    ctl.undo_stack.undo()  # back to the signed content: valid again
    assert box.state.value == "valid" and not box.changes_label.isVisibleTo(page)

    ctl.set_value("gpu.count", 4)
    assert box.state.value == "void" and "GPU count:" in box.changes_label.text()


def test_signing_without_a_name_is_refused(page, qtbot):
    box = page.signoffs["acceptance"]
    qtbot.mouseClick(box.sign_button, Qt.MouseButton.LeftButton)
    assert "acceptance" not in page.controller.plan.signoffs
    assert box.state_label.text() == "the signer's name must not be empty"


def test_export_checklist_writes_the_pdf_in_a_worker(page, qtbot, tmp_path, monkeypatch, dialog_calls):
    dialog_calls.answer("ask_sign_anyway", True)
    box = page.signoffs["approval"]
    box.name_edit.setText("Wang Li")
    qtbot.mouseClick(box.sign_button, Qt.MouseButton.LeftButton)
    target = tmp_path / "checklist.pdf"
    monkeypatch.setattr(workers, "ask_export_path", lambda *a: target)
    with qtbot.waitSignal(page.work_done, timeout=20_000):  # the export runs in a worker
        qtbot.mouseClick(page.export_button, Qt.MouseButton.LeftButton)
    text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(target.read_bytes())).pages)
    assert "Wang Li" in text
    assert canonical_digest(page.controller.plan)[:16] in text.replace("\n", "")


def test_sign_then_price_keeps_the_page_working_50_times(page, qtbot, catalog, dialog_calls):
    """Signing, then entering a price, raised KeyError 'field.prices.<part>.date' in every refresh: the page
    kept showing the approval as valid. Now every round says void, and names the price that changed."""
    import datetime as dt

    from procurement.plan import EnteredPrice

    dialog_calls.answer("ask_sign_anyway", True)
    ctl = page.controller
    box = page.signoffs["approval"]
    part = ctl.plan.gpu.model
    for round_ in range(50):
        box.name_edit.setText("Zhang")
        qtbot.mouseClick(box.sign_button, Qt.MouseButton.LeftButton)
        assert box.state.value == "valid", box.state_label.text()
        price = EnteredPrice(price_cny=50_000 + round_, kind=("entered", "vendor_quote", "company")[round_ % 3],
                             date=dt.date(2026, 11, 1 + round_ % 28), source=f"quote {round_}")
        ctl.replace_plan(ctl.plan.model_copy(update={"prices": {part: price}}), lambda: "price")
        assert box.state.value == "void"
        assert box.state_label.text().startswith("void")
        assert "date of entered price" in box.changes_label.text()
        assert page.tables["hardware"].rowCount() >= 8


def test_an_unusable_allowed_signers_file_is_said_on_the_page(page, qtbot, tmp_path, dialog_calls):
    """A directory chosen as the allowed-signers file was silently 'not checked'; the page now says why."""
    dialog_calls.answer("ask_sign_anyway", True)
    box = page.signoffs["approval"]
    box.name_edit.setText("Zhang")
    qtbot.mouseClick(box.sign_button, Qt.MouseButton.LeftButton)
    page.controller.set_allowed_signers(tmp_path)  # a directory
    page.refresh_now()
    assert "not a regular file" in box.signers_label.text()
    assert box.signers_label.isVisible() or not page.isVisible()


def test_a_reopened_plan_signed_then_priced_opens_and_exports(qtbot, catalog, policy, tmp_path):
    """The page would not open on such a plan and Export checklist did nothing: both raised KeyError."""
    import datetime as dt

    from procurement.plan import EnteredPrice
    from procurement.signoff import sign

    gpu = catalog.all(Gpu)[0]
    plan = sign(Plan.model_validate({"title": "Lab", "gpu": {"model": gpu.id, "count": 2}}), "approval", "Zhang",
                "", catalog, dt.date(2026, 12, 1))
    plan = plan.model_copy(update={"prices": {gpu.id: EnteredPrice(price_cny=56999.5, kind="vendor_quote",
                                                                   date=dt.date(2026, 11, 1))}})
    ctl = PlanController(catalog, policy, lang="zh")
    ctl.new(plan)
    page = ChecklistPage(ctl)
    qtbot.addWidget(page)
    box = page.signoffs["approval"]
    assert box.state.value == "void" and "录入价格日期" in box.changes_label.text()
    assert "56,999.50" in box.changes_label.text()
    pdf = page._renderer()()
    assert workers.wait_for_jobs(20_000)
    text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages)
    assert "已失效" in text

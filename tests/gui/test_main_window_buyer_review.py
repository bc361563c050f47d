"""What a buyer sees on a blank or unfinished plan, at sign-off, on the quote and in each step (GUI review)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from procurement.plan import load_plan
from tests.conftest import REPO

EXAMPLE = REPO / "resources" / "examples" / "llm-cluster-node.gpuplan.yaml"


def _example(win, path: Path = EXAMPLE) -> None:
    win.controller.new(load_plan(path, win.controller.catalog))
    win.controller.reevaluate()


def test_blank_plan_shows_grey_not_started_steps_and_what_is_left(qtbot, make_window) -> None:
    win = make_window()
    win.controller.reevaluate()
    # a blank plan has no model, GPU, server, software or report: every step is grey, never a green tick
    # (step 1's other fields have defaults, but without the model no memory need can be estimated)
    assert [win.step_status(i) for i in range(5)] == ["incomplete"] * 5
    assert "a model (a preset or its size)" in win.step_list.item(0).toolTip()
    assert "a chassis, a CPU, a power supply" in win.step_list.item(2).toolTip()
    summary = win.findings_panel.summary.text()
    assert "No problems found in this plan" not in summary
    assert "Step 2: GPU selection: a GPU model and count" in summary
    assert "Step 4: Image selection: an operating system, a driver branch, a CUDA release" in summary


def test_complete_steps_lose_the_grey_mark(qtbot, make_window) -> None:
    win = make_window()
    _example(win)
    plan = win.controller.plan
    assert plan.gpu.model and plan.server.chassis and plan.software.os  # the example fills steps 2-4
    statuses = [win.step_status(i) for i in range(5)]
    assert "incomplete" not in statuses[:4]
    assert statuses[4] == "incomplete"  # but no verification report is attached yet
    assert "a verification report" in win.findings_panel.summary.text()


def _checklist_page(win):
    win.show_page(5)
    return win.page("ChecklistPage")


def test_signing_with_failing_or_unknown_items_asks_first_and_shows_the_counts(qtbot, make_window,
                                                                                dialog_calls) -> None:
    from catalog.models import Gpu
    from procurement.checklist import Status, build_checklists

    win = make_window()
    ctl = win.controller
    ctl.set_value("gpu.model", win.controller.catalog.all(Gpu)[0].id)
    ctl.set_value("gpu.count", 2)
    ctl.reevaluate()
    lists = build_checklists(ctl.plan, ctl.catalog, ctl.findings, ctl.policy, ctl.lang)
    items = [i for cl in lists.values() for i in cl.items]
    failed = sum(1 for i in items if i.status == Status.FAIL)
    unknown = sum(1 for i in items if i.status == Status.UNKNOWN)
    assert failed + unknown > 0  # the example is not perfect: there is something to confirm
    page = _checklist_page(win)
    box = page.signoffs["approval"]
    assert box.counts_label.text() == f"✘ {failed} fail · ? {unknown} unknown"
    box.name_edit.setText("Zhang San")
    box.role_edit.setText("IT manager")
    dialog_calls.answer("ask_sign_anyway", False)
    qtbot.mouseClick(box.sign_button, Qt.MouseButton.LeftButton)
    assert dialog_calls.calls[-1][0] == "ask_sign_anyway" and dialog_calls.calls[-1][1][1:] == (failed, unknown)
    assert "approval" not in ctl.plan.signoffs and box.state_label.text() == "not signed"
    dialog_calls.answer("ask_sign_anyway", True)
    qtbot.mouseClick(box.sign_button, Qt.MouseButton.LeftButton)
    date = ctl.plan.signoffs["approval"].signers[0].date.isoformat()
    # the signer is named once, with the role; the counts stay next to the state
    assert box.state_label.text() == f"valid (Zhang San (IT manager), {date})"
    assert box.counts_label.text() == f"✘ {failed} fail · ? {unknown} unknown"


def test_new_plan_clears_the_previous_signer_and_open_shows_the_plans_own(qtbot, make_window, dialog_calls,
                                                                          tmp_path) -> None:
    from procurement.plan import save_plan
    from procurement.signoff import sign

    win = make_window()
    _example(win)
    signed = sign(win.controller.plan, "approval", "Li Si", "CFO", win.controller.catalog,
                  __import__("datetime").date(2026, 11, 2))
    save_plan(signed, tmp_path / "signed.gpuplan.yaml")
    page = _checklist_page(win)
    box = page.signoffs["approval"]
    box.name_edit.setText("Zhang San")
    box.role_edit.setText("IT manager")
    dialog_calls.answer("ask_sign_anyway", True)
    qtbot.mouseClick(box.sign_button, Qt.MouseButton.LeftButton)
    dialog_calls.answer("ask_save_changes", "discard")
    win.named_actions["new"].trigger()
    win.show_page(5)
    assert (box.name_edit.text(), box.role_edit.text(), box.state_label.text()) == ("", "", "not signed")
    assert win.open_path(tmp_path / "signed.gpuplan.yaml")
    win.show_page(5)
    assert box.state_label.text() == "valid (Li Si (CFO), 2026-11-02)"


def test_signed_state_in_chinese_uses_chinese_punctuation_once(qtbot, make_window, dialog_calls) -> None:
    win = make_window()
    _example(win)
    win.set_language("zh")
    page = _checklist_page(win)
    box = page.signoffs["approval"]
    box.name_edit.setText("张三")
    box.role_edit.setText("IT 经理")
    dialog_calls.answer("ask_sign_anyway", True)
    qtbot.mouseClick(box.sign_button, Qt.MouseButton.LeftButton)
    date = win.controller.plan.signoffs["approval"].signers[0].date.isoformat()
    assert box.state_label.text() == f"有效（张三（IT 经理），{date}）"


def test_quote_of_a_blank_plan_says_what_to_choose_not_zero(qtbot, make_window) -> None:
    win = make_window()
    win.show_page(6)
    page = win.page("QuotePage")
    assert page.empty_label.isVisible() and not page.table.isVisible()
    assert page.empty_label.text() == "Choose a GPU and server parts to build the quote."
    assert "¥0.00" not in page.totals_label.text() and not page.notes_label.isVisible()


def test_quote_shows_its_notes_under_the_table(qtbot, make_window) -> None:
    win = make_window()
    _example(win)
    win.controller.set_value("requirements.nodes", 8)
    win.show_page(6)
    page = win.page("QuotePage")
    assert page.table.isVisible() and not page.empty_label.isVisible()
    notes = page.notes_label.text()
    assert notes.startswith("Notes and assumptions\n1. Unit prices and amounts exclude VAT")
    assert "Quantities are for 8 identical servers." in notes
    assert "VAT rate 13%" in notes


def test_step2_every_column_fits_and_fits_says_total_and_per_server(qtbot, make_window) -> None:
    import math

    from gui.pages.step2_gpu import COLUMNS
    from gui.sizing_bridge import gpu_rows

    win = make_window()
    win.resize(1280, 800)
    _example(win)
    win.controller.set_value("requirements.nodes", 8)
    win.show_page(1)
    page = win.page("GpuPage")
    table = page.table
    qtbot.waitUntil(lambda: table.rowCount() > 0)
    for lang in ("en", "zh"):
        win.set_language(lang)
        qtbot.waitUntil(lambda: not table.horizontalScrollBar().isVisible())  # all columns at 1280 × 800
        last = len(COLUMNS) - 1
        assert table.horizontalHeader().sectionViewportPosition(last) + table.columnWidth(last) \
            <= table.viewport().width()
    win.set_language("en")
    ctl = win.controller
    row = next(r for r in gpu_rows(ctl.plan, ctl.catalog, ctl.policy, ctl.lang) if r.fits_count)
    shown = next(table.item(r, COLUMNS.index("fits")).text() for r in range(table.rowCount())
                 if table.item(r, COLUMNS.index("name")).data(Qt.ItemDataRole.UserRole + 1) == row.gpu.id)
    assert shown == f"{row.fits_count} ({math.ceil(row.fits_count / 8)}/server)"
    assert page.count_spin.text().endswith("GPUs per server")


def test_step3_chassis_text_skips_unknowns_and_translates_cooling(qtbot, make_window) -> None:
    from catalog.models import Chassis
    from gui.views.server import describe_part

    win = make_window()
    win.show_page(2)
    page = win.page("ServerPage")
    chassis = win.controller.catalog.all(Chassis)
    texts = [page.chassis_combo.itemText(i) for i in range(page.chassis_combo.count())]
    assert not any("None" in t for t in texts)
    assert not any(t.endswith((", air", ", liquid")) for t in texts)
    unknown_bays = next(c for c in chassis if c.psu_bays is None)
    assert "PSU bays" not in describe_part(unknown_bays, "en")
    known = next(c for c in chassis if c.psu_bays)
    assert f"{known.psu_bays} PSU bays" in describe_part(known, "en")
    assert describe_part(known, "en").endswith("air-cooled" if known.cooling == "air" else "liquid-cooled")
    win.set_language("zh")
    assert describe_part(known, "zh").endswith("风冷" if known.cooling == "air" else "液冷")
    texts = [page.chassis_combo.itemText(i) for i in range(page.chassis_combo.count())]
    assert describe_part(known, "zh") in texts  # the combo shows the presenter's text in the UI's language


def test_step3_auto_configure_says_why_it_is_off_and_tab_order_reads_down(qtbot, make_window) -> None:
    win = make_window()
    win.show_page(2)
    page = win.page("ServerPage")
    assert not page.auto_button.isEnabled()
    assert page.auto_hint.isVisible() and page.auto_hint.text().startswith("Choose a GPU in step 2 first")
    assert page.scroll_area.focusPolicy() == Qt.FocusPolicy.NoFocus
    # add a storage row: Tab walks from the new row's widgets to its Add button, then to the network rows
    qtbot.mouseClick(page.storage_rows.add_button, Qt.MouseButton.LeftButton)
    assert len(page.storage_rows.rows) == 1
    role, combo, count, remove = page.storage_rows.rows[0]
    qtbot.waitUntil(remove.isVisible)  # the layout shows new rows from the event loop
    page.memory_combo.setFocus()  # the module count is off while no memory is chosen
    qtbot.waitUntil(lambda: QApplication.focusWidget() is page.memory_combo)
    walk = []
    for _ in range(6):
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
        walk.append(QApplication.focusWidget())
    assert walk == [role, combo, count, remove, page.storage_rows.add_button, page.nic_rows.add_button]
    win.controller.set_value("gpu.model", "h100-sxm5-80gb")
    win.show_page(2)
    assert page.auto_button.isEnabled() and not page.auto_hint.isVisible()


def test_step1_scroll_area_takes_no_focus(qtbot, make_window) -> None:
    win = make_window()
    assert win.page("RequirementsPage").scroll_area.focusPolicy() == Qt.FocusPolicy.NoFocus


def test_a_finding_whose_fields_are_on_another_page_focuses_there(qtbot, make_window, monkeypatch) -> None:
    import procurement.rules
    from procurement.findings import Finding, Severity

    open_air = Finding.of_text(rule="COOLING-OPEN-AIR", family="cooling", severity=Severity.WARNING, step=3,
                       fields=("gpu.count", "gpu.model"), message="Passive GPUs in an open-air case",
                       fix="Choose a server chassis")
    monkeypatch.setattr(procurement.rules, "evaluate", lambda *_a, **_k: [open_air])
    win = make_window()
    win.controller.reevaluate()
    tree = win.findings_panel.tree
    item = next(i for i in win.findings_panel.finding_items() if "open-air" in i.text(0))
    tree.setCurrentItem(item)
    tree.setFocus()
    qtbot.keyClick(tree, Qt.Key.Key_Return)
    assert win.current_index() == 1  # step 2, where gpu.count is edited
    qtbot.waitUntil(lambda: QApplication.focusWidget() is win.pages[1].count_spin)


def test_english_money_has_no_wan_and_chinese_budget_says_yuan(qtbot, make_window) -> None:
    from gui.widgets.money import short_amount

    win = make_window()
    budget = win.page("RequirementsPage").budget
    budget.setValue(18_224_600)
    assert budget.wan.text() == "= ¥18.22 M"  # 18 224 600 / 1 000 000
    assert budget.spin.suffix() == " CNY"
    assert short_amount(1_880_000) == "¥1.88 M"
    assert short_amount(12_999) == "¥13.0 k"  # not "¥0.01 M"
    win.set_language("zh")
    assert budget.wan.text() == "= 1,822 万元"  # 18 224 600 / 10 000, rounded
    assert budget.spin.suffix() == " 元"
    assert short_amount(1_880_000) == "188 万元"
    win.set_language("en")
    assert "万" not in budget.wan.text()


def test_step4_conflict_reason_is_under_the_combo_not_clipped_in_it(qtbot, make_window) -> None:
    from catalog.models import CudaRelease, Framework
    from gui.pages.step4_image import CONFLICT_MARK

    win = make_window()
    catalog = win.controller.catalog
    cudas = {c.id: c.version for c in catalog.all(CudaRelease)}
    fw, cuda_id = next((fw, cid) for fw in catalog.all(Framework) for cid, ver in cudas.items()
                       if not any(ver.startswith(v) for v in fw.cuda_versions))
    win.controller.set_value("software.cuda", cuda_id)
    win.show_page(3)
    page = win.page("ImagePage")
    combo, label = page.combos["software.framework"], page.reason_labels["software.framework"]
    assert not label.isVisible()
    idx = combo.findData(fw.id)
    reasons = combo.itemData(idx, Qt.ItemDataRole.ToolTipRole)
    assert combo.itemText(idx).startswith(CONFLICT_MARK) and reasons not in combo.itemText(idx)
    combo.setCurrentIndex(idx)
    qtbot.waitUntil(lambda: win.controller.plan.software.framework == fw.id)
    win.show_page(3)
    qtbot.waitUntil(label.isVisible)
    assert label.text() == "\n".join(f"{CONFLICT_MARK} {r}" for r in reasons.split("\n"))
    assert combo.toolTip() == reasons


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_page_fits_a_1280_pixel_wide_window(qtbot, make_window, lang: str) -> None:
    """At 1280×800 no page may force the window wider (step 5's eight buttons on one row made it 1,311 px,
    squeezing the findings panel)."""
    win = make_window()
    _example(win)
    win.set_language(lang)
    for i in range(len(win.pages)):
        win.show_page(i)
        QApplication.processEvents()
        assert win.minimumSizeHint().width() <= 1280, (type(win.pages[i]).__name__,
                                                       win.minimumSizeHint().width())

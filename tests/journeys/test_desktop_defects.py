"""A first-time buyer's desktop defects (keyboard, undo, step marks), each driven as a person would."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLabel, QTableWidget

from procurement.plan import load_plan
from tests.conftest import REPO

EXAMPLE = REPO / "resources" / "examples" / "llm-cluster-node.gpuplan.yaml"


def _step3(win, qtbot):  # type: ignore[no-untyped-def]
    win.show_page(2)
    page = win.page("ServerPage")
    assert page is not None
    qtbot.waitUntil(page.isVisible)
    return page


def test_ctrl_z_in_a_focused_spin_box_undoes_the_plan_and_keeps_redo(make_window, qtbot):
    """Typing a PSU count and pressing Ctrl+Z while the spin box still has focus: the plan's Undo runs
    (not the line edit's own), Redo brings the value back, and no entry that changes nothing is left."""
    win = make_window()
    page = _step3(win, qtbot)
    stack = win.controller.undo_stack
    spin = page.psu_count
    spin.setFocus()
    qtbot.waitUntil(spin.hasFocus)
    before = win.controller.value("server.psu.count")
    spin.selectAll()
    qtbot.keyClicks(spin, "3")
    assert win.controller.value("server.psu.count") == 3 != before
    entries = stack.count()
    qtbot.keyClick(spin, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: win.controller.value("server.psu.count") == before)
    assert spin.value() == before
    assert stack.canRedo(), "Undo with the spin box focused lost Redo"
    assert stack.count() == entries, "a phantom undo entry was pushed"
    qtbot.keyClick(spin, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    qtbot.waitUntil(lambda: win.controller.value("server.psu.count") == 3)
    assert spin.value() == 3
    assert QApplication.focusWidget() is spin  # the buyer keeps typing where they were
    # Ctrl+Y is Redo too (the platform's other binding): undo once more, redo with it
    qtbot.keyClick(spin, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: win.controller.value("server.psu.count") == before)
    qtbot.keyClick(spin, Qt.Key.Key_Y, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: win.controller.value("server.psu.count") == 3)
    assert stack.count() == entries


def test_the_first_save_does_not_move_the_back_and_next_buttons(make_window, qtbot, dialog_calls, tmp_path):
    """The status bar appeared with the first "Saved …" message and pushed the bottom buttons 22 px up."""
    win = make_window()
    qtbot.waitUntil(lambda: win.next_button.isVisible())
    before = (win.next_button.mapTo(win, win.next_button.rect().topLeft()),
              win.back_button.mapTo(win, win.back_button.rect().topLeft()))
    dialog_calls.answer("ask_save_path", tmp_path / "plan.gpuplan")
    qtbot.keyClick(win, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: "Saved" in win.statusBar().currentMessage())
    assert (tmp_path / "plan.gpuplan").exists()
    QApplication.processEvents()
    after = (win.next_button.mapTo(win, win.next_button.rect().topLeft()),
             win.back_button.mapTo(win, win.back_button.rect().topLeft()))
    assert after == before


def test_a_blank_plan_has_no_tick_on_step_1_until_the_model_is_given(make_window, qtbot):
    win = make_window()
    win.controller.reevaluate()
    assert win.step_status(0) == "incomplete"
    assert "a model (a preset or its size)" in win.step_list.item(0).toolTip()
    win.controller.set_value("requirements.model_params_b", 7.0)
    qtbot.waitUntil(lambda: win.step_status(0) not in ("incomplete", None))
    assert win.step_status(0) != "incomplete"


def _tab_out_of(table, qtbot, presses: int = 3):  # type: ignore[no-untyped-def]
    """Give ``table`` the focus on a row, press Tab as a person would; the widget that has focus then."""
    table.setFocus()
    qtbot.waitUntil(table.hasFocus)
    if table.rowCount():
        table.setCurrentCell(0, 0)
    inside = {table, table.viewport()}
    for _ in range(presses):
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
        if QApplication.focusWidget() not in inside:
            break
    return QApplication.focusWidget()


@pytest.mark.parametrize(("page_name", "attr"), [("GpuPage", "table"), ("QuotePage", "table"),
                                                 ("ChecklistPage", None), ("VerifyPage", "nodes_table")])
def test_tab_leaves_every_table(make_window, qtbot, page_name, attr):
    """Tab moved from cell to cell forever (800 presses never left the GPU table); it must move on to the
    next control, and the focus chain from the table must reach the window's Back/Next buttons."""
    from gui.pages import PAGES

    win = make_window()
    win.controller.new(load_plan(EXAMPLE, win.controller.catalog))
    index = [p.cls for p in PAGES].index(page_name)
    win.show_page(index)
    page = win.page(page_name)
    qtbot.waitUntil(page.isVisible)
    if page_name == "VerifyPage":  # two nodes' reports, so the table has cells to trap the Tab key in
        from tests.gui.pages.test_step5_verify import _report

        page.attach([_report("node1", [16, 16]), _report("node2", [16, 16])], "import")
    if attr is None:
        table = next(t for t in page.findChildren(QTableWidget) if t.isVisible() and t.rowCount())
    else:
        table = getattr(page, attr)
    table.setFocus()
    qtbot.waitUntil(table.hasFocus)
    arrow_row = table.currentRow()
    qtbot.keyClick(table, Qt.Key.Key_Down)  # arrows still move inside the table
    assert table.rowCount() < 2 or table.currentRow() != arrow_row
    after = _tab_out_of(table, qtbot)
    assert after not in (table, table.viewport()), f"Tab is trapped in {page_name}'s table"
    assert table.isAncestorOf(after) is False
    # walking the focus chain from the table gets to the bottom buttons (nothing loops back into it)
    seen, widget = set(), table.nextInFocusChain()
    while widget is not table and id(widget) not in seen:
        seen.add(id(widget))
        if widget is win.next_button:
            break
        widget = widget.nextInFocusChain()
    assert widget is win.next_button


def test_the_edit_menu_names_the_field_by_its_label_not_its_path(make_window, qtbot):
    """"Undo server.psu.count" (撤销 server.psu.count) in the Edit menu: it must say the field's label."""
    win = make_window()
    page = _step3(win, qtbot)
    label = next(lb for lb in page.findChildren(QLabel) if lb.buddy() is page.psu_count).text()
    shown = label.replace("&", "").rstrip(":： ")
    page.psu_count.setFocus()
    page.psu_count.selectAll()
    qtbot.keyClicks(page.psu_count, "2")
    undo_text = win.named_actions["undo"].text()
    assert "server.psu.count" not in undo_text
    assert shown in undo_text, (undo_text, shown)


@pytest.mark.qt_log_ignore("does not support propagateSizeHints")
def test_qts_file_dialog_speaks_chinese_in_the_chinese_ui(qtbot):
    """qtbase_zh_CN lacks Qt 6's "&Look in:" and "Files of &type:": the Chinese UI showed them in English."""
    from PySide6.QtWidgets import QFileDialog

    from gui.i18n import Translators

    translators = Translators()
    try:
        assert translators.install("zh")
        dialog = QFileDialog(None, "打开方案")
        dialog.setOption(QFileDialog.Option.DontUseNativeDialog)  # Qt's own widgets, as on a bare Linux
        qtbot.addWidget(dialog)
        dialog.show()
        qtbot.waitExposed(dialog)
        texts = [label.text() for label in dialog.findChildren(QLabel) if label.isVisible()]
        assert texts and not [t for t in texts if "Look in" in t or "Files of" in t or "File name" in t], texts
        assert "查找范围(&L)：" in texts and "文件类型(&T)：" in texts
        dialog.close()
    finally:
        translators.install("en")


@pytest.mark.parametrize("index", range(7))
def test_tab_goes_through_the_page_before_back_next_and_the_findings(make_window, qtbot, index):
    """From the step list, Tab walks the page's controls first, then Back, Next and the findings tree, and
    round to the step list (the pages' controls had landed after the findings, step 3 began at "Add network
    card", and step 1's budget and later fields came again after the findings)."""
    win = make_window()
    win.controller.new(load_plan(EXAMPLE, win.controller.catalog))
    win.show_page(index)
    page = win.page_at(index)
    qtbot.waitUntil(page.isVisible)
    win.step_list.setFocus()
    qtbot.waitUntil(win.step_list.hasFocus)
    walk = []
    for _ in range(120):
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
        widget = QApplication.focusWidget()
        if widget is win.step_list:
            break
        if not walk or walk[-1] is not widget:  # a date edit takes Tab from section to section first
            walk.append(widget)
    else:
        pytest.fail(f"Tab never came back to the step list: {[type(w).__name__ for w in walk[-12:]]}")
    tail = [w for w in (win.back_button, win.next_button) if w.isEnabled()] + [win.findings_panel.tree]
    assert walk[-len(tail):] == tail, [w.objectName() or type(w).__name__ for w in walk[-6:]]
    content = walk[:-len(tail)]
    assert content, "the page's controls are not in the Tab order"
    assert all(page.isAncestorOf(w) for w in content), [type(w).__name__ for w in content]
    assert len({id(w) for w in content}) == len(content)  # each control once
    if index == 2:
        assert content[0] is page.auto_button  # step 3 starts at the top of the page

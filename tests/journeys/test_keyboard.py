"""A keyboard user: Tab on step 1 in reading order, Ctrl+Z / Ctrl+Y as WPS and Office users press them."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication


def test_tab_reaches_the_budget_before_the_model_fields(qtbot, make_window) -> None:
    win = make_window()
    win.show_page(0)
    page = win.pages[0]
    qtbot.waitUntil(page.isVisible)
    first = page.combos["workload"]
    first.setFocus(Qt.FocusReason.TabFocusReason)  # where Tab from the step list lands
    qtbot.waitUntil(first.hasFocus)
    seen = []
    for _ in range(40):
        QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
        widget = QApplication.focusWidget()
        seen.append(widget)
        if widget is page.budget.spin or widget is page.spins["layers"]:
            break
    assert seen[-1] is page.budget.spin, "Tab went into the model's fields before the budget"
    assert len(seen) <= 10  # the workload's five choices, the utilisation and the dataset size come first


def test_ctrl_y_redoes(qtbot, make_window) -> None:
    win = make_window()
    win.show_page(0)
    page = win.pages[0]
    qtbot.waitUntil(page.isVisible)
    box = page.spins["nodes"]
    page.scroll_area.ensureWidgetVisible(box)
    QTest.mouseClick(box.lineEdit(), Qt.MouseButton.LeftButton)
    QTest.keyClick(box.lineEdit(), Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    QTest.keyClicks(box.lineEdit(), "4")
    QTest.keyClick(box.lineEdit(), Qt.Key.Key_Tab)
    assert win.controller.plan.requirements.nodes == 4
    QTest.keyClick(win, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert win.controller.plan.requirements.nodes == 1
    QTest.keyClick(win, Qt.Key.Key_Y, Qt.KeyboardModifier.ControlModifier)
    assert win.controller.plan.requirements.nodes == 4


def test_ctrl_z_in_a_storage_row_added_on_step_3_undoes_the_plan(qtbot, make_window) -> None:
    """A row added after the page was built routes Undo/Redo to the plan like the page's own spin boxes (the page
    no longer walks itself for new spin boxes at each refresh): the row's line edit would otherwise take Ctrl+Z
    for its own text undo, and the plan's Redo would be lost."""
    win = make_window()
    win.show_page(2)
    page = win.pages[2]
    qtbot.waitUntil(page.isVisible)
    rows = page.storage_rows
    before = len(win.controller.plan.server.storage)
    qtbot.mouseClick(rows.add_button, Qt.MouseButton.LeftButton)
    assert len(win.controller.plan.server.storage) == before + 1
    count = rows.rows[-1][2]
    assert count is not None
    qtbot.waitUntil(count.isVisible)
    page.scroll_area.ensureWidgetVisible(count)
    first = win.controller.plan.server.storage[-1].count
    QTest.mouseClick(count.lineEdit(), Qt.MouseButton.LeftButton)
    focused = QApplication.focusWidget()  # where the keyboard goes: the spin box (its line edit's focus proxy)
    assert focused is count, focused
    QTest.keyClick(focused, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    QTest.keyClicks(focused, "7")
    assert win.controller.plan.server.storage[-1].count == 7 != first
    stack = win.controller.undo_stack
    entries = stack.count()
    QTest.keyClick(focused, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert win.controller.plan.server.storage[-1].count == first
    assert stack.canRedo(), "Ctrl+Z went to the line edit's own undo, which wrote its old text back as an edit"
    assert stack.count() == entries
    assert count.value() == first  # the refresh shows the plan's value
    QTest.keyClick(focused, Qt.Key.Key_Y, Qt.KeyboardModifier.ControlModifier)
    assert win.controller.plan.server.storage[-1].count == 7

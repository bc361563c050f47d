"""A first-time buyer's desktop defects (keyboard, undo, step marks), each driven as a person would."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication


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

"""Waiving a finding from the findings panel, as a buyer would: select it, Waive…, reason and name; undo."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt

from procurement.findings import Severity
from procurement.plan import load_plan
from tests.conftest import EXAMPLES


def panel_rule(item) -> str:
    from gui.findings_panel import FINDING_ROLE

    return item.data(0, FINDING_ROLE).rule


def test_waive_a_warning_with_a_reason_then_undo(qtbot, make_window, dialog_calls) -> None:
    win = make_window()
    win.controller.new(load_plan(Path(EXAMPLES / "mid-size-training.gpuplan.yaml"), win.controller.catalog))
    win.controller.reevaluate()
    qtbot.waitUntil(lambda: win.findings_panel is not None)
    panel = win.findings_panel
    warning = next(f for f in win.controller.findings if f.severity == Severity.WARNING)
    item = next(i for i in panel.finding_items() if panel_rule(i) == warning.rule)
    assert not panel.waive_button.isEnabled()  # nothing selected yet
    panel.tree.setCurrentItem(item)
    assert panel.waive_button.isEnabled() and not panel.unwaive_button.isEnabled()
    dialog_calls.answer("ask_waiver", ("pilot: accepted knowingly", "李娜"))
    qtbot.mouseClick(panel.waive_button, Qt.MouseButton.LeftButton)
    assert dialog_calls.names() == ["ask_waiver"]
    (w,) = [w for w in win.controller.plan.waivers if w.rule == warning.rule]
    assert (w.reason, w.by) == ("pilot: accepted knowingly", "李娜")
    qtbot.waitUntil(lambda: any(f.rule == warning.rule and f.waived is not None for f in win.controller.findings))
    # still listed, marked as waived, and the warning no longer counts against the step
    item = next(i for i in panel.finding_items() if panel_rule(i) == warning.rule)
    assert "pilot: accepted knowingly" in item.text(0)
    panel.tree.setCurrentItem(item)
    assert panel.unwaive_button.isEnabled() and not panel.waive_button.isEnabled()
    win.controller.undo_stack.undo()
    qtbot.waitUntil(lambda: not win.controller.plan.waivers)
    qtbot.waitUntil(lambda: all(f.waived is None for f in win.controller.findings))


def test_cancelling_the_waiver_dialog_changes_nothing(qtbot, make_window, dialog_calls) -> None:
    win = make_window()
    win.controller.new(load_plan(Path(EXAMPLES / "mid-size-training.gpuplan.yaml"), win.controller.catalog))
    win.controller.reevaluate()
    qtbot.waitUntil(lambda: win.findings_panel is not None)
    panel = win.findings_panel
    shown = next(f for f in win.controller.findings if f.severity != Severity.INFO)
    panel.tree.setCurrentItem(next(i for i in panel.finding_items() if panel_rule(i) == shown.rule))
    dialog_calls.answer("ask_waiver", None)
    qtbot.mouseClick(panel.waive_button, Qt.MouseButton.LeftButton)
    assert not win.controller.plan.waivers and not win.controller.dirty

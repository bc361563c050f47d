"""The window as a desktop app: files, unsaved-changes prompt, recent files, autosave, language, findings."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QApplication

import procurement.rules
from gui.settings import Settings
from gui.widgets.field_marker import PROPERTY
from procurement.findings import Finding, Severity
from procurement.plan import load_plan


def _set_budget(qtbot, win, text: str) -> None:
    spin = win.pages[0].budget.spin
    spin.selectAll()
    qtbot.keyClicks(spin, text)


def test_save_then_reopen_gives_the_same_plan(qtbot, make_window, dialog_calls, tmp_path) -> None:
    win = make_window()
    _set_budget(qtbot, win, "250000")
    target = tmp_path / "a.gpuplan.yaml"
    dialog_calls.answer("ask_save_path", target)
    win.named_actions["save"].trigger()
    assert dialog_calls.names() == ["ask_save_path"]
    assert not win.isWindowModified() and "a.gpuplan.yaml" in win.windowTitle()
    saved = win.controller.plan
    assert load_plan(target) == saved

    other = make_window()
    assert other.open_path(target)
    assert other.controller.plan == saved
    assert other.pages[0].budget.value() == 250_000
    assert Settings(QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)).recent_files[0] == \
        target.resolve()


def test_close_with_unsaved_changes_asks(qtbot, make_window, dialog_calls) -> None:
    win = make_window()
    _set_budget(qtbot, win, "1000")
    assert win.windowTitle().endswith("— gpu-procure") and win.isWindowModified()
    dialog_calls.answer("ask_save_changes", "cancel")
    win.close()
    assert win.isVisible(), "cancel keeps the window open"
    dialog_calls.answer("ask_save_changes", "discard")
    win.close()
    assert not win.isVisible()
    assert dialog_calls.names() == ["ask_save_changes", "ask_save_changes"]


def test_new_and_open_ask_before_dropping_changes(qtbot, make_window, dialog_calls, tmp_path) -> None:
    win = make_window()
    _set_budget(qtbot, win, "1000")
    dialog_calls.answer("ask_save_changes", "cancel")
    assert not win.new_blank()
    assert win.controller.plan.requirements.budget_cny == 1000
    dialog_calls.answer("ask_save_changes", "discard")
    win.named_actions["new"].trigger()
    assert win.controller.plan.requirements.budget_cny is None and not win.isWindowModified()


def test_open_errors_are_shown_not_raised(qtbot, make_window, dialog_calls, tmp_path) -> None:
    bad = tmp_path / "bad.gpuplan.yaml"
    bad.write_text("schema_version: 1\nrequirements:\n  batch_size: -3\n", encoding="utf-8")
    win = make_window()
    dialog_calls.answer("show_error", None)
    assert not win.open_path(bad)
    (_name, args), = dialog_calls.calls
    assert "bad.gpuplan.yaml:3" in args[2] and "batch_size" in args[2]


def test_recent_files_menu_opens_a_file(qtbot, make_window, dialog_calls, tmp_path) -> None:
    win = make_window()
    paths = []
    for name in ("one", "two"):
        _set_budget(qtbot, win, "5000" if name == "one" else "7000")
        paths.append(tmp_path / f"{name}.gpuplan.yaml")
        dialog_calls.answer("ask_save_path", paths[-1])
        win.named_actions["save_as"].trigger()
    assert win.settings.recent_files[:2] == [paths[1].resolve(), paths[0].resolve()]
    win.recent_menu.aboutToShow.emit()
    entries = [a for a in win.recent_menu.actions() if a.data()]
    assert [a.text() for a in entries] == ["&1 two.gpuplan.yaml", "&2 one.gpuplan.yaml"]
    entries[1].trigger()
    assert win.controller.path == paths[0] and win.controller.plan.requirements.budget_cny == 5000


def test_autosave_and_restore_after_a_crash(qtbot, make_window, dialog_calls, tmp_path) -> None:
    win = make_window()
    win.autosave_timer.setInterval(0)
    with qtbot.waitSignal(win.autosaved, timeout=2000) as blocker:
        _set_budget(qtbot, win, "88000")
    recovery_file = blocker.args[0]
    assert load_plan(recovery_file).requirements.budget_cny == 88_000
    edited = win.controller.plan
    win.controller.undo_stack.setClean()  # simulate the crash: the window goes without cleaning up
    win.recovery.write(edited, None)
    win.hide()

    dialog_calls.answer("ask_restore_recovery", True)
    fresh = make_window()
    assert fresh.offer_recovery()
    assert fresh.controller.plan == edited and fresh.isWindowModified()
    # a plan that was never saved: the question does not speak of a saved file it would be newer than
    asked = [args for name, args in dialog_calls.calls if name == "ask_restore_recovery"]
    assert asked and asked[-1][3] is True
    dialog_calls.answer("ask_save_path", tmp_path / "saved.gpuplan.yaml")
    fresh.named_actions["save"].trigger()
    assert fresh.recovery.pending() == [], "a clean save removes the recovery copy"


def test_recovery_older_than_its_file_is_not_offered(qtbot, make_window, dialog_calls, tmp_path) -> None:
    win = make_window()
    target = tmp_path / "p.gpuplan.yaml"
    dialog_calls.answer("ask_save_path", target)
    win.named_actions["save"].trigger()
    win.recovery.write(win.controller.plan, target)
    target.write_text(target.read_text(encoding="utf-8"), encoding="utf-8")  # file is now newer
    assert win.recovery.pending() == []
    assert not win.offer_recovery()


def test_language_switch_changes_visible_labels(qtbot, make_window) -> None:
    win = make_window()
    page = win.pages[0]
    assert win.step_list.item(0).text() == "1  Requirements"
    assert page.labels["workload"].text() == "&Workload:"
    win.named_actions["lang_zh"].trigger()
    assert win.step_list.item(0).text() == "1  需求分析"
    assert page.labels["workload"].text().startswith("工作负载")
    assert win.file_menu.title().startswith("文件")
    assert win.controller.lang == "zh" and win.settings.language == "zh"
    win.named_actions["lang_en"].trigger()
    assert win.step_list.item(1).text() == "2  GPU selection"


def _fake_findings(monkeypatch: pytest.MonkeyPatch, findings: list[Finding]) -> None:
    monkeypatch.setattr(procurement.rules, "evaluate", lambda *a, **k: list(findings))


BUDGET_LOW = Finding.of_text(rule="BUDGET-OVER", family="budget", severity=Severity.WARNING, step=1,
                     fields=("requirements.budget_cny",), message="Over budget by 20 000 CNY",
                     fix="Raise the budget or choose fewer GPUs")
GPU_ERR = Finding.of_text(rule="VRAM-TOO-SMALL", family="vram", severity=Severity.ERROR, step=2,
                  fields=("gpu.count",), message="The model does not fit", fix="Add GPUs")


def test_findings_mark_steps_and_fields_and_clicking_focuses(qtbot, make_window, monkeypatch) -> None:
    _fake_findings(monkeypatch, [GPU_ERR, BUDGET_LOW])
    win = make_window()
    assert [win.step_status(i) for i in range(len(win.pages))] == \
        ["warning", "error", "incomplete", "incomplete", "incomplete", None, None]
    budget = win.pages[0].budget
    assert budget.property(PROPERTY) == "warning"
    assert "Over budget by 20 000 CNY" in budget.toolTip()
    tree = win.findings_panel.tree
    assert [tree.topLevelItem(i).text(0) for i in range(tree.topLevelItemCount())] == \
        ["Errors (1)", "Warnings (1)"]

    win.show_page(3)
    item = next(i for i in win.findings_panel.finding_items() if "Over budget" in i.text(0))
    rect = tree.visualItemRect(item)
    qtbot.mouseClick(tree.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert win.current_index() == 0
    qtbot.waitUntil(lambda: QApplication.focusWidget() is budget.spin)

    item = next(i for i in win.findings_panel.finding_items() if "does not fit" in i.text(0))
    tree.setCurrentItem(item)
    qtbot.keyClick(tree, Qt.Key.Key_Return)
    assert win.current_index() == 1
    qtbot.waitUntil(lambda: QApplication.focusWidget() is win.pages[1].count_spin)


def test_findings_follow_edits_without_a_check_button(qtbot, make_window, monkeypatch) -> None:
    def budget_rule(plan, *_a, **_k):
        b = plan.requirements.budget_cny
        return [BUDGET_LOW] if b is not None and b < 100_000 else []

    monkeypatch.setattr(procurement.rules, "evaluate", budget_rule)
    win = make_window()
    with qtbot.waitSignal(win.controller.findings_changed):  # step 1 is complete once the model is given
        win.controller.set_value("requirements.model_params_b", 7.0)
    assert win.step_status(0) == "ok"
    with qtbot.waitSignal(win.controller.findings_changed):
        _set_budget(qtbot, win, "5000")
    assert win.step_status(0) == "warning" and win.pages[0].budget.property(PROPERTY) == "warning"
    with qtbot.waitSignal(win.controller.findings_changed):
        _set_budget(qtbot, win, "500000")
    assert win.step_status(0) == "ok" and not win.pages[0].budget.property(PROPERTY)
    assert win.findings_panel.tree.topLevelItemCount() == 0


def test_keyboard_navigation(qtbot, make_window) -> None:
    win = make_window()
    qtbot.keyClick(win, Qt.Key.Key_3, Qt.KeyboardModifier.ControlModifier)
    assert win.current_index() == 2 and win.step_list.currentRow() == 2
    qtbot.keyClick(win, Qt.Key.Key_Right, Qt.KeyboardModifier.AltModifier)
    assert win.current_index() == 3
    qtbot.mouseClick(win.back_button, Qt.MouseButton.LeftButton)
    assert win.current_index() == 2
    win.show_page(0)
    assert not win.back_button.isEnabled()


def test_geometry_and_language_are_remembered(qtbot, make_window, settings_file) -> None:
    win = make_window()
    win.resize(790, 520)  # inside the offscreen screen (800×600): restoreGeometry keeps windows on screen
    win.set_language("zh")
    size = win.size()
    assert size.height() == 520
    win.close()
    stored = Settings(QSettings(str(settings_file), QSettings.Format.IniFormat))
    assert stored.language == "zh" and stored.geometry is not None
    again = make_window()
    assert again.size() == size


def test_new_from_example_is_an_untitled_copy(qtbot, make_window, dialog_calls, tmp_path) -> None:
    examples = tmp_path / "examples"
    examples.mkdir()
    (examples / "small.gpuplan.yaml").write_text(
        "schema_version: 1\ntitle: Small lab box\nrequirements:\n  batch_size: 8\n", encoding="utf-8")
    win = make_window(examples=examples)
    assert [t for t, _ in win.example_plans()] == ["Small lab box"]
    dialog_calls.answer("ask_example", lambda _parent, items: items[0][1])
    win.named_actions["new_example"].trigger()
    assert win.controller.plan.title == "Small lab box" and win.controller.plan.requirements.batch_size == 8
    assert win.controller.path is None, "saving must not overwrite the shipped example"
    assert win.pages[0].spins["batch_size"].value() == 8


def test_export_and_print_actions_call_the_page_hooks(qtbot, make_window, monkeypatch) -> None:
    win = make_window()
    quote, checklist = win.page("QuotePage"), win.page("ChecklistPage")
    called: list[str] = []
    monkeypatch.setattr(quote, "export_pdf", lambda: called.append("quote"), raising=False)
    monkeypatch.setattr(checklist, "export_pdf", lambda: called.append("checklist"), raising=False)
    monkeypatch.setattr(quote, "print_document", lambda: called.append("print quote"), raising=False)
    win.named_actions["export_checklist"].trigger()
    assert win.current_index() == win.pages.index(checklist)
    win.named_actions["export_quote"].trigger()
    assert win.current_index() == win.pages.index(quote)
    win.show_page(0)
    win.named_actions["print"].trigger()
    assert called == ["checklist", "quote", "print quote"]

"""A language switch is a repaint: the findings store codes, so the panel and the field markers show them in
the new language without evaluating the plan again, in the words `gpu-procure check --lang` prints."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QMenu, QTreeWidgetItemIterator

from gui import controller as controller_module
from gui.findings_panel import FINDING_ROLE
from gui.widgets.field_marker import PROPERTY
from procurement.plan import load_plan
from tests.conftest import EXAMPLES

PLAN = EXAMPLES / "mid-size-training.gpuplan.yaml"
REPO = Path(__file__).resolve().parents[2]


def _check_texts(lang: str) -> dict[str, str]:
    """rule -> what `gpu-procure check --lang` prints for it (message, then '→ fix' when there is one)."""
    run = "import sys; from procurement.commands.cli import main; sys.exit(main(sys.argv[1:]))"
    run_ = subprocess.run([sys.executable, "-c", run, "check", "--lang", lang, str(PLAN)], cwd=REPO,
                         capture_output=True, text=True, encoding="utf-8", check=False)
    assert run_.returncode in (0, 1, 3) and run_.stdout, run_.stderr
    out = run_.stdout
    texts: dict[str, str] = {}
    rule = ""
    for line in out.splitlines():
        if line.startswith("  [") and "] " in line and ": " in line:
            rule, _, message = line.split("] ", 1)[1].partition(": ")
            texts[rule] = message
        elif line.startswith("      → ") and rule:
            texts[rule] += "\n→ " + line.removeprefix("      → ")
    return texts


def _panel_texts(win: Any) -> dict[str, str]:
    out: dict[str, str] = {}
    it = QTreeWidgetItemIterator(win.findings_panel.tree)
    while it.value():
        item = it.value()
        finding = item.data(0, FINDING_ROLE)
        if finding is not None:
            out[finding.rule] = item.text(0)
        it += 1
    return out


def _marked(page: Any) -> set[str]:
    """The tooltips of step 3's widgets that a finding marks (the findings' texts)."""
    widgets = (page.markers.widget_for(p) for p in page.markers.paths())
    return {w.toolTip() for w in widgets if w is not None and w.property(PROPERTY)}


def _choose_language(qtbot: Any, win: Any, lang: str) -> None:
    """View → Language → the language, with the mouse, as a person does it."""
    bar = win.menuBar()
    QTest.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.actionGeometry(win.view_menu.menuAction()).center())
    qtbot.waitUntil(win.view_menu.isVisible)
    lang_item = win.lang_menu.menuAction()
    QTest.mouseClick(win.view_menu, Qt.MouseButton.LeftButton, pos=win.view_menu.actionGeometry(lang_item).center())
    qtbot.waitUntil(win.lang_menu.isVisible)
    action = win.named_actions[f"lang_{lang}"]
    menu: QMenu = win.lang_menu
    with qtbot.waitSignal(action.triggered):
        QTest.mouseClick(menu, Qt.MouseButton.LeftButton, pos=menu.actionGeometry(action).center())
    qtbot.waitUntil(lambda: win.translators.lang == lang)
    qtbot.waitUntil(lambda: not win.view_menu.isVisible() and not win.lang_menu.isVisible())
    QTest.mouseMove(win.findings_panel.tree)  # away from the menu bar, which would take the next click as "close"


# the offscreen platform, on opening a menu
@pytest.mark.qt_log_ignore("does not support propagateSizeHints", "does not support raise",
                           "does not support grabbing the keyboard")
def test_a_language_switch_shows_the_findings_in_the_other_language_without_evaluating(
        qtbot: Any, make_window: Any, catalog: Any, monkeypatch: Any) -> None:
    calls: list[object] = []
    real = controller_module._evaluate

    def counting(*args: Any, **kw: Any) -> Any:
        calls.append(args[0])
        return real(*args, **kw)

    monkeypatch.setattr(controller_module, "_evaluate", counting)
    win = make_window()
    win.set_language("en")
    win.controller.new(load_plan(PLAN, catalog))
    qtbot.waitUntil(lambda: not win.controller._eval_timer.isActive())
    english = _panel_texts(win)
    assert english and english == {rule: text for rule, text in _check_texts("en").items() if rule in english}
    marked_before = _marked(win.pages[2])
    evaluated = len(calls)

    _choose_language(qtbot, win, "zh")
    chinese = _panel_texts(win)
    assert len(calls) == evaluated, "a language switch evaluated the plan again"
    assert chinese.keys() == english.keys() and chinese != english
    assert chinese == {rule: text for rule, text in _check_texts("zh").items() if rule in chinese}
    page = win.pages[2]
    marked_after = _marked(page)
    assert marked_before and marked_after and marked_after.isdisjoint(marked_before)  # the markers said again

    _choose_language(qtbot, win, "en")
    assert _panel_texts(win) == english and len(calls) == evaluated

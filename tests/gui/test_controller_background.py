"""The started window's first evaluation runs in a worker (PlanController.evaluate_in_background): the window
says it is checking the plan and takes input meanwhile, and a result of a plan edited since is never applied."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtTest import QTest

import gui.controller as controller_module
from gui.controller import PlanController


@pytest.fixture
def held(monkeypatch: pytest.MonkeyPatch) -> Iterator[threading.Event]:
    """The worker's evaluation waits until the event is set; the GUI thread's evaluations run at once."""
    release = threading.Event()
    real = controller_module._evaluate

    def evaluate(*args: Any, **kw: Any) -> Any:
        if threading.current_thread() is not threading.main_thread():
            assert release.wait(30), "the test never let the worker go on"
        return real(*args, **kw)

    monkeypatch.setattr(controller_module, "_evaluate", evaluate)
    yield release
    release.set()


def test_the_first_evaluation_arrives_from_the_worker(qtbot: Any, catalog: Any, held: threading.Event) -> None:
    ctl = PlanController(catalog, lang="en", evaluate_now=False)
    with qtbot.waitSignal(ctl.findings_changed, timeout=1000):
        ctl.evaluate_in_background()
    assert ctl.evaluating and ctl.evaluation is None
    held.set()
    qtbot.waitUntil(lambda: ctl.evaluation is not None, timeout=10_000)
    assert not ctl.evaluating and ctl.evaluation is not None and ctl.evaluation.plan is ctl.plan


def test_a_result_of_a_plan_edited_meanwhile_is_dropped(qtbot: Any, catalog: Any, held: threading.Event) -> None:
    ctl = PlanController(catalog, lang="en", evaluate_now=False)
    ctl.evaluate_in_background()
    first = ctl.plan
    ctl.set_value("requirements.batch_size", 7)
    # the edit is evaluated at once in the GUI thread, as every edit is
    qtbot.waitUntil(lambda: ctl.evaluation is not None, timeout=10_000)
    assert ctl.evaluation is not None
    edited = ctl.evaluation
    assert edited.plan is ctl.plan and ctl.plan is not first and not ctl.evaluating
    held.set()
    ctl.wait_for_background()
    qtbot.wait(50)  # the worker's (queued) result is delivered, and dropped
    assert ctl.evaluation is edited and ctl.plan.requirements.batch_size == 7


@pytest.mark.qt_log_ignore("does not support propagateSizeHints", "does not support raise",
                           "does not support grabbing the keyboard")
def test_the_window_says_it_is_checking_and_takes_keys_meanwhile(qtbot: Any, catalog: Any, tmp_path: Path,
                                                                 held: threading.Event) -> None:
    from gui.autosave import RecoveryStore
    from gui.i18n import Translators
    from gui.main_window import MainWindow
    from gui.settings import Settings

    ctl = PlanController(catalog, lang="en", evaluate_now=False)
    ctl.evaluate_in_background()
    settings = Settings(QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat))
    win = MainWindow(ctl, settings, Translators(), RecoveryStore(tmp_path / "recovery"))
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)
    panel = win.findings_panel
    assert panel is not None
    assert panel.summary.text() == panel.tr("Checking the plan against the rules…")
    assert win.step_list.item(1).toolTip() == win.tr("Checking the plan…")
    # the window is not frozen: a key moves to the next step while the worker still runs
    row = win.step_list.currentRow()
    win.step_list.setFocus()
    QTest.keyClick(win.step_list, Qt.Key.Key_Down)
    assert win.step_list.currentRow() == row + 1 and ctl.evaluating
    held.set()
    qtbot.waitUntil(lambda: not ctl.evaluating, timeout=10_000)
    assert panel.summary.text() != panel.tr("Checking the plan against the rules…")
    assert win.step_list.item(1).toolTip() != win.tr("Checking the plan…")

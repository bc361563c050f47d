"""Plans the OS hands over as QFileOpenEvent (macOS Finder) open in the app, at start and while it runs;
new plans are saved with the single extension .gpuplan, and .gpuplan.yaml files still open."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from PySide6.QtCore import QUrl
from PySide6.QtGui import QFileOpenEvent

from gui.file_open import PlanOpener, plan_opener
from procurement.plan import PLAN_SUFFIX, PLAN_SUFFIXES
from tests.conftest import EXAMPLES, REPO


def _example(tmp_path: Path, suffix: str) -> Path:
    src = EXAMPLES / "personal-research.gpuplan.yaml"
    target = tmp_path / f"research{suffix}"
    shutil.copy(src, target)
    return target


def test_a_file_before_the_window_is_ready_waits_then_opens(qtbot, make_window, tmp_path) -> None:
    opener = PlanOpener()
    plan = _example(tmp_path, ".gpuplan")
    assert opener.handle(QFileOpenEvent(str(plan)))
    assert opener.pending == [plan]
    win = make_window()
    waiting = opener.ready(lambda p: win.open_path(p, ask=True))
    assert waiting == plan and opener.pending == []
    assert win.open_path(waiting, ask=False)
    assert win.controller.path == plan


def test_a_file_opened_while_running_opens_at_once(qtbot, make_window, tmp_path, qapp) -> None:
    win = make_window()
    opener = plan_opener(qapp)
    opener.ready(lambda p: win.open_path(p, ask=True))
    old_name = _example(tmp_path, ".gpuplan.yaml")  # 0.1.0's double extension still opens
    assert opener.handle(QFileOpenEvent(QUrl.fromLocalFile(str(old_name))))
    assert win.controller.path == old_name
    assert win.controller.plan.gpu.count >= 1


def test_other_events_are_not_taken(qapp) -> None:
    from PySide6.QtCore import QEvent

    assert not PlanOpener().handle(QEvent(QEvent.Type.Show))


APP_EVENT = r"""
import sys
from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QFileOpenEvent
from gui.app import make_app
app = make_app()
QCoreApplication.sendEvent(app, QFileOpenEvent(sys.argv[1]))
print(type(app).__name__, [str(p) for p in app.plan_opener.pending])
"""


def test_the_application_object_routes_file_open_events(tmp_path: Path) -> None:
    plan = tmp_path / "x.gpuplan"
    proc = subprocess.run([sys.executable, "-c", APP_EVENT, str(plan)], cwd=REPO, capture_output=True, text=True,
                          timeout=120, env={"PYTHONPATH": str(REPO), "QT_QPA_PLATFORM": "offscreen",
                                            "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)})
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["GpuProcureApp", f"['{plan}']"]


def test_new_plans_get_the_single_extension() -> None:
    assert PLAN_SUFFIX == ".gpuplan" and PLAN_SUFFIX.count(".") == 1
    assert ".gpuplan.yaml" in PLAN_SUFFIXES


def test_save_as_adds_the_single_extension(monkeypatch, qapp, tmp_path) -> None:
    from PySide6 import QtWidgets

    from gui import dialogs

    for typed, saved in (("plan", "plan.gpuplan"), ("plan.gpuplan", "plan.gpuplan"),
                         ("old.gpuplan.yaml", "old.gpuplan.yaml")):
        monkeypatch.setattr(QtWidgets.QFileDialog, "getSaveFileName",
                            staticmethod(lambda *a, typed=typed: (str(tmp_path / typed), "")))
        assert dialogs.ask_save_path(None, tmp_path) == tmp_path / saved

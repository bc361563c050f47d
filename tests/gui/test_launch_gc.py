"""The app's start runs with the collector at rest, and it is back on once the window has its plan."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.conftest import REPO

STARTED = r"""
import gc, json
from PySide6.QtWidgets import QApplication
from gui import main_window
attach = main_window.MainWindow.attach
seen = {}
def attach_then_quit(self, *args, **kw):
    seen["during_start"] = gc.isenabled()
    attach(self, *args, **kw)
    seen["after_attach"] = gc.isenabled()
    seen["frozen"] = gc.get_freeze_count()
    QApplication.instance().quit()
main_window.MainWindow.attach = attach_then_quit
from gui.launch import main
main([])
seen["after_exit"] = gc.isenabled()
print(json.dumps(seen))
"""


def test_the_collector_rests_during_the_start_and_resumes_with_the_plan(tmp_path: Path) -> None:
    env = {"QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8",
           "HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path)}
    proc = subprocess.run([sys.executable, "-c", STARTED], cwd=REPO, env=env, capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr[-3000:]
    seen = json.loads(proc.stdout.splitlines()[-1])
    assert seen["during_start"] is False  # catalog, plan and rules imported without ~140 collections
    assert seen["after_attach"] is True and seen["after_exit"] is True
    assert seen["frozen"] > 10_000  # the start-up heap is out of the collector's way (gui/workers.py)

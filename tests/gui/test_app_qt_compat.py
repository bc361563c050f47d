"""The Qt binding in use must not drop references to None (PySide6 6.12.0 on CPython 3.11 does, and aborts)."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.conftest import REPO

# 20 000 void calls: more than None's ~4 000 references at start, so a leaking binding aborts.
MANY_VOID_CALLS = """
import gui
from PySide6.QtWidgets import QApplication, QLabel
app = QApplication([])
label = QLabel()
for i in range(20_000):
    label.setText("x")
print("done")
"""


def test_many_void_qt_calls_do_not_abort_the_interpreter() -> None:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(REPO))
    proc = subprocess.run([sys.executable, "-c", MANY_VOID_CALLS], cwd=REPO, env=env, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip() == "done"
    assert "none_dealloc" not in proc.stderr

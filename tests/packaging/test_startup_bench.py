"""bench/startup.py measures a real first paint: the minimal program exits after painting; medians."""

from __future__ import annotations

import sys

from tests.conftest import REPO

sys.path.insert(0, str(REPO / "bench"))
import pytest
import startup


def test_minimal_program_exits_after_its_first_paint() -> None:
    # Exit status 3 unless the probe saw a paint event before the event loop ended.
    code = startup.MINIMAL.replace("QTimer.singleShot(0, QApplication.quit)",
                                   "QTimer.singleShot(0, QApplication.quit); globals()['PAINTED'] = 1")
    code = code.replace("sys.exit(app.exec())", "app.exec(); sys.exit(0 if globals().get('PAINTED') else 3)")
    assert code.count("PAINTED") == 2
    run = startup.run_once(code, timeout_s=60)
    assert run.status == 0
    assert 0 < run.wall_s < 60
    assert run.maxrss_mib > 10  # an interpreter with QtWidgets loaded is tens of MiB


def test_ratios_compare_medians() -> None:
    def runs(*walls: float) -> list[startup.Run]:  # first paint at half the exit time
        return [startup.Run(w, 50.0 * w, 0, paint_s=w / 2) for w in walls]

    s = startup.Summary(3, startup._stats(runs(0.1, 0.2, 0.3)), startup._stats(runs(0.3, 0.9, 0.4)))
    # medians 0.2 and 0.4 s (first paint 0.1 and 0.2 s), memory medians 10 and 20 MiB
    assert s.wall_ratio == pytest.approx(2.0) and s.memory_ratio == pytest.approx(2.0)
    assert s.ready_ratio == pytest.approx(2.0)
    assert s.over_target  # 2.0 > 1.5 for the wall time
    assert "OVER TARGET" in startup.report(s)



# A window with children of classes Python has not touched (a dock, a tool bar, a list, a status bar, a scroll
# area): the probe must not make PySide6 build Python types for them. It counts the enums PySide6 creates while
# the event loop runs up to the first paint; an application-wide Python filter made it build 154 for the app's
# window (~55 ms of its first paint), none of which the app itself ever asks for.
_BUSY_WINDOW = r"""
import enum
from PySide6.QtWidgets import QDockWidget, QListWidget, QScrollArea, QToolBar
_made = []
_call = enum.EnumType.__call__
def _counting(cls, value, names=None, *a, **k):
    if names is not None:
        _made.append(value)
        return _call(cls, value, names, *a, **k)
    return _call(cls, value, *a, **k)
app = QApplication(sys.argv[:1])
window = QMainWindow()
window.addToolBar(QToolBar("tools"))
dock = QDockWidget("dock")
dock.setWidget(QListWidget())
window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
window.setCentralWidget(QScrollArea())
window.statusBar().showMessage("ready")
window.resize(1000, 700)
window.show()
enum.EnumType.__call__ = _counting
app.exec()
enum.EnumType.__call__ = _call
print("ENUMS", len(_made), flush=True)
"""


def test_the_probe_does_not_make_pyside_build_types_for_the_window() -> None:
    import subprocess

    code = startup.PROBE + "from PySide6.QtCore import Qt\n" + _BUSY_WINDOW
    env = {"QT_QPA_PLATFORM": "offscreen", "PATH": "/usr/bin:/bin"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, env=env,
                         cwd=REPO, check=True).stdout
    assert "FIRST_PAINT" in out  # it still sees the first paint of the main window
    made = int(next(line.split()[1] for line in out.splitlines() if line.startswith("ENUMS")))
    assert made < 10, made


def test_floor_program_loads_the_core_and_exits() -> None:
    run = startup.run_once(startup.FLOOR, timeout_s=60)
    assert run.status == 0 and 0 < run.paint_s <= run.wall_s
    floor = startup._stats([run])
    s = startup.Summary(1, floor, floor, floor)
    assert s.floor_ratio == pytest.approx(1.0)
    assert "floor ratio  1.00 x" in startup.report(s) and "the app's GUI adds +0.000 s" in startup.report(s)

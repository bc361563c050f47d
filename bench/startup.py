"""Cold start to the first painted main window: gpu-procure against a minimal PySide6 program, same run.

Both are whole processes (interpreter start, imports, window, first paint, exit), run alternately N times;
the median wall time and the peak resident memory (ru_maxrss of that child, from os.wait4) are compared.
Targets (issues 7 and 25): app <= 1.5x the minimal program's time to first paint, <= 2x its time to ready (exit,
after what the app loads right after the first paint, the first evaluation included) and <= 2x its peak memory.
A third program, the floor, is the minimal window followed by the Qt-free core's own start work (the catalog, the
policy, a new plan and its first evaluation: pydantic models, every rule) and nothing of the app's GUI; its ratio
is what any front end on this core pays to be ready, and the app's ready time minus the floor's is the GUI's share.
'Usable' (reported, no target) is the moment the window has its plan and takes input, while the first evaluation
may still run in a worker.

Usage: QT_QPA_PLATFORM=offscreen python bench/startup.py [-n 7] [--json FILE] [--enforce]
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import asdict, dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
WALL_TARGET, READY_TARGET, MEMORY_TARGET = 1.5, 2.0, 2.0

# Run first in both processes: quits the event loop right after the first paint event of a QMainWindow.
# It hooks QApplication.exec, so it measures the same moment however the app's --self-test is written.
# Both programs import QtWidgets anyway, so importing it here first costs neither of them extra.
# The filter sits on the shown main windows only, not on the application: an application-wide Python filter
# hands every event of every object to Python, and the first time an object of a class Python has not seen yet
# passes, PySide6 builds the Python types (and their enums) of every class of its module - 154 enums, ~55 ms,
# before the app's first paint, and none in the minimal window, whose few objects are all known (2026-12-06).
# Neither program installs such a filter itself, so it measured the instrument, not the app.
PROBE = r"""
import sys
from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication, QMainWindow

class _FirstPaint(QObject):
    def eventFilter(self, obj, event):
        if event.type() == QEvent.Type.Paint and self.watched:
            for window in self.watched:
                window.removeEventFilter(self)
            self.watched = []
            import time
            print("FIRST_PAINT", time.time(), flush=True)  # wall clock: the parent started the clock
            QTimer.singleShot(0, QApplication.quit)
        return False

_exec = QApplication.exec
_filter = _FirstPaint()
_filter.watched = []

def _exec_until_first_paint(*_args):  # app.exec() binds the app; QApplication.exec is static
    _filter.watched = [w for w in QApplication.topLevelWidgets() if isinstance(w, QMainWindow) and w.isVisible()]
    for window in _filter.watched:
        window.installEventFilter(_filter)
    return _exec()

QApplication.exec = _exec_until_first_paint
"""

MINIMAL = PROBE + r"""
app = QApplication(sys.argv[:1])
window = QMainWindow()
window.setWindowTitle("minimal")
window.resize(1000, 700)
window.show()
sys.exit(app.exec())
"""

# The minimal window, then what the app's core must do before its first verdict, without a widget of the app: the
# shipped catalog, the default policy, a new plan, one evaluation. The same calls as gui/app.py's load() and the
# plan controller's first evaluation, in the same order.
FLOOR = MINIMAL.replace("sys.exit(app.exec())", r"""status = app.exec()
from catalog.loader import load_catalog
from procurement.evaluation import evaluate
from procurement.plan import blank_plan
from procurement.policy import default_policy
evaluate(blank_plan(), load_catalog([]), default_policy(), "en")
sys.exit(status)""")

# The app as `gpu-procure` runs it, but without --self-test: the probe ends it after its first paint. It also
# prints when the window has its plan attached and accepts input (USABLE); the first evaluation may still run in
# a worker then, and the exit waits for it.
APP = PROBE + r"""
from gui import main_window as _main_window
_attach = _main_window.MainWindow.attach

def _attach_marked(self, *args, **kw):
    _attach(self, *args, **kw)
    import time
    print("USABLE", time.time(), flush=True)

_main_window.MainWindow.attach = _attach_marked
from gui.launch import main
sys.exit(main([]))
"""


@dataclass
class Run:
    wall_s: float
    """Process start to exit (after the first paint, the event loop runs what was queued, then quits)."""
    maxrss_mib: float
    status: int
    cpu_s: float = 0.0  # user + system time of the child: steadier than wall time on a busy machine
    paint_s: float = 0.0
    """Process start to the first paint event of the main window."""
    usable_s: float = 0.0
    """Process start to the window with its plan attached, accepting input (the app only; else its exit)."""


def run_once(code: str, timeout_s: float) -> Run:
    env = dict(os.environ, QT_QPA_PLATFORM=os.environ.get("QT_QPA_PLATFORM", "offscreen"),
               PYTHONPATH=str(REPO))
    # An installed app starts from compiled bytecode (pip writes .pyc, the bundle has them in its archive);
    # let the unmeasured warm-up run write them here too, else each run would compile the app's sources.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    with tempfile.TemporaryFile() as err, tempfile.TemporaryFile() as out:  # files: a child cannot block
        start = time.perf_counter()
        start_wall = time.time()
        proc = subprocess.Popen([sys.executable, "-c", code], cwd=REPO, env=env, stdout=out, stderr=err)
        killer = threading.Timer(timeout_s, lambda: os.kill(proc.pid, signal.SIGKILL))
        killer.start()
        # wait4 reaps this one child and returns its own resource usage, so ru_maxrss is its peak.
        _pid, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        killer.cancel()
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode != 0:
            err.seek(0)
            text = err.read().decode(errors="replace")
            raise SystemExit(f"startup bench: the program exited {proc.returncode}:\n{text[-3000:]}")
        out.seek(0)
        lines = out.read().decode(errors="replace").splitlines()
        marks = [ln.split() for ln in lines if ln.startswith("FIRST_PAINT")]
        paint = float(marks[0][1]) - start_wall if marks else wall
        usable_marks = [ln.split() for ln in lines if ln.startswith("USABLE")]
        usable = float(usable_marks[0][1]) - start_wall if usable_marks else wall
    # ru_maxrss is KiB on Linux
    return Run(wall, usage.ru_maxrss / 1024, proc.returncode, usage.ru_utime + usage.ru_stime, paint, usable)


@dataclass
class Stats:
    wall_s_median: float
    maxrss_mib_median: float
    runs: list[Run]
    cpu_s_median: float = 0.0
    paint_s_median: float = 0.0
    usable_s_median: float = 0.0


@dataclass
class Summary:
    runs: int
    minimal: Stats
    app: Stats
    floor: Stats | None = None
    """The minimal window plus the core's start work (None when not measured)."""

    @property
    def wall_ratio(self) -> float:
        """To the first painted main window (the issue's measure)."""
        return self.app.paint_s_median / self.minimal.paint_s_median

    @property
    def ready_ratio(self) -> float:
        """To exit, i.e. including what the app loads right after its first paint (catalog, step 1)."""
        return self.app.wall_s_median / self.minimal.wall_s_median

    @property
    def usable_ratio(self) -> float:
        """To the window accepting input with its plan, against the minimal program's exit (its own 'ready')."""
        return self.app.usable_s_median / self.minimal.wall_s_median

    @property
    def floor_ratio(self) -> float:
        """The core's floor: the minimal window plus the catalog, policy, plan and first evaluation, to its exit."""
        return self.floor.wall_s_median / self.minimal.wall_s_median if self.floor else 0.0

    @property
    def memory_ratio(self) -> float:
        return self.app.maxrss_mib_median / self.minimal.maxrss_mib_median

    @property
    def cpu_ratio(self) -> float:
        return self.app.cpu_s_median / self.minimal.cpu_s_median if self.minimal.cpu_s_median else 0.0

    @property
    def over_target(self) -> bool:
        return (self.wall_ratio > WALL_TARGET or self.ready_ratio > READY_TARGET
                or self.memory_ratio > MEMORY_TARGET)

    def to_json(self) -> dict[str, object]:
        return {**asdict(self), "wall_ratio": self.wall_ratio, "ready_ratio": self.ready_ratio,
                "usable_ratio": self.usable_ratio, "floor_ratio": self.floor_ratio,
                "memory_ratio": self.memory_ratio,
                "cpu_ratio": self.cpu_ratio, "load_average": os.getloadavg(),
                "targets": {"wall_ratio": WALL_TARGET, "ready_ratio": READY_TARGET,
                            "memory_ratio": MEMORY_TARGET}}


def _stats(runs: list[Run]) -> Stats:
    return Stats(statistics.median(r.wall_s for r in runs), statistics.median(r.maxrss_mib for r in runs),
                 runs, statistics.median(r.cpu_s for r in runs), statistics.median(r.paint_s for r in runs),
                 statistics.median(r.usable_s for r in runs))


def measure(n: int, timeout_s: float) -> Summary:
    """Alternate the three programs n times, after one unmeasured run of each to warm the page cache."""
    run_once(MINIMAL, timeout_s)
    run_once(FLOOR, timeout_s)
    run_once(APP, timeout_s)
    minimal: list[Run] = []
    floor: list[Run] = []
    app: list[Run] = []
    for _ in range(n):
        minimal.append(run_once(MINIMAL, timeout_s))
        floor.append(run_once(FLOOR, timeout_s))
        app.append(run_once(APP, timeout_s))
    return Summary(n, _stats(minimal), _stats(app), _stats(floor))


def report(s: Summary) -> str:
    def verdict(ratio: float, target: float) -> str:
        return "ok" if ratio <= target else "OVER TARGET"

    m, a = s.minimal, s.app
    return "\n".join([
        f"startup to first painted main window, median of {s.runs} runs each (whole processes)",
        f"  minimal PySide6 window: first paint {m.paint_s_median:.3f} s, exit {m.wall_s_median:.3f} s, "
        f"{m.cpu_s_median:.3f} s CPU, peak RSS {m.maxrss_mib_median:.1f} MiB",
        f"  gpu-procure:            first paint {a.paint_s_median:.3f} s, exit {a.wall_s_median:.3f} s, "
        f"{a.cpu_s_median:.3f} s CPU, peak RSS {a.maxrss_mib_median:.1f} MiB, usable {a.usable_s_median:.3f} s",
        f"  first-paint ratio {s.wall_ratio:.2f} x (target <= {WALL_TARGET}) {verdict(s.wall_ratio, WALL_TARGET)}",
        f"  ready ratio  {s.ready_ratio:.2f} x (target <= {READY_TARGET}; catalog and step 1 loaded after the "
        f"first paint) {verdict(s.ready_ratio, READY_TARGET)}",
        *([f"  floor ratio  {s.floor_ratio:.2f} x (the minimal window, then the core's catalog, policy, new plan and "
           f"first evaluation, no app widget: {s.floor.wall_s_median:.3f} s; the app's GUI adds "
           f"{a.wall_s_median - s.floor.wall_s_median:+.3f} s to it)"] if s.floor else []),
        f"  usable ratio {s.usable_ratio:.2f} x (the window with its plan, accepting input; the first evaluation may "
        f"still run in a worker — 'ready' waits for it)",
        f"  memory ratio {s.memory_ratio:.2f} x (target <= {MEMORY_TARGET}) "
        f"{verdict(s.memory_ratio, MEMORY_TARGET)}",
        f"  CPU ratio    {s.cpu_ratio:.2f} x (for a busy machine, where wall time is noisy; "
        f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs)",
    ])


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("-n", "--runs", type=int, default=7, help="runs of each program (default 7)")
    p.add_argument("--timeout", type=float, default=60.0, help="seconds before a run is killed")
    p.add_argument("--json", type=Path, default=None, help="also write the numbers to this file")
    p.add_argument("--enforce", action="store_true", help="exit 1 when a ratio is over its target")
    args = p.parse_args(argv)
    summary = measure(args.runs, args.timeout)
    print(report(summary))
    if args.json:
        args.json.write_text(json.dumps(summary.to_json(), indent=2) + "\n", encoding="utf-8")
    return 1 if args.enforce and summary.over_target else 0


if __name__ == "__main__":
    sys.exit(main())

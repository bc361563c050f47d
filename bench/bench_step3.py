"""Benchmark: step 3, one edit to the painted gauges and findings (the largest example plan, offscreen).

An edit (the memory module count, alternating) goes through the controller: plan_changed refreshes the page,
the evaluation runs on the next event-loop turn, findings_changed recolours the gauges; the time ends when
the page has painted after the evaluation. Reports the median over --n edits.
Run: QT_QPA_PLATFORM=offscreen python bench/bench_step3.py [--n 60]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtWidgets import QApplication  # noqa: E402

from catalog.loader import load_catalog  # noqa: E402
from gui.controller import PlanController  # noqa: E402
from gui.pages.step3_server import ServerPage  # noqa: E402
from procurement.plan import load_plan  # noqa: E402
from procurement.policy import default_policy  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=60)
    n = ap.parse_args().n
    app = QApplication.instance() or QApplication([])
    catalog = load_catalog()
    examples = sorted((REPO / "resources" / "examples").glob("*.gpuplan.yaml"))
    plans = [load_plan(p, catalog) for p in examples]
    plan = max(plans, key=lambda p: (p.gpu.count, p.server.cpu_count))
    ctl = PlanController(catalog, default_policy(), lang="en")
    ctl.new(plan)
    page = ServerPage(ctl)
    page.resize(1200, 900)
    page.show()
    app.processEvents()
    evaluated: list[bool] = []
    ctl.findings_changed.connect(lambda: evaluated.append(True))
    base = plan.server.memory.count if plan.server.memory else 16
    times = []
    for i in range(n + 5):
        evaluated.clear()
        start = time.perf_counter()
        ctl.set_value("server.memory.count", base + 2 - (i % 2) * 2)
        while not evaluated:
            app.processEvents()
        page.repaint()  # the paint that shows the new gauges and markers
        app.processEvents()
        if i >= 5:
            times.append(time.perf_counter() - start)
    print(f"step 3 edit → evaluated and painted: median {statistics.median(times) * 1000:.2f} ms "
          f"(min {min(times) * 1000:.2f}, n={n}) on {plan.title[:40]}")
    page.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())

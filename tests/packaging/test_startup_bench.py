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


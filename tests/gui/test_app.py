"""Start-up: --self-test paints and exits 0; a broken catalog is a clear message, not a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import gui.controller
import procurement.rules
from procurement.plan import Plan
from tests.conftest import REPO


def _launch(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The real entry point in a child process (QApplication.exec() cannot run twice in one test process)."""
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=str(tmp_path / "config"),
               XDG_DATA_HOME=str(tmp_path / "data"), PYTHONPATH=str(REPO))
    return subprocess.run([sys.executable, "-m", "gui.launch", *args], cwd=REPO, env=env, capture_output=True,
                          text=True, timeout=120)


def test_self_test_exits_zero(tmp_path: Path) -> None:
    proc = _launch(tmp_path, "--self-test", "--lang", "zh")
    assert proc.returncode == 0, proc.stderr


def test_broken_catalog_overlay_is_a_message(tmp_path: Path) -> None:
    bad = tmp_path / "company"
    bad.mkdir()
    (bad / "gpus.yaml").write_text("gpus:\n  - id: Not An Id\n", encoding="utf-8")
    proc = _launch(tmp_path, "--self-test", "--lang", "en", "--catalog", str(bad))
    assert proc.returncode == 2
    assert "gpus.yaml:2" in proc.stderr and "catalog" in proc.stderr.lower()
    assert "Traceback" not in proc.stderr


def test_a_burst_of_edits_is_evaluated_once_after_the_event_loop(qtbot, catalog, monkeypatch) -> None:
    calls: list[Plan] = []

    def counting(plan, *_a, **_k):
        calls.append(plan)
        return []

    monkeypatch.setattr(procurement.rules, "evaluate", counting)
    ctl = gui.controller.PlanController(catalog, lang="en")
    calls.clear()
    for size in (2, 3, 4, 5, 6):
        ctl.set_value("requirements.batch_size", size, merge=True)
    assert calls == [], "the edit returns before any rule runs (the GUI stays responsive)"
    with qtbot.waitSignal(ctl.findings_changed, timeout=1000):
        pass
    assert len(calls) == 1 and calls[0].requirements.batch_size == 6
    assert ctl.undo_stack.count() == 1  # one merged undo step for the burst

"""Step 5 with the real probe and fake nvidia-smi executables on PATH: slow, replaying a capture, missing."""

from __future__ import annotations

import os
import shlex
import stat
from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QTimer

from gui import workers
from procurement.plan import Plan
from tests.conftest import NVIDIA_SMI_FIXTURES

H100_XML = NVIDIA_SMI_FIXTURES / "k8s-test-infra_8x-h100-80gb-hbm3_580.105.08_v13.xml"
H100_TOPO = NVIDIA_SMI_FIXTURES / "topo-m_8x-h100-NV18_spaces.txt"


def _exe(directory: Path, body: str) -> Path:
    path = directory / "nvidia-smi"
    path.write_text("#!/bin/sh\n" + body, encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return path


@pytest.fixture
def bin_dir(tmp_path, monkeypatch) -> Path:
    d = tmp_path / "bin"
    d.mkdir()
    monkeypatch.setenv("PATH", f"{d}{os.pathsep}{os.environ.get('PATH', '')}")
    return d


@pytest.fixture
def page(verify_page):
    return verify_page(Plan.model_validate({"gpu": {"model": "h100-sxm5-80gb", "count": 8}}), new=True,
                       wait_ms=30_000)


def test_a_hanging_nvidia_smi_leaves_the_window_responsive_and_cancel_kills_it(page, qtbot, bin_dir, tmp_path):
    started = tmp_path / "started"
    # a driver that hangs: nvidia-smi never answers (the probe's own timeout is 30 s)
    _exe(bin_dir, f"touch {shlex.quote(str(started))}\nexec sleep 60\n")
    ticks: list[int] = []
    timer = QTimer()
    timer.setInterval(10)
    timer.timeout.connect(lambda: ticks.append(1))
    timer.start()
    qtbot.mouseClick(page.run_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(started.exists, timeout=10_000)
    seen = len(ticks)
    qtbot.waitUntil(lambda: len(ticks) >= seen + 10, timeout=5_000)  # the event loop runs during the probe
    assert page.cancel_button.isEnabled() and not page.run_button.isEnabled()
    assert not page.progress.isHidden()
    with qtbot.waitSignal(page.work_done, timeout=10_000):
        qtbot.mouseClick(page.cancel_button, Qt.MouseButton.LeftButton)
    timer.stop()
    assert "cancelled" in page.status_label.text().lower()
    assert page.controller.plan.verification == []
    assert page.run_button.isEnabled()


def test_a_replayed_8_gpu_capture_is_attached_and_tabled(page, qtbot, bin_dir):
    _exe(bin_dir, f'if [ "$1" = "topo" ]; then cat {shlex.quote(str(H100_TOPO))}; exit 0; fi\n'
                  f"cat {shlex.quote(str(H100_XML))}\n")
    with qtbot.waitSignal(page.work_done, timeout=60_000):
        page.run_here()
    ctl = page.controller
    assert len(ctl.plan.verification) == 1
    report = ctl.plan.verification_data()[0]
    assert report["error"] is None
    assert len(report["gpus"]) == 8 and report["driver_version"] == "580.105.08"
    assert page.gpus_table.rowCount() == 8
    assert {page.gpus_table.item(r, 3).text() for r in range(8)} == {"NVIDIA H100 80GB HBM3"}
    per_node = [r for r in range(page.checks_table.rowCount()) if page.checks_table.item(r, 0).text() != "(all nodes)"]
    assert len(per_node) == len(report["checks"]) > 0
    ctl.undo_stack.undo()  # attaching was one undoable change
    assert ctl.plan.verification == []


def test_no_nvidia_smi_is_a_reported_fault_not_a_crash(page, qtbot, bin_dir, monkeypatch):
    monkeypatch.setenv("PATH", str(bin_dir))  # an empty bin directory: no nvidia-smi, no driver
    asked: list[str] = []  # a machine without GPUs is not the target: attached only when the user says so
    monkeypatch.setattr(workers, "ask_yes_no", lambda _p, _t, text: asked.append(text) or True)
    with qtbot.waitSignal(page.work_done, timeout=60_000):
        page.run_here()
    assert len(asked) == 1 and "no NVIDIA GPU" in asked[0]
    report = page.controller.plan.verification_data()[0]
    assert report["error"] and "nvidia-smi" in report["error"]
    assert "Could not verify" in page.status_label.text()
    row_problem = page.nodes_table.item(0, 7).text()
    assert row_problem == report["error"]
    assert page.nodes_table.item(0, 1).data(Qt.ItemDataRole.UserRole) == "fail"

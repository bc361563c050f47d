"""What a buyer sees on a blank or unfinished plan, at sign-off, on the quote and in each step (GUI review)."""

from __future__ import annotations

from pathlib import Path

from procurement.plan import load_plan
from tests.conftest import REPO

EXAMPLE = REPO / "resources" / "examples" / "llm-cluster-node.gpuplan.yaml"


def _example(win, path: Path = EXAMPLE) -> None:
    win.controller.new(load_plan(path, win.controller.catalog))
    win.controller.reevaluate()


def test_blank_plan_shows_grey_not_started_steps_and_what_is_left(qtbot, make_window) -> None:
    win = make_window()
    win.controller.reevaluate()
    # a blank plan has no GPU, server, software or report: steps 2-5 are grey, never a green tick
    assert [win.step_status(i) for i in range(5)] == ["ok", "incomplete", "incomplete", "incomplete",
                                                      "incomplete"]
    assert "a chassis, a CPU, a power supply" in win.step_list.item(2).toolTip()
    summary = win.findings_panel.summary.text()
    assert "No problems found in this plan" not in summary
    assert "Step 2: GPU selection: a GPU model and count" in summary
    assert "Step 4: Image selection: an operating system, a driver branch, a CUDA release" in summary


def test_complete_steps_lose_the_grey_mark(qtbot, make_window) -> None:
    win = make_window()
    _example(win)
    plan = win.controller.plan
    assert plan.gpu.model and plan.server.chassis and plan.software.os  # the example fills steps 2-4
    statuses = [win.step_status(i) for i in range(5)]
    assert "incomplete" not in statuses[:4]
    assert statuses[4] == "incomplete"  # but no verification report is attached yet
    assert "a verification report" in win.findings_panel.summary.text()

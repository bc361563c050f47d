"""Step 5 (验证测试): import node reports into the plan; run the probe in a worker without freezing; cancel."""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest
from PySide6.QtCore import Qt, QTimer

from gui import workers
from gui.controller import PlanController
from gui.pages.step5_verify import VerifyPage


def _report(host: str, widths: list[int], created: str = "2026-11-30T10:00:00+00:00") -> dict[str, Any]:
    """A report as `gpu-procure verify --json` writes it (docs/verify.md), with one GPU at x8 failing."""
    gpus = [{"index": i, "name": "NVIDIA H100 80GB HBM3", "catalog_id": "h100-sxm5-80gb", "uuid": f"GPU-{host}-{i}",
             "serial": None, "memory_total_mib": 81559, "pcie_gen_current": 5, "pcie_gen_max": 5,
             "pcie_width_current": w, "pcie_width_max": 16, "power_limit_w": 700.0, "persistence_mode": True,
             "ecc_enabled": True, "temperature_c": 31, "mig_mode": False} for i, w in enumerate(widths)]
    narrow = [i for i, w in enumerate(widths) if w < 16]
    checks = [{"id": "GPU-COUNT", "status": "pass", "expected": str(len(widths)), "actual": str(len(widths)),
               "message": ""},
              {"id": "GPU-PCIE-WIDTH", "status": "fail" if narrow else "pass", "expected": "x16",
               "actual": ", ".join(f"GPU {i}: x{widths[i]}" for i in narrow) or "x16",
               "message": ""}]
    return {"schema_version": 1, "created": created,
            "host": {"hostname": host, "os": "Ubuntu 22.04.4 LTS", "kernel": "5.15.0", "cpu_model": "Xeon",
                     "cpu_sockets": 2, "cpu_cores": 112, "memory_gib": 2015.6},
            "driver_version": "580.105.08", "cuda_version": "13.0", "gpus": gpus, "checks": checks, "error": None}


@pytest.fixture
def page(verify_page):
    return verify_page()


def _column(table, col: int) -> list[str]:
    return [table.item(r, col).text() for r in range(table.rowCount())]


def test_importing_reports_fills_the_tables_and_attaches_them_undoably(page, qtbot, tmp_path, monkeypatch):
    a, b, bad = tmp_path / "node1.json", tmp_path / "node2.json", tmp_path / "broken.json"
    a.write_text(json.dumps(_report("node1", [16, 16, 8, 16])), encoding="utf-8")
    b.write_text(json.dumps(_report("node2", [16, 16])), encoding="utf-8")
    bad.write_text("{not json", encoding="utf-8")
    errors: list[str] = []
    monkeypatch.setattr(workers, "ask_open_paths", lambda *args: [a, b, bad])
    monkeypatch.setattr(workers, "show_error", lambda _p, _t, text: errors.append(text))
    qtbot.mouseClick(page.import_button, Qt.MouseButton.LeftButton)

    ctl = page.controller
    assert [r["host"]["hostname"] for r in ctl.plan.verification_data()] == ["node1", "node2"]
    assert len(errors) == 1 and "broken.json" in errors[0]  # the bad file is named, the good ones kept
    # one row per node, one per GPU (4 + 2), one per check (2 + 2) and the cluster checks
    assert page.nodes_table.rowCount() == 2
    assert page.gpus_table.rowCount() == 6
    node_checks = [page.checks_table.item(r, 1).text() for r in range(page.checks_table.rowCount())
                   if page.checks_table.item(r, 0).text() != "(all nodes)"]
    assert len(node_checks) == 4
    cluster = {page.checks_table.item(r, 1).text(): page.checks_table.item(r, 2).data(Qt.ItemDataRole.UserRole)
               for r in range(page.checks_table.rowCount()) if page.checks_table.item(r, 0).text() == "(all nodes)"}
    assert cluster["NODE-COUNT"] == "warn"  # 2 nodes reported, the plan has 1
    results = dict(zip(_column(page.nodes_table, 0), _column(page.nodes_table, 1), strict=True))
    assert results == {"node1": "✘ fail", "node2": "✔ pass"}
    # node1's GPU 2 runs at x8: that GPU (and only it) carries the fail mark
    rows = [(page.gpus_table.item(r, 0).text(), page.gpus_table.item(r, 1).text(), page.gpus_table.item(r, 2).text())
            for r in range(page.gpus_table.rowCount())]
    assert ("node1", "2", "✘ fail") in rows
    assert [m for n, i, m in rows if m.endswith("fail")] == ["✘ fail"]
    assert ("node1", "2") in [(n, i) for n, i, _ in rows]
    assert "x8/x16" in [page.gpus_table.item(r, 6).text() for r in range(page.gpus_table.rowCount())]
    assert "2 of 1 planned nodes" in page.summary_label.text()

    # importing node2 again replaces it instead of adding a duplicate
    monkeypatch.setattr(workers, "ask_open_paths", lambda *args: [b])
    qtbot.mouseClick(page.import_button, Qt.MouseButton.LeftButton)
    assert len(ctl.plan.verification) == 2
    ctl.undo_stack.undo()
    ctl.undo_stack.undo()
    assert ctl.plan.verification == []
    assert page.nodes_table.rowCount() == 0


def test_a_slow_probe_keeps_the_window_responsive_and_cancel_stops_it(qtbot, catalog, policy):
    started = threading.Event()
    stopped = threading.Event()

    def slow_probe(plan, catalog, lang, progress, cancelled, after_setup) -> dict[str, Any]:
        started.set()
        step = 0
        while not cancelled():  # a probe that would take forever unless cancelled
            step += 1
            progress(min(step, 99), f"step {step}")
            threading.Event().wait(0.01)
        stopped.set()
        return _report("here", [16])

    ctl = PlanController(catalog, policy, lang="en")
    page = VerifyPage(ctl, runner=slow_probe)
    qtbot.addWidget(page)
    ticks: list[int] = []
    timer = QTimer()
    timer.setInterval(10)
    timer.timeout.connect(lambda: ticks.append(1))
    timer.start()
    qtbot.mouseClick(page.run_button, Qt.MouseButton.LeftButton)
    assert started.wait(5)
    assert not page.run_button.isEnabled() and page.cancel_button.isEnabled()
    # the event loop keeps running while the probe works: the timer ticks and progress arrives
    qtbot.waitUntil(lambda: len(ticks) >= 5 and page.progress.value() > 0, timeout=5000)
    with qtbot.waitSignal(page.work_done, timeout=5000):
        qtbot.mouseClick(page.cancel_button, Qt.MouseButton.LeftButton)
    timer.stop()
    assert stopped.is_set()
    assert ctl.plan.verification == []  # a cancelled run attaches nothing
    assert "cancelled" in page.status_label.text()
    assert page.run_button.isEnabled() and not page.cancel_button.isEnabled()


def test_a_probe_that_raises_is_reported_not_a_crash(qtbot, catalog, policy):
    def broken(*_args: Any) -> dict[str, Any]:
        raise OSError("nvidia-smi: no such file")

    ctl = PlanController(catalog, policy, lang="en")
    page = VerifyPage(ctl, runner=broken)
    qtbot.addWidget(page)
    with qtbot.waitSignal(page.work_done, timeout=5000):
        page.run_here()
    assert "nvidia-smi: no such file" in page.status_label.text()
    assert ctl.plan.verification == []


def test_step5_mark_follows_the_attached_reports(make_window, qtbot, tmp_path, monkeypatch):
    """A failing check in an imported report turns step 5's mark to error; removing it (undo) clears it."""
    from gui.main_window import STATUS_ROLE

    win = make_window()
    item = win.step_list.item(4)
    assert item.data(STATUS_ROLE) == "incomplete"  # no report attached yet
    path = tmp_path / "node1.json"
    path.write_text(json.dumps(_report("node1", [16, 8])), encoding="utf-8")  # GPU 1 at x8 → one failed check
    monkeypatch.setattr(workers, "ask_open_paths", lambda *args: [path])
    win.show_page(4)
    page = win.page("VerifyPage")
    qtbot.mouseClick(page.import_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: item.data(STATUS_ROLE) == "error")
    assert "1 failed check(s) in the attached verification reports" in item.toolTip()
    win.controller.undo_stack.undo()
    qtbot.waitUntil(lambda: item.data(STATUS_ROLE) == "incomplete")


def test_an_unknown_check_shows_as_unknown_in_the_readers_language(qtbot, catalog, policy, tmp_path, monkeypatch):
    """A report judged in English, read in the Chinese UI: the unknown check is '? 未知', never a tick, and
    its message is rendered from its code in Chinese."""
    report = _report("node1", [16, 16])
    report["schema_version"] = 2
    report["checks"].append({"id": "XID", "status": "unknown", "expected": "none", "actual": None,
                             "message": "The kernel log could not be read (dmesg: Operation not permitted): …",
                             "code": "verify.xid.unknown", "params": {"why": "dmesg: Operation not permitted"}})
    path = tmp_path / "node1.json"
    path.write_text(json.dumps(report), encoding="utf-8")
    ctl = PlanController(catalog, policy, lang="zh")
    page = VerifyPage(ctl)
    qtbot.addWidget(page)
    monkeypatch.setattr(workers, "ask_open_paths", lambda *args: [path])
    qtbot.mouseClick(page.import_button, Qt.MouseButton.LeftButton)
    rows = {page.checks_table.item(r, 1).text(): r for r in range(page.checks_table.rowCount())
            if page.checks_table.item(r, 0).text() == "node1"}
    xid = rows["XID"]
    assert page.checks_table.item(xid, 2).data(Qt.ItemDataRole.UserRole) == "unknown"
    assert page.checks_table.item(xid, 2).text().startswith("?")
    assert "无法读取内核日志" in page.checks_table.item(xid, 5).text()
    results = dict(zip(_column(page.nodes_table, 0), _column(page.nodes_table, 1), strict=True))
    assert not results["node1"].startswith("✔")  # a node with an unknown check is not shown as passed


def _laptop_report() -> dict[str, Any]:
    """What "Run on this machine" measures on a planning laptop: no GPU, failing host checks."""
    report = _report("planning-laptop", [])
    report["checks"] = [{"id": "GPU-COUNT", "status": "fail", "expected": "8", "actual": "0", "message": ""},
                        {"id": "RAM", "status": "fail", "expected": "2048 GiB", "actual": "15.5 GiB", "message": ""}]
    report["error"] = "nvidia-smi was not found"
    return report


def test_running_on_a_planning_pc_asks_before_attaching_and_the_report_can_be_removed(qtbot, catalog, policy,
                                                                                        monkeypatch):
    """A report of a machine with no GPU is not the target: nothing is attached unless the user says so;
    an attached report is removed by selecting its row and pressing "Remove selected report"."""
    ctl = PlanController(catalog, policy, lang="en")
    ctl.set_value("gpu.model", "h100-sxm5-80gb")
    ctl.set_value("gpu.count", 8)
    page = VerifyPage(ctl, runner=lambda *_args: _laptop_report())
    qtbot.addWidget(page)
    assert "this machine (" in page.run_button.text()  # the button says which machine it measures
    questions: list[str] = []
    answer = {"value": False}

    def ask(_parent, _title, text):
        questions.append(text)
        return answer["value"]

    monkeypatch.setattr(workers, "ask_yes_no", ask)
    with qtbot.waitSignal(page.work_done, timeout=5000):
        qtbot.mouseClick(page.run_button, Qt.MouseButton.LeftButton)
    assert len(questions) == 1
    assert "planning-laptop" in questions[0] and "no NVIDIA GPU" in questions[0]
    assert ctl.plan.verification == []  # declined: the plan stays clean
    assert page.nodes_table.rowCount() == 0
    assert "Not attached" in page.status_label.text()

    answer["value"] = True  # the user insists: it is attached, and can be taken off again
    with qtbot.waitSignal(page.work_done, timeout=5000):
        qtbot.mouseClick(page.run_button, Qt.MouseButton.LeftButton)
    assert [r["host"]["hostname"] for r in ctl.plan.verification_data()] == ["planning-laptop"]
    assert not page.remove_button.isEnabled()  # nothing selected yet
    page.show()
    rect = page.nodes_table.visualItemRect(page.nodes_table.item(0, 0))
    qtbot.mouseClick(page.nodes_table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert page.remove_button.isEnabled()
    qtbot.mouseClick(page.remove_button, Qt.MouseButton.LeftButton)
    assert ctl.plan.verification == []
    assert page.nodes_table.rowCount() == 0
    ctl.undo_stack.undo()
    assert len(ctl.plan.verification) == 1


def test_a_report_of_the_planned_gpu_model_is_attached_without_a_question(qtbot, catalog, policy, monkeypatch):
    ctl = PlanController(catalog, policy, lang="en")
    ctl.set_value("gpu.model", "h100-sxm5-80gb")
    page = VerifyPage(ctl, runner=lambda *_args: _report("gpu-node-01", [16, 8]))
    qtbot.addWidget(page)
    monkeypatch.setattr(workers, "ask_yes_no", lambda *args: pytest.fail(f"unexpected question {args[1:]}"))
    with qtbot.waitSignal(page.work_done, timeout=5000):
        qtbot.mouseClick(page.run_button, Qt.MouseButton.LeftButton)
    assert [r["host"]["hostname"] for r in ctl.plan.verification_data()] == ["gpu-node-01"]  # a failing target is kept


def test_a_report_with_other_gpus_names_them_in_the_question(qtbot, catalog, policy, monkeypatch):
    report = _report("workstation", [16])
    report["gpus"][0].update(name="NVIDIA GeForce RTX 4090", catalog_id="rtx-4090")
    ctl = PlanController(catalog, policy, lang="en")
    ctl.set_value("gpu.model", "h100-sxm5-80gb")
    page = VerifyPage(ctl, runner=lambda *_args: report)
    qtbot.addWidget(page)
    questions: list[str] = []
    monkeypatch.setattr(workers, "ask_yes_no", lambda _p, _t, text: questions.append(text) or False)
    with qtbot.waitSignal(page.work_done, timeout=5000):
        qtbot.mouseClick(page.run_button, Qt.MouseButton.LeftButton)
    assert ctl.plan.verification == []
    assert "RTX 4090" in questions[0] and "H100" in questions[0]


def test_the_selected_check_is_shown_in_full_with_expected_actual_and_what_to_do(page, qtbot, tmp_path,
                                                                                 monkeypatch):
    """A long message is cut off in the table: its cell's tooltip and the detail pane give it in full."""
    report = _report("node1", [16, 8])
    long_message = ("GPU1 (00000000:86:00.0) runs at x8 (max x16). Check the slot, the riser and the BIOS "
                    "bifurcation setting of that slot, then reseat the card and run the check again; " * 3)
    report["checks"][1]["message"] = long_message
    path = tmp_path / "node1.json"
    path.write_text(json.dumps(report), encoding="utf-8")
    monkeypatch.setattr(workers, "ask_open_paths", lambda *args: [path])
    qtbot.mouseClick(page.import_button, Qt.MouseButton.LeftButton)
    page.resize(900, 600)
    page.show()
    qtbot.waitExposed(page)
    page.tabs.setCurrentWidget(page.checks_table)
    table = page.checks_table
    row = next(r for r in range(table.rowCount()) if table.item(r, 1).text() == "GPU-PCIE-WIDTH")
    message_cell = table.item(row, 5)
    assert message_cell.toolTip() == message_cell.text()
    assert not page.check_detail.toPlainText().count("x16 (max")  # nothing selected yet: a hint only
    rect = table.visualItemRect(table.item(row, 1))
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    shown = page.check_detail.toPlainText()
    assert "GPU-PCIE-WIDTH" in shown and "node1" in shown and "fail" in shown
    assert "Expected: x16" in shown and "Actual: GPU 1: x8" in shown
    assert " ".join(message_cell.text().split()) in " ".join(shown.split())  # whole, not clipped
    assert "run the check again" in shown
    page.check_detail.setFocus()  # the detail is reachable and its text can be selected and copied
    assert page.check_detail.textInteractionFlags() & Qt.TextInteractionFlag.TextSelectableByKeyboard

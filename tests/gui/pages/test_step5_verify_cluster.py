"""Step 5 for a cluster: the exact commands to copy (with this plan's path, the node list and the saved probe),
per-node progress against the plan (which nodes passed, failed, are unknown or have not reported), and the
cluster acceptance report exported as PDF — driven as a person would."""

from __future__ import annotations

import io
import json
import shlex
from pathlib import Path

import pypdf
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication

from gui import workers
from gui.controller import PlanController
from gui.pages.step5_verify import VerifyPage
from procurement.plan import canonical_digest, load_plan
from tests.conftest import EXAMPLES


@pytest.fixture
def page(qtbot, catalog, policy, tmp_path: Path):
    ctl = PlanController(catalog, policy, lang="en")
    ctl.replace_plan(load_plan(EXAMPLES / "llm-cluster-node.gpuplan.yaml", catalog), "open")
    page = VerifyPage(ctl)
    qtbot.addWidget(page)
    page.show()
    yield page
    assert workers.wait_for_jobs(30_000)


def _judged(page: VerifyPage, host: str, status: str = "pass") -> dict:
    checks = [{"id": "GPU-COUNT", "status": "pass", "expected": "8", "actual": "8", "message": ""}]
    if status != "pass":
        checks.append({"id": "PCIE-WIDTH", "status": status, "expected": "x16",
                       "actual": "x8" if status == "fail" else None, "message": f"{host} {status}"})
    return {"schema_version": 2, "created": "2026-11-30T10:00:00+00:00",
            "host": {"hostname": host, "dmi_serial": f"SN-{host}"}, "driver_version": "580.105.08",
            "cuda_version": "13.0",
            "gpus": [{"index": i, "name": "NVIDIA H100 80GB HBM3", "serial": f"{host}-S{i}",
                      "uuid": f"GPU-{host}-{i}"} for i in range(8)],
            "checks": checks, "error": None, "plan_digest": canonical_digest(page.controller.plan)}


def _choose(page: VerifyPage, qtbot, label: str) -> None:
    """Pick a way to run by keyboard, as a person tabbing to the box would."""
    combo = page.method_combo
    combo.setFocus()
    qtbot.waitUntil(combo.hasFocus)
    for _ in range(combo.count()):
        if combo.currentText() == label:
            return
        qtbot.keyClick(combo, Qt.Key.Key_Down)
    assert combo.currentText() == label


def test_the_command_names_this_plan_the_nodes_and_the_saved_probe(page, qtbot, tmp_path: Path,
                                                                    monkeypatch) -> None:
    plan_path = tmp_path / "plans" / "集群 A.gpuplan"
    plan_path.parent.mkdir()
    page.controller.save(plan_path)
    qtbot.keyClicks(page.nodes_edit, "gpu[01-08]")
    _choose(page, qtbot, "ClusterShell (clush)")
    text = page.command_view.toPlainText()
    assert text.splitlines()[:2] == ["export RUN=$(date +%Y%m%d-%H%M%S)",  # this run's files
                                     "clush -S -w 'gpu[01-08]' --copy gpu-procure-probe.pyz --dest /tmp/"]
    assert "First save the probe" in page.command_note.text()
    # save the probe and the plan for the target: the command then copies that very file
    folder = tmp_path / "usb stick"
    folder.mkdir()
    monkeypatch.setattr(workers, "ask_directory", lambda *args: folder)
    qtbot.mouseClick(page.probe_button, Qt.MouseButton.LeftButton)
    assert (folder / "gpu-procure-probe.pyz").is_file()
    copy = load_plan(folder / plan_path.name, page.controller.catalog)
    assert canonical_digest(copy) == canonical_digest(page.controller.plan)
    lines = page.command_view.toPlainText().splitlines()
    assert shlex.split(lines[1])[5] == str(folder / "gpu-procure-probe.pyz")
    judge = shlex.split(lines[-1])
    assert judge[judge.index("--plan") + 1] == str(plan_path)
    assert "First save the probe" not in page.command_note.text() and "Import a folder" in page.command_note.text()
    qtbot.mouseClick(page.copy_button, Qt.MouseButton.LeftButton)
    assert QGuiApplication.clipboard().text() == page.command_view.toPlainText()
    # pdsh: the same steps with pdcp/rpdcp
    _choose(page, qtbot, "pdsh")
    assert page.command_view.toPlainText().splitlines()[1].startswith("pdcp -w 'gpu[01-08]' ")
    assert "PDSH_RCMD_TYPE=ssh" in page.command_view.toPlainText()  # Debian's pdsh defaults to rsh
    # a node list that cannot be read is said, and not put into the command
    page.nodes_edit.clear()
    qtbot.keyClicks(page.nodes_edit, "gpu[01-")
    assert "cannot be read" in page.command_note.text() and "-w NODES" in page.command_view.toPlainText()


def test_progress_names_the_nodes_that_passed_failed_or_have_not_reported(page, qtbot) -> None:
    assert page.controller.plan.requirements.nodes == 8
    page.attach([_judged(page, "gpu01"), _judged(page, "gpu02", "fail"), _judged(page, "gpu03", "unknown")],
                "import")
    summary = page.summary_label.text()
    assert "3 of 8 planned nodes reported, 24 GPUs: ✔ 1 passed" in summary
    assert "✘ 1 failed" in summary and "? 1 unknown" in summary and "Planned nodes without a report yet: 5." in summary
    assert page.node_bar.value() == 3 and page.node_bar.maximum() == 8
    assert page.nodes_table.rowCount() == 3
    # with the node names, the missing ones are named and listed as rows
    qtbot.keyClicks(page.nodes_edit, "gpu[01-08]")
    assert "No report yet from: gpu04, gpu05, gpu06, gpu07, gpu08." in page.summary_label.text()
    rows = {page.nodes_table.item(r, 0).text(): page.nodes_table.item(r, 1).text()
            for r in range(page.nodes_table.rowCount())}
    assert rows["gpu02"].endswith("fail") and rows["gpu03"].endswith("unknown")
    assert rows["gpu08"] == "… no report yet" and len(rows) == 8
    # all eight reported and passed: said so, and only then
    page.attach([_judged(page, f"gpu0{i}") for i in range(2, 9)], "import")
    assert "Every planned node reported and passed." in page.summary_label.text()
    assert page.node_bar.value() == 8


def test_export_the_cluster_acceptance_report(page, qtbot, tmp_path: Path, monkeypatch) -> None:
    target = tmp_path / "cluster"
    monkeypatch.setattr(workers, "ask_export_path", lambda *args: target)
    assert not page.export_button.isEnabled()  # nothing to report yet
    page.attach([_judged(page, "gpu01"), _judged(page, "gpu02", "fail")], "import")
    qtbot.keyClicks(page.nodes_edit, "gpu[01-03]")
    qtbot.mouseClick(page.export_button, Qt.MouseButton.LeftButton)
    pdf = target.with_name("cluster.pdf")
    qtbot.waitUntil(lambda: pdf.is_file() and page.export_button.isEnabled(), timeout=30_000)
    text = "\n".join(p.extract_text() for p in pypdf.PdfReader(io.BytesIO(pdf.read_bytes())).pages)
    flat = text.replace("\n", " ")
    assert "Cluster acceptance report" in text and "SN-gpu01" in text and "gpu02-S7" in text
    assert "Not all passed: 1 node failed; no report from 6 nodes" in flat
    assert "gpu03" in text.split("Nodes that have not reported")[1]
    assert "PCIE-WIDTH" in text.split("Failures and unknowns")[1] and "gpu02 fail" in flat
    assert str(pdf) in page.status_label.text()
    assert "No report yet from: gpu03, and 5 more planned nodes the list does not name." in page.summary_label.text()


def test_importing_a_folder_of_clush_copies(page, qtbot, tmp_path: Path, monkeypatch) -> None:
    """`clush --rcopy` names the copies gpu-procure-raw.json.HOST: a folder of them is imported whole."""
    folder = tmp_path / "reports"
    folder.mkdir()
    for host in ("gpu01", "gpu02"):
        (folder / f"gpu-procure-raw.json.{host}").write_text(json.dumps(_judged(page, host)))
    monkeypatch.setattr(workers, "ask_directory", lambda *args: folder)
    qtbot.mouseClick(page.import_dir_button, Qt.MouseButton.LeftButton)
    assert sorted(r["host"]["hostname"] for r in page.controller.plan.verification_data()) == ["gpu01", "gpu02"]
    assert "2 of 8 planned nodes reported" in page.summary_label.text()


def _import_folder(page: VerifyPage, qtbot, folder: Path, monkeypatch) -> None:
    monkeypatch.setattr(workers, "ask_directory", lambda *args: folder)
    qtbot.mouseClick(page.import_dir_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: workers.wait_for_jobs(0))


def _rows(page: VerifyPage) -> dict[str, tuple[str, str]]:
    t = page.nodes_table
    return {t.item(r, 0).text(): (t.item(r, 1).data(Qt.ItemDataRole.UserRole), t.item(r, 7).text())
            for r in range(t.rowCount())}


def test_reimported_and_repaired_nodes_are_one_report_each(page, qtbot, tmp_path: Path, monkeypatch) -> None:
    """Re-importing a cluster's reports gave 16 reports for 8 nodes; a repaired node's new report sat beside
    its old failed one and kept the cluster red; the problem column was empty for failing nodes."""
    folder = tmp_path / "reports"
    folder.mkdir()
    for i in range(1, 9):
        host = f"gpu0{i}"
        (folder / f"{host}.json").write_text(json.dumps(_judged(page, host, "fail" if host == "gpu03" else "pass")))
    _import_folder(page, qtbot, folder, monkeypatch)
    _import_folder(page, qtbot, folder, monkeypatch)  # the same files again
    assert len(page.controller.plan.verification) == 8
    rows = _rows(page)
    assert len(rows) == 8 and rows["gpu03"] == ("fail", "PCIE-WIDTH")
    # gpu03 repaired: its new report, probed later, replaces the failed one
    repaired = _judged(page, "gpu03") | {"created": "2026-12-01T09:00:00+00:00"}
    fixed = tmp_path / "fixed"
    fixed.mkdir()
    (fixed / "gpu03.json").write_text(json.dumps(repaired))
    _import_folder(page, qtbot, fixed, monkeypatch)
    assert len(page.controller.plan.verification) == 8
    assert _rows(page)["gpu03"][0] == "pass"
    assert "Every planned node reported and passed." in page.summary_label.text()
    # an older copy imported afterwards does not bring the failure back
    _import_folder(page, qtbot, folder, monkeypatch)
    assert _rows(page)["gpu03"][0] == "pass" and len(page.controller.plan.verification) == 8


def test_a_node_whose_every_check_was_skipped_is_unknown(page, qtbot) -> None:
    """Step 5 showed ✔ for a report in which every check was skipped: nothing was verified (exit 3)."""
    skipped = _judged(page, "gpu01")
    skipped["checks"] = [{"id": "GPU-COUNT", "status": "skip", "message": "not applicable"},
                         {"id": "NVLINK", "status": "skip", "message": "not applicable"}]
    page.attach([skipped], "import")
    status, problem = _rows(page)["gpu01"]
    assert status == "unknown" and "nothing was verified" in problem
    page.controller.reevaluate()
    assert page.controller.evaluation.steps[5].worst is not None  # never the step's ok mark

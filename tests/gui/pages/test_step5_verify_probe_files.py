"""Step 5: save the standalone probe for a target machine; import a folder of its raw facts and reports."""

from __future__ import annotations

import json
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from gui import workers
from procurement.plan import load_plan
from procurement.probe import bundle
from tests.conftest import EXAMPLES
from tests.procurement.probe.helpers import fake_server
from tests.procurement.verify.conftest import H100_TOPO, H100_XML


@pytest.fixture
def page(verify_page, catalog):
    return verify_page(load_plan(EXAMPLES / "llm-cluster-node.gpuplan.yaml", catalog))


def test_save_the_probe_writes_a_runnable_probe(page, qtbot, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(workers, "ask_directory", lambda *args: tmp_path)
    qtbot.mouseClick(page.probe_button, Qt.MouseButton.LeftButton)
    pyz = tmp_path / "gpu-procure-probe.pyz"
    assert pyz.is_file()
    assert str(pyz) in page.status_label.text() and "python3 gpu-procure-probe.pyz" in page.status_label.text()
    res = subprocess.run([sys.executable, str(pyz), "--version"], capture_output=True, text=True, timeout=30)
    assert res.returncode == 0 and "gpu-procure-probe" in res.stdout


def test_saving_into_an_unwritable_place_says_so(page, qtbot, tmp_path: Path, monkeypatch) -> None:
    errors: list[str] = []
    (tmp_path / "file").write_text("")
    monkeypatch.setattr(workers, "ask_directory", lambda *args: tmp_path / "file" / "sub")
    monkeypatch.setattr(workers, "show_error", lambda _p, _t, text: errors.append(text))
    qtbot.mouseClick(page.probe_button, Qt.MouseButton.LeftButton)
    assert errors and "sub" in errors[0]


def test_import_a_folder_of_raw_facts_and_reports(page, qtbot, tmp_path: Path, monkeypatch) -> None:
    """Two nodes' raw facts from the probe (judged on import) and one broken file, as a folder."""
    folder = tmp_path / "reports"
    folder.mkdir()
    for host in ("gpu01", "gpu02"):
        bin_dir, root = fake_server(tmp_path / host, H100_XML, H100_TOPO)
        (root / "proc/sys/kernel/hostname").write_text(host + "\n")
        (root / "etc/machine-id").write_text(host.encode().hex().ljust(32, "0") + "\n")
        pyz = bundle.write_pyz(tmp_path)
        subprocess.run([sys.executable, str(pyz), "-q", "--root", str(root), "--python", str(bin_dir / "fakepython"),
                        "-o", str(folder / f"{host}.json")], env={"PATH": f"{bin_dir}:/usr/bin:/bin"}, check=True,
                       timeout=60)
    (folder / "broken.json").write_text("{")
    (folder / "notes.txt").write_text("not a report")
    errors: list[str] = []
    monkeypatch.setattr(workers, "ask_directory", lambda *args: folder)
    monkeypatch.setattr(workers, "show_error", lambda _p, _t, text: errors.append(text))
    qtbot.mouseClick(page.import_dir_button, Qt.MouseButton.LeftButton)
    stored = page.controller.plan.verification_data()
    assert sorted(r["host"]["hostname"] for r in stored) == ["gpu01", "gpu02"]
    assert all(len(r["gpus"]) == 8 for r in stored)
    assert page.nodes_table.rowCount() == 2 and page.gpus_table.rowCount() == 16
    assert len(errors) == 1 and "broken.json" in errors[0]
    assert json.loads((folder / "gpu01.json").read_text())["kind"] == "gpu-procure-raw"


def _judged(page, host: str, fail: bool = False) -> dict:
    from procurement.plan import canonical_digest

    checks = [{"id": "GPU-COUNT", "status": "pass", "expected": "8", "actual": "8", "message": ""}]
    if fail:
        checks.append({"id": "PCIE-WIDTH", "status": "fail", "expected": "x16", "actual": "x8", "message": ""})
    return {"schema_version": 1, "created": "2026-11-30T10:00:00+00:00",
            "host": {"hostname": host}, "driver_version": "580.105.08", "cuda_version": "13.0",
            "gpus": [{"index": i, "name": "NVIDIA H100 80GB HBM3",
                      "uuid": f"GPU-{uuid.uuid5(uuid.NAMESPACE_DNS, f'{host}.{i}')}"} for i in range(8)],
            "checks": checks, "error": None, "plan_digest": canonical_digest(page.controller.plan)}


def test_handover_files_for_the_accepted_nodes(page, qtbot, tmp_path: Path, monkeypatch) -> None:
    folder = tmp_path / "handover"
    page.attach([_judged(page, "gpu01"), _judged(page, "gpu02", fail=True)], "import")
    monkeypatch.setattr(workers, "ask_directory", lambda *args: folder)
    qtbot.mouseClick(page.handover_button, Qt.MouseButton.LeftButton)
    assert (folder / "nodes/gpu01/setup.sh").is_file() and not (folder / "nodes/gpu02").exists()
    assert "gpu01:9400" in (folder / "prometheus/prometheus.yml").read_text()
    text = page.status_label.text()
    assert "Handover for the accepted node written to" in text and "gpu02: failed: PCIE-WIDTH" in text


def test_handover_with_no_accepted_node_says_why(page, qtbot, tmp_path: Path, monkeypatch) -> None:
    errors: list[str] = []
    page.attach([_judged(page, "gpu02", fail=True)], "import")
    monkeypatch.setattr(workers, "ask_directory", lambda *args: pytest.fail("no folder should be asked"))
    monkeypatch.setattr(workers, "show_error", lambda _p, _t, text: errors.append(text))
    qtbot.mouseClick(page.handover_button, Qt.MouseButton.LeftButton)
    assert errors and "gpu02: failed: PCIE-WIDTH" in errors[0]

"""One code path: `verify` on the machine and the probe there + `judge` here give the same report."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from catalog.loader import Catalog
from procurement.exit_status import ExitStatus
from procurement.probe import bundle
from procurement.probe.nodes import read_node
from procurement.verify.probe import ProbeOptions, run_probe
from procurement.verify.report import ReportError, report_to_dict, write_report
from tests.procurement.probe.helpers import fake_server, oldest_python
from tests.procurement.verify.conftest import FIX, H100_TOPO, H100_XML, T4_XML, h100_plan, smi_error

IMAGE = "nvcr.io/nvidia/pytorch:24.05-py3"


def _strip(d: dict[str, Any]) -> dict[str, Any]:
    d = dict(d)
    d.pop("created")
    return d


def probe_there(tmp_path: Path, bin_dir: Path, root: Path, *extra: str) -> Path:
    """Run the built zipapp with the oldest Python here (3.6 when pyenv has it), as on the target."""
    pyz = bundle.write_pyz(tmp_path)
    out = tmp_path / "node.json"
    env = {"PATH": f"{bin_dir}{os.pathsep}/usr/bin:/bin", "LANG": "C"}
    res = subprocess.run(
        [str(oldest_python()), str(pyz), "-q", "--root", str(root), "--timeout", "10",
         "--python", str(bin_dir / "fakepython"), "-o", str(out), *extra],
        capture_output=True, text=True, timeout=120, env=env,
    )
    assert res.returncode == 0, res.stderr
    return out


def local_verify(monkeypatch: pytest.MonkeyPatch, cat: Catalog, bin_dir: Path, root: Path, plan: object,
                 smi: str | None = None) -> dict[str, Any]:
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}/usr/bin:/bin")
    opts = ProbeOptions(root=root, python=str(bin_dir / "fakepython"), timeout=10, nvidia_smi=smi)
    return report_to_dict(run_probe(plan, cat, opts, "en"))  # type: ignore[arg-type]


@pytest.mark.parametrize("with_plan", [True, False])
def test_probe_then_judge_equals_local_verify_8x_h100(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, vcat: Catalog, with_plan: bool
) -> None:
    plan = h100_plan() if with_plan else None
    bin_dir, root = fake_server(tmp_path, H100_XML, H100_TOPO)
    raw_file = probe_there(tmp_path, bin_dir, root, *(["--image", IMAGE] if with_plan else []))
    remote = report_to_dict(read_node(raw_file, plan, vcat, "en"))
    local = local_verify(monkeypatch, vcat, bin_dir, root, plan)
    assert _strip(local) == _strip(remote)
    statuses = {c["id"]: c["status"] for c in remote["checks"]}
    # the facts really went through: GPUs, NVLink from topo -m, host, docker image, frameworks
    assert len(remote["gpus"]) == 8 and remote["host"]["hostname"] == "node01"
    if with_plan:
        assert statuses["GPU-COUNT"] == "pass" and statuses["NVLINK"] == "pass"
        assert statuses["IMAGE"] == "pass" and statuses["NVME"] == "pass"
        assert statuses["FRAMEWORK"] in ("pass", "warn")


def test_probe_then_judge_equals_local_verify_on_a_wrong_machine(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, vcat: Catalog
) -> None:
    """A T4 box delivered for the 8× H100 plan: the same failures either way."""
    bin_dir, root = fake_server(tmp_path, T4_XML)
    remote = report_to_dict(read_node(probe_there(tmp_path, bin_dir, root, "--image", IMAGE), h100_plan(),
                                      vcat, "en"))
    local = local_verify(monkeypatch, vcat, bin_dir, root, h100_plan())
    assert _strip(local) == _strip(remote)
    assert {c["id"] for c in remote["checks"] if c["status"] == "fail"} >= {"GPU-MODEL", "GPU-COUNT"}


@pytest.mark.parametrize(
    ("capture", "code"),
    [("error_nvidia-smi-failed-communicate-driver.txt", 9), ("error_no-devices-were-found.txt", 6)],
)
def test_same_report_when_nvidia_smi_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, vcat: Catalog, capture: str, code: int
) -> None:
    bin_dir, root = fake_server(tmp_path, H100_XML)
    smi_error(bin_dir, FIX / capture, code)
    remote = read_node(probe_there(tmp_path, bin_dir, root, "--image", IMAGE), h100_plan(), vcat, "en")
    local = local_verify(monkeypatch, vcat, bin_dir, root, h100_plan())
    assert _strip(local) == _strip(report_to_dict(remote))
    assert remote.error is not None
    # the table says NVIDIA-SMI FAIL and "1 failed": the exit status says the same (README: a failure is 1)
    assert remote.check("NVIDIA-SMI") is not None and remote.check("NVIDIA-SMI").status == "fail"
    assert remote.exit_code() == ExitStatus.FAILED


def test_judged_reports_are_read_and_merged_reports_refused(tmp_path: Path, vcat: Catalog) -> None:
    bin_dir, root = fake_server(tmp_path, H100_XML, H100_TOPO)
    raw_file = probe_there(tmp_path, bin_dir, root)
    judged = read_node(raw_file, None, vcat, "en")
    write_report(judged, tmp_path / "judged.json")
    assert read_node(tmp_path / "judged.json", None, vcat, "en") == judged
    (tmp_path / "merged.json").write_text(json.dumps({"schema_version": 1, "nodes": [], "checks": []}))
    with pytest.raises(ReportError, match="merged"):
        read_node(tmp_path / "merged.json", None, vcat, "en")
    doc = json.loads(raw_file.read_text())
    doc["raw_schema_version"] = 99
    (tmp_path / "newer.json").write_text(json.dumps(doc))
    with pytest.raises(ReportError, match="99"):
        read_node(tmp_path / "newer.json", None, vcat, "en")

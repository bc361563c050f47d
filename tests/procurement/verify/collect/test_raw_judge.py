"""Collect, then judge: the raw-facts document, its Python 3.6 floor, and one code path for local and remote."""

from __future__ import annotations

import ast
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from catalog.loader import Catalog
from procurement.verify.collect import raw
from procurement.verify.judge import RawError, check_raw, judge
from procurement.verify.probe import ProbeOptions, collect, run_probe
from procurement.verify.report import report_to_dict
from tests.procurement.verify.conftest import H100_TOPO, H100_XML, h100_plan, host_runner, make_host_root, smi_replay

RAW_PY = Path(raw.__file__)


def _comparable(report: dict) -> dict:
    report = dict(report)
    report.pop("created")
    return report


def test_raw_module_runs_on_python_3_6() -> None:
    """vermin reads the syntax and library calls: nothing newer than 3.6 may creep into the collector."""
    vermin = shutil.which("vermin") or str(Path(sys.executable).with_name("vermin"))
    res = subprocess.run(
        [vermin, "--target=3.6-", "--no-tips", "--violations", "--eval-annotations", str(RAW_PY)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert res.returncode == 0, res.stdout + res.stderr


def test_raw_module_imports_only_the_standard_library() -> None:
    imported = set()
    for node in ast.walk(ast.parse(RAW_PY.read_text())):
        if isinstance(node, ast.Import):
            imported |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            imported.add((node.module or "").split(".")[0])
    assert imported <= set(sys.stdlib_module_names), imported - set(sys.stdlib_module_names)


def test_local_verify_equals_judging_the_collected_json(tmp_path: Path, fake_path: Path, vcat: Catalog) -> None:
    """The same facts, judged here or after a trip through JSON on another machine, give the same report."""
    smi_replay(fake_path, H100_XML, H100_TOPO)
    root = make_host_root(tmp_path / "root")
    plan = h100_plan()
    options = ProbeOptions(root=root, runner=host_runner(), timeout=5)
    local = run_probe(plan, vcat, options, "en")
    doc = collect(plan, vcat, options)
    assert doc["kind"] == "gpu-procure-raw" and doc["raw_schema_version"] == 1
    assert "<nvidia_smi_log>" in doc["commands"]["nvidia_smi_q"]["stdout"]
    assert doc["commands"]["nvidia_smi_topo"]["returncode"] == 0
    travelled = json.loads(raw.dumps(doc))
    remote = judge(travelled, plan, vcat, None, "en")
    assert _comparable(report_to_dict(remote)) == _comparable(report_to_dict(local))
    assert local.check("GPU-COUNT").status == "pass"  # type: ignore[union-attr]


def test_standalone_collector_writes_raw_json_the_judge_reads(
    tmp_path: Path, fake_path: Path, vcat: Catalog
) -> None:
    """raw.py copied alone (as the probe ships it) and run by a bare interpreter collects what judge reads."""
    smi_replay(fake_path, H100_XML, H100_TOPO)
    root = make_host_root(tmp_path / "root")
    alone = tmp_path / "alone"
    alone.mkdir()
    shutil.copy(RAW_PY, alone / "collector.py")
    script = (
        f"import sys; sys.path.insert(0, {str(alone)!r}); import collector; "
        f"sys.stdout.write(collector.dumps(collector.collect(root={str(root)!r}, timeout=5)))"
    )
    res = subprocess.run(
        [sys.executable, "-I", "-c", script],
        cwd=alone,
        capture_output=True,
        text=True,
        check=True,
    )
    doc = json.loads(res.stdout)
    assert doc["files"]["/proc/sys/kernel/hostname"] == "node01\n"
    report = judge(doc, h100_plan(), vcat, None, "en")
    assert report.host.hostname == "node01"
    assert len(report.gpus) == 8
    assert report.check("NVIDIA-SMI").status == "pass"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("doc", "why"),
    [
        ([], "not a raw-facts document"),
        ({"kind": "something"}, "kind is 'something'"),
        ({"kind": "gpu-procure-raw", "raw_schema_version": 99, "commands": {}, "files": {}}, "99"),
        ({"kind": "gpu-procure-raw", "raw_schema_version": 1, "commands": [], "files": {}}, "commands"),
        ({"schema_version": 1, "checks": [], "gpus": []}, "judged report"),
    ],
)
def test_unusable_raw_documents_are_refused_with_the_reason(doc: object, why: str) -> None:
    with pytest.raises(RawError, match=why):
        check_raw(doc)


def test_relative_nvidia_smi_path_is_a_path_not_a_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, vcat: Catalog
) -> None:
    """`--nvidia-smi ./nvidia-smi` runs that file; it was looked up on PATH and reported as 'driver not installed'."""
    work = tmp_path / "work"
    smi_replay(work, H100_XML, H100_TOPO)
    monkeypatch.chdir(work)
    monkeypatch.setenv("PATH", "/usr/bin:/bin")  # no nvidia-smi there: only the given path can work
    root = make_host_root(tmp_path / "root")
    for given in ("./nvidia-smi", Path("./nvidia-smi"), "../work/nvidia-smi"):
        report = run_probe(
            None, vcat, ProbeOptions(root=root, runner=host_runner(), timeout=5, nvidia_smi=given), "en"
        )
        assert report.error is None, given
        assert len(report.gpus) == 8

"""`gpu-procure probe-bundle DIR` and `gpu-procure judge RAW...` as a user types them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from procurement.commands.cli import main
from procurement.plan import save_plan
from tests.procurement.probe.helpers import fake_server
from tests.procurement.verify.conftest import H100_TOPO, H100_XML, T4_XML, h100_plan, make_catalog


def _probe(tmp: Path, xml: Path, topo: Path | None, host: str) -> Path:
    """Build the probe with the CLI, run it on a fake node, return its raw file."""
    assert main(["probe-bundle", str(tmp / "dist")]) == 0
    bin_dir, root = fake_server(tmp / host, xml, topo)
    (root / "proc/sys/kernel/hostname").write_text(host + "\n")
    (root / "etc/machine-id").write_text(host * 4 + "\n")
    out = tmp / "reports" / f"{host}.json"
    out.parent.mkdir(exist_ok=True)
    res = subprocess.run([sys.executable, str(tmp / "dist" / "gpu-procure-probe.pyz"), "-q", "--root", str(root),
                          "--python", str(bin_dir / "fakepython"), "-o", str(out)],
                         env={"PATH": f"{bin_dir}:/usr/bin:/bin"}, capture_output=True, text=True, timeout=60)
    assert res.returncode == 0, res.stderr
    return out


@pytest.fixture
def plan_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    import catalog.loader

    monkeypatch.setattr(catalog.loader, "load_catalog", lambda dirs=(): make_catalog())
    path = tmp_path / "h100.gpuplan.yaml"
    save_plan(h100_plan(), path)
    return path


def test_probe_bundle_writes_a_runnable_probe(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["probe-bundle", str(tmp_path / "new" / "dir")]) == 0
    pyz = tmp_path / "new" / "dir" / "gpu-procure-probe.pyz"
    assert pyz.stat().st_mode & 0o111
    assert "sha256" in capsys.readouterr().out
    res = subprocess.run([str(pyz), "--version"], capture_output=True, text=True, timeout=30)
    assert res.returncode == 0 and "gpu-procure-probe" in res.stdout
    (tmp_path / "file").write_text("")
    assert main(["probe-bundle", str(tmp_path / "file")]) == 2


def test_judge_one_raw_file(tmp_path: Path, plan_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    raw = _probe(tmp_path, T4_XML, None, "n1")
    out = tmp_path / "n1.report.json"
    code = main(["judge", str(raw), "--plan", str(plan_file), "--json", str(out), "--lang", "en"])
    assert code == 1  # a T4 where 8× H100 were bought
    report = json.loads(out.read_text())
    assert report["host"]["hostname"] == "n1" and report["gpus"][0]["name"] == "Tesla T4"
    assert {c["id"]: c["status"] for c in report["checks"]}["GPU-MODEL"] == "fail"
    assert "GPU-MODEL" in capsys.readouterr().out


def test_judge_a_directory_of_nodes_merges_them(
    tmp_path: Path, plan_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for host in ("n1", "n2"):
        _probe(tmp_path, H100_XML, H100_TOPO, host)
    (tmp_path / "reports" / "junk.json").write_text("{not json")
    out = tmp_path / "cluster.json"
    code = main(["judge", str(tmp_path / "reports"), "--plan", str(plan_file), "--json", str(out), "--lang", "en"])
    merged = json.loads(out.read_text())
    assert [n["host"]["hostname"] for n in merged["nodes"]] == ["n1", "n2"]
    checks = {c["id"]: c["status"] for c in merged["checks"]}
    # the plan wants one node: two answered; the same GPU serials on both (one capture) are caught
    assert checks["NODE-COUNT"] == "warn" and checks["NODE-GPU-UNIQUE"] == "fail"
    assert code == 1
    assert "junk.json" in capsys.readouterr().err


def test_judge_with_nothing_readable_is_input_unusable(tmp_path: Path, plan_file: Path) -> None:
    (tmp_path / "x.json").write_text("[]")
    assert main(["judge", str(tmp_path / "x.json"), "--plan", str(plan_file)]) == 2

"""Hostile node reports, plans and catalogs through `gpu-procure handover`: the generated setup.sh, systemd
units and alert rules are run (bash --dry-run in a temporary directory, shellcheck, promtool) and nothing
from the inputs ever executes: the marker file a payload would create stays absent."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from catalog.loader import Catalog, load_catalog
from procurement.commands.cli import main
from procurement.handover.generate import SAFE_HOST, NodeFacts, build_handover
from procurement.plan import Plan, load_plan
from procurement.policy import default_policy
from procurement.verify.report import GpuRecord, write_report
from tests.conftest import EXAMPLES, REPO
from tests.deploy.helpers import cluster_plan
from tests.procurement.handover.test_handover import gpu_uuid, node_report
from tests.procurement.verify.conftest import write_exe


def tool(name: str) -> str:
    found = shutil.which(name)
    assert found, f"{name} is not installed: packaging/system-deps.sh installs it (the test must not skip)"
    return found


def payloads(marker: Path) -> list[str]:
    """Ways a text could break out of a here-document, a comment, a quoted word or a unit file."""
    m = str(marker)
    return [f"\nEOF\ntouch {m}\n", f"\ntouch {m}", f"$(touch {m})", f"`touch {m}`", f"'; touch {m}; '",
            f"\"; touch {m}; \"", f"\rtouch {m}", f"\nExecStartPre=/bin/touch {m}", f"x\\\ntouch {m}"]


@pytest.fixture
def plan(catalog: Catalog) -> Plan:
    return load_plan(EXAMPLES / "llm-cluster-node.gpuplan.yaml", catalog)


def dry_run(tmp_path: Path, script: str) -> subprocess.CompletedProcess[str]:
    """bash setup.sh --dry-run with fake nvidia-smi/docker/systemctl that only log, in a temporary cwd."""
    work = tmp_path / "run"
    work.mkdir(exist_ok=True)
    path = work / "setup.sh"
    path.write_text(script)
    assert subprocess.run(["bash", "-n", str(path)], capture_output=True, timeout=30).returncode == 0
    sc = subprocess.run([tool("shellcheck"), "-S", "warning", str(path)], capture_output=True, text=True, timeout=60)
    assert sc.returncode == 0, sc.stdout
    fakes = tmp_path / "fakes"
    for exe in ("nvidia-smi", "docker", "systemctl", "dnf", "apt-get", "dracut", "update-initramfs"):
        write_exe(fakes, exe, f'echo "{exe} $*" >> {tmp_path}/called.log\n')
    return subprocess.run(["bash", str(path), "--dry-run"], capture_output=True, text=True, timeout=30, cwd=work,
                          env={"PATH": f"{fakes}:/usr/bin:/bin", "HOME": str(tmp_path)})


def test_hostile_uuids_and_host_names_get_no_files(tmp_path: Path, plan: Plan, catalog: Catalog) -> None:
    marker = tmp_path / "PWNED"
    nodes = []
    for i, p in enumerate(payloads(marker)):
        rep = node_report(plan, f"gpu{i:02d}", n=2)
        rep.gpus[1] = GpuRecord(index=1, name="NVIDIA H100 80GB HBM3", uuid=gpu_uuid("x", i) + p)
        nodes.append(NodeFacts(rep, f"u{i}"))
        nodes.append(NodeFacts(node_report(plan, "gpu50" + p, n=1), f"h{i}"))
    # `$` of a regex matches before a trailing newline: the grammar is anchored with \A…\Z
    nodes.append(NodeFacts(node_report(plan, "gpu51\n", n=1), "nl"))
    for bad in ("gpu52.", ".gpu52", "gpu52..x", "-gpu52", "gpu52-", "gpu 52", "gpu\u202e52", "a" * 254):
        nodes.append(NodeFacts(node_report(plan, bad, n=1), bad))
    nodes.append(NodeFacts(node_report(plan, "gpu-02.cluster.local", n=1), "ok"))
    h = build_handover(nodes, plan, catalog, default_policy())
    assert h.accepted == ["gpu-02.cluster.local"]
    assert sorted(f for f in h.files if f.startswith("nodes/")) == ["nodes/gpu-02.cluster.local/setup.sh"]
    assert all("GPU UUID" in why or "host name" in why for _, why in h.rejected)
    assert SAFE_HOST.match("gpu51\n") is None
    res = dry_run(tmp_path, h.files["nodes/gpu-02.cluster.local/setup.sh"])
    assert res.returncode == 0, res.stderr
    assert not marker.exists()


def hostile_catalog(tmp_path: Path, source: str) -> Catalog:
    """The shipped catalog with a user overlay whose H100 SXM has ``source`` (multi-line, with a payload)."""
    gpus = yaml.safe_load((REPO / "catalog/data/gpus.yaml").read_text(encoding="utf-8"))["gpus"]
    h100 = next(g for g in gpus if g["id"] == "h100-sxm5-80gb")
    overlay = tmp_path / "user-catalog"
    overlay.mkdir()
    (overlay / "gpus.yaml").write_text(yaml.safe_dump({"gpus": [dict(h100, source=source)]}, allow_unicode=True))
    return load_catalog([overlay])


@pytest.mark.parametrize("which", range(9))
def test_hostile_plan_title_and_catalog_source_stay_comments(tmp_path: Path, which: int) -> None:
    marker = tmp_path / "PWNED"
    payload = payloads(marker)[which]
    catalog = hostile_catalog(tmp_path, "docs/sources.md" + payload)
    plan = load_plan(EXAMPLES / "llm-cluster-node.gpuplan.yaml", catalog)
    plan = plan.model_copy(update={"title": "cluster" + payload})
    h = build_handover([NodeFacts(node_report(plan, "gpu01", n=2), "a")], plan, catalog, default_policy())
    script = h.files["nodes/gpu01/setup.sh"]
    assert "docs/sources.md" in script  # the source is still named, on one comment line
    res = dry_run(tmp_path, script)
    assert res.returncode == 0, res.stderr
    assert not marker.exists()
    assert not (tmp_path / "called.log").exists() or "touch" not in (tmp_path / "called.log").read_text()
    # the power-limit unit holds exactly its own lines: one ExecStart per GPU, nothing before them
    unit = res.stdout.split("+ write /etc/systemd/system/gpu-procure-power-limits.service:\n")[1].split("+ ")[0]
    assert [ln.strip() for ln in unit.splitlines() if ln.strip().startswith("Exec")] == [
        f"ExecStart=/usr/bin/env nvidia-smi -i {gpu_uuid('gpu01', i)} -pl 700" for i in range(2)]


def test_dry_run_only_prints_and_every_distribution_branch_starts_node_exporter(tmp_path: Path, plan: Plan,
                                                                              catalog: Catalog) -> None:
    h = build_handover([NodeFacts(node_report(plan, "gpu01", n=1), "a")], plan, catalog, default_policy())
    script = h.files["nodes/gpu01/setup.sh"]
    shellcheck = subprocess.run([tool("shellcheck"), "-"], input=script, capture_output=True, text=True, timeout=60)
    assert shellcheck.returncode == 0, shellcheck.stdout  # no warning, no note
    base = tmp_path / "base"
    for exe in ("bash", "sed", "id", "dirname", "mkdir", "cat", "chmod", "mv", "printf"):
        if shutil.which(exe):
            os.makedirs(base, exist_ok=True)
            (base / exe).symlink_to(shutil.which(exe))  # type: ignore[arg-type]
    for distro, manager, unit in (("debian", "apt-get", "prometheus-node-exporter.service"),
                                  ("rhel", "dnf", "node_exporter.service")):
        fakes = tmp_path / distro
        write_exe(fakes, manager, f'echo "{manager} $*" >> {fakes}/called.log\n')
        write_exe(fakes, "hostname", "echo gpu01\n")
        write_exe(fakes, "docker", f'echo "docker $*" >> {fakes}/called.log\n')
        # the package's service, under the name each distribution gives it
        write_exe(fakes, "systemctl", f'[ "$1" = cat ] && [ "$2" = {unit} ] && exit 0\n'
                                      f'[ "$1" = cat ] && exit 1\necho "systemctl $*" >> {fakes}/called.log\n')
        res = subprocess.run(["bash", "-c", script, "setup.sh", "--dry-run"], capture_output=True, text=True,
                             timeout=30, env={"PATH": f"{fakes}:{base}"})
        assert res.returncode == 0, res.stderr
        assert f"+ {manager} install -y" in res.stdout
        assert f"+ systemctl enable --now {unit}" in res.stdout
        assert not (fakes / "called.log").exists()  # a dry run runs nothing


def test_readme_shows_rejected_names_escaped(tmp_path: Path, catalog: Catalog) -> None:
    plan_path = cluster_plan(tmp_path, nodes=2)
    plan = load_plan(plan_path, catalog)
    reports = tmp_path / "reports"
    reports.mkdir()
    write_report(node_report(plan, "gpu01"), reports / "gpu01.json")
    write_report(node_report(plan, "evil\x1b]0;owned\x07\u202e\n  + gpu99"), reports / "evil.json")
    out = tmp_path / "handover"
    assert main(["handover", str(plan_path), str(reports), str(out), "--lang", "en"]) == 1
    readme = (out / "README.txt").read_text()
    assert not re.search("[\x00-\x08\x0b-\x1f\x7f\u202a-\u202e]", readme)
    assert "\\x1b]0;owned\\x07\\u202e\\x0a  + gpu99" in readme
    assert "\n  + gpu99" not in readme


def test_unknown_verdicts_are_refused_with_exit_3(tmp_path: Path, catalog: Catalog) -> None:
    from procurement.verify.report import CheckRecord

    plan_path = cluster_plan(tmp_path, nodes=2)
    plan = load_plan(plan_path, catalog)
    reports = tmp_path / "reports"
    reports.mkdir()
    write_report(node_report(plan, "gpu01"), reports / "gpu01.json")
    unknown = node_report(plan, "gpu02")
    unknown.checks.append(CheckRecord(id="NVIDIA-SMI", status="unknown", message="x"))
    write_report(unknown, reports / "gpu02.json")
    out = tmp_path / "handover"
    assert main(["handover", str(plan_path), str(reports), str(out), "--lang", "en"]) == 3
    assert sorted(p.name for p in (out / "nodes").iterdir()) == ["gpu01"]
    assert "gpu02: unknown: NVIDIA-SMI" in (out / "README.txt").read_text()
    (reports / "gpu01.json").unlink()
    assert main(["handover", str(plan_path), str(reports), str(tmp_path / "none"), "--lang", "en"]) == 3
    assert not (tmp_path / "none").exists()


@pytest.mark.parametrize("watts", ["nan", "inf", "-1", "0", "1e300", "700; touch x"])
def test_power_limit_must_be_watts(tmp_path: Path, watts: str) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["handover", "p", "r", str(tmp_path / "o"), "--power-limit", watts])
    assert exc.value.code == 2


def test_hostile_report_files_through_the_command(tmp_path: Path, catalog: Catalog) -> None:
    """Judged reports on disk, as a node (or anyone who can write the reports folder) would leave them."""
    marker = tmp_path / "PWNED"
    plan_path = cluster_plan(tmp_path, nodes=4)
    plan = load_plan(plan_path, catalog)
    reports = tmp_path / "reports"
    reports.mkdir()
    good = node_report(plan, "gpu01")
    write_report(good, reports / "gpu01.json")
    for i, p in enumerate(payloads(marker)):
        bad = node_report(plan, f"gpu{10 + i}")
        bad.gpus[0] = GpuRecord(index=0, name="NVIDIA H100 80GB HBM3", uuid=gpu_uuid("z", i) + p)
        write_report(bad, reports / f"uuid{i}.json")
        write_report(node_report(plan, "gpu03" + p), reports / f"host{i}.json")
    out = tmp_path / "handover"
    assert main(["handover", str(plan_path), str(reports), str(out), "--lang", "en"]) == 1
    scripts = sorted(out.rglob("setup.sh"))
    assert [s.parent.name for s in scripts] == ["gpu01"]
    res = dry_run(tmp_path, scripts[0].read_text())
    assert res.returncode == 0, res.stderr
    assert not marker.exists()
    alerts = (out / "prometheus/gpu-procure-alerts.yml").read_text()
    assert "touch" not in alerts and "touch" not in (out / "prometheus/prometheus.yml").read_text()
    assert subprocess.run([tool("promtool"), "check", "rules", str(out / "prometheus/gpu-procure-alerts.yml")],
                          capture_output=True, timeout=60).returncode == 0

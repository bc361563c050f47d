"""deploy/slurm/verify.sbatch with a fake `srun` that runs the per-node tasks here, one per node name."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from procurement.probe import bundle
from tests.conftest import REPO
from tests.deploy.helpers import cluster_plan
from tests.procurement.probe.helpers import fake_server, oldest_python
from tests.procurement.verify.conftest import H100_TOPO, H100_XML, write_exe

SBATCH = REPO / "deploy" / "slurm" / "verify.sbatch"

# srun [options] command...: one run of the command per node of SLURM_JOB_NODELIST (a plain comma list
# here), with SLURMD_NODENAME and SLURM_PROCID set as slurmd sets them; exit status the worst task's.
FAKE_SRUN = r"""#!/bin/bash
while [ $# -gt 0 ]; do case "$1" in --*=*) shift;; -*) shift;; *) break;; esac; done
echo "srun $*" >> "$SRUN_LOG"
rc=0; i=0
for node in ${SLURM_JOB_NODELIST//,/ }; do
  SLURMD_NODENAME=$node SLURM_PROCID=$i "$@" || rc=$?
  i=$((i+1))
done
exit $rc
"""


@pytest.fixture
def cluster(tmp_path: Path) -> dict[str, str]:
    """Two fake GPU nodes (gpu01, gpu02: their own host trees), a fake srun, the probe and a plan."""
    bin_dir, _ = fake_server(tmp_path / "gpu01", H100_XML, H100_TOPO)
    for node in ("gpu01", "gpu02"):
        root = tmp_path / node / "root"
        if not root.exists():
            fake_server(tmp_path / node, H100_XML, H100_TOPO)
        (root / "proc/sys/kernel/hostname").write_text(node + "\n")
        # two machines: each its own machine-id (merging tells nodes apart by machine identity, not host name)
        (root / "etc/machine-id").write_text(node.encode().hex().ljust(32, "0") + "\n")
    (bin_dir / "srun").write_text(FAKE_SRUN)
    (bin_dir / "srun").chmod(0o755)
    # the nodes' python3: each task reads its own node's tree (what a real node would be)
    py = write_exe(bin_dir, "nodepython", f'exec {shlex.quote(str(oldest_python()))} "$@" '
                   f'--root {shlex.quote(str(tmp_path))}/"$SLURMD_NODENAME"/root '
                   f'--python {shlex.quote(str(bin_dir / "fakepython"))}\n')
    bundle.write_pyz(tmp_path)
    plan = cluster_plan(tmp_path, nodes=2)
    return {
        "PATH": f"{bin_dir}:/usr/bin:/bin",
        "SLURM_JOB_NODELIST": "gpu01,gpu02",
        "SLURM_JOB_NUM_NODES": "2",
        "SLURM_JOB_ID": "4242",
        "SLURM_SUBMIT_DIR": str(tmp_path),
        "SRUN_LOG": str(tmp_path / "srun.log"),
        "PYTHON": str(py),
        "PLAN": str(plan),
        "JUDGE": f"{sys.executable} -m procurement.commands.cli",
        "PYTHONPATH": str(REPO),
        "LANG": "C.UTF-8",
    }


def sbatch(env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", str(SBATCH)], env=env, cwd=cwd, capture_output=True, text=True, timeout=300)


def test_one_task_per_node_then_the_judge(tmp_path: Path, cluster: dict[str, str]) -> None:
    res = sbatch(cluster, tmp_path)
    out = tmp_path / "gpu-procure-4242"
    assert sorted(p.name for p in (out / "raw").iterdir()) == ["gpu01.json", "gpu02.json"], res.stderr
    srun = (tmp_path / "srun.log").read_text()
    assert srun.count("srun") == 1 and "bash -c" in srun
    merged = json.loads((out / "cluster.json").read_text())
    assert [n["host"]["hostname"] for n in merged["nodes"]] == ["gpu01", "gpu02"]
    checks = {c["id"]: c["status"] for c in merged["checks"]}
    assert checks["NODE-COUNT"] == "pass" and checks["NODE-PLAN"] == "pass"
    # both fake nodes replay one capture: the same GPU serials on two nodes fail the cluster, and the job
    assert checks["NODE-GPU-UNIQUE"] == "fail"
    assert res.returncode == 1, res.stdout + res.stderr


def test_a_missing_node_fails_the_node_count(tmp_path: Path, cluster: dict[str, str]) -> None:
    env = dict(cluster, SLURM_JOB_NODELIST="gpu01", SLURM_JOB_NUM_NODES="1")
    res = sbatch(env, tmp_path)
    merged = json.loads((tmp_path / "gpu-procure-4242" / "cluster.json").read_text())
    assert {c["id"]: c["status"] for c in merged["checks"]}["NODE-COUNT"] == "fail"
    assert res.returncode == 1


def test_collect_only_and_a_missing_probe(tmp_path: Path, cluster: dict[str, str]) -> None:
    res = sbatch(dict(cluster, JUDGE=""), tmp_path)
    assert res.returncode == 0 and "judge on the submitting host" in res.stdout
    assert not (tmp_path / "gpu-procure-4242" / "cluster.json").exists()
    res = sbatch(dict(cluster, PROBE=str(tmp_path / "nope.pyz")), tmp_path)
    assert res.returncode == 2 and "no probe at" in res.stderr


def test_the_script_is_valid_bash_and_asks_slurm_for_whole_nodes() -> None:
    text = SBATCH.read_text()
    assert "#SBATCH --exclusive" in text and "#SBATCH --ntasks-per-node=1" in text
    assert subprocess.run(["bash", "-n", str(SBATCH)], capture_output=True, timeout=30).returncode == 0
    assert os.access(SBATCH, os.X_OK)


VERIFY_SH = REPO / "deploy" / "slurm" / "verify.sh"
# sbatch --wait [options] script: runs the script here (with the job's environment the cluster fixture sets)
FAKE_SBATCH = r"""#!/bin/bash
echo "sbatch $*" >> "$SRUN_LOG"
for a; do script=$a; done
exec bash "$script"
"""


def _untune(tmp_path: Path) -> None:
    """gpu01 as delivered: one CPU left in powersave (the plan's governor is performance)."""
    governor = tmp_path / "gpu01/root/sys/devices/system/cpu/cpu1/cpufreq/scaling_governor"
    assert governor.read_text() == "performance\n"
    governor.write_text("powersave\n")


def _governor(cluster_json: Path) -> dict[str, tuple[str, str]]:
    merged = json.loads(cluster_json.read_text())
    return {n["host"]["hostname"]: next((c["status"], c["message"]) for c in n["checks"] if c["id"] == "TUNE-GOVERNOR")
            for n in merged["nodes"]}


@pytest.mark.parametrize("script", ["verify.sbatch", "verify.sh"])
def test_after_setup_reaches_the_judge(tmp_path: Path, cluster: dict[str, str], script: str) -> None:
    """AFTER_SETUP=1 (the handover's setup has run) makes the judge fail an untuned host; unset, as delivered,
    it warns; anything else is refused before a job runs."""
    _untune(tmp_path)
    if script == "verify.sh":
        bin_dir = Path(cluster["PATH"].split(":")[0])
        (bin_dir / "sbatch").write_text(FAKE_SBATCH)
        (bin_dir / "sbatch").chmod(0o755)
        judge_cmd = cluster["JUDGE"]

        def run(env: dict[str, str], name: str) -> tuple[subprocess.CompletedProcess[str], Path]:
            reports = tmp_path / name
            env = dict(env, REPORTS=str(reports), GPU_PROCURE=judge_cmd)
            res = subprocess.run(["bash", str(VERIFY_SH), "-N", "2"], env=env, cwd=tmp_path, capture_output=True,
                                 text=True, timeout=300)
            return res, reports / "cluster.json"
    else:
        def run(env: dict[str, str], name: str) -> tuple[subprocess.CompletedProcess[str], Path]:
            env = dict(env, REPORTS=str(tmp_path / name))
            return sbatch(env, tmp_path), tmp_path / name / "cluster.json"

    res, before = run(cluster, "before")
    assert _governor(before)["gpu01"][0] == "warn", res.stdout + res.stderr
    assert "not tuned yet" in _governor(before)["gpu01"][1]
    assert _governor(before)["gpu02"][0] == "pass"
    res, after = run(dict(cluster, AFTER_SETUP="1"), "after")
    status, message = _governor(after)["gpu01"]
    assert status == "fail" and message.startswith("CPU governor: expected 'performance', found ") \
        and "powersave" in message and "not tuned yet" not in message, res.stdout + res.stderr
    assert res.returncode == 1
    res, _ = run(dict(cluster, AFTER_SETUP="yes please"), "refused")
    assert res.returncode == 2 and "AFTER_SETUP=yes please is not 1 or 0" in res.stderr
    assert not (tmp_path / "refused").exists()

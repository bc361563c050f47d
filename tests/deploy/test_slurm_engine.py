"""deploy/slurm on a real Slurm (Debian's slurm-wlm: slurmctld, two slurmd, munge) started by the test: the
shipped verify.sh submits verify.sbatch with sbatch --wait, the probe runs as a real srun step on each node,
and the judge runs here, on the submitting host. The nodes' GPUs are fake devices in gres.conf; their
nvidia-smi replays an 8x H100 capture, but only when it can open the node's GPU devices (as the real one
needs), and logs the GPUs Slurm gave its step."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from procurement.probe import bundle
from tests.conftest import REPO
from tests.deploy.helpers import cluster_plan
from tests.deploy.slurm_cluster import GPUS, NODES, slurm_cluster
from tests.procurement.probe.helpers import fake_server, oldest_python
from tests.procurement.verify.conftest import H100_TOPO, H100_XML, write_exe

pytestmark = pytest.mark.slow

VERIFY = REPO / "deploy" / "slurm" / "verify.sh"


def _cluster(tmp_path_factory: pytest.TempPathFactory, constrain: bool) -> Iterator[dict[str, object]]:
    d = tmp_path_factory.mktemp("slurm")
    with slurm_cluster(d / "cluster", constrain=constrain) as env:
        yield {"env": env, "dir": d / "cluster", "constrain": constrain}


@pytest.fixture(scope="module")
def plain(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, object]]:
    """A site without device constraints (task/none): every step can open every GPU device."""
    yield from _cluster(tmp_path_factory, False)


@pytest.fixture(scope="module")
def constrained(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, object]]:
    """A site with task/cgroup and ConstrainDevices=yes: a step opens only the GPU devices it was given."""
    yield from _cluster(tmp_path_factory, True)


def world(tmp: Path, cluster: dict[str, object]) -> dict[str, str]:
    """The nodes' host trees, their nvidia-smi and python3, the probe and the plan; the job's environment."""
    dev = Path(cluster["dir"]) / "dev"  # type: ignore[arg-type]
    tools = tmp / "tools"
    for node in NODES:
        _, root = fake_server(tmp / node, H100_XML, H100_TOPO)
        (root / "proc/sys/kernel/hostname").write_text(node + "\n")
        (root / "etc/machine-id").write_text(node.encode().hex().ljust(32, "0") + "\n")
    replay = tmp / NODES[0] / "bin"
    log = tmp / "gpus.log"
    # nvidia-smi opens every GPU device of its node first (NVML does): refused there, it fails as NVML does
    write_exe(tools, "nvidia-smi", f'''for d in {dev}/"$SLURMD_NODENAME"/nvidia*; do
  if ! (: <"$d") 2>/dev/null; then echo "Failed to initialize NVML: Insufficient Permissions" >&2; exit 9; fi
done
echo "$SLURMD_NODENAME step=${{SLURM_STEP_GPUS:-unset}} cuda=${{CUDA_VISIBLE_DEVICES:-unset}}" >> {log}
exec {replay}/nvidia-smi "$@"
''')
    # NCCL's all_reduce_perf: each rank logs itself (it prints no result: the check says so, unknown or fail)
    # gpu02's own run is slow: a cross-node run started before it ended would log before it
    write_exe(tools, "all_reduce_perf",
              f'[ "$SLURM_NTASKS" != {GPUS * len(NODES)} ] && [ "$SLURMD_NODENAME" = gpu02 ] && sleep 2\n'
              f'echo "$SLURMD_NODENAME rank=$SLURM_PROCID of $SLURM_NTASKS" >> {tmp}/nccl.log\n')
    py = write_exe(tools, "nodepython", f'exec {shlex.quote(str(oldest_python()))} "$@" '
                   f'--root {shlex.quote(str(tmp))}/"$SLURMD_NODENAME"/root '
                   f'--python {shlex.quote(str(replay / "fakepython"))}\n')
    write_exe(tools, "gpu-procure", f'PYTHONPATH={shlex.quote(str(REPO))} exec {shlex.quote(sys.executable)} '
                                    f'-m procurement.commands.cli "$@"\n')
    bundle.write_pyz(tmp)
    cluster_plan(tmp, nodes=len(NODES))
    return dict(cluster["env"], PATH=f"{tools}:{replay}:/usr/bin:/bin:/usr/sbin:/sbin",  # type: ignore[arg-type]
                PYTHON=str(py), PLAN=str(tmp / "cluster.gpuplan.yaml"), REPORTS=str(tmp / "run1"),
                HOME=str(tmp), LANG="C.UTF-8")


def test_verify_sh_collects_on_every_node_and_judges_here(tmp_path: Path, constrained: dict[str, object]) -> None:
    """On the stricter site (ConstrainDevices): the probe's step must have been given its GPUs to see them."""
    cluster = constrained
    env = dict(world(tmp_path, cluster), LOAD="quick")
    res = subprocess.run(["bash", str(VERIFY), "-N", "2", "-o", str(tmp_path / "job-%j.out")], cwd=tmp_path,
                         env=env, capture_output=True, text=True, timeout=120)
    job = "".join(p.read_text() for p in tmp_path.glob("job-*.out"))
    raw = tmp_path / "run1" / "raw"
    assert sorted(p.name for p in raw.iterdir()) == ["gpu01.json", "gpu02.json"], res.stdout + res.stderr + job
    # each node's probe step got all 8 GPUs of its node (with --exclusive alone it got none)
    seen = set((tmp_path / "gpus.log").read_text().splitlines())
    everything = ",".join(map(str, range(GPUS)))
    assert seen == {f"{n} step={everything} cuda={everything}" for n in NODES}, seen
    merged = json.loads((tmp_path / "run1" / "cluster.json").read_text())
    assert sorted(n["host"]["hostname"] for n in merged["nodes"]) == list(NODES)
    for node in merged["nodes"]:
        status = {c["id"]: c["status"] for c in node["checks"]}
        assert status["NVIDIA-SMI"] == "pass" and status["GPU-COUNT"] == "pass", status
        assert node["host"]["kernel"]  # the probe's /proc/sys reads work on the nodes too
    checks = {c["id"]: c["status"] for c in merged["checks"]}
    assert checks["NODE-COUNT"] == "pass" and checks["NODE-PLAN"] == "pass"
    # both nodes replay one capture: the same GPU serials on two nodes fail the cluster, and the run
    assert checks["NODE-GPU-UNIQUE"] == "fail"
    assert res.returncode == 1, res.stdout + res.stderr
    assert "judging" in res.stdout
    # the cross-node NCCL run (started by the first node's probe) has one rank per GPU of every node, not
    # one per node (the probe step's SLURM_NTASKS)
    ranks = (tmp_path / "nccl.log").read_text().splitlines()
    across = [r for r in ranks if r.endswith(f"of {GPUS * len(NODES)}")]
    assert len(across) == GPUS * len(NODES), ranks
    assert {r.split()[0] for r in across} == set(NODES)
    # a barrier: both nodes' own NCCL runs ended before the cross-node run began
    own = [i for i, r in enumerate(ranks) if r not in across]
    assert len(own) == len(NODES) and max(own) < ranks.index(across[0]), ranks
    # and its result is in the first node's raw facts, where the judge looks for it
    first = json.loads((raw / "gpu01.json").read_text())
    nodes_run = first["load"]["tools"]["all_reduce_perf_nodes"]
    assert nodes_run["launcher"] == "srun" and nodes_run["nodes"] == 2 and nodes_run["returncode"] == 0
    assert "all_reduce_perf_nodes" not in json.loads((raw / "gpu02.json").read_text())["load"]["tools"]
    # the judge read it: this fake NCCL prints no result table, which the check says (not "not run")
    node1 = next(n for n in merged["nodes"] if n["host"]["hostname"] == "gpu01")
    check = next(c for c in node1["checks"] if c["id"] == "LOAD-NCCL-NODES")
    assert check["status"] == "unknown" and "no result" in check["message"], check
    # a second run into the same REPORTS is refused: no facts of an earlier run judged as this one's
    again = subprocess.run(["bash", str(VERIFY), "-N", "2"], cwd=tmp_path, env=env, capture_output=True, text=True,
                           timeout=60)
    assert again.returncode == 2 and "its own REPORTS" in again.stderr
    # once the handover's setup has run, AFTER_SETUP=1 reaches the judge here: gpu01, left in powersave, fails
    (tmp_path / "gpu01/root/sys/devices/system/cpu/cpu1/cpufreq/scaling_governor").write_text("powersave\n")
    after = subprocess.run(["bash", str(VERIFY), "-N", "2"], cwd=tmp_path, capture_output=True, text=True,
                           env=dict(env, LOAD="", AFTER_SETUP="1", REPORTS=str(tmp_path / "run2")), timeout=120)
    governors = {n["host"]["hostname"]: next(c["status"] for c in n["checks"] if c["id"] == "TUNE-GOVERNOR")
                 for n in json.loads((tmp_path / "run2" / "cluster.json").read_text())["nodes"]}
    assert governors == {"gpu01": "fail", "gpu02": "pass"}, after.stdout + after.stderr


@pytest.mark.parametrize("site", ["plain", "constrained"])
def test_a_step_without_gpus_cannot_open_them_under_constrain_devices(tmp_path: Path, site: str,
                                                                     request: pytest.FixtureRequest) -> None:
    """Why the script asks for GPUs per step: what the old --exclusive-only step saw on each kind of site."""
    cluster = request.getfixturevalue(site)
    env = world(tmp_path, cluster)
    bare = subprocess.run(["srun", "-N", "1", "--exclusive", "nvidia-smi", "-L"], env=env, capture_output=True,
                          text=True, timeout=60, cwd=tmp_path)
    given = subprocess.run(["srun", "-N", "1", "--exclusive", f"--gres=gpu:{GPUS}", "nvidia-smi", "-L"], env=env,
                           capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert given.returncode == 0, given.stderr
    if cluster["constrain"]:
        assert bare.returncode != 0 and "Insufficient Permissions" in bare.stderr
    else:
        assert bare.returncode == 0
        assert "step=unset" in (tmp_path / "gpus.log").read_text()  # no GPUs of its own: unset

"""A single-machine Slurm for the tests: munged, slurmctld and two slurmd (gpu01, gpu02) of Debian's
slurm-wlm, started under a temporary directory and stopped after, each node with 8 fake GPU devices in
gres.conf. With ``constrain`` the nodes run task/cgroup with ConstrainDevices=yes: a step sees only the GPU
devices it was given (the cgroup v1 devices controller, writable here as root)."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.deploy.helpers import free_ports

NODES = ("gpu01", "gpu02")
GPUS = 8
DAEMONS = ("munged", "slurmctld", "slurmd")


def _missing() -> list[str]:
    return [d for d in (*DAEMONS, "srun", "sbatch", "scontrol", "sinfo") if not shutil.which(d)]


def _config(d: Path, constrain: bool) -> dict[str, str]:
    host = socket.gethostname().split(".")[0]
    ctld, slurmd, n1, n2 = free_ports(4)
    task = "task/cgroup" if constrain else "task/none"
    nodes = "\n".join(
        f"NodeName={n} NodeHostname={host} NodeAddr=127.0.0.1 Port={p} CPUs=16 RealMemory=1000 Gres=gpu:{GPUS} "
        "State=UNKNOWN" for n, p in zip(NODES, (n1, n2), strict=True))
    (d / "slurm.conf").write_text(f"""\
ClusterName=gpuprocure
SlurmctldHost={host}(127.0.0.1)
SlurmctldPort={ctld}
SlurmdPort={slurmd}
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket={d}/munge/munge.socket
CredType=cred/munge
StateSaveLocation={d}/state
SlurmdSpoolDir={d}/spool/%n
SlurmctldPidFile={d}/slurmctld.pid
SlurmdPidFile={d}/slurmd-%n.pid
SlurmctldLogFile={d}/log/slurmctld.log
SlurmdLogFile={d}/log/slurmd-%n.log
SlurmdParameters=config_overrides
ProctrackType=proctrack/linuxproc
TaskPlugin={task}
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
GresTypes=gpu
MpiDefault=none
ReturnToService=2
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SlurmctldTimeout=30
SlurmdTimeout=30
KillWait=2
{nodes}
PartitionName=gpu Nodes={",".join(NODES)} Default=YES MaxTime=10 State=UP
""")
    # fake GPUs: character devices that can be opened (the kernel's /dev/full and /dev/random numbers); the
    # cgroup devices controller allows or denies them by these numbers
    (d / "dev").mkdir()
    lines = []
    for node in NODES:
        (d / "dev" / node).mkdir()
        for g in range(GPUS):
            os.mknod(d / "dev" / node / f"nvidia{g}", 0o666 | 0o020000, os.makedev(1, 7 + g % 2))
        lines.append(f"NodeName={node} Name=gpu File={d}/dev/{node}/nvidia[0-{GPUS - 1}]")
    (d / "gres.conf").write_text("\n".join(lines) + "\n")
    (d / "cgroup.conf").write_text("CgroupPlugin=cgroup/v1\nCgroupMountpoint=/sys/fs/cgroup\n"
                                   f"ConstrainDevices={'yes' if constrain else 'no'}\n")
    return {"SLURM_CONF": str(d / "slurm.conf")}


def _pid(path: Path) -> int | None:
    try:
        return int(path.read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def _stop(d: Path) -> None:
    """Stop the daemons this cluster started, by their own pid files (never by name), then remove the
    cgroups its slurmd made (ConstrainDevices)."""
    pids = [p for p in (_pid(f) for f in [*(d / f"slurmd-{n}.pid" for n in NODES), d / "slurmctld.pid",
                                           d / "munge" / "munged.pid"]) if p is not None]
    for pid in pids:
        try:
            os.kill(pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
    deadline = time.monotonic() + 2
    for pid in pids:
        while time.monotonic() < deadline:
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                break
            time.sleep(0.05)
        else:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
    for node in NODES:
        top = Path("/sys/fs/cgroup/devices") / f"slurm_{node}"
        if top.is_dir():
            for sub in sorted((p for p in top.rglob("*") if p.is_dir()), key=lambda p: -len(p.parts)):
                try:
                    sub.rmdir()
                except OSError:
                    pass
            try:
                top.rmdir()
            except OSError:
                pass


@contextmanager
def slurm_cluster(d: Path, constrain: bool = False) -> Iterator[dict[str, str]]:
    """Start the cluster under ``d``; yields the environment for srun/sbatch (SLURM_CONF)."""
    missing = _missing()
    assert not missing, f"{missing} not installed: packaging/system-deps.sh installs them (no skip in CI)"
    for sub in ("munge", "state", "spool", "log"):
        (d / sub).mkdir(parents=True)
    (d / "munge").chmod(0o700)
    (d / "munge" / "munge.key").write_bytes(os.urandom(1024))
    (d / "munge" / "munge.key").chmod(0o400)
    env = dict(os.environ, **_config(d, constrain))
    try:
        m = d / "munge"
        subprocess.run(["munged", "--force", f"--key-file={m}/munge.key", f"--socket={m}/munge.socket",
                        f"--pid-file={m}/munged.pid", f"--log-file={m}/munged.log", f"--seed-file={m}/seed"],
                       check=True, timeout=30, env=env)
        subprocess.run(["slurmctld", "-i"], check=True, timeout=30, env=env)
        for node in NODES:
            subprocess.run(["slurmd", "-N", node], check=True, timeout=30, env=env)
        for _ in range(100):  # both nodes idle: registered with their GPUs
            out = subprocess.run(["sinfo", "-h", "-N", "-o", "%N %t"], capture_output=True, text=True, timeout=30,
                                 env=env).stdout
            if out.split().count("idle") == len(NODES):
                break
            time.sleep(0.2)
        else:
            raise AssertionError("the nodes did not come up:\n" + out + _logs(d))
        yield {"SLURM_CONF": env["SLURM_CONF"]}
    finally:
        _stop(d)


def _logs(d: Path) -> str:
    return "\n".join(f"--- {p.name}\n{p.read_text()[-2000:]}" for p in sorted((d / "log").glob("*.log")))

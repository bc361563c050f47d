"""The pdsh and ClusterShell lines of docs/probe.md and docs/verify.md, run as written against two fake nodes.

The real pdsh/pdcp/rpdcp (Debian's `pdsh` package) and clush (PyPI `ClusterShell`) run; only the network is
faked: `ssh` and `scp` on PATH reach "gpu01"/"gpu02" by running the command here with that node's own /tmp,
its own host tree (host name, machine-id, nvidia-smi replaying the 8x H100 capture) and `hostname`. Each
test is skipped where its tool is not installed.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from procurement.probe import bundle
from tests.conftest import REPO
from tests.deploy.helpers import cluster_plan
from tests.probe.helpers import fake_server, oldest_python
from tests.procurement.verify.conftest import H100_TOPO, H100_XML, write_exe

NODES = ("gpu01", "gpu02")

# ssh [options] HOST COMMAND...: the command runs here, in the node's world (its /tmp, its PATH).
FAKE_SSH = r'''
import os, re, subprocess, sys
WITH_VALUE = set("BbcDEeFIiJLlmOopQRSWw")
args, i = sys.argv[1:], 0
while i < len(args) and args[i].startswith("-"):
    i += 2 if len(args[i]) == 2 and args[i][1] in WITH_VALUE else 1
host, command = args[i].split("@")[-1], " ".join(args[i + 1:])
node = os.path.join(os.environ["FAKE_NODES"], host)
if not os.path.isdir(node):
    sys.exit(f"ssh: Could not resolve hostname {host}")
# the node's own /tmp for the documented files (a test folder that happens to lie under /tmp is left alone)
command = re.sub(r"/tmp/(?=gpu-procure|\s|$|')", node + "/fs/tmp/", command)
env = dict(os.environ, PATH=node + "/bin:" + os.environ["PATH"], FAKE_NODE=host)
with open(os.environ["FAKE_LOG"], "a") as log:
    log.write(f"ssh {host} {command}\n")
sys.exit(subprocess.run(["sh", "-c", command], env=env, cwd=node + "/fs").returncode)
'''

# scp [options] SRC... DEST, where a remote path is HOST:PATH or [HOST]:PATH (as clush writes it).
FAKE_SCP = r'''
import os, re, shutil, sys
args, i = sys.argv[1:], 0
while i < len(args) and args[i].startswith("-"):
    i += 2 if args[i] in ("-l", "-P", "-i", "-o", "-F", "-S") else 1
def local(spec):
    m = re.fullmatch(r"(?:[^@]+@)?\[?([^\]:/]+)\]?:(.*)", spec)
    if not m:
        return spec
    node = os.path.join(os.environ["FAKE_NODES"], m.group(1))
    if not os.path.isdir(node):
        sys.exit(f"ssh: Could not resolve hostname {m.group(1)}")
    return re.sub(r"^/tmp/(?=gpu-procure|$)", node + "/fs/tmp/", m.group(2))
*sources, dest = [local(a) for a in args[i:]]
with open(os.environ["FAKE_LOG"], "a") as log:
    log.write(f"scp {sources} {dest}\n")
for src in sources:
    target = os.path.join(dest, os.path.basename(src)) if os.path.isdir(dest) else dest
    shutil.copy2(src, target)
'''


@pytest.fixture
def world(tmp_path: Path) -> dict[str, object]:
    """Two nodes, fake ssh/scp, the probe and plans in the working directory; the environment to run in."""
    nodes, work, shared = tmp_path / "nodes", tmp_path / "work", tmp_path / "shared"
    tools = tmp_path / "tools"
    for p in (nodes, work, shared, tools):
        p.mkdir()
    for name in NODES:
        node = nodes / name
        server_bin, root = fake_server(node, H100_XML, H100_TOPO)
        (root / "proc/sys/kernel/hostname").write_text(name + "\n")
        (root / "etc/machine-id").write_text(name.encode().hex().ljust(32, "0") + "\n")
        (node / "fs" / "tmp").mkdir(parents=True)
        # the node's own commands: its python3 reads its own host tree, `hostname` says its name, and its
        # nvidia-smi and other programs replay the capture
        write_exe(node / "bin", "python3", f'exec {shlex.quote(str(oldest_python()))} "$@" '
                  f'--root {shlex.quote(str(root))} --python {shlex.quote(str(server_bin / "fakepython"))}\n')
        write_exe(node / "bin", "hostname", 'echo "$FAKE_NODE"\n')
        for exe in server_bin.iterdir():
            if not (node / "bin" / exe.name).exists():
                (node / "bin" / exe.name).symlink_to(exe)
    write_exe(tools, "ssh", f"exec {shlex.quote(sys.executable)} -c {shlex.quote(FAKE_SSH)} \"$@\"\n")
    write_exe(tools, "scp", f"exec {shlex.quote(sys.executable)} -c {shlex.quote(FAKE_SCP)} \"$@\"\n")
    write_exe(tools, "gpu-procure", f'PYTHONPATH={shlex.quote(str(REPO))} exec {shlex.quote(sys.executable)} '
                                    f'-m procurement.cli "$@"\n')
    bundle.write_pyz(work)
    plan = cluster_plan(work, nodes=len(NODES))
    shutil.copy(plan, work / "plan.gpuplan.yaml")
    env = {"PATH": f"{tools}:{os.environ.get('PATH', '/usr/bin:/bin')}", "HOME": str(tmp_path),
           "LANG": "C.UTF-8", "FAKE_NODES": str(nodes), "FAKE_LOG": str(tmp_path / "fake.log"),
           "PDSH_RCMD_TYPE": "ssh", "PYTHONPATH": str(REPO)}
    return {"env": env, "work": work, "shared": shared, "log": tmp_path / "fake.log"}


def doc_block(doc: Path, after: str) -> list[str]:
    """The command lines of the first fenced block after ``after`` in ``doc`` (comments dropped)."""
    text = doc.read_text(encoding="utf-8")
    block = re.search(r"```[a-z]*\n(.*?)```", text[text.index(after):], re.S)
    assert block is not None, f"{doc.name}: no code block after {after!r}"
    return [ln.split("  #")[0].strip() for ln in block.group(1).splitlines()
            if ln.strip() and not ln.lstrip().startswith("#")]


def run_lines(lines: list[str], world: dict[str, object]) -> list[subprocess.CompletedProcess[str]]:
    """Each documented line as a person would paste it, for two nodes, /shared being the test's folder."""
    shared = str(world["shared"])
    out = []
    for line in lines:
        line = re.sub(r"gpu\[01-\d\d\]", "gpu[01-02]", line)
        line = re.sub(r"(?<![\w.-])/shared(?=/|\s|$)", shared, line)
        res = subprocess.run(["bash", "-c", line], cwd=world["work"], env=world["env"],  # type: ignore[arg-type]
                             capture_output=True, text=True, timeout=300)
        out.append(res)
        judging = line.startswith("gpu-procure judge")
        # every line but the judge must succeed; the judge says 1 when a check fails (these fake nodes fail
        # the plan's CPU and memory), never 2 (unusable input)
        assert res.returncode in ((0, 1) if judging else (0,)), f"{line}\n{res.stdout}\n{res.stderr}"
    return out


def judged(world: dict[str, object], cluster_json: str = "cluster.json") -> dict[str, object]:
    """The merged report the judge wrote: both nodes collected by the probe there and judged here."""
    merged = json.loads((world["work"] / cluster_json).read_text())  # type: ignore[operator]
    nodes = merged["nodes"]
    assert sorted(n["host"]["hostname"] for n in nodes) == list(NODES)
    assert all(len(n["gpus"]) == 8 and n["driver_version"] == "580.105.08" for n in nodes)
    checks = {c["id"]: c["status"] for c in merged["checks"]}
    assert checks["NODE-COUNT"] == "pass" and checks["NODE-UNIQUE"] == "pass" and checks["NODE-PLAN"] == "pass"
    return merged


needs_pdsh = pytest.mark.skipif(not all(shutil.which(t) for t in ("pdsh", "pdcp", "rpdcp")),
                                reason="pdsh is not installed (Debian: apt-get install pdsh)")
needs_clush = pytest.mark.skipif(shutil.which("clush") is None and not (Path(sys.executable).parent / "clush").exists(),
                                 reason="clush is not installed (pip install ClusterShell)")


@pytest.fixture
def clush_on_path(world: dict[str, object]) -> None:
    env = world["env"]
    env["PATH"] = f"{Path(sys.executable).parent}:{env['PATH']}"  # type: ignore[index]


@needs_pdsh
def test_pdsh_lines_of_the_probe_guide(world: dict[str, object]) -> None:
    lines = doc_block(REPO / "docs" / "probe.md", "**pdsh**")
    assert [ln.split()[0] for ln in lines] == ["pdcp", "pdsh", "mkdir", "gpu-procure"]
    run_lines(lines, world)
    names = sorted(p.name for p in (world["work"] / "reports").iterdir())  # type: ignore[operator]
    assert names == ["gpu-procure-raw.json.gpu01", "gpu-procure-raw.json.gpu02"]
    judged(world)
    log = world["log"].read_text()  # type: ignore[attr-defined]
    assert "ssh gpu01" in log and "ssh gpu02" in log


@needs_clush
def test_clush_lines_of_the_probe_guide(world: dict[str, object], clush_on_path: None) -> None:
    lines = doc_block(REPO / "docs" / "probe.md", "**ClusterShell**")
    assert [ln.split()[0] for ln in lines] == ["clush", "clush", "mkdir", "gpu-procure"]
    run_lines(lines, world)
    names = sorted(p.name for p in (world["work"] / "reports").iterdir())  # type: ignore[operator]
    assert names == ["gpu-procure-raw.json.gpu01", "gpu-procure-raw.json.gpu02"]
    merged = judged(world)
    assert all(n["checks"] for n in merged["nodes"])  # type: ignore[union-attr]


@needs_pdsh
def test_the_shared_file_system_one_liner(world: dict[str, object]) -> None:
    text = (REPO / "docs" / "probe.md").read_text(encoding="utf-8")
    line = re.search(r"the probe saved there \(`(gpu-procure probe-bundle /shared)`\), one line is enough:\n"
                     r"`(mkdir [^`]+)`", text)
    assert line is not None
    judge = "gpu-procure judge /shared/reports --plan cluster.gpuplan.yaml --json cluster.json"
    run_lines([line.group(1), line.group(2), judge], world)
    # a node whose probe cannot write fails the line (pdsh -S), instead of passing silently
    bad = line.group(2).split("&& ", 1)[1].replace("/shared/reports/", "/shared/nowhere/")
    res = subprocess.run(["bash", "-c", re.sub(r"(?<![\w.-])/shared(?=/)", str(world["shared"]), bad)],
                         cwd=world["work"], env=world["env"], capture_output=True, text=True,  # type: ignore[arg-type]
                         timeout=300)
    assert res.returncode != 0 and "nowhere" in res.stderr
    assert sorted(p.name for p in (world["shared"] / "reports").iterdir()) == ["gpu01.json", "gpu02.json"]  # type: ignore[operator]
    judged(world)


@needs_pdsh
@needs_clush
def test_the_cluster_block_of_the_verify_guide(world: dict[str, object], clush_on_path: None) -> None:
    """docs/verify.md's block: the shared-file-system pair, then pdcp/pdsh/rpdcp, then the same with clush."""
    lines = doc_block(REPO / "docs" / "verify.md", "**pdsh / clush**")
    shared_part, rest = lines[:3], lines[3:]
    assert shared_part[0] == "gpu-procure probe-bundle /shared"
    assert shared_part[1].startswith("mkdir -p /shared/reports && pdsh -S ")
    run_lines(shared_part, world)
    judged(world)
    (world["work"] / "cluster.json").unlink()  # type: ignore[operator]
    run_lines(rest, world)
    names = sorted(p.name for p in (world["work"] / "reports").iterdir())  # type: ignore[operator]
    assert names == ["gpu-procure-raw.json.gpu01", "gpu-procure-raw.json.gpu02"]
    judged(world)

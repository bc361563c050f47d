"""The pdsh and ClusterShell lines of docs/probe.md and docs/verify.md, run as written against two nodes.

The real pdsh/pdcp/rpdcp (Debian's `pdsh`), clush (PyPI `ClusterShell`) and OpenSSH's ssh/scp run against
two real sshd started by the test on 127.0.0.1 (one per node, stopped after). Only the nodes' worlds are
made up: each sshd runs its sessions with the node's own /tmp, host tree (host name, machine-id) and
programs (nvidia-smi replaying the 8x H100 capture, `hostname`). The client's ssh/scp on PATH add only
`-F` (the test's ssh config: node name -> port, key) and, for scp, `-O` (the scp protocol, whose remote
command the node's session sees).
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from procurement.probe import bundle
from tests.conftest import REPO
from tests.deploy.helpers import cluster_plan, free_ports
from tests.procurement.probe.helpers import fake_server, oldest_python
from tests.procurement.verify.conftest import H100_TOPO, H100_XML, write_exe

NODES = ("gpu01", "gpu02")

# The node's session (sshd's ForceCommand): the command with the documented /tmp files in the node's own
# /tmp, run by sh with the node's programs first on PATH, in the node's file system.
NODE_SHELL = r'''
import os, re, subprocess, sys
host = os.environ["FAKE_NODE"]
node = os.path.join(os.environ.get("FAKE_NODES") or {nodes!r}, host)
command = os.environ.get("SSH_ORIGINAL_COMMAND", "")
command = re.sub(r"/tmp/(?=gpu-procure|\s|$|')", node + "/fs/tmp/", command)
with open({log!r}, "a") as log:
    log.write("sshd " + host + " " + command + "\n")
env = dict(os.environ, PATH=node + "/bin:/usr/bin:/bin")
sys.exit(subprocess.run(["sh", "-c", command], env=env, cwd=node + "/fs").returncode)
'''


def tool(name: str) -> str:
    found = shutil.which(name) or shutil.which(name, path="/usr/sbin:/sbin")
    if found is None and name == "clush" and (Path(sys.executable).parent / "clush").exists():
        found = str(Path(sys.executable).parent / "clush")
    assert found, f"{name} is not installed: packaging/system-deps.sh or the test extra installs it (no skip)"
    return found


@pytest.fixture(scope="module")
def sshd(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, object]]:
    """Two sshd on 127.0.0.1, one per node; the client's ssh config and key."""
    for t in ("sshd", "ssh", "scp", "ssh-keygen", "pdsh", "pdcp", "rpdcp", "clush"):
        tool(t)
    d = tmp_path_factory.mktemp("sshd")
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(d / "host_key")], check=True, timeout=30)
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(d / "id")], check=True, timeout=30)
    (d / "authorized_keys").write_text((d / "id.pub").read_text())
    (d / "nodes").mkdir()
    log = d / "sessions.log"
    shell = d / "node-shell"
    shell.write_text(f"#!{sys.executable}\n" + NODE_SHELL.format(nodes=str(d / "nodes"), log=str(log)))
    shell.chmod(0o755)
    Path("/run/sshd").mkdir(exist_ok=True)  # sshd's privilege separation directory (Debian's path)
    ports = dict(zip(NODES, free_ports(len(NODES)), strict=True))
    pids = []
    client = ["Host *", f"  IdentityFile {d / 'id'}", "  IdentitiesOnly yes", "  User root", "  BatchMode yes",
              "  StrictHostKeyChecking no", "  UserKnownHostsFile /dev/null", "  LogLevel ERROR"]
    try:
        for node, port in ports.items():
            conf = d / f"sshd-{node}.conf"
            conf.write_text("\n".join([
                f"Port {port}", "ListenAddress 127.0.0.1", f"HostKey {d / 'host_key'}",
                f"PidFile {d / f'sshd-{node}.pid'}", f"AuthorizedKeysFile {d / 'authorized_keys'}",
                "PermitRootLogin prohibit-password", "PasswordAuthentication no", "KbdInteractiveAuthentication no",
                "UsePAM no", "StrictModes no", "PrintMotd no", f"SetEnv FAKE_NODE={node}",
                f"ForceCommand {shell}"]) + "\n")
            subprocess.run([tool("sshd"), "-f", str(conf), "-E", str(d / f"sshd-{node}.log")], check=True, timeout=30)
            for _ in range(100):
                if (d / f"sshd-{node}.pid").exists():
                    break
                time.sleep(0.05)
            pids.append(int((d / f"sshd-{node}.pid").read_text()))
            client[0:0] = [f"Host {node}", "  HostName 127.0.0.1", f"  Port {port}"]
        (d / "ssh_config").write_text("\n".join(client) + "\n")
        yield {"dir": d, "log": log, "config": d / "ssh_config"}
    finally:
        for pid in pids:  # only the sshd this fixture started, by their pid files
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                pass


@pytest.fixture
def world(tmp_path: Path, sshd: dict[str, object]) -> dict[str, object]:
    """Two nodes behind the sshd, the probe and plans in the working directory; the environment to run in."""
    nodes = Path(sshd["dir"]) / "nodes"  # type: ignore[arg-type]
    work, shared, tools = tmp_path / "work", tmp_path / "shared", tmp_path / "tools"
    for p in (work, shared, tools):
        p.mkdir()
    for name in NODES:
        node = nodes / name
        if node.exists():
            shutil.rmtree(node)
        server_bin, root = fake_server(node, H100_XML, H100_TOPO)
        (root / "proc/sys/kernel/hostname").write_text(name + "\n")
        (root / "etc/machine-id").write_text(name.encode().hex().ljust(32, "0") + "\n")
        (node / "fs" / "tmp").mkdir(parents=True)
        write_exe(node / "bin", "python3", f'exec {shlex.quote(str(oldest_python()))} "$@" '
                  f'--root {shlex.quote(str(root))} --python {shlex.quote(str(server_bin / "fakepython"))}\n')
        write_exe(node / "bin", "hostname", f'echo {name}\n')
        for exe in server_bin.iterdir():
            if not (node / "bin" / exe.name).exists():
                (node / "bin" / exe.name).symlink_to(exe)
    config = shlex.quote(str(sshd["config"]))
    write_exe(tools, "ssh", f'exec /usr/bin/ssh -F {config} "$@"\n')
    write_exe(tools, "scp", f'exec /usr/bin/scp -O -F {config} "$@"\n')
    write_exe(tools, "gpu-procure", f'PYTHONPATH={shlex.quote(str(REPO))} exec {shlex.quote(sys.executable)} '
                                    f'-m procurement.commands.cli "$@"\n')
    bundle.write_pyz(work)
    plan = cluster_plan(work, nodes=len(NODES))
    shutil.copy(plan, work / "plan.gpuplan.yaml")
    env = {"PATH": f"{tools}:{Path(sys.executable).parent}:/usr/bin:/bin", "HOME": str(tmp_path),
           "LANG": "C.UTF-8", "PYTHONPATH": str(REPO)}
    Path(sshd["log"]).write_text("")  # type: ignore[arg-type]
    return {"env": env, "work": work, "shared": shared, "log": sshd["log"]}


def doc_block(doc: Path, after: str) -> list[str]:
    """The command lines of the first fenced block after ``after`` in ``doc`` (comments dropped)."""
    text = doc.read_text(encoding="utf-8")
    block = re.search(r"```[a-z]*\n(.*?)```", text[text.index(after):], re.S)
    assert block is not None, f"{doc.name}: no code block after {after!r}"
    return [ln.split("  #")[0].strip() for ln in block.group(1).splitlines()
            if ln.strip() and not ln.lstrip().startswith("#")]


def run_lines(lines: list[str], world: dict[str, object]) -> subprocess.CompletedProcess[str]:
    """The documented lines pasted into one shell, as a person would, for two nodes, /shared being the test's
    folder; every line but the judge must succeed (the judge says 1: these fake nodes fail the plan's CPU
    and memory; never 2, unusable input)."""
    shared = str(world["shared"])
    script = []
    for i, line in enumerate(lines):
        line = re.sub(r"gpu\[01-\d\d\]", "gpu[01-02]", line)
        line = re.sub(r"(?<![\w.-])/shared(?=/|\s|$)", shared, line)
        ok = "0|1" if line.startswith("gpu-procure judge") else "0"
        script.append(f'{line}\nrc=$?; case $rc in {ok}) ;; *) echo "line {i} exited $rc: "{shlex.quote(line)} >&2; '
                      f"exit 99;; esac")
    res = subprocess.run(["bash", "-c", "\n".join(script)], cwd=world["work"], env=world["env"],  # type: ignore[arg-type]
                         capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
    return res


def judged(world: dict[str, object], cluster_json: str = "cluster.json") -> dict[str, object]:
    """The merged report the judge wrote: both nodes collected by the probe there and judged here."""
    merged = json.loads((world["work"] / cluster_json).read_text())  # type: ignore[operator]
    nodes = merged["nodes"]
    assert sorted(n["host"]["hostname"] for n in nodes) == list(NODES)
    assert all(len(n["gpus"]) == 8 and n["driver_version"] == "580.105.08" for n in nodes)
    checks = {c["id"]: c["status"] for c in merged["checks"]}
    assert checks["NODE-COUNT"] == "pass" and checks["NODE-UNIQUE"] == "pass" and checks["NODE-PLAN"] == "pass"
    return merged


def reports(world: dict[str, object]) -> list[str]:
    (folder,) = [p for p in Path(world["work"]).iterdir() if p.is_dir() and p.name.startswith("reports-")]  # type: ignore[arg-type]
    return sorted(re.sub(r"\d{8}-\d{6}", "RUN", p.name) for p in folder.iterdir())


def test_pdsh_lines_of_the_probe_guide(world: dict[str, object]) -> None:
    lines = doc_block(REPO / "docs" / "probe.md", "**pdsh**")
    assert [ln.split()[0] for ln in lines] == ["export", "pdcp", "pdsh", "mkdir", "gpu-procure"]
    # a file an earlier run left on a node is not brought back: this run's files have their own names
    for name in NODES:
        (Path(world["log"]).parent / "nodes" / name / "fs/tmp/gpu-procure-raw.json").write_text("{}")  # type: ignore[arg-type]
    run_lines(lines, world)
    assert reports(world) == ["gpu-procure-RUN.json.gpu01", "gpu-procure-RUN.json.gpu02"]
    judged(world)
    log = Path(world["log"]).read_text()  # type: ignore[arg-type]
    assert "sshd gpu01" in log and "sshd gpu02" in log


def test_debian_pdsh_defaults_to_rsh(world: dict[str, object]) -> None:
    """Why the lines set PDSH_RCMD_TYPE: this pdsh would try rsh (Connection refused), pdsh -q says so."""
    env = dict(world["env"])  # type: ignore[call-overload]
    default = subprocess.run(["pdsh", "-q", "-w", "gpu01"], env=env, capture_output=True, text=True, timeout=60)
    env["PDSH_RCMD_TYPE"] = "ssh"
    chosen = subprocess.run(["pdsh", "-q", "-w", "gpu01"], env=env, capture_output=True, text=True, timeout=60)
    assert re.search(r"Rcmd type\s+rsh", default.stdout + default.stderr), default.stdout + default.stderr
    assert re.search(r"Rcmd type\s+ssh", chosen.stdout + chosen.stderr)


def test_clush_lines_of_the_probe_guide(world: dict[str, object]) -> None:
    lines = doc_block(REPO / "docs" / "probe.md", "**ClusterShell**")
    assert [ln.split()[0] for ln in lines] == ["export", "clush", "clush", "mkdir", "gpu-procure"]
    assert all(" -S " in ln for ln in lines if ln.startswith(("clush", "mkdir")))
    run_lines(lines, world)
    assert reports(world) == ["gpu-procure-RUN.json.gpu01", "gpu-procure-RUN.json.gpu02"]
    merged = judged(world)
    assert all(n["checks"] for n in merged["nodes"])  # type: ignore[union-attr]
    # clush -S: a node whose probe fails fails the line (without -S clush said 0)
    bad = subprocess.run(["clush", "-S", "-w", "gpu[01-02]", "python3 /tmp/nowhere.pyz"], cwd=world["work"],
                         env=world["env"], capture_output=True, text=True, timeout=60)  # type: ignore[arg-type]
    assert bad.returncode != 0


def test_the_shared_file_system_one_liner(world: dict[str, object]) -> None:
    text = (REPO / "docs" / "probe.md").read_text(encoding="utf-8")
    line = re.search(r"one line is enough:\n`(R=[^`]+)`\n\(then `(gpu-procure judge [^`]+)`\)", text)
    assert line is not None
    one, judge = line.group(1), line.group(2)
    run_lines(["gpu-procure probe-bundle /shared", one, judge + " --json cluster.json"], world)
    (folder,) = [p for p in Path(world["shared"]).iterdir() if p.name.startswith("reports-")]  # type: ignore[arg-type]
    assert sorted(p.name for p in folder.iterdir()) == ["gpu01.json", "gpu02.json"]
    judged(world)
    # a node whose probe cannot write fails the line (pdsh -S), instead of passing silently; the first run's
    # folder goes first (R is named to the second: a run within the same second found it there)
    shutil.rmtree(folder)
    bad = one.replace("-o $R/", "-o $R/nowhere/")
    res = subprocess.run(["bash", "-c", re.sub(r"(?<![\w.-])/shared(?=/)", str(world["shared"]), bad)],
                         cwd=world["work"], env=world["env"], capture_output=True, text=True,  # type: ignore[arg-type]
                         timeout=300)
    assert res.returncode != 0 and "nowhere" in res.stderr


def test_the_cluster_block_of_the_verify_guide(world: dict[str, object]) -> None:
    """docs/verify.md's block: the shared-file-system pair, then pdcp/pdsh/rpdcp, then the same with clush."""
    lines = doc_block(REPO / "docs" / "verify.md", "**pdsh / clush**")
    assert lines[0].startswith("export PDSH_RCMD_TYPE=ssh")
    res = run_lines(lines, world)
    assert "exited" not in res.stderr
    work = Path(world["work"])  # type: ignore[arg-type]
    for suffix in ("", "-c"):
        (folder,) = [p for p in work.iterdir() if re.fullmatch(rf"reports-\d{{8}}-\d{{6}}{suffix}", p.name)]
        assert sorted(re.sub(r"\d{8}-\d{6}", "RUN", p.name) for p in folder.iterdir()) == [
            f"gpu-procure-RUN{suffix}.json.gpu01", f"gpu-procure-RUN{suffix}.json.gpu02"]
    judged(world)


@pytest.mark.parametrize("method", ["pdsh", "clush"])
def test_the_lines_step_5_shows_run_on_the_real_engines(world: dict[str, object], method: str) -> None:
    """Step 5 showed its own pdsh/clush lines (no PDSH_RCMD_TYPE, no clush -S, a fixed remote file that a later
    run brought back as its facts); they are now the guide's lines with this plan, probe and node list."""
    from catalog.loader import load_catalog
    from procurement.plan import load_plan
    from procurement.probe.cluster import target_commands

    work = Path(world["work"])  # type: ignore[arg-type]
    catalog = load_catalog()
    plan_path = work / "plan.gpuplan.yaml"
    text = target_commands(method, load_plan(plan_path, catalog), catalog, plan_path.name,  # type: ignore[arg-type]
                           nodes="gpu[01-02]", probe_dir=".")
    lines = [ln for ln in text.splitlines() if ln and not ln.startswith("#")]
    assert lines[0].startswith("export ") and ("PDSH_RCMD_TYPE=ssh" in lines[0]) == (method == "pdsh")
    for name in NODES:  # an earlier run's file on each node is never this run's facts
        (Path(world["log"]).parent / "nodes" / name / "fs/tmp/gpu-procure-raw.json").write_text("{}")  # type: ignore[arg-type]
    run_lines(lines, world)
    assert reports(world) == ["gpu-procure-RUN.json.gpu01", "gpu-procure-RUN.json.gpu02"]
    judged(world)


@pytest.mark.parametrize("method", ["pdsh", "clush"])
def test_step_5s_after_setup_lines_fail_an_untuned_node(world: dict[str, object], method: str) -> None:
    """Step 5's "Judge as after setup" box puts --after-setup in the judge line: run on the real engines, the
    judge fails the node left in powersave, where the lines without it warn (a host as delivered)."""
    from catalog.loader import load_catalog
    from procurement.plan import load_plan
    from procurement.probe.cluster import target_commands

    work = Path(world["work"])  # type: ignore[arg-type]
    governor = Path(world["log"]).parent / "nodes/gpu01/root/sys/devices/system/cpu/cpu1/cpufreq/scaling_governor"  # type: ignore[arg-type]
    assert governor.read_text() == "performance\n"
    governor.write_text("powersave\n")
    catalog = load_catalog()
    plan_path = work / "plan.gpuplan.yaml"
    seen = {}
    for after_setup in (False, True):
        text = target_commands(method, load_plan(plan_path, catalog), catalog, plan_path.name,  # type: ignore[arg-type]
                               nodes="gpu[01-02]", probe_dir=".", after_setup=after_setup)
        lines = [ln for ln in text.splitlines() if ln and not ln.startswith("#")]
        assert ("--after-setup" in lines[-1]) == after_setup and lines[-1].startswith("gpu-procure judge")
        run_lines(lines, world)
        merged = judged(world)
        seen[after_setup] = {n["host"]["hostname"]: next(c["status"] for c in n["checks"]  # type: ignore[index]
                                                         if c["id"] == "TUNE-GOVERNOR")
                             for n in merged["nodes"]}  # type: ignore[union-attr]
        for folder in work.glob("reports-*"):  # the next run brings back its own facts only
            shutil.rmtree(folder)
        (work / "cluster.json").unlink()
    assert seen == {False: {"gpu01": "warn", "gpu02": "pass"}, True: {"gpu01": "fail", "gpu02": "pass"}}

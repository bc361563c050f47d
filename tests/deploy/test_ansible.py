"""deploy/ansible/verify.yml run for real by ansible-playbook against localhost (ansible_connection=local)."""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from procurement.probe import bundle
from tests.conftest import REPO
from tests.deploy.helpers import cluster_plan
from tests.procurement.probe.helpers import fake_server, oldest_python, version_of
from tests.procurement.verify.conftest import H100_TOPO, H100_XML

PLAYBOOK = REPO / "deploy" / "ansible" / "verify.yml"


def ansible_playbook() -> str:
    found = shutil.which("ansible-playbook") or str(Path(sys.executable).parent / "ansible-playbook")
    if not Path(found).exists():
        pytest.skip("ansible-core is not installed (pip install '.[test]')")
    return found


def run_playbook(tmp_path: Path, extra: dict[str, object], *plain: str) -> subprocess.CompletedProcess[str]:
    env = {
        "PATH": f"{tmp_path / 'bin'}:{Path(sys.executable).parent}:/usr/bin:/bin",  # fake_server's bin first
        "PYTHONPATH": str(REPO),
        "HOME": str(tmp_path),
        "LANG": "C.UTF-8",
        "ANSIBLE_LOCAL_TEMP": str(tmp_path / "ansible-local"),
        "ANSIBLE_REMOTE_TEMP": str(tmp_path / "ansible-remote"),
        "ANSIBLE_NOCOLOR": "1",
        "ANSIBLE_RETRY_FILES_ENABLED": "0",
        "ANSIBLE_LOCALHOST_WARNING": "0",
        "ANSIBLE_INVENTORY_UNPARSED_WARNING": "0",
    }
    args = [ansible_playbook(), "-i", str(tmp_path / "inventory.ini"), str(PLAYBOOK), "-e", json.dumps(extra)]
    for kv in plain:
        args += ["-e", kv]
    return subprocess.run(args, env=env, capture_output=True, text=True, timeout=300, cwd=tmp_path)


@pytest.mark.slow
def test_playbook_collects_with_script_and_judges_on_the_controller(tmp_path: Path) -> None:
    bin_dir, root = fake_server(tmp_path, H100_XML, H100_TOPO)
    (root / "proc/sys/kernel/hostname").write_text("gpu-node-7\n")
    pyz = bundle.write_pyz(tmp_path)
    plan = cluster_plan(tmp_path, nodes=1)
    reports = tmp_path / "reports"
    # an earlier run left the facts of a host that is not in this run: they must not be judged again
    (reports / "gpu-node-9.json").parent.mkdir(parents=True)
    (reports / "gpu-node-9.json").write_text('{"kind": "gpu-procure-raw"}')
    # the oldest Python here plays the host's python3 (3.6 when pyenv has it)
    (tmp_path / "inventory.ini").write_text(
        f"node7 ansible_connection=local ansible_python_interpreter={sys.executable}\n")
    extra: dict[str, object] = {
        "probe_pyz": str(pyz),
        "probe_python": str(oldest_python()),
        "probe_args": f"--root {shlex.quote(str(root))} --python {shlex.quote(str(bin_dir / 'fakepython'))}",
        "reports_dir": str(reports),
        "plan": str(plan),
        "gpu_procure_cmd": f"{sys.executable} -m procurement.commands.cli",
    }
    # the plain -e form of a list (these fake nodes fail the plan's CPU and memory: the judge says 1)
    res = run_playbook(tmp_path, extra, "judge_ok_codes=[0,1]")
    assert res.returncode == 0, res.stdout[-4000:] + res.stderr[-2000:]
    runs = sorted(p for p in reports.iterdir() if p.is_dir())
    assert len(runs) == 1 and runs[0].name.startswith("run-")
    raw = json.loads((runs[-1] / "node7.json").read_text())
    assert raw["kind"] == "gpu-procure-raw" and raw["files"]["/proc/sys/kernel/hostname"] == "gpu-node-7\n"
    assert raw["commands"]["nvidia_smi_q"]["stdout"] == H100_XML.read_text()
    assert tuple(map(int, raw["python"].split(".")[:2])) == version_of(oldest_python())  # the host's python3
    merged = json.loads((runs[-1] / "cluster.json").read_text())
    assert [n["host"]["hostname"] for n in merged["nodes"]] == ["gpu-node-7"]  # not gpu-node-9, nor run 1's
    assert {c["id"]: c["status"] for c in merged["checks"]}["NODE-COUNT"] == "pass"
    assert "NODE-COUNT" in res.stdout  # the table is shown
    # the default accepts only 0: the play fails, and the table is still shown, line by line
    res = run_playbook(tmp_path, extra, "judge_ok_codes=0")
    assert res.returncode != 0
    assert "NODE-COUNT" in res.stdout and "gpu-procure judge exited 1 (accepted: 0)" in res.stdout
    assert len([p for p in reports.iterdir() if p.is_dir()]) == 2  # a directory of its own again


@pytest.mark.slow
def test_after_setup_reaches_the_judge(tmp_path: Path) -> None:
    """-e after_setup=true (the handover's setup has run): the judge fails the host left in powersave; by
    default (as delivered) it warns."""
    bin_dir, root = fake_server(tmp_path, H100_XML, H100_TOPO)
    governor = root / "sys/devices/system/cpu/cpu1/cpufreq/scaling_governor"
    assert governor.read_text() == "performance\n"
    governor.write_text("powersave\n")
    (tmp_path / "inventory.ini").write_text(
        f"node7 ansible_connection=local ansible_python_interpreter={sys.executable}\n")
    reports = tmp_path / "reports"
    extra: dict[str, object] = {
        "probe_pyz": str(bundle.write_pyz(tmp_path)),
        "probe_python": str(oldest_python()),
        "probe_args": f"--root {shlex.quote(str(root))} --python {shlex.quote(str(bin_dir / 'fakepython'))}",
        "reports_dir": str(reports),
        "plan": str(cluster_plan(tmp_path, nodes=1)),
        "gpu_procure_cmd": f"{sys.executable} -m procurement.commands.cli",
    }

    def governor_check(*plain: str) -> str:
        res = run_playbook(tmp_path, extra, "judge_ok_codes=[0,1]", *plain)
        assert res.returncode == 0, res.stdout[-4000:] + res.stderr[-2000:]
        latest = sorted(p for p in reports.iterdir() if p.is_dir())[-1]
        merged = json.loads((latest / "cluster.json").read_text())
        (node,) = merged["nodes"]
        return next(c["status"] for c in node["checks"] if c["id"] == "TUNE-GOVERNOR")

    assert governor_check() == "warn"
    assert governor_check("after_setup=true") == "fail"  # the plain -e form: a string, read as a boolean
    assert governor_check("after_setup=false") == "warn"


def test_the_role_uses_only_tasks_that_need_no_python_on_the_host() -> None:
    import yaml

    tasks = yaml.safe_load((REPO / "deploy/ansible/roles/gpu_procure_probe/tasks/main.yml").read_text())
    on_host = [t for t in tasks if t.get("delegate_to") != "localhost"]
    assert on_host and all(set(t) & {"ansible.builtin.script", "ansible.builtin.raw"} for t in on_host)
    plays = yaml.safe_load(PLAYBOOK.read_text())
    assert plays[0]["gather_facts"] is False

"""Host tuning: the check on real and crafted host files, and the script run for real on a fake root."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from procurement.host_tuning import DEFAULTS, check_host, choices, data_mounts, tuning_script
from procurement.plan import ApplicationClocks, Plan

HOST = Path(__file__).parents[1] / "fixtures" / "host"
VM = HOST / "vm-2cpu-no-cpufreq"


def _vm_files() -> dict[str, str | None]:
    return {
        "/proc/meminfo": (VM / "proc_meminfo").read_text(),
        "/proc/mounts": (VM / "proc_mounts").read_text(),
        "/proc/self/limits": (VM / "proc_self_limits").read_text(),
        "/sys/kernel/mm/transparent_hugepage/enabled": (VM / "thp_enabled").read_text(),
        # the guest lists cpu0 and cpu1 without cpufreq: the probe records each governor file as unreadable
        **{f"/sys/devices/system/cpu/{cpu}/cpufreq/scaling_governor": None
           for cpu in (VM / "sys_devices_system_cpu.ls").read_text().split() if cpu[3:].isdigit()},
    }


def _status(results: list, check_id: str) -> list[str]:
    return [r.status for r in results if r.id == check_id]


def test_every_default_has_a_source_and_a_trade_off() -> None:
    for key, default in DEFAULTS.items():
        assert default.source and default.trade_off, key
    c = choices(Plan())
    assert c["cpu_governor"].value == "performance" and not c["cpu_governor"].from_plan


def test_real_vm_capture() -> None:
    results = check_host(Plan(), _vm_files())
    assert _status(results, "TUNE-GOVERNOR") == ["unknown"]  # no cpufreq in the guest: not a pass
    assert _status(results, "TUNE-SWAP") == ["pass"]
    assert _status(results, "TUNE-HUGEPAGES") == ["skip"]  # the plan reserves none: left as it is
    assert _status(results, "TUNE-THP") == ["pass"]
    assert _status(results, "TUNE-DATA-MOUNT") == ["unknown"]  # only the system's / on /dev/vda
    plan = Plan()
    plan.operations.host.hugepages_2m = 0
    assert _status(check_host(plan, _vm_files()), "TUNE-HUGEPAGES") == ["pass"]  # HugePages_Total: 0
    nofile = [r for r in results if r.id == "TUNE-NOFILE"]
    assert [r.status for r in nofile] == ["fail"] and "hard limit 20000" in nofile[0].message
    assert _status(results, "TUNE-ECC") == ["skip"]


def test_missing_files_are_unknown_never_pass() -> None:
    results = check_host(Plan(), {})
    assert {r.id: r.status for r in results} == {
        "TUNE-GOVERNOR": "unknown", "TUNE-SWAP": "unknown", "TUNE-HUGEPAGES": "skip", "TUNE-THP": "unknown",
        "TUNE-DATA-MOUNT": "unknown", "TUNE-NOFILE": "unknown", "TUNE-ECC": "skip", "TUNE-CLOCKS": "skip"}


def test_crafted_states_fail() -> None:
    files = _vm_files()
    files["/proc/meminfo"] = (HOST / "crafted" / "proc_meminfo_swap_on").read_text()
    files["/proc/mounts"] = (HOST / "crafted" / "proc_mounts").read_text()
    files.update({f"/sys/devices/system/cpu/cpu{n}/cpufreq/scaling_governor": g
                  for n, g in enumerate(["performance\n", "powersave\n"])})
    plan = Plan()
    plan.operations.host.hugepages_2m = 512
    plan.operations.host.transparent_hugepages = "never"
    results = check_host(plan, files)
    assert _status(results, "TUNE-GOVERNOR") == ["fail"]
    assert _status(results, "TUNE-SWAP") == ["fail"]
    assert _status(results, "TUNE-HUGEPAGES") == ["fail"]
    assert _status(results, "TUNE-THP") == ["fail"]
    mounts = [r.message for r in results if r.id == "TUNE-DATA-MOUNT"]
    assert any("/data" in m and "noatime" in m for m in mounts)  # xfs, but relatime
    assert any("/scratch" in m and "btrfs" in m for m in mounts)  # noatime, but not XFS/ext4


def test_governor_all_performance_passes_and_keep_skips() -> None:
    files = {f"/sys/devices/system/cpu/cpu{n}/cpufreq/scaling_governor": "performance\n" for n in range(4)}
    assert _status(check_host(Plan(), files), "TUNE-GOVERNOR") == ["pass"]
    plan = Plan()
    plan.operations.host.cpu_governor = "keep"
    assert _status(check_host(plan, files), "TUNE-GOVERNOR") == ["skip"]


def test_ecc_only_checked_when_planned() -> None:
    plan = Plan()
    plan.operations.host.ecc = "off"
    assert _status(check_host(plan, {}, ecc_enabled=[False, False]), "TUNE-ECC") == ["pass"]
    assert _status(check_host(plan, {}, ecc_enabled=[True, False]), "TUNE-ECC") == ["fail"]
    assert _status(check_host(plan, {}, ecc_enabled=[None, False]), "TUNE-ECC") == ["unknown"]


def test_data_mounts_leave_out_the_system() -> None:
    assert [m[1] for m in data_mounts((HOST / "crafted" / "proc_mounts").read_text())] == ["/data", "/scratch"]


def _shellcheck(script: str) -> None:
    shellcheck = shutil.which("shellcheck")
    assert shellcheck, "shellcheck is installed by make test"
    subprocess.run([shellcheck, "-s", "bash", "-"], input=script, text=True, check=True)


def _fake_root(tmp: Path) -> Path:
    root = tmp / "root"
    for n in range(2):
        gov = root / f"sys/devices/system/cpu/cpu{n}/cpufreq/scaling_governor"
        gov.parent.mkdir(parents=True)
        gov.write_text("schedutil\n")
    thp = root / "sys/kernel/mm/transparent_hugepage/enabled"
    thp.parent.mkdir(parents=True)
    thp.write_text("[always] madvise never\n")
    (root / "proc/sys/vm").mkdir(parents=True)
    (root / "proc/sys/vm/nr_hugepages").write_text("0\n")
    (root / "etc").mkdir()
    (root / "etc/fstab").write_text("UUID=1 / ext4 defaults 0 1\n/swap.img none swap sw 0 0\n"
                                    "/dev/md0 /data xfs defaults 0 2\n")
    return root


def _tree(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): p.read_text() for p in sorted(root.rglob("*")) if p.is_file()}


def _bash(script: str, root: Path, log: Path, *args: str) -> str:
    bin_dir = log.parent / "bin"
    bin_dir.mkdir(exist_ok=True)
    fake = bin_dir / "nvidia-smi"
    fake.write_text(f'#!/bin/sh\necho "nvidia-smi $*" >> {log}\n')
    fake.chmod(0o755)
    env = {**os.environ, "GPU_PROCURE_ROOT": str(root), "PATH": f"{bin_dir}:{os.environ['PATH']}"}
    return subprocess.run(["bash", "-s", "--", *args], input=script, text=True, capture_output=True, check=True,
                          env=env).stdout


def test_script_applies_idempotently_and_undoes(tmp_path: Path) -> None:
    plan = Plan()
    plan.operations.host.hugepages_2m = 1024
    script = tuning_script(plan)
    _shellcheck(script)
    root, log = _fake_root(tmp_path), tmp_path / "calls.log"
    before = _tree(root)
    dry = _bash(script, root, log, "--dry-run")
    assert "+ write /sys/devices/system/cpu/cpu0/cpufreq/scaling_governor: performance" in dry
    assert _tree(root) == before, "a dry run changes nothing"
    _bash(script, root, log)
    after = _tree(root)
    assert after["sys/devices/system/cpu/cpu1/cpufreq/scaling_governor"] == "performance\n"
    assert after["sys/kernel/mm/transparent_hugepage/enabled"] == "madvise\n"
    assert after["proc/sys/vm/nr_hugepages"] == "1024\n"
    assert "#gpu-procure# /swap.img none swap" in after["etc/fstab"]
    assert "/dev/md0\t/data\txfs\tdefaults,noatime" in after["etc/fstab"]
    assert "nofile    1048576" in after["etc/security/limits.d/90-gpu-procure.conf"]
    _bash(script, root, log)
    assert _tree(root) == after, "a second run changes nothing more"
    _bash(script, root, log, "--undo")
    assert _tree(root) == before
    assert not log.exists(), "ECC and clocks are not touched unless the plan asks"


def test_ecc_off_and_clocks_only_when_asked_with_the_warning(tmp_path: Path) -> None:
    plan = Plan()
    assert "nvidia-smi -e" not in tuning_script(plan) and "-ac" not in tuning_script(plan)
    assert "nr_hugepages" not in tuning_script(plan)  # no reservation unless the plan says how many
    plan.operations.host.ecc = "off"
    plan.operations.host.application_clocks = ApplicationClocks(memory_mhz=2619, graphics_mhz=1980)
    script = tuning_script(plan)
    _shellcheck(script)
    root, log = _fake_root(tmp_path), tmp_path / "calls.log"
    out = _bash(script, root, log)
    assert "WARNING: ECC off" in out and "WARNING: Fixed application clocks" in out
    assert log.read_text().splitlines() == ["nvidia-smi -e 0", "nvidia-smi -ac 2619,1980"]
    _bash(script, root, log, "--undo")
    assert log.read_text().splitlines()[-1] == "nvidia-smi -rac"


@pytest.mark.parametrize("arg", ["--bogus"])
def test_script_refuses_unknown_arguments(tmp_path: Path, arg: str) -> None:
    root = _fake_root(tmp_path)
    res = subprocess.run(["bash", "-s", "--", arg], input=tuning_script(Plan()), text=True, capture_output=True,
                         env={**os.environ, "GPU_PROCURE_ROOT": str(root)})
    assert res.returncode == 2


def test_application_clocks_only_checked_when_planned() -> None:
    plan = Plan()
    assert _status(check_host(plan, {}, app_clocks=[(2619, 1980)]), "TUNE-CLOCKS") == ["skip"]
    plan.operations.host.application_clocks = ApplicationClocks(memory_mhz=2619, graphics_mhz=1980)
    assert _status(check_host(plan, {}, app_clocks=[(2619, 1980), (2619, 1980)]), "TUNE-CLOCKS") == ["pass"]
    wrong = [r for r in check_host(plan, {}, app_clocks=[(2619, 1980), (2619, 1755)]) if r.id == "TUNE-CLOCKS"]
    assert [r.status for r in wrong] == ["fail"] and "GPU 1: memory 2619 MHz, graphics 1755 MHz" in wrong[0].message
    assert "GPU 0" not in wrong[0].message
    assert _status(check_host(plan, {}, app_clocks=[(2619, None)]), "TUNE-CLOCKS") == ["unknown"]
    assert _status(check_host(plan, {}), "TUNE-CLOCKS") == ["unknown"]

"""TUNE-* and MIG-LAYOUT in the node report: collected by the probe, judged by host_tuning and mig, warned about
before the handover's setup and failed after it (`--after-setup`), unknown when unreadable."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from catalog.loader import Catalog
from procurement.commands.cli import build_parser
from procurement.commands.judge import run_judge
from procurement.plan import GpuChoice, Plan, save_plan
from procurement.verify.checks import CHECKS
from procurement.verify.checks.tuning import TUNING_IDS
from procurement.verify.collect import raw
from procurement.verify.judge import judge
from procurement.verify.probe import ProbeOptions, raw_run, run_probe
from procurement.verify.render import render_report
from procurement.verify.report import CheckRecord, VerificationReport
from tests.procurement.verify.conftest import (
    FIX,
    H100_XML,
    T4_XML,
    TUNED,
    h100_plan,
    host_runner_healthy,
    make_host_root,
    smi_replay,
    tuned_files,
    write_exe,
)

HOST = TUNED.parent
CRAFTED = HOST / "crafted"
VM = HOST / "vm-2cpu-no-cpufreq"
MIG = FIX / "mig"
OLD_RAW = FIX.parent / "verify" / "raw" / "collector-1.1_t4_untuned.json"
A100_40_LGI = MIG / "seansiddens_a100-sxm4-40gb_450.80.02_lgi_2x3g.txt"
H100_LIST = FIX / "utkuozdemir_h100-mig_590.48.01_list-L.txt"


def _raw(files: dict[str, str | None], xml: Path = H100_XML, **commands: dict[str, Any]) -> dict[str, Any]:
    doc = raw.new_raw()
    doc["commands"]["nvidia_smi_q"] = raw.result(["nvidia-smi", "-q", "-x"], 0, xml.read_text())
    doc["commands"].update(commands)
    doc["files"] = dict(files)
    return doc


def _untuned() -> dict[str, str | None]:
    """A delivered host as it comes: swap on, a data disk without noatime and one on btrfs, a CPU in
    powersave, the shell's 20000 open files, THP in 'always'."""
    files = tuned_files()
    files["/proc/meminfo"] = (CRAFTED / "proc_meminfo_swap_on").read_text()
    files["/proc/mounts"] = (CRAFTED / "proc_mounts").read_text()
    files["/proc/self/limits"] = (VM / "proc_self_limits").read_text()
    files["/sys/kernel/mm/transparent_hugepage/enabled"] = "[always] madvise never\n"
    files["/sys/devices/system/cpu/cpu1/cpufreq/scaling_governor"] = "powersave\n"
    return files


def _checks(rep: VerificationReport) -> dict[str, CheckRecord]:
    return {c.id: c for c in rep.checks if c.id in TUNING_IDS or c.id == "MIG-LAYOUT"}


def _status(rep: VerificationReport) -> dict[str, str]:
    return {k: c.status for k, c in _checks(rep).items()}


def test_the_checks_are_declared_in_report_order() -> None:
    ids = list(CHECKS)
    assert ids[ids.index("BENCHMARK") + 1:ids.index("BENCHMARK") + 10] == [*TUNING_IDS, "MIG-LAYOUT"]


def test_a_tuned_host_passes(vcat: Catalog) -> None:
    rep = judge(_raw(tuned_files()), h100_plan(), vcat, None, "en")
    assert _status(rep) == {
        "TUNE-GOVERNOR": "pass", "TUNE-SWAP": "pass", "TUNE-HUGEPAGES": "skip", "TUNE-THP": "pass",
        "TUNE-DATA-MOUNT": "pass", "TUNE-NOFILE": "pass", "TUNE-ECC": "skip",
        "TUNE-CLOCKS": "skip", "MIG-LAYOUT": "skip"}  # no MIG planned and the listing not collected
    mounts = _checks(rep)["TUNE-DATA-MOUNT"]
    assert mounts.message == "Data filesystems /data, /scratch: ext4/xfs, mounted noatime"
    assert mounts.code == "tuning.mount.pass"  # stored as its code: rendered in the reader's language
    assert judge(_raw(tuned_files()), h100_plan(), vcat, None, "en", after_setup=True).status == rep.status


def test_an_untuned_host_warns_before_the_setup_and_fails_after_it(vcat: Catalog) -> None:
    plan = h100_plan()
    plan.operations.host.hugepages_2m = 512
    before = judge(_raw(_untuned()), plan, vcat, None, "en")
    after = judge(_raw(_untuned()), plan, vcat, None, "en", after_setup=True)
    mismatched = ("TUNE-GOVERNOR", "TUNE-SWAP", "TUNE-HUGEPAGES", "TUNE-THP", "TUNE-DATA-MOUNT", "TUNE-NOFILE")
    assert {k: v for k, v in _status(before).items() if k in mismatched} == dict.fromkeys(mismatched, "warn")
    assert {k: v for k, v in _status(after).items() if k in mismatched} == dict.fromkeys(mismatched, "fail")
    swap = _checks(before)["TUNE-SWAP"]
    assert swap.message == ("Swap is on: SwapTotal 8388604 kB (planned off) (not tuned yet: expected before the "
                            "handover's setup has run; `--after-setup` fails it)")
    assert _checks(after)["TUNE-SWAP"].message == "Swap is on: SwapTotal 8388604 kB (planned off)"
    assert "'powersave'" in _checks(after)["TUNE-GOVERNOR"].message
    # both bad data disks in the one record, each named
    mounts = _checks(after)["TUNE-DATA-MOUNT"].message
    assert "/data" in mounts and "relatime" in mounts and "/scratch" in mounts and "btrfs" in mounts
    assert "hard limit 20000" in _checks(after)["TUNE-NOFILE"].message
    assert after.exit_code() == 1
    # the same report read in Chinese: from the codes, not the English text
    zh = render_report(before, "zh")
    assert "交换分区" in zh and "尚未调优" in zh


def test_unreadable_is_unknown_before_and_after_the_setup(vcat: Catalog) -> None:
    files: dict[str, str | None] = {path: None for path in tuned_files()}
    for after_setup in (False, True):
        rep = judge(_raw(files), h100_plan(), vcat, None, "en", after_setup=after_setup)
        assert _status(rep) == {
            "TUNE-GOVERNOR": "unknown", "TUNE-SWAP": "unknown", "TUNE-HUGEPAGES": "skip", "TUNE-THP": "unknown",
            "TUNE-DATA-MOUNT": "unknown", "TUNE-NOFILE": "unknown", "TUNE-ECC": "skip", "TUNE-CLOCKS": "skip",
            "MIG-LAYOUT": "skip"}
        assert _checks(rep)["TUNE-SWAP"].message == "SwapTotal: /proc/meminfo could not be read"
    # one CPU's governor unreadable among readable ones: not "every CPU"
    files = tuned_files()
    files["/sys/devices/system/cpu/cpu3/cpufreq/scaling_governor"] = None
    assert _status(judge(_raw(files), h100_plan(), vcat, None, "en"))["TUNE-GOVERNOR"] == "unknown"


def test_without_a_plan_the_tuning_is_not_judged(vcat: Catalog) -> None:
    rep = judge(_raw(_untuned()), None, vcat, None, "en", after_setup=True)
    assert set(_status(rep).values()) == {"skip"}


def test_ecc_is_judged_only_when_the_plan_sets_it(vcat: Catalog) -> None:
    """The H100 capture's GPUs have ECC on: a plan that asks for it off is not tuned yet (and the ECC check,
    which fails ECC off on data-centre GPUs, leaves it to TUNE-ECC)."""
    plan = h100_plan()
    rep = judge(_raw(tuned_files()), plan, vcat, None, "en")
    assert _status(rep)["TUNE-ECC"] == "skip" and rep.check("ECC").status == "pass"  # type: ignore[union-attr]
    plan.operations.host.ecc = "off"
    before = judge(_raw(tuned_files()), plan, vcat, None, "en")
    after = judge(_raw(tuned_files()), plan, vcat, None, "en", after_setup=True)
    assert _status(before)["TUNE-ECC"] == "warn" and _status(after)["TUNE-ECC"] == "fail"
    assert _checks(after)["TUNE-ECC"].message == "ECC: planned off, found on"
    assert after.check("ECC").status == "skip"  # type: ignore[union-attr]
    plan.operations.host.ecc = "on"
    assert _status(judge(_raw(tuned_files()), plan, vcat, None, "en", after_setup=True))["TUNE-ECC"] == "pass"


def test_application_clocks_only_when_the_plan_fixes_them(vcat: Catalog) -> None:
    """The H100 capture's GPUs run their default application clocks, memory 2619 MHz and graphics 1980 MHz."""
    from procurement.plan import ApplicationClocks

    plan = h100_plan()
    assert _status(judge(_raw(tuned_files()), plan, vcat, None, "en"))["TUNE-CLOCKS"] == "skip"
    plan.operations.host.application_clocks = ApplicationClocks(memory_mhz=2619, graphics_mhz=1980)
    rep = judge(_raw(tuned_files()), plan, vcat, None, "en", after_setup=True)
    assert _checks(rep)["TUNE-CLOCKS"].status == "pass"
    plan.operations.host.application_clocks = ApplicationClocks(memory_mhz=2619, graphics_mhz=1755)
    before = _checks(judge(_raw(tuned_files()), plan, vcat, None, "en"))["TUNE-CLOCKS"]
    after = _checks(judge(_raw(tuned_files()), plan, vcat, None, "en", after_setup=True))["TUNE-CLOCKS"]
    assert (before.status, after.status) == ("warn", "fail")
    assert after.message.startswith("Application clocks: planned memory 2619 MHz, graphics 1755 MHz; found GPU 0: "
                                    "memory 2619 MHz, graphics 1980 MHz; GPU 1:")
    # without a readable nvidia-smi report: unknown, never a pass
    doc = _raw(tuned_files())
    doc["commands"].pop("nvidia_smi_q")
    assert _status(judge(doc, plan, vcat, None, "en", after_setup=True))["TUNE-CLOCKS"] == "unknown"


def _lgi(text: str, **kw: Any) -> dict[str, Any]:
    return raw.result(["nvidia-smi", "mig", "-lgi"], kw.pop("returncode", 0), text, **kw)


def _list(text: str) -> dict[str, Any]:
    return raw.result(["nvidia-smi", "-L"], 0, text)


def test_mig_layout_from_the_lgi_table(vcat: Catalog) -> None:
    """NVIDIA's `nvidia-smi mig -lgi` table (a real A100 40GB capture: two 3g.20gb)."""
    plan = Plan(gpu=GpuChoice(model="a100-sxm4-40gb", count=1))
    plan.operations.mig_layout = ["3g.20gb", "3g.20gb"]
    lgi = _lgi(A100_40_LGI.read_text())
    rep = judge(_raw(tuned_files(), nvidia_smi_mig_lgi=lgi), plan, vcat, None, "en", after_setup=True)
    mig = _checks(rep)["MIG-LAYOUT"]
    assert mig.status == "pass" and mig.message == "GPU 0: the MIG instances found are the planned ones " \
        "(3g.20gb + 3g.20gb)"
    plan.operations.mig_layout = ["4g.20gb", "2g.10gb"]
    before = _checks(judge(_raw(tuned_files(), nvidia_smi_mig_lgi=lgi), plan, vcat, None, "en"))["MIG-LAYOUT"]
    after = _checks(judge(_raw(tuned_files(), nvidia_smi_mig_lgi=lgi), plan, vcat, None, "en",
                          after_setup=True))["MIG-LAYOUT"]
    assert (before.status, after.status) == ("warn", "fail")
    assert after.message == "GPU 0: found 3g.20gb + 3g.20gb, planned 4g.20gb + 2g.10gb"


def test_mig_layout_falls_back_to_the_gpu_list(vcat: Catalog) -> None:
    """`mig -lgi` that printed nothing (timed out) beside `nvidia-smi -L` listing the MIG devices (a real H100
    capture): the listing is read from -L. With both unreadable a planned layout is unknown."""
    plan = Plan(gpu=GpuChoice(model="h100-sxm5-80gb", count=1))
    plan.operations.mig_layout = ["3g.40gb", "2g.20gb", "1g.10gb", "1g.10gb"]
    lgi = _lgi("", returncode=None, timed_out=True)
    rep = judge(_raw(tuned_files(), nvidia_smi_mig_lgi=lgi, nvidia_smi_list=_list(H100_LIST.read_text())),
                plan, vcat, None, "en", after_setup=True)
    assert _status(rep)["MIG-LAYOUT"] == "pass"
    for after_setup in (False, True):
        rep = judge(_raw(tuned_files(), nvidia_smi_mig_lgi=lgi), plan, vcat, None, "en", after_setup=after_setup)
        mig = _checks(rep)["MIG-LAYOUT"]
        assert mig.status == "unknown" and mig.message == "The MIG instances could not be read: no output"


def test_mig_layout_spans_every_planned_gpu_in_one_record(vcat: Catalog) -> None:
    """Eight planned GPUs, instances on GPU 0 only: one MIG-LAYOUT record naming the seven without."""
    plan = h100_plan()
    plan.operations.mig_layout = ["3g.40gb", "2g.20gb", "1g.10gb", "1g.10gb"]
    rep = judge(_raw(tuned_files(), nvidia_smi_list=_list(H100_LIST.read_text())), plan, vcat, None, "en",
                after_setup=True)
    records = [c for c in rep.checks if c.id == "MIG-LAYOUT"]
    assert len(records) == 1 and records[0].status == "fail"
    assert records[0].message.startswith("GPU 0: the MIG instances found are the planned ones")
    assert all(f"GPU {n}: no MIG instances found" in records[0].message for n in range(1, 8))


def test_mig_instances_nobody_planned(vcat: Catalog) -> None:
    """No layout planned: none found passes; instances found are not as planned; nothing readable is left to
    the MIG check (skip), never a pass."""
    plan = Plan(gpu=GpuChoice(model="h100-sxm5-80gb", count=1))
    none = _lgi("No MIG-enabled devices found.\n")  # as tests/procurement/test_operations.py has it
    assert _status(judge(_raw(tuned_files(), nvidia_smi_mig_lgi=none), plan, vcat, None, "en"))["MIG-LAYOUT"] \
        == "pass"
    found = judge(_raw(tuned_files(), nvidia_smi_list=_list(H100_LIST.read_text())), plan, vcat, None, "en",
                  after_setup=True)
    assert _status(found)["MIG-LAYOUT"] == "fail"
    assert "The plan has no MIG layout; found GPU 0: 3g.40gb + 2g.20gb + 1g.10gb + 1g.10gb" in \
        _checks(found)["MIG-LAYOUT"].message
    silent = judge(_raw(tuned_files(), nvidia_smi_mig_lgi=_lgi("", returncode=None, timed_out=True)), plan, vcat,
                   None, "en")
    assert _status(silent)["MIG-LAYOUT"] == "skip"


def test_raw_facts_of_collector_1_1_still_verify(vcat: Catalog) -> None:
    """A raw file the previous collector wrote (no tuning files, no MIG listing): judged as before, the tuning
    checks unknown (or skip where the plan asks nothing), never pass."""
    doc = json.loads(OLD_RAW.read_text())
    assert doc["probe_version"] == "1.1" and "/proc/mounts" not in doc["files"]
    plan = Plan(gpu=GpuChoice(model="t4", count=1))
    rep = judge(doc, plan, vcat, None, "en", after_setup=True)
    assert rep.check("GPU-COUNT").status == "pass"  # type: ignore[union-attr]
    assert _status(rep) == {
        "TUNE-GOVERNOR": "unknown", "TUNE-SWAP": "unknown", "TUNE-HUGEPAGES": "skip", "TUNE-THP": "unknown",
        "TUNE-DATA-MOUNT": "unknown", "TUNE-NOFILE": "unknown", "TUNE-ECC": "skip", "TUNE-CLOCKS": "skip",
            "MIG-LAYOUT": "skip"}
    assert rep.status != "pass" and rep.exit_code() != 0


def test_judge_after_setup_on_the_command_line(tmp_path: Path, vcat: Catalog) -> None:
    raw_path = tmp_path / "node01.json"
    raw_path.write_text(raw.dumps(_raw(_untuned())))
    plan_path = tmp_path / "p.gpuplan.yaml"
    save_plan(h100_plan(), plan_path)
    statuses = []
    for extra in ([], ["--after-setup"]):
        out = tmp_path / f"report{len(extra)}.json"
        argv = ["judge", str(raw_path), "--plan", str(plan_path), "--json", str(out), "--lang", "en", *extra]
        run_judge(build_parser().parse_args(argv), vcat)
        checks = {c["id"]: c["status"] for c in json.loads(out.read_text())["checks"]}
        statuses.append((checks["TUNE-SWAP"], checks["TUNE-GOVERNOR"]))
    assert statuses == [("warn", "warn"), ("fail", "fail")]


# ---------------------------------------------------------------- the collector


def test_the_collector_reads_the_tuning_files_and_lists_mig(tmp_path: Path, fake_path: Path) -> None:
    """On a tuned fake root: the files by their absolute paths, each online CPU's governor (an offline CPU left
    out, one without cpufreq recorded as unreadable), and both MIG listings run through nvidia-smi."""
    smi_replay(fake_path, T4_XML)
    root = make_host_root(tmp_path / "root")
    cpu = root / "sys/devices/system/cpu"
    (cpu / "cpu4").mkdir()  # no cpufreq directory: a CPU the driver does not scale
    (cpu / "cpu5").mkdir()
    (cpu / "cpu5/online").write_text("0\n")
    doc = raw.collect(root=str(root), run=raw_run(host_runner_healthy(T4_XML)), timeout=5)
    assert doc["probe_version"] == raw.PROBE_VERSION == "1.3"
    files = doc["files"]
    assert files["/proc/swaps"] == (TUNED / "proc_swaps").read_text()
    assert files["/proc/mounts"] == (TUNED / "proc_mounts").read_text()
    assert "Max open files            1048576" in files["/proc/self/limits"]
    assert files["/sys/kernel/mm/transparent_hugepage/enabled"] == "always [madvise] never\n"
    governors = {k: v for k, v in files.items() if k.endswith("scaling_governor")}
    assert governors == {**{f"/sys/devices/system/cpu/cpu{n}/cpufreq/scaling_governor": "performance\n"
                            for n in range(4)},
                         "/sys/devices/system/cpu/cpu4/cpufreq/scaling_governor": None}
    cmds = doc["commands"]
    assert cmds["nvidia_smi_mig_lgi"]["argv"][1:] == ["mig", "-lgi"]
    assert cmds["nvidia_smi_list"]["argv"][1:] == ["-L"]


def test_missing_files_and_a_missing_nvidia_smi_are_recorded_not_fatal(tmp_path: Path, fake_path: Path) -> None:
    """A bare root (no /proc/mounts, no cpufreq, no THP) and an nvidia-smi that answers -q -x but fails its MIG
    listing: each recorded as missing or failed, the collection completes."""
    body = f'case "$1" in mig|-L) echo "Failed to initialize NVML: Unknown Error" >&2; exit 255;; esac\n' \
           f"cat {T4_XML}\n"
    write_exe(fake_path, "nvidia-smi", body)
    root = tmp_path / "bare"
    root.mkdir()
    doc = raw.collect(root=str(root), run=raw_run(host_runner_healthy(T4_XML)), timeout=5)
    for path in ("/proc/swaps", "/proc/mounts", "/proc/self/limits", "/sys/kernel/mm/transparent_hugepage/enabled"):
        assert doc["files"][path] is None
    assert not any(k.endswith("scaling_governor") for k in doc["files"])
    assert doc["commands"]["nvidia_smi_mig_lgi"]["returncode"] == 255
    assert doc["commands"]["nvidia_smi_list"]["returncode"] == 255


def test_no_gpu_no_mig_listing(tmp_path: Path, fake_path: Path) -> None:
    """Without nvidia-smi there is nothing to list: the MIG commands are not run (not 'missing' twice more)."""
    root = make_host_root(tmp_path / "root")
    doc = raw.collect(root=str(root), run=raw_run(host_runner_healthy(T4_XML)), timeout=5,
                      nvidia_smi=str(tmp_path / "no-such-nvidia-smi"))
    assert doc["commands"]["nvidia_smi_q"]["missing"]
    assert "nvidia_smi_mig_lgi" not in doc["commands"] and "nvidia_smi_list" not in doc["commands"]


@pytest.mark.parametrize("after_setup", [False, True])
def test_local_verify_reads_the_same_facts(tmp_path: Path, fake_path: Path, vcat: Catalog, after_setup: bool) -> None:
    """`verify` on this machine (collect then judge, one path) sees the tuned fake root as tuned."""
    smi_replay(fake_path, H100_XML)
    root = make_host_root(tmp_path / "root")
    rep = run_probe(h100_plan(), vcat, ProbeOptions(root=root, runner=host_runner_healthy(H100_XML), timeout=5,
                                                    after_setup=after_setup), "en")
    status = _status(rep)
    assert {status[k] for k in ("TUNE-GOVERNOR", "TUNE-SWAP", "TUNE-THP", "TUNE-DATA-MOUNT", "TUNE-NOFILE")} == {"pass"}
    # the fake nvidia-smi answers every question with its XML: no MIG listing, nothing planned
    assert status["MIG-LAYOUT"] == "skip"

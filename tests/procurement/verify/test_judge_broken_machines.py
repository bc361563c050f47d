"""What real broken machines print, replayed through fake tools into `verify --load` and the judge: every one
ends in a failure naming the check and the GPU/NIC, or in an unknown that says why, never in a pass."""

from __future__ import annotations

import datetime
import shlex
import time
from pathlib import Path
from typing import Any

import pytest

from catalog.loader import Catalog, load_catalog
from procurement.plan import PartCount
from procurement.verify.checks import Facts
from procurement.verify.collect import raw as rawmod
from procurement.verify.collect.raw import new_raw, result
from procurement.verify.collect.runner import CommandResult, run_command
from procurement.verify.host import HostInfo
from procurement.verify.judge import health_facts, judge
from procurement.verify.parse.load import parse_all_reduce
from procurement.verify.probe import ProbeOptions, run_probe
from tests.procurement.verify.checks.test_load import DCGM_PASS, NCCL_2NODE_A100, NCCL_2NODE_H100, fake_tools
from tests.procurement.verify.conftest import (
    ACCEPT,
    FM_LOG_CLEAN,
    FM_LOG_HGX,
    FM_LOG_ONE_ERROR,
    H100_TOPO,
    H100_XML,
    h100_plan,
    head,
    host_runner_healthy,
    lspci_for,
    make_host_root,
    write_exe,
)

BURN_ALL_DIED = ACCEPT / "gpuburn/gpu_burn-8gpu-all-died-no-clients-alive-issue69.txt"
BURN_T4_DIED = ACCEPT / "gpuburn/gpu_burn-t4-init-error-died-no-clients-alive-issue53.txt"
BURN_INIT_OK = ACCEPT / "gpuburn/gpu_burn-6gpu-init-error-load-module-still-ok-issue7.txt"
NVBW_ASSERT = ACCEPT / "nvbandwidth/nvbandwidth-v0.7-d2d-read-ce-8xa100-pattern-assert-issue34.txt"
NVBW_ABORT = ACCEPT / "nvbandwidth/nvbandwidth-v0.4-one-to-all-read-sm-8xl40s-pattern-aborted-issue19.txt"
BUS_NO_XID = ACCEPT / "xid/dmesg-nvrm-fallen-off-the-bus-without-xid-nvsentinel-155.log"
BUS_ONE_LINE = ACCEPT / "xid/dmesg-nvrm-gpu-at-has-fallen-off-the-bus-bumblebee-554.log"
XID119 = ACCEPT / "xid/dmesg-xid119-gsp-timeout-dell-xe9680-h100.log"
IBSTAT_ACTIVE = ACCEPT / "ib/ibstat-h100-8x400-ib-all-active.txt"
IBSTAT_PANIC = ACCEPT / "ib/ibstat-partial-then-ibpanic-mlx5_8-gpud-pr752.txt"


@pytest.fixture(scope="module")
def shipped() -> Catalog:
    return load_catalog()


def _probe(tmp_path: Path, catalog: Catalog, plan: Any = None, runner: Any = None, **options: Any):  # type: ignore[no-untyped-def]
    root = make_host_root(tmp_path / "root")
    opts = ProbeOptions(root=root, runner=runner or host_runner_healthy(H100_XML), timeout=5, load="quick",
                        duration=1, **options)
    return run_probe(plan or h100_plan(), catalog, opts, "en")


def _replay(bin_dir: Path, name: str, capture: Path, code: int = 0, to_stderr: Path | None = None) -> None:
    err = f"cat {shlex.quote(str(to_stderr))} >&2\n" if to_stderr else ""
    write_exe(bin_dir, name, f"cat {shlex.quote(str(capture))}\n{err}exit {code}\n")


# ---------------------------------------------------------------- (1) a load tool that dies fails


def test_an_all_pass_dcgm_table_with_exit_226_fails(tmp_path: Path, fake_path: Path, shipped: Catalog) -> None:
    """dcgmi diag exits 226 (DCGM_ST_NVVS_ERROR, "the diagnostic reported an error") with a table that shows
    only Pass/Skip: the exit status is DCGM's verdict, not noise."""
    fake_tools(fake_path)
    _replay(fake_path, "dcgmi", DCGM_PASS, 226)
    rep = _probe(tmp_path, shipped)
    dcgm = rep.check("LOAD-DCGM")
    assert dcgm is not None and dcgm.status == "fail", dcgm
    assert "exit 226" in dcgm.message and "DCGM_ST_NVVS_ERROR" in dcgm.message
    assert rep.exit_code() == 1


@pytest.mark.parametrize(("capture", "code", "gpus"), [
    (BURN_ALL_DIED, 123, "GPU0, GPU1, GPU2, GPU3, GPU4, GPU5, GPU6, GPU7"),  # every worker died, exit 123
    (BURN_T4_DIED, 123, "GPU0"),  # one worker could not start and died
    (BURN_INIT_OK, 0, "a GPU"),  # a worker never started, gpu_burn still printed OK for all and exited 0
])
def test_burn_workers_that_die_fail_naming_the_gpus(tmp_path: Path, fake_path: Path, shipped: Catalog,
                                                    capture: Path, code: int, gpus: str) -> None:
    fake_tools(fake_path)
    _replay(fake_path, "gpu_burn", capture, code)
    rep = _probe(tmp_path, shipped)
    burn = rep.check("LOAD-BURN")
    assert burn is not None and burn.status == "fail", burn
    assert burn.actual == gpus
    assert rep.exit_code() == 1


def test_gpu_burn_deaths_are_read_from_its_progress_line() -> None:
    from procurement.verify.parse.load import gpu_burn_faults

    deaths = gpu_burn_faults(BURN_ALL_DIED.read_text())
    assert deaths.died == list(range(8)) and deaths.aborted
    ok = gpu_burn_faults((ACCEPT / "gpuburn/gpu_burn-8xa100-sxm4-80gb-tc-doubles-pass.log").read_text())
    assert ok.died == [] and not ok.aborted and not ok.init_errors  # the healthy capture: nothing died


@pytest.mark.parametrize(("capture", "code"), [(NVBW_ASSERT, 1), (NVBW_ABORT, 134)])
def test_a_pattern_mismatch_in_nvbandwidth_is_corruption(tmp_path: Path, fake_path: Path, shipped: Catalog,
                                                         capture: Path, code: int) -> None:
    fake_tools(fake_path)
    _replay(fake_path, "nvbandwidth", capture, code)
    nvbw = _probe(tmp_path, shipped).check("LOAD-NVBANDWIDTH")
    assert nvbw is not None and nvbw.status == "fail", nvbw
    assert nvbw.code == "verify.load.corrupt"
    assert "Invalid value when checking the pattern" in nvbw.message


def test_a_load_tool_that_crashes_after_printing_its_table_fails(tmp_path: Path, fake_path: Path,
                                                                 shipped: Catalog) -> None:
    """all_reduce_perf printed a clean table and then died by SIGSEGV (shell status 139): not a pass."""
    fake_tools(fake_path)
    _replay(fake_path, "all_reduce_perf", ACCEPT / "nccl/all_reduce_perf-g8-8xh100-single-node-pass-nccl-tests-290.txt",
            139)
    nccl = _probe(tmp_path, shipped).check("LOAD-NCCL")
    assert nccl is not None and nccl.status == "fail" and "SIGSEGV" in nccl.message, nccl


# ---------------------------------------------------------------- (2) a service state beside the status field


def _doc(**commands: dict[str, Any]) -> dict[str, Any]:
    doc = new_raw()
    doc["commands"]["nvidia_smi_q"] = result(["nvidia-smi", "-q", "-x"], 0, H100_XML.read_text())
    doc["commands"]["nvidia_smi_topo"] = result(["nvidia-smi", "topo", "-m"], 0, H100_TOPO.read_text())
    doc["commands"]["lspci"] = result(["lspci", "-nn", "-D"], 0, lspci_for(H100_XML.read_text()))
    doc["kernel_log"] = {"source": "dmesg", "lines": [], "truncated": False, "error": None, "read_lines": 900}
    doc["commands"].update(commands)
    return doc


def test_a_failed_fabric_manager_unit_fails_although_the_xml_says_completed(shipped: Catalog) -> None:
    doc = _doc(fabricmanager=result(["systemctl", "is-active", "nvidia-fabricmanager"], 3, "failed\n"))
    fm = judge(doc, h100_plan(), shipped, None, "en").check("FABRIC-MANAGER")
    assert fm is not None and fm.status == "fail" and fm.actual == "failed", fm
    assert "Completed" in fm.message and "journalctl -u nvidia-fabricmanager" in fm.message
    ok = _doc(fabricmanager=result(["systemctl", "is-active", "nvidia-fabricmanager"], 0, "active\n"))
    assert judge(ok, h100_plan(), shipped, None, "en").check("FABRIC-MANAGER").status == "pass"  # type: ignore[union-attr]


def _fm_log_of(tmp_path: Path, capture: Path | None, proc_stat: str | None = None) -> dict[str, Any]:
    """What the collector reads of Fabric Manager's log at its default path under a fake root."""
    root = tmp_path / "fmroot"
    if capture is not None:
        (root / "var/log").mkdir(parents=True, exist_ok=True)
        (root / "var/log/fabricmanager.log").write_bytes(capture.read_bytes())
    if proc_stat is not None:
        (root / "proc").mkdir(parents=True, exist_ok=True)
        (root / "proc/stat").write_text(proc_stat)
    return rawmod.Collector(str(root), lambda argv, t: result(argv, missing=True)).fabricmanager_log()


def _fm_judged(shipped: Catalog, log: dict[str, Any] | None) -> Any:
    doc = _doc(fabricmanager=result(["systemctl", "is-active", "nvidia-fabricmanager"], 0, "active\n"))
    if log is not None:
        doc["fabricmanager_log"] = log
    return judge(doc, h100_plan(), shipped, None, "en").check("FABRIC-MANAGER")


def test_fabric_manager_errors_of_its_run_fail_although_the_gpus_say_completed(tmp_path: Path,
                                                                                 shipped: Catalog) -> None:
    """gpud's /var/log/fabricmanager.log excerpt of an 8-GPU NVSwitch node: one '[ERROR] detected NVSwitch
    non-fatal error 12028' in the running Fabric Manager's log fails the check, the GPUs' Completed state and an
    active service notwithstanding."""
    log = _fm_log_of(tmp_path, FM_LOG_ONE_ERROR)
    assert log["path"] == "/var/log/fabricmanager.log" and log["error"] is None and log["read_lines"] > 70
    fm = _fm_judged(shipped, log)
    assert fm is not None and fm.status == "fail", fm
    assert fm.actual == "[ERROR] ×1" and "detected NVSwitch non-fatal error 12028" in fm.message
    assert "physical id 3 port 61" in fm.message and "[tid" not in fm.message
    # the same line as an NVSwitch fatal error (edited the way the driver words one) fails too
    fatal = dict(log, lines=[ln.replace("non-fatal", "fatal").replace("[ERROR]", "[INFO]") for ln in log["lines"]])
    fm = _fm_judged(shipped, fatal)
    assert fm is not None and fm.status == "fail" and "NVSwitch fatal error" in fm.message, fm


def test_fabric_manager_errors_before_its_restarts_fail_when_they_are_this_boots(tmp_path: Path,
                                                                                 shipped: Catalog) -> None:
    """gpud's HGX H100 log (a failing machine in its source): 18 NVSwitch non-fatal errors, then two Fabric
    Manager starts, the latest run clean. With no boot time to tell them older, the errors are this boot's: the
    fault happened on the delivered machine, a failure even though the run since is clean."""
    log = _fm_log_of(tmp_path, FM_LOG_HGX)
    fm = _fm_judged(shipped, log)
    assert fm is not None and fm.status == "fail", fm
    assert "logged 18 errors in this boot and then restarted" in fm.message and "12028" in fm.message
    # this boot began between the two starts (local time): the first start, and the errors before it, are an
    # earlier boot's; this boot started it once, cleanly: a warning that names the earlier boots' errors
    booted = int(datetime.datetime(2024, 12, 20, 0, 35).timestamp())
    log = _fm_log_of(tmp_path, FM_LOG_HGX, proc_stat=f"cpu  1 2 3 4\nbtime {booted}\n")
    assert log["boot"] == "2024-12-20T00:35:00"
    fm = _fm_judged(shipped, log)
    assert fm is not None and fm.status == "warn" and fm.actual == "1 start", fm
    assert "earlier boots logged 18 errors" in fm.message


def test_fabric_manager_log_missing_on_an_nvswitch_system_is_unknown(tmp_path: Path, shipped: Catalog) -> None:
    """No log at the default path on a node whose GPUs are in an NVSwitch fabric: its errors are not known.
    Raw facts of a collector before the log was read (no record) are judged as before; a clean run passes."""
    missing = _fm_log_of(tmp_path, None)
    assert missing["lines"] is None and missing["error"] == "not found"
    fm = _fm_judged(shipped, missing)
    assert fm is not None and fm.status == "unknown", fm
    assert "/var/log/fabricmanager.log: not found" in fm.message
    old = _fm_judged(shipped, None)
    assert old is not None and old.status == "pass" and old.actual == "Completed (8)", old
    clean = tmp_path / "clean.log"
    clean.write_text(FM_LOG_CLEAN)
    fm = _fm_judged(shipped, _fm_log_of(tmp_path, clean))
    assert fm is not None and fm.status == "pass", fm


# ---------------------------------------------------------------- (3) empty output is unknown


def test_empty_outputs_of_tools_that_exited_0_are_unknown(shipped: Catalog) -> None:
    empty = {"source": "dmesg", "lines": [], "truncated": False, "error": None, "read_lines": 0}
    doc = _doc(lspci=result(["lspci", "-nn", "-D"], 0, ""),
               nvidia_smi_nvlink=result(["nvidia-smi", "nvlink", "-s"], 0, ""),
               nvidia_smi_nvlink_errors=result(["nvidia-smi", "nvlink", "-e"], 0, ""))
    doc["kernel_log"] = empty
    rep = judge(doc, h100_plan(), shipped, None, "en")
    for cid, words in (("XID", "printed nothing"), ("GPU-PCI-COUNT", "printed nothing"),
                       ("NVLINK-LINKS", "printed nothing"), ("NVLINK-ERRORS", "printed nothing")):
        c = rep.check(cid)
        assert c is not None and c.status == "unknown" and words in c.message, (cid, c)
    # the GPUs listed but no link under any of them, on a plan with NVLink: nothing confirmed either
    names = "".join(f"GPU {i}: NVIDIA H100 80GB HBM3 (UUID: GPU-{i})\n" for i in range(8))
    links = judge(_doc(nvidia_smi_nvlink=result(["nvidia-smi", "nvlink", "-s"], 0, names)), h100_plan(), shipped,
                  None, "en").check("NVLINK-LINKS")
    assert links is not None and links.status == "unknown" and "listed 8 GPUs and no link" in links.message
    # an lspci that lists fewer NVIDIA GPUs than the driver sees is an incomplete listing, not a match
    short = _doc(lspci=result(["lspci"], 0, "".join(lspci_for(H100_XML.read_text()).splitlines(True)[:3])))
    pci = judge(short, h100_plan(), shipped, None, "en").check("GPU-PCI-COUNT")
    assert pci is not None and pci.status == "unknown" and "lists 3 NVIDIA GPUs while the driver sees 8" in pci.message


def test_the_collector_does_not_take_an_empty_dmesg_for_a_clean_log(tmp_path: Path) -> None:
    def run(argv, timeout):  # type: ignore[no-untyped-def]
        if argv[0] == "journalctl":
            return result(argv, missing=True)
        return result(argv, 0, "")

    log = rawmod.Collector(str(tmp_path), run).kernel_log()
    assert log["source"] is None and "dmesg: exit 0 but printed nothing" in log["error"]


DMESG_EPERM = "dmesg: read kernel buffer failed: Operation not permitted\n"
"""What util-linux dmesg prints, exit 1, where kernel.dmesg_restrict=1 keeps the ring buffer from users."""
JOURNAL_NO_ENTRIES = "-- No entries --\n"
"""What `journalctl -k -b` prints on standard output, exit 0, for a user outside systemd-journal/adm."""


def _unreadable_kernel_log(argv, timeout):  # type: ignore[no-untyped-def]
    if argv[0] == "dmesg":
        return result(argv, 1, "", DMESG_EPERM)
    if argv[0] == "journalctl":
        return result(argv, 0, JOURNAL_NO_ENTRIES)
    return result(argv, missing=True)


def test_a_journal_with_no_entries_is_no_clean_kernel_log(tmp_path: Path, shipped: Catalog) -> None:
    """dmesg refused and journalctl saying '-- No entries --' (exit 0): no line of the kernel was read, and a
    kernel log of this boot always has its boot messages, so XID and the re-read after a load are unknown."""
    log = rawmod.Collector(str(tmp_path), _unreadable_kernel_log).kernel_log()
    assert log["source"] is None, log
    assert log["error"].startswith("dmesg: read kernel buffer failed: Operation not permitted; ")
    assert "journalctl: exit 0 but printed no kernel log entry (-- No entries --)" in log["error"]
    doc = _doc()
    doc["kernel_log"] = log
    doc["load"] = {"level": "quick", "tools": {}, "samples": [], "after": {
        "nvidia_smi_q": dict(doc["commands"]["nvidia_smi_q"]), "pci_aer": {}, "kernel_log": dict(log)}}
    rep = judge(doc, h100_plan(), shipped, None, "en")
    xid = rep.check("XID")
    assert xid is not None and xid.status == "unknown" and "-- No entries --" in xid.message, xid
    after = rep.check("LOAD-AFTER")
    assert after is not None and after.status == "unknown", after
    # the same journalctl once it can read the journal: its kernel lines are a log
    readable = "2026-12-01T09:00:00+0000 node01 kernel: Linux version 5.15.0-105-generic (buildd@lcy02)\n"

    def run(argv, timeout):  # type: ignore[no-untyped-def]
        return result(argv, 0, readable) if argv[0] == "journalctl" else _unreadable_kernel_log(argv, timeout)

    ok = rawmod.Collector(str(tmp_path), run).kernel_log()
    assert ok["source"] == "journalctl" and ok["entries"] == 1 and ok["error"] is None, ok


def test_nvidia_smi_missing_beside_dcgm_is_not_a_missing_driver(shipped: Catalog) -> None:
    doc = _doc(nvidia_smi_q=result(["nvidia-smi", "-q", "-x"], missing=True))
    doc["programs"] = {"nvidia-smi": None, "dcgmi": "/usr/bin/dcgmi"}
    smi = judge(doc, h100_plan(), shipped, None, "en").check("NVIDIA-SMI")
    assert smi is not None and smi.status == "fail"
    assert "/usr/bin/dcgmi" in smi.message and "driver is not installed" not in smi.message
    doc["programs"] = {"nvidia-smi": None, "dcgmi": None}
    doc["files"]["/proc/driver/nvidia/version"] = "NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.183.01\n"
    smi = judge(doc, h100_plan(), shipped, None, "en").check("NVIDIA-SMI")
    assert smi is not None and "kernel module is loaded (NVRM version" in smi.message


# ---------------------------------------------------------------- (4) the kernel log from its newest end


def test_a_large_kernel_log_keeps_its_newest_end(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A log larger than the cap: the Xid at its end is kept (the head was kept before), with both runners;
    memory stays bounded by the cap."""
    from procurement.verify.collect import runner as app_runner

    monkeypatch.setattr(rawmod, "OUTPUT_CAP_BYTES", 256 * 1024)
    monkeypatch.setattr(app_runner, "MAX_OUTPUT_BYTES", 256 * 1024)
    xid = "[ 9999.000001] NVRM: Xid (PCI:0000:9b:00): 79, pid=1, GPU has fallen off the bus."
    filler = tmp_path / "filler.txt"
    filler.write_text("[    1.000000] nvidia-nvswitch: probe\n" * 40_000)  # ~1.6 MB of older lines
    dmesg = write_exe(tmp_path / "bin", "dmesg", f"cat {shlex.quote(str(filler))}\necho {shlex.quote(xid)}\n")
    for res in (rawmod.run_command([str(dmesg)], 10), app_runner.run_command([str(dmesg)], 10)):
        out = res["stdout"] if isinstance(res, dict) else res.stdout
        err = res.get("error") if isinstance(res, dict) else res.error
        assert out.rstrip().endswith(xid) and len(out) <= 256 * 1024 and err is None
    # a program that is not a log is still stopped at the cap, keeping its head
    other = write_exe(tmp_path / "bin", "smi", f"cat {shlex.quote(str(filler))}\n")
    res = rawmod.run_command([str(other)], 10)
    assert res["error"] and "output larger than" in res["error"] and res["stdout"].startswith("[    1.0")


@pytest.mark.parametrize(("capture", "bus"), [(BUS_NO_XID, "0000:b3:00"), (BUS_ONE_LINE, "0000:01:00")])
def test_a_gpu_fallen_off_the_bus_without_an_xid_line_fails(shipped: Catalog, capture: Path, bus: str) -> None:
    doc = _doc()
    doc["kernel_log"]["lines"] = capture.read_text().splitlines()
    xid = judge(doc, h100_plan(), shipped, None, "en").check("XID")
    assert xid is not None and xid.status == "fail", xid
    assert bus in xid.message and "fallen off the bus" in xid.message


# ---------------------------------------------------------------- (5) faults the load provokes


def test_faults_provoked_by_the_load_are_seen_after_it(tmp_path: Path, fake_path: Path, shipped: Catalog) -> None:
    """Before the load: a clean log and no ECC errors. gpu_burn passes, but during it GPU 3 logs an Xid 79 and
    another GPU counts an uncorrectable ECC error: the re-read after the load fails LOAD-AFTER naming them."""
    burned = tmp_path / "burned"
    fake_tools(fake_path)
    after_xml = tmp_path / "after.xml"
    xml = H100_XML.read_text()
    at = xml.index("<dram_uncorrectable>0</dram_uncorrectable>")
    after_xml.write_text(xml[:at] + "<dram_uncorrectable>2</dram_uncorrectable>" +
                         xml[at + len("<dram_uncorrectable>0</dram_uncorrectable>"):])
    rows = "\\n".join(f"{i}, 69.85 W, 41, 345 MHz, 0x0000000000000001" for i in range(8))
    write_exe(fake_path, "nvidia-smi",
              f'case "$1" in topo) cat {shlex.quote(str(H100_TOPO))};;\n'
              f'  --query-gpu=*) printf "{rows}\\n";;\n'
              f'  *) if [ -e {shlex.quote(str(burned))} ]; then cat {shlex.quote(str(after_xml))}; '
              f"else cat {shlex.quote(str(H100_XML))}; fi;;\nesac\n")
    write_exe(fake_path, "gpu_burn", f"touch {shlex.quote(str(burned))}\n"
              f"cat {shlex.quote(str(ACCEPT / 'gpuburn/gpu_burn-8xa100-sxm4-80gb-tc-doubles-pass.log'))}\n")
    base = host_runner_healthy(H100_XML)
    xid = "2026-12-01T10:00:00,000000+00:00 NVRM: Xid (PCI:0000:9b:00): 79, pid=0, GPU has fallen off the bus."

    def runner(argv, timeout):  # type: ignore[no-untyped-def]
        if argv[0] == "dmesg":
            log = "[    0.000000] Linux version 5.15.0\n" + (xid + "\n" if burned.exists() else "")
            return CommandResult(tuple(argv), returncode=0, stdout=log)
        return base(argv, timeout)

    rep = _probe(tmp_path, shipped, runner=runner)
    assert rep.check("LOAD-BURN").status == "pass"  # type: ignore[union-attr]
    assert rep.check("XID").status == "pass"  # type: ignore[union-attr]  # read before the load
    after = rep.check("LOAD-AFTER")
    assert after is not None and after.status == "fail", after
    assert "0000:9b:00 Xid 79" in after.message and "uncorrectable ECC errors 0 → 2" in after.message
    assert rep.exit_code() == 1


def test_a_healthy_node_raises_no_alarm(tmp_path: Path, fake_path: Path, shipped: Catalog) -> None:
    """The healthy captures (DCGM, nvbandwidth, NCCL, gpu_burn, nvlink -s/-e, the BMC) through the same fakes:
    nothing fails and nothing is unknown, the re-read after the load included; only LOAD-POWER cannot be judged,
    because this plan has no PSU (the plan's fault, said so)."""
    from tests.procurement.verify.checks.test_load import DCMI_215, SDR_OK, fake_ipmitool

    fake_tools(fake_path)
    fake_ipmitool(fake_path, DCMI_215, SDR_OK.read_text())
    rep = _probe(tmp_path, shipped)
    after = rep.check("LOAD-AFTER")
    assert after is not None and after.status == "pass", after
    alarms = {c.id: c.message for c in rep.checks if c.status in ("fail", "unknown")}
    assert list(alarms) == ["LOAD-POWER"] and "no power figure for PSU" in alarms["LOAD-POWER"], alarms


# ---------------------------------------------------------------- (6) launcher prefixes, the bandwidth floor


def _srun_label(text: str) -> str:
    """As `srun -l` prints rank 0's lines among 16 tasks: ' 0: ' before each (right-aligned label)."""
    return "".join(f" 0: {line}\n" for line in text.splitlines())


def _mpi_tag(text: str) -> str:
    return "".join(f"[1,0]<stdout>:{line}\n" for line in text.splitlines())


def test_launcher_prefixes_are_stripped_before_parsing() -> None:
    from procurement.verify.parse.load import strip_launcher_prefixes

    plain = NCCL_2NODE_H100.read_text()
    for tagged in (_srun_label(plain), _mpi_tag(plain)):
        assert strip_launcher_prefixes(tagged) == plain.rstrip("\n")
        r = parse_all_reduce(tagged)
        assert (r.peak_busbw_gbs, r.avg_busbw_gbs) == (464.79, 458.452)


def _two_node_plan():  # type: ignore[no-untyped-def]
    plan = h100_plan()
    return plan.model_copy(update={
        "requirements": plan.requirements.model_copy(update={"nodes": 2}),
        "server": plan.server.model_copy(update={"nics": [PartCount(part="connectx-7-ndr-400g", count=8)]})})


@pytest.mark.parametrize("tag", [_srun_label, _mpi_tag])
def test_cross_node_output_with_rank_prefixes_is_judged(tmp_path: Path, fake_path: Path, shipped: Catalog,
                                                        monkeypatch: pytest.MonkeyPatch, tag: Any) -> None:
    monkeypatch.setenv("SLURM_JOB_NUM_NODES", "2")
    monkeypatch.setenv("SLURM_NODEID", "0")
    fake_tools(fake_path)
    for name, capture, status in (("h100", NCCL_2NODE_H100, "pass"), ("a100", NCCL_2NODE_A100, "fail")):
        tagged = tmp_path / f"{name}.txt"
        tagged.write_text(tag(capture.read_text()))
        write_exe(fake_path, "srun", f"cat {shlex.quote(str(tagged))}\n")
        c = _probe(tmp_path / name, shipped, plan=_two_node_plan()).check("LOAD-NCCL-NODES")
        assert c is not None and c.status == status, c
    assert "48%" in c.message and "80% floor" in c.message  # the A100 pair: 182.8 of 384 GB/s


# ---------------------------------------------------------------- (7) a reader that crashes is named


def test_an_ibstat_that_panics_on_one_hca_is_named_not_a_missing_nic(shipped: Catalog) -> None:
    """ibstat printed four healthy CAs, then IBPANIC on the next one (exit 255): the ports it printed are Active;
    NIC-PORTS names the reader, the HCA and the error instead of saying a NIC is missing."""
    # the panic line as gpud's PR 752 shows ibstat printing it; the healthy CAs before it from the real capture
    panic = IBSTAT_PANIC.read_text().splitlines()[-1] + "\n"
    text = IBSTAT_ACTIVE.read_text()
    head = text[:text.index("CA 'mlx5_6'")]
    doc = _doc(ibstat=result(["ibstat"], 255, head, panic))
    doc["infiniband"] = []
    plan = _two_node_plan().model_copy(update={"requirements": h100_plan().requirements})
    rep = judge(doc, plan, shipped, None, "en")
    ports = rep.check("NIC-PORTS")
    assert ports is not None and ports.status == "unknown", ports
    assert "ibstat (mlx5_8): exit 255: ibpanic: [1323906] main: stat of IB device 'mlx5_8' failed" in ports.message
    assert "a NIC is missing" not in ports.message
    assert rep.check("NET-SPEED").status == "unknown"  # type: ignore[union-attr]
    # the pasted capture itself (stdout and stderr together): the Active port it printed is kept
    both = _doc(ibstat=result(["ibstat"], 255, IBSTAT_PANIC.read_text()))
    both["infiniband"] = []
    ports = judge(both, plan, shipped, None, "en").check("NIC-PORTS")
    assert ports is not None and ports.status == "unknown" and ports.actual == "1" and "mlx5_8" in ports.message


def test_ibv_devinfo_of_a_load_run_adds_the_hcas_a_panicking_ibstat_did_not_reach() -> None:
    """ibstat printed four CAs and panicked; the load run's ibv_devinfo saw another HCA: its port is added,
    the ports ibstat printed are kept once, and the reader error stays."""
    panic = IBSTAT_PANIC.read_text().splitlines()[-1] + "\n"
    text = IBSTAT_ACTIVE.read_text()
    doc = _doc(ibstat=result(["ibstat"], 255, text[:text.index("CA 'mlx5_6'")], panic))
    doc["infiniband"] = []
    ibv = (ACCEPT / "ib/ibv_devinfo-cx6dx-roce-port-down-deepep-60.txt").read_text()
    facts = Facts(smi=None, host=HostInfo())
    health_facts(doc, facts)
    printed = [(p.device, p.port) for p in facts.ib_ports or []]
    doc["load"] = {"tools": {"ibv_devinfo": result(["ibv_devinfo"], 0, ibv)}}
    facts = Facts(smi=None, host=HostInfo())
    health_facts(doc, facts)
    assert [(p.device, p.port) for p in facts.ib_ports or []] == [*printed, ("mlx5_12", "1")]
    assert printed and facts.ib_reader_error is not None


# ---------------------------------------------------------------- (8) one deadline for the whole run


def test_a_hung_tool_never_takes_the_run_past_its_deadline(tmp_path: Path, fake_path: Path, shipped: Catalog,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """dcgmi hangs (its own limit is 600 s). With --deadline 6 the run ends within the deadline plus the
    re-read; what the deadline cut short or never started is unknown and says so."""
    monkeypatch.setattr(rawmod, "AFTER_RESERVE_S", 2.0)
    fake_tools(fake_path)
    write_exe(fake_path, "dcgmi", "sleep 600\n")
    started = time.monotonic()
    rep = _probe(tmp_path, shipped, deadline=6.0)
    took = time.monotonic() - started
    assert took < 6.0 + 30, took
    dcgm = rep.check("LOAD-DCGM")
    assert dcgm is not None and dcgm.status == "unknown" and "deadline (6 s)" in dcgm.message, dcgm
    burn = rep.check("LOAD-BURN")
    assert burn is not None and burn.status == "unknown" and "before it started" in burn.message, burn
    assert rep.exit_code() == 3


def test_default_deadlines_follow_the_documented_durations() -> None:
    assert rawmod.default_deadline("quick") == 900 and rawmod.default_deadline("full") == 7200
    assert rawmod.default_deadline(None) == 600 and rawmod.default_deadline("quick", 600) == 1200


def test_a_tool_that_hangs_past_its_own_limit_fails(shipped: Catalog) -> None:
    doc = _doc()
    doc["load"] = {"level": "quick", "tools": {
        "dcgmi_diag": dict(result(["dcgmi", "diag", "-r", "1"], -9, "", timed_out=True), seconds=600.0, limit_s=600.0)},
        "samples": []}
    dcgm = judge(doc, h100_plan(), shipped, None, "en").check("LOAD-DCGM")
    assert dcgm is not None and dcgm.status == "fail" and "600 s limit" in dcgm.message, dcgm


def test_the_runner_stops_a_hung_program_at_its_timeout(tmp_path: Path) -> None:
    hang = write_exe(tmp_path, "hang", "sleep 600\n")
    started = time.monotonic()
    res = run_command([str(hang)], 0.5)
    assert res.timed_out and time.monotonic() - started < 10


# ---------------------------------------------------------------- --load full: the CUDA p2p test


P2P_PASS = ACCEPT / "p2p/p2pBandwidthLatencyTest-8xh100-sxm-pass.txt"


def test_the_full_run_adds_the_p2p_test(tmp_path: Path, fake_path: Path, shipped: Catalog) -> None:
    """The real 8x H100 capture passes with its slowest P2P-enabled pair recorded; the same output with one pair
    unable to reach its peer (as the sample prints it) fails on an NVLink plan; a crash fails."""
    fake_tools(fake_path)
    text = P2P_PASS.read_text()
    cannot = tmp_path / "cannot.txt"
    cannot.write_text(text.replace("Device=2 CAN Access Peer Device=5", "Device=2 CANNOT Access Peer Device=5"))
    for name, capture, code, status in (("ok", P2P_PASS, 0, "pass"), ("peer", cannot, 0, "fail"),
                                        ("crash", P2P_PASS, 139, "fail")):
        _replay(fake_path, "p2pBandwidthLatencyTest", capture, code)
        root = make_host_root(tmp_path / name / "root")
        opts = ProbeOptions(root=root, runner=host_runner_healthy(H100_XML), timeout=5, load="full", duration=1)
        p2p = run_probe(h100_plan(), shipped, opts, "en").check("LOAD-P2P")
        assert p2p is not None and p2p.status == status, (name, p2p)
        if name == "ok":
            assert p2p.actual == "min 365.3 GB/s", p2p
        if name == "peer":
            assert p2p.actual == "GPU2→GPU5"


@pytest.mark.parametrize(("lines", "read"), [(96, 35), (99, 56), (119, 56), (160, 56)])
def test_a_p2p_output_cut_off_is_unknown(shipped: Catalog, lines: int, read: int) -> None:
    """p2pBandwidthLatencyTest prints six matrices with a row per GPU, then its closing NOTE line: an output that
    stopped in the P2P=Enabled matrix has not measured every pair, and one that stopped later is not whole."""
    from tests.procurement.verify.checks.test_load import _judged_load

    p2p = _judged_load(shipped, "p2p_bandwidth", ["p2pBandwidthLatencyTest"], head(P2P_PASS, lines),
                       level="full").check("LOAD-P2P")
    assert p2p is not None and p2p.status == "unknown", (lines, p2p)
    assert "NOTE: The CUDA Samples" in p2p.message, p2p.message
    assert (f"{read} of 56 GPU pairs read" in p2p.message) == (read < 56), p2p.message
    if lines == 96:
        assert "missing: Unidirectional P2P=Enabled Bandwidth, Bidirectional P2P=Disabled Bandwidth" in p2p.message


def test_a_p2p_output_cut_after_a_missing_peer_still_fails(shipped: Catalog) -> None:
    from tests.procurement.verify.checks.test_load import _judged_load

    whole = _judged_load(shipped, "p2p_bandwidth", ["p2pBandwidthLatencyTest"], P2P_PASS.read_text(), level="full")
    assert whole.check("LOAD-P2P").status == "pass"  # type: ignore[union-attr]
    cut = head(P2P_PASS, 96).replace("Device=2 CAN Access Peer Device=5", "Device=2 CANNOT Access Peer Device=5")
    p2p = _judged_load(shipped, "p2p_bandwidth", ["p2pBandwidthLatencyTest"], cut, level="full").check("LOAD-P2P")
    assert p2p is not None and p2p.status == "fail" and p2p.actual == "GPU2→GPU5", p2p


def test_the_re_read_sees_a_gpu_gone_aer_and_nvlink_errors_grown(shipped: Catalog) -> None:
    """After the load: the last GPU no longer answers (its block missing from nvidia-smi -q -x), a fatal AER
    error on the first, and GPU 0 link 0 counting CRC errors it did not have before: each named."""
    from tests.procurement.verify.checks.test_load import NVLINK_E

    xml = H100_XML.read_text()
    last = xml.rindex("<gpu id=")
    gone = xml[:last] + xml[xml.index("</gpu>", last) + len("</gpu>"):]
    bus = rawmod.sysfs_bus_id(xml[xml.index('<gpu id="') + 9:xml.index('"', xml.index('<gpu id="') + 9)])
    clean = {"aer_dev_correctable": "TOTAL_ERR_COR 0\n", "aer_dev_nonfatal": "TOTAL_ERR_NONFATAL 0\n",
             "aer_dev_fatal": "TOTAL_ERR_FATAL 0\n"}
    nvlink = NVLINK_E.read_text()
    doc = _doc(nvidia_smi_nvlink_errors=result(["nvidia-smi", "nvlink", "-e"], 0, nvlink))
    doc["pci_aer"] = {bus: clean}
    doc["load"] = {"level": "quick", "tools": {}, "samples": [], "after": {
        "nvidia_smi_q": result(["nvidia-smi", "-q", "-x"], 0, gone),
        "nvidia_smi_nvlink_errors": result(["nvidia-smi", "nvlink", "-e"], 0,
                                           nvlink.replace("Link 0: CRC Errors: 0", "Link 0: CRC Errors: 5", 1)),
        "pci_aer": {bus: {**clean, "aer_dev_fatal": "TOTAL_ERR_FATAL 1\n"}},
        "kernel_log": dict(doc["kernel_log"]),
    }}
    after = judge(doc, h100_plan(), shipped, None, "en").check("LOAD-AFTER")
    assert after is not None and after.status == "fail", after
    assert "GPUs gone after the load: GPU7" in after.message
    assert f"{bus} AER fatal 0 → 1" in after.message and "GPU0 link 0 crc +5" in after.message


def test_verify_as_typed_exits_1_on_dcgms_exit_226(tmp_path: Path, fake_path: Path) -> None:
    """`gpu-procure verify --plan P --load quick --duration 1 --deadline 60 --json R` in a fresh interpreter,
    the fakes first on PATH: exit status 1 and the JSON report names LOAD-DCGM's failure."""
    import json
    import subprocess
    import sys

    from procurement.plan import GpuChoice, Plan, Requirements, save_plan
    from tests.conftest import REPO

    fake_tools(fake_path)
    _replay(fake_path, "dcgmi", DCGM_PASS, 226)
    plan, out = tmp_path / "p.gpuplan.yaml", tmp_path / "r.json"
    save_plan(Plan(requirements=Requirements(nodes=1, needs_nvlink=True),
                   gpu=GpuChoice(model="h100-sxm5-80gb", count=8)), plan)  # parts of the shipped catalog only
    argv = ["verify", "--plan", str(plan), "--load", "quick", "--duration", "1", "--deadline", "60", "--json",
            str(out), "--lang", "en"]
    code = f"import sys\nfrom gui.launch import main\nsys.exit(main({argv!r}))\n"
    env = {"PYTHONPATH": str(REPO), "PATH": f"{fake_path}:/usr/bin:/bin", "LANG": "C.UTF-8",
           "QT_QPA_PLATFORM": "offscreen", "HOME": str(tmp_path)}
    started = time.monotonic()
    res = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True,
                         timeout=120)
    assert time.monotonic() - started < 60 + 30
    assert res.returncode == 1, res.stdout[-2000:] + res.stderr[-2000:]
    checks = {c["id"]: c for c in json.loads(out.read_text())["checks"]}
    assert checks["LOAD-DCGM"]["status"] == "fail" and "exit 226" in checks["LOAD-DCGM"]["message"]
    assert checks["LOAD-AFTER"]["status"] in ("pass", "unknown")  # this machine's own kernel log may be closed


def test_replays_the_load_added_are_a_warning_after_it(shipped: Catalog) -> None:
    xml = H100_XML.read_text()
    more = xml.replace("<replay_counter>150</replay_counter>", "<replay_counter>4150</replay_counter>", 1)
    doc = _doc()
    doc["load"] = {"level": "quick", "tools": {}, "samples": [], "after": {
        "nvidia_smi_q": result(["nvidia-smi", "-q", "-x"], 0, more), "kernel_log": dict(doc["kernel_log"])}}
    after = judge(doc, h100_plan(), shipped, None, "en").check("LOAD-AFTER")
    assert after is not None and after.status == "warn" and "PCIe replays 150 → 4150" in after.message, after


def test_a_dcgm_warn_row_is_a_warning_not_a_pass(shipped: Catalog) -> None:
    text = DCGM_PASS.read_text()
    row = next(line for line in text.splitlines() if "| Pass" in line)
    warned = text.replace(row, row.replace("| Pass", "| Warn", 1), 1)
    doc = _doc()
    doc["load"] = {"level": "quick", "tools": {"dcgmi_diag": result(["dcgmi", "diag", "-r", "1"], 0, warned)},
                   "samples": []}
    dcgm = judge(doc, h100_plan(), shipped, None, "en").check("LOAD-DCGM")
    assert dcgm is not None and dcgm.status == "warn" and "Warn" in (dcgm.actual or ""), dcgm


def test_an_ibstat_failing_on_a_host_without_infiniband_is_not_a_reader_fault(shipped: Catalog) -> None:
    """sysfs lists no InfiniBand device and ibstat fails naming none: no IB here, so a short port count is
    still a missing NIC, not hidden behind an unknown."""
    doc = _doc(ibstat=result(["ibstat"], 255, "", "ibpanic: [4242] main: can't list IB device names: No such file "
                             "or directory\n"))
    doc["infiniband"] = []
    plan = _two_node_plan().model_copy(update={"requirements": h100_plan().requirements})
    ports = judge(doc, plan, shipped, None, "en").check("NIC-PORTS")
    assert ports is not None and ports.status == "fail", ports

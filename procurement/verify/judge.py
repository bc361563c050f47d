"""The judging half of verification: raw facts (procurement.verify.collect.raw) + plan + catalog -> report.

`gpu-procure verify` on this machine collects with procurement.verify.collect.raw and judges here; a raw file
collected elsewhere (the standalone probe) is judged by the very same function, so identical facts give
identical reports.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from catalog.loader import Catalog
from procurement.messages import Lang, t
from procurement.plan import Plan, canonical_digest
from procurement.policy import Policy
from procurement.verify.checks import Facts, evaluate, gpu_record, match_gpu
from procurement.verify.collect import raw as rawmod
from procurement.verify.collect.runner import CommandResult
from procurement.verify.host import HostInfo, command_result, host_from_raw
from procurement.verify.parse.aer import parse_aer
from procurement.verify.parse.fabricmanager import parse_fm_log
from procurement.verify.parse.ibstat import parse_ibstat
from procurement.verify.parse.ibv_devinfo import parse_ibv_devinfo
from procurement.verify.parse.infiniband import ib_ports_from_sysfs
from procurement.verify.parse.kernel_log import parse_kernel_faults, parse_xid
from procurement.verify.parse.load import load_facts
from procurement.verify.parse.smi_xml import SmiParseError, SmiReport, parse_smi_xml
from procurement.verify.parse.topo import Topology, TopoParseError, parse_topo
from procurement.verify.report import CheckRecord, CheckStatus, Coded, HostRecord, VerificationReport, make_check


class RawError(ValueError):
    """A document that is not raw facts this version can judge (wrong kind, newer schema, bad shape)."""


def check_raw(doc: Any, where: str = "<raw>") -> dict[str, Any]:
    """The document when it is a raw-facts object this version reads; RawError (naming why) otherwise."""
    if not isinstance(doc, dict):
        raise RawError(f"{where}: not a raw-facts document (expected a JSON object)")
    if doc.get("kind") != rawmod.KIND:
        if "checks" in doc and "gpus" in doc:
            raise RawError(f"{where}: this is a judged report, not raw facts (use `verify --merge` for reports)")
        raise RawError(f"{where}: kind is {doc.get('kind')!r}, not {rawmod.KIND!r}")
    version = doc.get("raw_schema_version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1 or version > rawmod.RAW_SCHEMA_VERSION:
        raise RawError(
            f"{where}: raw_schema_version {version!r} is not supported (this version reads 1 to "
            f"{rawmod.RAW_SCHEMA_VERSION})"
        )
    for key, kind in (("commands", dict), ("files", dict)):
        if not isinstance(doc.get(key), kind):
            raise RawError(f"{where}: {key}: expected an object")
    return doc


_SMI_ERRORS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"couldn't communicate with the NVIDIA driver", re.I), "no_driver"),
    (re.compile(r"No devices were found", re.I), "no_devices"),
    (re.compile(r"Driver/library version mismatch", re.I), "mismatch"),
    (re.compile(r"Unable to determine the device handle for (GPU\d+): ([0-9A-Fa-f:.]+)", re.I), "device"),
    # The classic per-GPU error line: 'GPU0000:B5:00.0: Unknown Error' (nvidia-smi exits 15).
    (re.compile(r"^\s*(GPU)([0-9A-Fa-f]{4,8}:[0-9A-Fa-f]{2}:[0-9A-Fa-f]{2}\.[0-7]):\s*\S", re.I), "device"),
    (re.compile(r"infoROM is corrupted at gpu ([0-9A-Fa-f:.]+)", re.I), "inforom"),
    (re.compile(r"GPU is lost|requires reset|fallen off the bus", re.I), "lost"),
)


def _explain(res: CommandResult, lang: Lang) -> tuple[str, str, str | None]:
    """(the line nvidia-smi printed about the fault, a hint what to do, the fault kind or None)."""
    text = "\n".join(x for x in (res.stderr, _before_xml(res.stdout)) if x)
    for pattern, kind in _SMI_ERRORS:
        for line in text.splitlines():
            m = pattern.search(line)
            if m:
                fields: dict[str, object] = {}
                if kind == "device":
                    fields["bus"] = f"{m.group(1)} {m.group(2)}"
                elif kind == "inforom":
                    fields["bus"] = m.group(1)
                return line.strip()[:300], t(f"verify.smi.hint.{kind}", lang, **fields), kind
    first = next((ln.strip() for ln in text.splitlines() if ln.strip()), "")
    return first[:300], t("verify.smi.hint.other", lang), None


def _before_xml(stdout: str) -> str:
    """What nvidia-smi printed on stdout before its XML (error lines land there too), or all of it."""
    at = stdout.find("<?xml")
    if at < 0:
        at = stdout.find("<nvidia_smi_log")
    return stdout if at < 0 else stdout[:at]


def _command(doc: Mapping[str, Any], name: str) -> dict[str, Any] | None:
    value = doc["commands"].get(name)
    return value if isinstance(value, dict) else None


def _smi_check(status: CheckStatus, key: str, lang: Lang, actual: str | None = None, /,
               **fields: object) -> CheckRecord:
    code = f"verify.smi.{key}"
    return make_check("NVIDIA-SMI", status, t(code, lang, **fields), None, actual, code, fields)


def smi_from_raw(
    doc: Mapping[str, Any], lang: Lang
) -> tuple[SmiReport | None, CheckRecord, str | None]:
    """Judge `nvidia-smi -q -x` as collected: (parsed report or None, the NVIDIA-SMI check, error when
    nothing usable)."""
    res = command_result(_command(doc, "nvidia_smi_q"), ("nvidia-smi", "-q", "-x"))
    timeout = doc.get("timeout_s") if isinstance(doc.get("timeout_s"), int | float) else 30.0

    def fail(key: str, **fields: object) -> tuple[None, CheckRecord, str]:
        check = _smi_check("fail", key, lang, **fields)
        return None, check, check.message

    if res.missing and not res.error:
        path = doc.get("nvidia_smi_path")
        where = str(path) if isinstance(path, str) and path != "nvidia-smi" else "PATH"
        # nvidia-smi missing is "no driver" only when nothing else of the driver is there: a loaded kernel
        # module (/proc/driver/nvidia/version) or an installed DCGM says the driver is, its tools are not
        files_found, programs_found = doc.get("files"), doc.get("programs")
        files: dict[str, Any] = files_found if isinstance(files_found, dict) else {}
        module = files.get("/proc/driver/nvidia/version")
        programs: dict[str, Any] = programs_found if isinstance(programs_found, dict) else {}
        others = [str(p) for n, p in programs.items() if n != "nvidia-smi" and p and n in ("dcgmi", "nv-hostengine")]
        if isinstance(module, str) and module.strip():
            return fail("missing_loaded", where=where, module=module.strip().splitlines()[0][:160])
        if others:
            return fail("missing_dcgm", where=where, tools=", ".join(others))
        return fail("missing", where=where)
    if res.error:
        return fail("not_run", detail=res.error)
    if res.timed_out:
        return fail("timeout", timeout=f"{timeout:g}")
    parsed: SmiReport | None = None
    reason = ""
    try:
        parsed = parse_smi_xml(res.stdout)
    except SmiParseError as exc:
        reason = str(exc)
    if res.returncode != 0:
        line, hint, _ = _explain(res, lang)
        if parsed is not None and parsed.gpus:  # some GPUs answered: verify those, flag the fault
            return parsed, _smi_check("fail", "partial", lang, f"exit {res.returncode}", text=line, hint=hint), None
        return fail("exit", code=res.returncode, text=line, hint=hint)
    if parsed is None:
        if res.left_running:  # what it printed before its leftover was killed is not a report
            return fail("left_running_empty", reason=reason)
        return fail("garbage", reason=reason)
    extra = (res.stderr + _before_xml(res.stdout)).strip()
    line, hint, kind = _explain(res, lang) if extra else ("", "", None)
    if res.left_running and kind is None:
        # exit 0 and a readable report, but a process it left behind held its output open (and was killed):
        # the report may be cut short, and whatever wraps nvidia-smi here is not what the driver ships
        return parsed, _smi_check("warn", "left_running", lang, "left running", n=len(parsed.gpus)), None
    if extra:
        # A fault line with exit 0 ('GPU0000:B5:00.0: Unknown Error', a corrupted infoROM) still fails;
        # any other text on stderr is shown as a warning, never dropped.
        status: CheckStatus = "fail" if kind is not None else "warn"
        return parsed, _smi_check(status, "partial", lang, "stderr", text=line, hint=hint), None
    return parsed, _smi_check("pass", "pass", lang, parsed.driver_version, driver=parsed.driver_version or "?",
                              n=len(parsed.gpus)), None


def host_record(host: HostInfo) -> HostRecord:
    return HostRecord(
        hostname=host.hostname,
        os=host.os_name,
        kernel=host.kernel,
        cpu_model=host.cpu_model,
        cpu_sockets=host.cpu_sockets,
        cpu_cores=host.cpu_cores,
        memory_gib=host.memory_gib,
        machine_id=host.machine_id,
        dmi_serial=host.dmi_serial,
        dmi_uuid=host.dmi_uuid,
        vendor=host.vendor,
        product=host.product,
    )


def build_report(
    smi: SmiReport | None,
    smi_check: CheckRecord | None,
    error: str | None,
    facts: Facts,
    plan: Plan | None,
    catalog: Catalog,
    lang: Lang,
    policy: Policy | None = None,
) -> VerificationReport:
    """Match GPUs to the catalog, run the checks and assemble the report (no I/O)."""
    if smi is not None:
        by_name = {name: match_gpu(name, catalog) for name in {g.name for g in smi.gpus}}
        facts.parts = {g.index: by_name[g.name] for g in smi.gpus}
    facts.smi_check = smi_check
    checks = evaluate(facts, plan, catalog, lang, policy)
    report = VerificationReport(
        host=host_record(facts.host),
        driver_version=smi.driver_version if smi else None,
        cuda_version=smi.cuda_version if smi else None,
        gpus=[gpu_record(g, facts.parts.get(g.index)) for g in smi.gpus] if smi else [],
        checks=checks,
        error=error,
        plan_digest=canonical_digest(plan) if plan is not None else None,
        plan_title=(plan.title or None) if plan is not None else None,
    )
    report.status = report.overall()
    return report


def topo_from_raw(doc: Mapping[str, Any]) -> tuple[Topology | None, str | None]:
    """(the matrix of `nvidia-smi topo -m`, or None with why)."""
    res = _command(doc, "nvidia_smi_topo")
    if res is None:
        return None, "nvidia-smi topo -m: not run"
    cr = command_result(res)
    if not cr.ok:
        first = next((ln.strip() for ln in (cr.stderr + "\n" + cr.stdout).splitlines() if ln.strip()), "")
        what = "timed out" if cr.timed_out else ("not found" if cr.missing else f"exit {cr.returncode}")
        return None, f"nvidia-smi topo -m: {what}" + (f": {first[:200]}" if first else "")
    try:
        return parse_topo(cr.stdout), None
    except TopoParseError as exc:
        return None, f"nvidia-smi topo -m: {exc}"


def health_facts(doc: Mapping[str, Any], facts: Facts) -> None:
    """The kernel log's Xid events, AER counters, IB ports, lspci and the Fabric Manager service."""
    _kernel_log_facts(doc, facts)
    _aer_facts(doc, facts)
    _ib_facts(doc, facts)
    _lspci_facts(doc, facts)
    nvlink = _command(doc, "nvidia_smi_nvlink")
    facts.nvlink = command_result(nvlink) if nvlink is not None else None
    nvlink_errors = _command(doc, "nvidia_smi_nvlink_errors")
    facts.nvlink_errors = command_result(nvlink_errors) if nvlink_errors is not None else None
    fm = _command(doc, "fabricmanager")
    if fm is not None:
        cr = command_result(fm)
        state = cr.stdout.strip().splitlines()[0] if cr.stdout.strip() else ""
        facts.fabricmanager = state or (None if cr.missing else "unknown")
    _fm_log_facts(doc, facts)


def _fm_log_facts(doc: Mapping[str, Any], facts: Facts) -> None:
    """Fabric Manager's log, or why it was not read (nothing at all from a collector before 1.3)."""
    log = doc.get("fabricmanager_log")
    if not isinstance(log, dict):
        return
    path = str(log.get("path") or "fabricmanager.log")
    if log.get("syslog"):
        facts.fm_log_error = f"{path}: LOG_USE_SYSLOG=1 sends it to syslog"
    elif isinstance(log.get("lines"), list):
        boot = log.get("boot")
        facts.fm_log = parse_fm_log(path, [str(x) for x in log["lines"]], boot if isinstance(boot, str) else None)
    else:
        facts.fm_log_error = f"{path}: {log.get('error') or 'not read'}"


def _kernel_log_facts(doc: Mapping[str, Any], facts: Facts) -> None:
    """Xid events and kernel faults from the kernel log, or why it could not be read."""
    log = doc.get("kernel_log")
    if isinstance(log, dict) and log.get("source") and isinstance(log.get("lines"), list) and \
            log.get("read_lines") != 0:
        lines = [str(x) for x in log["lines"]]
        facts.xid = parse_xid(lines)
        facts.kernel_faults = parse_kernel_faults(lines)
    elif isinstance(log, dict) and log.get("read_lines") == 0:
        facts.kernel_log_error = f"{log.get('source')}: exit 0 but printed nothing"
    else:
        why = log.get("error") if isinstance(log, dict) else None
        facts.kernel_log_error = str(why) if why else Coded(code="verify.val.kernel_log_not_collected")


def _aer_facts(doc: Mapping[str, Any], facts: Facts) -> None:
    """The PCIe AER counters of each bus address that has any."""
    aer = doc.get("pci_aer")
    if isinstance(aer, dict):
        for bus, entry in aer.items():
            if isinstance(entry, dict):
                counts = {
                    k: parse_aer(entry.get(f"aer_dev_{k}") if isinstance(entry.get(f"aer_dev_{k}"), str) else None)
                    for k in ("correctable", "nonfatal", "fatal")
                }
                if any(v is not None for v in counts.values()):
                    facts.aer[str(bus)] = counts


def _ib_facts(doc: Mapping[str, Any], facts: Facts) -> None:
    """InfiniBand ports: from sysfs, else ibstat (with ibv_devinfo filling in what a failing ibstat missed)."""
    sysfs = doc.get("infiniband")
    ibstat = command_result(_command(doc, "ibstat"))
    if isinstance(sysfs, list) and sysfs:
        facts.ib_ports = ib_ports_from_sysfs(sysfs)
    elif ibstat.ok:
        facts.ib_ports = parse_ibstat(ibstat.stdout)
    elif not ibstat.missing and _command(doc, "ibstat") is not None and (
            parse_ibstat(ibstat.stdout) or _HCA.search(f"{ibstat.stderr}\n{ibstat.stdout}") or ibstat.timed_out
            or not isinstance(sysfs, list)):
        # ibstat ran and failed on an HCA (crashed on one, timed out), or nothing else saw the adapters: the
        # ports it printed before are kept, and the reader is named with the HCA, its exit and its first error
        # line. (An ibstat that fails naming no HCA where sysfs lists none is a host without InfiniBand.)
        facts.ib_ports = parse_ibstat(ibstat.stdout)
        facts.ib_reader_error = reader_error(ibstat)
        # the verbs layer's view (ibv_devinfo, in a full load run) fills in the HCAs ibstat did not reach
        load = doc.get("load")
        ibv = command_result((load.get("tools") or {}).get("ibv_devinfo")) if isinstance(load, dict) else None
        if ibv is not None and ibv.ok:
            seen = {(p.device, p.port) for p in facts.ib_ports}
            facts.ib_ports += [p for p in parse_ibv_devinfo(ibv.stdout) if (p.device, p.port) not in seen]
    elif isinstance(sysfs, list):
        facts.ib_ports = []  # sysfs was read and has no InfiniBand devices


def _lspci_facts(doc: Mapping[str, Any], facts: Facts) -> None:
    """The lspci listing, or why there is none."""
    lspci = command_result(_command(doc, "lspci"))
    if lspci.ok and not lspci.stdout.strip():
        facts.lspci_error = "lspci -nn -D exited 0 but printed nothing"
    elif lspci.ok:
        facts.lspci = lspci.stdout
    else:
        facts.lspci_error = (
            Coded(code="verify.val.lspci_missing") if lspci.missing
            else f"lspci: {lspci.error or (lspci.stderr.strip()[:200] or f'exit {lspci.returncode}')}"
        )


def tuning_facts(doc: Mapping[str, Any], facts: Facts, after_setup: bool = False) -> None:
    """The files the host tuning check reads and the MIG listings (absent from a collector before 1.2: those
    checks are then unknown, or skip where the plan asks nothing of them)."""
    files = doc.get("files")
    facts.files = {str(k): v for k, v in files.items() if v is None or isinstance(v, str)} \
        if isinstance(files, dict) else {}
    for name, attr in (("nvidia_smi_mig_lgi", "mig_lgi"), ("nvidia_smi_list", "gpu_list")):
        found = _command(doc, name)
        setattr(facts, attr, command_result(found) if found is not None else None)
    facts.after_setup = after_setup


_HCA = re.compile(r"'?\b((?:mlx\d+|hfi\d+|irdma|bnxt_re|rxe|qedr|efa)[_\w]*)\b'?")
"""An RDMA adapter's name as the kernel gives it (mlx5_3, irdma0, …)."""


def reader_error(res: CommandResult) -> str:
    """'ibstat (mlx5_3): exit 1: <first error line>': the tool, the device its error names, how it ended."""
    from procurement.verify.parse.load import error_line, exit_text

    text = f"{res.stderr}\n{res.stdout}" if res.stderr.strip() else res.stdout
    line = error_line(text)
    dev = _HCA.search(line)
    how = ("timed out" if res.timed_out else res.error if res.error and not res.returncode
           else exit_text(res.returncode) or "exit 0")
    name = res.argv[0] if res.argv else "?"
    return f"{name}{f' ({dev.group(1)})' if dev else ''}: {how}: {line}"


def judge(
    doc: Mapping[str, Any],
    plan: Plan | None,
    catalog: Catalog,
    policy: Policy | None = None,
    lang: Lang = "zh",
    after_setup: bool = False,
) -> VerificationReport:
    """The report for one machine from its raw facts (no I/O, no programs run); ``policy`` gives the
    thresholds (PSU headroom for LOAD-POWER), None the shipped policy; ``after_setup``: the handover's
    setup has run, so a host not tuned as planned fails (TUNE-*, MIG-LAYOUT) instead of warning."""
    check_raw(doc)
    smi, smi_check, error = smi_from_raw(doc, lang)
    topo, topo_error = topo_from_raw(doc) if smi is not None and len(smi.gpus) > 1 else (None, None)
    host = host_from_raw(dict(doc))
    facts = Facts(smi=smi, host=host, topo=topo, topo_error=topo_error)
    health_facts(doc, facts)
    facts.load = load_facts(dict(doc))
    deadline = doc.get("deadline_s")
    facts.deadline_s = float(deadline) if isinstance(deadline, int | float) else None
    tuning_facts(doc, facts, after_setup)
    bench = doc.get("benchmark")
    if isinstance(bench, dict):
        if isinstance(bench.get("gpus"), list):
            facts.benchmark = bench
        else:
            why = str(bench.get("skip") or "-")
            facts.benchmark_skip = t(f"verify.bench.{why}", lang) if why in ("no_gpu", "no_torch") else why
    return build_report(smi, smi_check, error, facts, plan, catalog, lang, policy)


__all__ = ["RawError", "build_report", "check_raw", "host_record", "judge", "smi_from_raw", "topo_from_raw",
           "tuning_facts"]

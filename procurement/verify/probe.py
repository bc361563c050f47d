"""Runs every probe on this machine and builds the VerificationReport (progress and cancel for the GUI)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from catalog.loader import Catalog
from catalog.models import ContainerImage
from procurement.messages import Lang, t
from procurement.plan import Plan, canonical_digest
from procurement.verify.bench import BENCH_TIMEOUT_S, run_benchmark
from procurement.verify.checks import Facts, evaluate, gpu_record, match_gpu
from procurement.verify.host import HostInfo, HostProbe
from procurement.verify.report import CheckRecord, HostRecord, VerificationReport
from procurement.verify.runner import CancelFlag, CommandResult, Runner, run_command
from procurement.verify.smi_xml import SmiParseError, SmiReport, parse_smi_xml
from procurement.verify.topo import Topology, TopoParseError, parse_topo

DEFAULT_TIMEOUT_S = 30.0

Progress = Callable[[int, int, str], None]
"""progress(step, total, label): called before each step and once with step == total at the end."""


class VerificationCancelled(Exception):
    """The cancel flag was set; the running program was killed."""


@dataclass
class ProbeOptions:
    nvidia_smi: str | Path | None = None
    """Path to nvidia-smi; None: look it up on PATH."""
    timeout: float = DEFAULT_TIMEOUT_S
    """Per-program limit in seconds; a program still running after it is killed (its process group)."""
    benchmark: bool = False
    bench_timeout: float = BENCH_TIMEOUT_S
    root: Path = Path("/")
    """Where /proc, /sys and /etc are read from (tests point it at a fake tree)."""
    runner: Runner | None = None
    """Runs programs; None: the real runner, bound to the cancel flag."""
    python: str | None = None
    """Interpreter for the framework and benchmark children (default: this one)."""


_SMI_ERRORS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"couldn't communicate with the NVIDIA driver", re.I), "no_driver"),
    (re.compile(r"No devices were found", re.I), "no_devices"),
    (re.compile(r"Driver/library version mismatch", re.I), "mismatch"),
    (re.compile(r"Unable to determine the device handle for (GPU\d+): ([0-9A-Fa-f:.]+)", re.I), "device"),
)


def _explain(res: CommandResult, lang: Lang) -> tuple[str, str]:
    """(the line nvidia-smi printed about the fault, a hint what to do)."""
    text = "\n".join(x for x in (res.stderr, res.stdout) if x)
    for pattern, kind in _SMI_ERRORS:
        for line in text.splitlines():
            m = pattern.search(line)
            if m:
                fields = {"bus": f"{m.group(1)} {m.group(2)}"} if kind == "device" else {}
                return line.strip(), t(f"verify.smi.hint.{kind}", lang, **fields)
    first = next((ln.strip() for ln in text.splitlines() if ln.strip()), "")
    return first[:300], t("verify.smi.hint.other", lang)


def probe_smi(
    options: ProbeOptions, runner: Runner, lang: Lang
) -> tuple[SmiReport | None, CheckRecord, str | None]:
    """Run `nvidia-smi -q -x`: (parsed report or None, the NVIDIA-SMI check, error when nothing usable)."""
    exe = str(options.nvidia_smi) if options.nvidia_smi else "nvidia-smi"
    res = runner((exe, "-q", "-x"), options.timeout)

    def fail(message: str) -> tuple[None, CheckRecord, str]:
        return None, CheckRecord(id="NVIDIA-SMI", status="fail", actual=None, message=message), message

    if res.cancelled:
        raise VerificationCancelled(t("verify.cancelled", lang))
    if res.missing and not res.error:
        where = str(options.nvidia_smi) if options.nvidia_smi else "PATH"
        return fail(t("verify.smi.missing", lang, where=where))
    if res.error:
        return fail(t("verify.smi.not_run", lang, detail=res.error))
    if res.timed_out:
        return fail(t("verify.smi.timeout", lang, timeout=f"{options.timeout:g}"))
    parsed: SmiReport | None = None
    reason = ""
    try:
        parsed = parse_smi_xml(res.stdout)
    except SmiParseError as exc:
        reason = str(exc)
    if res.returncode != 0:
        line, hint = _explain(res, lang)
        if parsed is not None and parsed.gpus:  # some GPUs answered: verify those, flag the fault
            msg = t("verify.smi.partial", lang, text=line, hint=hint)
            return (
                parsed,
                CheckRecord(id="NVIDIA-SMI", status="fail", actual=f"exit {res.returncode}", message=msg),
                None,
            )
        return fail(t("verify.smi.exit", lang, code=res.returncode, text=line, hint=hint))
    if parsed is None:
        return fail(t("verify.smi.garbage", lang, reason=reason))
    problem = _explain(res, lang) if res.stderr.strip() else None
    if problem and any(p.search(problem[0]) for p, _ in _SMI_ERRORS):
        return (
            parsed,
            CheckRecord(
                id="NVIDIA-SMI",
                status="fail",
                actual="stderr",
                message=t("verify.smi.partial", lang, text=problem[0], hint=problem[1]),
            ),
            None,
        )
    return (
        parsed,
        CheckRecord(
            id="NVIDIA-SMI",
            status="pass",
            expected=None,
            actual=parsed.driver_version,
            message=t("verify.smi.pass", lang, driver=parsed.driver_version or "?", n=len(parsed.gpus)),
        ),
        None,
    )


def probe_topology(options: ProbeOptions, runner: Runner) -> Topology | None:
    exe = str(options.nvidia_smi) if options.nvidia_smi else "nvidia-smi"
    res = runner((exe, "topo", "-m"), options.timeout)
    if res.cancelled:
        raise VerificationCancelled()
    if not res.ok:
        return None
    try:
        return parse_topo(res.stdout)
    except TopoParseError:
        return None


def host_record(host: HostInfo) -> HostRecord:
    return HostRecord(
        hostname=host.hostname,
        os=host.os_name,
        kernel=host.kernel,
        cpu_model=host.cpu_model,
        cpu_sockets=host.cpu_sockets,
        cpu_cores=host.cpu_cores,
        memory_gib=host.memory_gib,
    )


def build_report(
    smi: SmiReport | None,
    smi_check: CheckRecord | None,
    error: str | None,
    facts: Facts,
    plan: Plan | None,
    catalog: Catalog,
    lang: Lang,
) -> VerificationReport:
    """Match GPUs to the catalog, run the checks and assemble the report (no I/O)."""
    if smi is not None:
        facts.parts = {g.index: match_gpu(g.name, catalog) for g in smi.gpus}
    checks = ([smi_check] if smi_check else []) + evaluate(facts, plan, catalog, lang)
    return VerificationReport(
        host=host_record(facts.host),
        driver_version=smi.driver_version if smi else None,
        cuda_version=smi.cuda_version if smi else None,
        gpus=[gpu_record(g, facts.parts.get(g.index)) for g in smi.gpus] if smi else [],
        checks=checks,
        error=error,
        plan_digest=canonical_digest(plan) if plan is not None else None,
        plan_title=(plan.title or None) if plan is not None else None,
    )


def run_probe(
    plan: Plan | None,
    catalog: Catalog,
    options: ProbeOptions | None = None,
    lang: Lang = "zh",
    progress: Progress | None = None,
    cancel: CancelFlag | None = None,
) -> VerificationReport:
    """Probe this machine and check it against ``plan`` (None: inventory and health checks).

    Safe to call from a worker thread: it touches no GUI state, reports through ``progress`` and stops
    (killing a running nvidia-smi) soon after ``cancel.is_set()`` becomes true, raising VerificationCancelled.
    """
    options = options or ProbeOptions()
    runner: Runner = options.runner or (lambda argv, timeout: run_command(argv, timeout, cancel))
    steps = ["smi", "topo", "host", "software"] + (["bench"] if options.benchmark else []) + ["checks"]
    total = len(steps)

    def step(i: int, key: str) -> None:
        if cancel is not None and cancel.is_set():
            raise VerificationCancelled(t("verify.cancelled", lang))
        if progress is not None:
            progress(i, total, t(f"verify.step.{key}", lang))

    host = HostInfo()
    probe = HostProbe(options.root, runner, options.timeout, options.python)
    step(0, "smi")
    smi, smi_check, error = probe_smi(options, runner, lang)
    step(1, "topo")
    topo = probe_topology(options, runner) if smi is not None and len(smi.gpus) > 1 else None
    step(2, "host")
    probe.identity(host)
    probe.cpu(host)
    probe.memory(host)
    probe.disks(host)
    probe.network(host)
    step(3, "software")
    image = catalog.typed(ContainerImage, plan.software.image) if plan and plan.software.image else None
    probe.toolkit(host)
    probe.containers(host, image.reference if image else None)
    probe.frameworks(host)
    facts = Facts(smi=smi, host=host, topo=topo)
    i = 4
    if options.benchmark:
        step(i, "bench")
        i += 1
        if smi is None or not smi.gpus:
            facts.benchmark_skip = t("verify.bench.no_gpu", lang)
        elif not any(v.get("cuda_available") for k, v in host.frameworks.items() if k == "torch"):
            facts.benchmark_skip = t("verify.bench.no_torch", lang)
        else:
            result, reason = run_benchmark(runner, probe.python, options.bench_timeout)
            facts.benchmark, facts.benchmark_skip = result, reason
    step(i, "checks")
    report = build_report(smi, smi_check, error, facts, plan, catalog, lang)
    if progress is not None:
        progress(total, total, t("verify.step.done", lang))
    return report


def report_from_outputs(
    smi_xml: str,
    catalog: Catalog,
    plan: Plan | None = None,
    lang: Lang = "zh",
    host: HostInfo | None = None,
    topo_text: str | None = None,
) -> VerificationReport:
    """Build a report from captured outputs (used by the benchmark and to re-check saved captures)."""
    smi = parse_smi_xml(smi_xml)
    topo = None
    if topo_text:
        try:
            topo = parse_topo(topo_text)
        except TopoParseError:
            topo = None
    check = CheckRecord(
        id="NVIDIA-SMI",
        status="pass",
        actual=smi.driver_version,
        message=t("verify.smi.pass", lang, driver=smi.driver_version or "?", n=len(smi.gpus)),
    )
    return build_report(
        smi, check, None, Facts(smi=smi, host=host or HostInfo(), topo=topo), plan, catalog, lang
    )


__all__: Sequence[str] = (
    "DEFAULT_TIMEOUT_S",
    "ProbeOptions",
    "Progress",
    "VerificationCancelled",
    "build_report",
    "probe_smi",
    "report_from_outputs",
    "run_probe",
)

"""Runs every probe on this machine and builds the VerificationReport (progress and cancel for the GUI)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from catalog.loader import Catalog
from catalog.models import ContainerImage
from procurement.messages import Lang, t
from procurement.plan import Plan
from procurement.verify.bench import BENCH_TIMEOUT_S, run_benchmark
from procurement.verify.checks import Facts
from procurement.verify.collect import raw
from procurement.verify.collect.runner import CancelFlag, Runner, run_command
from procurement.verify.host import HostInfo, default_python, host_from_raw, raw_run
from procurement.verify.judge import build_report, health_facts, judge, tuning_facts
from procurement.verify.parse.smi_xml import parse_smi_xml
from procurement.verify.parse.topo import TopoParseError, parse_topo
from procurement.verify.report import VerificationReport, make_check

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
    load: str | None = None
    """'quick' or 'full': run the acceptance tools (docs/verify.md, "Load"); None: no load."""
    duration: float | None = None
    """Seconds of the concurrent burn (default: raw.BURN_SECONDS[load])."""
    hostfile: Path | None = None
    """With a load run: an Open MPI hostfile of the nodes to run NCCL across (Slurm allocations need none)."""
    deadline: float | None = None
    """Seconds the whole run may take (None: raw.default_deadline, the documented durations)."""
    after_setup: bool = False
    """The handover's setup has run: a host not tuned as planned fails (TUNE-*, MIG-LAYOUT) instead of warning."""


def collect(
    plan: Plan | None,
    catalog: Catalog,
    options: ProbeOptions | None = None,
    progress: Callable[[str], None] | None = None,
    cancel: CancelFlag | None = None,
) -> dict[str, Any]:
    """The raw facts of this machine (procurement.verify.collect.raw), with the optional PyTorch benchmark."""
    options = options or ProbeOptions()
    runner: Runner = options.runner or (lambda argv, timeout: run_command(argv, timeout, cancel))
    image = catalog.typed(ContainerImage, plan.software.image) if plan and plan.software.image else None
    python = options.python or default_python()
    try:
        doc = raw.collect(
            root=str(options.root),
            run=raw_run(runner),
            timeout=options.timeout,
            nvidia_smi=str(options.nvidia_smi) if options.nvidia_smi else None,
            python=python,
            image=image.reference if image else None,
            cancel=cancel,
            progress=progress,
            load=options.load,
            duration=options.duration,
            hostfile=str(options.hostfile) if options.hostfile else None,
            deadline=options.deadline,
        )
        doc["timeout_s"] = options.timeout
        if options.benchmark:
            if progress is not None:
                progress("bench")
            doc["benchmark"] = _benchmark(doc, runner, python, options.bench_timeout)
    except raw.Cancelled:
        raise VerificationCancelled() from None
    return doc


def _benchmark(doc: dict[str, Any], runner: Runner, python: str, timeout: float) -> dict[str, Any]:
    host = host_from_raw(doc)
    q = doc["commands"].get("nvidia_smi_q") or {}
    if not raw.ok(q) or "<gpu " not in (q.get("stdout") or ""):
        return {"skip": "no_gpu"}
    if not any(v.get("cuda_available") for k, v in host.frameworks.items() if k == "torch"):
        return {"skip": "no_torch"}
    result, reason = run_benchmark(runner, python, timeout)
    return result if result is not None else {"skip": reason or "-"}


def run_probe(
    plan: Plan | None,
    catalog: Catalog,
    options: ProbeOptions | None = None,
    lang: Lang = "zh",
    progress: Progress | None = None,
    cancel: CancelFlag | None = None,
) -> VerificationReport:
    """Probe this machine and check it against ``plan`` (None: inventory and health checks).

    Collect (procurement.verify.collect.raw) then judge (procurement.verify.judge): the same path a raw file from
    another machine takes. Safe to call from a worker thread: it touches no GUI state, reports through
    ``progress`` and stops (killing a running program) soon after ``cancel.is_set()`` becomes true,
    raising VerificationCancelled.
    """
    options = options or ProbeOptions()
    steps = ["smi", "topo", "host", "software"] + (["load"] if options.load else []) + (
        ["bench"] if options.benchmark else []) + ["checks"]
    total = len(steps)

    def step(key: str) -> None:
        if cancel is not None and cancel.is_set():
            raise VerificationCancelled(t("verify.cancelled", lang))
        if progress is not None:
            tool = key.partition(":")[2]
            key = key.partition(":")[0]
            label = t(f"verify.step.{key}", lang) + (f": {tool}" if tool else "")
            progress(steps.index(key), total, label)

    try:
        doc = collect(plan, catalog, options, step, cancel)
    except VerificationCancelled:
        raise VerificationCancelled(t("verify.cancelled", lang)) from None
    step("checks")
    report = judge(doc, plan, catalog, None, lang, options.after_setup)
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
    health: dict[str, Any] | None = None,
) -> VerificationReport:
    """Build a report from captured outputs (the benchmark, screenshots, saved captures).

    ``health``: raw-facts keys (procurement.verify.collect.raw) for the health checks: `kernel_log`, `pci_aer`,
    `infiniband`, and `commands` (`lspci`, `ibstat`, `fabricmanager`, `nvidia_smi_mig_lgi`), and `files` for
    the host tuning; without them those checks are unknown, as on a machine where they could not be read.
    """
    smi = parse_smi_xml(smi_xml)
    topo = None
    topo_error = None
    if topo_text:
        try:
            topo = parse_topo(topo_text)
        except TopoParseError as exc:
            topo_error = str(exc)
    check = make_check(
        "NVIDIA-SMI", "pass", t("verify.smi.pass", lang, driver=smi.driver_version or "?", n=len(smi.gpus)),
        None, smi.driver_version, "verify.smi.pass", {"driver": smi.driver_version or "?", "n": len(smi.gpus)},
    )
    facts = Facts(smi=smi, host=host or HostInfo(), topo=topo, topo_error=topo_error or "nvidia-smi topo -m: not run")
    doc = raw.new_raw()
    doc.update(health or {})
    health_facts(doc, facts)
    tuning_facts(doc, facts)
    return build_report(smi, check, None, facts, plan, catalog, lang)


__all__: Sequence[str] = (
    "DEFAULT_TIMEOUT_S",
    "ProbeOptions",
    "Progress",
    "VerificationCancelled",
    "build_report",
    "collect",
    "report_from_outputs",
    "run_probe",
)

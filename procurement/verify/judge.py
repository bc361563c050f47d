"""The judging half of verification: raw facts (procurement.verify.raw) + plan + catalog -> report.

`gpu-procure verify` on this machine collects with procurement.verify.raw and judges here; a raw file
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
from procurement.verify import raw as rawmod
from procurement.verify.checks import Facts, evaluate, gpu_record, match_gpu
from procurement.verify.host import HostInfo, command_result, host_from_raw
from procurement.verify.report import CheckRecord, HostRecord, VerificationReport
from procurement.verify.runner import CommandResult
from procurement.verify.smi_xml import SmiParseError, SmiReport, parse_smi_xml
from procurement.verify.topo import Topology, TopoParseError, parse_topo


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
    if not isinstance(version, int) or version < 1 or version > rawmod.RAW_SCHEMA_VERSION:
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


def _command(doc: Mapping[str, Any], name: str) -> dict[str, Any] | None:
    value = doc["commands"].get(name)
    return value if isinstance(value, dict) else None


def smi_from_raw(
    doc: Mapping[str, Any], lang: Lang
) -> tuple[SmiReport | None, CheckRecord, str | None]:
    """Judge `nvidia-smi -q -x` as collected: (parsed report or None, the NVIDIA-SMI check, error when
    nothing usable)."""
    res = command_result(_command(doc, "nvidia_smi_q"), ("nvidia-smi", "-q", "-x"))
    timeout = doc.get("timeout_s") if isinstance(doc.get("timeout_s"), int | float) else 30.0

    def fail(message: str) -> tuple[None, CheckRecord, str]:
        return None, CheckRecord(id="NVIDIA-SMI", status="fail", actual=None, message=message), message

    if res.missing and not res.error:
        path = doc.get("nvidia_smi_path")
        where = str(path) if isinstance(path, str) and path != "nvidia-smi" else "PATH"
        return fail(t("verify.smi.missing", lang, where=where))
    if res.error:
        return fail(t("verify.smi.not_run", lang, detail=res.error))
    if res.timed_out:
        return fail(t("verify.smi.timeout", lang, timeout=f"{timeout:g}"))
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


def topo_from_raw(doc: Mapping[str, Any]) -> Topology | None:
    res = _command(doc, "nvidia_smi_topo")
    if res is None:
        return None
    cr = command_result(res)
    if not cr.ok:
        return None
    try:
        return parse_topo(cr.stdout)
    except TopoParseError:
        return None


def judge(
    doc: Mapping[str, Any],
    plan: Plan | None,
    catalog: Catalog,
    policy: object = None,
    lang: Lang = "zh",
) -> VerificationReport:
    """The report for one machine from its raw facts (no I/O, no programs run)."""
    check_raw(doc)
    del policy  # thresholds come from the policy file once the health checks read them
    smi, smi_check, error = smi_from_raw(doc, lang)
    topo = topo_from_raw(doc) if smi is not None and len(smi.gpus) > 1 else None
    host = host_from_raw(dict(doc))
    facts = Facts(smi=smi, host=host, topo=topo)
    bench = doc.get("benchmark")
    if isinstance(bench, dict):
        if isinstance(bench.get("gpus"), list):
            facts.benchmark = bench
        else:
            why = str(bench.get("skip") or "-")
            facts.benchmark_skip = t(f"verify.bench.{why}", lang) if why in ("no_gpu", "no_torch") else why
    return build_report(smi, smi_check, error, facts, plan, catalog, lang)


__all__ = ["RawError", "build_report", "check_raw", "host_record", "judge", "smi_from_raw", "topo_from_raw"]

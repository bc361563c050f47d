"""Combines the reports of many nodes into one result checked against the plan's node count."""

from __future__ import annotations

import datetime as dt
import json
import zlib
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from procurement import verification_texts  # noqa: F401  (registers the messages)
from procurement.exit_status import ExitStatus
from procurement.messages import Lang, t
from procurement.plan import Plan, canonical_digest
from procurement.safe_io import write_file
from procurement.verify.report import (
    MERGED_KIND,
    SCHEMA_VERSION,
    CheckRecord,
    CheckStatus,
    Coded,
    GpuRecord,
    ReportError,
    VerificationReport,
    load_report,
    make_check,
    report_to_dict,
)


@dataclass
class MergedReport:
    nodes: list[VerificationReport]
    sources: list[str]
    """Where each node's report came from (file path), same order as ``nodes``."""
    checks: list[CheckRecord] = field(default_factory=list)
    """Cluster-level checks: NODE-COUNT, NODE-UNIQUE, NODE-PLAN, NODE-GPU-UNIQUE, NODE-RESULTS,
    NODE-SAME-DRIVER, NODE-SAME-GPUS, NODE-SAME-VBIOS, NODE-NCCL."""
    created: str = field(default_factory=lambda: dt.datetime.now(dt.timezone.utc).replace(microsecond=0).isoformat())
    node_json: list[bytes] | None = None
    """Each node's JSON as the merged file writes it, zlib-compressed, when ``nodes`` hold only what merging
    needs (:func:`load_reports_compact`); None: the nodes are whole."""

    def exit_code(self) -> int:
        """1 any node or cluster check failed (whatever else is unknown), 3 nothing verifiable or something
        unknown, 0 every node and cluster check passed."""
        statuses = {c.status for c in self.checks}
        if "fail" in statuses or any(n.exit_code() == ExitStatus.FAILED for n in self.nodes):
            return ExitStatus.FAILED
        if not self.nodes or all(n.error is not None for n in self.nodes):
            return ExitStatus.INCOMPLETE  # nothing could be verified
        return ExitStatus.INCOMPLETE if "unknown" in statuses else ExitStatus.OK

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema_version": SCHEMA_VERSION,
            "kind": MERGED_KIND,
            "created": self.created,
            "nodes": [report_to_dict(n) for n in self.nodes],
            "checks": [c.model_dump(mode="json") for c in self.checks],
        }

    def to_dict_without_nodes(self) -> dict[str, Any]:
        return {"schema_version": SCHEMA_VERSION, "kind": MERGED_KIND, "created": self.created,
                "checks": [c.model_dump(mode="json") for c in self.checks]}


MAX_HOST_NAME = 253
"""A DNS name has at most 253 characters (RFC 1035): a longer one is shown cut (a 10 MB one was copied into
every message about the node)."""


def node_name(report: VerificationReport, source: str = "") -> str:
    name = report.host.hostname or Path(source).stem or "?"
    return name if len(name) <= MAX_HOST_NAME else name[:MAX_HOST_NAME - 1] + "…"


def node_key(report: VerificationReport, source: str = "") -> str:
    """What identifies the machine: DMI serial/UUID or machine-id, the host name only when none was
    readable (four fresh installs may all be called 'ubuntu'), compared without case as DNS compares it."""
    return report.host.identity() or f"host:{node_name(report, source).lower()}"


def node_label(report: VerificationReport, source: str, names: Sequence[str] | Counter[str]) -> str:
    """The host name, with a short identity when several nodes share that name. ``names``: every node's host
    name, or their Counter (what merge_reports passes: counting in the list for every node was quadratic,
    a third of a second at 2,048 nodes and half a minute at 20,000 on the loaded build machine)."""
    name = node_name(report, source)
    ident = report.host.identity()
    shared = (names[name] if isinstance(names, Counter) else names.count(name)) > 1
    if ident and shared:
        return f"{name} [{ident.split(':', 1)[1][:12]}]"
    if not ident and shared and source:
        return f"{name} ({Path(source).name})"
    return name


def vbios_summary(report: VerificationReport) -> str:
    """'NVIDIA H100 80GB HBM3: 96.00.99.00.01 / 692-2G520-0200-000', one entry per distinct combination."""
    seen = sorted({f"{g.name or '?'}: {g.vbios_version or '?'} / {g.board_part_number or '?'}" for g in report.gpus})
    return "; ".join(seen) or "-"


def gpu_summary(report: VerificationReport) -> str:
    names = Counter(g.name or "?" for g in report.gpus)
    return ", ".join(f"{c}× {n}" for n, c in names.items()) or "-"


def merge_reports(
    reports: Sequence[VerificationReport],
    plan: Plan | None = None,
    lang: Lang = "zh",
    sources: Sequence[str] | None = None,
) -> MergedReport:
    """One result for a cluster: node count vs plan, duplicates, failing nodes, consistency across nodes."""
    srcs = list(sources) if sources is not None else ["" for _ in reports]
    merged = MergedReport(nodes=list(reports), sources=srcs)
    hostnames = [node_name(r, s) for r, s in zip(reports, srcs, strict=True)]
    counts = Counter(hostnames)
    names = [node_label(r, s, counts) for r, s in zip(reports, srcs, strict=True)]
    keys = [node_key(r, s) for r, s in zip(reports, srcs, strict=True)]

    def add(
        check_id: str,
        status: CheckStatus,
        key: str,
        expected: object = None,
        actual: object = None,
        **fields: object,
    ) -> None:
        code = f"verify.merge.{key}"
        merged.checks.append(make_check(check_id, status, t(code, lang, **fields), expected, actual, code, fields,
                                        lang))

    n = len(set(keys))
    _node_count(plan, n, add)
    _node_unique(hostnames, keys, n, add)
    if plan is not None:
        _plan_identity(plan, reports, names, add, lang)
    _gpu_identity(reports, names, add)
    _node_results(reports, names, add, lang)
    if plan is not None and plan.requirements.nodes > 1:
        _cross_node(reports, names, plan.requirements.nodes, add)
    _same_across_nodes(reports, add, lang)
    return merged


def _node_count(plan: Plan | None, n: int, add: Any) -> None:
    """NODE-COUNT: the distinct machines reported against the plan's node count."""
    if plan is None:
        add("NODE-COUNT", "skip", "node_count.no_plan", None, n, n=n)
        return
    want = plan.requirements.nodes
    if n == want:
        add("NODE-COUNT", "pass", "node_count.pass", want, n)
    elif n < want:
        add("NODE-COUNT", "fail", "node_count.fail", want, n, n=n, want=want)
    else:
        add("NODE-COUNT", "warn", "node_count.more", want, n, n=n, want=want)


def repeated_machines(keys: Sequence[str]) -> set[str]:
    """The machine keys (:func:`node_key`) that more than one report carries: the same machine reported twice
    (NODE-UNIQUE; the handover refuses each of those reports)."""
    return {k for k, c in Counter(keys).items() if c > 1}


def _node_unique(hostnames: Sequence[str], keys: Sequence[str], n: int, add: Any) -> None:
    """NODE-UNIQUE: the host names of machines reported more than once."""
    dupe_keys = repeated_machines(keys)
    dupes = sorted({nm for nm, k in zip(hostnames, keys, strict=True) if k in dupe_keys})
    if dupes:
        add("NODE-UNIQUE", "warn", "duplicate", None, ", ".join(dupes), names=", ".join(dupes))
    else:
        add("NODE-UNIQUE", "pass", "unique", None, n)


def _node_results(reports: Sequence[VerificationReport], names: Sequence[str], add: Any, lang: Lang) -> None:
    """NODE-RESULTS: every node that is not a pass is named, whatever else is wrong with other nodes."""
    errored = [nm for nm, r in zip(names, reports, strict=True) if r.error is not None]
    failed = [nm for nm, r in zip(names, reports, strict=True)
              if r.error is None and r.overall() == "fail"]
    unknown = [nm for nm, r in zip(names, reports, strict=True)
               if r.error is None and r.overall() == "unknown"]
    if errored or failed:
        parts = []
        if failed:
            parts.append(t("verify.merge.nodes.failed_list", lang, nodes=", ".join(failed)))
        if errored:
            parts.append(t("verify.merge.nodes.error_list", lang, nodes=", ".join(errored)))
        if unknown:
            parts.append(t("verify.merge.nodes.unknown_list", lang, nodes=", ".join(unknown)))
        add("NODE-RESULTS", "fail", "nodes.not_passed", None, ", ".join(failed + errored + unknown),
            detail=" ".join(parts))
    elif unknown:
        add("NODE-RESULTS", "unknown", "nodes.not_passed", None, ", ".join(unknown),
            detail=t("verify.merge.nodes.unknown_list", lang, nodes=", ".join(unknown)))
    else:
        add("NODE-RESULTS", "pass", "nodes.pass", None, len(reports))


def _same_across_nodes(reports: Sequence[VerificationReport], add: Any, lang: Lang) -> None:
    """NODE-SAME-DRIVER, NODE-SAME-GPUS, NODE-SAME-VBIOS: one value across the nodes. A node whose value could
    not be read is not counted as equal: different known values warn, else any unread value is unknown."""
    readable = [r for r in reports if r.error is None]
    for check_id, what, values in (
        ("NODE-SAME-DRIVER", "driver", [(r.driver_version, r.driver_version is not None) for r in readable]),
        ("NODE-SAME-GPUS", "gpus", [(gpu_summary(r), bool(r.gpus)) for r in readable]),
        ("NODE-SAME-VBIOS", "vbios", [(vbios_summary(r), all(g.vbios_version for g in r.gpus))
                                      for r in readable if r.gpus]),
    ):
        label = t(f"verify.merge.what.{what}", lang)
        distinct = sorted({v or "-" for v, known in values if known})
        unread = sum(1 for _v, known in values if not known)
        if len(distinct) > 1:
            add(check_id, "warn", "same.warn", None, " | ".join(distinct), what=label, values=" | ".join(distinct))
        elif unread:
            add(check_id, "unknown", "same.unknown", None, distinct[0] if distinct else None, what=label, n=unread)
        elif distinct:
            add(check_id, "pass", "same.pass", None, distinct[0], what=label)


_WORST = {"fail": 3, "unknown": 2, "warn": 1, "pass": 0}


def _cross_node(reports: Sequence[VerificationReport], names: Sequence[str], planned: int, add: Any) -> None:
    """NODE-NCCL: the network between the nodes, from the node that ran NCCL across them (LOAD-NCCL-NODES;
    under Slurm the allocation's first node). Load runs without one leave the network untested: unknown."""
    loaded = [r for r in reports if any(c.id.startswith("LOAD-") for c in r.checks)]
    if not loaded:
        return  # no load run at all: nothing was put under load, and the node reports say so
    across = [(nm, c) for nm, r in zip(names, reports, strict=True) for c in r.checks
              if c.id == "LOAD-NCCL-NODES" and c.status != "skip"]
    if not across:
        add("NODE-NCCL", "unknown", "nccl.none", None, None, nodes=planned)
        return
    node, c = max(across, key=lambda x: _WORST.get(x[1].status, 2))
    expected = Coded(code=c.expected_code, params=c.expected_params) if c.expected_code else c.expected
    actual = Coded(code=c.actual_code, params=c.actual_params) if c.actual_code else c.actual
    add("NODE-NCCL", c.status, "nccl.from", expected, actual, node=node)


def _plan_identity(
    plan: Plan, reports: Sequence[VerificationReport], names: Sequence[str], add: Any, lang: Lang
) -> None:
    """NODE-PLAN: a node's checks count only when they were run against this very plan (its digest)."""
    digest = canonical_digest(plan)
    unchecked = [nm for nm, r in zip(names, reports, strict=True) if r.plan_digest is None]
    other = [
        f"{nm} ({r.plan_title})" if r.plan_title else nm
        for nm, r in zip(names, reports, strict=True)
        if r.plan_digest is not None and r.plan_digest != digest
    ]
    if not unchecked and not other:
        add("NODE-PLAN", "pass", "plan.pass", digest[:12], len(reports))
        return
    parts = []
    if unchecked:
        parts.append(t("verify.merge.plan.none", lang, nodes=", ".join(unchecked)))
    if other:
        parts.append(t("verify.merge.plan.other", lang, nodes=", ".join(other)))
    add("NODE-PLAN", "fail", "plan.fail", digest[:12], ", ".join(unchecked + other), detail=" ".join(parts))


def gpu_ids(reports: Sequence[VerificationReport], names: Sequence[str]) -> dict[str, set[str]]:
    """Each readable GPU serial and UUID -> the ``names`` of the reports listing it (placeholders such as
    `N/A` left out)."""
    seen: dict[str, set[str]] = {}
    for nm, r in zip(names, reports, strict=True):
        for g in r.gpus:
            for ident in (g.serial, g.uuid):
                if ident and ident.strip() and ident.strip().upper() not in ("N/A", "[N/A]", "0"):
                    seen.setdefault(ident.strip(), set()).add(nm)
    return seen


def shared_gpu_ids(seen: dict[str, set[str]]) -> list[tuple[str, list[str]]]:
    """(GPU serial or UUID, the names listing it) for those in more than one report, sorted: the cards a
    report copied under another host name counts twice (NODE-GPU-UNIQUE; the handover refuses those reports)."""
    return sorted((ident, sorted(nodes)) for ident, nodes in seen.items() if len(nodes) > 1)


def _gpu_identity(reports: Sequence[VerificationReport], names: Sequence[str], add: Any) -> None:
    """NODE-GPU-UNIQUE: a GPU serial or UUID reported by more than one node (a report copied under another
    host name counts the same cards twice)."""
    seen = gpu_ids(reports, names)
    shared = shared_gpu_ids(seen)
    if not shared:
        add("NODE-GPU-UNIQUE", "pass", "gpu_ids.pass", None, len(seen))
        return
    text = "; ".join(f"{ident}: {', '.join(nodes)}" for ident, nodes in shared[:5])
    more = len(shared) - 5
    add("NODE-GPU-UNIQUE", "fail", "gpu_ids.fail", None, text, ids=text, n=len(shared),
        more=f" (+{more})" if more > 0 else "")


def load_reports(paths: Sequence[str | Path]) -> tuple[list[VerificationReport], list[str], list[str]]:
    """(reports, their sources, one error line per unreadable file)."""
    reports, sources, errors = [], [], []
    for path in paths:
        try:
            reports.append(load_report(path))
            sources.append(str(path))
        except ReportError as exc:
            errors.append(str(exc))
    return reports, sources, errors


def _node_chunk(report: VerificationReport) -> bytes:
    """One node as it appears in the merged file's ``nodes`` list (indent 2, at depth 2), compressed."""
    text = json.dumps(report_to_dict(report), ensure_ascii=False, indent=2, allow_nan=False)
    return zlib.compress(("    " + text.replace("\n", "\n    ")).encode("utf-8", "backslashreplace"), 6)


_PASSED: dict[tuple[str, str], CheckRecord] = {}
_GPU_FIELDS = ("index", "name", "uuid", "serial", "vbios_version", "board_part_number")
"""What the cluster checks read of a GPU: its model (NODE-SAME-GPUS), VBIOS (NODE-SAME-VBIOS), ids (NODE-GPU-UNIQUE)."""


def compact(report: VerificationReport) -> VerificationReport:
    """What merging and its table need of a node: every check's id and status (counts, overall result), the
    failing and unknown checks in full (they are printed), the host, versions, plan identity and GPUs. A check
    that passed, warned or was skipped becomes one shared id+status record."""
    checks = []
    for c in report.checks:
        if c.status in ("fail", "unknown") or c.id == "LOAD-NCCL-NODES":  # NODE-NCCL shows its values
            checks.append(c)
        else:
            key = (c.id, c.status)
            if key not in _PASSED:
                _PASSED[key] = CheckRecord.model_construct(id=c.id, status=c.status)
            checks.append(_PASSED[key])
    gpus = [GpuRecord.model_construct(**{f: _shared(getattr(g, f)) for f in _GPU_FIELDS}) for g in report.gpus]
    return report.model_copy(update={"checks": checks, "gpus": gpus})


_STRINGS: dict[str, str] = {}


def _shared(value: Any) -> Any:
    """One copy of a string many nodes repeat (GPU model, VBIOS version); ids stay as they are."""
    if isinstance(value, str) and len(value) < 100:
        return _STRINGS.setdefault(value, value) if len(_STRINGS) < 100_000 else value
    return value


def load_reports_compact(
    paths: Sequence[str | Path],
    refuse: Callable[[VerificationReport, str | Path], list[str]] | None = None,
) -> tuple[list[VerificationReport], list[str], list[str], list[bytes]]:
    """:func:`load_reports` for `verify --merge` of many nodes: each report is read, turned into its compressed
    JSON for the merged file and a :func:`compact` record, and dropped before the next is read. Memory grows by
    a few KB per node instead of the ~190 KB a whole parsed report and its share of the output took
    (docs/reliability.md). ``refuse``: why a report read cannot be taken (its reasons become errors)."""
    reports, sources, errors, chunks = [], [], [], []
    for path in paths:
        try:
            report = load_report(path)
        except ReportError as exc:
            errors.append(str(exc))
            continue
        problems = refuse(report, path) if refuse is not None else []
        if problems:
            errors.extend(problems)
            continue
        chunks.append(_node_chunk(report))
        reports.append(compact(report))
        sources.append(str(path))
    return reports, sources, errors, chunks


def write_merged(merged: MergedReport, path: str | Path, inputs: Sequence[str | Path] = ()) -> None:
    """Write the merged report with the safe writer (``-``: standard output), never over one of ``inputs``.
    Compact nodes are written from their stored JSON, one at a time into the output (the same bytes as one
    dump of the whole report)."""
    if merged.node_json is None:
        text = json.dumps(merged.to_dict(), ensure_ascii=False, indent=2, allow_nan=False) + "\n"
        write_file(path, text.encode("utf-8", "backslashreplace"), inputs=inputs, allow_stdout=True)
        return
    whole = merged.to_dict_without_nodes()
    head = {k: whole[k] for k in ("schema_version", "kind", "created")} | {"nodes": [], "checks": whole["checks"]}
    skeleton = json.dumps(head, ensure_ascii=False, indent=2, allow_nan=False) + "\n"
    before, after = skeleton.split('"nodes": []', 1)
    out = bytearray(before.encode("utf-8", "backslashreplace"))
    out += b'"nodes": ['
    for i, chunk in enumerate(merged.node_json):
        out += b"\n" if i == 0 else b",\n"
        out += zlib.decompress(chunk)
    out += b"\n  ]" if merged.node_json else b"]"
    out += after.encode("utf-8", "backslashreplace")
    write_file(path, out, inputs=inputs, allow_stdout=True)  # a bytearray: no second copy of the output

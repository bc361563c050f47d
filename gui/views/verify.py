"""What step 5 shows: a row per node and per GPU with its verdict, mark and problem, from the reports' own verdicts.

The verdict of a node is its report's ``overall()`` (procurement/verification_report.py), of a GPU the worst
of the verify module's per-GPU verdicts (procurement.findings.worst_verdict): a report whose every check was
skipped verified nothing and is unknown, never a pass. The page only puts these rows into its tables.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from procurement.findings import worst_verdict
from procurement.verification_report import GpuRecord, VerificationReport

if TYPE_CHECKING:
    from catalog.loader import Catalog

MARKS = {"pass": "✔", "fail": "✘", "warn": "⚠", "unknown": "?", "skip": "–", "missing": "…"}
"""The mark shown beside each verdict ('missing': a planned node without a report yet)."""

ProblemKind = Literal["", "error", "checks", "nothing_verified", "missing"]


@dataclass(frozen=True)
class NodeRow:
    """One row of the Nodes table."""

    index: int | None
    """The report behind the row (its position in the plan's reports); None for a node without a report."""
    node: str | None
    """The host name (None: the report does not say)."""
    verdict: str
    os: Any = None
    driver: Any = None
    cuda: Any = None
    gpus: int = 0
    counts: tuple[int, int, int] = (0, 0, 0)
    """Checks that passed, failed, warned."""
    problem: ProblemKind = ""
    """What keeps the node from passing: the probing error, the checks that failed or could not be decided,
    nothing verified (every check skipped), or no report yet."""
    detail: str = ""
    """The error text, or the ids of those checks joined with ', '."""

    @property
    def mark(self) -> str:
        return MARKS.get(self.verdict, "?")


def node_row(index: int, report: VerificationReport) -> NodeRow:
    """The row of an attached report: the verdict is the report's own (``overall()``)."""
    verdict = report.overall()
    statuses = [c.status for c in report.checks]
    if report.error:
        problem: ProblemKind = "error"
        detail = str(report.error)
    elif verdict == "unknown" and all(s == "skip" for s in statuses):
        problem, detail = "nothing_verified", ""
    else:
        wanted = {"fail": ("fail",), "unknown": ("unknown", "skip"), "warn": ("warn",)}.get(verdict, ())
        detail = ", ".join(c.id for c in report.checks if c.status in wanted)
        problem = "checks" if detail else ""
    host = report.host
    return NodeRow(index=index, node=host.hostname or None, verdict=verdict, os=host.os,
                   driver=report.driver_version, cuda=report.cuda_version, gpus=len(report.gpus),
                   counts=(statuses.count("pass"), statuses.count("fail"), statuses.count("warn")),
                   problem=problem, detail=detail)


def missing_row(name: str) -> NodeRow:
    """A planned node that has not reported yet."""
    return NodeRow(index=None, node=name, verdict="missing", problem="missing")


def gpu_status(gpu: dict[str, Any] | GpuRecord, catalog: Catalog) -> tuple[str, str]:
    """A GPU's verdict (the worst of the verify module's per-GPU verdicts) and which verdicts are not a pass;
    'skip' where nothing about it was checked."""
    from procurement.verify import gpu_verdicts

    if isinstance(gpu, GpuRecord):
        record = gpu
    else:
        try:
            record = GpuRecord.model_validate(gpu)
        except ValueError:
            return "skip", ""
    verdicts = gpu_verdicts(record, catalog.gpu(record.catalog_id))
    if not verdicts:
        return "skip", ""
    worst = worst_verdict(verdicts.values())
    return worst, ", ".join(f"{k}: {v}" for k, v in verdicts.items() if v != "pass")

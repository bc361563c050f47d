"""A Finding: one problem or hint the rules report about a plan, in the buyer's language."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from catalog.compat import StrEnum


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


SEVERITY_ORDER = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.INFO: 2}

Family = Literal["power", "cooling", "pcie", "balance", "software", "budget", "vram", "licensing", "signoff", "waiver",
                 "checklist"]


class Waived(BaseModel):
    """Who accepted a finding on purpose, when and why (procurement.waivers)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    reason: str
    by: str
    date: str


class Finding(BaseModel):
    """Rule id (stable, e.g. POWER-PSU-CAPACITY), where it points in the plan, and what to do."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    rule: str = Field(pattern=r"^[A-Z0-9]+(-[A-Z0-9]+)+$")
    family: Family
    severity: Severity
    step: int = Field(ge=1, le=5)
    fields: tuple[str, ...] = ()
    """Paths in the plan ('server.psu.count') so the GUI can point at them."""
    message: str
    fix: str = ""
    params: tuple[tuple[str, str], ...] = Field(default=(), exclude=True)
    """The values the message was made from (name, value as printed), in the same form in every language: a
    waiver compares them to tell whether the finding still fires with the numbers it was waived at. Left out of
    model_dump, like ``waived``."""
    waived: Waived | None = Field(default=None, exclude=True)
    """Set when the plan waives this finding: shown as waived, not hidden; exit statuses ignore it. Left out of
    model_dump (findings_json adds it where set), so findings of plans without waivers serialise as before."""


def verification_severity(reports: Sequence[Mapping[str, object]]) -> tuple[Severity | None, int]:
    """How bad the attached verification reports are (for step 5's mark): the worst as a severity and the
    number of failed checks. A report whose probing failed (``error`` set) counts as an error."""
    worst: Severity | None = None
    failed = 0
    for report in reports:
        checks = report.get("checks")
        for check in checks if isinstance(checks, list) else []:
            status = check.get("status") if isinstance(check, Mapping) else None
            if status == "fail":
                failed += 1
                worst = Severity.ERROR
            elif status == "warn" and worst is None:
                worst = Severity.WARNING
        if report.get("error"):
            worst = Severity.ERROR
    return worst, failed

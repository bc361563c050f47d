"""The VerificationReport JSON document: its schema, atomic write, and loading with located errors."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from procurement.plan import atomic_write

SCHEMA_VERSION: Literal[1] = 1
CheckStatus = Literal["pass", "fail", "warn", "skip"]
STATUSES: tuple[CheckStatus, ...] = ("pass", "fail", "warn", "skip")


class _Record(BaseModel):
    # Reports written by a newer gpu-procure may carry more fields; reading them must still work.
    model_config = ConfigDict(extra="ignore")


class HostRecord(_Record):
    hostname: str | None = None
    os: str | None = None
    kernel: str | None = None
    cpu_model: str | None = None
    cpu_sockets: int | None = None
    cpu_cores: int | None = None
    memory_gib: float | None = None


class GpuRecord(_Record):
    index: int
    name: str | None
    """Exactly as nvidia-smi reports it."""
    catalog_id: str | None = None
    uuid: str | None = None
    serial: str | None = None
    memory_total_mib: int | None = None
    pcie_gen_current: int | None = None
    pcie_gen_max: int | None = None
    pcie_width_current: int | None = None
    pcie_width_max: int | None = None
    power_limit_w: float | None = None
    persistence_mode: bool | None = None
    ecc_enabled: bool | None = None
    temperature_c: int | None = None
    mig_mode: bool | None = None


class CheckRecord(_Record):
    id: str = Field(pattern=r"^[A-Z0-9]+(-[A-Z0-9]+)*$")
    status: CheckStatus
    expected: str | None = None
    actual: str | None = None
    message: str = ""


def make_check(check_id: str, status: CheckStatus, message: str, expected: object = None,
               actual: object = None) -> CheckRecord:
    """A check with expected/actual shown as text (None stays None)."""
    return CheckRecord(id=check_id, status=status, message=message,
                       expected=None if expected is None else str(expected),
                       actual=None if actual is None else str(actual))


class VerificationReport(_Record):
    """What `gpu-procure verify --json` writes for one machine (see docs/verify.md)."""

    schema_version: Literal[1] = SCHEMA_VERSION
    created: str = Field(default_factory=lambda: dt.datetime.now(dt.timezone.utc).replace(microsecond=0).isoformat())
    host: HostRecord = Field(default_factory=HostRecord)
    driver_version: str | None = None
    cuda_version: str | None = None
    gpus: list[GpuRecord] = Field(default_factory=list)
    checks: list[CheckRecord] = Field(default_factory=list)
    error: str | None = None
    """None, or why probing failed (nvidia-smi missing, hanging, failing, unreadable)."""
    plan_digest: str | None = None
    """procurement.plan.canonical_digest of the plan the node was checked against (None: no plan)."""
    plan_title: str | None = None
    """That plan's title, for people reading the report (the digest is what merging compares)."""

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = dict.fromkeys(STATUSES, 0)
        for c in self.checks:
            out[c.status] += 1
        return out

    def check(self, check_id: str) -> CheckRecord | None:
        return next((c for c in self.checks if c.id == check_id), None)

    def exit_code(self) -> int:
        """0 all pass (warnings and skips allowed), 1 any check failed, 3 nothing could be verified."""
        if self.error is not None:
            return 3
        return 1 if any(c.status == "fail" for c in self.checks) else 0


class ReportError(ValueError):
    """A report file that cannot be read, naming the file and the field."""


def report_to_dict(report: VerificationReport) -> dict[str, Any]:
    return report.model_dump(mode="json")


def report_to_json(report: VerificationReport) -> str:
    return json.dumps(report_to_dict(report), ensure_ascii=False, indent=2) + "\n"


def write_report(report: VerificationReport, path: str | Path) -> None:
    atomic_write(path, report_to_json(report).encode("utf-8"))


def parse_report(data: Any, where: str = "<report>") -> VerificationReport:
    """Validate a report object (e.g. one stored in Plan.verification)."""
    if not isinstance(data, dict):
        raise ReportError(f"{where}: not a verification report (expected a JSON object)")
    version = data.get("schema_version")
    if version != SCHEMA_VERSION:
        raise ReportError(
            f"{where}: schema_version: {version!r} is not supported (this version reads {SCHEMA_VERSION})"
        )
    try:
        return VerificationReport.model_validate(data)
    except ValidationError as exc:
        lines = []
        for err in exc.errors(include_url=False):
            loc = ".".join(f"[{p}]" if isinstance(p, int) else str(p) for p in err["loc"]).replace(".[", "[")
            lines.append(f"{where}: {loc}: {err['msg']}")
        raise ReportError("\n".join(lines)) from None


def load_report(path: str | Path) -> VerificationReport:
    """Read a report written by `gpu-procure verify --json` (on this or another node)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ReportError(f"{path}: cannot read ({exc.strerror or exc})") from None
    except UnicodeDecodeError:
        raise ReportError(f"{path}: not a UTF-8 text file") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ReportError(f"{path}:{exc.lineno}: not valid JSON ({exc.msg})") from None
    return parse_report(data, str(path))

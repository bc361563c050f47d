"""The VerificationReport JSON document: its schema, atomic write, and loading with located errors."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from procurement.exit_status import ExitStatus
from procurement.safe_io import InputFileError, read_bounded_text, write_file

SCHEMA_VERSION: Literal[2] = 2
"""2 (2026-12): `unknown` status, check `code`/`params`, `kind`, `status`, node identity, per-GPU bus id,
VBIOS, board part number and faults. Version 1 files are migrated on load (migrate_report)."""
KIND = "gpu-procure-report"
MERGED_KIND = "gpu-procure-merged-report"
CheckStatus = Literal["pass", "fail", "warn", "unknown", "skip"]
STATUSES: tuple[CheckStatus, ...] = ("pass", "fail", "warn", "unknown", "skip")
"""`unknown`: the check was planned but could not be read or run (with the reason); never a pass.
`skip`: the check does not apply (no plan to compare with, an optional tool) and was not asked for."""


def tool_version() -> str:
    try:
        from importlib.metadata import PackageNotFoundError, version

        return version("gpu-procure")
    except (ImportError, PackageNotFoundError):
        return "0+unknown"


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
    machine_id: str | None = None
    """/etc/machine-id (changes with an OS re-install)."""
    dmi_serial: str | None = None
    """DMI system serial number (needs root on most systems)."""
    dmi_uuid: str | None = None
    vendor: str | None = None
    product: str | None = None

    def identity(self) -> str | None:
        """What tells this machine from another, best first: DMI serial, DMI UUID, machine-id; None if none
        was readable (then only the host name is left, which four fresh installs may share)."""
        for prefix, value in (("serial", self.dmi_serial), ("uuid", self.dmi_uuid), ("machine-id", self.machine_id)):
            if value:
                return f"{prefix}:{value}"
        return None


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
    bus_id: str | None = None
    """PCI bus id ('00000000:53:00.0'): which slot 'GPU3' is."""
    vbios_version: str | None = None
    board_part_number: str | None = None
    faults: list[str] = Field(default_factory=list)
    """Readings nvidia-smi could not take because of a fault ('fb_memory_usage/total: [Unknown Error]')."""


Param = str | int | float | bool | None


class CheckRecord(_Record):
    id: str = Field(pattern=r"^[A-Z0-9]+(-[A-Z0-9]+)*$")
    status: CheckStatus
    expected: str | None = None
    actual: str | None = None
    message: str = ""
    """The message rendered in the language of the run (for readers without gpu-procure)."""
    code: str | None = None
    """Language-neutral message code (a key of procurement.messages, e.g. 'verify.gpu_memory.fail');
    readers render `code` with `params` in their own language (procurement.verify.render.check_message)."""
    params: dict[str, Param] = Field(default_factory=dict)


def make_check(check_id: str, status: CheckStatus, message: str, expected: object = None,
               actual: object = None, code: str | None = None,
               params: dict[str, object] | None = None) -> CheckRecord:
    """A check with expected/actual shown as text (None stays None)."""
    return CheckRecord(id=check_id, status=status, message=message,
                       expected=None if expected is None else str(expected),
                       actual=None if actual is None else str(actual),
                       code=code, params={k: _param(v) for k, v in (params or {}).items()})


def _param(value: object) -> Param:
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return str(value)


class VerificationReport(_Record):
    """What `gpu-procure verify --json` writes for one machine (see docs/verify.md)."""

    schema_version: Literal[2] = SCHEMA_VERSION
    kind: Literal["gpu-procure-report"] = "gpu-procure-report"
    tool_version: str = Field(default_factory=tool_version)
    status: CheckStatus | None = None
    """Overall: fail if any check failed, else unknown if any was unknown, else warn, else pass (set when
    the report is built; see overall())."""
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

    def overall(self) -> CheckStatus:
        """fail > unknown > warn > pass; a report that could not probe at all is unknown at best."""
        statuses = {c.status for c in self.checks}
        for s in ("fail", "unknown", "warn"):
            if s in statuses:
                return s
        if self.error is not None or not statuses - {"skip"}:
            return "unknown"
        return "pass"

    def exit_code(self) -> int:
        """0 every check passed (warnings and not-applicable skips allowed), 1 a check failed, 3 a check is
        unknown or nothing could be verified (procurement.exit_status)."""
        if self.error is not None:
            return ExitStatus.INCOMPLETE
        return {"fail": ExitStatus.FAILED, "unknown": ExitStatus.INCOMPLETE}.get(self.overall(), ExitStatus.OK)


class ReportError(ValueError):
    """A report file that cannot be read, naming the file and the field."""


def schema_text() -> str:
    """The JSON Schema of a node report, as shipped in docs/schemas/verification-report.schema.json."""
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://gpu-procure/verification-report.schema.json",
        **VerificationReport.model_json_schema(),
    }
    return json.dumps(schema, indent=2, ensure_ascii=False, sort_keys=True) + "\n"


def report_to_dict(report: VerificationReport) -> dict[str, Any]:
    return report.model_dump(mode="json")


def report_to_json(report: VerificationReport) -> str:
    """The report as JSON (never NaN or Infinity: those are not JSON, and readers reject them)."""
    return json.dumps(report_to_dict(report), ensure_ascii=False, indent=2, allow_nan=False) + "\n"


def write_report(report: VerificationReport, path: str | Path, inputs: Sequence[str | Path] = ()) -> None:
    """Write the report with the safe writer; ``-`` is standard output; never over one of ``inputs``."""
    # a lone surrogate (a hostname read from a report's \ud800 escape) stays a JSON escape, not a crash
    write_file(path, report_to_json(report).encode("utf-8", "backslashreplace"), inputs=inputs, allow_stdout=True)


def parse_report(data: Any, where: str = "<report>") -> VerificationReport:
    """Validate a report object (e.g. one stored in Plan.verification)."""
    if not isinstance(data, dict):
        raise ReportError(f"{where}: not a verification report (expected a JSON object)")
    if data.get("kind") == MERGED_KIND or "nodes" in data:
        raise ReportError(f"{where}: a merged cluster report, not one node's report (merge the node reports "
                          "it was made from instead)")
    if data.get("kind") == "gpu-procure-raw":
        raise ReportError(f"{where}: raw facts, not a judged report (judge them first: `gpu-procure judge`)")
    data = migrate_report(data, where)
    try:
        return VerificationReport.model_validate(data)
    except ValidationError as exc:
        lines = []
        for err in exc.errors(include_url=False):
            loc = ".".join(f"[{p}]" if isinstance(p, int) else str(p) for p in err["loc"]).replace(".[", "[")
            lines.append(f"{where}: {loc}: {err['msg']}")
        raise ReportError("\n".join(lines)) from None


def migrate_report(data: dict[str, Any], where: str = "<report>") -> dict[str, Any]:
    """A report of an older schema_version brought to the current one (the input is not changed)."""
    version = data.get("schema_version")
    if version == 1:
        data = dict(data)
        # v1 had no kind, no unknown status and no codes: its checks keep their rendered messages, and
        # its 'skip' meant both 'does not apply' and 'could not read'; it is kept as written.
        data["schema_version"] = 2
        data.setdefault("kind", KIND)
        data.setdefault("tool_version", "0+unknown")
        version = 2
    if version != SCHEMA_VERSION:
        raise ReportError(
            f"{where}: schema_version: {version!r} is not supported (this version reads 1 to {SCHEMA_VERSION})"
        )
    return data


def load_report(path: str | Path) -> VerificationReport:
    """Read a report written by `gpu-procure verify --json` (on this or another node)."""
    path = Path(path)
    try:
        text = read_bounded_text(path)  # bounded: /dev/zero or an endless pipe is refused, not read whole
    except InputFileError as exc:
        raise ReportError(f"{path}: {exc.strerror}") from None
    except OSError as exc:
        raise ReportError(f"{path}: cannot read ({exc.strerror or exc})") from None
    except UnicodeDecodeError:
        raise ReportError(f"{path}: not a UTF-8 text file") from None
    return parse_report(_json_of(text, str(path)), str(path))


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


MAX_JSON_VALUES = 100_000
"""At most this many values in one report file, counted from its commas and brackets (an upper bound) before
parsing: a 19 MB report of small objects built millions of Python objects (a 386 MB merge input took 2.5 GB).
The report of the largest capture in tests/fixtures (8 × H100) counts 539; a file just under the limit whose
every value is wrong peaks at ~150 MB RSS in `verify --merge` (docs/reliability.md)."""


def _json_of(text: str, where: str, max_values: int | None = MAX_JSON_VALUES) -> Any:
    """Strict JSON: NaN and Infinity refused (Python's json reads them; no other reader does), more than
    MAX_JSON_VALUES values refused before parsing, and nesting too deep for the parser a located error
    instead of a RecursionError."""
    if (max_values is not None and len(text) > max_values
            and text.count(",") + text.count("{") + text.count("[") > max_values):
        raise ReportError(f"{where}: more than {max_values:,} values; a verification report holds far "
                          "fewer (refused before parsing)")
    try:
        return json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise ReportError(f"{where}:{exc.lineno}: not valid JSON ({exc.msg})") from None
    except ValueError as exc:  # NaN/Infinity, or an integer of more than 4 300 digits
        raise ReportError(f"{where}: not valid JSON ({exc})") from None
    except RecursionError:
        raise ReportError(f"{where}: not valid JSON (nested too deeply)") from None


strict_json = _json_of
"""Strict JSON for every report-like file (node reports, raw facts): see ``_json_of``."""

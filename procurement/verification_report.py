"""The VerificationReport JSON document: its schema, atomic write, loading with located errors, and its values
rendered in the reader's language.

It sits below the plan and the checklist (which store and show reports) and imports nothing of
procurement.verify, which judges machines and builds reports (procurement.verify.report re-exports it)."""

from __future__ import annotations

import datetime as dt
import functools
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from procurement import verification_texts  # noqa: F401  (registers the messages)
from procurement.coded import Coded as Coded
from procurement.coded import Param as Param
from procurement.coded import Scalar as Scalar
from procurement.coded import render_value as render_value
from procurement.exit_status import ExitStatus
from procurement.json_input import JsonInputError
from procurement.json_input import loads as json_loads
from procurement.messages import MESSAGES, Lang, t
from procurement.safe_io import InputFileError, read_bounded_text, write_file

SCHEMA_VERSION: Literal[3] = 3
"""2 (2026-12): `unknown` status, check `code`/`params`, `kind`, `status`, node identity, per-GPU bus id,
VBIOS, board part number and faults. 3 (2026-12): expected and actual values as codes with parameters
(`expected_code`/`expected_params`, `actual_code`/`actual_params`), parameters that are themselves coded.
Versions 1 and 2 are migrated on load (migrate_report)."""
KIND = "gpu-procure-report"
MERGED_KIND = "gpu-procure-merged-report"
CheckStatus = Literal["pass", "fail", "warn", "unknown", "skip"]
STATUSES: tuple[CheckStatus, ...] = ("pass", "fail", "warn", "unknown", "skip")
"""`unknown`: the check was planned but could not be read or run (with the reason); never a pass.
`skip`: the check does not apply (no plan to compare with, an optional tool) and was not asked for."""


@functools.cache
def tool_version() -> str:
    """This installation's version; looked up once (importlib.metadata reads the dist-info each time, which
    was a tenth of judging a node's raw facts)."""
    try:
        from importlib.metadata import PackageNotFoundError, version

        return version("gpu-procure")
    except (ImportError, PackageNotFoundError):
        return "0+unknown"


class _Record(BaseModel):
    # Reports written by a newer gpu-procure may carry more fields; reading them must still work.
    model_config = ConfigDict(defer_build=True, extra="ignore")


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
    expected_code: str | None = None
    """The expected value as a language-neutral code with `expected_params` (None: `expected` is the same in
    every language — a number, a version, a model name); readers render it (render.check_expected)."""
    expected_params: dict[str, Param] = Field(default_factory=dict)
    actual_code: str | None = None
    actual_params: dict[str, Param] = Field(default_factory=dict)


def make_check(check_id: str, status: CheckStatus, message: str, expected: object = None,
               actual: object = None, code: str | None = None,
               params: dict[str, object] | None = None, lang: str = "en") -> CheckRecord:
    """A check with expected/actual as text in ``lang`` (None stays None); a Coded expected/actual value also
    keeps its code and parameters so that readers can show it in their own language."""
    return CheckRecord(id=check_id, status=status, message=message,
                       expected=_text(expected, lang), actual=_text(actual, lang),
                       code=code, params={k: _param(v) for k, v in (params or {}).items()},
                       expected_code=expected.code if isinstance(expected, Coded) else None,
                       expected_params=dict(expected.params) if isinstance(expected, Coded) else {},
                       actual_code=actual.code if isinstance(actual, Coded) else None,
                       actual_params=dict(actual.params) if isinstance(actual, Coded) else {})


def _text(value: object, lang: str) -> str | None:
    return None if value is None else str(render_value(value, lang))


def _param(value: object) -> Param:
    if value is None or isinstance(value, bool | int | float | str | Coded):
        return value
    if isinstance(value, list | tuple):
        return [v if v is None or isinstance(v, bool | int | float | str | Coded) else str(v) for v in value]
    return str(value)


class VerificationReport(_Record):
    """What `gpu-procure verify --json` writes for one machine (see docs/verify.md)."""

    schema_version: Literal[3] = SCHEMA_VERSION
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
        unknown or nothing could be verified (procurement.exit_status). A failed check is 1 whatever else
        is unknown: an nvidia-smi that cannot talk to the driver printed NVIDIA-SMI FAIL and exited 3."""
        if any(c.status == "fail" for c in self.checks):
            return ExitStatus.FAILED
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


MERGED_NOT_NODE = ("{where}: a merged cluster report, not one node's report (merge the node reports it was made "
                   "from instead)")


def parse_report(data: Any, where: str = "<report>") -> VerificationReport:
    """Validate a report object (e.g. one stored in Plan.verification)."""
    if not isinstance(data, dict):
        raise ReportError(f"{where}: not a verification report (expected a JSON object)")
    if data.get("kind") == MERGED_KIND or "nodes" in data:
        raise ReportError(MERGED_NOT_NODE.format(where=where))
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
    if version == 2:
        # v2 stored expected/actual as text only: they stay text (no codes), shown as written.
        data = dict(data)
        data["schema_version"] = 3
        version = 3
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
    if is_merged(text):  # said as what it is, before a value cap sized for one node's report refuses it
        raise ReportError(MERGED_NOT_NODE.format(where=path))
    return parse_report(_json_of(text, str(path)), str(path))


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


MAX_JSON_VALUES = 100_000
"""At most this many values in one report file, counted from its commas and brackets (an upper bound) before
parsing: a 19 MB report of small objects built millions of Python objects (a 386 MB merge input took 2.5 GB).
The report of the largest capture in tests/fixtures (8 × H100) counts 539; a file just under the limit whose
every value is wrong peaks at ~150 MB RSS in `verify --merge` (docs/reliability.md)."""


def _json_of(text: str, where: str, max_values: int | None = MAX_JSON_VALUES) -> Any:
    """Strict JSON through the one bounded JSON reader (procurement.json_input): NaN and Infinity, duplicate
    keys, runaway integers and nesting refused with a located error; more than ``max_values`` values refused
    before parsing."""
    try:
        return json_loads(text, where, max_values=max_values)
    except JsonInputError as exc:
        raise ReportError(str(exc)) from None


strict_json = _json_of
"""Strict JSON for every report-like file (node reports, raw facts): see ``_json_of``."""

_MERGED_NODES = '\n  "nodes": ['
"""Where the merged report's node list starts, as ``verify --merge --json`` writes it (indent 2)."""


def is_merged(text: str) -> bool:
    """Whether ``text`` is a merged cluster report: its kind stands in its first lines (read before any cap)."""
    return f'"kind": "{MERGED_KIND}"' in text[:4096]


def merged_nodes(text: str, where: str) -> tuple[Any, list[str]] | None:
    """A merged cluster report read node by node: (its top level, nodes left out, through the strict reader;
    each node's JSON text). One node is held to one report's value cap, not the whole file: the cap refused
    the tool's own report of 180 nodes, while a 2,048-node cluster is merged. None when the text is not laid
    out as the tool writes it (it is then read whole, under the cap)."""
    start = text.find(_MERGED_NODES)
    if not is_merged(text) or start < 0:
        return None
    decoder = json.JSONDecoder()
    pos = _skip_space(text, start + len(_MERGED_NODES))
    nodes: list[str] = []
    while not text.startswith("]", pos):
        try:
            _value, stop = decoder.raw_decode(text, pos)  # one node's objects, dropped at once
        except json.JSONDecodeError:
            return None
        nodes.append(text[pos:stop])
        pos = _skip_space(text, stop)
        if text.startswith(",", pos):
            pos = _skip_space(text, pos + 1)
        elif not text.startswith("]", pos):
            return None
    top = _json_of(text[:start] + '\n  "nodes": []' + text[pos + 1:], where)
    return top, nodes


def _skip_space(text: str, pos: int) -> int:
    while pos < len(text) and text[pos] in " \t\r\n":
        pos += 1
    return pos


# ---------------------------------------------------------------- shown in the reader's language


def check_message(check: CheckRecord, lang: Lang) -> str:
    """The check's message in ``lang``: rendered from its language-neutral code and parameters when this
    version knows the code, else the text stored when the report was written."""
    if check.code and check.code in MESSAGES:
        try:
            return t(check.code, lang, **{k: render_value(v, lang) for k, v in check.params.items()})
        except (KeyError, IndexError, ValueError):
            pass
    return check.message


def check_expected(check: CheckRecord, lang: Lang) -> str | None:
    """The expected value in ``lang``: from its code where it has one, else as stored (a number, a version)."""
    return _value(check.expected_code, check.expected_params, check.expected, lang)


def check_actual(check: CheckRecord, lang: Lang) -> str | None:
    """The actual value in ``lang``: from its code where it has one, else as stored."""
    return _value(check.actual_code, check.actual_params, check.actual, lang)


def _value(code: str | None, params: dict[str, Param], stored: str | None, lang: Lang) -> str | None:
    if code and code in MESSAGES:
        rendered = render_value(Coded(code=code, params=params), lang)
        if rendered != code:
            return str(rendered)
    return stored


def _record(check: object) -> CheckRecord | None:
    if isinstance(check, CheckRecord):
        return check
    if not isinstance(check, dict):
        return None
    try:
        return CheckRecord.model_validate(check)
    except ValueError:
        return None


def message_of(check: object, lang: Lang) -> str:
    """check_message for a check as stored in a plan (a JSON object), whatever its report version."""
    rec = _record(check)
    if rec is not None:
        return check_message(rec, lang)
    return str(check.get("message") or "") if isinstance(check, dict) else ""


def values_of(check: object, lang: Lang) -> tuple[str | None, str | None]:
    """(expected, actual) in ``lang`` for a check as stored in a plan (a JSON object), whatever its version."""
    rec = _record(check)
    if rec is not None:
        return check_expected(rec, lang), check_actual(rec, lang)
    if not isinstance(check, dict):
        return None, None
    exp, act = check.get("expected"), check.get("actual")
    return (None if exp is None else str(exp)), (None if act is None else str(act))


def machine_key(report: dict[str, Any]) -> tuple[str, str]:
    """Which machine a report is of: its host name; a report without one is its own machine (its time)."""
    name = (report.get("host") or {}).get("hostname")
    return ("host", str(name)) if name else ("created", str(report.get("created")))


def _when(report: dict[str, Any]) -> dt.datetime:
    try:
        when = dt.datetime.fromisoformat(str(report.get("created")))
    except ValueError:
        return dt.datetime.min.replace(tzinfo=dt.timezone.utc)
    return when if when.tzinfo is not None else when.replace(tzinfo=dt.timezone.utc)


def attach_reports(attached: list[dict[str, Any]], new: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The reports a plan keeps when ``new`` arrive: one per machine, the newest of each (a report as new as
    the one attached replaces it, so importing a file twice changes nothing).

    Re-importing a cluster's reports gave 16 reports for 8 nodes, and a repaired node's new report sat beside
    its old failed one and kept the cluster red. Order: the machines in the order they were first attached.
    """
    kept: dict[tuple[str, str], dict[str, Any]] = {}
    for report in (*attached, *new):
        key = machine_key(report)
        if key not in kept or _when(report) >= _when(kept[key]):
            kept[key] = report
    return list(kept.values())

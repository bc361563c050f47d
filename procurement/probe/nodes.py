"""Node reports read from the files the probe's runs bring back: raw facts judged now, or judged reports checked
against the plan, with the limits every reader of them keeps (judge, handover, the app's step 5)."""

from __future__ import annotations

import datetime as dt
import gc
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from catalog.loader import Catalog
from procurement.messages import Lang, t
from procurement.plan import Plan
from procurement.probe import texts  # noqa: F401  (registers the messages)
from procurement.safe_io import InputFileError, read_bounded_text
from procurement.verify.collect import raw as rawmod
from procurement.verify.judge import RawError, check_raw, judge
from procurement.verify.report import ReportError, VerificationReport, parse_report, strict_json

MAX_INPUT_BYTES = 48 * 1024 * 1024
"""A file larger than this is refused (the collector caps each output; this bounds a forged file: read, decoded
and parsed, a file at this size stays under 200 MB; raw facts of an 8-GPU node are well under 5 MB)."""
MAX_RAW_VALUES = 200_000
"""Values in one raw-facts file (an 8-GPU node's hold a few thousand): 2 M entries took 1.62 GB in judge."""


_NOT_REPORTS = (".bak", ".tmp", ".swp", "~")
"""Left out of a directory: the safe writer's backup, editors' and writers' temporary files."""


def _node_file(path: Path) -> bool:
    """NAME.json, or NAME.json.HOST as `clush --rcopy` and `rpdcp` name the copy fetched from HOST."""
    name = path.name
    if name.endswith(".json"):
        return True
    stem, dot, host = name.rpartition(".json.")
    return bool(dot and stem and host) and not name.endswith(_NOT_REPORTS)


def expand(paths: Sequence[str | Path]) -> list[Path]:
    """Files as given; a directory stands for its *.json files and the *.json.HOST files that clush and
    pdsh copy back (sorted, not recursive)."""
    out: list[Path] = []
    for p in map(Path, paths):
        out.extend(sorted(x for x in p.iterdir() if _node_file(x) and x.is_file()) if p.is_dir() else [p])
    return out


SINCE_SKEW = dt.timedelta(minutes=10)
"""How far a node's clock may lag the operator's before its fresh facts would look older than the run."""
_RUN_STAMP = re.compile(r"\A(\d{8})-(\d{6})\Z")


def parse_since(text: str) -> dt.datetime:
    """``--since``: ISO 8601, or the `date +%Y%m%d-%H%M%S` stamp the guide's lines keep in RUN (local time, as is
    an ISO time without an offset). Raises ValueError."""
    m = _RUN_STAMP.match(text.strip())
    when = (dt.datetime.strptime(m.group(1) + m.group(2), "%Y%m%d%H%M%S") if m
            else dt.datetime.fromisoformat(text.strip()))
    return when if when.tzinfo is not None else when.astimezone()


def _collected(obj: dict[str, object]) -> dt.datetime | None:
    try:
        when = dt.datetime.fromisoformat(str(obj.get("created")))
    except ValueError:
        return None
    return when if when.tzinfo is not None else when.replace(tzinfo=dt.timezone.utc)


def _cutoff(since: dt.datetime) -> dt.datetime:
    """The earliest collection time taken as this run's: ``since`` less the clock skew allowed between nodes
    (a --since within that skew of the first representable time is that time: no OverflowError traceback)."""
    try:
        return since - SINCE_SKEW
    except OverflowError:
        return dt.datetime.min.replace(tzinfo=dt.timezone.utc)


def read_node(path: Path, plan: Plan | None, catalog: Catalog, lang: Lang,
              any_plan: bool = True, since: dt.datetime | None = None, after_setup: bool = False
              ) -> VerificationReport:
    """A node's report from a raw-facts file (judged now) or an already judged report, checked against ``plan``:
    its checks must agree with its own GPU list, and (unless ``any_plan``) it must have been judged against this
    very plan. ``after_setup``: raw facts are judged as of a host the handover's setup has tuned (TUNE-*,
    MIG-LAYOUT fail instead of warning). Raises ReportError naming the file."""
    try:  # the one bounded reader: a FIFO or device is refused, never read (procurement.safe_io)
        text = read_bounded_text(path, MAX_INPUT_BYTES)
    except InputFileError as exc:
        raise ReportError(f"{path}: {exc.strerror}") from None
    except OSError as exc:
        raise ReportError(f"{path}: cannot read ({exc.strerror or exc})") from None
    except UnicodeDecodeError as exc:
        raise ReportError(f"{path}: not valid JSON ({exc})") from None
    # the one bounded JSON reader: NaN/Infinity, duplicate keys, runaway integers and nesting are located errors
    obj = strict_json(text, str(path), max_values=MAX_RAW_VALUES)
    if isinstance(obj, dict) and obj.get("kind") == rawmod.KIND:
        collected = _collected(obj)
        if since is not None and collected is None:  # 'yesterday' is no time: not "before this run"
            raise ReportError(t("probe.judge.no_time", lang, path=path, collected=str(obj.get("created") or "?")))
        if since is not None and collected is not None and collected < _cutoff(since):
            # a file an earlier run left on the node, brought back as this run's facts
            raise ReportError(t("probe.judge.stale", lang, path=path, collected=obj.get("created") or "?",
                                since=since.isoformat(timespec="seconds")))
        now = dt.datetime.now(dt.timezone.utc)
        if since is not None and collected is not None and collected > now + SINCE_SKEW:
            # 9999-12-31 would pass any --since: a clock far ahead, or a file edited to look fresh
            raise ReportError(t("probe.judge.future", lang, path=path, collected=obj.get("created") or "?",
                                now=now.astimezone().isoformat(timespec="seconds")))
        try:
            return judge(check_raw(obj, str(path)), plan, catalog, None, lang, after_setup)
        except RawError as exc:
            raise ReportError(str(exc)) from None
    if isinstance(obj, dict) and "nodes" in obj:
        raise ReportError(f"{path}: a merged cluster report, not one node's facts or report")
    return judged_report(obj, str(path), plan, catalog, lang, any_plan)


def judged_report(obj: object, where: str, plan: Plan | None, catalog: Catalog, lang: Lang,
                  any_plan: bool = True) -> VerificationReport:
    """A judged node report (one file, or one node of a cluster report: ``where`` names it) read and, with a
    ``plan``, checked against its own GPU list (:func:`judged_report_problems`), as `judge` and the handover
    read it. Raises ReportError naming ``where``."""
    report = parse_report(obj, where)
    if plan is not None:
        problems = judged_report_problems(report, plan, catalog, lang, where, any_plan)
        if problems:
            raise ReportError("\n".join(problems))
    return report


def judged_report_problems(report: VerificationReport, plan: Plan, catalog: Catalog, lang: Lang,
                           path: Path | str, any_plan: bool = False) -> list[str]:
    """Why a judged report cannot be taken as this plan's verdict on the node: judged against another plan
    (unless ``any_plan``), or its GPU-COUNT / GPU-MODEL checks passing over a GPU list that contradicts them (a
    report claiming one RTX 4090 with every check passed was accepted and handed over; one listing a single
    GPU's UUID eight times passed GPU-COUNT 8)."""
    from procurement.plan import canonical_digest
    from procurement.verify.checks import match_gpu, repeated_uuids

    digest = canonical_digest(plan)
    if report.plan_digest != digest:
        if any_plan:
            return []  # read as judged against its own plan: this plan's inventory says nothing about it
        if report.plan_digest is None:
            return [t("probe.judge.no_digest", lang, path=path)]
        return [t("probe.judge.other_plan", lang, path=path, got=report.plan_digest[:16], want=digest[:16])]
    problems: list[str] = []
    count = report.check("GPU-COUNT")
    if count is not None and count.status == "pass" and plan.gpu.count and len(report.gpus) != plan.gpu.count:
        problems.append(t("probe.judge.contradiction", lang, path=path, check="GPU-COUNT",
                          why=t("probe.judge.why_count", lang, n=len(report.gpus), want=plan.gpu.count)))
    elif count is not None and count.status == "pass" and (twice := repeated_uuids(g.uuid for g in report.gpus)):
        problems.append(t("probe.judge.contradiction", lang, path=path, check="GPU-COUNT",
                          why=t("probe.judge.why_uuid", lang, uuids=", ".join(twice[:4]))))
    model = report.check("GPU-MODEL")
    if model is not None and model.status == "pass" and plan.gpu.model:
        wrong = sorted({g.name or "?" for g in report.gpus
                        if (part := match_gpu(g.name, catalog)) is None or part.id != plan.gpu.model})
        if wrong or not report.gpus:
            planned = catalog.gpu(plan.gpu.model)
            problems.append(t("probe.judge.contradiction", lang, path=path, check="GPU-MODEL",
                              why=t("probe.judge.why_model", lang, gpus=", ".join(wrong) or "-",
                                    want=planned.name if planned is not None else plan.gpu.model)))
    return problems


@contextmanager
def cyclic_gc_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector while many node reports are built and merged.

    Each report is thousands of small objects that all stay alive, so every full collection walks all
    the reports read so far: with the collector on, reading 2,048 nodes took twice as long as with it
    off and grew faster than the number of nodes. Reports hold no reference cycles (reference counting
    frees them either way; the only cyclic leftovers measured are ten small objects a raw node, from
    importlib.metadata's version look-up, left to the next collection), so pausing costs next to no memory.
    The collector is put back as it was.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def read_nodes(
    paths: Sequence[str | Path], plan: Plan | None, catalog: Catalog, lang: Lang, any_plan: bool = True,
    since: dt.datetime | None = None, after_setup: bool = False,
) -> tuple[list[VerificationReport], list[str], list[str]]:
    """(reports, their source files, one error line per unreadable or untrustworthy file)."""
    reports, sources, errors = [], [], []
    with cyclic_gc_paused():
        for path in expand(paths):
            try:
                reports.append(read_node(path, plan, catalog, lang, any_plan, since, after_setup))
                sources.append(str(path))
            except ReportError as exc:
                errors.append(str(exc))
    return reports, sources, errors

"""`gpu-procure handover PLAN REPORTS... DIR`: setup scripts and monitoring for the nodes that passed."""

from __future__ import annotations

import argparse
import errno
import json
import math
import sys
from collections.abc import Sequence
from pathlib import Path

from catalog.loader import Catalog
from procurement.commands import add_catalog_option, catalog_for
from procurement.exit_status import ExitStatus
from procurement.handover.generate import DCGM_EXPORTER_IMAGE, Handover, NodeFacts, build_handover, slowdown_thresholds
from procurement.messages import Lang, languages, t
from procurement.operations import operations_files
from procurement.plan import Plan
from procurement.policy import PolicyError, load_policy
from procurement.probe import texts  # noqa: F401  (registers the messages)
from procurement.probe.judge_cmd import MAX_INPUT_BYTES, MAX_RAW_VALUES, expand
from procurement.safe_io import read_bounded_text, write_files
from procurement.terminal import one_line
from procurement.verify import raw as rawmod
from procurement.verify.judge import RawError, check_raw, judge
from procurement.verify.report import ReportError, parse_report, strict_json
from procurement.verify.verify_cmd import _lang, _plan


def watts(text: str) -> float:
    """A per-GPU power limit: a finite number of watts above 0 (nan, inf and 1e300 are refused)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of watts: {text!r}") from None
    if not (math.isfinite(value) and 0 < value < 10_000):
        raise argparse.ArgumentTypeError(f"not a power limit in watts: {text!r}")
    return value


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("plan", type=Path, metavar="PLAN")
    p.add_argument("reports", nargs="+", type=Path, metavar="REPORT",
                   help="raw facts from the probe, judged reports, cluster reports, or directories of them")
    p.add_argument("directory", type=Path, metavar="DIR", help="where to write the handover (new or empty)")
    p.add_argument("--power-limit", type=watts, default=None, metavar="W",
                   help="per-GPU power limit instead of the planned one (the catalog TDP)")
    p.add_argument("--dcgm-exporter-image", default=DCGM_EXPORTER_IMAGE, metavar="REF")
    p.add_argument("--policy", type=Path, default=None, help="policy YAML (gpu_temp_alert_c)")
    p.add_argument("--force", action="store_true", help="write into a directory that is not empty")
    p.add_argument("--lang", choices=languages(), default=None)
    add_catalog_option(p)


def run(args: argparse.Namespace) -> int:
    return run_handover(args, catalog_for(args))


def read_nodes(paths: Sequence[Path], plan: Plan, catalog: Catalog, lang: Lang) -> tuple[list[NodeFacts], list[str]]:
    """Nodes from raw facts (judged now, slowdown thresholds kept), judged or cluster reports."""
    nodes: list[NodeFacts] = []
    errors: list[str] = []
    for path in expand(paths):
        try:
            # the one bounded reader and JSON reader: a FIFO refused unread, NaN, duplicate keys and runaway
            # nesting or integers located errors
            obj = strict_json(read_bounded_text(path, MAX_INPUT_BYTES), str(path), max_values=MAX_RAW_VALUES)
            if isinstance(obj, dict) and obj.get("kind") == rawmod.KIND:
                doc = check_raw(obj, str(path))
                nodes.append(NodeFacts(judge(doc, plan, catalog, None, lang), str(path), slowdown_thresholds(doc)))
            elif isinstance(obj, dict) and isinstance(obj.get("nodes"), list):
                for i, node in enumerate(obj["nodes"]):
                    nodes.append(NodeFacts(parse_report(node, f"{path}: nodes[{i}]"), f"{path}#{i}"))
            else:
                nodes.append(NodeFacts(parse_report(obj, str(path)), str(path)))
        except OSError as exc:
            errors.append(f"{path}: cannot read ({exc.strerror or exc})")
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            errors.append(f"{path}: not valid JSON ({exc})")
        except (ReportError, RawError) as exc:
            errors.append(str(exc))
    return nodes, errors


def shown(name: str, limit: int = 200) -> str:
    """A node name as README.txt and the terminal show it: one line, control and bidi characters escaped,
    at most ``limit`` characters (rejected names come from reports as they are)."""
    text = one_line(name)
    return text if len(text) <= limit else text[:limit] + "…"


def summary(h: Handover, lang: Lang) -> str:
    lines = [t("probe.handover.written", lang, n=len(h.accepted), path="."), ""]
    lines += [f"  + {name}" for name in h.accepted]
    if h.rejected:
        lines += ["", t("probe.handover.rejected", lang, nodes="")]
        lines += [f"  - {shown(name)}: {shown(why, 500)}" for name, why in h.rejected]
    if h.unknown_slowdown:
        lines += ["", t("probe.handover.slowdown_unknown", lang, nodes=", ".join(h.unknown_slowdown))]
    return "\n".join(lines) + "\n"


def write_all(directory: Path, files: dict[str, str], force: bool, inputs: Sequence[Path] = ()) -> None:
    """All files or none (procurement.safe_io.write_files), never over an input; scripts made executable."""
    if directory.exists() and any(directory.iterdir()) and not force:
        raise FileExistsError(errno.EEXIST, f"{directory} is not empty (--force writes into it)")
    for rel in files:
        (directory / rel).parent.mkdir(parents=True, exist_ok=True)
    write_files([(directory / rel, text.encode("utf-8")) for rel, text in files.items()], inputs=list(inputs))
    for rel in files:
        if rel.endswith(".sh"):
            (directory / rel).chmod(0o755)


def run_handover(args: argparse.Namespace, catalog: Catalog) -> int:
    """0 every node accepted, 1 some failed or an input was unreadable (their files are not written), 2
    unusable input or output, 3 nothing failed but some nodes' verdict is unknown (refused as well)."""
    lang = _lang(args)
    plan, ok = _plan(args, catalog, lang)
    if not ok or plan is None:
        return ExitStatus.UNUSABLE
    try:
        policy = load_policy(args.policy)
    except PolicyError as exc:
        print(exc, file=sys.stderr)
        return ExitStatus.UNUSABLE
    nodes, errors = read_nodes(args.reports, plan, catalog, lang)
    for line in errors:
        print(t("probe.judge.read_error", lang, error=line), file=sys.stderr)
    if not nodes:
        print(t("probe.judge.no_input", lang, paths=" ".join(map(str, args.reports))), file=sys.stderr)
        return ExitStatus.UNUSABLE
    h = build_handover(nodes, plan, catalog, policy, args.power_limit, args.dcgm_exporter_image)
    text = summary(h, lang)
    failed = errors or len(h.undecided) < len(h.rejected)
    if not h.accepted:
        print(text + t("probe.handover.none", lang), file=sys.stderr)
        return ExitStatus.FAILED if failed else ExitStatus.INCOMPLETE
    h.files["README.txt"] = text
    h.files.update(operations_files(plan, catalog, h.accepted, lang))  # procurement/operations.py
    try:
        write_all(args.directory, h.files, args.force, [args.plan, *expand(args.reports)])
    except OSError as exc:
        print(t("verify.write_error", lang, path=args.directory, error=exc.strerror or exc), file=sys.stderr)
        return ExitStatus.UNUSABLE
    print(text.replace(" .\n", f" {args.directory}\n", 1), end="")
    if failed:
        return ExitStatus.FAILED
    return ExitStatus.INCOMPLETE if h.undecided else ExitStatus.OK

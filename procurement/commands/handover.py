"""`gpu-procure handover PLAN REPORTS... DIR`: setup scripts and monitoring for the nodes that passed."""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

from catalog.loader import Catalog
from procurement.commands import add_catalog_option, catalog_for, lang_for, plan_or_error
from procurement.exit_status import ExitStatus
from procurement.handover.generate import DCGM_EXPORTER_IMAGE, build_handover
from procurement.handover.nodes import read_nodes
from procurement.handover.write import summary, write_all
from procurement.messages import languages, t
from procurement.operations import operations_files
from procurement.policy import PolicyError, load_policy
from procurement.probe import texts  # noqa: F401  (registers the messages)
from procurement.probe.nodes import expand


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


def run_handover(args: argparse.Namespace, catalog: Catalog) -> int:
    """0 every node accepted, 1 some failed or an input was unreadable (their files are not written), 2
    unusable input or output, 3 nothing failed but some nodes' verdict is unknown (refused as well)."""
    lang = lang_for(args)
    plan, plan_error = plan_or_error(args, catalog, lang)
    if plan_error is not None or plan is None:
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

"""`gpu-procure judge RAW.json... --plan PLAN [--json OUT]`: reports from raw facts collected elsewhere."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from catalog.loader import Catalog
from procurement.commands import add_catalog_option, catalog_for, lang_for, plan_or_error
from procurement.exit_status import ExitStatus
from procurement.messages import Lang, languages, t
from procurement.plan import Plan
from procurement.probe import texts  # noqa: F401  (registers the messages)
from procurement.probe.cluster import HostlistError, cluster_progress, expand_hostlist
from procurement.probe.nodes import cyclic_gc_paused, parse_since, read_nodes
from procurement.verify.merge import MergedReport, merge_reports, write_merged
from procurement.verify.render import render_merged, render_report
from procurement.verify.report import VerificationReport, write_report

EXIT_OK, EXIT_FAIL, EXIT_UNUSABLE = ExitStatus.OK, ExitStatus.FAILED, ExitStatus.UNUSABLE


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("raw", nargs="+", type=Path, metavar="RAW.json",
                   help="raw facts from gpu-procure-probe.pyz (or judged reports); a directory means its *.json")
    p.add_argument("--plan", type=Path, default=None, help="plan to check against (without: inventory and health)")
    p.add_argument("--json", type=Path, default=None, metavar="FILE", dest="json_out",
                   help="write the report (one node) or the merged cluster report (several)")
    p.add_argument("--pdf", type=Path, default=None, metavar="FILE",
                   help="also write the cluster acceptance report (PDF): each node and GPU with serials, the "
                        "failures, unknowns and missing nodes (needs --plan)")
    p.add_argument("--nodes", default="", metavar="HOSTLIST",
                   help="the nodes expected, as pdsh/clush take them (gpu[01-16]): the report names the "
                        "missing ones")
    p.add_argument("--since", default=None, metavar="TIME",
                   help="refuse raw facts collected before TIME (ISO 8601, or the YYYYmmdd-HHMMSS stamp of "
                        "`date +%%Y%%m%%d-%%H%%M%%S`, local time): a file an earlier run left on a node is not this "
                        "run's")
    p.add_argument("--any-plan", action="store_true",
                   help="read judged reports as they were judged, even against another plan (by default a "
                        "judged report must name this plan)")
    p.add_argument("--after-setup", action="store_true", dest="after_setup",
                   help="the handover's setup (host-tuning.sh, mig-create.sh) has run: a host not tuned as planned "
                        "fails (TUNE-*, MIG-LAYOUT) instead of warning")
    p.add_argument("--lang", choices=languages(), default=None)
    add_catalog_option(p)


def run(args: argparse.Namespace) -> int:
    """As verify: 0 all pass, 1 a check failed (or a file was unreadable), 2 the plan, every input or the
    output unusable, 3 nothing could be verified on a node."""
    return run_judge(args, catalog_for(args))


def run_judge(args: argparse.Namespace, catalog: Catalog) -> int:
    lang = lang_for(args)
    plan, plan_error = plan_or_error(args, catalog, lang)
    if plan_error is not None:
        return EXIT_UNUSABLE
    try:
        names = expand_hostlist(args.nodes)
    except HostlistError as exc:
        print(t("probe.judge.bad_nodes", lang, error=exc), file=sys.stderr)
        return EXIT_UNUSABLE
    if args.pdf is not None and plan is None:
        print(t("probe.judge.pdf_needs_plan", lang), file=sys.stderr)
        return EXIT_UNUSABLE
    since = None
    if getattr(args, "since", None):
        try:
            since = parse_since(args.since)
        except ValueError:
            print(t("probe.judge.bad_since", lang, value=args.since), file=sys.stderr)
            return EXIT_UNUSABLE
    reports, sources, errors = read_nodes(args.raw, plan, catalog, lang, getattr(args, "any_plan", False), since,
                                         bool(getattr(args, "after_setup", False)))
    for line in errors:
        print(t("probe.judge.read_error", lang, error=line), file=sys.stderr)
    if not reports:
        print(t("probe.judge.no_input", lang, paths=" ".join(map(str, args.raw))), file=sys.stderr)
        return EXIT_UNUSABLE
    single = len(reports) == 1 and not errors and not any(Path(p).is_dir() for p in args.raw)
    with cyclic_gc_paused():
        merged = merge_reports(reports, plan, lang, sources)
    code = _show(reports[0] if single else None, merged, args.json_out, bool(errors), lang)
    if code is None:
        return EXIT_UNUSABLE
    if args.pdf is not None and plan is not None:
        progress = cluster_progress(merged.nodes, plan, names, merged.sources)
        if progress.missing_names:
            print(t("probe.judge.missing", lang, n=len(progress.missing_names),
                    nodes=", ".join(progress.missing_names)), file=sys.stderr)
        if not _write_pdf(merged, plan, catalog, names, args.pdf, lang):
            return EXIT_UNUSABLE
    return code


def _show(report: VerificationReport | None, merged: MergedReport, json_out: Path | None, read_errors: bool,
          lang: Lang) -> int | None:
    """Print the one node's report (``report``) or the merged one, write it as JSON where asked; the exit
    status, or None when the JSON could not be written."""
    if report is not None:
        print(render_report(report, lang))
        if json_out is not None and not _write(lambda: write_report(report, json_out), json_out, lang):
            return None
        return report.exit_code()
    print(render_merged(merged, lang))
    if json_out is not None and not _write(lambda: write_merged(merged, json_out), json_out, lang):
        return None
    code = merged.exit_code()
    return max(code, EXIT_FAIL) if read_errors and code == EXIT_OK else code


def _write_pdf(merged: MergedReport, plan: Plan, catalog: Catalog, names: list[str], path: Path,
               lang: Lang) -> bool:
    from procurement.probe.cluster_pdf import render_cluster_pdf  # reportlab only when a PDF is asked for
    from procurement.reports import ExportError, FontNotFoundError, write_pdf

    try:
        write_pdf(path, render_cluster_pdf(merged, plan, catalog, names=names, lang=lang), lang)
    except (ExportError, FontNotFoundError) as exc:
        print(t("verify.write_error", lang, path=path, error=exc), file=sys.stderr)
        return False
    print(t("probe.judge.pdf_written", lang, path=path), file=sys.stderr)
    return True


def _write(action: object, path: Path, lang: Lang) -> bool:
    try:
        action()  # type: ignore[operator]
    except OSError as exc:
        print(t("verify.write_error", lang, path=path, error=exc.strerror or exc), file=sys.stderr)
        return False
    print(t("probe.judge.written", lang, path=path), file=sys.stderr)
    return True

"""`gpu-procure verify`: probe this machine (or merge node reports), print a table, write the JSON report."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from catalog.loader import Catalog
from procurement import verification_texts  # noqa: F401  (registers the messages)
from procurement.commands import add_catalog_option, catalog_for, lang_for, plan_or_error
from procurement.exit_status import ExitStatus
from procurement.messages import Lang, languages, register, t
from procurement.plan import Plan
from procurement.safe_io import InputFileError, read_bounded_text
from procurement.verify.merge import load_reports_compact, merge_reports, write_merged
from procurement.verify.probe import ProbeOptions, VerificationCancelled, run_probe
from procurement.verify.render import render_merged, render_report
from procurement.verify.report import VerificationReport, write_report

EXIT_OK, EXIT_FAIL, EXIT_UNUSABLE, EXIT_UNVERIFIED = (
    ExitStatus.OK, ExitStatus.FAILED, ExitStatus.UNUSABLE, ExitStatus.INCOMPLETE)


def add_arguments(v: argparse.ArgumentParser) -> None:
    v.add_argument("--plan", type=Path, default=None,
                   help="plan to check against (without: inventory and health checks)")
    v.add_argument("--json", type=Path, default=None, metavar="FILE", dest="json_out",
                   help="write the JSON report (docs/verify.md)")
    v.add_argument("--benchmark", action="store_true",
                   help="short matmul/bandwidth run per GPU when PyTorch with CUDA is present")
    v.add_argument("--load", choices=("quick", "full"), default=None,
                   help="acceptance load run: dcgmi diag, nvbandwidth, all_reduce_perf, gpu_burn (docs/verify.md)")
    v.add_argument("--duration", type=float, default=None, metavar="S",
                   help="seconds of the concurrent GPU burn (quick: 300, full: 1800)")
    v.add_argument("--hostfile", type=Path, default=None, metavar="FILE",
                   help="with --load: run NCCL all_reduce_perf across the nodes of this Open MPI hostfile "
                   "(under Slurm the allocation's nodes are used without it)")
    v.add_argument("--timeout", type=float, default=30.0, metavar="S",
                   help="kill a probe program after S seconds (default 30)")
    v.add_argument("--deadline", type=float, default=None, metavar="S",
                   help="seconds the whole run may take; no program runs past it (default: 600, with --load quick "
                   "900, full 7200, moved by --duration)")
    v.add_argument("--nvidia-smi", type=Path, default=None, metavar="PATH", dest="nvidia_smi",
                   help="nvidia-smi to run instead of the one on PATH")
    v.add_argument("--merge", type=Path, nargs="+", default=None, metavar="REPORT",
                   help="combine node reports into one table checked against the plan's node count")
    v.add_argument("--after-setup", action="store_true", dest="after_setup",
                   help="the handover's setup (host-tuning.sh, mig-create.sh) has run: a host not tuned as planned "
                   "fails (TUNE-*, MIG-LAYOUT) instead of warning")
    v.add_argument("--lang", choices=languages(), default=None)
    add_catalog_option(v)


def run(args: argparse.Namespace) -> int:
    return run_verify(args, catalog_for(args))


def _write(report: VerificationReport, path: Path, lang: Lang, inputs: list[str | Path]) -> bool:
    try:
        write_report(report, path, inputs=inputs)
    except OSError as exc:
        print(t("verify.write_error", lang, path=path, error=exc.strerror or exc), file=sys.stderr)
        return False
    print(t("verify.written", lang, path=path), file=sys.stderr)
    return True


def _inputs(args: argparse.Namespace) -> list[str | Path]:
    """The files this command read: the JSON it writes must not replace one of them."""
    return [p for p in (getattr(args, "plan", None), *(getattr(args, "merge", None) or [])) if p is not None]


register({
    "verify.hostfile_error": "Cannot use the hostfile {path}: {reason}",
    "verify.hostfile_empty": "no host in it (a line per node: 'gpu-01 slots=8'); mpirun would not run across nodes",
})

MAX_HOSTFILE_BYTES = 1024 * 1024
"""An Open MPI hostfile is a line per node: 1 MiB holds tens of thousands."""


def _hostfile_error(path: Path, lang: Lang) -> str | None:
    """Why ``path`` cannot be the hostfile of a load run (unreadable, a FIFO or device, too large, no host
    in it), or None. A missing hostfile counted 0 hosts and still ran mpirun."""
    try:
        text = read_bounded_text(path, MAX_HOSTFILE_BYTES)
    except InputFileError as exc:
        reason = str(exc.strerror)
    except OSError as exc:
        reason = str(exc.strerror or exc)
    except UnicodeDecodeError:
        reason = "not UTF-8 text"
    else:
        if any(line.split("#")[0].strip() for line in text.splitlines()):
            return None
        reason = t("verify.hostfile_empty", lang)
    return t("verify.hostfile_error", lang, path=path, reason=reason)


def run_verify(args: argparse.Namespace, catalog: Catalog) -> int:
    """Exit 0 when every check passed (warnings allowed), 1 when any failed, 2 when the plan or a report to
    merge cannot be read or the report cannot be written, 3 when a check is unknown or nothing could be
    verified (procurement.exit_status)."""
    lang = lang_for(args)
    plan, plan_error = plan_or_error(args, catalog, lang)
    if plan_error is not None:
        # docs/verify.md promises a JSON report with every exit status: say why nothing was verified.
        if args.json_out is not None and not getattr(args, "merge", None):
            _write(VerificationReport(error=plan_error, status="unknown"), args.json_out, lang, _inputs(args))
        return EXIT_UNUSABLE
    if getattr(args, "merge", None):
        return _merge(args, plan, catalog, lang)
    hostfile = getattr(args, "hostfile", None)
    load = getattr(args, "load", None)
    hostfile_error = _hostfile_error(hostfile, lang) if hostfile is not None and load else None
    if hostfile_error is not None:
        print(hostfile_error, file=sys.stderr)
        if args.json_out is not None:
            _write(VerificationReport(error=hostfile_error, status="unknown"), args.json_out, lang, _inputs(args))
        return EXIT_UNUSABLE
    if plan is None:
        print(t("verify.no_plan", lang), file=sys.stderr)
    timeout = args.timeout if args.timeout and args.timeout > 0 else 30.0
    options = ProbeOptions(nvidia_smi=args.nvidia_smi, timeout=timeout, benchmark=bool(args.benchmark),
                           load=getattr(args, "load", None), duration=getattr(args, "duration", None),
                           hostfile=getattr(args, "hostfile", None), deadline=getattr(args, "deadline", None),
                           after_setup=bool(getattr(args, "after_setup", False)))
    try:
        report = run_probe(plan, catalog, options, lang)
    except VerificationCancelled:
        print(t("verify.cancelled", lang), file=sys.stderr)
        return EXIT_UNVERIFIED
    # with --json - the JSON is standard output and the table goes to standard error
    to_stdout = str(args.json_out) == "-"
    print(render_report(report, lang), file=sys.stderr if to_stdout else sys.stdout)
    if args.json_out is not None and not _write(report, args.json_out, lang, _inputs(args)):
        return EXIT_UNUSABLE
    return report.exit_code()


def _merge(args: argparse.Namespace, plan: Plan | None, catalog: Catalog, lang: Lang) -> int:
    from procurement.probe.nodes import judged_report_problems

    def refuse(report: VerificationReport, path: str | Path) -> list[str]:
        # a report judged against this plan whose GPU checks passed over a GPU list that contradicts them (no
        # GPUs, one UUID eight times): refused as judge and handover refuse it; another plan's is read as judged
        return judged_report_problems(report, plan, catalog, lang, path, any_plan=True) if plan is not None else []

    # a node at a time: compact records for the checks and the table, each node's JSON kept compressed
    reports, sources, errors, chunks = load_reports_compact(args.merge, refuse)
    for line in errors:
        print(t("verify.merge.read_error", lang, error=line), file=sys.stderr)
    if not reports:
        return EXIT_UNUSABLE
    merged = merge_reports(reports, plan, lang, sources)
    merged.node_json = chunks
    to_stdout = str(args.json_out) == "-"
    print(render_merged(merged, lang), file=sys.stderr if to_stdout else sys.stdout)
    if args.json_out is not None:
        try:
            write_merged(merged, args.json_out, inputs=_inputs(args))
        except OSError as exc:
            print(
                t("verify.write_error", lang, path=args.json_out, error=exc.strerror or exc), file=sys.stderr
            )
            return EXIT_UNUSABLE
    code = merged.exit_code()
    return EXIT_FAIL if errors and code in (EXIT_OK, EXIT_UNVERIFIED) else code

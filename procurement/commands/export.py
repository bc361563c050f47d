"""`gpu-procure export PLAN [--quote FILE [--issue]] [--rfq FILE] [--checklist FILE] [--acceptance FILE]
[--comparison FILE] [--lang zh|en] [--paper a4|letter]`."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path

from catalog.loader import Catalog
from procurement.commands import add_catalog_option, catalog_for
from procurement.completeness import describe_missing as describe_gaps
from procurement.evaluation import evaluate
from procurement.exit_status import ExitStatus
from procurement.messages import Lang, default_lang, languages, register, t
from procurement.plan import Plan, PlanError, load_plan
from procurement.policy import PolicyError, load_policy
from procurement.reports.acceptance_pdf import render_acceptance_pdf
from procurement.reports.bom_xlsx import render_bom_xlsx
from procurement.reports.checklist_pdf import render_checklist_pdf
from procurement.reports.common import ExportError, Paper, write_pdfs
from procurement.reports.comparison_pdf import render_comparison_pdf
from procurement.reports.fonts import FontNotFoundError, unembedded_warning
from procurement.reports.quote import build_quote, issue_quote
from procurement.reports.quote_pdf import render_quote_pdf
from procurement.reports.text import collect_missing, describe_missing
from procurement.signoff import allowed_signers_arg

EXIT_OK, EXIT_UNREADABLE = ExitStatus.OK, ExitStatus.UNUSABLE

register(
    {
        "export.nothing": (
            "nothing to export: give --quote FILE, --rfq FILE, --checklist FILE, --acceptance FILE and/or --comparison "
            "FILE"
        ),
        "export.same_file": "--quote, --rfq, --checklist, --acceptance and --comparison must be different files",
        "export.wrote": "wrote {what}: {path} ({size} bytes)",
        "export.what.quote": "quote",
        "export.issued": "issued quote {number}; its number, date and validity are stored in {path}",
        "export.issue_failed": "the PDF is written, but the issued quote could not be stored in {path}: {error}",
        "export.what.rfq": "request for quotation",
        "export.what.xlsx": "bill of materials (XLSX)",
        "export.what.checklist": "checklist",
        "export.what.acceptance": "acceptance sheet",
        "export.what.comparison": "quote comparison",
        "export.plan_error": "cannot read the plan:",
        "export.no_hardware": (
            "nothing to export: the plan has no hardware chosen yet; choose {gaps} first (steps 2 and 3)"
        ),
        "export.policy_error": "cannot read the policy:",
        "export.missing_glyphs": (
            "warning: no available font has these characters; the PDF shows their code points [U+…] instead: {chars}"
        ),
    }
)


def has_hardware(plan: Plan) -> bool:
    """True when any hardware is chosen: a GPU model, a chassis, a CPU, memory, a PSU, storage or a NIC."""
    srv = plan.server
    return any((plan.gpu.model, srv.chassis, srv.cpu, srv.memory, srv.psu.part, srv.storage, srv.nics))


def add_arguments(e: argparse.ArgumentParser) -> None:
    e.add_argument("plan", type=Path)
    e.add_argument("--quote", type=Path, default=None, metavar="FILE")
    e.add_argument("--rfq", type=Path, default=None, metavar="FILE",
                   help="the vendor-facing request for quotation (询价单): no prices, notes or findings")
    e.add_argument("--issue", action="store_true",
                   help="issue the priced quote: store its number, date and validity in the plan file (once; "
                        "printing it again keeps them)")
    e.add_argument("--checklist", type=Path, default=None, metavar="FILE")
    e.add_argument("--acceptance", type=Path, default=None, metavar="FILE",
                   help="the delivery acceptance sheet (验收单)")
    e.add_argument("--comparison", type=Path, default=None, metavar="FILE",
                   help="the comparison of the vendors' quotes attached to the plan (比价表)")
    e.add_argument("--xlsx", type=Path, default=None, metavar="FILE",
                   help="the bill of materials and the vendors' offers as a spreadsheet (XLSX)")
    e.add_argument("--lang", choices=languages(), default=None)
    e.add_argument("--paper", choices=("a4", "letter"), default="a4")
    e.add_argument("--policy", type=Path, default=None)
    e.add_argument("--allowed-signers", type=allowed_signers_arg, default=None, metavar="FILE",
                   help="ssh-keygen allowed-signers file the sign-offs' SSH signatures are checked against on "
                        "the checklist and the acceptance sheet")
    add_catalog_option(e)


def run(args: argparse.Namespace) -> int:
    return run_export(args, catalog_for(args))


def run_export(args: argparse.Namespace, catalog: Catalog) -> int:
    """Render the requested PDFs, then write each atomically; exit 2 on unreadable input or a write error."""
    lang: Lang = args.lang or default_lang()
    paper: Paper = "letter" if getattr(args, "paper", "a4") == "letter" else "a4"
    wanted = (("quote", args.quote), ("rfq", getattr(args, "rfq", None)), ("checklist", args.checklist),
              ("acceptance", getattr(args, "acceptance", None)), ("comparison", getattr(args, "comparison", None)),
              ("xlsx", getattr(args, "xlsx", None)))
    jobs = [(what, path) for what, path in wanted if path]
    if not jobs:
        print(t("export.nothing", lang), file=sys.stderr)
        return EXIT_UNREADABLE
    if len({str(p) if str(p) == "-" else os.path.realpath(p) for _, p in jobs}) < len(jobs):  # no ELOOP raise
        print(t("export.same_file", lang), file=sys.stderr)
        return EXIT_UNREADABLE
    try:
        plan = load_plan(args.plan, catalog, lang)
    except PlanError as exc:
        print(t("export.plan_error", lang), file=sys.stderr)
        print(str(exc), file=sys.stderr)
        return EXIT_UNREADABLE
    if not has_hardware(plan):
        # a plan of only 'schema_version' exported a quote of nothing; a chosen but unpriced part still
        # exports (a request for quotation)
        print(t("export.no_hardware", lang, gaps=describe_gaps(["gpu", "chassis", "cpu"], lang)), file=sys.stderr)
        return ExitStatus.INCOMPLETE
    try:
        policy = load_policy(getattr(args, "policy", None))
    except PolicyError as exc:
        print(t("export.policy_error", lang), file=sys.stderr)
        print(str(exc), file=sys.stderr)
        return EXIT_UNREADABLE
    # the one evaluation every command reads (procurement.evaluation): the documents show its findings
    findings = list(evaluate(plan, catalog, policy, lang).findings)
    issued_now = False
    if getattr(args, "issue", False) and args.quote and plan.quote.issued is None \
            and build_quote(plan, catalog, policy, lang=lang).complete:
        plan = issue_quote(plan)  # stored in the plan file once the PDFs are written
        issued_now = True
    render: dict[str, Callable[..., bytes]] = {
              "quote": render_quote_pdf, "checklist": render_checklist_pdf, "acceptance": render_acceptance_pdf,
              "rfq": partial(render_quote_pdf, document="rfq"), "comparison": render_comparison_pdf,
              "xlsx": render_bom_xlsx}
    allowed = getattr(args, "allowed_signers", None)

    def signers_for(what: str) -> dict[str, object]:  # the documents that carry sign-off blocks
        return {"allowed_signers": allowed} if what in ("checklist", "acceptance") else {}

    try:
        # Render everything before writing anything: a failure leaves no half-exported set behind.
        with collect_missing() as missing:
            outputs = [
                (
                    what,
                    path,
                    render[what](plan, catalog, policy=policy, findings=findings, lang=lang, paper=paper,
                                 **signers_for(what)),
                )
                for what, path in jobs
            ]
    except FontNotFoundError as exc:
        print(str(exc), file=sys.stderr)
        return EXIT_UNREADABLE
    if missing:
        print(t("export.missing_glyphs", lang, chars=describe_missing(missing)), file=sys.stderr)
    if unembedded_warning(lang):  # said, never silent: the PDF's first page says it too
        print(unembedded_warning(lang), file=sys.stderr)
    inputs = [p for p in (args.plan, getattr(args, "policy", None)) if p is not None]
    try:  # all or nothing: a bad or full second target leaves the first one as it was
        write_pdfs([(path, data) for _, path, data in outputs], lang, inputs)
    except ExportError as exc:
        print(str(exc), file=sys.stderr)
        return EXIT_UNREADABLE
    # a PDF on standard output ('-') keeps standard output for itself
    to = sys.stderr if any(str(path) == "-" for _, path in jobs) else sys.stdout
    if issued_now and plan.quote.issued is not None:
        from procurement.plan import save_plan

        try:
            save_plan(plan, args.plan)
        except OSError as exc:
            print(t("export.issue_failed", lang, path=args.plan, error=exc), file=sys.stderr)
            return EXIT_UNREADABLE
        print(t("export.issued", lang, number=plan.quote.issued.number, path=args.plan), file=to)
    # while a line is unpriced the quote is a request for quotation (询价单), and the message says so
    rfq = "quote" in render and not build_quote(plan, catalog, policy, lang=lang).complete
    for what, path, data in outputs:
        name = t("export.what.rfq" if what == "quote" and rfq else f"export.what.{what}", lang)  # rfq: its own
        print(t("export.wrote", lang, what=name, path=path, size=len(data)), file=to)
    return EXIT_OK

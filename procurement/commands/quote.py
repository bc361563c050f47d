"""`gpu-procure quote import|choose|compare PLAN …`: vendors' quotes from the command line (三家比价 without a screen).

`quote import PLAN FILE --vendor NAME [--vat incl|excl]` reads a vendor's CSV/XLSX quote, matches its lines to the
plan (as the dialog proposes them; each match is printed with its confidence) and attaches it; `quote choose PLAN
VENDOR` makes that offer the quote (prices, substitutes, vendor, terms); `quote compare PLAN` prints the offers
side by side. The plan is written atomically; nothing is written when a step fails.
"""

from __future__ import annotations

import argparse
import datetime as dt
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from procurement.commands import add_catalog_option, catalog_for
from procurement.exit_status import ExitStatus
from procurement.messages import Lang, default_lang, languages, register, t
from procurement.plan import Plan, PlanError, load_plan, one_line, save_plan

if TYPE_CHECKING:
    from catalog.loader import Catalog
    from procurement.pricing.compare import LineProposal

register(
    {
        "quotecmd.bad_plan": "cannot read the plan:\n{error}",
        "quotecmd.cannot_write": "cannot write {path}: {error}",
        "quotecmd.bad_date": "the date must be YYYY-MM-DD: {date}",
        "quotecmd.line": "row {row}: {text} → {part} ({confidence})",
        "quotecmd.line.extra": "row {row}: {text} → extra line",
        "quotecmd.line.sub": "row {row}: {text} → {part}, substitute {offered} ({confidence})",
        "quotecmd.vat": "VAT of the unit prices: {reading}",
        "quotecmd.vat.column": "as the price column says",
        "quotecmd.vat.chosen": "as chosen with --vat",
        "quotecmd.vat.statement": "as the file says ('{note}')",
        "quotecmd.vat.default": "as the default",
        "quotecmd.vat.unstated": "not stated: read as excluding VAT (the higher reading); give --vat incl|excl",
        "quotecmd.attached": "attached the quote of {vendor} ({n} lines) to {path}",
        "quotecmd.chosen": "chose the offer of {vendor}: its prices, substitutes and terms are the quote's ({path})",
        "quotecmd.no_vendor": "no quote from '{vendor}' in the plan (it has: {vendors})",
        "quotecmd.bad_vendor": (
            "--vendor: the vendor's name must be 1 to {limit} characters on one line ({given} given)"
        ),
        "quotecmd.offer": "{vendor}: {sum} · {compliance} · budget: {budget}{marks}",
        "quotecmd.sum.total": "total incl. VAT ¥{total:,.2f}",
        "quotecmd.sum.lower": "priced lines incl. VAT ¥{total:,.2f} (a lower bound: {n} unpriced)",
        "quotecmd.none": "no vendor quote is attached to the plan",
        "quotecmd.budget.within": "within",
        "quotecmd.budget.over": "over",
        "quotecmd.budget.unknown": "unknown (unpriced lines)",
        "quotecmd.budget.no_budget": "no budget set",
    }
)


def add_arguments(c: argparse.ArgumentParser) -> None:
    sub = c.add_subparsers(dest="action", required=True, metavar="import|choose|compare")
    imp = sub.add_parser("import", help="attach a vendor's quote (CSV or XLSX) to the plan")
    imp.add_argument("plan", type=Path)
    imp.add_argument("file", type=Path)
    imp.add_argument("--vendor", required=True, help="the vendor's name")
    imp.add_argument("--vat", choices=("incl", "excl"), default=None,
                     help="this vendor's unit prices include VAT (incl) or not (excl); default: as the file says")
    imp.add_argument("--number", default=None, help="the vendor's quote number (default: as the file says)")
    imp.add_argument("--date", default=None, help="the quote's date, YYYY-MM-DD (default: as the file says)")
    cho = sub.add_parser("choose", help="make a vendor's offer the quote")
    cho.add_argument("plan", type=Path)
    cho.add_argument("vendor")
    cmp = sub.add_parser("compare", help="print the attached offers side by side")
    cmp.add_argument("plan", type=Path)
    for p in (imp, cho, cmp):
        p.add_argument("--lang", choices=languages(), default=None)
        add_catalog_option(p)


def _save(plan: Plan, path: Path, lang: Lang) -> bool:
    try:
        save_plan(plan, path)
    except OSError as exc:
        print(t("quotecmd.cannot_write", lang, path=path, error=exc.strerror or exc), file=sys.stderr)
        return False
    return True


def run(args: argparse.Namespace) -> int:
    lang: Lang = args.lang or default_lang()
    catalog = catalog_for(args)
    try:
        plan = load_plan(args.plan, catalog, lang)
    except PlanError as exc:
        print(t("quotecmd.bad_plan", lang, error=exc), file=sys.stderr)
        return ExitStatus.UNUSABLE
    if args.action == "choose":
        return _choose(args, plan, lang)
    if args.action == "compare":
        return _compare(plan, catalog, lang)
    return _import(args, plan, catalog, lang)


def _choose(args: argparse.Namespace, plan: Plan, lang: Lang) -> int:
    from procurement.pricing.compare import choose

    vendors = [q.vendor for q in plan.vendor_quotes]
    if args.vendor not in vendors:  # a name as import stored it (one line: its line breaks became spaces)
        args.vendor = next((v for v in vendors if v == one_line(args.vendor).strip()), args.vendor)
    if args.vendor not in vendors:
        print(t("quotecmd.no_vendor", lang, vendor=args.vendor, vendors=", ".join(vendors) or "—"),
              file=sys.stderr)
        return ExitStatus.UNUSABLE
    if not _save(choose(plan, args.vendor), args.plan, lang):
        return ExitStatus.UNUSABLE
    print(t("quotecmd.chosen", lang, vendor=args.vendor, path=args.plan))
    return ExitStatus.OK


def _compare(plan: Plan, catalog: Catalog, lang: Lang) -> int:
    from procurement.pricing.compare import compare

    offers = compare(plan, catalog, lang=lang)
    if not offers.offers:
        print(t("quotecmd.none", lang))
    for o in offers.offers:
        marks = []
        if o.vendor in offers.lowest:
            marks.append(t("compare.lowest", lang))
        if o.vendor == offers.chosen:
            marks.append(t("compare.chosen", lang))
        total = (t("quotecmd.sum.total", lang, total=o.gross_cny) if o.complete
                 else t("quotecmd.sum.lower", lang, total=o.gross_cny, n=len(o.unpriced)))
        print(t("quotecmd.offer", lang, vendor=o.vendor, sum=total,
                compliance=t(f"compare.compliance.{o.compliance}", lang),
                budget=t(f"quotecmd.budget.{o.verdict().status}", lang), marks="".join(f" · {m}" for m in marks)))
    if offers.offers:
        print(offers.conclusion(lang))
    return ExitStatus.OK


def _import(args: argparse.Namespace, plan: Plan, catalog: Catalog, lang: Lang) -> int:
    from procurement.pricing.compare import propose_lines, quote_from, with_quote
    from procurement.pricing.import_prices import PriceFileError, import_for_plan

    vat = {"incl": True, "excl": False, None: None}[args.vat]
    vendor = one_line(args.vendor).strip()
    if not vendor or len(vendor) > VENDOR_MAX:  # the plan's limit: said here, not a traceback from the model
        print(t("quotecmd.bad_vendor", lang, limit=VENDOR_MAX, given=len(vendor)), file=sys.stderr)
        return ExitStatus.UNUSABLE
    args.vendor = vendor
    try:
        date = dt.date.fromisoformat(args.date) if args.date else None
    except ValueError:
        print(t("quotecmd.bad_date", lang, date=args.date), file=sys.stderr)
        return ExitStatus.UNUSABLE
    try:
        result = import_for_plan(args.file, plan, catalog, kind="vendor_quote", includes_vat=vat, lang=lang)
    except PriceFileError as exc:
        print(exc.message(lang), file=sys.stderr)
        return ExitStatus.UNUSABLE
    proposals = propose_lines(result, plan, catalog, lang)
    _print_proposals(proposals, catalog, lang)
    print(t("quotecmd.vat", lang, reading=t(f"quotecmd.vat.{result.vat_reading}", lang, note=result.vat_note)))
    info = result.info
    quote = quote_from(proposals, args.vendor, number=(args.number or info.get("number", ""))[:500],
                       date=date or _document_date(info.get("date")),
                       delivery=info.get("delivery", ""), warranty=info.get("warranty", ""),
                       payment_terms=info.get("payment", ""), document=args.file.name[:500])
    if not _save(with_quote(plan, quote), args.plan, lang):
        return ExitStatus.UNUSABLE
    print(t("quotecmd.attached", lang, vendor=args.vendor, n=len(quote.lines), path=args.plan))
    return ExitStatus.OK


def _shortened(text: str) -> str:
    one = " ".join(text.split())
    return one if len(one) <= LINE_TEXT_SHOWN else one[: LINE_TEXT_SHOWN - 1] + "…"


def _document_date(text: str | None) -> dt.date | None:
    """The date the vendor's document gives (2026-03-01 or 2026/03/01), if it reads as one."""
    if not text:
        return None
    try:
        return dt.date.fromisoformat(text.replace("/", "-"))
    except ValueError:
        return None


LINE_TEXT_SHOWN = 120
"""Characters of a vendor's line printed per proposal: a line of 30,000 characters named by 5,000 rows printed
150 MB (issue 31); the plan keeps 500 of each, the terminal a readable line."""
VENDOR_MAX = 500
"""A vendor's name, as the plan keeps it (plan.VendorQuote.vendor)."""


def _print_proposals(proposals: Sequence[LineProposal], catalog: Catalog, lang: Lang) -> None:
    names = {p.id: p.name for by_id in catalog.parts.values() for p in by_id.values()}
    proposals = [replace(p, text=_shortened(p.text)) for p in proposals]
    for p in proposals:
        if p.for_part is None:
            print(t("quotecmd.line.extra", lang, row=p.row, text=p.text))
        elif p.offered:
            print(t("quotecmd.line.sub", lang, row=p.row, text=p.text, part=names.get(p.for_part, p.for_part),
                    offered=names.get(p.offered, p.offered), confidence=p.confidence))
        else:
            print(t("quotecmd.line", lang, row=p.row, text=p.text, part=names.get(p.for_part, p.for_part),
                    confidence=p.confidence))

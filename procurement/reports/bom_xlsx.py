"""The bill of materials and the comparison of vendors' quotes as a spreadsheet (XLSX), with the quote's figures.

One sheet per table: the quote's lines (数量 × 单价 = 金额 exactly as the quote prints them, the totals and the parts
that ship inside others), and, when vendors' quotes are attached, the offers side by side. Text from a plan, a
catalog or a vendor's file is written as text, never as a formula ('=HYPERLINK(…)' stays a string), and the
figures are numbers, not formulas: the sheet shows the money the PDF shows.
"""

from __future__ import annotations

import datetime as dt
import io
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from catalog.loader import Catalog
from procurement.budgets.cost import bill_of_materials
from procurement.findings import Finding
from procurement.messages import Lang, register, t
from procurement.plan import Plan
from procurement.policy import Policy, default_policy
from procurement.reports import comparison_pdf  # noqa: F401  (the comparison's words: budget verdicts)
from procurement.reports.quote import build_quote, pct

register({
    "xlsx.sheet.bom": "Bill of materials",
    "xlsx.sheet.offers": "Vendor offers",
    "xlsx.col.category": "Category",
    "xlsx.included": "{count} × {part} per server, included with the {inside}",
    "xlsx.offer.total": "Sum incl. VAT",
    "xlsx.offer.complete": "Every line priced",
    "xlsx.offer.compliance": "Specification",
    "xlsx.offer.budget": "Budget",
    "xlsx.offer.mark": "Result",
    "xlsx.yes": "yes",
    "xlsx.no": "no (a lower bound)",
})

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _put(ws: Any, row: int, col: int, value: object, number_format: str | None = None) -> None:
    """A cell: numbers as numbers, everything else as text that no spreadsheet evaluates."""
    cell = ws.cell(row=row, column=col)
    if isinstance(value, Decimal | int | float) and not isinstance(value, bool):
        cell.value = value
        if number_format:
            cell.number_format = number_format
        return
    text = "" if value is None else str(value)
    cell.value = text
    cell.data_type = "s"  # openpyxl would store '=…' as a formula; text from a file stays text
    if text.startswith(_FORMULA_START):
        cell.quotePrefix = True  # shown as typed, and kept text when the sheet is edited and saved again


MONEY = "#,##0.00"


def render_bom_xlsx(
    plan: Plan,
    catalog: Catalog,
    *,
    policy: Policy | None = None,
    findings: Sequence[Finding] | None = None,
    lang: Lang = "zh",
    paper: str = "a4",
    today: dt.date | None = None,
) -> bytes:
    """The workbook as bytes (``findings`` and ``paper`` are taken for the export's common call and unused)."""
    import openpyxl

    del findings, paper
    policy = policy or default_policy()
    quote = build_quote(plan, catalog, policy, today, lang)
    book = openpyxl.Workbook()
    ws = book.active
    ws.title = t("xlsx.sheet.bom", lang)[:31]
    gross = quote.basis == "gross"
    heads = [t("quote.col.no", lang), t("xlsx.col.category", lang), t("quote.col.part", lang),
             t("quote.col.spec", lang), t("quote.col.qty", lang),
             t("quote.col.unit_gross" if gross else "quote.col.unit", lang),
             t("quote.col.amount_gross" if gross else "quote.col.amount", lang),
             t("quote.col.price_date", lang), t("quote.col.source", lang)]
    for col, head in enumerate(heads, 1):
        _put(ws, 1, col, head)
    on_request = t("quote.on_request", lang)
    row = 2
    for n, line in enumerate(quote.lines, 1):
        values: list[object] = [n, t(f"quote.cat.{line.category}", lang), line.name, line.spec, line.qty,
                                line.unit_price if line.unit_price is not None else on_request,
                                line.amount if line.amount is not None else on_request,
                                line.price_date.isoformat() if line.price_date else "",
                                line.price_source or ""]
        for col, value in enumerate(values, 1):
            _put(ws, row, col, value, MONEY if col in (6, 7) else None)
        row += 1
    for inc in bill_of_materials(plan, catalog).included:
        _put(ws, row, 3, t("xlsx.included", lang, count=inc.count, part=inc.part.name, inside=inc.inside))
        row += 1
    row += 1
    lower = not quote.complete
    for key, value in ((("quote.subtotal.lower" if lower else "quote.subtotal"), quote.subtotal),
                       ("quote.vat", quote.vat),
                       (("quote.total.lower" if lower else "quote.total"), quote.total)):
        _put(ws, row, 6, t(key, lang, rate=pct(quote.vat_rate_pct)))
        _put(ws, row, 7, value, MONEY)
        row += 1
    for letter, width in zip("ABCDEFGHI", (6, 12, 40, 36, 8, 16, 18, 12, 40), strict=True):
        ws.column_dimensions[letter].width = width
    if plan.vendor_quotes:
        _offers_sheet(book.create_sheet(t("xlsx.sheet.offers", lang)[:31]), plan, catalog, policy, lang)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def _offers_sheet(ws: Any, plan: Plan, catalog: Catalog, policy: Policy, lang: Lang) -> None:
    from procurement.pricing.compare import compare

    cmp = compare(plan, catalog, policy, lang)
    heads = [t("quote.vendor", lang), t("cmp.row.number", lang), t("cmp.row.delivery", lang),
             t("cmp.row.warranty", lang), t("cmp.row.payment", lang), t("xlsx.offer.total", lang),
             t("xlsx.offer.complete", lang), t("xlsx.offer.compliance", lang), t("xlsx.offer.budget", lang),
             t("xlsx.offer.mark", lang)]
    for col, head in enumerate(heads, 1):
        _put(ws, 1, col, head)
    for row, o in enumerate(cmp.offers, 2):
        marks = []
        if o.vendor in cmp.lowest:
            marks.append(t("compare.lowest", lang))
        if o.vendor == cmp.chosen:
            marks.append(t("compare.chosen", lang))
        gross = o.money.gross if o.money is not None else Decimal(str(round(o.gross_cny, 2)))
        values: list[object] = [o.vendor, o.quote.number, o.quote.delivery, o.quote.warranty, o.quote.payment_terms,
                                gross, t("xlsx.yes" if o.complete else "xlsx.no", lang),
                                t(f"compare.compliance.{o.compliance}", lang),
                                t(f"cmp.budget.{o.verdict().status}", lang), "；".join(marks)]
        for col, value in enumerate(values, 1):
            _put(ws, row, col, value, MONEY if col == 6 else None)
    _put(ws, len(cmp.offers) + 3, 1, cmp.conclusion(lang))

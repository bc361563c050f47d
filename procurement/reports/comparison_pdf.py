"""The comparison of vendors' quotes (比价表): the offers side by side per line (unit price, line total incl. VAT,
substitutions), each offer's delivery, warranty, payment terms, sum, compliance and budget verdict, the lowest
compliant offer and the chosen one, and the plan approval that covers the choice. A sum with an unpriced line is
printed as a lower bound, never as a total."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from decimal import Decimal

from reportlab.platypus import Flowable, Spacer

from catalog.loader import Catalog
from procurement.findings import Finding
from procurement.messages import Lang, register, t
from procurement.plan import Plan, canonical_digest
from procurement.policy import Policy
from procurement.pricing.compare import Comparison, OfferResult, OfferRow, compare
from procurement.reports.common import (
    STATUS_BG,
    Paper,
    Styles,
    build_pdf,
    long_table,
    make_styles,
    money,
    one_line_name,
    scaled,
    table,
)
from procurement.reports.signoff_pdf import kept, signoff_block

register({
    "cmp.title": "Comparison of vendors' quotes",
    "cmp.file": "quote-comparison",
    "cmp.plan": "Plan",
    "cmp.date": "Made on",
    "cmp.vat_note": (
        "Amounts include VAT at {rate}%; a unit price whose VAT status the vendor did not state is read as excluding "
        "it (the higher reading)."
    ),
    "cmp.none": "No vendor quote is attached to the plan.",
    "cmp.lines": "Line by line",
    "cmp.col.line": "Item",
    "cmp.col.qty": "Qty",
    "cmp.cell.unit": "unit {price} ({vat})",
    "cmp.cell.total": "incl. VAT {total}",
    "cmp.cell.net": "excl. VAT {total} (VAT on the offer's total)",
    "cmp.conclusion": "Conclusion",
    "cmp.panel": "Comparison panel (比价小组)",
    "cmp.panel.member": "Member (signature)",
    "cmp.panel.date": "Date",
    "cmp.vat.yes": "incl. VAT",
    "cmp.vat.no": "excl. VAT",
    "cmp.vat.unknown": "VAT not stated",
    "cmp.extra": "Extra lines (installation, shipping, warranty…)",
    "cmp.extra_of": "{vendor}: {text}",
    "cmp.summary": "Offers",
    "cmp.row.number": "Quote number / date",
    "cmp.row.delivery": "Delivery",
    "cmp.row.warranty": "Warranty",
    "cmp.row.payment": "Payment terms",
    "cmp.row.net": "Total excl. VAT",
    "cmp.row.gross": "Total incl. VAT",
    "cmp.row.lower": "Priced lines only (lower bound, {n} unpriced)",
    "cmp.row.compliance": "Rules on the vendor's variant",
    "cmp.row.budget": "Budget",
    "cmp.row.mark": "Result",
    "cmp.budget.within": "within budget",
    "cmp.budget.over": "over budget",
    "cmp.budget.unknown": "unknown (unpriced lines)",
    "cmp.budget.no_budget": "no budget set",
    "cmp.mark.lowest": "★ lowest compliant offer",
    "cmp.mark.lowest_provisional": "★ lowest compliant offer (provisional)",
    "cmp.mark.chosen": "✔ chosen",
    "cmp.lowest_line": "Lowest compliant offer: {vendors}. {more}",
    "cmp.provisional": "(Provisional: {why}.)",
    "cmp.chosen_line": "Chosen by the buyer: {vendor}.",
    "cmp.chosen_none": "The buyer has not chosen an offer.",
    "cmp.findings": "Findings on each vendor's variant",
    "cmp.findings.none": "{vendor}: nothing new.",
    "cmp.footer": "Quote comparison · plan digest {digest}",
})

PER_TABLE = 3
"""Vendors side by side in one table (more run on in further tables, each with the line names)."""


def _d(value: float | None) -> Decimal | None:
    return None if value is None else Decimal(str(round(value, 2)))


def _vat(flag: bool | None, lang: Lang) -> str:
    return t({True: "cmp.vat.yes", False: "cmp.vat.no", None: "cmp.vat.unknown"}[flag], lang)


def _qty(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


_ROW_INDEX: dict[int, tuple[OfferResult, dict[OfferRow, int]]] = {}
"""Each offer's row positions, by the offer's identity (the offer is kept with its map, so an id is never
reused while it is here): a lookup by ``rows.index`` per cell made a 5,000-line comparison quadratic."""


def _row_index(o: OfferResult) -> dict[OfferRow, int]:
    held = _ROW_INDEX.get(id(o))
    if held is None or held[0] is not o:
        if len(_ROW_INDEX) > 64:
            _ROW_INDEX.clear()
        index: dict[OfferRow, int] = {}
        for i, r in enumerate(o.rows):
            index.setdefault(r, i)  # the first equal row, as rows.index gives
        held = _ROW_INDEX[id(o)] = (o, index)
    return held[1]


def _amount(o: OfferResult, row: OfferRow) -> tuple[Decimal | None, bool]:
    """The row's amount as the offer adds it up (one computation: procurement/budgets/cost.py ``add_up``) and
    whether it includes VAT."""
    at = None if o.money is None else _row_index(o).get(row)
    if o.money is None or at is None:
        return _d(row.gross_cny(o.vat_rate_pct)), True
    return o.money.amounts[at], o.money.basis == "gross"


def _cell(row: OfferRow | None, o: OfferResult, lang: Lang) -> str:
    if row is None:
        return t("compare.line.not_quoted", lang)
    parts: list[str] = []
    if row.unit_cny is not None:
        price = money(_d(row.unit_cny), lang, "")
        parts.append(t("cmp.cell.unit", lang, price=price, vat=_vat(row.includes_vat, lang)))
        amount, gross = _amount(o, row)
        parts.append(t("cmp.cell.total" if gross else "cmp.cell.net", lang, total=money(amount, lang, "")))
    parts += list(row.notes)
    return "\n".join(parts)


def _offer_chunks(offers: Sequence[OfferResult]) -> list[Sequence[OfferResult]]:
    return [offers[i:i + PER_TABLE] for i in range(0, len(offers), PER_TABLE)] or [[]]


def _lines_table(cmp: Comparison, offers: Sequence[OfferResult], st: Styles, paper: Paper) -> Flowable:
    lang = st.lang
    head = [st.p(t("cmp.col.line", lang), st.cell_head), st.p(t("cmp.col.qty", lang), st.cell_head),
            *(st.name(o.vendor, st.cell_head) for o in offers)]
    first = cmp.offers[0] if cmp.offers else None
    plan_rows = [r for r in first.rows if r.path is not None] if first else []
    # a row per plan line, then each vendor's extra lines, one row per line, in the vendor's column
    items: list[tuple[int, OfferRow, OfferResult | None]] = [(0, base, None) for base in plan_rows]
    items += [(col, row, o) for col, o in enumerate(offers, 2) for row in o.rows if row.path is None]

    def item_row(item: tuple[int, OfferRow, OfferResult | None]) -> tuple[list[object], list[tuple[object, ...]]]:
        """One row (built when its page is laid out) and its cells' backgrounds."""
        col, base, offer = item
        if offer is not None:
            cells: list[object] = [
                st.p(t("cmp.extra_of", lang, vendor=one_line_name(offer.vendor), text=one_line_name(base.name)),
                     st.cell),
                st.p(_qty(base.quantity), st.cell)]
            cells += [st.p(_cell(base, offer, lang) if c == col else "", st.cell) for c in range(2, 2 + len(offers))]
            return cells, []
        extra: list[tuple[object, ...]] = []
        cells = [st.name(base.name, st.cell), st.p(_qty(base.quantity), st.cell)]
        for c, o in enumerate(offers, 2):
            row = next((x for x in o.rows if x.path == base.path), None)
            cells.append(st.p(_cell(row if row is None or row.quoted else None, o, lang), st.cell))
            if row is None or row.unit_cny is None:
                extra.append(("BACKGROUND", (c, 0), (c, 0), STATUS_BG["unknown"]))
            elif row.substitution != "none":
                extra.append(("BACKGROUND", (c, 0), (c, 0), STATUS_BG["attention"]))
        return cells, extra

    widths = scaled([26, 7, *([67 / max(1, len(offers))] * len(offers))], paper)
    return long_table([head], items, item_row, widths, font=st.font)


def _sum_cell(o: OfferResult, lang: Lang, *, gross: bool) -> str:
    value = money(_d(o.gross_cny if gross else o.net_cny), lang, "")
    if o.complete:
        return value
    return f"{t('cmp.row.lower', lang, n=len(o.unpriced))}\n{value}"


def _summary_table(cmp: Comparison, offers: Sequence[OfferResult], st: Styles, paper: Paper) -> Flowable:
    lang = st.lang
    rows: list[list[object]] = [[st.p("", st.cell_head), *(st.name(o.vendor, st.cell_head) for o in offers)]]
    extra: list[tuple[object, ...]] = []

    def add(label: str, values: Sequence[str]) -> int:
        rows.append([st.p(label, st.cell), *(st.p(v, st.cell) for v in values)])
        return len(rows) - 1

    add(t("cmp.row.number", lang), [" / ".join(x for x in (o.quote.number, o.quote.date.isoformat()
                                                           if o.quote.date else "") if x) or "—" for o in offers])
    add(t("cmp.row.delivery", lang), [o.quote.delivery or "—" for o in offers])
    add(t("cmp.row.warranty", lang), [o.quote.warranty or "—" for o in offers])
    add(t("cmp.row.payment", lang), [o.quote.payment_terms or "—" for o in offers])
    # a sum with an unpriced line is labelled a lower bound: never 'total'
    r_net = add(t("cmp.row.net", lang), [_sum_cell(o, lang, gross=False) for o in offers])
    r_gross = add(t("cmp.row.gross", lang), [_sum_cell(o, lang, gross=True) for o in offers])
    r_comp = add(t("cmp.row.compliance", lang),
                 ["\n".join([t(f"compare.compliance.{o.compliance}", lang), *o.reasons]) for o in offers])
    add(t("cmp.row.budget", lang), [t(f"cmp.budget.{o.verdict().status}", lang) for o in offers])
    marks = []
    for o in offers:
        words = []
        if o.vendor in cmp.lowest:
            words.append(t("cmp.mark.lowest_provisional" if cmp.provisional else "cmp.mark.lowest", lang))
        if o.vendor == cmp.chosen:
            words.append(t("cmp.mark.chosen", lang))
        marks.append("\n".join(words))
    r_mark = add(t("cmp.row.mark", lang), marks)
    for col, o in enumerate(offers, 1):
        status = {"compliant": "pass", "fails": "fail", "unknown": "unknown"}[o.compliance]
        extra.append(("BACKGROUND", (col, r_comp), (col, r_comp), STATUS_BG[status]))
        if not o.complete:
            extra += [("BACKGROUND", (col, r), (col, r), STATUS_BG["unknown"]) for r in (r_net, r_gross)]
        if o.vendor in cmp.lowest or o.vendor == cmp.chosen:
            extra.append(("BACKGROUND", (col, r_mark), (col, r_mark), STATUS_BG["pass"]))
    widths = scaled([22, *([78 / max(1, len(offers))] * len(offers))], paper)
    return table(rows, widths, font=st.font, extra=extra)


def _findings(cmp: Comparison, st: Styles) -> list[Flowable]:
    lang = st.lang
    out: list[Flowable] = []
    for o in cmp.offers:
        if not o.findings:
            out.append(st.p(t("cmp.findings.none", lang, vendor=one_line_name(o.vendor)), st.body))
            continue
        out.append(st.name(o.vendor, st.cell_head))
        out += [st.p(f"• [{f.severity.value}] {f.rule}: {f.message_text(lang)}", st.small) for f in o.findings]
    return out


def render_comparison_pdf(
    plan: Plan,
    catalog: Catalog,
    *,
    policy: Policy | None = None,
    findings: Sequence[Finding] | None = None,
    lang: Lang = "zh",
    paper: Paper = "a4",
    today: dt.date | None = None,
    comparison: Comparison | None = None,
) -> bytes:
    """The comparison as PDF bytes (``comparison``: one the caller already computed for the same plan)."""
    del findings  # each offer has its own variant's findings
    cmp = comparison or compare(plan, catalog, policy, lang)
    st = make_styles(lang)
    vat_rate = cmp.offers[0].vat_rate_pct if cmp.offers else 13.0
    day = today or dt.date.today()
    head = table([[st.p(t("cmp.plan", lang), st.cell), st.name(plan.title or "—", st.cell),
                   st.p(t("cmp.date", lang), st.cell), st.p(day.isoformat(), st.cell)],
                  [st.p(t("report.digest", lang), st.cell), st.p(canonical_digest(plan), st.mono), "", ""]],
                 scaled([14, 46, 14, 26], paper), header_rows=0, font=st.font, extra=[("SPAN", (1, 1), (-1, 1))])
    story: list[Flowable] = [st.p(t("cmp.title", lang), st.title), head, Spacer(1, 4),
                             st.p(t("cmp.vat_note", lang, rate=f"{vat_rate:g}"), st.small)]
    if not cmp.offers:
        story.append(st.p(t("cmp.none", lang), st.body))
    else:
        vendors = ("、" if lang == "zh" else ", ").join(cmp.lowest)
        more = t("cmp.provisional", lang, why=cmp.provisional_why(lang)) if cmp.provisional else ""
        lowest = t("cmp.lowest_line", lang, vendors=vendors, more=more) if cmp.lowest else cmp.lowest_text(lang)
        chosen = t("cmp.chosen_line", lang, vendor=cmp.chosen) if cmp.chosen else t("cmp.chosen_none", lang)
        story += [st.p(lowest, st.body), st.p(chosen, st.body)]
        for chunk in _offer_chunks(cmp.offers):
            story.append(st.section(t("cmp.summary", lang), _summary_table(cmp, chunk, st, paper)))
            story.append(st.section(t("cmp.lines", lang), _lines_table(cmp, chunk, st, paper)))
        first, *rest = _findings(cmp, st)
        story += [st.section(t("cmp.findings", lang), first), *rest]
        # the written conclusion, signed by the panel that compared the offers (not by a vendor)
        panel = table([[st.p(t("cmp.panel.member", lang), st.cell_head), st.p(t("cmp.panel.date", lang),
                                                                              st.cell_head)],
                       *([Spacer(1, 22), ""] for _ in range(3))], scaled([70, 30], paper), font=st.font)
        story.append(kept(st.section(t("cmp.conclusion", lang), st.p(cmp.conclusion(lang), st.body),
                                     whole=True)))
        story.append(kept(st.section(t("cmp.panel", lang), panel, whole=True)))
    story.append(kept(signoff_block(plan, "approval", catalog, st, paper)))
    return build_pdf(story, paper=paper, lang=lang, title=t("cmp.title", lang),
                     footer=t("cmp.footer", lang, digest=canonical_digest(plan)[:16]),
                     subject=one_line_name(plan.title))

"""The quote's PDF: the buyer's quote (报价单) or the vendor-facing request for quotation (询价单), from
the figures of quote.py."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Flowable, KeepTogether, Paragraph, Spacer

from catalog.loader import Catalog
from procurement.budgets.cost import bill_of_materials
from procurement.findings import Finding, Severity
from procurement.messages import Lang, t
from procurement.plan import Plan, canonical_digest
from procurement.policy import Policy
from procurement.reports.capitals import capital_amount
from procurement.reports.common import (
    GROUP_BG,
    Paper,
    Styles,
    build_pdf,
    frame_width,
    long_table,
    make_styles,
    markup,
    money,
    one_line_name,
    policy_and_findings,
    scaled,
    table,
)
from procurement.reports.quote import (
    CATEGORIES,
    PARTY_EXTRA,
    RFQ_ASKS,
    RFQ_REPLY_DAYS,
    TERMS,
    Document,
    Quote,
    QuoteLine,
    build_quote,
    open_findings,
    part_spec,
    pct,
    price_source_text,
    rfq_power_text,
)
from procurement.terminal import prose


def _party_table(plan: Plan, st: Styles, paper: Paper) -> Flowable:
    lang = st.lang
    rows = [[st.p(t("quote.buyer", lang), st.cell_head), "", st.p(t("quote.vendor", lang), st.cell_head), ""]]
    buyer, vendor = plan.quote.buyer, plan.quote.vendor
    given = [k for k in PARTY_EXTRA if getattr(buyer, k).strip() or getattr(vendor, k).strip()]
    for key in ("name", "contact", "address", *given):
        label = t(f"quote.party.{key}", lang)
        rows.append(
            [
                st.p(label, st.cell),
                # an address may have lines of its own; a name, a phone number or an account has none
                (st.p if key == "address" else st.name)(getattr(plan.quote.buyer, key), st.cell),
                st.p(label, st.cell),
                (st.p if key == "address" else st.name)(getattr(plan.quote.vendor, key), st.cell),
            ]
        )
    return table(
        rows,
        scaled([12, 38, 12, 38], paper),
        font=st.font,
        extra=[("SPAN", (0, 0), (1, 0)), ("SPAN", (2, 0), (3, 0))],
    )


def _term_value(plan: Plan, key: str, lang: Lang) -> str:
    value = getattr(plan.quote, key)
    if key == "invoice":
        return t(f"quote.invoice.{value}", lang) if value else ""
    return str(value).strip()


def _wanted(plan: Plan, ask: str, lang: Lang) -> str:
    """What the buyer asks for on an RFQ line, where the plan states it (delivery within 30 days …)."""
    value = _term_value(plan, ask, lang) if ask in TERMS else ""
    return t("rfq.wanted", lang, value=prose(value)) if value else ""


def _terms_table(plan: Plan, quote: Quote, st: Styles, paper: Paper) -> Flowable:
    """交货期, 质保/售后, 付款方式, 发票类型, 运费/安装调试 and 报价有效期: each as stated, or 'not stated'."""
    lang = st.lang
    rows: list[list[object]] = [
        [st.p(t(f"quote.term.{key}", lang), st.cell),
         st.p(_term_value(plan, key, lang) or t("quote.term.not_stated", lang), st.cell)]
        for key in TERMS
    ]
    days = (quote.valid_until - quote.date).days
    rows.append([st.p(t("quote.term.validity", lang), st.cell),
                 st.p(t("quote.term.validity_value", lang, days=days, date=quote.valid_until.isoformat()), st.cell)])
    return table(rows, scaled([20, 80], paper), header_rows=0, font=st.font)


def _signature_table(st: Styles, paper: Paper) -> Flowable:
    """A signature and seal block for each party, side by side, with room for the seal."""
    lang = st.lang
    rows: list[list[object]] = [
        [st.p(t("quote.sign.buyer", lang), st.cell_head), st.p(t("quote.sign.vendor", lang), st.cell_head)],
        [Spacer(1, 60), Spacer(1, 60)],
        [st.p(t("quote.sign.person", lang), st.cell), st.p(t("quote.sign.person", lang), st.cell)],
        [st.p(t("quote.sign.date", lang), st.cell), st.p(t("quote.sign.date", lang), st.cell)],
    ]
    return table(rows, scaled([50, 50], paper), font=st.font)


def money_cell(text: str, width: float, st: Styles) -> Paragraph:
    """An amount right-aligned on one line: the font shrinks (down to 6 pt) rather than the number breaking
    (¥13,309,734.51 is never cut after the point); the cell's padding is 3 pt each side."""
    base = st.cell_right
    size = float(base.fontSize)
    room = width - 6 - 0.5
    while size > 6 and stringWidth(text, base.fontName, size) > room:
        size -= 0.25
    if size == base.fontSize:
        return st.p(text, base)
    style = ParagraphStyle(f"money{size}", parent=base, fontSize=size, leading=base.leading)
    return st.p(text, style)


def findings_table(findings: Sequence[Finding], st: Styles, paper: Paper) -> Flowable:
    """The open findings (errors and warnings first), shared by the quote and the checklist PDFs."""
    lang = st.lang
    rows: list[list[object]] = [
        [
            st.p(t("quote.col.severity", lang), st.cell_head),
            st.p(t("quote.col.rule", lang), st.cell_head),
            st.p(t("quote.col.finding", lang), st.cell_head),
        ]
    ]
    for f in findings:
        text = markup(f.message_text(lang))
        if fix := f.fix_text(lang):
            text += "<br/>" + markup(t("quote.fix", lang, fix=fix))
        rows.append(
            [
                st.p(t(f"severity.{f.severity.value}", lang), st.cell),
                st.p(f.rule, st.cell),
                st.raw(text, st.cell),
            ]
        )
    return table(rows, scaled([9, 27, 64], paper), font=st.font)


def render_quote_pdf(
    plan: Plan,
    catalog: Catalog,
    *,
    policy: Policy | None = None,
    findings: Sequence[Finding] | None = None,
    lang: Lang = "zh",
    paper: Paper = "a4",
    today: dt.date | None = None,
    document: Document = "auto",
) -> bytes:
    """The quote as PDF bytes (for a file, a print preview, or both from the same bytes): the buyer's quote
    (报价单) when every line is priced, else — or when ``document`` is 'rfq' — the vendor-facing request for
    quotation (询价单), which carries no prices, totals, findings, notes or cost of ownership."""
    policy, findings = policy_and_findings(plan, catalog, policy, findings, lang)
    quote = build_quote(plan, catalog, policy, today, lang)
    st = make_styles(lang)
    on_request = t("quote.on_request", lang)
    rfq = document == "rfq" or (document == "auto" and not quote.complete)
    title_key = "rfq.title" if rfq else "quote.title"
    story: list[Flowable] = [st.p(t(title_key, lang), st.title)]
    if plan.title:  # one line whatever it holds (a line break in a title printed a heading of its own)
        story.append(st.name(plan.title, st.h2))
    days = (quote.valid_until - quote.date).days  # one validity: the issued paper's own, never the plan's setting
    if rfq:
        head = [
            [st.p(t("rfq.number", lang), st.cell), st.p(quote.number, st.cell),
             st.p(t("rfq.date", lang), st.cell), st.p(quote.date.isoformat(), st.cell)],
            [st.p(t("rfq.deadline", lang), st.cell),
             st.p(t("rfq.deadline_value", lang, date=(quote.date + dt.timedelta(days=RFQ_REPLY_DAYS)).isoformat(),
                    days=RFQ_REPLY_DAYS), st.cell), "", ""],
        ]
    else:
        head = [
            [st.p(t("quote.number", lang), st.cell), st.p(quote.number, st.cell),
             st.p(t("quote.date", lang), st.cell), st.p(quote.date.isoformat(), st.cell)],
            [st.p(t("quote.valid_until", lang), st.cell),
             st.p(t("quote.valid_days", lang, date=quote.valid_until.isoformat(), days=days), st.cell), "", ""],
        ]
    # The digest gets a whole row: 64 hex digits on one line, never cut by the line breaker.
    head.append([st.p(t("report.digest", lang), st.cell), st.p(canonical_digest(plan), st.mono), "", ""])
    story += [
        table(head, scaled([13, 30, 13, 44], paper), header_rows=0, font=st.font,
              extra=[("SPAN", (1, 1), (-1, 1)), ("SPAN", (1, 2), (-1, 2))]),
        Spacer(1, 6),
        _party_table(plan, st, paper),
        Spacer(1, 4),
    ]

    gross = quote.basis == "gross"
    cols = ("no", "part", "spec", "uom", "qty", "unit", "amount")

    def head_key(c: str) -> str:
        if rfq and c in ("unit", "amount"):
            return f"rfq.col.{c}"
        if gross and c in ("unit", "amount"):
            return f"quote.col.{c}_gross"
        return f"quote.col.{c}"

    header: list[list[object]] = [[st.p(t(head_key(c), lang), st.cell_head) for c in cols]]
    widths = scaled([5, 24, 27, 5, 6, 16, 17], paper)
    group: list[tuple[object, ...]] = [("SPAN", (0, 0), (-1, 0)), ("BACKGROUND", (0, 0), (-1, 0), GROUP_BG)]
    items: list[tuple[object, ...]] = []  # ("cat", category) | ("line", n, line) | ("inside", n, included part)
    n = 0
    bom = bill_of_materials(plan, catalog)
    by_category: dict[str, list[QuoteLine]] = {}
    for line in quote.lines:
        by_category.setdefault(line.category, []).append(line)
    for cat in CATEGORIES:
        cat_lines = by_category.get(cat, [])
        inside = [inc for inc in bom.included if cat == "power"]
        if not cat_lines and not inside:
            continue
        items.append(("cat", cat))
        for line in cat_lines:
            n += 1
            items.append(("line", n, line))
        # the PSUs that ship in the chassis are a numbered line of both the request and the quote (priced with the
        # chassis): a vendor answering the request by line number meets the same numbers on the buyer's quote
        for inc in inside:
            n += 1
            items.append(("inside", n, inc))

    def item_row(item: tuple[Any, ...]) -> tuple[list[object], Sequence[tuple[object, ...]]]:
        """One row of the line items (built when its page is laid out) and its style."""
        if item[0] == "cat":
            return [st.p(t(f"quote.cat.{item[1]}", lang), st.cell_head), "", "", "", "", "", ""], group
        if item[0] == "line":
            _, no, line = item
            return [
                st.p(str(no), st.cell_right),
                st.name(line.name, st.cell),
                st.p(line.spec, st.cell),
                st.p(t(f"quote.uom.{line.category}", lang), st.cell),
                st.p(str(line.qty), st.cell_right),
                # the vendor-facing request leaves the price cells for the vendor to fill in
                "" if rfq else money_cell(money(line.unit_price, lang, on_request), widths[5], st),
                "" if rfq else money_cell(money(line.amount, lang, on_request), widths[6], st),
            ], ()
        _, no, inc = item
        return [st.p(str(no), st.cell_right), st.p(inc.part.name, st.cell),
                st.p(part_spec(inc.part, lang), st.cell), st.p(t("quote.uom.power", lang), st.cell),
                st.p(str(inc.count * quote.nodes), st.cell_right),
                st.p(t("rfq.included_in", lang, chassis=inc.inside), st.cell), ""], [("SPAN", (5, 0), (6, 0))]

    story.append(st.section(t("quote.items", lang), long_table(header, items, item_row, widths, font=st.font)))
    story.append(Spacer(1, 6))

    from procurement.facility_summary import facility_section  # amps per cord, VA, BTU/h, the PDU (one model)

    if rfq:
        story += facility_section(plan, catalog, policy, st, lang)
        # No totals while any line is unpriced: a sum with unknown terms is not a total (DESIGN.md, rules of
        # truth). The request says what the vendor is asked for; internal content stays in the buyer's copy.
        texts = [f"{t(f'rfq.ask.{k}', lang)}{_wanted(plan, k, lang)}" for k in RFQ_ASKS]
        power = rfq_power_text(plan, catalog, lang)
        if power:
            texts.insert(1, power)
        asks = [st.p(f"{i}. {text}", st.body) for i, text in enumerate(texts, 1)]
        story += [st.section(t("rfq.asks", lang), asks[0]), *asks[1:]]
        footer = t("rfq.footer", lang, number=quote.number, digest=canonical_digest(plan)[:16])
        return build_pdf(story, paper=paper, lang=lang, title=f"{t('rfq.title', lang)} {quote.number}",
                         footer=footer, subject=one_line_name(plan.title))

    lower = not quote.complete  # a sum with an unpriced line is a lower bound, and says so
    label = (lambda key: t(f"{key}.lower", lang)) if lower else (lambda key: t(key, lang))
    figure_w = sum(widths[5:])
    totals: list[list[object]] = [
        [st.p(label("quote.subtotal"), st.cell), money_cell(money(quote.subtotal, lang, on_request), figure_w, st)],
        [st.p(t("quote.vat", lang, rate=pct(quote.vat_rate_pct)) + (t("quote.lower_mark", lang) if lower else ""),
              st.cell), money_cell(money(quote.vat, lang, on_request), figure_w, st)],
        [st.p(label("quote.total"), st.cell_head), money_cell(money(quote.total, lang, on_request), figure_w, st)],
    ]
    tot_extra: list[tuple[object, ...]] = [("BACKGROUND", (0, 2), (-1, 2), GROUP_BG)]
    if lang == "zh" and not lower:  # 大写金额 and 万元 are how Chinese paperwork states a total
        # 大写 directly under the figure, across the whole width so that it never wraps
        totals.append([st.p(f"{t('quote.total_capitals', lang)}：人民币{capital_amount(quote.total)}", st.cell), ""])
        tot_extra.append(("SPAN", (0, 3), (-1, 3)))
        totals.append([st.p(t("quote.total_wan", lang), st.cell),
                       st.p(t("quote.wan", lang, value=f"{quote.total_wan:,.2f}"), st.cell_right)])
    tot = table(totals, [frame_width(paper) - figure_w, figure_w], header_rows=0, font=st.font, extra=tot_extra)
    # the totals, the amount in words and the signature and seal block stay together, on the page of the items
    story.append(KeepTogether([tot, Spacer(1, 6), st.p(t("quote.signatures", lang), st.h2),
                               _signature_table(st, paper)]))
    story.append(st.section(t("quote.terms", lang), _terms_table(plan, quote, st, paper)))

    notes = [st.p(f"{i}. {note}", st.body) for i, note in enumerate(quote.notes, 1)]
    story += [st.section(t("quote.notes", lang), notes[0]), *notes[1:]]
    priced = [line for line in quote.lines if line.unit_price is not None]
    if priced:
        prow: list[list[object]] = [
            [st.p(t(head_key(c) if c == "unit" else f"quote.col.{c}", lang), st.cell_head)
             for c in ("part", "unit", "price_date", "source")]
        ]
        pw = scaled([30, 16, 12, 42], paper)
        seen: set[str] = set()
        for line in priced:
            if line.part_id in seen:
                continue
            seen.add(line.part_id)
            prow.append(
                [
                    st.name(line.name, st.cell),
                    money_cell(money(line.unit_price, lang, ""), pw[1], st),
                    st.p(line.price_date.isoformat() if line.price_date else "—", st.cell),
                    st.p(price_source_text(line.price_kind, line.price_source, lang), st.cell),
                ]
            )
        story.append(st.section(t("quote.prices", lang), table(prow, pw, font=st.font)))
    from procurement.budgets.tco import describe_tco, plan_tco

    tco_lines = [st.p(line, st.body) for line in describe_tco(plan_tco(plan, catalog, policy), lang)]
    story += [st.section(t("tco.title", lang), tco_lines[0]), *tco_lines[1:]]
    if plan.notes.strip():
        story.append(st.section(t("quote.plan_notes", lang), st.p(plan.notes, st.body)))
    story += facility_section(plan, catalog, policy, st, lang)
    shown = [f for f in open_findings(findings) if f.severity != Severity.INFO]
    story.append(st.section(t("quote.findings", lang),
                            findings_table(shown, st, paper) if shown else st.p(t("quote.no_findings", lang), st.body)))
    footer = t("quote.footer", lang, number=quote.number, digest=canonical_digest(plan)[:16])
    return build_pdf(
        story,
        paper=paper,
        lang=lang,
        title=f"{t('quote.title', lang)} {quote.number}",
        footer=footer,
        subject=one_line_name(plan.title),
    )

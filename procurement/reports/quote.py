"""The quote: line items from the plan and catalog prices, totals with VAT, and its PDF."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, Literal

from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Flowable, KeepTogether, Paragraph, Spacer

from catalog.loader import Catalog
from catalog.models import (
    Chassis,
    ContainerImage,
    Cpu,
    CudaRelease,
    DriverBranch,
    Framework,
    Gpu,
    MemoryModule,
    Nic,
    OperatingSystem,
    Part,
    Psu,
    Storage,
)
from procurement import part_texts  # noqa: F401  (registers the spec words the quote lines use)
from procurement.budgets.cost import CATEGORY_ORDER, bill_of_materials
from procurement.budgets.parts import resolve
from procurement.checklist import fmt_num
from procurement.coded import render_value
from procurement.findings import Finding, Severity
from procurement.messages import Lang, register, t
from procurement.plan import IssuedQuote, Plan, canonical_digest
from procurement.policy import Policy, default_policy
from procurement.pricing.provenance import PLAN_PRICE_KINDS as PLAN_PRICE_KINDS
from procurement.pricing.provenance import catalog_price_kind as catalog_price_kind
from procurement.pricing.provenance import price_kind_text
from procurement.reports.capitals import capital_amount
from procurement.reports.common import (
    CENT,
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
from procurement.rules.power import redundancy_label

CATEGORIES = CATEGORY_ORDER
RFQ_ASKS = ("prices", "delivery", "warranty", "payment", "invoice", "freight", "validity", "substitutes")
PARTY_EXTRA = ("phone", "tax_id", "bank", "bank_account")
"""Party fields printed only when either party gives them."""
TERMS = ("delivery", "warranty", "payment", "invoice", "freight")
Document = Literal["quote", "auto", "rfq"]
"""'quote': the buyer's quote (报价单, with internal content) whatever the prices — with an unpriced line its sums
say they are lower bounds; 'auto': the quote when every line is priced, else the request for quotation; 'rfq':
the vendor-facing request for quotation (询价单) whatever the prices."""
RFQ_REPLY_DAYS = 7
"""The reply deadline an RFQ states: seven days from its date (a common 询价 period; the buyer may extend it)."""

register(
    {
        "quote.title": "Quotation",
        "quote.number": "Quote number",
        "quote.date": "Date",
        "quote.valid_until": "Valid until",
        "quote.valid_days": "{date} ({days} days)",
        "quote.plan": "Plan",
        "quote.buyer": "Buyer",
        "quote.vendor": "Vendor",
        "quote.party.name": "Name",
        "quote.party.contact": "Contact",
        "quote.party.address": "Address",
        "quote.party.phone": "Phone",
        "quote.party.tax_id": "Tax id",
        "quote.party.bank": "Bank",
        "quote.party.bank_account": "Account",
        "quote.terms": "Commercial terms",
        "quote.term.delivery": "Delivery",
        "quote.term.warranty": "Warranty and service",
        "quote.term.payment": "Payment terms",
        "quote.term.invoice": "Invoice",
        "quote.term.freight": "Freight and installation",
        "quote.term.validity": "Quotation valid",
        "quote.term.validity_value": "{days} days (until {date})",
        "quote.term.not_stated": "not stated",
        "quote.invoice.special": "special VAT invoice (增值税专用发票)",
        "quote.invoice.ordinary": "ordinary VAT invoice (增值税普通发票)",
        "quote.signatures": "Signatures and seals",
        "quote.sign.buyer": "Buyer (seal)",
        "quote.sign.vendor": "Vendor (seal)",
        "quote.sign.person": "Authorised signature:",
        "quote.sign.date": "Date:",
        "quote.stale": (
            "Note: the configuration changed after quote {number} was issued (digest then {old}, now {new}); issue a "
            "new quote number to quote the new configuration."
        ),
        "quote.provisional": (
            "The quote number and date are not issued yet (exporting the quote from the app issues and stores them in "
            "the plan)."
        ),
        "rfq.wanted": " (the buyer asks for: {value})",
        "quote.items": "Line items",
        "quote.col.no": "No.",
        "quote.col.uom": "Unit",
        "quote.uom.gpu": "pcs",
        "quote.uom.cpu": "pcs",
        "quote.uom.memory": "pcs",
        "quote.uom.storage": "pcs",
        "quote.uom.network": "pcs",
        "quote.uom.power": "pcs",
        "quote.uom.chassis": "unit",
        "quote.uom.software": "set",
        "quote.uom.service": "item",
        "quote.cat.service": "Services and other lines of the chosen offer",
        "quote.total_capitals": "Total in words",
        "price.source_line": "{kind}: {source}",
        "price.source_only": "{source}",
        "rfq.title": "Request for quotation",
        "rfq.col.unit": "Unit price incl. VAT (to fill in)",
        "rfq.col.amount": "Amount incl. VAT (to fill in)",
        "rfq.asks": "Please state in your quotation",
        "rfq.ask.prices": (
            "The unit price and amount of every line including VAT (state the rate); the totals before VAT, the VAT "
            "and the total including VAT."
        ),
        "rfq.ask.delivery": "Delivery time (days from signing).",
        "rfq.ask.warranty": "Warranty period and after-sales service (response time, on-site service).",
        "rfq.ask.payment": "Payment terms.",
        "rfq.ask.invoice": "Invoice type (special VAT invoice / ordinary invoice).",
        "rfq.ask.freight": "Whether freight, installation and commissioning are included.",
        "rfq.ask.validity": "How long the quotation is valid.",
        "rfq.ask.substitutes": (
            "Where you offer a different model for any line, name the substitute and its specification line by line."
        ),
        "rfq.footer": "RFQ {number} · plan digest {digest}",
        "quote.col.part": "Item",
        "quote.col.spec": "Model / specification",
        "quote.col.qty": "Qty",
        "quote.col.unit": "Unit price excl. VAT (CNY)",
        "quote.col.amount": "Amount excl. VAT (CNY)",
        "quote.cat.gpu": "GPU",
        "quote.cat.cpu": "CPU",
        "quote.cat.memory": "Memory",
        "quote.cat.storage": "Storage",
        "quote.cat.network": "Network",
        "quote.cat.power": "Power",
        "quote.cat.chassis": "Chassis / platform",
        "quote.cat.software": "Software",
        "quote.on_request": "on request",
        "quote.subtotal": "Subtotal (excl. VAT)",
        "quote.vat": "VAT {rate}%",
        "quote.total": "Total (incl. VAT)",
        "quote.total_wan": "Total in units of 10,000 CNY",
        "quote.wan": "{value} × 10,000 CNY",
        "quote.notes": "Notes and assumptions",
        "quote.note.reference": (
            "Unit prices and amounts exclude VAT (VAT-inclusive prices are converted at the rate); catalog reference "
            "prices are indicative, the vendor's formal quotation prevails."
        ),
        "quote.note.vat_included": (
            "Reference prices that include VAT (China retail prices) already carry {rate}% VAT: their net unit price "
            "is derived from the VAT-inclusive price, and VAT is not added twice."
        ),
        "quote.note.vat_unknown": (
            "Reference prices whose source does not say whether VAT is included are read as excluding it, and {rate}% "
            "VAT is added (the higher reading)."
        ),
        "quote.note.nodes": "Quantities are for {nodes} identical servers.",
        "quote.note.vat": "VAT rate {rate}% (policy setting vat_rate_pct).",
        "quote.note.psu_included": "The chassis ships with {count} × {psu}, included in its price.",
        "quote.prices": "Prices and their sources",
        "quote.col.price_date": "Price date",
        "quote.col.source": "Source",
        "quote.plan_notes": "Plan notes",
        "quote.findings": "Open findings",
        "quote.no_findings": "No open findings.",
        "quote.col.severity": "Severity",
        "quote.col.rule": "Rule",
        "quote.col.finding": "Finding and fix",
        "quote.fix": "Fix: {fix}",
        "quote.role.system": "system",
        "quote.role.data": "data",
        "quote.role.backup": "backup",
        "quote.role.scratch": "scratch",
        "quote.footer": "Quote {number} · plan digest {digest}",
        "quote.col.unit_gross": "Unit price incl. VAT (CNY)",
        "quote.col.amount_gross": "Amount incl. VAT (CNY)",
        "quote.note.reference_gross": (
            "Unit prices and amounts include {rate}% VAT (amount = quantity × unit price, to the fen); the total "
            "before VAT is the total ÷ (1 + {rate}%) rounded once, and the VAT is the difference. Catalog reference "
            "prices are indicative, the vendor's formal quotation prevails."
        ),
        "quote.note.vat_added": (
            "Prices stated without VAT are shown with {rate}% VAT added (the VAT-inclusive unit price rounded to the "
            "fen)."
        ),
        "quote.subtotal.lower": "Priced lines before VAT (lower bound)",
        "quote.total.lower": "Priced lines incl. VAT (lower bound, not a total)",
        "quote.lower_mark": " (on the priced lines)",
        "rfq.number": "RFQ number",
        "rfq.date": "RFQ date",
        "rfq.deadline": "Reply by",
        "rfq.deadline_value": "{date} ({days} days)",
        "rfq.included_in": "included with the {chassis}",
        "rfq.ask.power": (
            "Power supplies: {count} × {psu} ({watts} W at 200-240 V) per server, redundancy {redundancy}; state the "
            "model and rating you supply."
        ),
        "rfq.ask.power_included": " {count} of them ship with the {chassis} and are priced with it.",
    }
)


@dataclass(frozen=True)
class QuoteLine:
    category: str
    part_id: str
    """The catalog id ('' for a vendor's extra line: installation, freight…)."""
    name: str
    spec: str
    qty: float
    unit_price: Decimal | None
    amount: Decimal | None
    price_date: dt.date | None = None
    price_source: str | None = None
    gross: Decimal | None = None
    """The amount including VAT where the quote's basis is VAT-inclusive (then equal to ``amount``)."""
    includes_vat: bool | None = None
    price_kind: str | None = None


@dataclass(frozen=True)
class Quote:
    number: str
    date: dt.date
    valid_until: dt.date
    lines: tuple[QuoteLine, ...]
    subtotal: Decimal
    vat_rate_pct: Decimal
    vat: Decimal
    total: Decimal
    nodes: int
    notes: tuple[str, ...]
    issued: bool = False
    """The number, date and validity come from the plan (an issued quote), not from today."""
    stale_since: str | None = None
    """The configuration digest the issued quote was made for, when the plan has changed since (else None)."""
    basis: Literal["gross", "net"] = "net"
    """What the lines' unit prices and amounts are: VAT-inclusive (含税, when any price includes VAT) or net."""

    @property
    def total_wan(self) -> Decimal:
        """The total in 万元 (units of 10 000 CNY), to two decimals."""
        return (self.total / Decimal(10_000)).quantize(CENT, rounding=ROUND_HALF_UP)

    @property
    def unpriced(self) -> tuple[QuoteLine, ...]:
        return tuple(line for line in self.lines if line.unit_price is None)

    @property
    def complete(self) -> bool:
        """Every line is priced: only then are the sums totals and the document a quote (报价单); otherwise
        it is a request for quotation (询价单) without totals."""
        return not self.unpriced

    @property
    def has_prices(self) -> bool:
        """Some line carries a price above zero: without one, a total of ¥0.00 would mislead (free
        software alone costs nothing, but the hardware is on request)."""
        return any(line.unit_price for line in self.lines)


_KIND_NAMES = {
    "nvme": "NVMe",
    "sata_ssd": "SATA SSD",
    "hdd": "HDD",
    "ethernet": "Ethernet",
    "infiniband": "InfiniBand",
    "vpi": "VPI (InfiniBand/Ethernet)",
}


def price_source_text(kind: str | None, source: str | None, lang: Lang) -> str:
    """The prices table's source cell: the kind in the reader's language and the citation as written (a
    Chinese reader is told it is the original text)."""
    if not source:
        return kind or "—"
    return t("price.source_line", lang, kind=kind, source=source) if kind else \
        t("price.source_only", lang, source=source)


def pct(rate: Decimal) -> str:
    """13.0 -> '13', 6.5 -> '6.5'."""
    return f"{rate.normalize():f}"


def _spec(part: Part, lang: Lang) -> str:
    if isinstance(part, Gpu):
        bits = [f"{fmt_num(part.memory_gib)} GiB {part.memory_type}"]
        if part.tdp_w:
            bits.append(f"{fmt_num(part.tdp_w)} W")
        bits.append(f"PCIe Gen{part.pcie_gen}" if part.form_factor.value == "pcie"
                    else f"SXM (PCIe Gen{part.pcie_gen} host)")
        return ", ".join(bits)
    if isinstance(part, Cpu):
        bits = [t("quote.spec.cores", lang, cores=part.cores)]
        if part.base_ghz:
            bits.append(f"{part.base_ghz:g} GHz")
        if part.tdp_w:
            bits.append(f"{fmt_num(part.tdp_w)} W")
        return ", ".join(bits)
    if isinstance(part, MemoryModule):
        kind = ("RDIMM" if part.registered else "UDIMM") + (" ECC" if part.ecc else "")
        return f"{part.capacity_gib} GiB {part.memory_type}-{part.speed_mts} {kind}"
    if isinstance(part, Storage):
        return f"{fmt_num(part.capacity_gb)} GB {_KIND_NAMES[part.storage_kind.value]} {part.form}"
    if isinstance(part, Nic):
        return f"{part.ports} × {fmt_num(part.speed_gbps)} Gb/s {_KIND_NAMES[part.fabric]}"
    if isinstance(part, Psu):
        spec = f"{fmt_num(part.rated_w_high_line)} W (200-240 V)"
        return f"{spec}, {part.efficiency}" if part.efficiency else spec
    if isinstance(part, Chassis):
        size = f"{part.rack_units}U" if part.rack_units else t(f"quote.spec.form.{part.form}", lang)
        cooling = t(f"checklist.cooling.{part.cooling}", lang)
        return f"{size}, {t('quote.spec.gpus', lang, n=part.gpu_slots)}, {cooling}"
    if isinstance(part, OperatingSystem | DriverBranch | CudaRelease | Framework):
        return str(getattr(part, "version", ""))
    if isinstance(part, ContainerImage):
        return part.reference
    return ""


def quote_number(plan: Plan, today: dt.date | None = None) -> str:
    """The issued quote's number; else the buyer's own number, or one made from the date and the plan digest
    (stable for the same plan on the same day)."""
    if plan.quote.issued is not None:
        return plan.quote.issued.number
    today = today or dt.date.today()
    return plan.quote.number.strip() or f"Q{today:%Y%m%d}-{canonical_digest(plan)[:6].upper()}"


def issue_quote(plan: Plan, today: dt.date | None = None, *, renew: bool = False) -> Plan:
    """The plan with its quote issued: number, date and validity stored, so that printing it again gives the same
    paper. An issued quote is kept as it is unless ``renew`` (the "new quote number" action), which issues a
    number different from the current one (the buyer's own number, or Q<date>-<digest>, with -2, -3 … added)."""
    old = plan.quote.issued
    if old is not None and not renew:
        return plan
    today = today or dt.date.today()
    base = plan.quote.number.strip() or f"Q{today:%Y%m%d}-{canonical_digest(plan)[:6].upper()}"
    number = base
    if old is not None and (old.number == base or old.number.startswith(base + "-")):
        suffix = old.number[len(base) + 1:]
        number = f"{base}-{int(suffix) + 1 if suffix.isdigit() else 2}"
    issued = IssuedQuote(number=number, date=today, valid_until=today + dt.timedelta(days=plan.quote.validity_days),
                         digest=canonical_digest(plan))
    return plan.model_copy(update={"quote": plan.quote.model_copy(update={"issued": issued})})


def build_quote(
    plan: Plan,
    catalog: Catalog,
    policy: Policy | None = None,
    today: dt.date | None = None,
    lang: Lang = "zh",
) -> Quote:
    """The quote's numbers: one line per part in the plan (× servers), subtotal, VAT and total."""
    policy = policy or default_policy()
    today = today or dt.date.today()
    nodes = plan.requirements.nodes
    lines: list[QuoteLine] = []
    notes: list[str] = [t("quote.note.reference", lang)]

    rate = Decimal(str(policy.vat_rate_pct))
    bom = bill_of_materials(plan, catalog)
    money_ = bom.money(policy)
    gross_basis = money_.basis == "gross"
    for cl, unit, amount in zip(bom.lines, money_.units, money_.amounts, strict=True):
        part = cl.part
        kind = cl.price_kind
        role = t(f"quote.role.{cl.role}", lang) if cl.role else ""
        qty = cl.quantity(nodes)
        lines.append(
            QuoteLine(
                cl.category,
                cl.part_id,
                f"{cl.name} ({role})" if role else cl.name,
                _spec(part, lang) if part is not None else "",
                int(qty) if float(qty).is_integer() else qty,
                unit,
                amount,
                cl.price_date,
                cl.price_source,
                amount if gross_basis else None,
                cl.includes_vat if cl.unit_cny is not None else None,
                price_kind_text(kind, cl.includes_vat, lang),
            )
        )
    lines.sort(key=lambda line: CATEGORIES.index(line.category))  # the quote's order: GPU, CPU, memory …
    for inc in bom.included:
        notes.append(t("quote.note.psu_included", lang, count=inc.count, psu=inc.part.name))
    if gross_basis:
        notes[0] = t("quote.note.reference_gross", lang, rate=pct(rate))
    if gross_basis and any(line.unit_price and line.includes_vat is not True for line in lines):
        notes.append(t("quote.note.vat_added", lang, rate=pct(rate)))
    if any(line.unit_price and line.includes_vat is None for line in lines):  # free software has no VAT
        notes.append(t("quote.note.vat_unknown", lang, rate=pct(rate)))
    if nodes > 1:
        notes.append(t("quote.note.nodes", lang, nodes=nodes))
    notes.append(t("quote.note.vat", lang, rate=pct(rate)))
    number = quote_number(plan, today)
    issued = plan.quote.issued
    stale = None
    if issued is not None and issued.digest and issued.digest != canonical_digest(plan):
        # the configuration changed after the quote was issued: its number, date and validity belong to the old
        # configuration, so this paper carries the next number, provisionally, and says why
        stale = issued.digest
        notes.append(t("quote.stale", lang, number=issued.number, old=issued.digest[:12],
                       new=canonical_digest(plan)[:12]))
        renewed = issue_quote(plan, today, renew=True).quote.issued
        number = renewed.number if renewed is not None else number
        issued = None
    if issued is None:
        notes.append(t("quote.provisional", lang))
    return Quote(
        number=number,
        date=issued.date if issued is not None else today,
        valid_until=issued.valid_until if issued is not None else today + dt.timedelta(days=plan.quote.validity_days),
        issued=issued is not None,
        stale_since=stale,
        lines=tuple(lines),
        subtotal=money_.net,
        vat_rate_pct=rate,
        vat=money_.vat,
        total=money_.gross,
        basis=money_.basis,
        nodes=nodes,
        notes=tuple(notes),
    )


# ---------------------------------------------------------------- PDF


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
    return t("rfq.wanted", lang, value=value) if value else ""


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


def rfq_power_text(plan: Plan, catalog: Catalog, lang: Lang) -> str:
    """What the RFQ asks of the power supplies: count × watts per server and the redundancy, and how many ship in
    the chassis ('' when the plan has no PSU)."""
    p = resolve(plan, catalog)
    if p.psu is None or p.psu_count <= 0:
        return ""
    bom = bill_of_materials(plan, catalog)
    text = t("rfq.ask.power", lang, count=p.psu_count, watts=fmt_num(p.psu.rated_w_high_line),
             redundancy=render_value(redundancy_label(plan.server.psu.redundancy), lang), psu=p.psu.name)
    for inc in bom.included:
        text += t("rfq.ask.power_included", lang, count=inc.count, chassis=inc.inside)
    return text


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


def open_findings(findings: Sequence[Finding]) -> list[Finding]:
    order = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.INFO: 2}
    return sorted(findings, key=lambda f: (order[f.severity], f.step, f.rule))


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
        inside = [inc for inc in bom.included if cat == "power"] if rfq else []
        if not cat_lines and not inside:
            continue
        items.append(("cat", cat))
        for line in cat_lines:
            n += 1
            items.append(("line", n, line))
        for inc in inside:  # the RFQ names the PSUs that ship in the chassis: the vendor supplies them with it
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
                st.p(_spec(inc.part, lang), st.cell), st.p(t("quote.uom.power", lang), st.cell),
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

"""The quote's figures: line items from the plan and catalog prices, totals with VAT (no PDF code: the quote
page shows them without loading reportlab; quote_pdf.py prints them)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Literal

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
from procurement.budgets.cost import CATEGORY_ORDER, CENT, bill_of_materials
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
from procurement.rules.power import redundancy_label
from procurement.terminal import prose

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
    return t("price.source_line", lang, kind=kind, source=prose(source)) if kind else \
        t("price.source_only", lang, source=prose(source))


def pct(rate: Decimal) -> str:
    """13.0 -> '13', 6.5 -> '6.5'."""
    return f"{rate.normalize():f}"


def part_spec(part: Part, lang: Lang) -> str:
    """A quote line's model / specification cell: the figures a buyer compares, in the reader's language."""
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
                part_spec(part, lang) if part is not None else "",
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


def open_findings(findings: Sequence[Finding]) -> list[Finding]:
    order = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.INFO: 2}
    return sorted(findings, key=lambda f: (order[f.severity], f.step, f.rule))

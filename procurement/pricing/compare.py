"""Vendors' quotes compared (三家比价): each offer priced line by line, the rules run on each vendor's variant of
the plan, the lowest compliant offer marked, and the offer the buyer chose.

An offer is **compliant** when the plan with the vendor's substitutions applied (its *variant*) has no error
finding that counts (a waived finding is accepted: procurement/waivers.py); **unknown** when a substitute is a
part the catalog does not know (the rules cannot check it); **fails** otherwise. An offer's sum is a total only
when every line is priced — otherwise it is a lower bound, and the offer is not compared as if it were whole.
The lowest compliant offer is the cheapest fully priced compliant one; the mark is *provisional* while an offer
not known to fail is partly priced (or unchecked) and its priced lines alone already cost less.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from catalog.loader import Catalog
from catalog.models import Part
from procurement.budgets.cost import BudgetVerdict, CostBreakdown, CostLine, Money, PricedItem, add_up, plan_cost
from procurement.findings import Finding, Severity
from procurement.messages import Lang, register, t
from procurement.plan import EnteredPrice, OfferLine, Plan, VendorQuote
from procurement.policy import Policy
from procurement.pricing.import_prices import Matcher, PriceImport, plan_parts

Compliance = Literal["compliant", "fails", "unknown"]
Substitution = Literal["none", "catalog", "unknown"]

register({
    "compare.compliance.compliant": "compliant",
    "compare.compliance.fails": "fails",
    "compare.compliance.unknown": "compliance unknown",
    "compare.reason.nothing": "no line of the offer prices a part of the plan",
    "compare.reason.error": "{rule}: {message}",
    "compare.reason.unknown_part": (
        "'{line}' substitutes a part the catalog does not know for {part}: the rules cannot check it"
    ),
    "compare.reason.bad_part": "the substitute {pid} is not in the catalog",
    "compare.line.not_quoted": "not quoted",
    "compare.line.unpriced": "no unit price",
    "compare.line.qty": "the vendor quotes {quoted}, the plan needs {needed}",
    "compare.sub.catalog": "substitute: {name}",
    "compare.sub.unknown": "substitute (not in the catalog): {text}",
    "compare.lowest": "lowest compliant offer",
    "compare.lowest.provisional": "lowest compliant offer (provisional: {why})",
    "compare.provisional_why": "the offer of {vendors} is incomplete or unchecked and its priced lines alone cost less",
    "compare.lowest.none": "no offer is both fully priced and compliant: no lowest compliant offer",
    "compare.chosen": "chosen",
    "compare.conclusion.recommend": (
        "Recommended vendor: {vendor} — the lowest offer that is fully priced and meets the specification ({total} "
        "incl. VAT); the buyer has not chosen yet."
    ),
    "compare.conclusion.chosen_lowest": (
        "Vendor chosen: {vendor} — the lowest offer that is fully priced and meets the specification ({total} incl. "
        "VAT)."
    ),
    "compare.conclusion.chosen_other": (
        "Vendor chosen: {vendor} ({total} incl. VAT), not the lowest compliant offer ({lowest}): state the reason "
        "(delivery, warranty, service) in the plan notes."
    ),
    "compare.conclusion.none": (
        "No vendor can be recommended: no offer is both fully priced and compliant with the specification."
    ),
})


@dataclass(frozen=True)
class OfferRow:
    """One line of one vendor's offer as compared: a line of the plan (what it costs from this vendor) or an
    extra line of the vendor (installation, shipping, warranty…)."""

    path: str | None
    """The plan field the line prices ('gpu.model'); None for an extra line."""
    plan_part: str | None
    name: str
    """The plan part's name, or the vendor's text for an extra line."""
    quantity: float
    """What is bought: the plan's count × nodes, or the vendor's quantity for an extra line (1 when unstated)."""
    unit_cny: float | None
    includes_vat: bool | None
    quoted: bool
    """The vendor has a line for it (priced or not)."""
    substitution: Substitution = "none"
    offered_name: str = ""
    """What the vendor offers instead (catalog name, or the vendor's text for an unknown substitute)."""
    text: str = ""
    """The vendor's line as written."""
    notes: tuple[str, ...] = ()

    def gross_cny(self, vat_rate_pct: float) -> float | None:
        """The line including VAT (None when unpriced); a VAT-inclusive price is not taxed again."""
        if self.unit_cny is None:
            return None
        amount = self.unit_cny * self.quantity
        return amount if self.includes_vat else amount * (1 + vat_rate_pct / 100)

    def net_cny(self, vat_rate_pct: float) -> float | None:
        if self.unit_cny is None:
            return None
        amount = self.unit_cny * self.quantity
        return amount / (1 + vat_rate_pct / 100) if self.includes_vat else amount


@dataclass(frozen=True)
class OfferResult:
    """One vendor's offer: its lines, its variant's findings, compliance, and its sum (a lower bound while any
    line is unpriced)."""

    quote: VendorQuote
    rows: tuple[OfferRow, ...]
    findings: tuple[Finding, ...]
    """The variant's findings that count against it (unwaived errors), and those the substitutions added."""
    compliance: Compliance
    reasons: tuple[str, ...]
    gross_cny: float
    net_cny: float
    budget_cny: float | None
    vat_rate_pct: float
    money: Money | None = None
    """The rows added up (``money.amounts`` line by line, in the order of ``rows``)."""

    @property
    def vendor(self) -> str:
        return self.quote.vendor

    @property
    def unpriced(self) -> tuple[OfferRow, ...]:
        return tuple(r for r in self.rows if r.unit_cny is None)

    @property
    def complete(self) -> bool:
        """Every line priced: only then is the sum a total."""
        return not self.unpriced

    @property
    def substitutions(self) -> tuple[OfferRow, ...]:
        return tuple(r for r in self.rows if r.substitution != "none")

    def verdict(self) -> BudgetVerdict:
        """The offer against the plan's budget, tri-state as everywhere (within only when complete)."""
        status: Literal["within", "over", "unknown", "no_budget"]
        if self.budget_cny is None:
            status = "no_budget"
        elif round(self.gross_cny) > round(self.budget_cny):
            status = "over"
        elif not self.complete:
            status = "unknown"
        else:
            status = "within"
        unpriced = tuple(CostLine(r.path or "", r.plan_part or "", r.name, round(r.quantity), None)
                         for r in self.unpriced)
        return BudgetVerdict(status, self.gross_cny, self.budget_cny, self.complete, unpriced)


@dataclass(frozen=True)
class Comparison:
    offers: tuple[OfferResult, ...]
    lowest: tuple[str, ...]
    """The vendor(s) of the lowest fully priced compliant offer (several on a tie to the fen); () when none."""
    provisional: tuple[str, ...] = ()
    """Vendors whose incomplete or unchecked offer might still be lower (their priced lines alone already are)."""
    chosen: str | None = None
    base_findings: tuple[Finding, ...] = field(default=())

    def offer(self, vendor: str) -> OfferResult | None:
        return next((o for o in self.offers if o.vendor == vendor), None)

    def conclusion(self, lang: Lang) -> str:
        """The written conclusion of the comparison (推荐成交供应商 and why), from the marks and the choice."""
        sep = "、" if lang == "zh" else ", "
        if self.chosen is not None:
            chosen = self.offer(self.chosen)
            if chosen is not None and self.chosen in self.lowest:
                return t("compare.conclusion.chosen_lowest", lang, vendor=self.chosen,
                         total=f"¥{chosen.gross_cny:,.2f}")
            if chosen is not None:
                return t("compare.conclusion.chosen_other", lang, vendor=self.chosen, lowest=sep.join(self.lowest)
                         or "—", total=f"¥{chosen.gross_cny:,.2f}")
        if self.lowest:
            best = self.offer(self.lowest[0])
            return t("compare.conclusion.recommend", lang, vendor=sep.join(self.lowest),
                     total=f"¥{best.gross_cny:,.2f}" if best else "—")
        return t("compare.conclusion.none", lang)

    def lowest_text(self, lang: Lang) -> str:
        if not self.lowest:
            return t("compare.lowest.none", lang)
        if self.provisional:
            return t("compare.lowest.provisional", lang, why=self.provisional_why(lang))
        return t("compare.lowest", lang)

    def provisional_why(self, lang: Lang) -> str:
        """Why the lowest mark is provisional ('' when it is not)."""
        if not self.provisional:
            return ""
        vendors = ("、" if lang == "zh" else ", ").join(self.provisional)
        return t("compare.provisional_why", lang, vendors=vendors)


# -- the variant -------------------------------------------------------------------------------------------

_PART_SLOTS = ("gpu.model", "server.chassis", "server.cpu", "server.psu.part", "software.os", "software.driver",
               "software.cuda", "software.framework", "software.image")


def _substitute(data: dict[str, Any], old: str, new: str) -> None:
    for slot in _PART_SLOTS:
        head, *rest = slot.split(".")
        node = data.get(head)
        for key in rest[:-1]:
            node = node.get(key) if isinstance(node, dict) else None
        if isinstance(node, dict) and node.get(rest[-1]) == old:
            node[rest[-1]] = new
    server = data.get("server") or {}
    memory = server.get("memory")
    if isinstance(memory, dict) and memory.get("part") == old:
        memory["part"] = new
    for item in [*server.get("storage", []), *server.get("nics", [])]:
        if isinstance(item, dict) and item.get("part") == old:
            item["part"] = new


def variant(plan: Plan, quote: VendorQuote) -> Plan:
    """The plan as this vendor would deliver it: each catalog substitute in place of the part it replaces, and the
    vendor's prices as the plan's prices (so the budget rules see this offer). Unknown substitutes cannot be
    put in (the catalog does not know them): the offer is then of unknown compliance."""
    data = plan.model_dump(mode="json")
    prices: dict[str, EnteredPrice] = {}
    for line in quote.lines:
        if line.for_part is None:
            continue
        pid = line.offered or line.for_part
        if line.offered and line.offered != line.for_part:
            _substitute(data, line.for_part, line.offered)
        if line.unit_price_cny is not None and pid not in prices:
            prices[pid] = EnteredPrice(price_cny=line.unit_price_cny, with_vat=line.with_vat, kind="vendor_quote",
                                       date=quote.date, source=f"{quote.vendor} {quote.number}".strip()[:200])
    data["prices"] = {k: v.model_dump(mode="json") for k, v in prices.items()}
    data["vendor_quotes"], data["chosen_vendor"] = [], None
    return Plan.model_validate(data)


def base_plan(plan: Plan) -> Plan:
    """The configuration the offers were asked for: the plan with the chosen offer's substitutes taken back
    (choosing an offer puts them in the plan), so every vendor's offer is compared on the same parts."""
    chosen = next((q for q in plan.vendor_quotes if q.vendor == plan.chosen_vendor), None)
    if chosen is None:
        return plan
    data = plan.model_dump(mode="json")
    for line in chosen.lines:
        if line.for_part and line.offered and line.offered != line.for_part and not line.substitute_unknown:
            _substitute(data, line.offered, line.for_part)
    return Plan.model_validate(data)


def _find(catalog: Catalog, pid: str | None) -> Part | None:
    if pid is None:
        return None
    return next((by_id[pid] for by_id in catalog.parts.values() if pid in by_id), None)


def _key(f: Finding) -> tuple[str, str]:
    return f.rule, f.message


def _fmt_qty(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _unknown_parts(quote: VendorQuote, catalog: Catalog, lang: Lang) -> list[str]:
    """Why the offer's parts cannot all be judged: a substitute the buyer marked unknown, or an offered part id
    the catalog does not have (empty when every line names a known part)."""
    reasons: list[str] = []
    for line in quote.lines:
        if line.for_part is None:
            continue
        if line.substitute_unknown:
            part = _find(catalog, line.for_part)
            reasons.append(t("compare.reason.unknown_part", lang, line=line.text or line.for_part,
                             part=part.name if part else line.for_part))
        elif line.offered and _find(catalog, line.offered) is None:
            reasons.append(t("compare.reason.bad_part", lang, pid=line.offered))
    return reasons


def _counted(base_findings: Sequence[Finding], var_findings: Sequence[Finding]) -> list[Finding]:
    """The variant's findings that count against the offer: every unwaived error, and a warning the plan itself
    does not have. The budget has its own column: an offer over the budget has not failed the specification
    (不合规 to a buyer means the vendor's configuration fails it), so the budget family never decides
    compliance."""
    base_keys = {_key(f) for f in base_findings}
    counted: list[Finding] = []
    for f in var_findings:
        errs = f.severity == Severity.ERROR and f.waived is None
        new = _key(f) not in base_keys and f.severity != Severity.INFO and f.waived is None
        if errs or new:
            counted.append(f)
    return [f for f in counted if f.family != "budget"]


def _quoted_row(path: str, plan_part: str, name: str, needed: float, line: OfferLine, catalog: Catalog,
                lang: Lang) -> OfferRow:
    """The row of a plan part the vendor quoted (``line``), with what differs: no price, another quantity, a
    substitute."""
    notes: list[str] = []
    if line.unit_price_cny is None:
        notes.append(t("compare.line.unpriced", lang))
    if line.quantity is not None and abs(line.quantity - needed) > 1e-9:
        notes.append(t("compare.line.qty", lang, quoted=_fmt_qty(line.quantity), needed=needed))
    sub: Substitution = "none"
    offered_name = ""
    if line.substitute_unknown:
        sub, offered_name = "unknown", line.text
        notes.append(t("compare.sub.unknown", lang, text=line.text))
    elif line.offered and line.offered != line.for_part:
        part = _find(catalog, line.offered)
        sub, offered_name = "catalog", part.name if part else line.offered
        notes.append(t("compare.sub.catalog", lang, name=offered_name))
    return OfferRow(path, plan_part, name, needed, line.unit_price_cny, line.with_vat, quoted=True,
                    substitution=sub, offered_name=offered_name, text=line.text, notes=tuple(notes))


def compare_offer(plan: Plan, quote: VendorQuote, catalog: Catalog, policy: Policy | None = None, *,
                  base: Sequence[Finding] | None = None, lang: Lang = "zh") -> OfferResult:
    """One vendor's offer, priced line by line and checked by the rules on its variant."""
    from procurement.rules import evaluate, policy_or_default

    pol = policy_or_default(policy)
    vat = pol.vat_rate_pct
    base_findings = list(base) if base is not None else evaluate(plan, catalog, pol, lang)
    reasons = _unknown_parts(quote, catalog, lang)
    if not any(line.for_part is not None for line in quote.lines):  # an empty file, or only extras: it offers
        reasons.append(t("compare.reason.nothing", lang))           # none of the plan's parts, not a pass
    unknown = bool(reasons)
    var = variant(plan, quote)
    var_findings: list[Finding] | None
    try:
        var_findings = evaluate(var, catalog, pol, lang)
    except Exception as exc:  # a substitute a rule cannot digest: unknown, never compliant
        var_findings = None
        unknown = True
        reasons.append(f"{type(exc).__name__}: {exc}")
    counted = _counted(base_findings, var_findings or [])
    errors = [f for f in counted if f.severity == Severity.ERROR]
    reasons += [t("compare.reason.error", lang, rule=f.rule, message=f.message) for f in errors]
    compliance: Compliance = "fails" if errors else ("unknown" if unknown else "compliant")

    rows: list[OfferRow] = []
    by_part: dict[str, OfferLine] = {}
    by_offered: dict[str, OfferLine] = {}
    for line in quote.lines:
        if line.for_part is not None:
            by_part.setdefault(line.for_part, line)
            if line.offered and not line.substitute_unknown:
                by_offered.setdefault(line.offered, line)
    # the offer's lines are the bill of materials of the vendor's variant: a substitute in place of the part
    # it replaces, and the PSUs that ship in the chassis never a line of their own (nothing to quote for them)
    cost: CostBreakdown = plan_cost(var, catalog)
    nodes = plan.requirements.nodes
    for cl in cost.lines:
        if cl.part is None:
            continue
        found = by_offered.get(cl.part_id) or by_part.get(cl.part_id)
        needed = cl.count * nodes
        plan_part = found.for_part if found is not None and found.for_part else cl.part_id
        own = _find(catalog, plan_part)
        name = own.name if own is not None else cl.name
        if found is None:
            if cl.unit_cny == 0:
                continue  # free (a driver, CUDA, an open-source image): no vendor quotes it, it costs nothing
            rows.append(OfferRow(cl.path, cl.part_id, name, needed, None, None, quoted=False,
                                 notes=(t("compare.line.not_quoted", lang),)))
            continue
        rows.append(_quoted_row(cl.path, plan_part, name, needed, found, catalog, lang))
    for line in quote.lines:
        if line.for_part is None:
            qty = line.quantity if line.quantity is not None else 1.0
            rows.append(OfferRow(None, None, line.text, qty, line.unit_price_cny, line.with_vat, quoted=True,
                                 text=line.text,
                                 notes=(t("compare.line.unpriced", lang),) if line.unit_price_cny is None else ()))
    money = add_up((PricedItem(r.quantity, r.unit_cny, r.includes_vat) for r in rows), vat)
    gross, net = float(money.gross), float(money.net)
    return OfferResult(quote, tuple(rows), tuple(counted), compliance, tuple(reasons), gross, net,
                       plan.requirements.budget_cny, vat, money)


def compare(plan: Plan, catalog: Catalog, policy: Policy | None = None, lang: Lang = "zh") -> Comparison:
    """Every attached vendor quote compared, the lowest compliant offer and the chosen one."""
    from procurement.rules import evaluate, policy_or_default

    pol = policy_or_default(policy)
    asked = base_plan(plan)
    base = tuple(evaluate(asked, catalog, pol, lang))
    offers = tuple(compare_offer(asked, q, catalog, pol, base=base, lang=lang) for q in plan.vendor_quotes)
    eligible = [o for o in offers if o.compliance == "compliant" and o.complete]
    lowest: tuple[str, ...] = ()
    provisional: tuple[str, ...] = ()
    if eligible:
        best = min(round(o.gross_cny, 2) for o in eligible)
        lowest = tuple(o.vendor for o in eligible if round(o.gross_cny, 2) == best)
        provisional = tuple(o.vendor for o in offers if o not in eligible and o.compliance != "fails"
                            and round(o.gross_cny, 2) < best)
    return Comparison(offers, lowest, provisional, plan.chosen_vendor, tuple(base))


def choose(plan: Plan, vendor: str | None) -> Plan:
    """The plan with ``vendor``'s offer chosen, in one step (one undo): the offer becomes the quote — its catalog
    substitutes in place of the parts they replace, its unit prices as the plan's prices (a vendor quote, with
    its VAT status), the vendor's name as the quote's vendor, and its delivery, warranty and payment terms where
    it states them; its extra lines (installation, freight…) are in the bill of materials while it is chosen.
    None: no offer chosen (the prices already taken stay)."""
    if vendor is None:
        return plan.model_copy(update={"chosen_vendor": None})
    quote = next((q for q in plan.vendor_quotes if q.vendor == vendor), None)
    if quote is None:
        raise ValueError(f"no quote from '{vendor}'")
    data = plan.model_dump(mode="json")
    prices = dict(data.get("prices") or {})
    source = f"{quote.vendor} {quote.number}".strip()[:200]
    for line in quote.lines:
        if line.for_part is None:
            continue
        pid = line.offered if line.offered and not line.substitute_unknown else line.for_part
        if line.offered and line.offered != line.for_part and not line.substitute_unknown:
            _substitute(data, line.for_part, line.offered)
        if line.unit_price_cny is not None:
            prices[pid] = EnteredPrice(price_cny=line.unit_price_cny, with_vat=line.with_vat, kind="vendor_quote",
                                       date=quote.date, source=source).model_dump(mode="json")
    data["prices"] = prices
    terms = data["quote"]
    terms["vendor"]["name"] = quote.vendor[:200]
    for key, value in (("delivery", quote.delivery), ("warranty", quote.warranty), ("payment", quote.payment_terms)):
        if value.strip():
            terms[key] = value
    data["chosen_vendor"] = vendor
    return Plan.model_validate(data)


def with_quote(plan: Plan, quote: VendorQuote) -> Plan:
    """The plan with ``quote`` attached (replacing an earlier quote of the same vendor, in its place)."""
    quotes = list(plan.vendor_quotes)
    index = next((i for i, q in enumerate(quotes) if q.vendor == quote.vendor), None)
    if index is None:
        quotes.append(quote)
    else:
        quotes[index] = quote
    return Plan.model_validate({**plan.model_dump(mode="json"),
                                "vendor_quotes": [q.model_dump(mode="json") for q in quotes]})


def without_quote(plan: Plan, vendor: str) -> Plan:
    """The plan without ``vendor``'s quote (and no longer chosen, if it was)."""
    quotes = [q for q in plan.vendor_quotes if q.vendor != vendor]
    chosen = None if plan.chosen_vendor == vendor else plan.chosen_vendor
    return plan.model_copy(update={"vendor_quotes": quotes, "chosen_vendor": chosen})


# -- from an imported file ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class LineProposal:
    """How one line of an imported vendor quote is read: the plan part it prices and what is offered, with the
    match's confidence and reason, for the buyer to confirm or re-map."""

    row: int
    text: str
    quantity: float | None
    unit_price_cny: float | None
    with_vat: bool | None
    for_part: str | None
    offered: str | None
    substitute_unknown: bool
    confidence: Literal["exact", "likely", "none"]
    reason: str

    def line(self) -> OfferLine:
        return OfferLine(text=self.text[:500], row=self.row, for_part=self.for_part,
                         offered=self.offered if self.offered != self.for_part else None,
                         substitute_unknown=self.substitute_unknown and self.for_part is not None,
                         quantity=self.quantity, unit_price_cny=self.unit_price_cny, with_vat=self.with_vat)


HARDWARE_KINDS = ("gpu", "chassis", "cpu", "memory", "psu", "storage", "nic")


def propose_lines(result: PriceImport, plan: Plan, catalog: Catalog, lang: Lang = "zh") -> list[LineProposal]:
    """The import's lines as offer lines: a line matched to a plan part prices it; a line that matches another
    catalog part of a kind the plan holds once (another GPU, another CPU…) is proposed as a substitute for it;
    anything else is an extra line (installation, shipping, warranty…). The buyer confirms or re-maps each."""
    own = plan_parts(plan, catalog)
    own_ids = {p.id for p in own}
    by_kind: dict[str, list[Part]] = {}
    for p in own:
        by_kind.setdefault(p.kind, []).append(p)
    others = [p for kind in HARDWARE_KINDS for p in catalog.parts.get(kind, {}).values() if p.id not in own_ids]
    mine, wider = Matcher(own), Matcher(others)
    out: list[LineProposal] = []
    claimed: set[str] = set()
    for line in result.lines:
        qty = float(line.quantity) if line.quantity is not None else None
        price = float(line.unit_price_cny) if line.unit_price_cny is not None else None
        text = line.label
        if line.part_id is not None:
            claimed.add(line.part_id)
            out.append(LineProposal(line.row, text, qty, price, line.includes_vat, line.part_id, None, False,
                                    line.confidence, line.reason))
            continue
        found, confidence, reason = mine.match([line.part_text, line.name_text], lang)
        if found is not None and found.id not in claimed:  # e.g. a plan part the vendor left unpriced (询价)
            claimed.add(found.id)
            out.append(LineProposal(line.row, text, qty, price, line.includes_vat, found.id, None, False,
                                    confidence, reason))
            continue
        found, confidence, reason = wider.match([line.part_text, line.name_text], lang)
        if found is not None and found.kind in by_kind and len(by_kind[found.kind]) == 1:
            replaced = by_kind[found.kind][0]
            if replaced.id not in claimed:
                claimed.add(replaced.id)
                out.append(LineProposal(line.row, text, qty, price, line.includes_vat, replaced.id, found.id, False,
                                        confidence, reason))
                continue
        out.append(LineProposal(line.row, text, qty, price, line.includes_vat, None, None, False, "none",
                                line.reason))
    return out


def quote_from(proposals: Iterable[LineProposal], vendor: str, **info: Any) -> VendorQuote:
    """A vendor quote of the confirmed lines (``info``: number, date, delivery, warranty, payment_terms,
    document)."""
    return VendorQuote(vendor=vendor, lines=[p.line() for p in proposals], **info)

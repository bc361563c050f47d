"""The bill of materials of a plan: every line for one node and × nodes, what ships inside what, and the one
way its money adds up (the quote, the RFQ, the budget rule, the comparison and TCO all read it); unpriced parts
are listed, never added."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Literal

from catalog.loader import Catalog
from catalog.models import Part
from procurement.budgets.parts import Parts, resolve, scope_for
from procurement.plan import Plan
from procurement.policy import Policy


@dataclass(frozen=True)
class CostLine:
    path: str
    part_id: str
    name: str
    count: int
    unit_cny: float | None
    includes_vat: bool | None = None
    """Whether ``unit_cny`` includes VAT; None where the source does not say (counted as excluding it, the
    higher reading, so an unknown VAT status never makes a plan look cheaper)."""
    price_date: dt.date | None = None
    category: str = ""
    """The quote's group: gpu, cpu, memory, storage, network, power, chassis or software."""
    part: Part | None = None
    role: str = ""
    """What the part is for where the plan says it (a drive's role: system, data…)."""
    price_kind: str | None = None
    price_source: str | None = None
    whole_qty: float | None = None
    """For a vendor's extra line (installation, freight, warranty…): its quantity for the whole purchase, not
    per node; None for a part of the plan (``count`` per node × nodes)."""

    def quantity(self, nodes: int) -> float:
        """How many are bought for the whole purchase."""
        return self.whole_qty if self.whole_qty is not None else self.count * nodes

    @property
    def total_cny(self) -> float:
        """The line as priced (VAT as the source states it)."""
        return (self.unit_cny or 0.0) * self.count

    def net_cny(self, policy: Policy) -> float:
        """The line before VAT."""
        return self.total_cny / (1 + policy.vat_rate_pct / 100) if self.includes_vat else self.total_cny

    def gross_cny(self, policy: Policy) -> float:
        """The line including VAT (a VAT-inclusive retail price is not taxed a second time)."""
        return self.total_cny if self.includes_vat else with_vat(self.total_cny, policy)


CATEGORY_ORDER = ("gpu", "cpu", "memory", "storage", "network", "power", "chassis", "software", "service")
"""The order of the groups on the quote (and in step 3's running total)."""
CENT = Decimal("0.01")
Basis = Literal["gross", "net"]


def fen(value: float | Decimal) -> Decimal:
    """An amount rounded half-up to the fen (0.01 CNY), as a price is printed."""
    return (value if isinstance(value, Decimal) else Decimal(str(value))).quantize(CENT, rounding=ROUND_HALF_UP)


@dataclass(frozen=True)
class PricedItem:
    """One line to be added up: how many, at what unit price (None: unpriced), and whether it includes VAT."""

    qty: float
    unit_cny: float | None
    includes_vat: bool | None


@dataclass(frozen=True)
class Money:
    """A set of lines added up the way a Chinese quote prints them, exact to the fen as printed.

    The basis is VAT-inclusive (含税) when any priced line's price includes VAT, the normal case in China:
    each line's 含税单价 (a net price × (1 + rate), rounded to the fen) × 数量 = 含税金额; 价税合计 = their sum;
    不含税合计 = 价税合计 ÷ (1 + rate) rounded once; 税额 = 价税合计 − 不含税合计 (价税分离, how a VAT invoice
    splits a VAT-inclusive amount). Otherwise the basis is net: 不含税单价 × 数量 = 不含税金额; 不含税合计 = their
    sum; 税额 = rate × 不含税合计 rounded once; 价税合计 = 不含税合计 + 税额. Unpriced lines add nothing (the sums are
    then lower bounds)."""

    basis: Basis
    units: tuple[Decimal | None, ...]
    """Each line's unit price on the basis, to the fen (None: unpriced)."""
    amounts: tuple[Decimal | None, ...]
    """Each line's amount on the basis: exactly unit × qty."""
    net: Decimal
    vat: Decimal
    gross: Decimal
    rate_pct: Decimal


def add_up(items: Iterable[PricedItem], vat_rate_pct: float) -> Money:
    """The one computation of money (see ``Money``)."""
    items = tuple(items)
    rate = Decimal(str(vat_rate_pct))
    factor = 1 + rate / 100
    basis: Basis = "gross" if any(i.includes_vat and i.unit_cny for i in items) else "net"
    units: list[Decimal | None] = []
    amounts: list[Decimal | None] = []
    for item in items:
        if item.unit_cny is None:
            units.append(None)
            amounts.append(None)
            continue
        price = Decimal(str(item.unit_cny))
        # rounded to the fen once: a price before VAT with fractions of a fen (4,479.99552 from a spreadsheet) is
        # ¥5,062.39 with 13 % VAT, not ¥4,480.00 × 1.13 = ¥5,062.40
        unit = fen(price * factor) if basis == "gross" and not item.includes_vat else fen(price)
        units.append(unit)
        amounts.append(fen(unit * Decimal(str(item.qty))))
    total = sum((a for a in amounts if a is not None), Decimal(0))
    if basis == "gross":
        gross = total
        net = fen(gross / factor)
        vat = gross - net
    else:
        net = total
        vat = fen(net * rate / 100)
        gross = net + vat
    return Money(basis, tuple(units), tuple(amounts), net, vat, gross, rate)


@dataclass(frozen=True)
class IncludedPart:
    """A part that ships inside another and is paid with it (the PSUs of a chassis): listed, never priced."""

    path: str
    part: Part
    count: int
    """Per node."""
    inside: str
    """The name of the part it ships in."""


@dataclass(frozen=True)
class CostBreakdown:
    """The bill of materials: one server's lines and all nodes'; unpriced parts are listed and not added, parts
    included in another's price are listed in ``included`` and never a line of their own."""

    lines: tuple[CostLine, ...]
    nodes: int
    budget_cny: float | None
    included: tuple[IncludedPart, ...] = ()

    def items(self) -> tuple[PricedItem, ...]:
        """Every line for all nodes, to be added up."""
        return tuple(PricedItem(x.quantity(self.nodes), x.unit_cny, x.includes_vat) for x in self.lines)

    def money(self, policy: Policy) -> Money:
        """The lines for all nodes added up (lower bounds while ``complete`` is False)."""
        return add_up(self.items(), policy.vat_rate_pct)

    @property
    def node_cny(self) -> float:
        return sum(line.total_cny for line in self.lines)

    @property
    def total_cny(self) -> float:
        return self.node_cny * self.nodes

    @property
    def unpriced(self) -> tuple[CostLine, ...]:
        return tuple(line for line in self.lines if line.unit_cny is None and line.count > 0)

    @property
    def complete(self) -> bool:
        """Every line carries a price: only then is a sum a total (otherwise it is a lower bound)."""
        return not self.unpriced

    def net_total_cny(self, policy: Policy) -> float:
        """The priced lines before VAT, × nodes (a lower bound while ``complete`` is False)."""
        return float(self.money(policy).net)

    def gross_total_cny(self, policy: Policy) -> float:
        """The priced lines including VAT, × nodes: the quote's 价税合计 (a lower bound while ``complete`` is
        False)."""
        return float(self.money(policy).gross)

    def verdict(self, policy: Policy) -> BudgetVerdict:
        """Within / over / unknown against the VAT-inclusive budget; 'within' only when every line is priced."""
        gross = self.gross_total_cny(policy)
        status: VerdictStatus
        if self.budget_cny is None:
            status = "no_budget"
        elif round(gross) > round(self.budget_cny):
            status = "over"  # the priced part alone already exceeds it: more parts only add
        elif self.unpriced:
            status = "unknown"
        else:
            status = "within"
        return BudgetVerdict(status, gross, self.budget_cny, self.complete, self.unpriced)


VerdictStatus = Literal["within", "over", "unknown", "no_budget"]


@dataclass(frozen=True)
class BudgetVerdict:
    """The one budget verdict every view shows: step 1, the quote page, the findings, `check --json`, the PDFs."""

    status: VerdictStatus
    gross_cny: float
    """The VAT-inclusive sum of the priced lines; the total only when ``complete``, else a lower bound."""
    budget_cny: float | None
    complete: bool
    unpriced: tuple[CostLine, ...]

    def as_json(self) -> dict[str, object]:
        return {
            "status": self.status,
            "total_incl_vat_cny" if self.complete else "priced_lower_bound_incl_vat_cny": round(self.gross_cny, 2),
            "budget_cny": self.budget_cny,
            "unpriced": [{"field": x.path, "part": x.part_id, "name": x.name} for x in self.unpriced],
        }


@dataclass(frozen=True)
class Price:
    """One part's price as the plan uses it, with where it comes from."""

    cny: float
    includes_vat: bool | None
    kind: str
    """'entered', 'vendor_quote', 'company' (plan prices) or the catalog's kind ('reference' if unstated)."""
    date: dt.date | None
    source: str | None


def price_of(plan: Plan, part: Part) -> Price | None:
    """The plan's own price for ``part`` (entered or imported, stored in the plan) over the catalog's
    reference price; None when neither exists (on request)."""
    own = plan.prices.get(part.id)
    if own is not None:
        return Price(own.price_cny, own.with_vat, own.kind, own.date, own.source or None)
    if part.price_cny is None:
        return None
    return Price(part.price_cny, part.price_includes_vat, part.price_kind or "reference", part.price_date,
                 part.price_source)


def _line(plan: Plan, path: str, part: Part | None, count: int, category: str, role: str = "") -> CostLine | None:
    if part is None or count <= 0:
        return None
    price = price_of(plan, part)
    if price is None:
        return CostLine(path, part.id, part.name, count, None, category=category, part=part, role=role)
    return CostLine(path, part.id, part.name, count, price.cny, price.includes_vat, price.date, category, part,
                    role, price.kind, price.source)


def plan_cost(plan: Plan, catalog: Catalog, parts: Parts | None = None) -> CostBreakdown:
    """Every priced line of the plan (hardware and paid software) for one node, and × nodes (computed once
    per evaluation scope)."""
    scope = scope_for(plan, catalog, parts)
    if scope is None:
        return _plan_cost(plan, parts or resolve(plan, catalog))
    if ("cost", 0) not in scope.computed:
        scope.computed[("cost", 0)] = _plan_cost(plan, scope.parts)
    cost: CostBreakdown = scope.computed[("cost", 0)]
    return cost


def psu_split(p: Parts) -> tuple[int, int]:
    """(PSUs per node that ship in the chassis, PSUs per node to buy on top): the chassis's own PSUs are in its
    price whether the plan names them or leaves the PSU to the platform; only PSUs beyond them, or PSUs of
    another model, are bought."""
    chassis, psu = p.chassis, p.psu
    if psu is None or p.psu_count <= 0:
        return 0, 0
    if chassis is None or not chassis.psu_included or not chassis.psu_included_count or psu.id != chassis.psu_included:
        return 0, p.psu_count
    inside = min(p.psu_count, chassis.psu_included_count)
    return inside, p.psu_count - inside


def _plan_cost(plan: Plan, p: Parts) -> CostBreakdown:
    inside, extra = psu_split(p)
    lines = [
        _line(plan, "gpu.model", p.gpu, p.gpu_count, "gpu"),
        _line(plan, "server.chassis", p.chassis, 1, "chassis"),
        _line(plan, "server.cpu", p.cpu, p.cpu_count, "cpu"),
        _line(plan, "server.memory.part", p.memory, p.memory_count, "memory"),
        *(_line(plan, f"server.storage[{s.index}].part", s.part, s.item.count, "storage", s.item.role.value)
          for s in p.storage),
        *(_line(plan, f"server.nics[{n.index}].part", n.part, n.count, "network") for n in p.nics),
        _line(plan, "server.psu.part", p.psu, extra, "power"),
        *(_line(plan, path, part, 1, "software")
          for path, part in (("software.os", p.os), ("software.driver", p.driver), ("software.cuda", p.cuda),
                             ("software.framework", p.framework), ("software.image", p.image))),
    ]
    chosen = next((q for q in plan.vendor_quotes if q.vendor == plan.chosen_vendor), None)
    if chosen is not None:  # the chosen offer's own lines (installation, freight…) are part of what is bought
        for j, extra_line in enumerate(chosen.lines):
            if extra_line.for_part is None and extra_line.text.strip():
                lines.append(CostLine(f"chosen_offer.lines[{j}]", "", extra_line.text, 1, extra_line.unit_price_cny,
                                      extra_line.with_vat, chosen.date, "service", None, "", "vendor_quote",
                                      f"{chosen.vendor} {chosen.number}".strip(),
                                      extra_line.quantity if extra_line.quantity is not None else 1.0))
    included: tuple[IncludedPart, ...] = ()
    if inside and p.psu is not None and p.chassis is not None:
        included = (IncludedPart("server.psu.part", p.psu, inside, p.chassis.name),)
    return CostBreakdown(
        tuple(x for x in lines if x is not None), plan.requirements.nodes, plan.requirements.budget_cny, included
    )


bill_of_materials = plan_cost
"""The plan's bill of materials (the same computation, under the name the quote and the comparison use)."""


def yuan(cny: float) -> str:
    """Full yuan, grouped: 103992.4 -> '¥103,992' (no 0.1-万 rounding that can read '0.0 万 over')."""
    return f"¥{round(cny):,}"


def yuan_fen(cny: float | Decimal) -> str:
    """Yuan and fen, grouped: a share of a total that must multiply back to it ('¥199,667.38 per node × 8')."""
    return f"¥{fen(cny):,.2f}"


def with_vat(cny: float, policy: Policy) -> float:
    return cny * (1 + policy.vat_rate_pct / 100)



"""The cost of a plan: every priced line for one node and × nodes; unpriced parts listed, never added."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
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


@dataclass(frozen=True)
class CostBreakdown:
    """Reference cost of one server and of all nodes; unpriced parts are listed and not added."""

    lines: tuple[CostLine, ...]
    nodes: int
    budget_cny: float | None

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
        return sum(line.net_cny(policy) for line in self.lines) * self.nodes

    def gross_total_cny(self, policy: Policy) -> float:
        """The priced lines including VAT, × nodes (a lower bound while ``complete`` is False)."""
        return sum(line.gross_cny(policy) for line in self.lines) * self.nodes

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


def _line(plan: Plan, path: str, part: Part | None, count: int) -> CostLine | None:
    if part is None or count <= 0:
        return None
    price = price_of(plan, part)
    if price is None:
        return CostLine(path, part.id, part.name, count, None)
    return CostLine(path, part.id, part.name, count, price.cny, price.includes_vat, price.date)


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


def _plan_cost(plan: Plan, p: Parts) -> CostBreakdown:
    lines = [
        _line(plan, "gpu.model", p.gpu, p.gpu_count),
        _line(plan, "server.chassis", p.chassis, 1),
        _line(plan, "server.cpu", p.cpu, p.cpu_count),
        _line(plan, "server.memory.part", p.memory, p.memory_count),
        *(_line(plan, f"server.storage[{s.index}].part", s.part, s.item.count) for s in p.storage),
        *(_line(plan, f"server.nics[{n.index}].part", n.part, n.count) for n in p.nics),
        None if p.psu_from_chassis else _line(plan, "server.psu.part", p.psu, p.psu_count),
        *(
            _line(plan, path, part, 1)
            for path, part in (("software.os", p.os), ("software.image", p.image))
            if part is not None and (part.price_cny or part.id in plan.prices)
        ),
    ]
    return CostBreakdown(
        tuple(x for x in lines if x is not None), plan.requirements.nodes, plan.requirements.budget_cny
    )


def yuan(cny: float) -> str:
    """Full yuan, grouped: 103992.4 -> '¥103,992' (no 0.1-万 rounding that can read '0.0 万 over')."""
    return f"¥{round(cny):,}"


def with_vat(cny: float, policy: Policy) -> float:
    return cny * (1 + policy.vat_rate_pct / 100)



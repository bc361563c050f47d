"""The cost of a plan: every priced line for one node and × nodes; unpriced parts listed, never added."""

from __future__ import annotations

from dataclasses import dataclass

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

    @property
    def total_cny(self) -> float:
        return (self.unit_cny or 0.0) * self.count


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


def _line(path: str, part: Part | None, count: int) -> CostLine | None:
    if part is None or count <= 0:
        return None
    return CostLine(path, part.id, part.name, count, part.price_cny)


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
        _line("gpu.model", p.gpu, p.gpu_count),
        _line("server.chassis", p.chassis, 1),
        _line("server.cpu", p.cpu, p.cpu_count),
        _line("server.memory.part", p.memory, p.memory_count),
        *(_line(f"server.storage[{s.index}].part", s.part, s.item.count) for s in p.storage),
        *(_line(f"server.nics[{n.index}].part", n.part, n.count) for n in p.nics),
        None if p.psu_from_chassis else _line("server.psu.part", p.psu, p.psu_count),
        *(
            _line(path, part, 1)
            for path, part in (("software.os", p.os), ("software.image", p.image))
            if part is not None and part.price_cny
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



"""Budget rules: the plan's reference cost (per node × nodes) against the buyer's budget.

Prices are the catalog's reference prices (``price_cny`` with date and source, excluding VAT as the quote
treats them); parts without a public price are listed, and the total is then a lower bound. PSUs that ship
with the chassis are in its price. ``requirements.budget_cny`` is VAT-inclusive (含税, how Chinese purchase
budgets are set), so the total compared with it is the VAT-inclusive one: × (1 + policy.vat_rate_pct / 100),
13 % by default (公告2019年第39号, resources/policy/default.yaml) — the same total the quote prints.
"""

from __future__ import annotations

from dataclasses import dataclass

from catalog.loader import Catalog
from catalog.models import Part
from procurement.findings import Family, Finding, Severity
from procurement.messages import Lang, register
from procurement.plan import Plan
from procurement.policy import Policy
from procurement.rules.base import Parts, Rule, join_names, make, resolve

FAMILY: Family = "budget"


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
    """Every priced line of the plan (hardware and paid software) for one node, and × nodes."""
    p = parts or resolve(plan, catalog)
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


def over_budget(plan: Plan, catalog: Catalog, policy: Policy, lang: Lang) -> list[Finding]:
    """BUDGET-OVER: the VAT-inclusive reference total (one node × nodes × (1 + VAT)) above the budget,
    which is VAT-inclusive (含税)."""
    budget = plan.requirements.budget_cny
    if budget is None:
        return []
    c = plan_cost(plan, catalog)
    gross = with_vat(c.total_cny, policy)
    if round(gross) <= round(budget):
        return []
    return [
        make(
            "BUDGET-OVER",
            FAMILY,
            Severity.ERROR,
            1,
            ("requirements.budget_cny", "gpu.count"),
            lang,
            total=yuan(gross),
            net=yuan(c.total_cny),
            vat=f"{policy.vat_rate_pct:g}",
            budget=yuan(budget),
            nodes=c.nodes,
            node=yuan(c.node_cny),
            over=yuan(gross - budget),
        )
    ]


def unpriced(plan: Plan, catalog: Catalog, policy: Policy, lang: Lang) -> list[Finding]:
    """BUDGET-UNPRICED: parts without a public reference price (询价); the total is a lower bound (info)."""
    c = plan_cost(plan, catalog)
    if not c.unpriced:
        return []
    return [
        make(
            "BUDGET-UNPRICED",
            FAMILY,
            Severity.INFO,
            3,
            tuple(dict.fromkeys(x.path for x in c.unpriced)),
            lang,
            parts=join_names((x.name for x in c.unpriced), lang),  # a part used twice is named once
        )
    ]


RULES: tuple[Rule, ...] = (over_budget, unpriced)

register(
    {
        "BUDGET-OVER.message": {
            "zh": "含税参考总价 {total}（不含税 {net} = 每节点 {node} × {nodes} 台，另加 {vat}% 增值税）"
                  "超过含税预算 {budget}，超出 {over}。",
            "en": "The reference total including {vat} % VAT is {total} ({net} before VAT = {node} per node "
            "× {nodes}), {over} over the budget of {budget} (budgets include VAT).",
        },
        "BUDGET-OVER.fix": {
            "zh": "减少 GPU、选择性价比更高的 GPU，或提高预算。",
            "en": "Use fewer or better-value GPUs, or raise the budget.",
        },
        "BUDGET-UNPRICED.message": {
            "zh": "以下部件没有公开参考价（需询价），总价为下限：{parts}。",
            "en": "No public reference price (on request) for: {parts}; the total is a lower bound.",
        },
        "BUDGET-UNPRICED.fix": {
            "zh": "向供应商询价，或在用户目录中填写公司价格。",
            "en": "Ask the vendor, or add company prices in a user catalog directory.",
        },
    }
)

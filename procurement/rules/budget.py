"""Budget rules: the plan's reference cost (per node × nodes) against the buyer's budget.

Prices are the catalog's reference prices (``price_cny`` with date and source, excluding VAT as the quote
treats them); parts without a public price are listed, and the total is then a lower bound. PSUs that ship
with the chassis are in its price. ``requirements.budget_cny`` is VAT-inclusive (含税, how Chinese purchase
budgets are set), so the total compared with it is the VAT-inclusive one: × (1 + policy.vat_rate_pct / 100),
13 % by default (公告2019年第39号, resources/policy/default.yaml) — the same total the quote prints.
"""

from __future__ import annotations

from catalog.loader import Catalog

# re-exported: procurement.budgets.cost is their home
from procurement.budgets.cost import CostBreakdown as CostBreakdown
from procurement.budgets.cost import CostLine as CostLine
from procurement.budgets.cost import plan_cost, with_vat, yuan
from procurement.findings import Family, Finding, Severity
from procurement.messages import Lang, register
from procurement.plan import Plan
from procurement.policy import Policy
from procurement.rules.base import Rule, join_names, make
from procurement.rules.registry import rule

FAMILY: Family = "budget"


@rule(FAMILY, "BUDGET-OVER", step=1)
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


@rule(FAMILY, "BUDGET-UNPRICED", step=3)
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

"""Budget rules: the plan's reference cost (per node × nodes) against the buyer's budget range.

The budget is a range (format 12): ``requirements.budget_cny`` is its maximum (over it: BUDGET-OVER, as before),
``requirements.budget_min_cny`` its optional minimum (a complete total under it: BUDGET-UNDER, info).

Prices are the catalog's reference prices (``price_cny`` with date, source, kind and whether VAT is included);
parts without a price are listed, and the sum is then a lower bound. PSUs that ship with the chassis are in its
price. ``requirements.budget_cny`` is VAT-inclusive (含税, how Chinese purchase budgets are set), so each line is
compared VAT-inclusive: × (1 + policy.vat_rate_pct / 100) unless its price already includes VAT (China retail
prices), 13 % by default (公告2019年第39号, resources/policy/default.yaml) — the same figures the quote prints.
The verdict is tri-state (budgets/cost.py ``verdict``): within only when every line is priced.
"""

from __future__ import annotations

import datetime as dt

from catalog.loader import Catalog

# re-exported: procurement.budgets.cost is their home
from procurement.budgets.cost import CostBreakdown as CostBreakdown
from procurement.budgets.cost import CostLine as CostLine
from procurement.budgets.cost import plan_cost, yuan, yuan_fen
from procurement.findings import Family, Finding, Severity
from procurement.messages import plural, register
from procurement.plan import Plan
from procurement.policy import Policy
from procurement.rules.base import join_names, make
from procurement.rules.registry import rule

FAMILY: Family = "budget"


@rule(FAMILY, "BUDGET-OVER", step=1)
def over_budget(plan: Plan, catalog: Catalog, policy: Policy) -> list[Finding]:
    """BUDGET-OVER: the VAT-inclusive cost (one node × nodes, each line with VAT unless its price already
    includes it) above the budget, which is VAT-inclusive (含税). With unpriced parts the priced sum is a lower
    bound: when that alone is over, the plan is over whatever the rest costs."""
    c = plan_cost(plan, catalog)
    v = c.verdict(policy)
    if v.status != "over" or v.budget_cny is None:
        return []
    return [
        make(
            "BUDGET-OVER",
            Severity.ERROR,
            ("requirements.budget_cny", "gpu.count"),
            variant=None if v.complete else "lower_bound",
            total=yuan(v.gross_cny),
            net=yuan(c.net_total_cny(policy)),
            vat=f"{policy.vat_rate_pct:g}",
            budget=yuan(v.budget_cny),
            nodes=c.nodes,
            node=yuan_fen(c.money(policy).gross / c.nodes),
            over=yuan(v.gross_cny - v.budget_cny),
            parts=join_names(x.name for x in v.unpriced),
        )
    ]


@rule(FAMILY, "BUDGET-RANGE", step=1)
def budget_range(plan: Plan, catalog: Catalog, policy: Policy) -> list[Finding]:
    """BUDGET-RANGE: the bottom of the budget range is above its top (error): the budget cannot be judged."""
    req = plan.requirements
    if req.budget_min_cny is None or req.budget_cny is None or req.budget_min_cny <= req.budget_cny:
        return []
    return [make("BUDGET-RANGE", Severity.ERROR, ("requirements.budget_min_cny", "requirements.budget_cny"),
                 low=yuan(req.budget_min_cny), high=yuan(req.budget_cny))]


@rule(FAMILY, "BUDGET-UNDER", step=1)
def under_budget(plan: Plan, catalog: Catalog, policy: Policy) -> list[Finding]:
    """BUDGET-UNDER: every line is priced and the VAT-inclusive total is below the bottom of the budget range
    (``requirements.budget_min_cny``): the buyer could afford more (info). Said only of a complete total: a
    lower bound under the minimum says nothing about the whole."""
    low, high = plan.requirements.budget_min_cny, plan.requirements.budget_cny
    if not low or (high is not None and low > high):  # no minimum, or no range (BUDGET-RANGE)
        return []
    c = plan_cost(plan, catalog)
    v = c.verdict(policy)
    if not v.complete or v.status == "over" or not c.lines or round(v.gross_cny) >= round(low):
        return []
    return [
        make(
            "BUDGET-UNDER",
            Severity.INFO,
            ("requirements.budget_min_cny", "gpu.count"),
            variant=None if v.budget_cny is not None else "no_max",
            total=yuan(v.gross_cny),
            low=yuan(low),
            high=yuan(v.budget_cny) if v.budget_cny is not None else "",
            left=yuan(low - v.gross_cny),
        )
    ]


@rule(FAMILY, "BUDGET-UNKNOWN", step=1)
def budget_unknown(plan: Plan, catalog: Catalog, policy: Policy) -> list[Finding]:
    """BUDGET-UNKNOWN: a budget is set, the priced parts fit it, but some parts have no price: whether the plan
    is within budget is unknown (a warning — unknown is never good), with the priced lower bound."""
    c = plan_cost(plan, catalog)
    v = c.verdict(policy)
    if v.status != "unknown" or v.budget_cny is None:
        return []
    return [
        make(
            "BUDGET-UNKNOWN",
            Severity.WARNING,
            ("requirements.budget_cny", *dict.fromkeys(x.path for x in v.unpriced)),
            variant="nothing_priced" if v.gross_cny == 0 else None,  # a lower bound of ¥0 says nothing
            total=yuan(v.gross_cny),
            budget=yuan(v.budget_cny),
            n=len(v.unpriced),
            parts=join_names(x.name for x in v.unpriced),
        )
    ]


@rule(FAMILY, "BUDGET-UNPRICED", step=3)
def unpriced(plan: Plan, catalog: Catalog, policy: Policy) -> list[Finding]:
    """BUDGET-UNPRICED: without a budget, parts without a price (询价); the sum is a lower bound (info). With a
    budget, BUDGET-UNKNOWN or BUDGET-OVER says it."""
    c = plan_cost(plan, catalog)
    if not c.unpriced or plan.requirements.budget_cny is not None:
        return []
    return [
        make(
            "BUDGET-UNPRICED",
            Severity.INFO,
            tuple(dict.fromkeys(x.path for x in c.unpriced)),
            parts=join_names(x.name for x in c.unpriced),  # a part used twice is named once
        )
    ]


@rule(FAMILY, "BUDGET-PRICE-AGE", step=3)
def price_age(plan: Plan, catalog: Catalog, policy: Policy) -> list[Finding]:
    """BUDGET-PRICE-AGE: prices older than ``policy.price_max_age_days`` (warning): the money may have moved."""
    today = dt.date.today()
    old = [x for x in plan_cost(plan, catalog).lines
           if x.unit_cny and x.price_date is not None and (today - x.price_date).days > policy.price_max_age_days]
    if not old:
        return []
    oldest = min(x.price_date for x in old if x.price_date is not None)
    return [
        make(
            "BUDGET-PRICE-AGE",
            Severity.WARNING,
            tuple(dict.fromkeys(x.path for x in old)),
            n=len({x.part_id for x in old}),
            days=policy.price_max_age_days,
            oldest=oldest.isoformat(),
            parts=join_names(x.name for x in old),
        )
    ]



register(
    {
        "BUDGET-OVER.message": (
            "The reference total including {vat}% VAT is {total} ({node} per node × {nodes}; {net} before VAT), "
            "{over} over the budget of {budget} (budgets include VAT)."
        ),
        "BUDGET-OVER.message.lower_bound": (
            "The priced parts alone come to {total} incl. VAT (without {parts}, priced on request), at least {over} "
            "over the budget of {budget} (budgets include VAT)."
        ),
        "BUDGET-UNKNOWN.message": plural(
            (
                "Whether the plan is within budget is unknown: {n} part have no price ({parts}). The priced parts come "
                "to {total} incl. VAT, a lower bound; the budget is {budget}."
            ),
            (
                "Whether the plan is within budget is unknown: {n} parts have no price ({parts}). The priced parts "
                "come to {total} incl. VAT, a lower bound; the budget is {budget}."
            ),
            "n",
        ),
        "BUDGET-UNKNOWN.message.nothing_priced": (
            "Whether the plan is within the budget of {budget} is unknown: no part of it has a price yet ({parts})."
        ),
        "BUDGET-UNKNOWN.fix": (
            "Ask the vendor for the missing prices and enter them on the quote page (or import the vendor's quote) "
            "before judging the budget."
        ),
        "BUDGET-PRICE-AGE.message": (
            "Older than {days} days (the oldest from {oldest}), so the price may have moved: {parts}."
        ),
        "BUDGET-PRICE-AGE.fix": (
            "Ask the vendor for a current quote or enter current prices on the quote page (the age limit is the "
            "policy's price_max_age_days)."
        ),
        "BUDGET-OVER.fix": "Use fewer or better-value GPUs, or raise the budget.",
        "BUDGET-RANGE.message": "The budget's minimum {low} is above its maximum {high}.",
        "BUDGET-RANGE.fix": (
            "Enter the range as minimum – maximum (e.g. 150,000 – 200,000), or leave the minimum empty."
        ),
        "BUDGET-UNDER.message": (
            "The total including VAT is {total}, {left} under the bottom of the budget range {low}–{high}: the budget "
            "could buy more (more or faster GPUs, more memory, a spare)."
        ),
        "BUDGET-UNDER.message.no_max": (
            "The total including VAT is {total}, {left} under the budget's minimum of {low}: the budget could buy "
            "more (more or faster GPUs, more memory, a spare)."
        ),
        "BUDGET-UNDER.fix": (
            "Nothing is wrong: consider more GPUs or a larger model's headroom, or lower the budget's minimum."
        ),
        "BUDGET-UNPRICED.message": "No public reference price (on request) for: {parts}; the total is a lower bound.",
        "BUDGET-UNPRICED.fix": "Ask the vendor, or add company prices in a user catalog directory.",
    }
)

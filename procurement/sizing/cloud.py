"""Cloud or own: a recommendation with reasons from usage, data sensitivity, budget and cluster size.

The reference's decision factors (docs/sources.md §S): occasional use favours renting, continuous use favours
buying; sensitive data favours owning the hardware; a budget below the configuration's reference cost
favours renting. No numeric thresholds beyond the plan's own budget and reference cost.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from catalog.loader import Catalog
from procurement.budgets.cost import plan_cost, yuan
from procurement.budgets.tco import plan_tco
from procurement.messages import Lang, plural, register, t
from procurement.plan import Plan, Sensitivity, Usage
from procurement.policy import Policy, default_policy

Choice = Literal["cloud", "own", "either"]


@dataclass(frozen=True)
class CloudAdvice:
    choice: Choice
    reasons: tuple[str, ...]
    cloud_points: int
    own_points: int


def cloud_or_own(plan: Plan, catalog: Catalog, lang: Lang = "zh", policy: Policy | None = None) -> CloudAdvice:
    req = plan.requirements
    cloud: list[str] = []
    own: list[str] = []
    if req.usage == Usage.OCCASIONAL:
        cloud.append(t("cloud.occasional", lang))
    else:
        own.append(t("cloud.continuous", lang))
    weight_own = 0
    cloud_notes: list[str] = []
    if req.data_sensitivity == Sensitivity.HIGH:
        own.append(t("cloud.sensitive", lang))
        weight_own = 1  # data that may not leave the premises decides more than cost
    cost = plan_cost(plan, catalog)
    verdict = cost.verdict(policy or default_policy())  # budgets include VAT

    def money(cny: float) -> str:
        return f"{cny / 10_000:,.1f}" if lang == "zh" else yuan(cny)

    if verdict.status == "over":
        cloud.append(t("cloud.over_budget" if verdict.complete else "cloud.over_budget_lower_bound", lang,
                       cost=money(verdict.gross_cny), budget=money(verdict.budget_cny or 0)))
    elif verdict.status == "within" and cost.lines:  # nothing chosen yet is no "0.0 万元 within budget"
        own.append(t("cloud.within_budget", lang, cost=money(verdict.gross_cny), budget=money(verdict.budget_cny or 0)))
    elif verdict.status == "unknown":
        # Not a reason either way: the cost is not known yet. Said, so nobody reads silence as 'fits'.
        cloud_notes.append(t("cloud.budget_unknown", lang, cost=money(verdict.gross_cny),
                             budget=money(verdict.budget_cny or 0), n=len(verdict.unpriced)))
    if req.nodes > 1 and req.usage == Usage.OCCASIONAL:
        cloud.append(t("cloud.cluster_idle", lang, nodes=req.nodes))
    # the cost of ownership and the rent, from the same figures as the quote page and `check --json`
    tco = plan_tco(plan, catalog, policy or default_policy())
    rent = tco.cloud_cny
    if rent is not None and plan.gpu.count:
        years = f"{tco.life_years:g}" if tco.life_years is not None else "?"
        figures = {"own": yuan(tco.own_yuan), "rent": yuan(rent), "years": years,
                   "util": f"{tco.utilisation_pct or 0:g}", "gpus": tco.gpus}
        if tco.complete:
            (cloud if rent < tco.own_cny else own).append(
                t("cloud.tco.rent_cheaper" if rent < tco.own_cny else "cloud.tco.own_cheaper", lang, **figures))
        elif tco.own_cny > rent:  # owning costs at least this already: more terms only add
            cloud.append(t("cloud.tco.own_at_least_more", lang, **figures))
        else:
            cloud_notes.append(t("cloud.tco.unknown", lang, **figures))
    elif plan.gpu.count and tco.life_years is not None:
        cloud_notes.append(t("cloud.tco.no_rent", lang))
    c, o = len(cloud), len(own) + weight_own
    choice: Choice = "own" if o > c else "cloud" if c > o else "either"
    return CloudAdvice(choice, tuple([t(f"cloud.choice.{choice}", lang), *own, *cloud, *cloud_notes]), c, o)


register(
    {
        "cloud.choice.own": "Buying the servers is advised.",
        "cloud.choice.cloud": "Renting cloud GPUs is advised.",
        "cloud.choice.either": "Buying and renting both have a case; decide on actual quotes.",
        "cloud.occasional": "Occasional use: renting on demand beats idle owned hardware.",
        "cloud.continuous": "Continuous use: long-term rental usually costs more than owning.",
        "cloud.sensitive": "Sensitive data: owned hardware keeps the data on premises.",
        "cloud.over_budget": "The configuration's reference cost incl. VAT, {cost}, exceeds the {budget} budget.",
        "cloud.over_budget_lower_bound": (
            "The priced parts alone come to {cost} incl. VAT, over the {budget} budget (other parts are not priced "
            "yet)."
        ),
        "cloud.budget_unknown": plural(
            (
                "Whether it fits the {budget} budget is unknown: {n} part have no price yet; the priced parts, {cost} "
                "incl. VAT, are a lower bound."
            ),
            (
                "Whether it fits the {budget} budget is unknown: {n} parts have no price yet; the priced parts, {cost} "
                "incl. VAT, are a lower bound."
            ),
            "n",
        ),
        "cloud.within_budget": "The configuration's reference cost incl. VAT, {cost}, is within the {budget} budget.",
        "cloud.tco.rent_cheaper": plural(
            (
                "Over {years} years at {util}% utilisation, renting {gpus} GPU in the cloud costs about {rent}, less "
                "than owning ({own}: purchase + electricity)."
            ),
            (
                "Over {years} years at {util}% utilisation, renting {gpus} GPUs in the cloud costs about {rent}, less "
                "than owning ({own}: purchase + electricity)."
            ),
            "gpus",
        ),
        "cloud.tco.own_cheaper": plural(
            (
                "Over {years} years at {util}% utilisation, owning ({own}: purchase + electricity) costs less than "
                "renting {gpus} GPU in the cloud ({rent})."
            ),
            (
                "Over {years} years at {util}% utilisation, owning ({own}: purchase + electricity) costs less than "
                "renting {gpus} GPUs in the cloud ({rent})."
            ),
            "gpus",
        ),
        "cloud.tco.own_at_least_more": plural(
            (
                "Over {years} years at {util}% utilisation, owning costs at least {own} (the known terms), already "
                "more than renting {gpus} GPU in the cloud ({rent})."
            ),
            (
                "Over {years} years at {util}% utilisation, owning costs at least {own} (the known terms), already "
                "more than renting {gpus} GPUs in the cloud ({rent})."
            ),
            "gpus",
        ),
        "cloud.tco.unknown": plural(
            (
                "Whether owning or renting costs less is unknown: owning is at least {own} (a lower bound, some terms "
                "unknown); renting {gpus} GPU in the cloud for {years} years is about {rent}."
            ),
            (
                "Whether owning or renting costs less is unknown: owning is at least {own} (a lower bound, some terms "
                "unknown); renting {gpus} GPUs in the cloud for {years} years is about {rent}."
            ),
            "gpus",
        ),
        "cloud.tco.no_rent": (
            "Enter a cloud GPU-hour price (quote page) to compare owning and renting over the same life and "
            "utilisation."
        ),
        "cloud.cluster_idle": "A {nodes}-node cluster used occasionally sits idle most of the time.",
    }
)

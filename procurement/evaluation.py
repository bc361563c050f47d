"""One evaluation of a plan: resolved parts, budgets, findings, per-step status, what each checklist item needs.

``evaluate(plan, catalog, policy, lang)`` runs every rule once with the parts looked up once and each budget
computed once; the GUI (gauges, step marks, findings), ``gpu-procure check`` and the reports read the result
and recompute nothing. ``procurement.rules.evaluate`` stays for callers that only want the findings list. The
findings store message codes; ``lang`` is only the language their serialised form shows (``Finding.shown``):
no finding, budget, status or waiver decision depends on it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from catalog.loader import Catalog
from procurement import rules
from procurement.budgets.balance import BalanceNeeds, balance_needs
from procurement.budgets.cost import CostBreakdown, plan_cost
from procurement.budgets.heat import HeatBudget, heat_budget
from procurement.budgets.lanes import LaneBudget, lane_budget
from procurement.budgets.parts import Parts, resolved_once
from procurement.budgets.power import PowerBudget, power_budget
from procurement.budgets.tco import Tco, tco_of
from procurement.completeness import PURCHASE_STEPS, missing_choices
from procurement.exit_status import ExitStatus
from procurement.findings import SEVERITY_ORDER, Finding, Severity, verification_severity
from procurement.messages import Lang
from procurement.plan import Plan
from procurement.policy import Policy
from procurement.rules.registry import items_for_finding

T = TypeVar("T")
STEPS = (1, 2, 3, 4, 5)


@dataclass(frozen=True)
class Budgets:
    """The figures the plan adds up to; None where one could not be computed (``errors`` says why)."""

    power: PowerBudget | None
    heat: HeatBudget | None
    lanes: LaneBudget | None
    cost: CostBreakdown | None
    balance: BalanceNeeds | None
    errors: dict[str, str]
    tco: Tco | None = None
    """Total cost of ownership (purchase + electricity over the life), from the cost and power above."""


@dataclass(frozen=True)
class StepStatus:
    """How one purchase step stands: its worst finding, how many, and the choices it still lacks."""

    step: int
    worst: Severity | None
    """The worst finding on the step (for step 5 also the attached verification reports)."""
    count: int
    """Findings on the step."""
    missing: tuple[str, ...]
    """Keys of required choices still missing (procurement.completeness)."""
    failed_checks: int | None = None
    """Step 5 with verification reports that give a verdict: their failed checks; None otherwise."""

    @property
    def state(self) -> str:
        """'error', 'warning', 'info', 'ok', or 'incomplete' (choices missing and nothing worse than info)."""
        if self.missing and self.worst not in (Severity.ERROR, Severity.WARNING):
            return "incomplete"
        return self.worst.value if self.worst else "ok"


@dataclass(frozen=True)
class Evaluation:
    plan: Plan
    parts: Parts
    budgets: Budgets
    findings: tuple[Finding, ...]
    """Sorted by severity, then step, then rule id."""
    steps: dict[int, StepStatus]
    items: dict[str, tuple[Finding, ...]]
    """Checklist item id → the findings that bear on it (from the rule registry)."""

    @property
    def has_errors(self) -> bool:
        """An error that is not waived (a waiver is a decision someone signed: procurement/waivers.py)."""
        return any(f.severity == Severity.ERROR and f.waived is None for f in self.findings)

    @property
    def incomplete(self) -> dict[int, tuple[str, ...]]:
        """What `check` calls incomplete: the purchase steps (2-4) still lacking a choice."""
        return {s: st.missing for s, st in self.steps.items() if s in PURCHASE_STEPS and st.missing}

    @property
    def undecided(self) -> bool:
        """Nothing failed, but something could not be decided: a missing choice or a rule that could not run."""
        return bool(self.incomplete) or any(f.rule.endswith("-INTERNAL") for f in self.findings)

    def exit_status(self) -> ExitStatus:
        """1 with an error finding; else 3 when incomplete or a rule could not run; else 0."""
        if self.has_errors:
            return ExitStatus.FAILED
        return ExitStatus.INCOMPLETE if self.undecided else ExitStatus.OK


def _try(name: str, errors: dict[str, str], compute: Callable[[], T]) -> T | None:
    try:
        return compute()
    except Exception as exc:  # a budget bug must not take the app down; the gauge says why
        errors[name] = f"{type(exc).__name__}: {exc}"
        return None


def step_statuses(plan: Plan, findings: tuple[Finding, ...]) -> dict[int, StepStatus]:
    worst: dict[int, Severity] = {}
    counts: dict[int, int] = {}
    for f in findings:
        counts[f.step] = counts.get(f.step, 0) + 1
        if f.waived is not None:
            continue  # accepted on purpose: listed, but the step's mark does not count it
        if f.step not in worst or SEVERITY_ORDER[f.severity] < SEVERITY_ORDER[worst[f.step]]:
            worst[f.step] = f.severity
    # step 5 also shows what the attached verification reports say about the delivered machine
    verified, failed_checks = verification_severity(plan.verification)
    if verified is not None and (5 not in worst or SEVERITY_ORDER[verified] < SEVERITY_ORDER[worst[5]]):
        worst[5] = verified
    gaps = missing_choices(plan)
    return {
        step: StepStatus(step, worst.get(step), counts.get(step, 0), tuple(gaps.get(step, ())),
                         failed_checks if step == 5 and verified is not None else None)
        for step in STEPS
    }


def evaluate(plan: Plan, catalog: Catalog, policy: Policy | None = None, lang: Lang = "zh") -> Evaluation:
    """Everything derived from ``plan``, each fact computed once."""
    pol = rules.policy_or_default(policy)
    errors: dict[str, str] = {}
    with resolved_once(plan, catalog) as scope:
        findings = tuple(rules.evaluate(plan, catalog, pol, lang))
        power = _try("power", errors, lambda: power_budget(plan, catalog, pol))
        cost = _try("cost", errors, lambda: plan_cost(plan, catalog))
        budgets = Budgets(
            power=power,
            heat=_try("heat", errors, lambda: heat_budget(plan, catalog, pol)),
            lanes=_try("lanes", errors, lambda: lane_budget(plan, catalog, pol)),
            cost=cost,
            balance=_try("balance", errors, lambda: balance_needs(plan, catalog, pol)),
            errors=errors,
            tco=None if cost is None else _try("tco", errors, lambda: tco_of(plan, pol, cost, power)),
        )
        parts = scope.parts
    items: dict[str, list[Finding]] = {}
    for f in findings:
        for item in items_for_finding(f):
            items.setdefault(item, []).append(f)
    return Evaluation(plan, parts, budgets, findings, step_statuses(plan, findings),
                      {k: tuple(v) for k, v in items.items()})

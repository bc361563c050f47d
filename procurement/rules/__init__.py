"""The rules: pure functions (plan, catalog, policy, lang) -> findings, one module per family.

Each family module (power, cooling, pcie, balance, software, budget, vram, licensing) exposes
``FAMILY`` (its name) and ``RULES``, a tuple of rule functions; a function may report more than one
rule id when the ids check one fact from two sides (e.g. POWER-PSU-CAPACITY / POWER-PSU-HEADROOM).
Each rule function declares its ids, step and checklist item with ``@rule`` (registry.py). The figures
the rules compare (power, heat, lanes, cost, balance) come from procurement/budgets, computed once per
evaluation; procurement.evaluation.evaluate() returns them with the findings and the per-step status.
"""

from __future__ import annotations

from types import ModuleType

from catalog.loader import Catalog
from procurement.findings import SEVERITY_ORDER, Finding, Severity
from procurement.messages import Lang, register, t
from procurement.plan import Plan
from procurement.policy import Policy, default_policy
from procurement.rules import balance, budget, cooling, licensing, pcie, power, software, vram
from procurement.rules.base import Rule, resolved_once

FAMILIES: tuple[ModuleType, ...] = (power, cooling, pcie, balance, software, budget, vram, licensing)
FAMILY_STEP = {
    "power": 3,
    "cooling": 3,
    "pcie": 3,
    "balance": 3,
    "software": 4,
    "budget": 1,
    "vram": 2,
    "licensing": 2,
}

_DEFAULT_POLICY: Policy | None = None


def policy_or_default(policy: Policy | None) -> Policy:
    """``policy``, or the shipped default policy (loaded once)."""
    global _DEFAULT_POLICY
    if policy is not None:
        return policy
    if _DEFAULT_POLICY is None:
        _DEFAULT_POLICY = default_policy()
    return _DEFAULT_POLICY


def _run(family: str, rule: Rule, plan: Plan, catalog: Catalog, policy: Policy, lang: Lang) -> list[Finding]:
    try:
        return rule(plan, catalog, policy, lang)
    except Exception as exc:  # a rule bug must not take the app down; the finding says which rule
        return [
            Finding(
                rule=f"{family.upper()}-INTERNAL",
                family=family,
                severity=Severity.INFO,
                step=FAMILY_STEP[family],
                message=t("rules.internal", lang, rule=rule.__name__, error=f"{type(exc).__name__}: {exc}"),
            )
        ]


def evaluate_family(
    family: ModuleType, plan: Plan, catalog: Catalog, policy: Policy | None = None, lang: Lang = "zh"
) -> list[Finding]:
    """The findings of one family (unsorted)."""
    pol = policy_or_default(policy)
    out: list[Finding] = []
    with resolved_once(plan, catalog):
        for rule in family.RULES:
            out += _run(family.FAMILY, rule, plan, catalog, pol, lang)
    return out


def evaluate(plan: Plan, catalog: Catalog, policy: Policy | None = None, lang: Lang = "zh") -> list[Finding]:
    """All findings for ``plan``, sorted by severity, then step, then rule id."""
    pol = policy_or_default(policy)
    findings: list[Finding] = []
    with resolved_once(plan, catalog):
        for family in FAMILIES:
            for rule in family.RULES:
                findings += _run(family.FAMILY, rule, plan, catalog, pol, lang)
    # The plan's waivers, here so that the app and `check` honour them identically.
    from procurement.waivers import apply_waivers

    findings = apply_waivers(plan, findings, lang)
    findings.sort(key=lambda f: (SEVERITY_ORDER[f.severity], f.step, f.rule))
    return findings


def has_errors(findings: list[Finding]) -> bool:
    """An error that is not waived."""
    return any(f.severity == Severity.ERROR and f.waived is None for f in findings)


register(
    {
        "rules.internal": "Rule {rule} could not check this plan ({error}); please report this.",
    }
)

__all__ = ["FAMILIES", "evaluate", "evaluate_family", "has_errors", "policy_or_default"]

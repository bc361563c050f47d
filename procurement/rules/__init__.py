"""The rules: pure functions (plan, catalog, policy) -> findings, one module per family.

Each family module (power, cooling, pcie, balance, software, budget, vram, licensing: every module here but
base and registry, imported below) declares each of its rule functions once, with ``@rule(FAMILY, ids…,
step=, item=)`` (registry.py); the decorator registers the function, and evaluation runs every registered rule
in registration order. A function may report more than one
rule id when the ids check one fact from two sides (e.g. POWER-PSU-CAPACITY / POWER-PSU-HEADROOM). The
findings store message codes and parameters, so no rule knows the reader's language. The figures the rules
compare (power, heat, lanes, cost, balance) come from procurement/budgets, computed once per evaluation;
procurement.evaluation.evaluate() returns them with the findings and the per-step status.
"""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType

from catalog.loader import Catalog
from procurement.coded import coded
from procurement.findings import SEVERITY_ORDER, Finding, Severity
from procurement.messages import Lang, register
from procurement.plan import Plan
from procurement.policy import Policy, default_policy
from procurement.rules import registry
from procurement.rules.base import resolved_once
from procurement.rules.registry import Rule, family_step, rules_of

# Every module of this package but the shared ones is a rule family: importing it registers its rules.
for _module in pkgutil.iter_modules(__path__):
    if _module.name not in ("base", "registry"):
        importlib.import_module(f"{__name__}.{_module.name}")

_DEFAULT_POLICY: Policy | None = None


def policy_or_default(policy: Policy | None) -> Policy:
    """``policy``, or the shipped default policy (loaded once)."""
    global _DEFAULT_POLICY
    if policy is not None:
        return policy
    if _DEFAULT_POLICY is None:
        _DEFAULT_POLICY = default_policy()
    return _DEFAULT_POLICY


def _run(family: str, rule: Rule, plan: Plan, catalog: Catalog, policy: Policy) -> list[Finding]:
    try:
        return rule(plan, catalog, policy)
    except Exception as exc:  # a rule bug must not take the app down; the finding says which rule
        return [
            Finding(
                rule=f"{family.upper()}-INTERNAL",
                family=family,
                severity=Severity.INFO,
                step=family_step(family),
                coded_message=coded("rules.internal", rule=rule.__name__, error=f"{type(exc).__name__}: {exc}"),
            )
        ]


def evaluate_family(
    family: ModuleType | str, plan: Plan, catalog: Catalog, policy: Policy | None = None, lang: Lang = "zh"
) -> list[Finding]:
    """The findings of one family (a family module or its name; unsorted), shown in ``lang``."""
    name = family if isinstance(family, str) else family.FAMILY
    pol = policy_or_default(policy)
    out: list[Finding] = []
    with resolved_once(plan, catalog):
        for rule in rules_of(name):
            out += _run(name, rule, plan, catalog, pol)
    return [f.shown(lang) for f in out]


def evaluate(plan: Plan, catalog: Catalog, policy: Policy | None = None, lang: Lang = "zh") -> list[Finding]:
    """All findings for ``plan``, sorted by severity, then step, then rule id. They store codes; ``lang`` is
    only the language their ``message``/``fix`` and serialised form show (Finding.shown): no finding, and no
    waiver's decision, depends on it."""
    pol = policy_or_default(policy)
    findings: list[Finding] = []
    with resolved_once(plan, catalog):
        for registered in registry.RULE_FUNCTIONS:
            findings += _run(registered.family, registered.function, plan, catalog, pol)
    # The plan's waivers, here so that the app and `check` honour them identically.
    from procurement.waivers import apply_waivers

    findings = apply_waivers(plan, findings)
    findings.sort(key=lambda f: (SEVERITY_ORDER[f.severity], f.step, f.rule))
    return [f.shown(lang) for f in findings] if lang != "zh" else findings


def has_errors(findings: list[Finding]) -> bool:
    """An error that is not waived."""
    return any(f.severity == Severity.ERROR and f.waived is None for f in findings)


register(
    {
        "rules.internal": "Rule {rule} could not check this plan ({error}); please report this.",
    }
)

__all__ = ["evaluate", "evaluate_family", "has_errors", "policy_or_default"]

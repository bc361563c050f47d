"""The rules: pure functions (plan, catalog, policy) -> findings, one module per family."""

from __future__ import annotations

from catalog.loader import Catalog
from procurement.findings import SEVERITY_ORDER, Finding
from procurement.messages import Lang
from procurement.plan import Plan
from procurement.policy import Policy, default_policy


def evaluate(plan: Plan, catalog: Catalog, policy: Policy | None = None, lang: Lang = "zh") -> list[Finding]:
    """All findings for ``plan``, sorted by severity, then step, then rule id."""
    policy = policy or default_policy()
    findings: list[Finding] = []
    findings.sort(key=lambda f: (SEVERITY_ORDER[f.severity], f.step, f.rule))
    return findings

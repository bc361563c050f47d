"""Shared helpers for the rule families: the plan's parts looked up once, and a Finding builder."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from catalog import units
from catalog.models import version_or_none
from procurement import findings as _findings

# re-exported for the rule modules: procurement.budgets.parts is their home
from procurement.budgets.parts import NicUse as NicUse
from procurement.budgets.parts import Parts as Parts
from procurement.budgets.parts import StorageUse as StorageUse
from procurement.budgets.parts import resolve as resolve
from procurement.budgets.parts import resolved_once as resolved_once
from procurement.coded import Coded, coded
from procurement.coded import names as coded_names
from procurement.findings import Finding, Severity
from procurement.messages import MESSAGES
from procurement.plan import Plan, Workload
from procurement.rules.registry import RULES_BY_ID
from procurement.rules.registry import Rule as Rule

GIB_TO_GB = units.GIB_TO_GB
"""GPU memory is binary (80 GiB HBM); the estimates are decimal GB like the reference formula."""

TRAINING_WORKLOADS = (Workload.TRAINING, Workload.FINE_TUNING)


version = version_or_none
"""A version tuple, or None where the text is missing or not a version (catalog.models.version_or_none)."""


def major_minor(text: str | None) -> tuple[int, int] | None:
    v = version(text)
    if v is None:
        return None
    return (v[0], v[1] if len(v) > 1 else 0)


def make(rule: str, severity: Severity, fields: Iterable[str], *, variant: Any = None, **kw: Any) -> Finding:
    """A Finding of ``rule``: ``make(rule, severity, fields, **message_fields)``.

    The family and the step come from the rule's declaration (``@rule``, procurement.rules.registry), so a
    rule id leads to one step. The message and fix are the codes '<RULE>.message' / '<RULE>.fix' (with a
    ``variant`` (str | None; Any: callers spread a **dict of fields), '<RULE>.message.<variant>' and
    '<RULE>.fix.<variant>', each where one is registered) with the fields as parameters: plain values (numbers,
    names, versions) or coded ones (procurement.coded: names(), a message code), rendered when shown."""
    spec = RULES_BY_ID.get(rule)
    if spec is None:
        raise KeyError(f"rule {rule} is not declared with @rule")
    msg_key = f"{rule}.message.{variant}" if variant and f"{rule}.message.{variant}" in MESSAGES else f"{rule}.message"
    fix_key = f"{rule}.fix.{variant}" if variant and f"{rule}.fix.{variant}" in MESSAGES else f"{rule}.fix"
    return Finding(
        rule=rule,
        family=spec.family,
        severity=severity,
        step=spec.step,
        fields=tuple(fields),
        coded_message=coded(msg_key, **kw),
        coded_fix=coded(fix_key, **kw) if fix_key in MESSAGES else None,
    )


# the home of these is procurement.findings (a finding derives its parameters when a waiver asks)
PROSE_PARAMS = _findings.PROSE_PARAMS
PARAMS_LANG = _findings.PARAMS_LANG
finding_params = _findings.finding_params


def server_empty(plan: Plan) -> bool:
    """True while nothing of the server section is chosen yet (a GPU-first plan): rules then say 'not chosen
    yet' at info level instead of reporting unset parts as zero."""
    s = plan.server
    return (s.chassis is None and s.cpu is None and s.memory is None and not s.storage and not s.nics
            and s.psu.part is None)


def join_names(names: Iterable[str]) -> Coded:
    """Part names as a list shown in the reader's language (Chinese text separates them with 、), each name once."""
    return coded_names(names)


def fmt_w(watts: float) -> str:
    return f"{watts:,.0f}"

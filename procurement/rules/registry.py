"""The rule registry: every rule id declared once, with its family, step, checklist item and documentation.

Each rule function is decorated where it is defined::

    @rule(FAMILY, "POWER-PSU-CAPACITY", "POWER-PSU-HEADROOM", step=3, item="psu_power")
    def psu_capacity(plan, catalog, policy, lang) -> list[Finding]: ...

``step`` is the purchase step the finding points at, ``item`` the checklist item it bears on (None: it
stands on its own, like the budget), or ``item_by_field`` when the item follows the field the finding
names first. ``doc`` is where docs/rules.md describes it (default: the family's section). A test checks
the registry against docs/rules.md, the checklist's items and the findings the rules really produce.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TypeVar

from procurement.findings import Family, Finding

F = TypeVar("F", bound=Callable[..., list[Finding]])


@dataclass(frozen=True)
class RuleSpec:
    id: str
    family: Family
    step: int
    item: str | None
    function: str
    """module.function that reports it."""
    doc: str
    item_by_field: Mapping[str, str] = field(default_factory=dict)

    def items(self, finding: Finding) -> set[str]:
        """The checklist item(s) ``finding`` (one of this rule's) bears on."""
        if self.item_by_field:
            for path in finding.fields:
                if path in self.item_by_field:
                    return {self.item_by_field[path]}
            return set()
        return {self.item} if self.item else set()


RULES_BY_ID: dict[str, RuleSpec] = {}


def doc_anchor(family: str) -> str:
    return f"docs/rules.md#{family}"


def rule(
    family: Family,
    *ids: str,
    step: int,
    item: str | None = None,
    item_by_field: Mapping[str, str] | None = None,
    doc: str | None = None,
) -> Callable[[F], F]:
    """Declare the rule ids ``function`` reports (decorator)."""

    def register(function: F) -> F:
        for rule_id in ids:
            if rule_id in RULES_BY_ID:
                raise ValueError(f"rule {rule_id} declared twice")
            RULES_BY_ID[rule_id] = RuleSpec(
                id=rule_id, family=family, step=step, item=item,
                function=f"{function.__module__}.{function.__name__}", doc=doc or doc_anchor(family),
                item_by_field=dict(item_by_field or {}),
            )
        return function

    return register


def items_for_finding(finding: Finding) -> set[str]:
    """The checklist item(s) a finding bears on, from its rule's declaration.

    A rule that could not run (``<FAMILY>-INTERNAL``) bears on the item every rule of its family shares, if
    they share one.
    """
    spec = RULES_BY_ID.get(finding.rule)
    if spec is not None:
        return spec.items(finding)
    family_items = {s.item for s in RULES_BY_ID.values() if s.family == finding.family and not s.item_by_field}
    only = next(iter(family_items)) if len(family_items) == 1 else None
    return {only} if only else set()

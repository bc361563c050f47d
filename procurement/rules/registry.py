"""The rule registry: every rule id declared once, with its family, step, checklist item and documentation.

Each rule function is decorated where it is defined::

    @rule(FAMILY, "POWER-PSU-CAPACITY", "POWER-PSU-HEADROOM", step=3, item="psu_power")
    def psu_capacity(plan, catalog, policy) -> list[Finding]: ...

That is the whole declaration: the decorator registers the function itself (``RULE_FUNCTIONS``, in the order the
family modules define them), and evaluation runs what is registered. A family's step (for its
``<FAMILY>-INTERNAL`` finding, when one of its rules fails) is the step most of its rule ids point at.
``step`` is the purchase step the finding points at, ``item`` the checklist item it bears on (None: it
stands on its own, like the budget), or ``item_by_field`` when the item follows the field the finding
names first. ``doc`` is where docs/rules.md describes it (default: the family's section). A test checks
the registry against docs/rules.md, the checklist's items and the findings the rules really produce.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeVar

from procurement.findings import Family, Finding

if TYPE_CHECKING:
    from catalog.loader import Catalog
    from procurement.plan import Plan
    from procurement.policy import Policy

Rule = Callable[["Plan", "Catalog", "Policy"], list[Finding]]
"""A rule: a pure function of plan, catalog and policy returning its findings (coded: no language)."""
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


@dataclass(frozen=True)
class RuleFunction:
    """One registered rule function and the family it belongs to."""

    family: Family
    function: Rule
    ids: tuple[str, ...]


RULE_FUNCTIONS: list[RuleFunction] = []
"""Every rule function once, in registration order (family modules in import order, functions as defined)."""


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
    """Declare the rule ids ``function`` reports and register the function (decorator): its one declaration."""

    def register(function: F) -> F:
        for rule_id in ids:
            if rule_id in RULES_BY_ID:
                raise ValueError(f"rule {rule_id} declared twice")
            RULES_BY_ID[rule_id] = RuleSpec(
                id=rule_id, family=family, step=step, item=item,
                function=f"{function.__module__}.{function.__name__}", doc=doc or doc_anchor(family),
                item_by_field=dict(item_by_field or {}),
            )
        # two @rule on one function (ids with different steps) register it once, with all its ids
        for i, known in enumerate(RULE_FUNCTIONS):
            if known.function is function:
                RULE_FUNCTIONS[i] = RuleFunction(family, function, (*ids, *known.ids))
                break
        else:
            RULE_FUNCTIONS.append(RuleFunction(family, function, ids))
        return function

    return register


def families() -> list[Family]:
    """The rule families, in registration order."""
    return list(dict.fromkeys(r.family for r in RULE_FUNCTIONS))


def rules_of(family: str) -> list[Rule]:
    """The rule functions of ``family``, in registration order."""
    return [r.function for r in RULE_FUNCTIONS if r.family == family]


def family_step(family: str) -> int:
    """The step a family's findings point at when none of its rules says (``<FAMILY>-INTERNAL``): the step most
    of its rule ids point at (the first such step among ties)."""
    steps = Counter(s.step for s in RULES_BY_ID.values() if s.family == family)
    return steps.most_common(1)[0][0]


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

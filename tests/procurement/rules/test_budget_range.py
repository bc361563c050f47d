"""The budget range (format 12): over the maximum is BUDGET-OVER as before, under the minimum BUDGET-UNDER (info,
only of a complete total), a minimum above the maximum BUDGET-RANGE; the figures are the one bill's."""

from __future__ import annotations

from pathlib import Path

import pytest

from catalog.loader import Catalog, load_catalog
from procurement.budgets.cost import plan_cost
from procurement.plan import Plan, load_plan, with_value
from procurement.policy import default_policy
from procurement.rules import evaluate

EXAMPLES = Path(__file__).resolve().parents[3] / "resources" / "examples"
POLICY = default_policy()


@pytest.fixture(scope="module")
def priced() -> Catalog:
    """The catalog with a price (¥1,000 before VAT) on every part that has none, so every total is complete."""
    cat = load_catalog()
    for by_id in cat.parts.values():
        for pid, part in list(by_id.items()):
            if part.price_cny is None:
                by_id[pid] = part.model_copy(update={"price_cny": 1000.0, "price_includes_vat": False})
    return cat


def _plan(cat: Catalog, low: float | None, high: float | None) -> Plan:
    plan = load_plan(EXAMPLES / "personal-research.gpuplan.yaml", cat)
    plan = with_value(plan, "requirements.budget_cny", high)
    return with_value(plan, "requirements.budget_min_cny", low)


def _rules(plan: Plan, cat: Catalog, lang: str = "en") -> dict[str, object]:
    return {f.rule: f for f in evaluate(plan, cat, POLICY, lang)  # type: ignore[arg-type]
            if f.rule.startswith("BUDGET-") and f.rule != "BUDGET-PRICE-AGE"}


def test_under_the_minimum_is_info_with_the_numbers(priced: Catalog) -> None:
    total = plan_cost(_plan(priced, None, None), priced).verdict(POLICY).gross_cny
    assert total > 0
    low, high = round(total) + 10_000, round(total) + 50_000
    rules = _rules(_plan(priced, low, high), priced)
    under = rules["BUDGET-UNDER"]
    assert under.severity.value == "info"  # type: ignore[attr-defined]
    assert f"¥{low:,.0f}" in under.message and f"¥{high:,.0f}" in under.message  # type: ignore[attr-defined]
    assert "¥10,000 under" in under.message  # type: ignore[attr-defined]
    assert not {"BUDGET-OVER", "BUDGET-RANGE"} & set(rules)
    zh = _rules(_plan(priced, low, high), priced, "zh")["BUDGET-UNDER"]
    assert "预算还可以买更多" in zh.message  # type: ignore[attr-defined]
    assert under.fields[0] == "requirements.budget_min_cny"  # type: ignore[attr-defined]


def test_a_minimum_without_a_maximum_is_judged_too(priced: Catalog) -> None:
    total = plan_cost(_plan(priced, None, None), priced).verdict(POLICY).gross_cny
    rules = _rules(_plan(priced, round(total) + 1_000, None), priced)
    assert "minimum of" in rules["BUDGET-UNDER"].message  # type: ignore[attr-defined]


def test_inside_the_range_says_nothing_and_over_the_maximum_is_over(priced: Catalog) -> None:
    total = round(plan_cost(_plan(priced, None, None), priced).verdict(POLICY).gross_cny)
    assert not _rules(_plan(priced, total - 1_000, total + 1_000), priced)
    assert not _rules(_plan(priced, total, total), priced)  # the edges are inside
    rules = _rules(_plan(priced, total - 5_000, total - 1_000), priced)
    assert set(rules) == {"BUDGET-OVER"}


def test_an_incomplete_total_under_the_minimum_is_not_under() -> None:
    """A lower bound under the minimum says nothing about the whole: unknown, never 'you could afford more'."""
    cat = load_catalog()
    rules = _rules(_plan(cat, 40_000, 50_000), cat)
    assert "BUDGET-UNDER" not in rules and "BUDGET-UNKNOWN" in rules


def test_a_minimum_above_the_maximum_is_an_error_at_both_fields(priced: Catalog) -> None:
    rules = _rules(_plan(priced, 300_000, 200_000), priced)
    rng = rules["BUDGET-RANGE"]
    assert rng.severity.value == "error"  # type: ignore[attr-defined]
    assert "¥300,000" in rng.message and "¥200,000" in rng.message  # type: ignore[attr-defined]
    assert set(rng.fields) == {"requirements.budget_min_cny", "requirements.budget_cny"}  # type: ignore[attr-defined]
    assert "BUDGET-UNDER" not in rules

"""Step 3's running total (procurement.pricing.running_total) is the quote's total to the fen, a lower bound while a
part is unpriced, and gives no verdict before a part is chosen."""

from __future__ import annotations

from procurement.budgets.cost import bill_of_materials
from procurement.plan import Plan, Requirements, load_plan
from procurement.pricing.running_total import running_total
from procurement.reports import build_quote
from tests.conftest import EXAMPLES


def test_the_example_plans_total_is_the_quotes(catalog, buyer_catalog, policy) -> None:
    for cat in (catalog, buyer_catalog):
        for path in sorted(EXAMPLES.glob("*.gpuplan.yaml")):
            plan = load_plan(path, cat)
            money = running_total(bill_of_materials(plan, cat), policy, "en")
            quote = build_quote(plan, cat, policy, lang="en")
            assert money.total == quote.total, path.name
            assert money.complete == quote.complete and money.unpriced == len(quote.unpriced)
            assert [p.unit for p in money.parts] == [line.unit_price for line in quote.lines]
            assert [p.kind for p in money.parts] == [line.price_kind for line in quote.lines]


def test_nothing_chosen_has_no_verdict(catalog, policy) -> None:
    plan = Plan(requirements=Requirements(budget_cny=50_000))
    money = running_total(bill_of_materials(plan, catalog), policy, "zh")
    assert not money.chosen and money.verdict is None and money.total == 0

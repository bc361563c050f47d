"""The comparison PDF finds each cell's amount by the row's position once per offer, not per cell."""

from __future__ import annotations

from unittest import mock

from procurement.plan import OfferLine, load_plan
from procurement.pricing.compare import OfferRow, compare, with_quote
from procurement.reports import comparison_pdf
from tests.conftest import EXAMPLES
from tests.procurement.pricing.test_compare_vendors import offer


def _comparisons_per_cell(catalog, extra_lines: int) -> float:
    plan = load_plan(EXAMPLES / "mid-size-training.gpuplan.yaml", catalog)
    quote = offer(plan, catalog, "Many", 100)
    quote = quote.model_copy(update={"lines": [*quote.lines, *(
        OfferLine(text=f"线缆 {i}", quantity=1, unit_price_cny=10.0 + i, with_vat=True) for i in range(extra_lines))]})
    result = next(o for o in compare(with_quote(plan, quote), catalog, lang="en").offers if o.vendor == "Many")
    assert result.money is not None and len(result.rows) > extra_lines
    calls = 0
    original = OfferRow.__eq__

    def counting(self, other):  # type: ignore[no-untyped-def]
        nonlocal calls
        calls += 1
        return original(self, other)

    with mock.patch.object(OfferRow, "__eq__", counting):
        amounts = [comparison_pdf._amount(result, row) for row in result.rows]
    # each row's amount is the one the offer's sum added up, in order
    assert [a for a, _ in amounts] == list(result.money.amounts)
    return calls / len(result.rows)


def test_a_long_offer_is_not_compared_row_by_row_for_every_cell(catalog) -> None:
    # rows.index per cell compared each row with every row before it: ~n/2 comparisons a cell (quadratic)
    assert _comparisons_per_cell(catalog, 400) < 2

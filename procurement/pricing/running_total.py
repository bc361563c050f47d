"""Step 3's money while configuring: each chosen part's unit price with where it comes from, and the running
total, from the one bill of materials and its one addition (budgets/cost.py), so that the figure is the quote's
total to the fen; a lower bound, and said to be one, while a part is unpriced."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from procurement.budgets.cost import CATEGORY_ORDER, BudgetVerdict, CostBreakdown
from procurement.messages import Lang
from procurement.policy import Policy
from procurement.pricing.provenance import price_kind_text


@dataclass(frozen=True)
class PricedPart:
    """One line of the bill of materials as step 3 shows it."""

    path: str
    name: str
    qty: float
    """For the whole purchase (per server × servers), as the quote counts it."""
    unit: Decimal | None
    """Unit price on the total's basis (VAT-inclusive when the quote's is), to the fen; None: unpriced."""
    amount: Decimal | None
    kind: str | None
    """Where the price comes from, in the reader's language (None: a bare catalog reference, or unpriced)."""
    date: dt.date | None
    source: str | None


@dataclass(frozen=True)
class RunningTotal:
    parts: tuple[PricedPart, ...]
    total: Decimal
    """The quote's 价税合计 (VAT-inclusive) of the priced lines: the total when ``complete``, else a lower bound."""
    basis: str
    """'gross' (unit prices include VAT) or 'net', as the quote's."""
    complete: bool
    unpriced: int
    verdict: BudgetVerdict | None
    """Against the budget; None while no part is chosen (no cost verdict before there is a cost)."""

    @property
    def chosen(self) -> bool:
        return bool(self.parts)


def running_total(cost: CostBreakdown, policy: Policy, lang: Lang) -> RunningTotal:
    """The bill of materials ``cost`` (the evaluation's) as step 3's running total."""
    money = cost.money(policy)
    parts = [
        PricedPart(line.path, line.name, line.quantity(cost.nodes), unit, amount,
                   price_kind_text(line.price_kind, line.includes_vat, lang) if line.unit_cny is not None else None,
                   line.price_date if line.unit_cny is not None else None, line.price_source)
        for line, unit, amount in zip(cost.lines, money.units, money.amounts, strict=True)
    ]
    order = [CATEGORY_ORDER.index(line.category) if line.category in CATEGORY_ORDER else len(CATEGORY_ORDER)
             for line in cost.lines]
    parts = [p for _, p in sorted(zip(order, parts, strict=True), key=lambda pair: pair[0])]  # the quote's order
    return RunningTotal(tuple(parts), money.gross, money.basis, cost.complete, len(cost.unpriced),
                        cost.verdict(policy) if cost.lines else None)

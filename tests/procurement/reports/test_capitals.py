"""大写金额: the accounting-practice rules for capital numerals (procurement/reports/capitals.py)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from procurement.reports.capitals import capital_amount


@pytest.mark.parametrize(
    ("amount", "text"),
    [
        ("553225.38", "伍拾伍万叁仟贰佰贰拾伍元叁角捌分"),  # the example
        ("10005", "壹万零伍元整"),  # one 零 for the zeros between 万 and 伍
        ("1005", "壹仟零伍元整"),
        ("1010", "壹仟零壹拾元整"),
        ("100010", "壹拾万零壹拾元整"),
        ("1000001", "壹佰万零壹元整"),
        ("101000", "壹拾万壹仟元整"),  # no 零 where the thousands digit is non-zero
        ("110000", "壹拾壹万元整"),
        ("100000000", "壹亿元整"),
        ("1000.05", "壹仟元零伍分"),  # no jiao but fen: 零 in its place, no 整
        ("1.50", "壹元伍角整"),
        ("0.05", "伍分"),
        ("0", "零元整"),
        ("12999", "壹万贰仟玖佰玖拾玖元整"),
    ],
)
def test_capital_numerals_follow_the_rules(amount: str, text: str) -> None:
    assert capital_amount(Decimal(amount)) == text


def test_fen_are_rounded_half_up_and_negative_amounts_say_so() -> None:
    assert capital_amount(Decimal("0.005")) == "壹分"
    assert capital_amount(Decimal("-10")) == "负壹拾元整"

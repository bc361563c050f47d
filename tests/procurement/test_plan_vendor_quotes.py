"""Plan format v7: vendors' quotes and the chosen offer are stored in the plan, and v6 files still open."""

from __future__ import annotations

from pathlib import Path

import pytest

from catalog.loader import Catalog, load_catalog
from procurement.plan import OfferLine, Plan, PlanError, VendorQuote, dump_plan, load_plan, parse_plan

PLANS = Path(__file__).parent / "data" / "plans"


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog()


def test_a_v6_plan_opens_with_no_vendor_quotes(catalog: Catalog) -> None:
    plan = load_plan(PLANS / "v6.gpuplan.yaml", catalog)
    assert plan.vendor_quotes == [] and plan.chosen_vendor is None


def test_vendor_quotes_and_their_extra_lines_survive_save_and_load(catalog: Catalog) -> None:
    plan = load_plan(PLANS / "v7.gpuplan.yaml", catalog)
    acme = plan.vendor_quotes[0]
    assert plan.chosen_vendor == acme.vendor == "ACME 科技有限公司"
    assert acme.delivery == "合同签订后 4 周" and acme.payment_terms.startswith("验收后")
    extra = [line for line in acme.lines if line.for_part is None]
    assert [(x.text, x.unit_price_cny) for x in extra] == [("上门安装调试", 3000.0)]
    assert any(line.substitute_unknown for line in acme.lines)
    again = parse_plan(dump_plan(plan), "<again>", catalog)
    assert again == plan


def test_each_vendor_is_listed_once_and_the_chosen_one_exists() -> None:
    quote = VendorQuote(vendor="A", lines=[OfferLine(text="x", unit_price_cny=1)])
    with pytest.raises(ValueError, match="once"):
        Plan(vendor_quotes=[quote, quote])
    with pytest.raises(ValueError, match="not one of"):
        Plan(vendor_quotes=[quote], chosen_vendor="B")


def test_a_chosen_vendor_that_is_not_quoted_is_refused_on_load() -> None:
    text = dump_plan(Plan()).replace("chosen_vendor: null", "chosen_vendor: Nobody")
    with pytest.raises(PlanError, match="chosen_vendor"):
        parse_plan(text)

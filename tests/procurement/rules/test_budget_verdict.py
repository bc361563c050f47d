"""The budget verdict is tri-state: within only when every line is priced; unknown is never 'within budget'."""

from __future__ import annotations

from pathlib import Path

from catalog.loader import Catalog, load_catalog
from procurement.budgets.cost import plan_cost
from procurement.plan import Plan, load_plan, with_value
from procurement.policy import default_policy
from procurement.rules import evaluate
from procurement.sizing.cloud import cloud_or_own

EXAMPLES = Path(__file__).resolve().parents[3] / "resources" / "examples"
POLICY = default_policy()


def _research(cat: Catalog, budget: float) -> Plan:
    plan = load_plan(EXAMPLES / "personal-research.gpuplan.yaml", cat)
    return with_value(plan, "requirements.budget_cny", budget)


def test_a_budget_with_unpriced_parts_is_unknown_not_within() -> None:
    """The buyer's story: ¥50,000, RTX 4090 priced, the rest on request — never 'within budget'."""
    cat = load_catalog()
    plan = _research(cat, 50_000)
    cost = plan_cost(plan, cat)
    v = cost.verdict(POLICY)
    assert cost.unpriced and v.status == "unknown" and not v.complete
    # the 4090's ¥12,999 is a China retail price that includes VAT: the lower bound is not taxed again
    assert v.gross_cny == 12_999
    rules = {f.rule: f for f in evaluate(plan, cat, POLICY, "en")}
    assert "BUDGET-OVER" not in rules
    unknown = rules["BUDGET-UNKNOWN"]
    assert unknown.severity.value == "warning" and "unknown" in unknown.message and "lower bound" in unknown.message
    assert "¥12,999" in unknown.message and "¥50,000" in unknown.message
    zh = {f.rule: f for f in evaluate(plan, cat, POLICY, "zh")}
    assert "是否在预算内未知" in zh["BUDGET-UNKNOWN"].message
    advice = " ".join(cloud_or_own(plan, cat, "en", POLICY).reasons)
    assert "within the" not in advice and "unknown" in advice
    assert v.as_json()["priced_lower_bound_incl_vat_cny"] == 12_999


def test_the_priced_lower_bound_alone_over_the_budget_is_over() -> None:
    cat = load_catalog()
    plan = _research(cat, 10_000)
    v = plan_cost(plan, cat).verdict(POLICY)
    assert v.status == "over" and not v.complete
    over = next(f for f in evaluate(plan, cat, POLICY, "en") if f.rule == "BUDGET-OVER")
    assert over.severity.value == "error" and "alone" in over.message and "at least ¥2,999" in over.message


def test_within_only_when_every_line_is_priced(tmp_path: Path) -> None:
    cat = load_catalog()
    plan = _research(cat, 200_000)
    for by_id in cat.parts.values():
        for pid, part in list(by_id.items()):
            if part.price_cny is None:
                by_id[pid] = part.model_copy(update={"price_cny": 1000.0, "price_includes_vat": False})
    cost = plan_cost(plan, cat)
    v = cost.verdict(POLICY)
    assert v.complete and v.status == "within"
    # each line VAT-inclusive: the 4090 as priced (incl. VAT), the others × 1.13
    others = sum(line.total_cny for line in cost.lines if line.part_id != "rtx-4090")
    assert abs(v.gross_cny - (12_999 + others * 1.13)) < 0.01
    rules = {f.rule for f in evaluate(plan, cat, POLICY, "en")}
    assert not rules & {"BUDGET-OVER", "BUDGET-UNKNOWN", "BUDGET-UNPRICED"}
    advice = " ".join(cloud_or_own(plan, cat, "en", POLICY).reasons)
    assert "is within the" in advice


def test_prices_entered_in_the_plan_are_used_and_kept_with_it(tmp_path: Path) -> None:
    """A vendor's prices typed in for every unpriced line: the verdict becomes known, the quote totals them,
    and the plan file carries them (reopened a year later it shows the same money)."""
    import datetime as dt

    from procurement.plan import EnteredPrice, save_plan
    from procurement.reports import build_quote

    cat = load_catalog()
    plan = _research(cat, 50_000)
    entered = {line.part_id: EnteredPrice(price_cny=1130.0, with_vat=True, kind="vendor_quote",
                                          date=dt.date(2026, 11, 20), source="ACME Q-118")
               for line in plan_cost(plan, cat).unpriced}
    plan = plan.model_copy(update={"prices": entered})
    cost = plan_cost(plan, cat)
    v = cost.verdict(POLICY)
    assert v.complete and v.status == "within"
    count = sum(line.count for line in cost.lines if line.part_id in entered)
    assert abs(v.gross_cny - (12_999 + 1130 * count)) < 0.01
    q = build_quote(plan, cat, POLICY, lang="en")
    assert q.complete and q.total == round(v.gross_cny, 2)
    line = next(x for x in q.lines if x.part_id in entered)
    assert line.price_kind == "vendor quote" and line.price_source == "ACME Q-118" and line.includes_vat
    path = tmp_path / "p.gpuplan"
    save_plan(plan, path)
    again = load_plan(path, cat)
    assert again.prices == plan.prices and plan_cost(again, cat).verdict(POLICY).status == "within"


def test_with_no_price_at_all_the_verdict_says_so_instead_of_a_lower_bound_of_zero() -> None:
    cat = load_catalog()
    plan = load_plan(EXAMPLES / "mid-size-training.gpuplan.yaml", cat)  # A100s and a platform: no public price
    plan = with_value(plan, "requirements.budget_cny", 400_000)
    v = plan_cost(plan, cat).verdict(POLICY)
    assert v.status == "unknown" and v.gross_cny == 0
    f = next(f for f in evaluate(plan, cat, POLICY, "zh") if f.rule == "BUDGET-UNKNOWN")
    assert "没有一项部件有价格" in f.message and "¥0" not in f.message


def test_a_price_older_than_the_policy_age_is_flagged_and_a_fresh_one_is_not() -> None:
    """The RTX 4090's reference price dates from 2023-12-28: past 180 days it is a warning naming the date; a
    price the buyer entered today is not; the age is the policy's to set."""
    import datetime as dt

    from procurement.plan import EnteredPrice

    cat = load_catalog()
    plan = _research(cat, 50_000)
    age = next(f for f in evaluate(plan, cat, POLICY, "en") if f.rule == "BUDGET-PRICE-AGE")
    assert age.severity.value == "warning" and "2023-12-28" in age.message and "RTX 4090" in age.message
    fresh = plan.model_copy(update={"prices": {"rtx-4090": EnteredPrice(price_cny=12_999, with_vat=True,
                                                                        date=dt.date.today())}})
    assert not [f for f in evaluate(fresh, cat, POLICY, "en") if f.rule == "BUDGET-PRICE-AGE"]
    lenient = POLICY.model_copy(update={"price_max_age_days": 36_500})
    assert not [f for f in evaluate(plan, cat, lenient, "en") if f.rule == "BUDGET-PRICE-AGE"]

"""Total cost of ownership: the arithmetic, unknown inputs as lower bounds, the evaluation and check --json."""

from __future__ import annotations

import io
import json
from argparse import Namespace
from pathlib import Path

import pytest

from catalog.loader import Catalog
from procurement.budgets.tco import HOURS_PER_YEAR, Tco, plan_tco
from procurement.evaluation import evaluate
from procurement.plan import Plan, TcoInputs, load_plan, save_plan, with_value
from procurement.policy import default_policy

EXAMPLES = Path(__file__).resolve().parents[3] / "resources" / "examples"
POLICY = default_policy()


def _tco(**kw: object) -> Tco:
    base: dict[str, object] = dict(purchase_cny=100_000.0, purchase_complete=True, wall_w=1000.0,
                                   wall_complete=True, servers=2, gpus=8, kwh_price=0.8, pue=1.5,
                                   utilisation_pct=50.0, life_years=5.0, cloud_gpu_hour_cny=None)
    base.update(kw)
    return Tco(**base)  # type: ignore[arg-type]


def test_electricity_over_the_life_by_hand() -> None:
    t = _tco()
    # 1 000 W × 2 servers × PUE 1.5 × 50 % × 8 760 h = 13 140 kWh a year
    assert t.kwh_per_year == pytest.approx(13_140)
    assert t.electricity_cny == pytest.approx(13_140 * 0.8 * 5)  # ¥52,560
    assert t.own_cny == pytest.approx(152_560) and t.complete and t.missing == ()
    assert HOURS_PER_YEAR == 365 * 24


def test_cloud_rent_uses_the_same_hours() -> None:
    t = _tco(cloud_gpu_hour_cny=10.0)
    assert t.cloud_cny == pytest.approx(8 * 10 * 0.5 * 8760 * 5)  # ¥1,752,000


@pytest.mark.parametrize("field,term", [("kwh_price", "kwh_price"), ("pue", "pue"),
                                        ("utilisation_pct", "utilisation"), ("life_years", "life")])
def test_an_unknown_input_leaves_a_lower_bound_not_a_total(field: str, term: str) -> None:
    t = _tco(**{field: None})
    assert t.electricity_cny is None and not t.complete and term in t.missing
    assert t.own_cny == 100_000, "the known terms only: a lower bound"
    assert t.as_dict()["own_is_lower_bound"] is True


def test_unpriced_parts_or_unknown_power_make_it_a_lower_bound() -> None:
    assert "purchase_partial" in _tco(purchase_complete=False).missing
    assert "power_partial" in _tco(wall_complete=False).missing
    assert "power" in _tco(wall_w=None).missing and _tco(wall_w=None).electricity_cny is None


def _research(cat: Catalog) -> Plan:
    return load_plan(EXAMPLES / "personal-research.gpuplan.yaml", cat)


def test_the_plan_tco_uses_the_facility_wall_power(catalog: Catalog) -> None:
    plan = _research(catalog)
    plan = with_value(plan, "tco", TcoInputs(electricity_cny_per_kwh=0.7, pue=1.3, service_life_years=4))
    plan = with_value(plan, "requirements.utilisation_pct", 80)
    ev = evaluate(plan, catalog, POLICY, "en")
    t = ev.budgets.tco
    assert t is not None and ev.budgets.power is not None
    assert t.wall_w == pytest.approx(ev.budgets.power.ac_w)  # the facility model's wall power, not the DC draw
    assert t.wall_w > ev.budgets.power.draw_w
    expected = ev.budgets.power.ac_w * 1.3 * 0.8 * 8760 / 1000 * 0.7 * 4
    assert t.electricity_cny == pytest.approx(expected)
    assert t == plan_tco(plan, catalog, POLICY)
    # the research example has unpriced parts: the own cost is a lower bound whatever the inputs
    assert not t.complete and t.missing == ("purchase_partial",)


def test_a_blank_tco_says_every_input_is_missing(catalog: Catalog) -> None:
    t = evaluate(_research(catalog), catalog, POLICY, "en").budgets.tco
    assert t is not None and t.electricity_cny is None
    assert {"kwh_price", "pue", "utilisation", "life"} <= set(t.missing)


def test_check_json_carries_the_tco_record(catalog: Catalog, tmp_path: Path) -> None:
    from procurement.commands.check import run_check

    plan = with_value(_research(catalog), "tco", TcoInputs(electricity_cny_per_kwh=0.7, pue=1.3,
                                                           service_life_years=4))
    plan = with_value(plan, "requirements.utilisation_pct", 80)
    path = tmp_path / "p.gpuplan"
    save_plan(plan, path)
    out, err = io.StringIO(), io.StringIO()
    run_check(Namespace(plan=path, json=True, lang="en", policy=None), catalog, out, err)
    records = {r["rule"]: r for r in json.loads(out.getvalue())}
    rec = records["TCO-ESTIMATE"]
    assert rec["severity"] == "info"
    fig = rec["figures"]
    assert fig["electricity_cny"] == pytest.approx(evaluate(plan, catalog, POLICY).budgets.tco.electricity_cny,
                                                   abs=0.01)
    assert fig["own_is_lower_bound"] is True and fig["missing"] == ["purchase_partial"]
    assert "Cost of ownership over 4 years: at least ¥" in rec["message"] and "a lower bound" in rec["message"]


def _costed(cat: Catalog, rent: float) -> Plan:
    plan = _research(cat)
    plan = with_value(plan, "tco", TcoInputs(electricity_cny_per_kwh=0.7, pue=1.3, service_life_years=4,
                                             cloud_cny_per_gpu_hour=rent))
    return with_value(plan, "requirements.utilisation_pct", 80)


def test_cloud_advice_compares_rent_with_the_same_figures(buyer_catalog: Catalog) -> None:
    from procurement.sizing.cloud import cloud_or_own

    cheap_rent = _costed(buyer_catalog, 0.5)
    t = plan_tco(cheap_rent, buyer_catalog, POLICY)
    assert t.complete and t.cloud_cny is not None and t.cloud_cny < t.own_cny
    advice = cloud_or_own(cheap_rent, buyer_catalog, "en", POLICY)
    line = next(r for r in advice.reasons if "renting 1 GPU in the cloud" in r)
    assert f"¥{round(t.cloud_cny):,}" in line and f"¥{round(t.own_cny):,}" in line
    dear = cloud_or_own(_costed(buyer_catalog, 100.0), buyer_catalog, "en", POLICY)
    assert any("owning (" in r and "costs less than renting" in r for r in dear.reasons)
    assert dear.own_points > advice.own_points


def test_cloud_advice_never_compares_a_lower_bound_as_a_total(catalog: Catalog) -> None:
    from procurement.sizing.cloud import cloud_or_own

    dear_rent = _costed(catalog, 100.0)  # the research example's parts are mostly unpriced
    assert not plan_tco(dear_rent, catalog, POLICY).complete
    reasons = " ".join(cloud_or_own(dear_rent, catalog, "en", POLICY).reasons)
    assert "is unknown" in reasons and "lower bound" in reasons and "costs less than" not in reasons
    assert "Enter a cloud GPU-hour price" in " ".join(
        cloud_or_own(_costed(catalog, 1.0).model_copy(update={"tco": TcoInputs(service_life_years=4)}),
                     catalog, "en", POLICY).reasons)


def test_the_described_tco_shows_the_rent_beside_it(buyer_catalog: Catalog) -> None:
    from procurement.budgets.tco import describe_tco

    t = plan_tco(_costed(buyer_catalog, 2.5), buyer_catalog, POLICY)
    lines = describe_tco(t, "en")
    assert lines[-1] == f"Cost of ownership over 4 years: ¥{round(t.own_cny):,}"
    assert f"renting 1 GPU in the cloud for the same 4 years at 80% is about ¥{round(t.cloud_cny or 0):,}" in lines[-2]


def test_no_budget_verdict_before_a_part_is_chosen(catalog) -> None:
    """Step 1 said "配置含税参考价 0.0 万元在预算内" for an empty plan with a budget: nothing is priced yet."""
    from procurement.plan import Plan, with_value
    from procurement.sizing.cloud import cloud_or_own

    plan = with_value(Plan(), "requirements.budget_cny", 200_000)
    for lang in ("zh", "en"):
        text = " ".join(cloud_or_own(plan, catalog, lang).reasons)
        assert "within the" not in text and "在预算" not in text and "0.0 万元" not in text, text


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_printed_terms_add_up_to_the_printed_sum(lang: str) -> None:
    # purchase ¥34,161.16 and electricity ¥33,276.42 were printed ¥34,161 + ¥33,276 = ¥67,438, each figure
    # rounded on its own (the exact sum 67,437.58): a procurement officer adding the lines finds ¥67,437
    import re

    from procurement.budgets.tco import describe_tco

    t = _tco(purchase_cny=34_161.16, servers=1, pue=1.0, utilisation_pct=100.0, life_years=1.0,
             kwh_price=33_276.42 / 8_760)
    assert t.electricity_cny == pytest.approx(33_276.42)
    lines = describe_tco(t, lang)  # type: ignore[arg-type]
    shown = [int(m.replace(",", "")) for line in lines for m in re.findall(r"¥([\d,]+)", line)[:1]]
    purchase, electricity, total = shown
    assert (purchase, electricity) == (34_161, 33_276) and total == purchase + electricity == 67_437
    assert t.own_cny == pytest.approx(67_437.58)  # the data keep the exact sum (check --json)

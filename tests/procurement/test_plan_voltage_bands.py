"""Input voltage as the buyer states it: old 'high'/'low' migrate, each PSU is rated for the band."""

from __future__ import annotations

from pathlib import Path

import pytest

from catalog.loader import Catalog, load_catalog
from procurement.plan import load_plan, parse_plan
from procurement.policy import default_policy
from procurement.rules.power import power_budget

PLANS = Path(__file__).parent / "data" / "plans"


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog()


@pytest.mark.parametrize(("old", "new"), [("high", "200-240"), ("low", "100-127")])
def test_version_one_high_and_low_keep_their_meaning(old: str, new: str, catalog: Catalog) -> None:
    text = (PLANS / "v1.gpuplan.yaml").read_text(encoding="utf-8").replace("input_voltage: high",
                                                                          f"input_voltage: {old}")
    assert parse_plan(text, "old.gpuplan.yaml").server.input_voltage == new
    assert load_plan(PLANS / "v2.gpuplan.yaml", catalog).server.input_voltage == "220"


def test_220_written_without_quotes_reads_as_the_band() -> None:
    text = (PLANS / "v2.gpuplan.yaml").read_text(encoding="utf-8").replace("input_voltage: '220'",
                                                                          "input_voltage: 220")
    assert parse_plan(text, "x.gpuplan.yaml").server.input_voltage == "220"


@pytest.mark.parametrize(("band", "unit_w"), [
    ("100-127", 1000.0),   # docs/sources.md §D1: 1000 W at 100-127 V
    ("200-208", 1800.0),   # 1800 W over 200-240 V
    ("200-240", 1800.0),   # the old 'high': any voltage in the range, so the whole-range rating
    ("220", 2000.0),       # 2000 W at 220-240 V: China's 220 V gets it
    ("230", 2000.0),
    ("240", 2000.0),
])
def test_each_band_uses_the_psus_rating_for_it(band: str, unit_w: float, catalog: Catalog) -> None:
    plan = load_plan(PLANS / "v2.gpuplan.yaml", catalog)
    server = plan.server.model_copy(update={
        "input_voltage": band,
        "psu": plan.server.psu.model_copy(update={"part": "supermicro-2000w-titanium", "count": 4}),
    })
    b = power_budget(plan.model_copy(update={"server": server}), catalog, default_policy())
    assert b.psu_unit_w == unit_w


def test_chinese_text_never_calls_mains_high_voltage() -> None:
    # 高压 means above 1 kV in Chinese electrical usage; mains bands are 高线/低线 or "220 V 级"
    import procurement.checklist  # noqa: F401  (registers its texts)
    from gui import i18n_build
    from procurement.messages import texts

    widgets = i18n_build.read_po(i18n_build.po_path("zh", i18n_build.GUI), "zh")
    gui_zh = [s for m in widgets for s in i18n_build.strings(m)]
    assert not [text for text in gui_zh if "高压" in text or "低压" in text]
    assert "220 V 级（中国大陆）" in gui_zh and any("低线 100-127 V" in text for text in gui_zh)
    zh = [text for _, text in texts("zh")]
    assert not [text for text in zh if "高压" in text or "低压" in text]

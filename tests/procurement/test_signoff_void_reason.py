"""The void reason in words: the reader's language only (no 'yes → no', 'pass → rework', 'incl. VAT' inside
Chinese), grouped numbers (no raw '56999.5'), and offer lines compared by what they say, not by position."""

from __future__ import annotations

import datetime as dt
import re

import pytest

from catalog.loader import Catalog
from procurement.checklist import mark
from procurement.plan import AcceptanceInfo, EnteredPrice, OfferLine, Plan, VendorQuote, Waiver, load_plan
from procurement.signoff import current_content, diff_in_words, sign, signoff_status
from tests.conftest import EXAMPLES

DAY = dt.date(2026, 12, 1)
ENGLISH_CODES = re.compile(r"\b(yes|no|pass|fail|rework|incl|excl|VAT|vendor_quote|entered|company|training|"
                           r"inference|continuous|occasional|datacenter|system|data|mixed)\b")


@pytest.fixture(scope="module")
def base(catalog: Catalog) -> Plan:
    return load_plan(EXAMPLES / "mid-size-training.gpuplan.yaml", catalog)


def _void(before: Plan, after: Plan, catalog: Catalog, lang: str, kind: str = "approval") -> list[str]:
    signed = sign(before, kind, "张伟", "", catalog, DAY)  # type: ignore[arg-type]
    changed = after.model_copy(update={"signoffs": signed.signoffs})
    return list(signoff_status(changed, kind, catalog, lang=lang).changes)  # type: ignore[arg-type]


def _offer(*texts: str) -> list[VendorQuote]:
    lines = [OfferLine(text=x, quantity=2, unit_price_cny=56999.5, with_vat=True) for x in texts]
    return [VendorQuote(vendor="ACME", number="Q-1", lines=lines)]


def test_a_tick_says_yes_and_no_in_the_readers_language(base: Plan, catalog: Catalog) -> None:
    ticked = mark(base, "image_trusted", True)
    (zh,) = _void(base, ticked, catalog, "zh")
    assert zh == "检查项“镜像来源可信”勾选：否 → 是"
    (en,) = _void(base, ticked, catalog, "en")
    assert en.endswith(": no → yes")


def test_a_conclusion_is_shown_as_words_not_codes(base: Plan, catalog: Catalog) -> None:
    before = base.model_copy(update={"acceptance": AcceptanceInfo(conclusion="pass")})
    after = base.model_copy(update={"acceptance": AcceptanceInfo(conclusion="rework")})
    zh = _void(before, after, catalog, "zh", "acceptance")
    assert "验收结论：合格 → 整改后复验" in zh
    assert "acceptance conclusion: Accepted → Re-inspect after rework" in _void(before, after, catalog, "en",
                                                                             "acceptance")


def test_a_price_is_grouped_never_a_raw_float(base: Plan, catalog: Catalog) -> None:
    part = base.gpu.model or ""
    priced = base.model_copy(update={"prices": {part: EnteredPrice(price_cny=56999.5, kind="vendor_quote")}})
    zh = "；".join(_void(base, priced, catalog, "zh"))
    assert "56,999.50" in zh and "56999.5" not in zh
    assert "供应商报价" in zh and "vendor_quote" not in zh


def test_offer_lines_are_compared_by_content_not_position(base: Plan, catalog: Catalog) -> None:
    before = base.model_copy(update={"vendor_quotes": _offer("GPU", "chassis", "cables"), "chosen_vendor": "ACME"})
    after = base.model_copy(update={"vendor_quotes": _offer("rails", "GPU", "chassis", "cables"),
                                    "chosen_vendor": "ACME"})
    zh = _void(before, after, catalog, "zh")
    assert len(zh) == 1, zh  # one line added at the top, not four lines changed
    assert zh[0].startswith("所选报价：新增一行：¥56,999.50 含税 ×2 rails")
    en = _void(after, before, catalog, "en")
    assert en == ["chosen offer: line removed: ¥56,999.50 incl. VAT ×2 rails"]


def test_a_repriced_offer_line_is_one_change_at_its_position(base: Plan, catalog: Catalog) -> None:
    before = base.model_copy(update={"vendor_quotes": _offer("GPU", "chassis"), "chosen_vendor": "ACME"})
    quotes = _offer("GPU", "chassis")
    lines = [quotes[0].lines[0], quotes[0].lines[1].model_copy(update={"unit_price_cny": 60000.0})]
    after = base.model_copy(update={"vendor_quotes": [quotes[0].model_copy(update={"lines": lines})],
                                    "chosen_vendor": "ACME"})
    assert _void(before, after, catalog, "zh") == [
        "所选报价第 2 行：¥56,999.50 含税 ×2 chassis → ¥60,000.00 含税 ×2 chassis"]


def test_a_waiver_is_its_reason_who_and_when_not_json(base: Plan, catalog: Catalog) -> None:
    waived = base.model_copy(update={"waivers": [Waiver(rule="POWER-PSU-CAPACITY", reason="厂商书面确认", by="李娜",
                                                        date=DAY)]})
    (zh,) = _void(base, waived, catalog, "zh")
    assert zh == "豁免“POWER-PSU-CAPACITY”：（空） → 厂商书面确认（李娜，2026-12-01）"
    assert "{" not in zh


@pytest.mark.parametrize("example", sorted(p.name for p in EXAMPLES.glob("*.gpuplan.yaml")))
def test_no_english_code_inside_a_chinese_void_reason(example: str, catalog: Catalog) -> None:
    plan = load_plan(EXAMPLES / example, catalog)
    filled = plan.model_copy(update={
        "prices": {plan.gpu.model or "x": EnteredPrice(price_cny=1234.5, with_vat=False, kind="company")},
        "vendor_quotes": _offer("GPU"), "chosen_vendor": "ACME",
        "acceptance": AcceptanceInfo(conclusion="fail", reasons="r", contract_number="C", delivery_date=DAY),
    })
    filled = mark(filled, "image_trusted", True, "n")
    content = {**current_content(filled, "approval", catalog), **current_content(filled, "acceptance", catalog)}
    for line in diff_in_words({}, content, "zh", catalog):
        value = line.split(" → ", 1)[1] if " → " in line else line.split("新增一行：", 1)[1]
        assert not ENGLISH_CODES.search(value), line
        assert not re.search(r"\d{4,}\.\d", value) or "-" in value, line  # no ungrouped 1234.5

"""One bill of materials: the quote, the budget, the comparison and the cost of ownership add up to the same money.

Three vendors' files as buyers receive them (header rows, a 合计 row, '以上报价含税' under the lines, one file with
不含税单价, none quoting the PSUs that ship in the chassis nor the free software) are imported, compared, one is
chosen, and the exported PDFs are read back with pdftotext and every line added up here, independently of the
code that printed it. The vendors' prices are test inputs (made up for the test), not catalog facts.
"""

from __future__ import annotations

import datetime as dt
import re
import shutil
import subprocess
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import pytest

from catalog.loader import Catalog
from procurement.budgets.cost import plan_cost
from procurement.budgets.tco import plan_tco
from procurement.plan import EnteredPrice, Plan, VendorQuote, load_plan, with_value
from procurement.policy import default_policy
from procurement.pricing.compare import choose, compare, propose_lines, quote_from, with_quote
from procurement.pricing.import_prices import import_for_plan, vat_statement
from procurement.reports import build_quote, issue_quote, render_quote_pdf
from procurement.reports.capitals import capital_amount
from procurement.rules import evaluate
from tests.conftest import EXAMPLES

POLICY = default_policy()
DAY = dt.date(2026, 12, 1)
CENT = Decimal("0.01")
BUDGET = 350_000.0
PSU = "supermicro-2000w-titanium"

needs_pdftotext = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="pdftotext (poppler-utils) missing")

# 华东科技: 单价 without a word of VAT in the heading, '以上报价含税' under the lines; no PSU line.
EAST = """报价单号,HD-2026-118,,,,
报价日期,2026-11-20,,,,
序号,品名,型号,数量,单价,金额
1,NVIDIA A100 40GB PCIe,900-21001-0000-000,4,65000.50,260002.00
2,AMD EPYC 7543,100-000000345,2,9800,19600
3,Samsung 32GB DDR4-3200 ECC RDIMM,M393A4K40EB3-CWE,16,1035.40,16566.40
4,Samsung PM9A3 960GB NVMe U.2,MZQL2960HCJR,1,1199,1199
5,Samsung PM9A3 3.84TB NVMe U.2,MZQL23T8HCLS,1,3899,3899
6,Seagate Exos X20 20TB SATA,ST20000NM007D,1,3299,3299
7,NVIDIA ConnectX-6 Lx EN 2x25GbE SFP28,MCX631102AN-ADAT,1,3150,3150
8,Supermicro A+ Server AS-4124GS-TNR,AS-4124GS-TNR,1,52000,52000
9,上门安装调试,,1,2000,2000
合计,,,,,361715.40
以上报价含税,,,,,
"""
# North: 不含税单价, and the note says so too.
NORTH = """序号,品名,型号,数量,不含税单价
1,NVIDIA A100 40GB PCIe,,4,56637.17
2,AMD EPYC 7543,,2,8672.57
3,Samsung 32GB DDR4-3200 ECC RDIMM,M393A4K40EB3-CWE,16,916.81
4,Samsung PM9A3 960GB NVMe U.2,,1,1061.06
5,Samsung PM9A3 3.84TB NVMe U.2,MZQL23T8HCLS,1,3450.44
6,Seagate Exos X20 20TB SATA,ST20000NM007D,1,2919.47
7,NVIDIA ConnectX-6 Lx EN 2x25GbE SFP28,MCX631102AN-ADAT,1,2787.61
8,Supermicro A+ Server AS-4124GS-TNR,AS-4124GS-TNR,1,46017.70
注：以上报价不含税，税率 13%,,,,
"""
# Gamma: 含税单价, the cheapest.
GAMMA = """品名,规格型号,数量,含税单价,含税金额
NVIDIA A100 40GB PCIe,PCIe 40GB,4,62800,251200
AMD EPYC 7543,32C 2.8GHz,2,9650.55,19301.10
Samsung 32GB DDR4-3200 ECC RDIMM,M393A4K40EB3-CWE,16,1008.88,16142.08
Samsung PM9A3 960GB NVMe U.2,,1,1150,1150
Samsung PM9A3 3.84TB NVMe U.2,MZQL23T8HCLS,1,3788,3788
Seagate Exos X20 20TB SATA,ST20000NM007D,1,3199,3199
NVIDIA ConnectX-6 Lx EN 2x25GbE SFP28,MCX631102AN-ADAT,1,2999,2999
Supermicro A+ Server AS-4124GS-TNR,AS-4124GS-TNR,1,49999.99,49999.99
运费,,1,500,500
"""


def fen(x: Decimal) -> Decimal:
    return x.quantize(CENT, rounding=ROUND_HALF_UP)


def money_text(x: Decimal | float) -> str:
    return f"¥{fen(Decimal(str(x))):,.2f}"


def pdftotext(pdf: bytes, tmp_path: Path, name: str = "doc.pdf") -> str:
    path = tmp_path / name
    path.write_bytes(pdf)
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True,
                          check=True).stdout


def _plan(cat: Catalog) -> Plan:
    """The mid-size example with a budget, its PSUs named (they ship with the chassis) and priced too: a price
    for them must not be added a second time."""
    plan = load_plan(EXAMPLES / "mid-size-training.gpuplan.yaml", cat)
    plan = with_value(plan, "requirements.budget_cny", BUDGET)
    prices = dict(plan.prices)
    prices[PSU] = EnteredPrice(price_cny=2999.0, with_vat=True, kind="entered", date=DAY, source="test")
    return plan.model_copy(update={"prices": prices})


def _import(plan: Plan, cat: Catalog, path: Path, text: str, vendor: str) -> VendorQuote:
    path.write_text(text, encoding="utf-8")
    result = import_for_plan(path, plan, cat, kind="vendor_quote")
    proposals = propose_lines(result, plan, cat, "zh")
    return quote_from(proposals, vendor, number=f"{vendor}-1", date=dt.date(2026, 11, 20), delivery="4 周",
                      warranty="3 年原厂", payment_terms="验收后 30 日内")


@pytest.fixture
def attached(catalog: Catalog, tmp_path: Path) -> Plan:
    plan = _plan(catalog)
    for name, text, vendor in (("east.csv", EAST, "华东科技"), ("north.csv", NORTH, "North"),
                               ("gamma.csv", GAMMA, "Gamma")):
        plan = with_quote(plan, _import(plan, catalog, tmp_path / name, text, vendor))
    return plan


def _gross_by_hand(lines: list[tuple[int, str, bool]]) -> Decimal:
    """价税合计 the way a Chinese quote prints it: with any VAT-inclusive price, each unit with VAT to the fen (a
    net one × 1.13 first) × qty, added up; with net prices only, the net lines added up and 13 % VAT on the sum
    rounded once."""
    if not any(incl for _q, _u, incl in lines):
        net = sum((Decimal(unit) * qty for qty, unit, _i in lines), Decimal(0))
        return net + fen(net * Decimal("0.13"))
    total = Decimal(0)
    for qty, unit, incl in lines:
        u = Decimal(unit)
        total += (u if incl else fen(u * Decimal("1.13"))) * qty
    return total


EAST_LINES = [(4, "65000.50", True), (2, "9800", True), (16, "1035.40", True), (1, "1199", True),
              (1, "3899", True), (1, "3299", True), (1, "3150", True), (1, "52000", True), (1, "2000", True)]
NORTH_LINES = [(4, "56637.17", False), (2, "8672.57", False), (16, "916.81", False), (1, "1061.06", False),
               (1, "3450.44", False), (1, "2919.47", False), (1, "2787.61", False), (1, "46017.70", False)]
GAMMA_LINES = [(4, "62800", True), (2, "9650.55", True), (16, "1008.88", True), (1, "1150", True),
               (1, "3788", True), (1, "3199", True), (1, "2999", True), (1, "49999.99", True), (1, "500", True)]


def test_the_psus_in_the_chassis_are_counted_once_everywhere(catalog: Catalog) -> None:
    """The plan names the chassis's own PSUs (and has a price for them): the quote, the budget and TCO leave
    them out alike (they are in the chassis's price), and say so."""
    plan = _plan(catalog)
    prices = dict(plan.prices)
    for pid, unit in (("a100-pcie-40gb", 62_800.0), ("supermicro-as-4124gs-tnr", 49_999.99)):
        prices[pid] = EnteredPrice(price_cny=unit, with_vat=True, kind="entered", date=DAY, source="test")
    plan = plan.model_copy(update={"prices": prices})
    cost = plan_cost(plan, catalog)
    assert PSU not in {x.part_id for x in cost.lines}
    assert [(x.part.id, x.count) for x in cost.included] == [(PSU, 4)]
    quote = build_quote(plan, catalog, POLICY, DAY)
    assert PSU not in {x.part_id for x in quote.lines}
    assert any("4 × Supermicro 2000 W" in n for n in quote.notes)
    verdict = cost.verdict(POLICY)
    tco = plan_tco(plan, catalog, POLICY)
    assert Decimal(str(verdict.gross_cny)) == quote.total == Decimal(str(round(tco.purchase_cny, 2)))
    assert len(quote.unpriced) == len(cost.unpriced)  # the same lines on request, in the quote and the finding
    rules = {f.rule: f for f in evaluate(plan, catalog, POLICY, "en")}
    assert f"{len(cost.unpriced)} parts have no price" in rules["BUDGET-UNKNOWN"].message


def test_vat_sentences_of_a_vendor_file_are_read() -> None:
    assert vat_statement("以上报价含税") is True
    assert vat_statement("注：以上价格均含13%增值税") is True
    assert vat_statement("注：以上报价不含税，税率 13%") is False
    assert vat_statement("All prices include 13% VAT") is True
    assert vat_statement("Prices exclude VAT") is False
    assert vat_statement("上门安装调试") is None
    assert vat_statement("以上报价含税；以上报价不含税") is None  # both: not guessed


def test_three_vendor_files_compared_the_lowest_marked_and_the_chosen_offer_is_the_quote(
        attached: Plan, catalog: Catalog, tmp_path: Path) -> None:
    east, north, gamma = attached.vendor_quotes
    # 以上报价含税 under an unmarked 单价 column: VAT-inclusive, the note row no line of its own
    assert [x.with_vat for x in east.lines] == [True] * 9 and len(east.lines) == 9
    assert all(x.with_vat is False for x in north.lines) and len(north.lines) == 8
    assert all(x.with_vat is True for x in gamma.lines)
    result = compare(attached, catalog, POLICY, lang="zh")
    by = {o.vendor: o for o in result.offers}
    # no file quotes the PSUs that ship in the chassis, nor the free software: every offer is complete
    assert all(o.complete for o in result.offers), [(o.vendor, [r.name for r in o.unpriced]) for o in result.offers]
    for vendor, lines in (("华东科技", EAST_LINES), ("North", NORTH_LINES), ("Gamma", GAMMA_LINES)):
        assert Decimal(str(by[vendor].gross_cny)) == _gross_by_hand(lines), vendor
    # 华东科技 is over the budget: its budget column says so, it has not failed the specification
    assert by["华东科技"].gross_cny > BUDGET and by["华东科技"].verdict().status == "over"
    assert {o.vendor: o.compliance for o in result.offers} == {"华东科技": "compliant", "North": "compliant",
                                                              "Gamma": "compliant"}
    assert result.lowest == ("Gamma",) and not result.provisional

    chosen = choose(attached, "Gamma")
    assert chosen.chosen_vendor == "Gamma" and chosen.quote.vendor.name == "Gamma"
    assert chosen.quote.delivery == "4 周" and chosen.quote.payment == "验收后 30 日内"
    gpu_price = chosen.prices["a100-pcie-40gb"]
    assert gpu_price.price_cny == 62_800 and gpu_price.kind == "vendor_quote" and gpu_price.with_vat is True
    quote = build_quote(chosen, catalog, POLICY, DAY)
    offer = compare(chosen, catalog, POLICY).offer("Gamma")
    assert offer is not None
    cost = plan_cost(chosen, catalog)
    tco = plan_tco(chosen, catalog, POLICY)
    # one figure: quote total = budget figure = comparison figure for the chosen vendor = TCO purchase
    figures = {quote.total, Decimal(str(cost.verdict(POLICY).gross_cny)), Decimal(str(offer.gross_cny)),
               Decimal(str(round(tco.purchase_cny, 2)))}
    assert figures == {_gross_by_hand(GAMMA_LINES)}
    assert quote.complete and cost.verdict(POLICY).status == "within"
    assert "运费" in [x.name for x in quote.lines]  # the offer's own freight line is in the quote
    assert not {f.rule for f in evaluate(chosen, catalog, POLICY, "en")} & {"BUDGET-OVER", "BUDGET-UNKNOWN"}


@needs_pdftotext
def test_the_exported_quote_adds_up_line_by_line(attached: Plan, catalog: Catalog, tmp_path: Path) -> None:
    """The script a buyer's auditor would run: every printed line multiplies out, the lines add up to the
    total, the VAT split is the total's, the amount in words is the total's and sits under it on the same
    page as the signature and seal block, and the cost of ownership prints the same purchase figure."""
    plan = issue_quote(choose(attached, "Gamma"), DAY)
    text = pdftotext(render_quote_pdf(plan, catalog, lang="zh", today=DAY), tmp_path)
    assert text.lstrip().startswith("报价单")
    row = re.compile(r"^\s*(\d+)\s.*?\s(\d+)\s+¥([\d,]+\.\d\d)\s+¥([\d,]+\.\d\d)\s*$")
    amounts: list[Decimal] = []
    for line in text.splitlines():
        m = row.match(line)
        if m is None:
            continue
        qty, unit, amount = int(m[2]), Decimal(m[3].replace(",", "")), Decimal(m[4].replace(",", ""))
        assert unit * qty == amount, line
        amounts.append(amount)
    quote = build_quote(plan, catalog, POLICY, DAY)
    assert len(amounts) == len(quote.lines)

    def figure(label: str) -> Decimal:
        m = re.search(re.escape(label) + r"\s+¥([\d,]+\.\d\d)", text)
        assert m is not None, label
        return Decimal(m[1].replace(",", ""))

    total, net, vat = figure("合计（含税）"), figure("小计（不含税）"), figure("增值税 13%")
    assert total == sum(amounts, Decimal(0)) == _gross_by_hand(GAMMA_LINES)
    assert net == fen(total / Decimal("1.13")) and vat == total - net
    assert abs(vat - total * 13 / 113) <= Decimal("0.005")  # the VAT in a VAT-inclusive total, rounded once
    pages = text.split("\f")
    with_total = next(p for p in pages if "合计（含税）" in p)
    words = re.search(r"大写金额：人民币(\S+)", with_total)
    assert words is not None and words[1] == capital_amount(total)
    assert "采购方（盖章）" in with_total and "供应商（盖章）" in with_total
    assert with_total.index("合计（含税）") < with_total.index("大写金额") < with_total.index("采购方（盖章）")
    assert f"购置费（含税）：¥{round(total):,}" in text.replace(" ", "")
    assert "Gamma" in text


@needs_pdftotext
def test_amounts_of_ten_million_and_more_never_break(catalog: Catalog, tmp_path: Path) -> None:
    """Twenty nodes at the chosen prices: amounts over ¥10 M print on one line in their cell."""
    plan = load_plan(EXAMPLES / "mid-size-training.gpuplan.yaml", catalog)
    plan = with_value(plan, "requirements.nodes", 40)
    prices = {pid: EnteredPrice(price_cny=unit, with_vat=True, kind="entered", date=DAY, source="test")
              for pid, unit in (("a100-pcie-40gb", 83_309.73), ("supermicro-as-4124gs-tnr", 49_999.99),
                                ("epyc-7543", 9_650.55), ("samsung-ddr4-3200-rdimm-32gb", 1_008.88),
                                ("samsung-pm9a3-960gb-u2", 1_150.0), ("samsung-pm9a3-3.84tb-u2", 3_788.0),
                                ("seagate-exos-x20-20tb", 3_199.0), ("connectx-6-lx-2x25gbe", 2_999.0))}
    plan = plan.model_copy(update={"prices": prices})
    quote = build_quote(plan, catalog, POLICY, DAY)
    assert quote.complete and quote.total >= 10_000_000
    gpu = next(x for x in quote.lines if x.category == "gpu")
    assert gpu.amount is not None and gpu.amount >= 10_000_000
    text = pdftotext(render_quote_pdf(plan, catalog, lang="zh", today=DAY), tmp_path)
    for value in (gpu.amount, quote.total, quote.subtotal):
        assert money_text(value) in text, value
    assert not re.search(r"¥(?:[\d,]*[.,])?\s*$", text, re.MULTILINE)  # no amount cut at the end of a line


@needs_pdftotext
def test_the_rfq_is_headed_as_one_and_names_the_power_supplies(attached: Plan, catalog: Catalog,
                                                               tmp_path: Path) -> None:
    text = re.sub(r"\s+", " ", pdftotext(render_quote_pdf(attached, catalog, lang="zh", today=DAY,
                                                         document="rfq"), tmp_path))
    assert text.lstrip().startswith("询价单")
    assert "询价编号" in text and "询价日期" in text and "报价截止日期 2026-12-08" in text
    assert "报价编号" not in text and "有效期至" not in text
    # the vendor must supply the PSUs: count × model and rating, redundancy; they ship in the chassis
    assert "每台服务器 4 × Supermicro 2000 W Titanium" in text and "N+N" in text
    assert "随Supermicro A+ Server AS-4124GS-TNR" in text
    assert "¥" not in text  # a request carries no prices


@needs_pdftotext
def test_the_comparison_pdf_prints_the_quotes_figures_and_a_conclusion(attached: Plan, catalog: Catalog,
                                                                       tmp_path: Path) -> None:
    from procurement.reports.comparison_pdf import render_comparison_pdf

    plan = choose(attached, "Gamma")
    text = re.sub(r"\s+", " ", pdftotext(render_comparison_pdf(plan, catalog, lang="zh", today=DAY), tmp_path))
    total = build_quote(plan, catalog, POLICY, DAY).total
    assert money_text(total) in text  # the chosen offer's figure is the quote's total
    # each VAT-inclusive line: unit × qty as printed
    for unit, amount in (("¥62,800.00", "¥251,200.00"), ("¥1,008.88", "¥16,142.08")):
        assert f"单价 {unit}（含税）" in text and f"含税 {amount}" in text
    assert "合规 合规 合规" in text and "超出预算" in text and "不合规" not in text  # budget has its own row
    assert f"选定成交供应商：Gamma——报价完整且符合规格的最低报价（价税合计 {money_text(total)}）" in text
    assert "比价小组" in text and "小组成员（签字）" in text


def test_a_vendor_files_header_rows_are_read(catalog: Catalog, tmp_path: Path) -> None:
    """报价单号 and 报价日期 above the table, 交货期/质保/付款方式 under it: read as the quote's terms, not lines."""
    text = EAST.replace("以上报价含税,,,,,\n", "以上报价含税,,,,,\n交货期：合同签订后 4 周,,,,,\n质保：3 年原厂,,,,,\n")
    path = tmp_path / "east.csv"
    path.write_text(text, encoding="utf-8")
    result = import_for_plan(path, _plan(catalog), catalog)
    assert result.info == {"number": "HD-2026-118", "date": "2026-11-20", "delivery": "合同签订后 4 周",
                           "warranty": "3 年原厂"}
    assert len(result.lines) == 9  # the notes are no lines


def test_without_a_service_life_no_years_are_stated() -> None:
    """No '? years' (? 年拥有成本): without a service life the lower bound is stated without a number of years."""
    from procurement.budgets.tco import Tco, describe_tco

    tco = Tco(purchase_cny=100_000.0, purchase_complete=True, wall_w=1000.0, wall_complete=True, servers=2, gpus=8,
              kwh_price=0.8, pue=1.5, utilisation_pct=50.0, life_years=None, cloud_gpu_hour_cny=None)
    for lang in ("en", "zh"):
        lines = describe_tco(tco, lang)
        assert not any("?" in line for line in lines), lines
    assert describe_tco(tco, "en")[-1].startswith("Cost of ownership: at least ¥100,000")


@needs_pdftotext
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_rfq_names_every_psu_redundancy_a_plan_can_hold(attached: Plan, catalog: Catalog, tmp_path: Path,
                                                           lang: str) -> None:
    """Plan format v10 added N+2 and N+3 (4+2, 3+3): the RFQ once had words only for none, N+1 and N+N and
    crashed on the others ("no message 'rfq.redundancy.n+2'")."""
    from procurement.coded import render_value
    from procurement.plan import Redundancy
    from procurement.rules.power import redundancy_label

    for redundancy in Redundancy:
        plan = with_value(attached, "server.psu.redundancy", redundancy)
        text = re.sub(r"\s+", " ", pdftotext(render_quote_pdf(plan, catalog, lang=lang, today=DAY, document="rfq"),
                                             tmp_path))
        said = "redundancy " if lang == "en" else "冗余方式"
        label = str(render_value(redundancy_label(redundancy), lang))
        assert said + label in text.replace("冗余方式 ", "冗余方式"), redundancy


def test_a_price_before_vat_is_rounded_to_the_fen_once() -> None:
    # a net price with fractions of a fen beside a VAT-inclusive one (the bill is then added up with VAT):
    # 4,479.99552 × 1.13 = 5,062.3949 → ¥5,062.39 and 781.65885 × 1.13 = 883.2745 → ¥883.27; rounding the net
    # price to the fen first gave ¥5,062.40 and ¥883.28, against the quote's note 'the VAT-inclusive unit price
    # rounded to the fen'
    from decimal import Decimal

    from procurement.budgets.cost import PricedItem, add_up

    m = add_up([PricedItem(1, 4479.99552, False), PricedItem(2, 781.65885, False), PricedItem(1, 100.0, True)], 13)
    assert m.basis == "gross"
    assert m.units == (Decimal("5062.39"), Decimal("883.27"), Decimal("100.00"))
    assert m.amounts == (Decimal("5062.39"), Decimal("1766.54"), Decimal("100.00"))
    assert m.gross == Decimal("6928.93") and m.net + m.vat == m.gross

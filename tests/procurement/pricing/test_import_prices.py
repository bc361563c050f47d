"""Importing a company price list or a vendor's quote (CSV, XLSX): columns, parsing, matching, errors."""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal

import openpyxl
import pytest

from procurement.budgets.cost import plan_cost
from procurement.plan import EnteredPrice, Plan
from procurement.pricing.import_prices import (
    MAX_ROWS,
    Matcher,
    PriceFileError,
    guess_field,
    import_for_plan,
    read_prices,
)


@pytest.fixture
def plan() -> Plan:
    return Plan.model_validate({
        "gpu": {"model": "rtx-4090", "count": 2},
        "server": {"chassis": "supermicro-as-4124gs-tnr", "cpu": "epyc-7543", "cpu_count": 2,
                   "memory": {"part": "samsung-ddr4-3200-rdimm-32gb", "count": 16},
                   "storage": [{"role": "system", "part": "samsung-pm9a3-3.84tb-u2", "count": 2}]},
    })


VENDOR_ROWS = [
    ["北京某科技有限公司 报价单"],
    ["报价编号：BJ-2026-118", None, None, "日期：2026-11-30"],
    [],
    ["序号", "品名", "型号", "数量", "含税单价", "金额", "备注"],
    [1, "GPU 卡", "RTX 4090 24G", 2, 14_500, 29_000, None],
    [2, "服务器准系统", "超微 AS-4124GS-TNR", 1, "¥68,000.00", 68_000, "含 2000W 电源"],
    [3, "CPU", "AMD EPYC 7543 32核", 2, 11_300, 22_600, None],
    [4, "内存", "三星 M393A4K40EB3-CWE 32G", 16, 1_050, 16_800, None],
    [5, "安装调试", "上门安装", 1, 2_000, 2_000, None],
    [6, "延保", "三年延保", 1, "询价", None, None],
    ["合计", None, None, None, None, 138_400, None],
    ["大写：人民币壹拾叁万捌仟肆佰元整"],
]


def _part(catalog, part_id):
    return next(kind[part_id] for kind in catalog.parts.values() if part_id in kind)


def _xlsx(path, rows, title="报价"):
    book = openpyxl.Workbook()
    ws = book.active
    ws.title = title
    for row in rows:
        ws.append(row)
    book.save(path)
    return path


def test_headers_in_chinese_and_english_are_recognised():
    assert guess_field("含税单价") == "price_incl"
    assert guess_field("单价（不含税）") == "price_excl"
    assert guess_field("不含税单价") == "price_excl"
    assert guess_field("单价") == "price"
    assert guess_field("Unit price (incl. VAT)") == "price_incl"
    assert guess_field("Unit Price") == "price"
    assert guess_field("规格型号") == "part"
    assert guess_field("Part number") == "part"
    assert guess_field("品名") == "name"
    assert guess_field("规格") == "spec"
    assert guess_field("数量") == "qty" and guess_field("Qty") == "qty"
    assert guess_field("金额") == "amount" and guess_field("总价") == "amount"
    assert guess_field("单位") is None and guess_field("备注") is None


def test_a_vendor_xlsx_with_a_title_block_matches_lines_and_keeps_the_extras(tmp_path, plan, catalog):
    path = _xlsx(tmp_path / "quote.xlsx", VENDOR_ROWS)
    result = import_for_plan(path, plan, catalog, source="北京某科技 BJ-2026-118", date=dt.date(2026, 11, 30))
    assert result.sheet == "报价" and result.header_row == 4
    assert result.columns["price_incl"] == "含税单价" and result.columns["part"] == "型号"
    by_part = {line.part_id: line for line in result.matches}
    assert set(by_part) == {"rtx-4090", "supermicro-as-4124gs-tnr", "epyc-7543", "samsung-ddr4-3200-rdimm-32gb"}
    assert by_part["supermicro-as-4124gs-tnr"].confidence == "exact"  # the model code
    assert by_part["samsung-ddr4-3200-rdimm-32gb"].confidence == "exact"  # the memory's part number
    assert by_part["rtx-4090"].confidence == "likely" and by_part["epyc-7543"].confidence == "likely"
    assert by_part["supermicro-as-4124gs-tnr"].unit_price_cny == Decimal("68000.00")
    assert all(line.includes_vat is True for line in result.matches)
    # installation and the warranty extension (on request) stay as extra lines; totals rows are no lines
    assert [(x.row, x.name_text, x.unit_price_cny) for x in result.extras] == [
        (9, "安装调试", Decimal(2000)), (10, "延保", None)]
    assert result.skipped_rows == (11, 12)
    # nothing changes until applied; applied, the confirmed lines become vendor-quote prices
    assert plan.prices == {}
    after = result.apply(plan, rows=[line.row for line in result.matches])
    assert after.prices["epyc-7543"] == EnteredPrice(price_cny=11_300, with_vat=True, kind="vendor_quote",
                                                     date=dt.date(2026, 11, 30), source="北京某科技 BJ-2026-118")
    cost = plan_cost(after, catalog)
    assert not [line.path for line in cost.unpriced if "storage" not in line.path]


def test_only_exact_matches_are_applied_unless_the_buyer_confirms_more(tmp_path, plan, catalog):
    result = import_for_plan(_xlsx(tmp_path / "q.xlsx", VENDOR_ROWS), plan, catalog)
    assert set(result.apply(plan).prices) == {"supermicro-as-4124gs-tnr", "samsung-ddr4-3200-rdimm-32gb"}


def test_a_gbk_csv_with_a_whole_file_vat_setting(tmp_path, plan, catalog):
    text = ("型号,品名,数量,单价\n"
            "rtx-4090,显卡,2,\"12,999\"\n"
            "Samsung PM9A3 3.84TB NVMe U.2,固态硬盘,2,3200\n"
            "运费,物流,1,300\n")
    path = tmp_path / "公司价格表.csv"
    path.write_bytes(text.encode("gbk"))
    result = import_for_plan(path, plan, catalog, kind="company", includes_vat=False)
    assert [(m.part_id, m.confidence, m.unit_price_cny, m.includes_vat) for m in result.matches] == [
        ("rtx-4090", "exact", Decimal(12999), False),
        ("samsung-pm9a3-3.84tb-u2", "exact", Decimal(3200), False)]
    assert [x.part_text for x in result.extras] == ["运费"]
    assert result.source == "公司价格表.csv"  # no source given: the file's name
    assert result.apply(plan).prices["rtx-4090"].kind == "company"


def test_a_utf8_csv_with_bom_english_headers_and_a_vat_column(tmp_path, plan, catalog):
    text = ("Part number;Description;Unit price;VAT included;Date\n"
            "EPYC-7543;AMD EPYC 7543;9800.5;no;2026/10/01\n"
            "M393A4K40EB3-CWE;32GB RDIMM;980;yes;2026年10月2日\n")
    path = tmp_path / "list.csv"
    path.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    result = import_for_plan(path, plan, catalog)
    first, second = result.matches
    assert (first.part_id, first.includes_vat, first.date) == ("epyc-7543", False, dt.date(2026, 10, 1))
    assert (second.part_id, second.includes_vat, second.date) == ("samsung-ddr4-3200-rdimm-32gb", True,
                                                                  dt.date(2026, 10, 2))


def test_a_bad_number_cell_names_file_sheet_row_and_column_and_changes_nothing(tmp_path, plan, catalog):
    rows = [list(r) for r in VENDOR_ROWS]
    rows[6][4] = "11,3OO"  # letters O for zeros, row 7 column E
    path = _xlsx(tmp_path / "bad.xlsx", rows)
    before = plan.model_dump()
    with pytest.raises(PriceFileError) as err:
        import_for_plan(path, plan, catalog)
    assert (err.value.row, err.value.column, err.value.sheet) == (7, 5, "报价")
    assert str(err.value) == "bad.xlsx, sheet '报价', row 7, column E (含税单价): '11,3OO' is not a number"
    assert err.value.message("zh") == "bad.xlsx，工作表“报价”，第 7 行，E 列（含税单价）：“11,3OO”不是数字"
    assert plan.model_dump() == before


def test_a_bad_date_in_a_csv_names_its_line_and_column(tmp_path, plan, catalog):
    path = tmp_path / "d.csv"
    path.write_text("型号,单价,日期\nrtx-4090,12999,下周\n", encoding="utf-8")
    with pytest.raises(PriceFileError, match=r"d\.csv, row 2, column C \(日期\): '下周' is not a date"):
        import_for_plan(path, plan, catalog)


def test_no_header_and_wrong_formats_are_clear_errors(tmp_path, plan, catalog):
    path = tmp_path / "x.csv"
    path.write_text("a,b\n1,2\n", encoding="utf-8")
    with pytest.raises(PriceFileError, match="no header in the first 20 rows"):
        import_for_plan(path, plan, catalog)
    with pytest.raises(PriceFileError, match="only CSV and XLSX"):
        import_for_plan(tmp_path / "q.xls", plan, catalog)
    fake = tmp_path / "fake.xlsx"
    fake.write_bytes(b"not a zip")
    with pytest.raises(PriceFileError, match=r"fake\.xlsx: cannot be read"):
        import_for_plan(fake, plan, catalog)
    with pytest.raises(PriceFileError, match="has no sheet named 'Other'"):
        import_for_plan(_xlsx(tmp_path / "q.xlsx", VENDOR_ROWS), plan, catalog, sheet="Other")
    binary = tmp_path / "b.csv"
    binary.write_bytes(bytes(range(128, 256)) * 4)
    with pytest.raises(PriceFileError, match="neither UTF-8 nor GBK"):
        import_for_plan(binary, plan, catalog)


def test_reading_is_bounded_in_rows(tmp_path, plan, catalog):
    path = tmp_path / "long.csv"
    path.write_text("型号,单价\n" + "运费,1\n" * (MAX_ROWS + 1), encoding="utf-8")
    with pytest.raises(PriceFileError, match=f"more than {MAX_ROWS} rows"):
        import_for_plan(path, plan, catalog, kind="company")
    # a vendor's quote stops at the lines a plan keeps of it (more was a pydantic traceback in `quote import`)
    with pytest.raises(PriceFileError, match="more than 5,000 lines"):
        import_for_plan(path, plan, catalog)


def test_a_negative_price_for_a_part_is_refused_but_a_discount_line_is_kept(tmp_path, plan, catalog):
    path = tmp_path / "n.csv"
    path.write_text("型号,单价\n优惠折扣,-500\n", encoding="utf-8")
    assert import_for_plan(path, plan, catalog).extras[0].unit_price_cny == Decimal(-500)
    path.write_text("型号,单价\nrtx-4090,-500\n", encoding="utf-8")
    with pytest.raises(PriceFileError, match="row 2, column B"):
        import_for_plan(path, plan, catalog)


def test_matching_by_tokens_tells_close_models_apart(catalog):
    parts = [_part(catalog, i) for i in ("rtx-4090", "rtx-4090-d", "epyc-7543", "epyc-7763")]
    m = Matcher(parts)
    assert m.match(["RTX4090D 24GB"])[0:2] == (_part(catalog, "rtx-4090-d"), "likely")
    assert m.match(["GeForce RTX 4090 公版"])[0:2] == (_part(catalog, "rtx-4090"), "likely")
    assert m.match(["ＥＰＹＣ　７７６３"])[0:2] == (_part(catalog, "epyc-7763"), "likely")  # full-width
    assert m.match(["NVIDIA GeForce RTX 4090"])[0:2] == (_part(catalog, "rtx-4090"), "exact")
    assert m.match(["EPYC 9654"])[1] == "none" and m.match(["安装调试"])[1] == "none"


def test_a_second_line_for_the_same_part_is_kept_as_an_extra(tmp_path, plan, catalog):
    path = tmp_path / "dup.csv"
    path.write_text("型号,单价\nrtx-4090,12999\nNVIDIA GeForce RTX 4090,13500\n", encoding="utf-8")
    result = import_for_plan(path, plan, catalog)
    assert [m.unit_price_cny for m in result.matches] == [Decimal(12999)]
    assert result.extras[0].reason == "same part as row 2"


def test_an_explicit_column_mapping_replaces_the_guess(tmp_path, plan, catalog):
    path = tmp_path / "m.csv"
    path.write_text("A,B,C\nrtx-4090,1,12999\n", encoding="utf-8")
    result = import_for_plan(path, plan, catalog, mapping={"part": 0, "price": 2, "qty": 1})
    assert result.matches[0].unit_price_cny == Decimal(12999) and result.matches[0].quantity == 1
    with pytest.raises(PriceFileError, match="column mapping names column D"):
        import_for_plan(path, plan, catalog, mapping={"part": 0, "price": 3})


def test_read_prices_against_any_parts(tmp_path, catalog):
    path = tmp_path / "c.csv"
    path.write_text("Model,Price\nrtx-5090,16499\n", encoding="utf-8")
    result = read_prices(path, [_part(catalog, "rtx-5090")], kind="company", source="2026 list")
    assert result.entered_prices() == {"rtx-5090": EnteredPrice(price_cny=16499, kind="company",
                                                                source="2026 list")}


def test_price_spellings_vendors_use(tmp_path, plan, catalog):
    path = tmp_path / "s.csv"
    path.write_text("型号,单价\nrtx-4090,1.3万\nepyc-7543,赠送\nM393A4K40EB3-CWE,待定\n", encoding="utf-8")
    result = import_for_plan(path, plan, catalog)
    assert [(m.part_id, m.unit_price_cny) for m in result.matches] == [
        ("rtx-4090", Decimal("13000.0")), ("epyc-7543", Decimal(0))]
    assert result.extras[0].reason == "no unit price"


@pytest.mark.parametrize("cell", ["65000,50", "1.234,56", "1,2345", "1万万"])
def test_an_ambiguous_number_is_refused_not_guessed(tmp_path, plan, catalog, cell):
    """65000,50 was read as 6,500,050, 1.234,56 as 1.23 and 1万万 as 10,000: each is refused, naming the cell."""
    path = tmp_path / "n.csv"
    path.write_text(f'型号,单价\nrtx-4090,"{cell}"\n', encoding="utf-8")
    with pytest.raises(PriceFileError, match=r"n\.csv, row 2, column B \(单价\): '" + re.escape(cell)):
        import_for_plan(path, plan, catalog)


def test_thousands_separators_and_one_wan_are_read(tmp_path, plan, catalog):
    path = tmp_path / "ok.csv"
    path.write_text('型号,单价\nrtx-4090,"¥65,000.50"\nepyc-7543,1.2万元\n', encoding="utf-8")
    result = import_for_plan(path, plan, catalog)
    assert [(m.part_id, m.unit_price_cny) for m in result.matches] == [
        ("rtx-4090", Decimal("65000.50")), ("epyc-7543", Decimal("12000.0"))]


def test_a_vat_sentence_in_the_file_sets_an_unmarked_price_column(tmp_path, plan, catalog):
    """'以上报价含税' under an unmarked 单价 column: the prices include VAT (the comparison and Import prices
    read it alike); the buyer's choice for the vendor overrides it; a 不含税单价 heading is not overridden."""
    path = tmp_path / "v.csv"
    path.write_text("型号,单价\nrtx-4090,12999\nepyc-7543,9800\n以上报价含税,\n", encoding="utf-8")
    result = import_for_plan(path, plan, catalog)
    assert [m.includes_vat for m in result.lines] == [True, True] and result.vat_reading == "statement"
    assert result.vat_statement is True and result.vat_note == "以上报价含税" and result.skipped_rows == (4,)
    assert all(m.includes_vat is True for m in import_for_plan(path, plan, catalog, default_vat=False).lines)
    chosen = import_for_plan(path, plan, catalog, includes_vat=False)
    assert [m.includes_vat for m in chosen.lines] == [False, False] and chosen.vat_reading == "chosen"
    net = tmp_path / "net.csv"
    net.write_text("型号,不含税单价\nrtx-4090,11503.54\n以上报价含税,\n", encoding="utf-8")
    assert import_for_plan(net, plan, catalog, includes_vat=True).lines[0].includes_vat is False

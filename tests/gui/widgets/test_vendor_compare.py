"""Vendors' quotes compared (三家比价) as a buyer does it: three vendors' XLSX files imported (one needing its
columns mapped by hand, remembered for that vendor's next file), a line re-mapped, the offers compared with the
rules run on each vendor's variant, one chosen, the comparison PDF exported — asserted on the plan and the PDF."""

from __future__ import annotations

import datetime as dt
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import openpyxl
import pytest
from PySide6.QtCore import QSettings, Qt

from gui import workers
from gui.controller import PlanController
from gui.pages.quote_view import QuotePage
from gui.settings import Settings
from gui.widgets import vendor_compare
from gui.widgets.vendor_compare import VendorComparisonView, VendorQuoteDialog
from procurement.plan import load_plan
from tests.conftest import EXAMPLES

GPU = "a100-pcie-40gb"

# 华东科技: Chinese headers, the GPU replaced by an SXM module (breaks PCIe and power), installation extra
EAST = [
    ["华东科技有限公司 报价单"],
    ["序号", "品名", "型号", "数量", "含税单价"],
    [1, "GPU", "NVIDIA H100 SXM5 80GB", 4, 150_000],
    [2, "服务器", "Supermicro AS-4124GS-TNR", 1, 60_000],
    [3, "CPU", "AMD EPYC 7543", 2, 21_000],
    [4, "内存", "M393A4K40EB3-CWE", 16, 1_000],
    [5, "系统盘", "Samsung PM9A3 960GB NVMe U.2", 1, 1_500],
    [6, "数据盘", "Samsung PM9A3 3.84TB NVMe U.2", 1, 4_000],
    [7, "备份盘", "Seagate Exos X20 20TB SATA", 1, 3_500],
    [8, "网卡", "ConnectX-6 Lx 2x25GbE", 1, 3_000],
    [9, "电源", "Supermicro 2000W Titanium", 4, 2_000],
    [10, "安装调试", "上门安装", 1, 3_000],
]
# North: English headers, prices excluding VAT, shipping extra; the chassis written so it matches nothing
NORTH = [
    ["Description", "Part No.", "Qty", "Unit price excl. VAT"],
    ["GPU", "NVIDIA A100 40GB PCIe", 4, 70_000],
    ["Server barebone 4U", "4U GPU platform", 1, 55_000],
    ["CPU", "AMD EPYC 7543", 2, 19_000],
    ["Memory", "M393A4K40EB3-CWE", 16, 900],
    ["SSD", "Samsung PM9A3 960GB NVMe U.2", 1, 1_300],
    ["SSD", "Samsung PM9A3 3.84TB NVMe U.2", 1, 3_600],
    ["HDD", "Seagate Exos X20 20TB SATA", 1, 3_200],
    ["NIC", "ConnectX-6 Lx 2x25GbE", 1, 2_700],
    ["PSU", "Supermicro 2000W Titanium", 4, 1_800],
    ["Shipping", "Freight", 1, 800],
]
# Gamma: a list price column (guessed) and the offered price (优惠价) that has to be mapped by hand
GAMMA_HEADER = ["序号", "型号", "数量", "单价", "优惠价"]
GAMMA_LINES = [
    [1, "NVIDIA A100 40GB PCIe", 4, 90_000, 66_000],
    [2, "Supermicro AS-4124GS-TNR", 1, 70_000, 52_000],
    [3, "AMD EPYC 7543", 2, 25_000, 18_000],
    [4, "M393A4K40EB3-CWE", 16, 1_200, 850],
    [5, "Samsung PM9A3 960GB NVMe U.2", 1, 1_800, 1_200],
    [6, "Samsung PM9A3 3.84TB NVMe U.2", 1, 4_500, 3_400],
    [7, "Seagate Exos X20 20TB SATA", 1, 4_000, 3_000],
    [8, "ConnectX-6 Lx 2x25GbE", 1, 3_500, 2_500],
    [9, "Supermicro 2000W Titanium", 4, 2_500, 1_700],
    [10, "三年上门保修延保", 1, 9_000, 6_000],
]


def _xlsx(path: Path, rows: list[list[object]]) -> Path:
    book = openpyxl.Workbook()
    for row in rows:
        book.active.append(row)
    book.save(path)
    return path


def pdf_text(path: Path) -> str:
    if shutil.which("pdftotext"):
        text = subprocess.run(["pdftotext", str(path), "-"], check=True, capture_output=True, text=True).stdout
    else:
        import io

        import pypdf

        text = "\n".join(p.extract_text() for p in pypdf.PdfReader(io.BytesIO(path.read_bytes())).pages)
    return " ".join(text.split())


@pytest.fixture
def ctl(catalog, policy) -> PlanController:
    ctl = PlanController(catalog, policy, lang="en")
    ctl.new(load_plan(EXAMPLES / "mid-size-training.gpuplan.yaml", catalog))
    return ctl


@pytest.fixture
def view(qtbot, ctl, tmp_path) -> VendorComparisonView:
    settings = Settings(QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat))
    view = VendorComparisonView(ctl, settings)
    qtbot.addWidget(view)
    view.show()
    yield view
    assert workers.wait_for_jobs(20_000)


def person(qtbot, act: Callable[[VendorQuoteDialog], None]) -> Callable[..., object]:
    """Stands in for the modal dialog: shows the real one, lets ``act`` fill it in as a person would, presses
    Attach quote."""

    def ask(_parent, dialog: VendorQuoteDialog):
        qtbot.addWidget(dialog)
        dialog.show()
        act(dialog)
        assert dialog.ok_button.isEnabled()
        qtbot.mouseClick(dialog.ok_button, Qt.MouseButton.LeftButton)
        return dialog.quote()

    return ask


def type_into(qtbot, edit, text: str) -> None:
    """Typed key by key; Chinese comes in as an input method commits it (QTest cannot type it)."""
    edit.setFocus()
    if text.isascii():
        qtbot.keyClicks(edit, text)
    else:
        edit.insert(text)


def fill(qtbot, dialog: VendorQuoteDialog, vendor: str, number: str, delivery: str, warranty: str,
         payment: str) -> None:
    for edit, text in ((dialog.vendor.lineEdit(), vendor), (dialog.number, number), (dialog.delivery, delivery),
                       (dialog.warranty, warranty), (dialog.payment, payment)):
        type_into(qtbot, edit, text)


def import_file(qtbot, view: VendorComparisonView) -> None:
    """Press Import vendor quote… and wait until the file is read (in a worker) and the dialog answered."""
    with qtbot.waitSignal(view.work_done, timeout=30_000):
        qtbot.mouseClick(view.import_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(view.import_button.isEnabled)


def row_of(dialog: VendorQuoteDialog, file_row: int) -> int:
    return dialog.table_row(file_row)


def test_three_vendors_imported_compared_chosen_and_exported(qtbot, monkeypatch, tmp_path, ctl, view, catalog):
    files = [_xlsx(tmp_path / "east.xlsx", EAST), _xlsx(tmp_path / "north.xlsx", NORTH),
             _xlsx(tmp_path / "gamma.xlsx", [GAMMA_HEADER, *GAMMA_LINES])]
    queue = list(files)
    monkeypatch.setattr(workers, "ask_open_paths", lambda *a: [queue.pop(0)])

    # 1. 华东科技: the SXM module is proposed as a substitute for the plan's A100; the rest match
    def east(d: VendorQuoteDialog) -> None:
        r = row_of(d, 3)
        assert d.part_combos[r].currentData() == GPU
        assert d.offer_combos[r].currentData() == "h100-sxm5-80gb"
        assert d.table.item(r, 6).text().startswith(("exact", "likely"))
        assert d.part_combos[row_of(d, 12)].currentData() is None  # 上门安装: an extra line
        fill(qtbot, d, "华东科技", "HD-2026-07", "合同签订后 6 周", "3 年原厂", "预付 30%，验收后 70%")

    monkeypatch.setattr(vendor_compare, "ask_vendor_quote", person(qtbot, east))
    import_file(qtbot, view)

    # 2. North: the chassis line '4U GPU platform' matches nothing; the buyer maps it to the plan's chassis
    def north(d: VendorQuoteDialog) -> None:
        r = row_of(d, 3)
        assert d.part_combos[r].currentData() is None
        d.set_part(3, "supermicro-as-4124gs-tnr")
        assert d.offer_combos[r].isEnabled() and d.offer_combos[r].currentData() == "same"
        # the buyer knows from the vendor's letter that its 'A100' is the 80 GB card: picks that catalog part
        gpu_row = row_of(d, 2)
        assert d.offer_combos[gpu_row].findData("h100-sxm5-80gb") > 0, "every catalog GPU can be the substitute"
        d.set_offered(2, "a100-pcie-80gb")
        assert d.offer_combos[gpu_row].currentText() == "Substitute: NVIDIA A100 80GB PCIe"
        fill(qtbot, d, "North Computing", "NC-88", "2 weeks", "1 year", "30 days after acceptance")

    monkeypatch.setattr(vendor_compare, "ask_vendor_quote", person(qtbot, north))
    import_file(qtbot, view)

    # 3. Gamma: 单价 is the list price; the offered price is in 优惠价 (column E): map it, read again
    def gamma(d: VendorQuoteDialog) -> None:
        assert d.price_import.lines[0].unit_price_cny == 90_000  # as guessed: the list price
        d.mapping_combos["price"].setCurrentIndex(0)  # (not used)
        d.mapping_combos["price_incl"].setCurrentIndex(d.mapping_combos["price_incl"].findData(4))
        qtbot.mouseClick(d.reread_button, Qt.MouseButton.LeftButton)
        assert [p.unit_price_cny for p in d.proposals][:2] == [66_000, 52_000]
        assert d.part_combos[row_of(d, 11)].currentData() is None  # the warranty extension: an extra line
        fill(qtbot, d, "Gamma", "G-1", "现货", "5 年", "货到付款")

    monkeypatch.setattr(vendor_compare, "ask_vendor_quote", person(qtbot, gamma))
    import_file(qtbot, view)

    plan = ctl.plan
    assert [q.vendor for q in plan.vendor_quotes] == ["华东科技", "North Computing", "Gamma"]
    east_q, north_q, gamma_q = plan.vendor_quotes
    assert east_q.delivery == "合同签订后 6 周" and east_q.document == "east.xlsx"
    assert [(x.for_part, x.offered) for x in east_q.lines if x.offered] == [(GPU, "h100-sxm5-80gb")]
    assert [(x.text, x.unit_price_cny) for x in east_q.lines if x.for_part is None] == [("安装调试 · 上门安装", 3000)]
    assert [x.for_part for x in north_q.lines][1] == "supermicro-as-4124gs-tnr"
    assert all(x.with_vat is False for x in north_q.lines)
    assert [(x.for_part, x.offered) for x in north_q.lines if x.offered] == [(GPU, "a100-pcie-80gb")]
    assert gamma_q.lines[0].unit_price_cny == 66_000 and gamma_q.lines[0].with_vat is True
    assert [x.text for x in gamma_q.lines if x.for_part is None] == ["三年上门保修延保"]

    # the comparison: 华东科技 fails (SXM in a PCIe chassis), Gamma is the lowest compliant offer
    cmp = view.comparison
    assert cmp is not None
    assert cmp.offer("华东科技").compliance == "fails"
    assert cmp.offer("North Computing").compliance == "compliant"  # the 80 GB card fits the chassis and PSUs
    assert cmp.lowest == ("Gamma",)
    rows = {view.offers.item(r, 0).text(): r for r in range(view.offers.rowCount())}
    assert view.offers.item(rows["Gamma"], 8).text() == "★ lowest compliant"
    assert view.offers.item(rows["华东科技"], 6).text() == "fails"
    assert "Lowest compliant offer: Gamma." in view.lowest_label.text()
    assert view.lines.horizontalHeaderItem(2).text() == "华东科技"

    # the buyer chooses North (shorter delivery, say) over the lowest; undo takes the choice back
    view.select("North Computing")
    qtbot.mouseClick(view.choose_button, Qt.MouseButton.LeftButton)
    assert ctl.plan.chosen_vendor == "North Computing"
    assert "✔ chosen" in view.offers.item(rows["North Computing"], 8).text()
    # the chosen offer is the quote now, in one undoable step: the vendor, its prices, its substitute, its terms
    from procurement.reports import build_quote

    chosen = ctl.plan
    assert chosen.quote.vendor.name == "North Computing" and chosen.quote.delivery == "2 weeks"
    assert chosen.gpu.model == "a100-pcie-80gb" and chosen.prices["a100-pcie-80gb"].kind == "vendor_quote"
    north_offer = view.comparison.offer("North Computing") if view.comparison else None
    quote = build_quote(chosen, catalog, ctl.policy)
    assert north_offer is not None and quote.complete and float(quote.total) == round(north_offer.gross_cny, 2)
    ctl.undo_stack.undo()
    assert ctl.plan.chosen_vendor is None and ctl.plan.gpu.model == GPU
    assert ctl.plan.quote.vendor.name == "Example vendor"
    ctl.undo_stack.redo()
    assert ctl.plan.chosen_vendor == "North Computing"

    # export the comparison PDF
    target = tmp_path / "comparison.pdf"
    monkeypatch.setattr(workers, "ask_export_path", lambda *a: target)
    with qtbot.waitSignal(view.work_done, timeout=30_000):
        qtbot.mouseClick(view.export_button, Qt.MouseButton.LeftButton)
    text = pdf_text(target)
    north_offer = view.comparison.offer("North Computing")
    assert north_offer is not None and north_offer.complete
    assert f"¥{north_offer.gross_cny:,.2f}" in text
    assert "Lowest compliant offer: Gamma." in text and "Chosen by the buyer: North Computing." in text
    assert "substitute: NVIDIA H100 80GB SXM5" in text and "PCIE-FORM-FACTOR" in text
    assert "substitute: NVIDIA A100 80GB PCIe" in text
    assert "North Computing: Shipping · Freight" in text and "Gamma: 三年上门保修延保" in text
    assert "30 days after acceptance" in text and "合同签订后 6 周" in text


def test_a_vendors_columns_are_remembered_for_its_next_file(qtbot, monkeypatch, tmp_path, view, ctl):
    first = _xlsx(tmp_path / "gamma-1.xlsx", [GAMMA_HEADER, *GAMMA_LINES[:3]])
    # the next file has the columns in another order, under the same names
    order = [0, 4, 1, 3, 2]
    second = _xlsx(tmp_path / "gamma-2.xlsx", [[row[i] for i in order] for row in [GAMMA_HEADER, *GAMMA_LINES[:3]]])
    queue = [first, second]
    monkeypatch.setattr(workers, "ask_open_paths", lambda *a: [queue.pop(0)])

    def map_by_hand(d: VendorQuoteDialog) -> None:
        d.mapping_combos["price"].setCurrentIndex(0)
        d.mapping_combos["price_incl"].setCurrentIndex(d.mapping_combos["price_incl"].findData(4))
        qtbot.mouseClick(d.reread_button, Qt.MouseButton.LeftButton)
        fill(qtbot, d, "Gamma", "G-1", "", "", "")

    monkeypatch.setattr(vendor_compare, "ask_vendor_quote", person(qtbot, map_by_hand))
    import_file(qtbot, view)
    assert view.settings is not None and view.settings.vendor_mappings["Gamma"]["price_incl"] == "优惠价"

    def pick_vendor(d: VendorQuoteDialog) -> None:
        assert d.price_import.lines[0].unit_price_cny == 90_000  # guessed: the list price again
        assert d.vendor.findText("Gamma") >= 0
        d.vendor.setCurrentIndex(d.vendor.findText("Gamma"))
        d.vendor.textActivated.emit("Gamma")  # what picking it from the list sends
        assert d.price_import.lines[0].unit_price_cny == 66_000  # the remembered 优惠价 column, now column B
        assert d.mapping_combos["price_incl"].currentData() == 1

    monkeypatch.setattr(vendor_compare, "ask_vendor_quote", person(qtbot, pick_vendor))
    import_file(qtbot, view)
    assert [q.vendor for q in ctl.plan.vendor_quotes] == ["Gamma"]  # the same vendor's new quote replaces it
    assert ctl.plan.vendor_quotes[0].lines[0].unit_price_cny == 66_000
    assert ctl.plan.vendor_quotes[0].document == "gamma-2.xlsx"


def test_a_bad_cell_names_file_sheet_row_and_column_and_changes_nothing(qtbot, monkeypatch, tmp_path, view, ctl,
                                                                         dialog_calls):
    bad = _xlsx(tmp_path / "bad.xlsx", [["型号", "数量", "含税单价"], ["AMD EPYC 7543", 2, "一万"]])
    monkeypatch.setattr(workers, "ask_open_paths", lambda *a: [bad])
    shown: list[str] = []
    monkeypatch.setattr(workers, "show_error", lambda _p, _t, text: shown.append(text))
    before = ctl.plan
    import_file(qtbot, view)
    assert shown and "bad.xlsx, sheet 'Sheet', row 2, column C (含税单价)" in shown[0]
    assert ctl.plan == before and "Nothing imported" in view.status_label.text()


# the offscreen test platform cannot raise a window (or propagate size hints); a desktop can
@pytest.mark.qt_log_ignore("This plugin does not support raise", "This plugin does not support propagateSizeHints")
def test_the_quote_page_opens_the_comparison_beside_it(qtbot, ctl):
    page = QuotePage(ctl)
    qtbot.addWidget(page)
    page.show()
    qtbot.mouseClick(page.compare_button, Qt.MouseButton.LeftButton)
    dialog = page.comparison
    assert dialog is not None and dialog.isVisible()
    assert "No vendor quote attached yet" in dialog.view.lowest_label.text()
    dialog.close()


def test_a_closed_comparison_costs_an_edit_nothing(qtbot, monkeypatch, ctl):
    from procurement.pricing import compare as core

    calls: list[int] = []
    real = core.compare
    monkeypatch.setattr(core, "compare", lambda *a, **k: calls.append(1) or real(*a, **k))
    view = VendorComparisonView(ctl)
    qtbot.addWidget(view)
    ctl.set_value("notes", "edited while the comparison is closed")
    assert calls == []  # the rules would run once per vendor on every edit
    view.show()
    qtbot.waitUntil(lambda: calls == [1])
    ctl.set_value("notes", "edited while it is shown")
    assert calls == [1, 1]


def test_a_vendors_vat_is_read_from_its_file_and_can_be_switched(qtbot, monkeypatch, tmp_path, view, ctl):
    """单价 with no word of VAT in the heading and '以上报价含税' under the lines: the dialog says what the file
    says and reads the prices as VAT-inclusive; the buyer who knows better switches this vendor to 不含税."""
    rows: list[list[object]] = [["序号", "型号", "数量", "单价"], [1, "AMD EPYC 7543", 2, 9_800],
                                [2, "M393A4K40EB3-CWE", 16, 1_035.4], ["以上报价含税"]]
    path = _xlsx(tmp_path / "vat.xlsx", rows)
    queue = [path, path]
    monkeypatch.setattr(workers, "ask_open_paths", lambda *a: [queue.pop(0)])

    def as_the_file_says(d: VendorQuoteDialog) -> None:
        assert d.price_import.vat_statement is True and "以上报价含税" in d.vat_note.text()
        assert d.vat.currentData() is None and len(d.proposals) == 2  # the note row is no line
        assert all(p.with_vat is True for p in d.proposals)
        fill(qtbot, d, "Delta", "D-1", "", "", "")

    monkeypatch.setattr(vendor_compare, "ask_vendor_quote", person(qtbot, as_the_file_says))
    import_file(qtbot, view)
    assert [x.with_vat for x in ctl.plan.vendor_quotes[0].lines] == [True, True]

    def switched(d: VendorQuoteDialog) -> None:
        d.vat.setCurrentIndex(d.vat.findData(False))
        d.vat.activated.emit(d.vat.currentIndex())  # what picking it from the list sends
        assert all(p.with_vat is False for p in d.proposals)
        fill(qtbot, d, "Delta", "D-2", "", "", "")

    monkeypatch.setattr(vendor_compare, "ask_vendor_quote", person(qtbot, switched))
    import_file(qtbot, view)
    assert [x.with_vat for x in ctl.plan.vendor_quotes[0].lines] == [False, False]


def test_the_dialog_takes_the_quotes_number_date_and_terms_from_the_file(qtbot, monkeypatch, tmp_path, view, ctl):
    rows: list[list[object]] = [["报价单号", "DL-7"], ["报价日期：2026-11-20"], ["型号", "数量", "含税单价"],
                                ["AMD EPYC 7543", 2, 9_800], ["交货期：现货"], ["付款方式：货到付款"]]
    path = _xlsx(tmp_path / "info.xlsx", rows)
    monkeypatch.setattr(workers, "ask_open_paths", lambda *a: [path])

    def confirm(d: VendorQuoteDialog) -> None:
        assert (d.number.text(), d.delivery.text(), d.payment.text()) == ("DL-7", "现货", "货到付款")
        assert d.date.date().toString("yyyy-MM-dd") == "2026-11-20" and len(d.proposals) == 1
        fill(qtbot, d, "Delta", "", "", "", "")

    monkeypatch.setattr(vendor_compare, "ask_vendor_quote", person(qtbot, confirm))
    import_file(qtbot, view)
    quote = ctl.plan.vendor_quotes[0]
    assert (quote.number, quote.date, quote.delivery, quote.payment_terms) == ("DL-7", dt.date(2026, 11, 20), "现货",
                                                                             "货到付款")

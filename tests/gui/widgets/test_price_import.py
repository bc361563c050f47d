"""Import prices… on the quote page: a vendor's XLSX read, its matches confirmed in the dialog, the plan priced
as one undoable edit; a bad file shown with its row and column and nothing changed."""

from __future__ import annotations

import datetime as dt

import openpyxl
import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QDialog

from gui import workers
from gui.controller import PlanController
from gui.pages.quote_view import QuotePage
from gui.widgets.price_import import PriceImportDialog
from procurement.plan import Plan

ROWS = [
    ["北京某科技有限公司 报价单"],
    [],
    ["序号", "品名", "型号", "数量", "含税单价", "金额"],
    [1, "GPU 卡", "RTX 4090 24G", 2, 14_500, 29_000],
    [2, "服务器准系统", "超微 AS-4124GS-TNR", 1, "¥68,000.00", 68_000],
    [3, "CPU", "AMD EPYC 7543 32核", 2, 11_300, 22_600],
    [4, "内存", "三星 M393A4K40EB3-CWE 32G", 16, 1_050, 16_800],
    [5, "安装调试", "上门安装", 1, 2_000, 2_000],
    ["合计", None, None, None, None, 138_400],
]


def _xlsx(path, rows):
    book = openpyxl.Workbook()
    for row in rows:
        book.active.append(row)
    book.save(path)
    return path


@pytest.fixture
def ctl(catalog, policy):
    plan = Plan.model_validate({
        "gpu": {"model": "rtx-4090", "count": 2},
        "server": {"chassis": "supermicro-as-4124gs-tnr", "cpu": "epyc-7543", "cpu_count": 2,
                   "memory": {"part": "samsung-ddr4-3200-rdimm-32gb", "count": 16}},
        "quote": {"vendor": {"name": "北京某科技"}},
    })
    ctl = PlanController(catalog, policy, lang="en")
    ctl.new(plan)
    return ctl


@pytest.fixture
def page(qtbot, ctl):
    page = QuotePage(ctl)
    qtbot.addWidget(page)
    yield page
    assert workers.wait_for_jobs(20_000)


def _person(qtbot, untick: tuple[str, ...] = ()):
    """Stands in for the modal dialog: shows the real one, unticks the lines whose part is named, presses
    Apply prices, and answers what the dialog answers."""
    seen: list[PriceImportDialog] = []

    def ask(parent, result):
        dialog = PriceImportDialog(result, parent)
        qtbot.addWidget(dialog)
        dialog.show()
        seen.append(dialog)
        for row in range(dialog.table.rowCount()):
            if dialog.table.item(row, 5).text().startswith(untick) and untick:
                rect = dialog.table.visualItemRect(dialog.table.item(row, 0))
                box = QPoint(rect.left() + 10, rect.center().y())  # the check box sits at the cell's left
                qtbot.mouseClick(dialog.table.viewport(), Qt.MouseButton.LeftButton, pos=box)
        qtbot.mouseClick(dialog.apply_button, Qt.MouseButton.LeftButton)
        return dialog.choice() if dialog.result() == QDialog.DialogCode.Accepted else None

    return ask, seen


def test_a_vendor_xlsx_imported_as_a_person_would_prices_the_plan_and_the_total(page, ctl, qtbot, tmp_path,
                                                                                monkeypatch):
    path = _xlsx(tmp_path / "报价单-BJ-2026-118.xlsx", ROWS)
    monkeypatch.setattr(workers, "ask_open_paths", lambda *_a: [path])
    ask, seen = _person(qtbot)
    monkeypatch.setattr(workers, "ask_price_import", ask)
    assert "not a final total" in page.totals_label.text()
    qtbot.mouseClick(page.import_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "epyc-7543" in ctl.plan.prices)
    dialog = seen[0]
    texts = [dialog.table.item(r, 6).text() for r in range(dialog.table.rowCount())]
    assert sum(t.startswith("exact") for t in texts) == 2 and sum(t.startswith("likely") for t in texts) == 2
    assert dialog.table.item(4, 2).text() == "安装调试 · 上门安装" and texts[4] == "extra line"
    prices = ctl.plan.prices
    assert {k: v.price_cny for k, v in prices.items()} == {
        "rtx-4090": 14_500, "supermicro-as-4124gs-tnr": 68_000, "epyc-7543": 11_300,
        "samsung-ddr4-3200-rdimm-32gb": 1_050}
    assert all(p.kind == "vendor_quote" and p.with_vat is True and p.date == dt.date.today()
               for p in prices.values())
    assert prices["epyc-7543"].source == "北京某科技 · 报价单-BJ-2026-118.xlsx"
    # every line priced, VAT-inclusive prices not taxed again: 29 000 + 68 000 + 22 600 + 16 800
    qtbot.waitUntil(lambda: "Total ¥136,400.00" in page.totals_label.text())
    assert "not a final total" not in page.totals_label.text()
    assert "4 prices imported" in page.status_label.text()
    ctl.undo_stack.undo()  # one edit: one undo takes every imported price back
    qtbot.waitUntil(lambda: ctl.plan.prices == {})
    assert "not a final total" in page.totals_label.text()


def test_a_line_the_buyer_unticks_stays_unpriced(page, ctl, qtbot, tmp_path, monkeypatch):
    path = _xlsx(tmp_path / "q.xlsx", ROWS)
    monkeypatch.setattr(workers, "ask_open_paths", lambda *_a: [path])
    ask, _ = _person(qtbot, untick=("AMD EPYC 7543",))
    monkeypatch.setattr(workers, "ask_price_import", ask)
    qtbot.mouseClick(page.import_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "rtx-4090" in ctl.plan.prices)
    assert "epyc-7543" not in ctl.plan.prices and len(ctl.plan.prices) == 3
    qtbot.waitUntil(lambda: "not a final total" in page.totals_label.text())


def test_a_bad_cell_is_shown_with_its_row_and_column_and_the_plan_keeps_its_prices(page, ctl, qtbot, tmp_path,
                                                                                  monkeypatch):
    rows = [list(r) for r in ROWS]
    rows[5][4] = "一万一"  # row 6, column E
    path = _xlsx(tmp_path / "bad.xlsx", rows)
    monkeypatch.setattr(workers, "ask_open_paths", lambda *_a: [path])
    errors: list[str] = []
    monkeypatch.setattr(workers, "show_error", lambda _p, _title, text: errors.append(text))
    monkeypatch.setattr(workers, "ask_price_import", lambda *_a: pytest.fail("no dialog for a bad file"))
    before = ctl.plan
    qtbot.mouseClick(page.import_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(errors))
    assert errors == ["bad.xlsx, sheet 'Sheet', row 6, column E (含税单价): '一万一' is not a number"]
    assert ctl.plan is before and "Nothing imported" in page.status_label.text()
    assert not ctl.undo_stack.canUndo()


def test_cancelling_the_file_dialog_reads_nothing(page, ctl, monkeypatch):
    monkeypatch.setattr(workers, "ask_open_paths", lambda *_a: [])
    assert page.import_prices() is None and ctl.plan.prices == {}


def test_a_long_company_list_lists_its_matches_and_only_the_first_extra_lines(qtbot, ctl, tmp_path):
    from procurement.pricing.import_prices import import_for_plan

    path = tmp_path / "list.csv"
    path.write_text("型号,单价\n" + "".join(f"X{i:05d},{100 + i}\n" for i in range(1_000)) + "rtx-4090,12999\n",
                    encoding="utf-8")
    result = import_for_plan(path, ctl.plan, ctl.catalog, kind="company")
    dialog = PriceImportDialog(result)
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.table.rowCount() == 1 + PriceImportDialog.EXTRAS_SHOWN
    assert dialog.table.item(0, 5).text() == "NVIDIA GeForce RTX 4090" and dialog.more.isVisible()
    assert dialog.kind.currentData() == "company" and dialog.checked_rows() == {1_002}

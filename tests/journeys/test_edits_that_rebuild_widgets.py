"""Edits that rebuild the widgets under the buyer's hands: several unit prices typed one after another into the
quote's table, a refused price followed by a good one, and Tab after a network-card row is removed. Each crashed
the whole app (a segmentation fault): the table was rebuilt inside its cell editor's commit, and the window's Tab
order kept the widgets of a removed row. Driven with real clicks and keys, in both languages."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QWidget

from tests.conftest import EXAMPLES
from tests.journeys.buyer import LEFT, Buyer

PLAN = EXAMPLES / "mid-size-training.gpuplan.yaml"


def _opened(make_window, qtbot, dialog_calls, tmp_path: Path, lang: str) -> Buyer:  # type: ignore[no-untyped-def]
    buyer = Buyer.start(make_window, qtbot, dialog_calls, tmp_path, lang)
    copy = tmp_path / PLAN.name  # never the shipped example: Ctrl+S would write it
    shutil.copy(PLAN, copy)
    buyer.open_plan(copy)
    return buyer


def _type_price(buyer: Buyer, row: int, text: str) -> None:
    """Click the row's unit-price cell and type the price (typing starts the cell's editor), then Enter."""
    table = buyer.win.page_at(6).table
    rect = table.visualRect(table.model().index(row, 4))
    QTest.mouseClick(table.viewport(), LEFT, pos=rect.center())
    buyer.settle()
    QTest.keyClicks(table.viewport(), text[0])  # the first key opens the editor with it
    buyer.settle()
    editor = QApplication.focusWidget()
    assert editor is not None and editor is not table and table.isAncestorOf(editor)
    QTest.keyClicks(editor, text[1:])
    QTest.keyClick(editor, Qt.Key.Key_Return)
    buyer.settle(60)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_three_unit_prices_typed_in_a_row_are_each_stored(make_window, qtbot, dialog_calls, tmp_path: Path,
                                                          lang: str) -> None:
    buyer = _opened(make_window, qtbot, dialog_calls, tmp_path, lang)
    page = buyer.keys_step(7)
    parts = list(page.row_parts)
    for row, price in ((0, "5000"), (1, "6000"), (2, "7000")):
        _type_price(buyer, row, price)
        qtbot.waitUntil(lambda r=row, p=price: buyer.win.controller.plan.prices.get(parts[r]) is not None
                        and buyer.win.controller.plan.prices[parts[r]].price_cny == float(p), timeout=5000)
    assert {parts[r]: buyer.win.controller.plan.prices[parts[r]].price_cny for r in range(3)} == {
        parts[0]: 5000.0, parts[1]: 6000.0, parts[2]: 7000.0}
    assert page.table.rowCount() == len(parts)  # the table is whole after its rebuilds
    # three undoable edits, undone one by one
    for _ in range(3):
        buyer.key(buyer.win, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier, "undo")
    qtbot.waitUntil(lambda: not any(p in buyer.win.controller.plan.prices for p in parts[:3]), timeout=5000)


def test_a_refused_price_then_a_good_one(make_window, qtbot, dialog_calls, tmp_path: Path) -> None:
    buyer = _opened(make_window, qtbot, dialog_calls, tmp_path, "en")
    page = buyer.keys_step(7)
    _type_price(buyer, 0, "abc")
    qtbot.waitUntil(lambda: "Not a price: abc" in page.status_label.text(), timeout=5000)
    assert page.row_parts[0] not in buyer.win.controller.plan.prices and page.table.rowCount() > 0
    _type_price(buyer, 0, "5000")
    qtbot.waitUntil(lambda: page.row_parts[0] in buyer.win.controller.plan.prices, timeout=5000)
    for _ in range(20):  # and Tab still walks the page
        buyer.key(QApplication.focusWidget() or buyer.win, Qt.Key.Key_Tab, what="Tab")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_tab_after_a_row_is_removed_moves_on(make_window, qtbot, dialog_calls, tmp_path: Path, lang: str) -> None:
    buyer = _opened(make_window, qtbot, dialog_calls, tmp_path, lang)
    page = buyer.keys_step(3)
    buyer.tab_to(page.cpu_combo)  # the window's Tab order is taken from the page
    nics = len(buyer.win.controller.plan.server.nics)
    remove = [w for w in page.nic_rows.rows[-1] if w is not None and w.isVisible()][-1]  # the row's × button
    buyer.click(remove, "remove the network card")
    qtbot.waitUntil(lambda: len(buyer.win.controller.plan.server.nics) == nics - 1, timeout=5000)
    seen: list[QWidget] = []
    for _ in range(40):
        buyer.key(QApplication.focusWidget() or buyer.win, Qt.Key.Key_Tab, what="Tab")
        focus = QApplication.focusWidget()
        assert focus is not None
        seen.append(focus)
    assert page.auto_button in seen or any(page.isAncestorOf(w) for w in seen)
    assert buyer.win.step_list in seen  # around the window and back

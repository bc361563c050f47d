"""Step 3 shows the money while the buyer configures: each chosen part's unit price with its kind and date, and a
running total that is the quote's total to the fen, "at least" while a part is unpriced, and no cost verdict
before a part is chosen."""

from __future__ import annotations

import datetime as dt

from PySide6.QtCore import Qt

from procurement.plan import EnteredPrice
from procurement.reports import build_quote
from tests.procurement.test_choices import llama_2_7b


def _quote_total(win) -> str:
    ctl = win.controller
    return f"¥{build_quote(ctl.plan, ctl.catalog, ctl.policy, lang=ctl.lang).total:,.2f}"


def _step3(win, qtbot):
    qtbot.keyClick(win, Qt.Key.Key_3, Qt.KeyboardModifier.ControlModifier)
    page = win.page("ServerPage")
    qtbot.waitUntil(lambda: page.isVisible())
    return page


def test_no_cost_verdict_before_a_part_is_chosen(qtbot, make_window) -> None:
    win = make_window()
    win.controller.set_value("requirements.budget_cny", 200_000.0)
    page = _step3(win, qtbot)
    qtbot.waitUntil(lambda: page.money_total.text() != "")
    assert page.money_total.text() == "No part chosen yet: nothing to add up."
    assert "budget" not in page.money_total.text() and page.money_parts.text() == ""


def test_running_total_is_the_quote_total_while_configuring(qtbot, make_window) -> None:
    win = make_window()
    ctl = win.controller
    ctl.new(llama_2_7b(workload="inference", budget_cny=50_000, deployment="office"))  # a personal box in China
    # step 2: the buyer double-clicks the RTX 4090 D row (the sizing's count for it comes with it)
    qtbot.keyClick(win, Qt.Key.Key_2, Qt.KeyboardModifier.ControlModifier)
    gpu_page = win.page("GpuPage")
    qtbot.waitUntil(lambda: gpu_page.isVisible() and gpu_page.table.rowCount() > 0)
    table = gpu_page.table
    row = gpu_page.visible_ids().index("rtx-4090-d")
    item = table.item(row, 1)
    table.scrollToItem(item)
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=table.visualItemRect(item).center())
    qtbot.mouseDClick(table.viewport(), Qt.MouseButton.LeftButton, pos=table.visualItemRect(item).center())
    assert (ctl.plan.gpu.model, ctl.plan.gpu.count) == ("rtx-4090-d", 1)

    page = _step3(win, qtbot)
    # only the GPUs so far: their price with its kind and date, and the quote's total, to the fen
    gpu = ctl.catalog.gpu("rtx-4090-d")
    qtbot.waitUntil(lambda: f"{gpu.name} × 1" in page.money_parts.text())
    assert "¥12,999.00 each incl. VAT" in page.money_parts.text()
    assert gpu.price_kind in page.money_parts.text() and "2023-12-28" in page.money_parts.text()
    assert page.money_total.text().startswith(f"Total incl. VAT: {_quote_total(win)}")
    assert _quote_total(win) == "¥12,999.00"  # the retail price includes VAT
    assert "within the budget of ¥50,000.00" in page.money_total.text()

    # Auto-configure fills the server: some parts have no public price, so the total is a lower bound
    qtbot.mouseClick(page.auto_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: ctl.plan.server.chassis is not None and ctl.evaluation is not None
                    and ctl.evaluation.plan is ctl.plan)
    quote = build_quote(ctl.plan, ctl.catalog, ctl.policy, lang=ctl.lang)
    assert quote.unpriced  # the shipped catalog has no price for every part
    qtbot.waitUntil(lambda: page.money_total.text().startswith("At least "))
    assert page.money_total.text().startswith(f"At least {_quote_total(win)} incl. VAT: {len(quote.unpriced)} part")
    assert "lower bound" in page.money_total.text() and "not known to be within" in page.money_total.text()
    assert page.money_parts.text().count("no price") == len(quote.unpriced)

    # the buyer has vendor prices for the unpriced parts: with every part priced it is the total
    prices = dict(ctl.plan.prices)
    for line in quote.unpriced:
        prices[line.part_id] = EnteredPrice(price_cny=1000, with_vat=False, kind="vendor_quote",
                                            date=dt.date(2026, 11, 2), source="Vendor A Q-1")
    ctl.replace_plan(ctl.plan.model_copy(update={"prices": prices}), "prices")
    qtbot.waitUntil(lambda: page.money_total.text().startswith("Total incl. VAT"))
    assert page.money_total.text().startswith(f"Total incl. VAT: {_quote_total(win)}")
    assert "vendor quote · 2026-11-02" in page.money_parts.text()
    assert "¥1,130.00 each incl. VAT" in page.money_parts.text()  # 1,000 + 13 % VAT, as the quote prints it

    # a keyboard change of the CPU: the total follows, still the quote's
    before = page.money_total.text()
    page.cpu_combo.setFocus()
    qtbot.waitUntil(page.cpu_combo.hasFocus)
    qtbot.keyClick(page.cpu_combo, Qt.Key.Key_Down)
    qtbot.waitUntil(lambda: page.money_total.text() != before)
    complete = build_quote(ctl.plan, ctl.catalog, ctl.policy, lang=ctl.lang).complete
    lead = "Total incl. VAT: " if complete else "At least "
    assert page.money_total.text().startswith(lead + _quote_total(win))

    # in Chinese, the same figure and the same label
    win.set_language("zh")
    lead = "含税合计：" if complete else "含税至少 "
    qtbot.waitUntil(lambda: page.money_total.text().startswith(lead + _quote_total(win)))
    assert page.money_box.title() == "当前费用"


def test_many_lines_of_one_part_show_as_one_row_and_the_total_adds_all(qtbot, make_window) -> None:
    """500 storage lines of one U.2 drive (the responsiveness test's plan): one row with the quantities added, not
    500 rich-text rows (0.4-0.6 s of layout per edit), and the total is still the quote's to the fen."""
    from tests.hardening.test_responsive import _quote_plan

    win = make_window()
    win.controller.new(_quote_plan(storage_lines=500, nodes=2))
    page = _step3(win, qtbot)
    drive = win.controller.catalog.get("storage", "samsung-pm9a3-3.84tb-u2")
    assert drive is not None
    qtbot.waitUntil(lambda: drive.name in page.money_parts.text())
    text = page.money_parts.text()
    assert text.count(drive.name) == 1 and f"{drive.name} × 1000" in text  # 500 lines × 1 drive × 2 servers
    assert text.count("<tr>") <= 2 * page.MONEY_ROWS + 1
    shown = page.money_total.text()
    assert _quote_total(win).removeprefix("¥") in shown

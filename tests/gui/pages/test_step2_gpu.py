"""Step 2 driven as a buyer would: sort the table, pick RTX 4090 by double-click, set 4 GPUs, compare."""

from __future__ import annotations

import html

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QAbstractItemView

from catalog.models import Gpu
from gui.pages.step2_gpu import COLUMNS, GPU_ROLE


def _row_of(table, gpu_id: str) -> int:
    return next(r for r in range(table.rowCount()) if table.item(r, 0).data(GPU_ROLE) == gpu_id)


def test_pick_four_rtx_4090(qtbot, make_window, catalog) -> None:
    win = make_window()
    qtbot.keyClick(win, Qt.Key.Key_2, Qt.KeyboardModifier.ControlModifier)
    page = win.pages[1]
    table = page.table
    assert table.rowCount() == len(catalog.all(Gpu))
    row = _row_of(table, "rtx-4090")
    rect = table.visualItemRect(table.item(row, COLUMNS.index("name")))
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    qtbot.mouseDClick(table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert win.controller.plan.gpu.model == "rtx-4090"
    assert win.controller.plan.gpu.count >= 1
    page.count_spin.selectAll()
    qtbot.keyClicks(page.count_spin, "4")
    assert (win.controller.plan.gpu.model, win.controller.plan.gpu.count) == ("rtx-4090", 4)
    gpu = catalog.gpu("rtx-4090")
    assert f"4 × {gpu.name} = {4 * gpu.memory_gib:,.0f} GiB" in page.summary.text()  # 4 × 24 = 96 GiB
    assert page.model_combo.currentData() == "rtx-4090"


def test_table_sorts_by_memory_numerically(qtbot, make_window, catalog) -> None:
    win = make_window()
    qtbot.mouseClick(win.next_button, Qt.MouseButton.LeftButton)
    table = win.pages[1].table
    assert table.rowCount() == len(catalog.all(Gpu))
    col = COLUMNS.index("memory")
    header = table.horizontalHeader()
    qtbot.mouseClick(header.viewport(), Qt.MouseButton.LeftButton,
                     pos=QPoint(header.sectionViewportPosition(col) + 5, 5))
    values = [float(table.item(r, col).text().replace(",", "")) for r in range(table.rowCount())]
    assert values == sorted(values) or values == sorted(values, reverse=True)
    assert values[0] != values[-1] or len(values) == 1


def test_compare_two_gpus_side_by_side(qtbot, make_window, catalog) -> None:
    gpus = sorted(catalog.all(Gpu), key=lambda g: g.id)[:2]
    win = make_window()
    page = win.pages[1]
    win.show_page(1)
    assert page.table.selectionMode() == QAbstractItemView.SelectionMode.ExtendedSelection
    for i, g in enumerate(gpus):
        rect = page.table.visualItemRect(page.table.item(_row_of(page.table, g.id), 1))
        mods = Qt.KeyboardModifier.ControlModifier if i else Qt.KeyboardModifier.NoModifier
        qtbot.mouseClick(page.table.viewport(), Qt.MouseButton.LeftButton, mods, rect.center())
    assert page.tabs.tabText(1) == "Compare (2)"
    bar = page.tabs.tabBar()
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(1).center())
    assert page.compare.isVisible() and page.compare.columnCount() == 2
    headers = {page.compare.horizontalHeaderItem(c).text() for c in range(2)}
    assert headers == {g.name for g in gpus}
    memory_row = next(r for r in range(page.compare.rowCount())
                      if page.compare.verticalHeaderItem(r).text() == "Memory")
    shown = {page.compare.item(memory_row, c).text() for c in range(2)}
    assert shown == {f"{g.memory_gib:,.0f} GiB {g.memory_type}" for g in gpus}
    assert not page.use_button.isEnabled()  # "use" needs exactly one row
    assert win.controller.plan.gpu.model is None  # comparing does not change the plan


# ---------------------------------------------------------------- ranking reasons, filters, cost sorting, compare
def _sized_example(win) -> None:
    """The mid-size example with a 13B fine-tune and a 40万元 budget: the ranking has estimates and prices."""
    from procurement.plan import load_plan, with_value
    from tests.conftest import REPO

    plan = load_plan(REPO / "resources" / "examples" / "mid-size-training.gpuplan.yaml", win.controller.catalog)
    for key, value in {"workload": "fine_tuning", "model_preset": "llama-2-13b", "model_params_b": 13,
                       "layers": 40, "hidden_size": 5120, "kv_heads": 40, "head_dim": 128, "batch_size": 4,
                       "budget_cny": 400_000}.items():
        plan = with_value(plan, f"requirements.{key}", value)
    win.controller.new(plan)
    win.controller.reevaluate()


def _visible_rows(table) -> list[int]:
    return [r for r in range(table.rowCount()) if not table.isRowHidden(r)]


def _click_header(qtbot, table, col: int) -> None:
    header = table.horizontalHeader()
    qtbot.mouseClick(header.viewport(), Qt.MouseButton.LeftButton,
                     pos=QPoint(header.sectionViewportPosition(col) + 5, 5))


def test_why_the_top_row_is_first_is_visible_without_selecting(qtbot, make_window) -> None:
    """The ranking rules were nowhere on screen and a row's reasons were cut off in a narrow column."""
    from gui.sizing_bridge import gpu_rows

    win = make_window()
    win.resize(1280, 800)
    _sized_example(win)
    win.show_page(1)
    page = win.page("GpuPage")
    ctl = win.controller
    top = gpu_rows(ctl.plan, ctl.catalog, ctl.policy, ctl.lang)[0]
    assert page.rank_rule.isVisible()
    assert page.rank_rule.text().startswith("Ranked by: holds the memory estimate")
    text = page.details.text()
    assert page.details.isVisible() and f"Why {top.gpu.name} is at the top (#1):" in text
    assert all(html.escape(r) in text for r in top.reasons)  # every reason, in full
    # select another row: its own reasons, and its rank
    second = page.table.visualItemRect(page.table.item(1, 1)).center()
    qtbot.mouseClick(page.table.viewport(), Qt.MouseButton.LeftButton, pos=second)
    other = next(r for r in page.rows if r.gpu.id == page.selected_ids()[0])
    assert f"Why {other.gpu.name} ranks #{other.rank}:" in page.details.text()


def test_filters_priced_only_form_factor_and_within_budget(qtbot, make_window, catalog) -> None:
    win = make_window()
    _sized_example(win)
    win.show_page(1)
    page = win.page("GpuPage")
    table = page.table
    total = table.rowCount()
    assert page.shown_label.text() == f"{total} of {total} GPUs shown"
    # priced only: a click on the check box (as a person would) hides every "on request" row
    qtbot.mouseClick(page.priced_only, Qt.MouseButton.LeftButton)
    priced = {g.id for g in catalog.all(Gpu) if g.price_cny is not None}
    assert set(page.visible_ids()) == priced and 0 < len(priced) < total
    assert page.shown_label.text() == f"{len(priced)} of {total} GPUs shown"
    qtbot.mouseClick(page.priced_only, Qt.MouseButton.LeftButton)
    # form factor: choose SXM with the keyboard in the combo
    page.form_combo.setFocus()
    sxm = page.form_combo.findData("sxm")
    while page.form_combo.currentIndex() != sxm:
        qtbot.keyClick(page.form_combo, Qt.Key.Key_Down)
    assert set(page.visible_ids()) == {g.id for g in catalog.all(Gpu) if g.form_factor.value == "sxm"}
    qtbot.keyClick(page.form_combo, Qt.Key.Key_Home)
    assert len(page.visible_ids()) == total
    # within budget: only GPUs known to be within (an unpriced one is not "within")
    assert page.within_budget.isEnabled()
    qtbot.mouseClick(page.within_budget, Qt.MouseButton.LeftButton)
    within = {r.gpu.id for r in page.rows if r.within_budget is True}
    assert set(page.visible_ids()) == within
    assert all(catalog.gpu(i).price_cny is not None for i in within)
    # no budget: the filter is off and says why
    win.controller.set_value("requirements.budget_cny", None)
    qtbot.waitUntil(lambda: not page.within_budget.isEnabled())
    assert not page.within_budget.isChecked() and len(page.visible_ids()) == total
    assert page.within_budget.toolTip() == "Set a budget in step 1 to filter by it"


@pytest.mark.parametrize("column", ["price", "per_gib", "per_tflops"])
def test_sort_by_cost_puts_unknown_prices_last_both_ways(qtbot, make_window, catalog, column) -> None:
    from gui.pages.step2_gpu import cost_per

    def key(g):
        return {"price": g.price_cny, "per_gib": cost_per(g.price_cny, g.memory_gib),
                "per_tflops": cost_per(g.price_cny, g.fp16_tensor_tflops)}[column]

    win = make_window()
    win.show_page(1)
    table = win.page("GpuPage").table
    col = COLUMNS.index(column)
    for order in ("ascending", "descending"):
        _click_header(qtbot, table, col)
        ids = [table.item(r, 0).data(GPU_ROLE) for r in range(table.rowCount())]
        values = [key(catalog.gpu(i)) for i in ids]
        known = [v for v in values if v is not None]
        assert known and len(known) < len(values)
        assert values[:len(known)] == known, f"{order}: an unknown price sorted among the known ones"
        assert known == sorted(known, reverse=order == "descending")
    g = catalog.gpu("rtx-4090")
    shown = table.item(next(r for r in range(table.rowCount()) if table.item(r, 0).data(GPU_ROLE) == g.id), col)
    assert shown.text() == f"{key(g):,.0f}"  # 12,999 / 24 GiB = 542 CNY per GiB; 12,999 / 165.2 = 79


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_compare_pane_shows_every_row_at_1280x800(qtbot, make_window, lang) -> None:
    """The comparison sat under a splitter two rows high at 1280 × 800; now it has the page's height."""
    win = make_window()
    win.resize(1280, 800)
    win.set_language(lang)
    _sized_example(win)
    win.show_page(1)
    page = win.page("GpuPage")
    table = page.table
    # keyboard only: into the table, then Shift+Down twice selects three rows
    table.setFocus()
    qtbot.waitUntil(table.hasFocus)
    qtbot.keyClick(table, Qt.Key.Key_Home, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClick(table, Qt.Key.Key_Down, Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClick(table, Qt.Key.Key_Down, Qt.KeyboardModifier.ShiftModifier)
    assert len(page.selected_ids()) == 3
    bar = page.tabs.tabBar()
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(1).center())
    compare = page.compare
    qtbot.waitUntil(compare.isVisible)
    assert compare.columnCount() == 3 and compare.rowCount() >= 12
    rows_h = sum(compare.rowHeight(r) for r in range(compare.rowCount()))
    assert rows_h <= compare.viewport().height(), "the comparison needs scrolling at 1280 × 800"
    assert not compare.verticalScrollBar().isVisible() and not compare.horizontalScrollBar().isVisible()
    assert page.window().height() <= 800


def test_sort_by_cost_with_the_keyboard(qtbot, make_window, catalog) -> None:
    """Column headings take no keyboard focus: "Sort by" gives the same sorts to the keyboard."""
    win = make_window()
    win.show_page(1)
    page = win.page("GpuPage")
    table = page.table
    page.sort_combo.setFocus()
    qtbot.waitUntil(page.sort_combo.hasFocus)
    qtbot.keyClick(page.sort_combo, Qt.Key.Key_Down)  # Rank → Price ↑
    assert page.sort_combo.currentText() == "Price ↑"
    prices = [catalog.gpu(table.item(r, 0).data(GPU_ROLE)).price_cny for r in range(table.rowCount())]
    known = [p for p in prices if p is not None]
    assert prices[:len(known)] == sorted(known) and len(known) < len(prices)  # unknown prices last
    page.sort_combo.setCurrentIndex(page.sort_combo.findData("fp16"))  # FP16 TFLOPS ↓: a descending sort
    fp16 = [catalog.gpu(table.item(r, 0).data(GPU_ROLE)).fp16_tensor_tflops for r in range(table.rowCount())]
    known = [v for v in fp16 if v is not None]
    assert fp16[:len(known)] == sorted(known, reverse=True) and len(known) < len(fp16)  # unknown still last
    qtbot.keyClick(page.sort_combo, Qt.Key.Key_Home)
    assert [table.item(r, 0).text() for r in range(3)] == ["1", "2", "3"]
    _click_header(qtbot, table, COLUMNS.index("name"))  # not a "Sort by" choice: shown blank
    assert page.sort_combo.currentIndex() == -1


def test_the_mig_layout_shows_in_the_summary(qtbot, make_window) -> None:
    win = make_window()
    qtbot.keyClick(win, Qt.Key.Key_2, Qt.KeyboardModifier.ControlModifier)
    page = win.pages[1]
    from procurement.plan import with_value

    plan = with_value(win.controller.plan, "requirements.needs_mig", True)
    plan = with_value(plan, "requirements.concurrent_users", 8)
    plan = with_value(plan, "gpu.model", "h100-sxm5-80gb")
    win.controller.replace_plan(with_value(plan, "gpu.count", 4), "MIG for eight users")
    qtbot.waitUntil(lambda: "each split into 3g.40gb + 3g.40gb" in page.summary.text())
    win.controller.replace_plan(with_value(win.controller.plan, "gpu.model", "a800-pcie-80gb"), "no MIG table")
    qtbot.waitUntil(lambda: "No MIG profile table for 'a800-pcie-80gb'" in page.summary.text())

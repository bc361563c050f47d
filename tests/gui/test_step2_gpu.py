"""Step 2 driven as a buyer would: sort the table, pick RTX 4090 by double-click, set 4 GPUs, compare."""

from __future__ import annotations

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
    assert page.compare.isVisible() and page.compare.columnCount() == 2
    headers = {page.compare.horizontalHeaderItem(c).text() for c in range(2)}
    assert headers == {g.name for g in gpus}
    memory_row = next(r for r in range(page.compare.rowCount())
                      if page.compare.verticalHeaderItem(r).text() == "Memory")
    shown = {page.compare.item(memory_row, c).text() for c in range(2)}
    assert shown == {f"{g.memory_gib:,.0f} GiB {g.memory_type}" for g in gpus}
    assert not page.use_button.isEnabled()  # "use" needs exactly one row
    assert win.controller.plan.gpu.model is None  # comparing does not change the plan

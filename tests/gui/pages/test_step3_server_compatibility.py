"""Step 3 lists only the parts that fit what is chosen; "Show incompatible parts" adds the rest with why (issue 26).

Driven as a person does: items are picked with the arrow keys in the focused list, the box is reached with
Shift+Tab and ticked with the space bar."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QApplication, QComboBox

from catalog.models import Chassis, Cpu, GpuFormFactor, MemoryModule

SP3_DDR4 = "supermicro-as-4124gs-tnr"



def _ids(combo: QComboBox) -> list[Any]:
    return [combo.itemData(i) for i in range(combo.count())]


def _pick(qtbot: Any, combo: QComboBox, part_id: str) -> None:
    """Focus the list and press Down (or Up) until the part is the current item, as a keyboard user does."""
    target = combo.findData(part_id)
    assert target >= 0, f"{part_id} is not offered"
    combo.setFocus()
    qtbot.waitUntil(combo.hasFocus)
    for _ in range(combo.count()):
        if combo.currentIndex() == target:
            break
        qtbot.keyClick(combo, Qt.Key.Key_Down if combo.currentIndex() < target else Qt.Key.Key_Up)
    assert combo.currentData() == part_id, combo.currentText()


def _tick_with_keyboard(qtbot: Any, page: Any) -> None:
    """Shift+Tab from the chassis list reaches the box (it reads before the lists it widens); Space ticks it."""
    page.chassis_combo.setFocus()
    qtbot.waitUntil(page.chassis_combo.hasFocus)
    qtbot.keyClick(page.chassis_combo, Qt.Key.Key_Backtab, Qt.KeyboardModifier.ShiftModifier)
    assert QApplication.focusWidget() is page.show_incompatible
    qtbot.keyClick(page.show_incompatible, Qt.Key.Key_Space)


def _errors(win: Any) -> list[str]:
    return [i.text(0) for i in win.findings_panel.finding_items()]


def test_an_sp3_board_offers_no_lga1700_cpu_until_asked_and_then_says_why(qtbot, make_window, catalog):
    win = make_window()
    ctl = win.controller
    ctl.set_value("gpu.model", "rtx-4090")  # step 2's choice
    ctl.set_value("gpu.count", 2)
    win.show_page(2)
    page = win.page("ServerPage")
    assert not page.show_incompatible.isChecked()
    assert page.show_incompatible.text() == "Show incompatible parts"
    # every CPU and module is offered while no chassis is chosen
    assert "core-i9-13900k" in _ids(page.cpu_combo)

    _pick(qtbot, page.chassis_combo, SP3_DDR4)
    offered = [catalog.typed(Cpu, i) for i in _ids(page.cpu_combo)[1:]]
    assert offered and all(c is not None and c.socket == "SP3" for c in offered), [c.id for c in offered if c]
    assert "core-i9-13900k" not in _ids(page.cpu_combo)
    modules = [catalog.typed(MemoryModule, i) for i in _ids(page.memory_combo)[1:]]
    assert modules and all(m is not None and m.memory_type == "DDR4" for m in modules)
    assert "kingston-fury-beast-ddr5-5600-32gb" not in _ids(page.memory_combo)

    _tick_with_keyboard(qtbot, page)
    assert page.show_incompatible.isChecked()
    assert ctl.plan.server.cpu is None, "the box changes what is listed, not the plan"
    index = page.cpu_combo.findData("core-i9-13900k")
    assert index >= 0
    assert page.cpu_combo.itemText(index) == "Intel Core i9-13900K — ✕ socket LGA1700; the chassis has SP3"
    tip = page.cpu_combo.itemData(index, Qt.ItemDataRole.ToolTipRole)
    assert tip.endswith("Does not fit what is chosen: socket LGA1700; the chassis has SP3")
    assert page.cpu_combo.itemData(index, Qt.ItemDataRole.ForegroundRole) == QColor("#757575")
    # the ones that fit come first, unmarked
    assert "✕" not in page.cpu_combo.itemText(1)
    kingston = page.memory_combo.findData("kingston-fury-beast-ddr5-5600-32gb")
    assert page.memory_combo.itemText(kingston).endswith("— ✕ DDR5; the platform takes DDR4")

    # choosing it anyway: the plan takes it and the findings say what the list said
    _pick(qtbot, page.cpu_combo, "core-i9-13900k")
    assert ctl.plan.server.cpu == "core-i9-13900k"
    qtbot.waitUntil(lambda: "PCIE-CPU-SOCKET" in {f.rule for f in ctl.findings})
    qtbot.waitUntil(lambda: any("uses socket LGA1700" in t and "SP3" in t for t in _errors(win)))

    # the box unticked: the plan's own CPU stays listed (marked), the other LGA1700 parts go
    qtbot.keyClick(page.show_incompatible, Qt.Key.Key_Space)
    assert not page.show_incompatible.isChecked()
    assert page.cpu_combo.currentData() == "core-i9-13900k"
    assert page.cpu_combo.currentText().startswith("Intel Core i9-13900K — ✕ socket LGA1700")
    assert "core-i9-14900k" not in _ids(page.cpu_combo)
    assert ctl.plan.server.cpu == "core-i9-13900k", "never silently changed"

    # in Chinese
    win.set_language("zh")
    qtbot.waitUntil(lambda: page.show_incompatible.text() == "显示不兼容的部件")
    assert page.cpu_combo.currentText() == "Intel Core i9-13900K —— ✕ 插槽 LGA1700，机箱为 SP3"


def test_pcie_gpus_are_not_offered_sxm_only_chassis(qtbot, make_window, catalog):
    win = make_window()
    ctl = win.controller
    ctl.set_value("gpu.model", "l40s")
    ctl.set_value("gpu.count", 4)
    win.show_page(2)
    page = win.page("ServerPage")
    listed = [catalog.typed(Chassis, i) for i in _ids(page.chassis_combo)[1:]]
    assert listed and all(c is not None and c.gpu_form_factor is GpuFormFactor.PCIE for c in listed)
    assert SP3_DDR4 in _ids(page.chassis_combo), "an unknown maximum card width does not hide it"
    page.show_incompatible.setFocus()
    qtbot.waitUntil(page.show_incompatible.hasFocus)
    qtbot.keyClick(page.show_incompatible, Qt.Key.Key_Space)
    dgx = page.chassis_combo.findData("nvidia-dgx-h100")
    assert page.chassis_combo.itemText(dgx) == ("NVIDIA DGX H100 (8U, 8x H100 SXM5) — ✕ takes SXM GPUs only; "
                                                "the GPU is PCIe")
    _pick(qtbot, page.chassis_combo, "nvidia-dgx-h100")
    qtbot.waitUntil(lambda: "PCIE-FORM-FACTOR" in {f.rule for f in ctl.findings})

"""Steps 1-2 with the live rules: a 13B fine-tune on 4 × RTX 4090 gets a VRAM error without any extra action,
and the estimate shown is the reference arithmetic."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from procurement.findings import Severity


def test_13b_finetune_on_four_4090s(qtbot, make_window, catalog) -> None:
    win = make_window()
    page1 = win.pages[0]
    page1.combos["workload"].setCurrentIndex(page1.combos["workload"].findText("Fine-tuning"))
    page1.combos["model_preset"].setCurrentIndex(page1.combos["model_preset"].findText("Llama 2 13B"))
    batch = page1.spins["batch_size"]
    batch.selectAll()
    qtbot.keyClicks(batch, "4")
    # Mixed precision + AdamW, 13.0 B params: 2 + 2 + 12 (fp32 master + moments) = 16 B/param = 208 GB of
    # model state; activations 40 layers × 2048 tokens × batch 4 × (18 × 5120 + 8 × 13,824 gated MLP) B =
    # 66.4 GB + logits 2048 × 4 × 32,000 × 20 B = 5.2 GB; the CUDA context 1.4 GB: 281 GB for the whole model
    # on one GPU, 338 GB with the 20 % margin
    qtbot.waitUntil(lambda: "281.3 GB" in page1.total_label.text())
    assert "whole model" in page1.total_label.text() and "337.6 GB" in page1.total_label.text()
    [whole] = page1.chart.bars
    assert [(s.key, round(s.value, 1)) for s in whole.segments] == [
        ("weights", 26.0), ("gradients", 26.0), ("optimizer", 156.2), ("activations", 71.7), ("overhead", 1.4)]

    qtbot.keyClick(win, Qt.Key.Key_2, Qt.KeyboardModifier.ControlModifier)
    page2 = win.pages[1]
    page2.model_combo.setCurrentIndex(page2.model_combo.findData("rtx-4090"))
    page2.count_spin.selectAll()
    qtbot.keyClicks(page2.count_spin, "4")
    assert (win.controller.plan.gpu.model, win.controller.plan.gpu.count) == ("rtx-4090", 4)

    # no layout of 4 × 24 GiB holds it on each GPU (memory is never summed): the VRAM rule reports an error
    qtbot.waitUntil(lambda: any(f.rule == "VRAM-TOTAL" for f in win.controller.findings))
    vram = next(f for f in win.controller.findings if f.rule == "VRAM-TOTAL")
    assert vram.severity == Severity.ERROR and "gpu.count" in vram.fields
    assert "Each GPU needs" in vram.message and "at least 16 of these GPUs" in vram.fix
    assert win.step_status(1) == "error"
    assert page2.count_spin.property("findingSeverity") == "error"
    assert vram.message in page2.count_spin.toolTip()
    # step 1 is hidden now, so it waits to be shown before it redraws (the window refreshes only what is seen)
    assert page1.stale
    win.show_page(0)
    assert not page1.stale
    # one stacked bar per GPU, each against ONE GPU's memory (24 GiB = 25.8 GB), not the 103 GB of four
    assert len(page1.chart.bars) == 4 and round(page1.chart.limit, 1) == 25.8
    assert "does not fit" in page1.total_label.text()

    # the buyer clicks the finding and lands on the count to fix it
    item = next(i for i in win.findings_panel.finding_items() if i.text(0).startswith(vram.message))
    win.findings_panel.tree.scrollToItem(item)
    rect = win.findings_panel.tree.visualItemRect(item)
    qtbot.mouseClick(win.findings_panel.tree.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert win.current_index() == 1
    qtbot.waitUntil(lambda: QApplication.focusWidget() is page2.count_spin)
    page2.count_spin.selectAll()
    qtbot.keyClicks(page2.count_spin, "16")  # split 16 ways each GPU's share fits its 25.8 GB
    qtbot.waitUntil(lambda: not any(f.rule == "VRAM-TOTAL" for f in win.controller.findings))
    assert page2.count_spin.property("findingSeverity") != "error"
    win.show_page(0)
    assert len(page1.chart.bars) == 16 and "PP" in page1.scheme_label.text()
    assert all(bar.total * 1.2 <= page1.chart.limit for bar in page1.chart.bars)
    # GeForce RTX 4090 has no peer-to-peer: tensor parallel over PCIe is flagged
    assert any(f.rule == "VRAM-TP-NO-P2P" for f in win.controller.findings) == ("TP" in page1.scheme_label.text())

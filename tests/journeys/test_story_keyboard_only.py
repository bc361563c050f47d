"""Story 5: the whole purchase with the keyboard alone — Ctrl+<n> to a step, Tab to a field, typing, arrow keys
in combos, Space on buttons, Enter on a table row, Ctrl+Z/Ctrl+Y, Ctrl+S — in zh and en. Not one mouse event
(the mouse functions are disabled for the run). Asserted: the saved plan, the quote PDF, `check --json`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from tests.journeys.buyer import Buyer, check_json, pdf_text

TITLE = {"zh": "键盘采购的推理服务器", "en": "Inference server bought by keyboard"}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_purchase_from_an_empty_plan_with_the_keyboard_alone(
        make_window, qtbot, dialog_calls, tmp_path: Path, catalog, monkeypatch, lang: str) -> None:
    def no_mouse(*_a: Any, **_k: Any) -> None:
        raise AssertionError("a mouse event in the keyboard-only story")

    buyer = Buyer.start(make_window, qtbot, dialog_calls, tmp_path, lang)
    win = buyer.win
    monkeypatch.setattr(QTest, "mouseClick", no_mouse)
    monkeypatch.setattr(QTest, "mouseDClick", no_mouse)

    p1 = buyer.keys_step(1)
    buyer.keys_type(p1.title_edit, TITLE[lang])
    buyer.keys_choose(p1.combos["workload"], "inference")
    buyer.keys_choose(p1.combos["deployment"], "lab")
    buyer.keys_type(p1.budget.spin, "120000")
    buyer.keys_choose(p1.combos["model_preset"], "llama-2-13b")
    req = win.controller.plan.requirements
    assert (req.workload, req.deployment, req.budget_cny, req.model_preset) == ("inference", "lab", 120_000,
                                                                               "llama-2-13b")
    assert win.controller.plan.title == TITLE[lang]
    # a slip undone and redone from the keyboard
    buyer.keys_type(p1.spins["nodes"], "3")
    assert win.controller.plan.requirements.nodes == 3
    buyer.key(win, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier, "undo")
    assert win.controller.plan.requirements.nodes == 1
    buyer.key(win, Qt.Key.Key_Y, Qt.KeyboardModifier.ControlModifier, "redo")
    assert win.controller.plan.requirements.nodes == 3
    buyer.key(win, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier, "undo")
    assert win.controller.plan.requirements.nodes == 1

    p2 = buyer.keys_step(2)
    qtbot.waitUntil(lambda: not p2.ranking_pending() and p2.table.rowCount() > 0, timeout=10_000)
    first = p2.visible_ids()[0]
    buyer.tab_to(p2.table)
    assert p2.table.currentRow() == 0 and not p2.selected_ids()  # Tab puts the cursor on the first row
    buyer.key(p2.table, Qt.Key.Key_Return, what="use the GPU")  # Enter uses the row under the cursor
    qtbot.waitUntil(lambda: win.controller.plan.gpu.model == first, timeout=5000)

    p3 = buyer.keys_step(3)
    buyer.keys_press(p3.auto_button)
    qtbot.waitUntil(lambda: win.controller.plan.server.chassis is not None, timeout=10_000)

    quote_page = buyer.keys_step(7)
    target = tmp_path / "quote.pdf"
    buyer.answer_worker("ask_export_path", target)
    buyer.keys_press(quote_page.export_button)
    qtbot.waitUntil(lambda: target.exists() and target.stat().st_size > 0, timeout=60_000)
    saved = buyer.save_as("keyboard.gpuplan.yaml")

    data = yaml.safe_load(saved.read_text(encoding="utf-8"))
    assert data["title"] == TITLE[lang] and data["gpu"]["model"] == first
    assert data["requirements"]["nodes"] == 1 and data["server"]["chassis"] == win.controller.plan.server.chassis
    text = pdf_text(target)
    assert TITLE[lang] in text
    rules = {f["rule"] for f in check_json(saved)}
    assert not rules & {"PCIE-FORM-FACTOR", "PCIE-CPU-SOCKET", "PCIE-DRIVE-FORM", "POWER-PSU-FORM"}, rules

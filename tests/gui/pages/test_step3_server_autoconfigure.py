"""Auto-configure on step 3 never replaces a part the buyer chose by hand without asking; both answers tested."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest

from gui.controller import PlanController
from gui.pages.step3_server import ServerPage


@pytest.fixture
def page(qtbot, catalog, policy):
    ctl = PlanController(catalog, policy, lang="en")
    ctl.set_value("gpu.model", "rtx-4090")
    ctl.set_value("gpu.count", 1)
    ctl.set_value("requirements.deployment", "datacenter")
    page = ServerPage(ctl)
    qtbot.addWidget(page)
    page.refresh_now()
    return page


def _choose_chassis_by_hand(page: ServerPage, part_id: str) -> None:
    combo = page.chassis_combo
    if combo.findData(part_id) < 0:
        # the 4U8G takes cards up to 2 slots wide, the RTX 4090 is 3: listed once the buyer asks for the rest
        QTest.mouseClick(page.show_incompatible, Qt.MouseButton.LeftButton,
                         pos=page.show_incompatible.rect().bottomLeft() + QPoint(8, -4))
    idx = combo.findData(part_id)
    assert idx >= 0
    combo.setCurrentIndex(idx)  # what picking it in the list does


def test_keep_mine_keeps_the_hand_chosen_chassis_and_builds_around_it(page, qtbot, dialog_calls, catalog):
    ctl = page.controller
    _choose_chassis_by_hand(page, "asrock-rack-4u8g-turin2")
    assert ctl.plan.server.chassis == "asrock-rack-4u8g-turin2" and ctl.plan.server.auto_chosen == []
    dialog_calls.answer("ask_replace_hand_chosen", False)
    qtbot.mouseClick(page.auto_button, Qt.MouseButton.LeftButton)
    (name, args), = dialog_calls.calls
    assert name == "ask_replace_hand_chosen"
    assert len(args[1]) == 1 and args[1][0].startswith("Chassis: ASRock Rack 4U8G") and " → " in args[1][0]
    srv = ctl.plan.server
    assert srv.chassis == "asrock-rack-4u8g-turin2", "the buyer's chassis stays"
    assert srv.cpu is not None and srv.psu.part is not None
    assert "chassis" not in srv.auto_chosen and {"cpu", "memory", "psu"} <= set(srv.auto_chosen)
    assert page.auto_label.text().startswith("Chassis: your choice, ")
    assert page.chassis_combo.currentData() == "asrock-rack-4u8g-turin2"


def test_replace_them_replaces_and_cancel_changes_nothing(page, qtbot, dialog_calls):
    ctl = page.controller
    _choose_chassis_by_hand(page, "asrock-rack-4u8g-turin2")
    before = ctl.plan
    depth = ctl.undo_stack.count()
    dialog_calls.answer("ask_replace_hand_chosen", None)
    qtbot.mouseClick(page.auto_button, Qt.MouseButton.LeftButton)
    assert ctl.plan == before and ctl.undo_stack.count() == depth, "cancel: nothing happens"
    dialog_calls.answer("ask_replace_hand_chosen", True)
    qtbot.mouseClick(page.auto_button, Qt.MouseButton.LeftButton)
    srv = ctl.plan.server
    assert srv.chassis != "asrock-rack-4u8g-turin2" and "chassis" in srv.auto_chosen
    assert ctl.undo_stack.count() == depth + 1
    # pressed again: everything is Auto-configure's now, so it asks nothing
    calls = len(dialog_calls.calls)
    qtbot.mouseClick(page.auto_button, Qt.MouseButton.LeftButton)
    assert len(dialog_calls.calls) == calls


def test_a_hand_edit_after_auto_configure_makes_the_part_the_buyers(page, qtbot, dialog_calls):
    ctl = page.controller
    qtbot.mouseClick(page.auto_button, Qt.MouseButton.LeftButton)  # blank server: nothing to ask
    assert dialog_calls.calls == [] and "memory" in ctl.plan.server.auto_chosen
    page.memory_count.setFocus()
    page.memory_count.selectAll()
    qtbot.keyClicks(page.memory_count, "4")
    assert ctl.plan.server.memory is not None and ctl.plan.server.memory.count == 4
    assert "memory" not in ctl.plan.server.auto_chosen
    dialog_calls.answer("ask_replace_hand_chosen", False)
    qtbot.mouseClick(page.auto_button, Qt.MouseButton.LeftButton)
    assert [n for n in dialog_calls.names()] == ["ask_replace_hand_chosen"]
    assert ctl.plan.server.memory is not None and ctl.plan.server.memory.count == 4, "kept"
    # keeping the buyer's memory left everything as it was: no edit to undo; Undo takes the hand edit back
    ctl.undo_stack.undo()
    assert "memory" in ctl.plan.server.auto_chosen and ctl.plan.server.memory.count != 4

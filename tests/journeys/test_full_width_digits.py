"""A Chinese input method in full-width mode commits '６６００００', not '660000': the number boxes take it as the
number it is (a plain Qt spin box dropped it without a word and the plan kept its old budget)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QInputMethodEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from tests.journeys.buyer import Buyer


def _commit(text: str) -> None:
    """What an input method does when the person picks the text: one commit into the focused line edit."""
    target = QApplication.focusWidget()
    assert target is not None
    event = QInputMethodEvent("", [])
    event.setCommitString(text)
    QApplication.sendEvent(target, event)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_full_width_digits_from_an_input_method_are_numbers(make_window, qtbot, dialog_calls, tmp_path,
                                                            lang: str) -> None:
    buyer = Buyer.start(make_window, qtbot, dialog_calls, tmp_path, lang)
    ctl = buyer.win.controller
    page = buyer.keys_step(1)
    buyer.tab_to(page.budget.spin)
    QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    _commit("６６００００")
    qtbot.waitUntil(lambda: ctl.plan.requirements.budget_cny == 660_000, timeout=3000)
    QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
    assert ctl.plan.requirements.budget_cny == 660_000
    assert "660,000" in page.budget.spin.text()
    # a grouped amount with the full-width comma, and a count on step 2
    buyer.tab_to(page.budget.spin)
    QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    _commit("１，２００，０００")
    qtbot.waitUntil(lambda: ctl.plan.requirements.budget_cny == 1_200_000, timeout=3000)
    gpu = buyer.keys_step(2)
    buyer.tab_to(gpu.count_spin)
    QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    _commit("８")
    qtbot.waitUntil(lambda: ctl.plan.gpu.count == 8, timeout=3000)

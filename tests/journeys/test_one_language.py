"""Each page speaks one language with real plurals: no "1 GPU(s)" in English, no English words in Chinese
labels where the page has its own words."""

from __future__ import annotations

import re

import pytest
from PySide6.QtWidgets import QLabel, QTableWidget

from gui.widgets.gauge import Gauge

PLURAL_HEDGE = re.compile(r"\w\(s\)")


def _texts(page) -> list[str]:
    texts = [w.text() for w in page.findChildren(QLabel) if w.isVisible()]
    texts += [w.text() for w in page.findChildren(Gauge) if w.isVisible()]
    for table in page.findChildren(QTableWidget):
        if table.isVisible():
            texts += [item.text() for r in range(table.rowCount()) for c in range(table.columnCount())
                      if (item := table.item(r, c)) is not None]
    return texts


@pytest.mark.parametrize("nodes", [1, 2])
def test_no_hedged_plurals_on_any_page(qtbot, make_window, nodes: int) -> None:
    from gui.screenshots import pick_example
    from procurement.plan import with_value

    win = make_window()
    win.resize(1280, 800)
    win.set_language("en")
    win.controller.new(with_value(pick_example(None), "requirements.nodes", nodes))
    checked = 0
    for i in range(len(win.pages)):
        win.show_page(i)
        page = win.pages[i]
        qtbot.waitUntil(page.isVisible)
        qtbot.waitUntil(lambda: not win.controller._eval_timer.isActive())
        for text in _texts(page):
            checked += 1
            assert not PLURAL_HEDGE.search(text), f"{type(page).__name__}: {text!r}"
    assert checked > 100


def test_auto_configure_explains_itself_in_the_language_of_the_moment(qtbot, make_window) -> None:
    """Auto-configure's explanation stayed English after switching to 中文."""
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    from procurement.plan import Plan

    win = make_window()
    win.set_language("en")
    win.controller.new(Plan.model_validate({"requirements": {"deployment": "datacenter"},
                                            "gpu": {"model": "a100-pcie-40gb", "count": 4}}))
    win.show_page(2)
    page = win.pages[2]
    qtbot.waitUntil(page.isVisible)
    QTest.mouseClick(page.auto_button, Qt.MouseButton.LeftButton)
    english = page.auto_label.text()
    assert english and not re.search(r"[\u4e00-\u9fff]", english)
    win.named_actions["lang_zh"].trigger()
    chinese = page.auto_label.text()
    assert chinese != english and re.search(r"[\u4e00-\u9fff]", chinese), chinese
    win.named_actions["lang_en"].trigger()
    assert page.auto_label.text() == english


def test_a_cards_memory_is_given_in_gb_and_gib_where_the_estimate_is_in_gb(qtbot, make_window) -> None:
    """Step 2's table says 40 (GiB) for an A100 40GB while step 1 said "每卡 43 GB": one card, two numbers."""
    from gui.screenshots import pick_example

    win = make_window()
    win.controller.new(pick_example(None))
    win.show_page(0)
    page = win.pages[0]
    qtbot.waitUntil(page.isVisible)
    qtbot.waitUntil(lambda: "GiB" in page.total_label.text())
    gpu = win.controller.catalog.gpu(win.controller.plan.gpu.model)
    assert f"({gpu.memory_gib:g} GiB)" in page.total_label.text()

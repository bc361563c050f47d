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

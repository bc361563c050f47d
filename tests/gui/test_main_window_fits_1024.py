"""The window fits a 1024×768 screen (a laptop or a projector in a meeting room): every step, in both languages,
with a plan that fills every page; what does not fit scrolls inside the window instead of pushing it wider."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSize, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QAbstractScrollArea, QApplication, QScrollArea, QWidget

from procurement.plan import load_plan
from tests.conftest import EXAMPLES

SCREEN = QSize(1024, 768)
FRAME = QSize(0, 48)
"""A title bar and a task bar take about this much of a 768-pixel screen (Windows 10/11 at 100 %: 31 + 40 px;
GNOME's top bar 32 px)."""

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")


def _ancestor_scrolls(widget: QWidget) -> list[QAbstractScrollArea]:
    found = []
    parent = widget.parentWidget()
    while parent is not None:
        if isinstance(parent, QAbstractScrollArea):
            found.append(parent)
        parent = parent.parentWidget()
    return found


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_step_fits_1024x768(qtbot, make_window, lang: str) -> None:
    win = make_window()
    win.named_actions[f"lang_{lang}"].trigger()
    win.controller.new(load_plan(EXAMPLES / "llm-cluster-node.gpuplan.yaml"))
    room = SCREEN - FRAME
    for index in range(len(win.pages)):
        win.show_page(index)
        QApplication.processEvents()
        hint = win.minimumSizeHint().expandedTo(win.minimumSize())
        assert hint.width() <= room.width() and hint.height() <= room.height(), (index, hint)
    win.resize(room)
    qtbot.waitUntil(lambda: win.size() == room)
    for index in range(len(win.pages)):
        win.show_page(index)
        QApplication.processEvents()
        assert win.size() == room, (index, win.size())  # showing a page did not grow the window


def test_a_field_far_down_or_right_is_scrolled_into_view_by_tab(qtbot, make_window) -> None:
    """A keyboard user at 1024×768 tabs to a control beyond the visible part of a page: it scrolls into view."""
    win = make_window()
    win.controller.new(load_plan(EXAMPLES / "llm-cluster-node.gpuplan.yaml"))
    room = SCREEN - FRAME
    win.resize(room)
    qtbot.waitUntil(lambda: win.size() == room)
    win.show_page(0)
    page = win.pages[0]
    first = page.combos["workload"]
    first.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.waitUntil(first.hasFocus)
    seen = 0
    for _ in range(60):
        QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
        widget = QApplication.focusWidget()
        if widget is None or widget.window() is not win:
            break
        if widget is win.back_button or widget is win.next_button:
            break
        for area in _ancestor_scrolls(widget):
            if not isinstance(area, QScrollArea) or area.widget() is None:
                continue
            view = area.viewport()
            centre = widget.mapTo(view, widget.rect().center())  # a field wider than the view shows its middle
            assert view.rect().contains(centre), (widget, area, centre, view.rect())
        seen += 1
    assert seen >= 10


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_at_1280x800_no_step_scrolls_the_window(qtbot, make_window, lang: str) -> None:
    """Where the window has room, the pages fit it: the window's scroll bars stay hidden (step 3 and step 5 had a
    vertical one: the stack took a page's height for its width, 757 px of wrapped text, as its least height)."""
    win = make_window()
    win.named_actions[f"lang_{lang}"].trigger()
    win.controller.new(load_plan(EXAMPLES / "llm-cluster-node.gpuplan.yaml"))
    win.resize(QSize(1280, 800))
    qtbot.waitUntil(lambda: win.size() == QSize(1280, 800))
    for index in range(len(win.pages)):
        win.show_page(index)
        QApplication.processEvents()
        bars = win.page_scroll.verticalScrollBar(), win.page_scroll.horizontalScrollBar()
        assert not any(bar.isVisible() for bar in bars), (index, [bar.maximum() for bar in bars])


def _revealed(widget: QWidget) -> bool:
    """Whether ``widget``'s centre is inside the view of every scroll area it sits in."""
    for area in _ancestor_scrolls(widget):
        if isinstance(area, QScrollArea) and area.widget() is not None:
            view = area.viewport()
            if not view.rect().contains(widget.mapTo(view, widget.rect().center())):
                return False
    return True


@pytest.mark.parametrize("path", ["signoffs.acceptance.name", "acceptance.contract", "server.storage.0.count",
                                  "quote.buyer.name"])
def test_a_finding_far_down_puts_its_field_on_screen_at_1024x768(qtbot, make_window, path: str) -> None:
    """Going to a finding's field at 1024×768 scrolls the field into view in the page and in the window: the
    cursor is not left in a field the buyer cannot see (the checklist's sign-off and contract fields sit below
    the fold; their page gave them focus without scrolling)."""
    win = make_window()
    win.controller.new(load_plan(EXAMPLES / "llm-cluster-node.gpuplan.yaml"))
    room = SCREEN - FRAME
    win.resize(room)
    qtbot.waitUntil(lambda: win.size() == room)
    owner = next(i for i, page in enumerate(win.pages) if page.focus_field(path))
    win.show_page(0)
    QApplication.processEvents()
    win.show_page(owner)
    assert win.pages[owner].focus_field(path)
    QApplication.processEvents()
    focused = QApplication.focusWidget()
    assert focused is not None and focused.window() is win
    assert _revealed(focused), (path, focused)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_at_1024x768_no_page_is_wider_than_the_window(qtbot, make_window, lang: str) -> None:
    """With the findings beside the page, every page fits the width that is left: the quote page was 662 px at
    least (its six buttons in one row, the cost-of-ownership form's long labels beside their fields) and its
    prices, totals and Export buttons lay behind a horizontal scroll bar; a long 'Saved …' message widened it
    further. Its line items keep room for the part names (the price headings break onto two lines)."""
    win = make_window()
    win.named_actions[f"lang_{lang}"].trigger()
    win.controller.new(load_plan(EXAMPLES / "mid-size-training.gpuplan.yaml"))
    room = SCREEN - FRAME
    win.resize(room)
    qtbot.waitUntil(lambda: win.size() == room)
    for index in range(len(win.pages)):
        win.show_page(index)
        QApplication.processEvents()
        bar = win.page_scroll.horizontalScrollBar()
        assert not bar.isVisible(), (index, bar.maximum())
    quote = win.page("QuotePage")
    win.show_page(win.pages.index(quote))
    quote.status_label.setText("Saved " + "/home/buyer/Documents/procurement/2026/" * 4 + "quote.pdf")
    QApplication.processEvents()
    assert not win.page_scroll.horizontalScrollBar().isVisible()
    view = win.page_scroll.viewport()
    for button in (quote.export_button, quote.print_button, quote.rfq_button):
        right = button.mapTo(view, button.rect().topRight())
        assert view.rect().contains(right), (button.text(), right, view.rect())
    header = quote.table.horizontalHeader()
    assert min(header.sectionSize(1), header.sectionSize(2)) >= 50, [header.sectionSize(c) for c in range(6)]

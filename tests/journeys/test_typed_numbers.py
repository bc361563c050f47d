"""Every number field stores exactly the digits a person types, in Chinese and English.

Typing 128500 into the budget stored 128,005 元: each keystroke went into the plan, the page wrote the value
back into the box, and Qt re-formatted it with a thousands separator, leaving the cursor one digit behind.
These tests type with real key events (never setValue) into every spin box of every page.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QAbstractSpinBox, QDoubleSpinBox, QScrollArea, QSpinBox, QWidget

from tests.clipboard import copied_elsewhere

CANDIDATES = (128_500, 32_768, 12_345, 4_321, 321, 21, 3)
"""Digit strings whose swap would show: each has no two equal neighbours at the end."""


def _example(win) -> None:
    from gui.screenshots import pick_example

    win.controller.new(pick_example(None))
    win.controller.undo_stack.setClean()


def _typed_value(box: QSpinBox | QDoubleSpinBox) -> int | None:
    for value in CANDIDATES:
        if box.minimum() <= value <= box.maximum() and value != box.value():
            return value
    return None


def _bound_paths(page) -> dict[int, str]:
    """id(spin box) → the plan field it edits (a money box binds its container)."""
    paths: dict[int, str] = {}
    for path, widget in page.markers._widgets.items():
        boxes = [widget] if isinstance(widget, QAbstractSpinBox) else widget.findChildren(QAbstractSpinBox)
        for box in boxes:
            paths[id(box)] = path
    return paths


def _scroll_into_view(box: QWidget) -> None:
    parent = box.parentWidget()
    while parent is not None:
        if isinstance(parent, QScrollArea):
            parent.ensureWidgetVisible(box)
        parent = parent.parentWidget()


def _type_into(qtbot, box: QWidget, text: str, where: str = "") -> None:
    line = box.lineEdit()  # type: ignore[attr-defined]
    QTest.mouseClick(line, Qt.MouseButton.LeftButton)
    assert box.hasFocus(), f"a click did not put the cursor into {where}"
    QTest.keyClick(line, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    QTest.keyClicks(line, text)
    QTest.keyClick(line, Qt.Key.Key_Tab)


def _editable_boxes(page) -> list[QSpinBox | QDoubleSpinBox]:
    return [b for b in page.findChildren(QAbstractSpinBox)
            if isinstance(b, (QSpinBox, QDoubleSpinBox)) and b.isVisible() and b.isEnabled() and not b.isReadOnly()]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_spin_box_stores_what_was_typed(qtbot, make_window, lang) -> None:
    win = make_window()
    win.resize(1280, 900)
    win.set_language(lang)
    _example(win)
    typed_into = 0
    bound = 0
    for index in range(len(win.pages)):
        win.show_page(index)
        page = win.pages[index]
        qtbot.waitUntil(page.isVisible)
        paths = _bound_paths(page)
        for box in _editable_boxes(page):
            value = _typed_value(box)
            if value is None:
                continue
            where = f"{type(page).__name__} {box.objectName() or type(box).__name__} ({lang})"
            # the evaluation after the last keystroke has run (the page's layout settles with it)
            qtbot.waitUntil(lambda: not win.controller._eval_timer.isActive())
            _scroll_into_view(box)
            _type_into(qtbot, box, str(value), where)
            assert box.value() == value, f"{where}: typed {value}, the box holds {box.value()}"
            typed_into += 1
            path = paths.get(id(box))
            if path is not None:
                stored = win.controller.value(path)
                assert stored == value, f"{where}: typed {value}, the plan stores {stored!r} at {path}"
                bound += 1
    # step 1 alone has some twenty number fields, step 3 the counts, the rack figures and the quote's terms
    assert typed_into >= 20, typed_into
    assert bound >= 15, bound


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("text", ["128500", "128,500"])
def test_budget_typed_with_or_without_separators(qtbot, make_window, lang, text) -> None:
    win = make_window()
    win.set_language(lang)
    win.show_page(0)
    page = win.pages[0]
    qtbot.waitUntil(page.isVisible)
    page.scroll_area.ensureWidgetVisible(page.budget)
    _type_into(qtbot, page.budget.spin, text)
    assert win.controller.plan.requirements.budget_cny == 128_500
    # what the box shows is what the plan holds: the locale's grouping, both languages write 128,500
    assert page.budget.spin.cleanText().replace(",", "") == "128500"


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_paste_into_a_number_field(qtbot, make_window, lang) -> None:
    win = make_window()
    win.set_language(lang)
    win.show_page(0)
    page = win.pages[0]
    qtbot.waitUntil(page.isVisible)
    box = page.spins["sequence_length"]
    page.scroll_area.ensureWidgetVisible(box)
    line = box.lineEdit()
    QTest.mouseClick(line, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(box.hasFocus)
    QTest.keyClick(line, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    copied_elsewhere("32,768")  # from a spreadsheet, with its thousands separator
    QTest.keyClick(line, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
    QTest.keyClick(line, Qt.Key.Key_Tab)
    assert win.controller.plan.requirements.sequence_length == 32_768

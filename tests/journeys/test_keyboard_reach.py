"""Every action on every page is reachable by keyboard: Tab, pressed as real key events, walks the window's
focus chain and visits each visible, enabled control of the page (buttons included: use the selected GPU,
sign-off, export, print); the menus' actions all have a key or sit in a menu the menu bar opens with Alt."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QHeaderView,
    QLineEdit,
    QPlainTextEdit,
    QTabBar,
    QTextEdit,
    QWidget,
)

from procurement.plan import load_plan
from tests.conftest import REPO

EXAMPLE = REPO / "resources" / "examples" / "llm-cluster-node.gpuplan.yaml"
CONTROLS = (QAbstractButton, QComboBox, QAbstractSpinBox, QLineEdit, QTextEdit, QPlainTextEdit,
            QAbstractItemView, QTabBar)


def _controls(page: QWidget) -> list[QWidget]:
    """What a person can act on: visible, enabled controls that accept focus (a spin box's or a combo's
    inner line edit counts as the box; a table's viewport as the table)."""
    out = []
    for w in page.findChildren(QWidget):
        if not isinstance(w, CONTROLS) or not w.isVisible() or not w.isEnabled():
            continue
        if isinstance(w, QLineEdit) and isinstance(w.parent(), (QAbstractSpinBox, QComboBox)):
            continue
        if isinstance(w, QHeaderView):
            continue  # a heading sorts by mouse; step 2's "Sort by" gives the same to the keyboard
        if w.focusPolicy() == Qt.FocusPolicy.NoFocus and isinstance(w, QAbstractButton) and \
                w.parent() is not None and type(w.parent()).__name__ in ("QTabBar", "QScrollBar", "QHeaderView"):
            continue  # a tab bar's scroll arrows: the tab bar takes the arrow keys
        out.append(w)
    return out


def _tab_walk(qtbot, win, limit: int = 400) -> list[QWidget]:
    """Press Tab from the step list until the focus comes back to it; the widgets that had the focus."""
    win.step_list.setFocus()
    qtbot.waitUntil(win.step_list.hasFocus)
    seen: list[QWidget] = []
    for _ in range(limit):
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
        focus = QApplication.focusWidget()
        if focus is win.step_list:
            return seen
        seen.append(focus)
    raise AssertionError(f"Tab never came back to the step list after {limit} presses")


def _reached(control: QWidget, visited: list[QWidget]) -> bool:
    return any(v is control or control.isAncestorOf(v) or (v.focusProxy() is control) for v in visited)


def _prepare(win, qtbot, index: int) -> None:
    """Bring each page to the state where its actions are enabled, by keyboard where it matters."""
    page = win.pages[index]
    name = type(page).__name__
    if name == "GpuPage":  # a row selected with the arrow keys enables "Use the selected GPU"
        page.table.setFocus()
        qtbot.keyClick(page.table, Qt.Key.Key_Home, Qt.KeyboardModifier.ControlModifier)
        qtbot.keyClick(page.table, Qt.Key.Key_Down)
        assert page.use_button.isEnabled()
    if name == "VerifyPage":
        from tests.gui.pages.test_step5_verify import _report

        page.attach([_report("node1", [16, 16]), _report("node2", [16, 16])], "import")


@pytest.mark.parametrize("index", range(7))
def test_tab_reaches_every_control_of_the_page(qtbot, make_window, index) -> None:
    win = make_window()
    win.resize(1280, 800)
    win.controller.new(load_plan(EXAMPLE, win.controller.catalog))
    win.controller.reevaluate()
    win.show_page(index)
    page = win.pages[index]
    qtbot.waitUntil(page.isVisible)
    _prepare(win, qtbot, index)
    controls = _controls(page)
    assert controls
    visited = _tab_walk(qtbot, win)
    missed = [f"{type(c).__name__} {c.objectName() or ''} {getattr(c, 'text', lambda: '')()!r}"
              for c in controls if not _reached(c, visited)]
    assert not missed, f"{type(page).__name__}: Tab never reaches {missed}"
    assert win.back_button in visited or index == 0
    assert win.next_button in visited or index == len(win.pages) - 1


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_menu_action_has_a_key_or_a_mnemonic(qtbot, make_window, lang) -> None:
    """Alt+letter opens each menu; inside it, each item needs its own underlined letter (unique per menu:
    File had Q for both Export quote and Quit, so Alt+F, Q never quit)."""
    win = make_window()
    win.set_language(lang)
    menus = [a.menu() for a in win.menuBar().actions()]
    stack = list(menus)
    while stack:
        menu = stack.pop()
        letters = []
        for act in menu.actions():
            if act.isSeparator():
                continue
            if act.menu() is not None:
                stack.append(act.menu())
            text = act.text().replace("&&", "")
            has_key = not act.shortcut().isEmpty()
            if "&" in text:
                letters.append(text[text.index("&") + 1].upper())
            elif not has_key and not text[:1].isdigit() and text not in ("中文", "English"):
                raise AssertionError(f"{menu.title()!r}: {act.text()!r} has neither a key nor a mnemonic")
        assert len(letters) == len(set(letters)), f"{menu.title()!r} repeats a mnemonic: {letters}"


def test_enter_on_a_gpu_row_uses_it(qtbot, make_window) -> None:
    """Keyboard only: into the GPU table, arrow to the second row, Enter; the plan takes that GPU."""
    from gui.pages.step2_gpu import GPU_ROLE

    win = make_window()
    qtbot.keyClick(win, Qt.Key.Key_2, Qt.KeyboardModifier.ControlModifier)
    page = win.page("GpuPage")
    table = page.table
    table.setFocus()
    qtbot.waitUntil(table.hasFocus)
    qtbot.keyClick(table, Qt.Key.Key_Home, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClick(table, Qt.Key.Key_Down)
    wanted = table.item(table.currentRow(), 0).data(GPU_ROLE)
    qtbot.keyClick(table, Qt.Key.Key_Return)
    assert win.controller.plan.gpu.model == wanted

"""Keyboard plumbing for the pages: Undo/Redo keys in a spin box go to the plan's undo stack, and Tab leaves
tables (arrows move within them)."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QKeyEvent, QKeySequence
from PySide6.QtWidgets import QAbstractItemView, QAbstractSpinBox, QWidget

_ROUTED = "_plan_undo_keys"


class PlanUndoKeys(QObject):
    """Event filter for spin boxes that write each value into the plan as it is typed.

    A spin box's line edit claims Undo/Redo for itself (it accepts the ShortcutOverride): its own undo set
    the previous text, which the page wrote back into the plan as a new, merged edit — Redo was lost and
    an undo entry that changed nothing was left. Declining the override lets the window's Undo/Redo
    actions (the plan's undo stack) take the keys; the page's refresh then shows the value."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # Qt override
        if event.type() == QEvent.Type.ShortcutOverride and isinstance(event, QKeyEvent) and (
                event.matches(QKeySequence.StandardKey.Undo) or event.matches(QKeySequence.StandardKey.Redo)):
            event.ignore()  # not ours: the shortcut map tries the window's actions next
            return True
        return False


_FILTER: PlanUndoKeys | None = None


def route_undo_to_plan(root: QWidget) -> None:
    """Install the filter on every spin box under ``root`` that does not have it yet (cheap to repeat)."""
    for spin in root.findChildren(QAbstractSpinBox):
        route_spin(spin)


def route_spin(spin: QAbstractSpinBox) -> None:
    """Install the filter on one spin box (a row a page adds after it was built: walking the page for new
    spin boxes at every refresh was 11 ms per edit on step 3 with 500 storage rows)."""
    global _FILTER
    if _FILTER is None:
        _FILTER = PlanUndoKeys()
    if not spin.property(_ROUTED):
        spin.installEventFilter(_FILTER)
        spin.setProperty(_ROUTED, True)


def tab_leaves_tables(root: QWidget) -> None:
    """Tab and Shift+Tab move to the next/previous control instead of cell to cell: with Qt's default a
    keyboard user could not get out of a table (800 presses stayed in the GPU table). Arrow keys still move
    within it, as in a spreadsheet."""
    for view in root.findChildren(QAbstractItemView):
        if view.tabKeyNavigation():
            view.setTabKeyNavigation(False)

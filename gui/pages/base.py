"""StepPage: the base of every page; it gets the PlanController and refreshes from the plan."""

from __future__ import annotations

from PySide6.QtCore import QSignalBlocker
from PySide6.QtWidgets import QWidget

from gui.controller import PlanController


class StepPage(QWidget):
    """A page of the main window. Subclasses build widgets in __init__, wire them in _connect_signals(),
    show the plan in refresh() and write user edits through self.controller.set_value(...)."""

    step: int = 0  # 1-5 for the five steps; 0 for the checklist and quote views

    def __init__(self, controller: PlanController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        controller.plan_changed.connect(self._refresh_blocked)

    def title(self) -> str:
        raise NotImplementedError

    def refresh(self) -> None:
        """Show the current plan in the widgets (called with the page's signals blocked)."""

    def focus_field(self, path: str) -> bool:
        """Give focus to the widget that edits plan field ``path``; False if this page has none."""
        return False

    def _refresh_blocked(self) -> None:
        blocker = QSignalBlocker(self)
        try:
            self.refresh()
        finally:
            blocker.unblock()

"""StepPage: the base of every page; it gets the PlanController and refreshes from the plan."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, QSignalBlocker
from PySide6.QtWidgets import QScrollArea, QWidget

from gui.controller import PlanController
from gui.widgets.field_marker import FieldMarkers
from procurement.plan import PlanError


class StepPage(QWidget):
    """A page of the main window.

    The pattern every page follows:
    - build widgets in ``__init__``, wire them in ``_connect_signals()``, then call ``self.retranslate()``
      and ``self.refresh()`` at the end of ``__init__``;
    - ``retranslate()`` sets every visible text through ``self.tr()``; the base calls it on LanguageChange;
    - ``refresh()`` shows the current plan (called after every plan change with ``self.refreshing`` True —
      slots must ignore widget signals while it is set, ``edit()`` does that for you);
    - user edits go through ``self.edit(path, value)`` (undoable, validated);
    - ``self.bind_field(path, widget)`` for every widget that edits a plan field: findings that name the
      field mark the widget (gui.widgets.field_marker.mark_field) and ``focus_field(path)`` finds it.
    """

    step: int = 0  # 1-5 for the five steps; 0 for the checklist and quote views

    def __init__(self, controller: PlanController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        self.markers = FieldMarkers()
        self.refreshing = False
        controller.plan_changed.connect(self._refresh_blocked)
        controller.findings_changed.connect(self.apply_findings)

    def title(self) -> str:
        raise NotImplementedError

    def retranslate(self) -> None:
        """Set every visible text again in the current language (labels, headers, combo items)."""

    def refresh(self) -> None:
        """Show the current plan in the widgets (called with ``self.refreshing`` set)."""

    # -- editing
    def edit(self, path: str, value: Any, merge: bool = False) -> bool:
        """Write a user edit into the plan (ignored while refreshing); False when the plan rejects it."""
        if self.refreshing:
            return False
        try:
            self.controller.set_value(path, value, merge=merge)
        except PlanError as exc:
            self.controller.error.emit(str(exc))
            return False
        return True

    # -- findings
    def bind_field(self, path: str, widget: QWidget) -> None:
        self.markers.bind(path, widget)

    def apply_findings(self) -> None:
        self.markers.apply(self.controller.findings)

    def focus_field(self, path: str) -> bool:
        """Give focus to the widget that edits plan field ``path``; False if this page has none."""
        widget = self.markers.widget_for(path)
        if widget is None:
            return False
        parent = widget.parentWidget()
        while parent is not None and parent is not self.window():
            if isinstance(parent, QScrollArea):
                parent.ensureWidgetVisible(widget)
                break
            parent = parent.parentWidget()
        (widget.focusProxy() or widget).setFocus()
        return True

    # -- plumbing
    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
            self._refresh_blocked()
        super().changeEvent(event)

    def _refresh_blocked(self) -> None:
        blocker = QSignalBlocker(self)
        self.refreshing = True
        try:
            self.refresh()
        finally:
            self.refreshing = False
            blocker.unblock()

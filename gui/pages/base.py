"""StepPage: the base of every page; it gets the PlanController and refreshes from the plan."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication, QEvent, QSignalBlocker, Qt
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import QBoxLayout, QLabel, QScrollArea, QStackedWidget, QWidget

from gui.pages import page_title, step_heading
from gui.safe_events import reported
from gui.widgets.field_marker import FieldMarkers
from gui.widgets.undo_keys import route_undo_to_plan, tab_leaves_tables

if TYPE_CHECKING:
    from gui.controller import PlanController


def scroll_into_view(widget: QWidget) -> None:
    """Scroll every scroll area ``widget`` sits in (a page's own, then the window's around the pages) so that it
    shows: at 1024×768 a field a finding or the Tab key goes to may be below the fold or right of it.

    A page just shown has its layouts still pending (its height is not yet what it will be): they are done first,
    or the area scrolls to where the widget was."""
    QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
    area = widget.parentWidget()
    while area is not None:
        if isinstance(area, QScrollArea):
            area.ensureWidgetVisible(widget)
        area = area.parentWidget()


def focus_on_screen(widget: QWidget, reason: Qt.FocusReason = Qt.FocusReason.OtherFocusReason) -> None:
    """Give ``widget`` (or its focus proxy) the keyboard focus and scroll it into view."""
    scroll_into_view(widget)
    (widget.focusProxy() or widget).setFocus(reason)


class StepPage(QWidget):
    """A page of the main window.

    The pattern every page follows:
    - build widgets in ``__init__``, wire them in ``_connect_signals()``, then call ``self.retranslate()``
      and ``self.refresh_now()`` at the end of ``__init__``;
    - ``retranslate()`` sets every visible text through ``self.tr()``; the base calls it on LanguageChange;
    - ``refresh()`` shows the current plan. The base calls it (with ``self.refreshing`` True — slots must
      ignore widget signals while it is set, ``edit()`` does that for you) after every plan change and
      language change, but only while the page is on screen: a page hidden behind another one in the
      window's stack is marked stale and refreshed when it is shown (``request_refresh()``);
    - user edits go through ``self.edit(path, value)`` (undoable, validated);
    - ``self.bind_field(path, widget)`` for every widget that edits a plan field: findings that name the
      field mark the widget (gui.widgets.field_marker.mark_field) and ``focus_field(path)`` finds it.
    """

    step: int = 0  # 1-5 for the five steps; 0 for the checklist and quote views
    follows_findings = False
    """True for a page that shows the findings too: it refreshes after each evaluation as well."""

    def __init__(self, controller: PlanController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        self.markers = FieldMarkers()
        self.refreshing = False
        self.stale = False
        self._keys_routed = False
        self.page_heading: QLabel | None = None
        controller.plan_changed.connect(self.request_refresh)
        if self.follows_findings:
            controller.findings_changed.connect(self.request_refresh)
        controller.findings_changed.connect(self.apply_findings)

    def title(self) -> str:
        return page_title(type(self).__name__, self.controller.lang)

    def add_heading(self, layout: QBoxLayout) -> None:
        """Put the page's heading ('Step 3 · Server configuration') at the top of ``layout``."""
        self.page_heading = QLabel(self)
        self.page_heading.setObjectName("pageHeading")
        layout.insertWidget(0, self.page_heading)
        self._set_heading()

    def _set_heading(self) -> None:
        if self.page_heading is None:
            return
        text = step_heading(self.step, self.controller.lang) if self.step else self.title()
        self.page_heading.setText(f"<h2>{text}</h2>")

    def retranslate(self) -> None:
        """Set every visible text again in the current language (labels, headers, combo items)."""

    def refresh(self) -> None:
        """Show the current plan in the widgets (called with ``self.refreshing`` set)."""

    # -- refreshing
    def on_screen(self) -> bool:
        """False while the page sits behind another page of the window's stack (then refreshing waits)."""
        parent = self.parentWidget()
        return not isinstance(parent, QStackedWidget) or parent.currentWidget() is self

    def request_refresh(self) -> None:
        """Refresh now if the page is on screen, else when it is next shown."""
        if self.on_screen():
            self.refresh_now()
        else:
            self.stale = True

    def when_on_screen(self, slot: Callable[[], object]) -> Callable[[], None]:
        """``slot`` for a signal that should update this page only while it is on screen; while it is hidden
        the page is marked stale instead (its ``refresh()`` must cover what ``slot`` does)."""
        def run() -> None:
            if self.on_screen():
                slot()
            else:
                self.stale = True
        return run

    def ensure_fresh(self) -> None:
        """Refresh if a change arrived while the page was hidden."""
        if self.stale:
            self.refresh_now()

    def refresh_now(self) -> None:
        blocker = QSignalBlocker(self)
        self.stale = False
        self.refreshing = True
        try:
            self.refresh()
        finally:
            self.refreshing = False
            blocker.unblock()
        if not self._keys_routed:
            # once, for the widgets the page built; a row added later routes its own spin box (route_spin):
            # these two walks of the whole page were 23 ms of each edit on step 3 with 500 storage rows
            self._keys_routed = True
            route_undo_to_plan(self)
            tab_leaves_tables(self)

    # -- editing
    def edit(self, path: str, value: Any, merge: bool = False) -> bool:
        """Write a user edit into the plan (ignored while refreshing); False when the plan rejects it."""
        from procurement.plan import PlanError

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
        self.markers.apply(self.controller.findings, self.controller.lang)

    def focus_field(self, path: str) -> bool:
        """Give focus to the widget that edits plan field ``path``; False if this page has none."""
        widget = self.markers.widget_for(path)
        if widget is None:
            return False
        focus_on_screen(widget)
        return True

    # -- plumbing
    def showEvent(self, event: QShowEvent) -> None:
        self.ensure_fresh()
        super().showEvent(event)

    @reported
    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
            self._set_heading()
            self.request_refresh()
        super().changeEvent(event)

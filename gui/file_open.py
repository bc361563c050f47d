"""Plans handed over by the operating system (macOS Finder, "Open with"), which arrive as QFileOpenEvent.

macOS does not put a double-clicked file on the command line: it starts the app and then sends the
application object a QFileOpenEvent, also for every later file opened while the app runs. A file that
arrives before the catalog is loaded waits, and is opened instead of offering the recovery copies.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QFileOpenEvent
from PySide6.QtWidgets import QApplication


class PlanOpener(QObject):
    """Keeps the files the OS asked to open until a window can open them, then opens each as it comes."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.pending: list[Path] = []
        self._open: Callable[[Path], object] | None = None

    def handle(self, event: QEvent) -> bool:
        """True when ``event`` was a file-open request (and was taken care of)."""
        if event.type() != QEvent.Type.FileOpen or not isinstance(event, QFileOpenEvent):
            return False
        name = event.file() or (event.url().toLocalFile() if event.url().isLocalFile() else "")
        if name:
            if self._open is None:
                self.pending.append(Path(name))
            else:
                self._open(Path(name))
        return True

    def ready(self, open_path: Callable[[Path], object]) -> Path | None:
        """The window can open plans now (``open_path``); returns the last file that came before, if any."""
        self._open = open_path
        waiting = self.pending[-1] if self.pending else None
        self.pending.clear()
        return waiting


class GpuProcureApp(QApplication):
    """The QApplication that passes file-open requests to its PlanOpener (an override, not an event filter:
    only events sent to the application object reach it, so no other event pays for the check)."""

    plan_opener: PlanOpener | None = None  # events arrive while __init__ runs (ChildAdded), before it is set

    def __init__(self, argv: list[str]) -> None:
        super().__init__(argv)
        self.plan_opener = PlanOpener(self)

    def event(self, e: QEvent) -> bool:
        opener = self.plan_opener
        if opener is not None and opener.handle(e):
            return True
        return super().event(e)


def plan_opener(app: QApplication) -> PlanOpener:
    """The app's PlanOpener (a QApplication made elsewhere, as in tests, gets one without the override)."""
    opener = getattr(app, "plan_opener", None)
    if not isinstance(opener, PlanOpener):
        opener = PlanOpener(app)
        setattr(app, "plan_opener", opener)  # noqa: B010 - a plain QApplication has no such attribute
    return opener

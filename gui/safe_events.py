"""Qt event handlers written in Python that never let an exception escape back into Qt."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from typing import Any, TypeVar

from PySide6.QtCore import QEvent

W = TypeVar("W")


def reported(handler: Callable[[W, QEvent], Any]) -> Callable[[W, QEvent], Any]:
    """Wrap an event handler override (changeEvent, …) so that an exception is reported, not raised.

    An exception leaving a Python override while Qt delivers posted events (a language switch sends every
    widget LanguageChange from inside Translators.install) crashed the app: PySide 6.11 segfaults in
    shiboken's storePythonOverrideErrorOrPrint. The exception goes to sys.excepthook instead — the app's log
    (procurement/applog.py) and, under pytest-qt, a failed test — and the other widgets still get the event.
    """

    @functools.wraps(handler)
    def guarded(self: W, event: QEvent) -> Any:
        try:
            return handler(self, event)
        except Exception:
            kind, exc, tb = sys.exc_info()
            assert kind is not None and exc is not None
            sys.excepthook(kind, exc, tb)
            return None

    return guarded

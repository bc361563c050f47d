"""The desktop app (PySide6): pages per step, widgets, and the controller that owns the current Plan."""

from gui.qt_compat import keep_none_alive

keep_none_alive()  # before any Qt call: PySide6 6.12 on CPython 3.11 drops None references (see qt_compat)

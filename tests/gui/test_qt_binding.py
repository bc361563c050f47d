"""The Qt binding in use must not leak references to None (PySide6 6.12.0 on Python 3.11 does, and aborts)."""

from __future__ import annotations

import sys

from PySide6.QtWidgets import QWidget


def test_void_calls_keep_none_alive(qtbot) -> None:  # type: ignore[no-untyped-def]
    widget = QWidget()
    qtbot.addWidget(widget)
    before = sys.getrefcount(None)
    for _ in range(5000):
        widget.setEnabled(True)  # returns None
        widget.parentWidget()  # returns None
    assert abs(sys.getrefcount(None) - before) < 100

"""What a person copied in another program (a spreadsheet cell), put on the clipboard for a test to paste."""

from __future__ import annotations

from PySide6.QtGui import QGuiApplication


def copied_elsewhere(text: str) -> None:
    """Plain text on the clipboard. (A QMimeData made in Python and handed to the clipboard crashed the
    interpreter at exit, after every test had passed: the clipboard and Python both freed it.)"""
    QGuiApplication.clipboard().setText(text)

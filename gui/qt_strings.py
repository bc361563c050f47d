"""Strings of Qt's own dialogs that Qt's shipped Chinese catalogue (qtbase_zh_CN) lacks, for lupdate.

Qt 6 gave two labels of its file dialog mnemonics ("&Look in:", "Files of &type:"); qtbase_zh_CN still has
only the old texts, so the Chinese UI showed them in English. Listing them here puts them, in Qt's own
context, into the app's widget catalogue (resources/locale/<lang>/LC_MESSAGES/gui.po), which the app
installs after Qt's and so is searched first. tests/journeys/test_desktop_defects.py reads the dialog's labels
in Chinese.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication


def missing_from_qtbase() -> tuple[str, ...]:
    """The texts, translated (only lupdate needs this function; nothing calls it at run time)."""
    translate = QCoreApplication.translate
    return (translate("QFileDialog", "&Look in:"), translate("QFileDialog", "Files of &type:"))

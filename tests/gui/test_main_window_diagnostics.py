"""Help → Copy diagnostics: the versions, platform, catalog and the last log lines on the clipboard."""

from __future__ import annotations

import logging
import re
import sys
from pathlib import Path

from PySide6 import __version__ as pyside_version
from PySide6.QtCore import qVersion
from PySide6.QtGui import QGuiApplication

from procurement import __version__, applog


def test_copy_diagnostics_from_the_help_menu(qtbot, make_window, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr("faulthandler.is_enabled", lambda: True)  # leave pytest's own faulthandler alone
    applog.setup_logging(directory=tmp_path / "log")
    try:
        logging.getLogger("gui.test").warning("the step 3 gauge looked wrong")
        win = make_window()
        action = win.named_actions["copy_diagnostics"]
        assert action in win.help_menu.actions() and action.text()
        action.trigger()
        text = QGuiApplication.clipboard().text()
    finally:
        applog.stop_logging()
    assert re.search(rf"^gpu-procure +{re.escape(__version__)}$", text, re.M)
    assert qVersion() in text and pyside_version in text and sys.version.split()[0] in text
    assert "parts, prices dated up to 20" in text
    assert "plan file" in text and "not saved" in text
    assert text.rstrip().endswith("WARNING gui.test: the step 3 gauge looked wrong")
    assert win.statusBar().currentMessage()


def test_diagnostics_action_is_translated(qtbot, make_window) -> None:
    win = make_window()
    win.set_language("zh")
    assert win.named_actions["copy_diagnostics"].text() == "复制诊断信息(&D)"

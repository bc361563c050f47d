"""The app's icon and desktop id, so the window, the taskbar and the .desktop entry all agree."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from PySide6.QtGui import QIcon

# The reverse-DNS id: the .desktop file's name, the AppStream id, the icon name and the MIME package name.
DESKTOP_ID = "io.github.gpuprocure.GpuProcure"


def icon_path() -> Path:
    """The app icon's SVG inside the installed (or frozen) resources package."""
    return Path(str(resources.files("resources") / "icons" / f"{DESKTOP_ID}.svg"))


def app_icon() -> QIcon:
    """The icon for QApplication.setWindowIcon: the desktop theme's copy if installed, else the shipped SVG.

    Call after the QApplication exists, together with QGuiApplication.setDesktopFileName(DESKTOP_ID), which
    lets Wayland compositors and taskbars match the window to the installed .desktop entry and its icon.
    """
    fallback = QIcon(str(icon_path()))
    return QIcon.fromTheme(DESKTOP_ID, fallback)

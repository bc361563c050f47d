"""What the PyInstaller bundle carries besides code: data files and the app's modules (no PyInstaller import).

The spec and tests/packaging both use it, so a test can check the bundle's inputs without running a build.
"""

from __future__ import annotations

from pathlib import Path

# Packages whose non-code files are loaded at run time with importlib.resources.
DATA_PACKAGES = ("catalog", "procurement", "gui", "resources")
# Suffixes of run-time data: catalog and policy YAML, example plans, built translations, icons, fonts, JSON.
DATA_SUFFIXES = {".yaml", ".yml", ".json", ".qm", ".svg", ".png", ".ttf", ".ttc", ".otf"}
# Developer tools inside gui/ that the app never imports.
DEV_MODULES = {"gui.screenshots", "gui.i18n_build"}

# PySide6 (Essentials + Pdf) modules the app does not use. Each would bring its Qt libraries and plugins.
QT_EXCLUDES = ["PySide6." + name for name in """
    QtNetwork QtQml QtQmlFeatures QtQuick QtQuickControls2 QtQuickTest QtQuickWidgets QtSql QtTest
    QtDesigner QtHelp QtUiTools QtXml QtConcurrent QtDBus QtOpenGL QtOpenGLWidgets QtLabsStyleKit
""".split()] + [
    # PySide6-Addons modules, in case a build environment has them installed:
    "PySide6." + name for name in """
    QtWebEngineCore QtWebEngineWidgets QtWebEngineQuick QtWebChannel QtWebSockets Qt3DCore
    Qt3DRender Qt3DInput Qt3DLogic Qt3DExtras Qt3DAnimation QtMultimedia QtMultimediaWidgets
    QtSpatialAudio QtTextToSpeech QtBluetooth QtNfc QtPositioning QtLocation QtSensors QtSerialPort
    QtSerialBus QtCharts QtDataVisualization QtGraphs QtGraphsWidgets QtQuick3D QtRemoteObjects
    QtScxml QtStateMachine QtHttpServer QtNetworkAuth QtAxContainer
""".split()]
# The Qt modules the app keeps (imported explicitly, so they are bundled even before a page imports them).
QT_KEEP = ["PySide6.QtCore", "PySide6.QtGui", "PySide6.QtWidgets", "PySide6.QtSvg", "PySide6.QtPdf",
           "PySide6.QtPdfWidgets", "PySide6.QtPrintSupport"]
# Python packages that are only for tests and development, or not used at all.
PY_EXCLUDES = ["tkinter", "_tkinter", "pytest", "_pytest", "pytestqt", "hypothesis", "pypdf", "mypy", "ruff",
               "importlinter", "IPython", "matplotlib", "numpy", "pandas", "PyQt5", "PyQt6", "tests"]


def _skip(path: Path) -> bool:
    return "__pycache__" in path.parts or any(p.startswith(".") for p in path.parts)


def data_files(repo: Path) -> list[tuple[str, str]]:
    """(source file, destination folder) pairs for PyInstaller's `datas`, one per data file."""
    pairs: list[tuple[str, str]] = []
    for package in DATA_PACKAGES:
        root = repo / package
        if not root.is_dir():
            continue
        for path in sorted(root.rglob("*")):
            rel = path.relative_to(repo)
            if path.is_file() and path.suffix.lower() in DATA_SUFFIXES and not _skip(rel):
                pairs.append((str(path), str(rel.parent)))
    return pairs


def app_modules(repo: Path) -> list[str]:
    """Every module of the app, so that modules loaded by name (importlib) are bundled too."""
    names: list[str] = []
    for package in ("catalog", "procurement", "gui", "resources"):
        for path in sorted((repo / package).rglob("*.py")):
            rel = path.relative_to(repo)
            if _skip(rel):
                continue
            parts = list(rel.with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            name = ".".join(parts)
            if name not in DEV_MODULES:
                names.append(name)
    return names

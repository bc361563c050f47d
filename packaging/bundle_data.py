"""What the PyInstaller bundle carries besides code: data files and the app's modules (no PyInstaller import).

The spec and tests/packaging both use it, so a test can check the bundle's inputs without running a build.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Callable, Iterable
from pathlib import Path

# Packages whose non-code files are loaded at run time with importlib.resources.
DATA_PACKAGES = ("catalog", "procurement", "gui", "resources")
# Suffixes of run-time data: catalog and policy YAML, example plans, built translations, icons, fonts, JSON,
# and the user guide (resources/help/*.md, shown by Help ▸ User guide).
DATA_SUFFIXES = {".yaml", ".yml", ".json", ".mo", ".qm", ".svg", ".png", ".ttf", ".ttc", ".otf", ".md"}
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
# readline and gdbm link GNU Readline / GDBM, which are GPL-only (the bundle's licence check refuses them): the
# app needs neither (no interactive prompt, no dbm files).
PY_EXCLUDES = ["readline", "rlcompleter", "_gdbm", "dbm.gnu", "tkinter", "_tkinter", "pytest",
               "_pytest", "pytestqt", "hypothesis", "pypdf", "mypy", "ruff",
               "importlinter", "IPython", "matplotlib", "numpy", "pandas", "PyQt5", "PyQt6", "tests",
               # pydantic's pretty_print_core_schema(), a developer helper the app never calls, imports rich
               # (and rich pygments and markdown-it): 430 files the bundle does not need.
               "rich", "pygments", "markdown_it", "mdurl"]


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


# Qt plugins whose libraries belong to the target desktop, not to the bundle: the GTK 3 platform theme (libgtk-3
# is never bundled, so the plugin only loads where GTK 3 is installed, and with it pango, cairo, gio…) and CUPS
# printing (the system's libcups with its TLS and Kerberos stack). The bundle keeps the two plugins and leaves
# the libraries that only they need to the target system.
TARGET_PLUGINS = ("libqgtk3.so", "libcupsprintersupport.so")
_NEEDED = re.compile(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]")


def elf_needed(path: str) -> list[str]:
    """The DT_NEEDED entries of an ELF file (readelf; [] where it is missing or the file is not ELF)."""
    if shutil.which("readelf") is None:
        return []
    proc = subprocess.run(["readelf", "-d", path], capture_output=True, text=True, timeout=60)
    return _NEEDED.findall(proc.stdout) if proc.returncode == 0 else []


def libraries_only_for(binaries: Iterable[tuple[str, str]], plugins: Iterable[str] = TARGET_PLUGINS,
                       needed: Callable[[str], list[str]] = elf_needed) -> set[str]:
    """Top-level dependency libraries (destination without a folder) reachable only from ``plugins``.

    Roots are everything else the bundle ships in a package folder (Qt libraries, extension modules, other
    plugins) plus libpython; whatever they need, directly or not, stays.
    """
    entries = [(dest, src) for dest, src in binaries]
    top = {dest: src for dest, src in entries if "/" not in dest.replace("\\", "/")}
    cut = tuple(plugins)
    roots = [src for dest, src in entries
             if ("/" in dest.replace("\\", "/") and not Path(dest).name.startswith(cut))
             or Path(dest).name.startswith("libpython")]
    keep: set[str] = set()
    stack = list(roots)
    seen_src: set[str] = set()
    while stack:
        src = stack.pop()
        if src in seen_src:
            continue
        seen_src.add(src)
        for name in needed(src):
            if name in top and name not in keep:
                keep.add(name)
                stack.append(top[name])
    return {name for name in top if name not in keep and not name.startswith("libpython")}

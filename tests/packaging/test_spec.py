"""The PyInstaller spec's inputs: data files exist, runtime data included, no Qt module in use excluded."""

from __future__ import annotations

import re

import bundle_data

from tests.conftest import REPO
from tests.packaging.conftest import PACKAGING

SPEC = PACKAGING / "gpu-procure.spec"


def test_spec_compiles_and_builds_the_launcher() -> None:
    text = SPEC.read_text(encoding="utf-8")
    compile(text, str(SPEC), "exec")
    assert '"gui" / "launch.py"' in text and (REPO / "gui" / "launch.py").is_file()
    assert "upx=True" not in text and text.count("upx=False") >= 2
    assert "data_files(REPO)" in text and "QT_EXCLUDES" in text


def test_every_data_file_exists_and_lands_in_its_package() -> None:
    pairs = bundle_data.data_files(REPO)
    assert pairs
    for src, dest in pairs:
        rel = (REPO / dest).relative_to(REPO)
        assert (REPO / src).is_file() and (REPO / src).parent == REPO / rel
        assert not src.endswith((".py", ".ts")) and "__pycache__" not in src
    dests = {(REPO / s).relative_to(REPO).as_posix() for s, _ in pairs}
    assert "resources/policy/default.yaml" in dests
    assert f"resources/icons/{bundle_data_id()}.svg" in dests


def bundle_data_id() -> str:
    import make_icons

    return make_icons.DESKTOP_ID


def test_runtime_data_directories_are_bundled_whole() -> None:
    dests = {(REPO / s).relative_to(REPO).as_posix() for s, _ in bundle_data.data_files(REPO)}
    for folder, pattern in (("catalog/data", "*.yaml"), ("resources/examples", "*.gpuplan.yaml"),
                            ("resources/locale", "*.qm"), ("resources/locale", "*.mo"),
                            ("resources/fonts", "*.tt?")):
        shipped = {p.relative_to(REPO).as_posix() for p in (REPO / folder).rglob(pattern)}
        assert shipped <= dests, sorted(shipped - dests)


def test_app_modules_are_listed_by_name() -> None:
    names = bundle_data.app_modules(REPO)
    assert {"gui.launch", "procurement.commands.cli", "catalog.loader", "gui.icon"} <= set(names)
    assert not set(names) & bundle_data.DEV_MODULES


def test_no_qt_module_the_app_imports_is_excluded() -> None:
    used: set[str] = set()
    for path in REPO.glob("gui/**/*.py"):
        text = path.read_text(encoding="utf-8")
        used |= {"PySide6." + m for m in re.findall(r"PySide6\.(Qt\w+)", text)}
        used |= {"PySide6." + m for line in re.findall(r"from PySide6 import ([\w, ()]+)", text)
                 for m in re.findall(r"Qt\w+", line)}
    assert {"PySide6.QtCore", "PySide6.QtWidgets"} <= used
    excluded = used & set(bundle_data.QT_EXCLUDES)
    assert not excluded, f"gui/ imports {sorted(excluded)}: remove them from QT_EXCLUDES in bundle_data.py"
    assert not set(bundle_data.QT_KEEP) & set(bundle_data.QT_EXCLUDES)

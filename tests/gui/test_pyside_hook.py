"""gui/pyside_hook.py answers PySide6's "does this module use PySide6?" as PySide6 does, from the file's bytes."""

from __future__ import annotations

import importlib
import inspect
import sys
import types

import gui.pyside_hook as hook

MODULES = ("gui.main_window", "gui.controller", "gui.app", "procurement.plan", "catalog.loader", "json",
           "procurement.rules", "gui.pyside_hook")


def _pyside_answer(module: types.ModuleType) -> bool:  # PySide6's own test (shibokensupport/feature.py)
    try:
        return "PySide6" in inspect.getsource(module)
    except (TypeError, OSError, SyntaxError):
        return False


def test_the_quick_check_gives_pysides_answer() -> None:
    def unused(_module: types.ModuleType) -> bool:
        raise AssertionError("a .py module is read from its file")

    for name in MODULES:
        module = importlib.import_module(name)
        assert hook.uses_pyside(module, unused) == _pyside_answer(module), name
    assert hook.uses_pyside(importlib.import_module("gui.main_window"), unused)
    assert not hook.uses_pyside(importlib.import_module("procurement.plan"), unused)


def test_modules_without_a_source_file_go_to_pyside() -> None:
    asked: list[str] = []

    def original(module: types.ModuleType) -> bool:
        asked.append(module.__name__)
        return False

    assert not hook.uses_pyside(sys, original)  # built in
    assert not hook.uses_pyside(importlib.import_module("_json"), original)  # compiled
    gone = types.ModuleType("gone")
    gone.__file__ = "/nonexistent/gone.py"
    assert not hook.uses_pyside(gone, original)
    assert asked == ["sys", "_json", "gone"]


def test_installed_in_place_of_pysides_check_once() -> None:
    feature = sys.modules["shibokensupport.feature"]
    quick = feature._mod_uses_pyside
    assert getattr(quick, "_gpu_procure_quick", False)
    assert hook.install() and feature._mod_uses_pyside is quick  # a second install changes nothing

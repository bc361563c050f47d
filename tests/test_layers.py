"""The core (catalog/, procurement/) and the presenters (gui/views/) run without Qt: import every module with
PySide6 blocked."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import REPO

BLOCK_QT_AND_IMPORT_ALL = r"""
import importlib, pkgutil, sys
class BlockQt:
    def find_spec(self, name, path=None, target=None):
        if name.split('.')[0] in ('PySide6', 'shiboken6', 'PyQt5', 'PyQt6'):
            raise ImportError('Qt is blocked in the core: ' + name)
        return None
sys.meta_path.insert(0, BlockQt())
count = 0
for pkg_name in ('catalog', 'procurement', 'gui.views'):
    pkg = importlib.import_module(pkg_name)
    for mod in pkgutil.walk_packages(pkg.__path__, pkg_name + '.'):
        importlib.import_module(mod.name)
        count += 1
print('imported', count)
"""


def test_core_imports_without_qt() -> None:
    proc = subprocess.run([sys.executable, "-c", BLOCK_QT_AND_IMPORT_ALL], cwd=REPO,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert int(proc.stdout.split()[-1]) >= 5


def test_version_does_not_import_qt() -> None:
    code = ("import sys; from gui.launch import main\n"
            "try:\n    main(['--version'])\nexcept SystemExit as e:\n    assert e.code == 0\n"
            "assert not any(m.startswith('PySide6') for m in sys.modules), 'Qt imported'\nprint('ok')")
    proc = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "gpu-procure 0.1.0" in proc.stdout


def test_the_core_layer_contract_has_no_exceptions() -> None:
    """Loading a plan refuses unknown preset and checklist ids; those tables sit below the plan
    (procurement.llm, procurement.checklist_items) instead of being named exceptions to the layers."""
    import tomllib

    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    assert [c["name"] for c in contracts if c.get("ignore_imports")] == []
    plan_source = (REPO / "procurement" / "plan.py").read_text(encoding="utf-8")
    for above in ("procurement.checklist ", "procurement.sizing"):
        assert f"from {above.strip()} import" not in plan_source


def _contracts() -> list[dict]:
    import tomllib

    return tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]["contracts"]


def _named(contract: dict) -> set[str]:
    return {name.strip() for layer in contract["layers"] for name in layer.replace(":", "|").split("|")}


def _children(package: str) -> set[str]:
    """The modules and packages directly inside a package, as import-linter sees them (no import needed)."""
    import pkgutil

    return {m.name for m in pkgutil.iter_modules([str(REPO / package)])}


def test_every_core_package_is_named_in_its_layers() -> None:
    """A new module of procurement/ or catalog/ has a place in the layers: its contract names every child and is
    exhaustive, so `lint-imports` refuses one that is not named (and a name that is gone is a stale layer)."""
    for package in ("procurement", "catalog"):
        (contract,) = [c for c in _contracts() if c.get("containers") == [package]]
        assert contract.get("exhaustive") is True, contract["name"]
        named, children = _named(contract), _children(package)
        assert children - named == set(), (
            f"{package}: not in any layer of the contract {contract['name']!r} in pyproject.toml: "
            f"{sorted(children - named)}; add each to the layer of what it imports, then run lint-imports")
        assert named - children == set(), f"{package}: named in the contract but gone: {sorted(named - children)}"

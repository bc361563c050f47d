"""Every pydantic model of the core builds its validator on first use (defer_build), not at import: building
them all at import cost ~100 ms of the app's start (issue 25), and a precompiled catalog builds none."""

from __future__ import annotations

import importlib
import pkgutil

import pytest
from pydantic import BaseModel

import catalog
import procurement


def _core_models() -> list[type[BaseModel]]:
    for package in (catalog, procurement):
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            try:
                importlib.import_module(info.name)
            except ImportError as exc:  # an optional library (the probe's, the PDF's) missing here
                pytest.skip(f"{info.name}: {exc}")
    seen: list[type[BaseModel]] = []
    todo = list(BaseModel.__subclasses__())
    while todo:
        cls = todo.pop()
        todo += cls.__subclasses__()
        if cls.__module__.split(".")[0] in ("catalog", "procurement") and cls not in seen:
            seen.append(cls)
    return seen


def test_every_core_model_defers_building_its_validator() -> None:
    models = _core_models()
    assert len(models) > 40  # the part models, the plan's, the policy, findings, reports
    eager = sorted(f"{m.__module__}.{m.__qualname__}" for m in models if not m.model_config.get("defer_build"))
    assert not eager, f"add defer_build=True to model_config of {eager}"


IMPORTED = r"""
import importlib, pkgutil
from pydantic import BaseModel
import catalog, procurement
for package in (catalog, procurement):
    for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        try:
            importlib.import_module(info.name)
        except ImportError:
            pass
todo, built = list(BaseModel.__subclasses__()), []
while todo:
    cls = todo.pop()
    todo += cls.__subclasses__()
    if cls.__module__.split(".")[0] in ("catalog", "procurement") and cls.__pydantic_complete__:
        built.append(f"{cls.__module__}.{cls.__qualname__}")
print(sorted(built))
"""


def test_no_core_model_is_built_at_import() -> None:
    # a model_rebuild() at import (procurement/coded.py had one, ~40 ms of the app's start) builds it anyway
    import subprocess
    import sys

    from tests.conftest import REPO

    proc = subprocess.run([sys.executable, "-c", IMPORTED], cwd=REPO, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip().splitlines()[-1] == "[]", "built at import: " + proc.stdout[-2000:]

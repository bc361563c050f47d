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

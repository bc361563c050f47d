"""blank_plan() is Plan() at every level (values, fields set, file text), made without building a validator."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

from pydantic import BaseModel

from procurement.plan import Plan, blank_plan, plan_file_text, with_value
from tests.conftest import REPO


def _same(made: Any, validated: Any, path: str = "plan") -> None:
    assert type(made) is type(validated), path
    if isinstance(made, BaseModel):
        assert made.__pydantic_fields_set__ == validated.__pydantic_fields_set__, path
        assert made.__pydantic_extra__ == validated.__pydantic_extra__, path
        assert made.__pydantic_private__ == validated.__pydantic_private__, path
        assert made.__dict__.keys() == validated.__dict__.keys(), path
        for name in made.__dict__:
            _same(made.__dict__[name], validated.__dict__[name], f"{path}.{name}")
    else:
        assert made == validated, path


def test_blank_plan_is_a_validated_new_plan() -> None:
    made, validated = blank_plan(), Plan()
    _same(made, validated)
    assert made == validated
    assert plan_file_text(made) == plan_file_text(validated)
    assert made.server.storage is not blank_plan().server.storage  # each plan its own lists


def test_blank_plan_edits_as_a_new_plan_does() -> None:
    assert with_value(blank_plan(), "gpu.count", 4) == with_value(Plan(), "gpu.count", 4)


BUILT = r"""
from pydantic import BaseModel
import procurement.plan as plan
plan.blank_plan()
todo, built = list(BaseModel.__subclasses__()), []
while todo:
    cls = todo.pop()
    todo += cls.__subclasses__()
    if cls.__module__.startswith(("procurement", "catalog")) and cls.__pydantic_complete__:
        built.append(cls.__name__)
print(sorted(built))
"""


def test_blank_plan_builds_no_validator() -> None:
    # Plan() built twelve (the plan's and one per part), ~100 ms of the app's start
    proc = subprocess.run([sys.executable, "-c", BUILT], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"

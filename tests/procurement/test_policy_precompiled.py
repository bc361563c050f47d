"""The shipped policy is validated once, then read from the cache: the same Policy, no validator built."""

from __future__ import annotations

import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest

from procurement import policy as policy_module
from procurement.policy import default_policy
from tests.conftest import REPO


def _validated() -> policy_module.Policy:
    text = (resources.files("resources") / "policy" / "default.yaml").read_text(encoding="utf-8")
    return policy_module._parse(text, "resources/policy/default.yaml")


def test_the_cached_policy_is_the_validated_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GPU_PROCURE_CACHE_DIR", str(tmp_path))
    first, second = default_policy(), default_policy()
    assert list(tmp_path.glob("policy-*.pickle")), "written after the first load"
    for made in (first, second):
        assert made == _validated() and repr(made) == repr(_validated())
        assert made.__pydantic_fields_set__ == _validated().__pydantic_fields_set__


def test_a_damaged_or_foreign_entry_is_not_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GPU_PROCURE_CACHE_DIR", str(tmp_path))
    default_policy()
    (entry,) = tmp_path.glob("policy-*.pickle")
    entry.write_bytes(b"not a pickle")
    assert default_policy() == _validated()
    import pickle

    entry.write_bytes(pickle.dumps((entry.name.split(".")[0], {"psu_headroom_pct": 0.0})))
    assert default_policy() == _validated()  # not a Policy: validated afresh


def test_no_cache_still_validates(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GPU_PROCURE_CACHE_DIR", "off")
    assert default_policy() == _validated()


READ = r"""
import sys
from procurement.policy import Policy, default_policy
default_policy()
print(Policy.__pydantic_complete__, "importlib.metadata" in sys.modules)
"""


def test_the_cached_policy_builds_no_validator(tmp_path: Path) -> None:
    # building it loaded pydantic's plugin loader and importlib.metadata: ~60 ms of the app's start
    env = {"PATH": "/usr/bin:/bin", "GPU_PROCURE_CACHE_DIR": str(tmp_path), "HOME": str(tmp_path)}
    runs = [subprocess.run([sys.executable, "-c", READ], cwd=REPO, env=env, capture_output=True, text=True,
                           timeout=120) for _ in range(2)]
    assert all(r.returncode == 0 for r in runs), runs[-1].stderr
    assert runs[0].stdout.split() == ["True", "True"]  # validated, and written
    assert runs[1].stdout.split() == ["False", "False"]

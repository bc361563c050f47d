"""Catalog tests keep the parsed-YAML cache in a temporary directory, never in the user's ~/.cache."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def _yaml_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("yaml-cache")


@pytest.fixture(autouse=True)
def _private_yaml_cache(_yaml_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GPU_PROCURE_CACHE_DIR", str(_yaml_cache))

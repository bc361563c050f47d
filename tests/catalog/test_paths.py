"""The app's own directories come from platformdirs, and the parsed-YAML cache stays under its size limit."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

import catalog.paths as paths
from catalog import precompiled


@pytest.mark.skipif(sys.platform != "linux", reason="the XDG layout")
def test_linux_directories_follow_xdg(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert paths.cache_root() == tmp_path / "cache" / "gpu-procure"
    assert paths.state_dir() == tmp_path / "state" / "gpu-procure"
    assert paths.recovery_dir() == tmp_path / "state" / "gpu-procure" / "recovery"
    assert paths.log_dir().is_relative_to(paths.state_dir())
    # 0.1.0's doubled name from Qt's AppDataLocation, read once to adopt old recovery copies
    assert paths.legacy_recovery_dir() == tmp_path / "data" / "gpu-procure" / "gpu-procure" / "recovery"


def _fill(directory: Path, count: int, size: int) -> list[Path]:
    directory.mkdir(parents=True, exist_ok=True)
    files = []
    for i in range(count):
        f = directory / f"{i:04d}.json"
        f.write_bytes(b"x" * size)
        os.utime(f, (1_000_000 + i, 1_000_000 + i))  # oldest first
        files.append(f)
    return files


def test_prune_removes_the_least_recently_used_first(tmp_path: Path) -> None:
    files = _fill(tmp_path, 10, 1000)
    (tmp_path / "other.txt").write_bytes(b"y" * 50_000)  # not matched by the pattern: left alone
    removed = paths.prune(tmp_path, 4500, "*.json")
    assert removed == files[:6]
    assert sorted(tmp_path.glob("*.json")) == files[6:]
    assert (tmp_path / "other.txt").exists()


def test_prune_keeps_the_entry_just_written_even_when_it_alone_is_too_big(tmp_path: Path) -> None:
    files = _fill(tmp_path, 3, 1000)
    os.utime(files[0], (999, 999))
    assert paths.prune(tmp_path, 500, "*.json", keep=files[0]) == files[1:]
    assert files[0].exists()


def test_prune_of_a_missing_directory_is_nothing(tmp_path: Path) -> None:
    assert paths.prune(tmp_path / "none", 0) == []


def test_the_catalog_cache_is_pruned_when_an_entry_is_written(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    cache = tmp_path / "cache"
    old = _fill(cache, 20, 1000)
    monkeypatch.setattr(paths, "YAML_CACHE_MAX_BYTES", 5000)
    precompiled.store(cache, "k", [["a part"]])
    left = sorted(cache.iterdir())
    assert sum(f.stat().st_size for f in left) <= 5000
    new = [f for f in left if f not in old]
    assert [f.name for f in new] == ["k" + precompiled.SUFFIX]  # the entry just written survives
    assert precompiled.load(cache, "k") == [["a part"]]


def test_a_cache_hit_marks_the_entry_as_recently_used(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    precompiled.store(cache, "k", [])
    (entry,) = cache.iterdir()
    os.utime(entry, (1_000_000, 1_000_000))
    assert precompiled.load(cache, "k") == []
    assert entry.stat().st_mtime > 1_000_000

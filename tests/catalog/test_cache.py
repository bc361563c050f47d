"""The parsed-YAML cache: a hit returns exactly what parsing would, and it can never be stale."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

import pytest

import catalog.yamlsource as ys
from catalog.loader import CatalogError, load_catalog, shipped_data_dir


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    d = tmp_path / "cache"
    monkeypatch.setenv("GPU_PROCURE_CACHE_DIR", str(d))
    return d


@pytest.fixture
def data(tmp_path: Path) -> Path:
    target = tmp_path / "data"
    shutil.copytree(shipped_data_dir(), target)
    return target


def _no_parsing(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(text: str, path: object) -> object:
        raise AssertionError(f"{path} was parsed instead of read from the cache")

    monkeypatch.setattr(ys, "parse_yaml", refuse)


def test_a_second_load_comes_from_the_cache_and_is_equal(cache: Path, data: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    first = load_catalog(data_dir=data)
    assert len(list(cache.glob("*.json"))) == len(list(data.glob("*.yaml")))
    _no_parsing(monkeypatch)
    second = load_catalog(data_dir=data)
    assert second.parts == first.parts
    # dates survive the trip as dates
    assert second.gpu("rtx-4090-d").price_date == dt.date(2023, 12, 28)  # type: ignore[union-attr]


def test_an_edited_file_is_parsed_again(cache: Path, data: Path) -> None:
    load_catalog(data_dir=data)
    gpus = data / "gpus.yaml"
    gpus.write_text(gpus.read_text(encoding="utf-8").replace("price_cny: 12999", "price_cny: 11999", 1),
                    encoding="utf-8")
    assert load_catalog(data_dir=data).gpu("rtx-4090").price_cny == 11999  # type: ignore[union-attr]


def test_errors_are_located_on_a_cache_hit_too(cache: Path, data: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    gpus = data / "gpus.yaml"
    gpus.write_text(gpus.read_text(encoding="utf-8").replace("    tdp_w: 450\n", "    tdp_w: -1\n", 1),
                    encoding="utf-8")
    with pytest.raises(CatalogError) as first:
        load_catalog(data_dir=data)
    _no_parsing(monkeypatch)
    with pytest.raises(CatalogError) as again:
        load_catalog(data_dir=data)
    assert again.value.problems == first.value.problems
    assert len(first.value.problems) == 1 and ": gpu 'rtx-4090': tdp_w: " in first.value.problems[0]


def test_a_damaged_entry_is_ignored_and_rewritten(cache: Path, data: Path) -> None:
    expected = load_catalog(data_dir=data).parts
    for entry in cache.glob("*.json"):
        entry.write_text('{"gpus": [{"id": "tampered"', encoding="utf-8")
    assert load_catalog(data_dir=data).parts == expected
    assert all(e.read_text(encoding="utf-8").startswith('{"') for e in cache.glob("*.json"))
    assert load_catalog(data_dir=data).parts == expected


@pytest.mark.parametrize("setting", ["off", ""])
def test_the_cache_can_be_switched_off(setting: str, tmp_path: Path, data: Path,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GPU_PROCURE_CACHE_DIR", setting)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert ys.cache_dir() is None
    load_catalog(data_dir=data)
    assert not (tmp_path / "xdg").exists()


def test_the_default_is_the_xdg_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GPU_PROCURE_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert ys.cache_dir() == tmp_path / "gpu-procure" / "yaml"


def test_data_json_cannot_hold_is_not_cached(cache: Path, tmp_path: Path) -> None:
    odd = tmp_path / "odd.yaml"
    odd.write_text("1: integer key\nlist: [2024-01-02 03:04:05]\nx: {__date__: '2024-01-01'}\n", encoding="utf-8")
    data, _ = ys.read_yaml_cached(odd, cache)
    assert data == {1: "integer key", "list": [dt.datetime(2024, 1, 2, 3, 4, 5)], "x": {"__date__": "2024-01-01"}}
    assert list(cache.glob("*.json")) == []  # an int key would come back as a string
    assert ys.read_yaml_cached(odd, cache)[0] == data


def test_an_unwritable_cache_is_not_an_error(tmp_path: Path, data: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "file-not-dir"
    blocker.write_text("x", encoding="utf-8")
    monkeypatch.setenv("GPU_PROCURE_CACHE_DIR", str(blocker / "cache"))
    assert len(load_catalog(data_dir=data)) == len(load_catalog())

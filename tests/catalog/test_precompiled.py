"""The precompiled catalog (catalog/precompiled.py): a hit gives exactly what reading the files gives, an
entry is never used after an edit, and a damaged entry is ignored with a log line."""

from __future__ import annotations

import datetime as dt
import logging
import pickle
import shutil
from pathlib import Path

import pytest

import catalog.loader as loader
import catalog.yamlsource as ys
from catalog import precompiled
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


def _entries(cache: Path) -> list[Path]:
    return sorted(cache.glob(f"*{precompiled.SUFFIX}"))


def _no_reading(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object) -> object:
        raise AssertionError("the catalog files were parsed or validated instead of read from the cache")

    monkeypatch.setattr(loader, "parse_yaml", refuse)
    monkeypatch.setattr(loader, "_validate_file", refuse)


def test_a_second_load_comes_from_one_entry_per_directory_and_is_equal(cache: Path, data: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    first = load_catalog(data_dir=data)
    assert len(_entries(cache)) == 1  # one file for the directory, not one per YAML file
    _no_reading(monkeypatch)
    second = load_catalog(data_dir=data)
    assert second.parts == first.parts and second.origin == first.origin
    assert second.gpu("rtx-4090-d").price_date == dt.date(2023, 12, 28)  # type: ignore[union-attr]
    # lines are still found from the files' text
    assert second.where("gpu", "rtx-4090", "tdp_w") == first.where("gpu", "rtx-4090", "tdp_w")
    assert ":" in second.where("gpu", "rtx-4090", "tdp_w")


def test_an_overlay_directory_has_its_own_entry(cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    user = tmp_path / "user"
    user.mkdir()
    (user / "prices.yaml").write_text("prices:\n  - id: rtx-4090\n    price_cny: 11111\n", encoding="utf-8")
    first = load_catalog([user])
    assert len(_entries(cache)) == 2
    _no_reading(monkeypatch)
    second = load_catalog([user])
    assert second.gpu("rtx-4090").price_cny == 11111  # type: ignore[union-attr]
    assert second.overlays[0].prices == first.overlays[0].prices


def test_a_stale_entry_is_never_used_after_an_edit(cache: Path, data: Path) -> None:
    load_catalog(data_dir=data)
    gpus = data / "gpus.yaml"
    gpus.write_text(gpus.read_text(encoding="utf-8").replace("price_cny: 12999", "price_cny: 11999", 1),
                    encoding="utf-8")
    assert load_catalog(data_dir=data).gpu("rtx-4090").price_cny == 11999  # type: ignore[union-attr]
    extra = data / "extra.yaml"
    extra.write_text((data / "cpus.yaml").read_text(encoding="utf-8").replace("id: epyc-7543", "id: epyc-x", 1),
                     encoding="utf-8")
    with pytest.raises(CatalogError):  # a file added: the other cpus are now duplicates
        load_catalog(data_dir=data)
    (data / "cpus.yaml").unlink()
    assert load_catalog(data_dir=data).parts["cpu"].keys() >= {"epyc-x"}
    extra.unlink()  # a file removed: another key again
    assert not load_catalog(data_dir=data).parts["cpu"]


def test_a_directory_with_problems_is_not_precompiled_and_its_errors_stay_located(
        cache: Path, data: Path) -> None:
    gpus = data / "gpus.yaml"
    gpus.write_text(gpus.read_text(encoding="utf-8").replace("    tdp_w: 450\n", "    tdp_w: -1\n", 1),
                    encoding="utf-8")
    with pytest.raises(CatalogError) as first:
        load_catalog(data_dir=data)
    assert _entries(cache) == []
    with pytest.raises(CatalogError) as again:
        load_catalog(data_dir=data)
    assert again.value.problems == first.value.problems
    assert len(first.value.problems) == 1 and ": gpu 'rtx-4090': tdp_w: " in first.value.problems[0]


@pytest.mark.parametrize("damage", [b"", b"not a pickle", b"\x80\x05garbage",
                                    pickle.dumps(("another key", [])),
                                    pickle.dumps(print), pickle.dumps(shutil.rmtree)])
def test_a_damaged_entry_is_ignored_with_a_log_line_and_rewritten(
        damage: bytes, cache: Path, data: Path, caplog: pytest.LogCaptureFixture) -> None:
    expected = load_catalog(data_dir=data).parts
    (entry,) = _entries(cache)
    entry.write_bytes(damage)
    with caplog.at_level(logging.WARNING, logger="catalog.precompiled"):
        assert load_catalog(data_dir=data).parts == expected
    assert "ignoring a damaged precompiled catalog" in caplog.text and str(entry) in caplog.text
    assert entry.read_bytes() != damage  # written again from the files
    assert load_catalog(data_dir=data).parts == expected


def test_an_entry_builds_no_foreign_object(cache: Path, data: Path, tmp_path: Path) -> None:
    """A planted entry that would call a function (os.system, any callable) is refused, never run."""
    load_catalog(data_dir=data)
    (entry,) = _entries(cache)
    marker = tmp_path / "ran"

    class Evil:
        def __reduce__(self) -> tuple[object, tuple[str]]:
            return (Path.touch, (str(marker),))  # type: ignore[return-value]

    entry.write_bytes(pickle.dumps((entry.name.removesuffix(precompiled.SUFFIX), Evil())))
    assert len(load_catalog(data_dir=data)) > 0
    assert not marker.exists()


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


def test_an_unwritable_cache_is_not_an_error(tmp_path: Path, data: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "file-not-dir"
    blocker.write_text("x", encoding="utf-8")
    monkeypatch.setenv("GPU_PROCURE_CACHE_DIR", str(blocker / "cache"))
    assert len(load_catalog(data_dir=data)) == len(load_catalog())


def test_new_catalog_code_gives_another_key(monkeypatch: pytest.MonkeyPatch) -> None:
    files = [("gpus.yaml", b"gpus: []\n")]
    before = precompiled.entry_key(files, "shipped")
    assert precompiled.entry_key(files, "overlay") != before
    monkeypatch.setattr(precompiled, "_code_key", lambda: b"models.py as edited")
    assert precompiled.entry_key(files, "shipped") != before

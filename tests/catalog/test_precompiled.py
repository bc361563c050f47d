"""The precompiled catalog (catalog/precompiled.py): a hit gives exactly what reading the files gives, an
entry is never used after an edit, a damaged entry is ignored with a log line, and the first load with an
empty cache does the work of no cache."""

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


def _warm(data_dir: Path | None = None, overlays: tuple[Path, ...] = ()) -> object:
    """Load twice: the first load leaves a sighting, the second writes the entry; returns the second."""
    load_catalog(list(overlays), data_dir=data_dir)
    return load_catalog(list(overlays), data_dir=data_dir)


def _no_reading(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object) -> object:
        raise AssertionError("the catalog files were parsed or validated instead of read from the cache")

    monkeypatch.setattr(loader, "parse_yaml", refuse)
    monkeypatch.setattr(loader, "_validate_file", refuse)


def test_a_second_load_comes_from_one_entry_per_directory_and_is_equal(cache: Path, data: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    first = load_catalog(data_dir=data)
    assert _entries(cache) == []  # the first load writes no entry: it may be the only one
    assert load_catalog(data_dir=data).parts == first.parts
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
    first = _warm(overlays=(user,))
    assert len(_entries(cache)) == 2
    _no_reading(monkeypatch)
    second = load_catalog([user])
    assert second.gpu("rtx-4090").price_cny == 11111  # type: ignore[union-attr]
    assert second.overlays[0].prices == first.overlays[0].prices


def test_a_stale_entry_is_never_used_after_an_edit(cache: Path, data: Path) -> None:
    _warm(data)
    gpus = data / "gpus.yaml"
    gpus.write_text(gpus.read_text(encoding="utf-8").replace("price_cny: 12999", "price_cny: 11999", 1),
                    encoding="utf-8")
    assert load_catalog(data_dir=data).gpu("rtx-4090").price_cny == 11999  # type: ignore[union-attr]
    gpus.write_text(gpus.read_text(encoding="utf-8").replace("price_cny: 11999", "price_cny: 11998", 1),
                    encoding="utf-8")  # the same size, so the same sighting: the entry is looked up and missed
    assert load_catalog(data_dir=data).gpu("rtx-4090").price_cny == 11998  # type: ignore[union-attr]
    assert _warm(data).gpu("rtx-4090").price_cny == 11998  # type: ignore[attr-defined]
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
    with pytest.raises(CatalogError):
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
    expected = _warm(data).parts  # type: ignore[attr-defined]
    (entry,) = _entries(cache)
    entry.write_bytes(damage)
    with caplog.at_level(logging.WARNING, logger="catalog.precompiled"):
        assert load_catalog(data_dir=data).parts == expected
    assert "ignoring a damaged precompiled catalog" in caplog.text and str(entry) in caplog.text
    assert entry.read_bytes() != damage  # written again from the files
    assert load_catalog(data_dir=data).parts == expected


def test_an_entry_builds_no_foreign_object(cache: Path, data: Path, tmp_path: Path) -> None:
    """A planted entry that would call a function (os.system, any callable) is refused, never run."""
    _warm(data)
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


class _Work:
    """What a load costs, counted: file contents read, bytes hashed, parts pickled, files parsed."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.read = self.hashed = self.pickled = self.parsed = 0
        work = self
        real_sha256, real_dumps, real_read = precompiled.hashlib.sha256, pickle.dumps, loader.read_raw_text
        real_parse = loader.parse_yaml

        class Counted:
            def __init__(self, data: bytes = b"") -> None:
                self._h = real_sha256()
                self.update(data)

            def update(self, data: bytes) -> None:
                work.hashed += len(data)
                self._h.update(data)

            def digest(self) -> bytes:
                return self._h.digest()

            def hexdigest(self) -> str:
                return self._h.hexdigest()

        def dumps(*args: object, **kw: object) -> bytes:
            blob = real_dumps(*args, **kw)  # type: ignore[arg-type]
            work.pickled += len(blob)
            return blob

        def read(path: Path) -> tuple[bytes, str]:
            raw, text = real_read(path)
            work.read += len(raw)
            return raw, text

        def parse(text: str, path: object) -> object:
            work.parsed += 1
            return real_parse(text, path)  # type: ignore[arg-type]

        monkeypatch.setattr(precompiled.hashlib, "sha256", Counted)
        monkeypatch.setattr(pickle, "dumps", dumps)
        monkeypatch.setattr(loader, "read_raw_text", read)
        monkeypatch.setattr(loader, "parse_yaml", parse)

    def take(self) -> dict[str, int]:
        out = {"read": self.read, "hashed": self.hashed, "pickled": self.pickled, "parsed": self.parsed}
        self.read = self.hashed = self.pickled = self.parsed = 0
        return out


def test_a_fresh_cache_does_the_work_of_no_cache_and_the_cache_pays_back_from_the_third_load(
        tmp_path: Path, data: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A fresh cache of a 3,000-file user catalog loaded 1.2-1.4 x slower than no cache (issue 31): every
    byte hashed and every part pickled for a directory perhaps never loaded again. Counted, not timed: the
    first load with an empty cache reads and parses what no cache does, hashes only the listing (no file
    content) and pickles nothing."""
    user = tmp_path / "user"
    user.mkdir()
    for i in range(40):
        (user / f"part-{i:03d}.yaml").write_text(
            f"cpus:\n  - id: cpu-{i}\n    name: CPU {i}\n    vendor: V\n    segment: datacenter\n    socket: S\n"
            f"    cores: {i + 1}\n    pcie_gen: 5\n    memory_channels: 12\n    memory_type: DDR5\n"
            f"    ecc: true\n    source: generated\n    notes: '{'x' * 1500}'\n", encoding="utf-8")
    files = sorted(data.glob("*.yaml")) + sorted(user.glob("*.yaml"))
    content = sum(p.stat().st_size for p in files)
    listing = sum(len(str(p)) + 24 for p in files) + 200
    precompiled._code_key()  # the code's own hash is taken once per process, whatever the files
    work = _Work(monkeypatch)

    monkeypatch.setenv("GPU_PROCURE_CACHE_DIR", "off")
    expected = load_catalog([user], data_dir=data).parts
    none = work.take()
    assert none == {"read": content, "hashed": 0, "pickled": 0, "parsed": len(files)}

    monkeypatch.setenv("GPU_PROCURE_CACHE_DIR", str(tmp_path / "cache"))
    assert load_catalog([user], data_dir=data).parts == expected
    fresh = work.take()
    assert fresh["read"] == none["read"] and fresh["parsed"] == none["parsed"] and fresh["pickled"] == 0
    assert fresh["hashed"] <= listing < content // 10  # the paths and sizes, never the contents

    assert load_catalog([user], data_dir=data).parts == expected  # seen before: hashed, stored once
    second = work.take()
    assert second["parsed"] == len(files) and second["hashed"] >= content and second["pickled"] > 0

    assert load_catalog([user], data_dir=data).parts == expected  # from the entries
    warm = work.take()
    assert warm["parsed"] == 0 and warm["pickled"] == 0 and warm["read"] == content


def test_sightings_are_kept_to_a_few(cache: Path, data: Path) -> None:
    """A sighting is left per listing loaded; editing a file (another size) gives another: they never pile up."""
    gpus = data / "gpus.yaml"
    for i in range(precompiled.MAX_SIGHTINGS + 10):
        gpus.write_text(gpus.read_text(encoding="utf-8") + "#" * (i + 1) + "\n", encoding="utf-8")
        load_catalog(data_dir=data)
    assert len(list(cache.glob(f"*{precompiled.SIGHTING_SUFFIX}"))) <= precompiled.MAX_SIGHTINGS
    assert _entries(cache) == []


def test_a_sighting_is_never_written_through_a_planted_link(cache: Path, data: Path, tmp_path: Path) -> None:
    target = tmp_path / "victim"
    load_catalog(data_dir=data)
    (mark,) = cache.glob(f"*{precompiled.SIGHTING_SUFFIX}")
    mark.unlink()
    mark.symlink_to(target)  # dangling: the name exists, the file it points to does not
    assert len(load_catalog(data_dir=data)) > 0
    assert not target.exists()

"""Recovery copies live under the state directory; copies left where 0.1.0 kept them are still offered."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from gui.autosave import RecoveryStore
from procurement.plan import Plan


@pytest.fixture
def xdg(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name in ("STATE", "DATA", "CACHE", "CONFIG"):
        monkeypatch.setenv(f"XDG_{name}_HOME", str(tmp_path / name.lower()))
    return tmp_path


@pytest.mark.skipif(sys.platform != "linux", reason="the XDG layout")
def test_default_store_is_under_the_state_dir(xdg: Path) -> None:
    store = RecoveryStore()
    assert store.directory == xdg / "state" / "gpu-procure" / "recovery"
    store.write(Plan(), None)
    assert [e.source for e in store.pending()] == [None]
    assert not (xdg / "data").exists()


@pytest.mark.skipif(sys.platform != "linux", reason="the XDG layout")
def test_copies_in_the_old_place_are_adopted(xdg: Path) -> None:
    old_dir = xdg / "data" / "gpu-procure" / "gpu-procure" / "recovery"
    RecoveryStore(old_dir).write(Plan(), None)
    (old_dir / ".untitled.json.123.tmp").write_text("{", encoding="utf-8")  # an interrupted autosave
    store = RecoveryStore()
    assert [e.source for e in store.pending()] == [None]
    assert store.pending()[0].plan_file.parent == xdg / "state" / "gpu-procure" / "recovery"
    assert not (xdg / "data" / "gpu-procure").exists()  # the doubled folder is gone once empty

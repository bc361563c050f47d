"""Recovery files: an autosaved copy of each open plan, offered back at start after a crash."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from catalog.paths import legacy_recovery_dir, recovery_dir
from procurement.plan import Plan, atomic_write, parse_plan, plan_file_text
from procurement.safe_io import read_bounded_text

UNTITLED = "untitled"


def default_recovery_dir() -> Path:
    """Under the state directory (catalog.paths): recovery copies are the app's, not the user's documents."""
    return recovery_dir()


def adopt_legacy_copies(old: Path, new: Path) -> int:
    """Move recovery copies left where 0.1.0 kept them into ``new`` (a copy already there wins); count moved."""
    if not old.is_dir() or old.resolve() == new.resolve():
        return 0
    moved = 0
    new.mkdir(parents=True, exist_ok=True)
    for f in sorted(old.iterdir()):
        if not f.is_file() or f.name.startswith("."):
            continue
        target = new / f.name
        try:
            if not target.exists():
                f.replace(target)
                moved += 1
            else:
                f.unlink()
        except OSError:
            continue
    for leftover in old.glob(".*.tmp"):  # an interrupted autosave's temporary file
        leftover.unlink(missing_ok=True)
    for d in (old, old.parent, old.parent.parent):  # the doubled …/gpu-procure/gpu-procure, once empty
        try:
            d.rmdir()
        except OSError:
            break
    return moved


@dataclass(frozen=True)
class RecoveryEntry:
    source: Path | None
    """The plan file the copy belongs to; None for a plan never saved."""
    plan_file: Path
    saved_at: dt.datetime

    def load(self) -> Plan:
        return parse_plan(read_bounded_text(self.plan_file), self.plan_file)


class RecoveryStore:
    """One recovery copy per document (keyed by its path) in ``directory``; every write is atomic."""

    def __init__(self, directory: Path | None = None) -> None:
        if directory is None:
            directory = default_recovery_dir()
            adopt_legacy_copies(legacy_recovery_dir(), directory)
        self.directory = Path(directory)

    @staticmethod
    def _key(source: Path | None) -> str:
        if source is None:
            return UNTITLED
        return hashlib.sha256(str(Path(source).resolve()).encode("utf-8")).hexdigest()[:16]

    def _files(self, source: Path | None) -> tuple[Path, Path]:
        key = self._key(source)
        return self.directory / f"{key}.gpuplan.yaml", self.directory / f"{key}.json"

    def write(self, plan: Plan, source: Path | None) -> Path:
        self.directory.mkdir(parents=True, exist_ok=True)
        plan_file, meta_file = self._files(source)
        atomic_write(plan_file, plan_file_text(plan).encode("utf-8"))
        meta = {"source": str(Path(source).resolve()) if source else None,
                "saved_at": dt.datetime.now(dt.timezone.utc).isoformat()}
        atomic_write(meta_file, json.dumps(meta).encode("utf-8"))
        return plan_file

    def clear(self, source: Path | None) -> None:
        for f in self._files(source):
            f.unlink(missing_ok=True)
            # a session killed in the middle of an autosave leaves atomic_write's temporary file behind
            for tmp in self.directory.glob(f".{f.name}.*.tmp"):
                tmp.unlink(missing_ok=True)

    def pending(self) -> list[RecoveryEntry]:
        """Copies newer than the file they belong to (or of unsaved plans), newest first."""
        if not self.directory.is_dir():
            return []
        found: list[RecoveryEntry] = []
        for meta_file in self.directory.glob("*.json"):
            plan_file = meta_file.parent / f"{meta_file.stem}.gpuplan.yaml"
            try:
                meta = json.loads(read_bounded_text(meta_file, 64 * 1024))
                saved_at = dt.datetime.fromisoformat(meta["saved_at"])
                source = Path(meta["source"]) if meta.get("source") else None
            except (OSError, ValueError, KeyError, TypeError):
                continue
            if not plan_file.is_file():
                continue
            if source is not None and source.is_file():
                source_mtime = dt.datetime.fromtimestamp(source.stat().st_mtime, dt.timezone.utc)
                if source_mtime >= saved_at:
                    continue
            found.append(RecoveryEntry(source, plan_file, saved_at))
        return sorted(found, key=lambda e: e.saved_at, reverse=True)

    def discard(self, entry: RecoveryEntry) -> None:
        self.clear(entry.source)


"""Where gpu-procure keeps its own files on this computer (caches, state, logs, recovery), via platformdirs.

- cache: Linux $XDG_CACHE_HOME/gpu-procure; Windows %LOCALAPPDATA%\\gpu-procure\\Cache;
  macOS ~/Library/Caches/gpu-procure
- state: Linux $XDG_STATE_HOME/gpu-procure (~/.local/state/gpu-procure); Windows %LOCALAPPDATA%\\gpu-procure;
  macOS ~/Library/Application Support/gpu-procure
- logs: Linux <state>/log; Windows <state>\\Logs; macOS ~/Library/Logs/gpu-procure
- recovery copies of open plans: <state>/recovery
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from platformdirs import PlatformDirs

APP_NAME = "gpu-procure"

YAML_CACHE_MAX_BYTES = 16 * 1024 * 1024
"""The parsed-YAML cache is pruned to this size, oldest entries first: about a hundred times the shipped
catalog's entries (~130 KB), so it holds many catalog versions and overlays but never grows without end."""


def _dirs() -> PlatformDirs:
    from platformdirs import PlatformDirs  # on first use: pruning the cache needs no platformdirs (8-10 ms)

    return PlatformDirs(APP_NAME, appauthor=False)


def cache_root() -> Path:
    return Path(_dirs().user_cache_dir)


def state_dir() -> Path:
    """Autosaved recovery copies and logs: files the app writes for itself, not the user's documents."""
    return Path(_dirs().user_state_dir)


def log_dir() -> Path:
    return Path(_dirs().user_log_dir)


def recovery_dir() -> Path:
    return state_dir() / "recovery"


def legacy_recovery_dir() -> Path:
    """Where 0.1.0 kept recovery copies (Qt's AppDataLocation with organisation and app both "gpu-procure")."""
    from platformdirs import PlatformDirs

    return Path(PlatformDirs(APP_NAME, appauthor=False, roaming=True).user_data_dir) / APP_NAME / "recovery"


def prune(directory: Path, max_bytes: int, pattern: str = "*", keep: Path | None = None) -> list[Path]:
    """Delete the least recently used files matching ``pattern`` until those left total ``max_bytes`` or less.

    "Used" is the modification time (cache hits touch their entry). ``keep`` is never deleted. Files that
    vanish or cannot be removed meanwhile (another process pruning too) are skipped. Returns what was deleted.
    """
    entries: list[tuple[float, int, Path]] = []
    try:
        with os.scandir(directory) as it:
            for e in it:
                if not e.is_file(follow_symlinks=False) or not Path(e.name).match(pattern):
                    continue
                try:
                    st = e.stat(follow_symlinks=False)
                except OSError:
                    continue
                entries.append((st.st_mtime, st.st_size, Path(e.path)))
    except OSError:
        return []
    total = sum(size for _, size, _ in entries)
    removed: list[Path] = []
    for _, size, path in sorted(entries, key=lambda t: t[0]):
        if total <= max_bytes:
            break
        if keep is not None and path == keep:
            continue
        try:
            path.unlink()
        except OSError:
            continue
        total -= size
        removed.append(path)
    return removed

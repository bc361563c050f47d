"""Hardening fixtures: the GUI ones (isolated window, dialogs a test must answer) and a watch on file opens."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.gui.conftest import DialogCalls, dialog_calls, make_window, settings_file

__all__ = ["DialogCalls", "OpenWatch", "dialog_calls", "make_window", "open_watch", "settings_file"]

_SPAWN_EVENTS = ("subprocess.Popen", "os.system", "os.exec", "os.posix_spawn", "os.spawn", "os.fork")
_LIST_EVENTS = ("os.listdir", "os.scandir")


class OpenWatch:
    """Records, while armed, every file opened or listed whose path contains a needle, and every process
    started with a needle or '../' in its command line (Python audit events: open, os.listdir, os.scandir,
    subprocess.Popen, os.system, os.exec…)."""

    def __init__(self) -> None:
        self.needles: list[str] = []
        self.opened: list[str] = []
        self.spawned: list[str] = []
        self.armed = False

    def hook(self, event: str, args: tuple[Any, ...]) -> None:
        if not self.armed:
            return
        if event == "open" or event in _LIST_EVENTS:
            path = args[0] if args else None
            if isinstance(path, (str, bytes, Path)):
                text = path.decode(errors="replace") if isinstance(path, bytes) else str(path)
                if any(n in text for n in self.needles):
                    self.opened.append(f"{event} {text}")
        elif event in _SPAWN_EVENTS:
            # fixed command lines (the font lookup runs fc-list once) are fine; user text in one is not
            line = repr(args[:2])
            if any(n in line for n in (*self.needles, "../", "passwd")):
                self.spawned.append(f"{event} {line}")


_WATCH = OpenWatch()
sys.addaudithook(_WATCH.hook)  # audit hooks cannot be removed: it does nothing unless a test arms it


@pytest.fixture
def open_watch(tmp_path: Path) -> Iterator[OpenWatch]:
    """Armed for the test: /etc/passwd, /etc/shadow, ~/.ssh and a canary file must not be opened or listed,
    nor reach a command line. The canary (a PNG header) is at ``watch.canary``."""
    canary = tmp_path / "canary.png"
    canary.write_bytes(b"\x89PNG\r\n\x1a\n")
    _WATCH.needles = ["/etc/passwd", "/etc/shadow", ".ssh", str(canary)]
    _WATCH.opened.clear()
    _WATCH.spawned.clear()
    _WATCH.canary = canary  # type: ignore[attr-defined]
    _WATCH.armed = True
    try:
        yield _WATCH
    finally:
        _WATCH.armed = False
    assert _WATCH.opened == [], f"opened or listed: {_WATCH.opened}"
    assert _WATCH.spawned == [], f"started: {_WATCH.spawned}"

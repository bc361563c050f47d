"""The app's log: a rotating file under the state directory, `--debug` to the terminal, faulthandler for crashes.

Both the CLI and the app call :func:`setup_logging` once at start. Modules log with
``logging.getLogger(__name__)``; nothing is printed unless ``--debug`` is given, so the commands' output and
exit statuses stay as they are. Help → About → "Copy diagnostics" reads :func:`diagnostics`.
"""

from __future__ import annotations

import faulthandler
import logging
import os
import sys
from collections.abc import Mapping
from pathlib import Path
from types import TracebackType
from typing import IO

from procurement import __version__

LOG_FILE = "gpu-procure.log"
CRASH_FILE = "crash.log"
MAX_LOG_BYTES = 1024 * 1024
LOG_BACKUPS = 3
"""At most 4 MiB of logs: the current file and three rotated ones."""
FORMAT = "%(asctime)s %(process)d %(levelname)s %(name)s: %(message)s"

_installed: list[logging.Handler] = []
_crash_file: IO[str] | None = None
_faulthandler_ours = False
_log_path: Path | None = None
log = logging.getLogger("gpu_procure")


def default_log_dir() -> Path:
    from catalog.paths import log_dir

    return log_dir()


def setup_logging(debug: bool = False, directory: Path | None = None, argv: list[str] | None = None) -> Path | None:
    """Log to ``directory``/gpu-procure.log (rotated at 1 MiB, 3 kept); returns the file, None when unwritable.

    Calling it again replaces what an earlier call installed (tests, an app started twice in one process).
    """
    global _log_path
    stop_logging()
    root = logging.getLogger()
    root.setLevel(logging.DEBUG if debug else logging.INFO)
    if debug:
        stream = logging.StreamHandler(sys.stderr) if sys.stderr is not None else None
        if stream is not None:
            stream.setFormatter(logging.Formatter(FORMAT))
            _installed.append(stream)
    directory = directory if directory is not None else default_log_dir()
    _log_path = None
    try:
        directory.mkdir(parents=True, exist_ok=True)
        rotating = _QuietRotatingFileHandler(directory / LOG_FILE, maxBytes=MAX_LOG_BYTES,
                                             backupCount=LOG_BACKUPS, encoding="utf-8")
        rotating.setFormatter(logging.Formatter(FORMAT))
        _installed.append(rotating)
        _log_path = directory / LOG_FILE
    except OSError:  # a read-only home: run without a log file rather than not at all
        pass
    for handler in _installed:
        root.addHandler(handler)
    _enable_faulthandler(directory, debug)
    if sys.excepthook is sys.__excepthook__:
        sys.excepthook = _log_uncaught
    log.info("gpu-procure %s started: %s", __version__, " ".join(argv or []))
    if log.isEnabledFor(logging.DEBUG):  # platform.platform() runs `uname -p` in a subprocess: not at every start
        import platform

        log.debug("python %s on %s", sys.version.split()[0], platform.platform())
    return _log_path


class _QuietRotatingFileHandler(logging.FileHandler):
    """A log file that never disturbs the command: a write or rotation that fails (a full disk, or several
    nodes of a cluster rotating the same file in a shared home at once) loses that log line, silently, instead
    of printing logging's "--- Logging error ---" traceback on stderr.

    It rotates as logging.handlers.RotatingFileHandler does (``gpu-procure.log.1`` … ``.3``), written out here
    because importing logging.handlers (sockets, pickle, queues) cost ~12 ms before the app's first paint."""

    def __init__(self, filename: Path, maxBytes: int, backupCount: int, encoding: str) -> None:
        super().__init__(filename, mode="a", encoding=encoding)
        self.maxBytes = maxBytes
        self.backupCount = backupCount

    def emit(self, record: logging.LogRecord) -> None:
        try:
            if self.shouldRollover(record):
                self.doRollover()
            super().emit(record)
        except Exception:
            self.handleError(record)

    def shouldRollover(self, record: logging.LogRecord) -> bool:
        if self.stream is None:
            self.stream = self._open()
        if self.maxBytes <= 0 or (os.path.exists(self.baseFilename) and not os.path.isfile(self.baseFilename)):
            return False
        self.stream.seek(0, os.SEEK_END)
        return bool(self.stream.tell() + len(self.format(record) + self.terminator) >= self.maxBytes)

    def doRollover(self) -> None:
        if self.stream is not None:
            self.stream.close()
            self.stream = None
        for i in range(self.backupCount - 1, 0, -1):
            older, newer = f"{self.baseFilename}.{i}", f"{self.baseFilename}.{i + 1}"
            if os.path.exists(older):
                if os.path.exists(newer):
                    os.remove(newer)
                os.rename(older, newer)
        if self.backupCount > 0 and os.path.exists(self.baseFilename):
            first = f"{self.baseFilename}.1"
            if os.path.exists(first):
                os.remove(first)
            os.rename(self.baseFilename, first)
        self.stream = self._open()

    def handleError(self, record: logging.LogRecord) -> None:
        pass


def stop_logging() -> None:
    """Remove what :func:`setup_logging` installed (its handlers and its excepthook)."""
    root = logging.getLogger()
    for handler in _installed:
        root.removeHandler(handler)
        handler.close()
    _installed.clear()
    if sys.excepthook is _log_uncaught:
        sys.excepthook = sys.__excepthook__


def _enable_faulthandler(directory: Path, debug: bool) -> None:
    """A hard crash (segfault, abort in Qt) writes every thread's Python stack to crash.log (stderr: --debug)."""
    global _crash_file, _faulthandler_ours
    if faulthandler.is_enabled() and not _faulthandler_ours:
        return  # enabled already by whoever runs us (python -X faulthandler, PYTHONFAULTHANDLER, pytest)
    _faulthandler_ours = True
    if not debug:
        target = directory / CRASH_FILE
        try:
            if _crash_file is None or _crash_file.closed or Path(_crash_file.name) != target:
                if _crash_file is not None:
                    _crash_file.close()
                _crash_file = open(target, "a", encoding="utf-8")  # kept open for a crash
            faulthandler.enable(file=_crash_file, all_threads=True)
            return
        except OSError:
            _crash_file = None
    if sys.stderr is not None:  # --debug, or no crash file can be written
        faulthandler.enable(all_threads=True)


def _log_uncaught(kind: type[BaseException], exc: BaseException, tb: TracebackType | None) -> None:
    if not issubclass(kind, KeyboardInterrupt):
        log.critical("uncaught exception", exc_info=(kind, exc, tb))
    sys.__excepthook__(kind, exc, tb)


def log_path() -> Path | None:
    """The log file of this run, when one is written."""
    return _log_path


def last_lines(count: int = 40, path: Path | None = None) -> list[str]:
    """The last ``count`` lines of the log (at most the last 64 KiB are read)."""
    path = path or _log_path
    if path is None:
        return []
    try:
        with open(path, "rb") as fh:
            fh.seek(0, os.SEEK_END)
            size = fh.tell()
            fh.seek(max(0, size - 64 * 1024))
            tail = fh.read().decode("utf-8", errors="replace")
    except OSError:
        return []
    lines = tail.splitlines()
    if size > 64 * 1024:
        lines = lines[1:]  # the first line read may be cut
    return lines[-count:]


def diagnostics(extra: Mapping[str, str] | None = None, lines: int = 40) -> str:
    """What a bug report needs: versions, platform, where the files are, and the last log lines."""
    import platform

    libc, libc_version = platform.libc_ver()
    rows = {
        "gpu-procure": __version__,
        "python": f"{sys.version.split()[0]} ({platform.python_implementation()}, {sys.executable})",
        "platform": platform.platform(),
        "machine": platform.machine(),
        "libc": f"{libc} {libc_version}".strip() or "unknown",
        "frozen": "yes (bundle)" if getattr(sys, "frozen", False) else "no",
        "locale": os.environ.get("LC_ALL") or os.environ.get("LANG") or "unknown",
        **dict(extra or {}),
        "log file": str(_log_path) if _log_path else "none",
    }
    width = max(map(len, rows))
    text = [f"{k.ljust(width)}  {v}" for k, v in rows.items()]
    tail = last_lines(lines)
    if tail:
        text += ["", f"last {len(tail)} log lines:", *tail]
    return "\n".join(text) + "\n"

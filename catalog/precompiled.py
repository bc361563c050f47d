"""The precompiled catalog: each catalog directory's parts, parsed and validated once, in one cache file.

Loading the shipped catalog is mostly parsing YAML and validating every part against its pydantic model;
both are pure functions of the files' bytes and of this code. So the loader stores, per directory, the
validated parts of all its files in one entry of the user cache directory (catalog/paths.py), keyed by a
hash of the files' names and bytes, of the catalog code and of the library versions: an edited file, an
added or removed one, or a new release of the app gives another key, so a stale entry is never read.

One entry per directory, not per file: a fresh per-file cache of a 3,000-file user catalog created 3,000
files and cost more than parsing them (issue 31); a directory is written once, after a load that found no
problem in it (a directory with problems is read afresh every time, so its messages are always current).

And not on the first load: hashing every byte and pickling every part made the first load with an empty
cache 1.2-1.4 x slower than no cache at all (issue 31, bench/bench_catalog_cache.py), for a directory that
may never be loaded again (a one-off ``catalog check``). The first load of a directory only leaves a
*sighting*: a tiny file named after the directory's listing (its files' paths and sizes, no contents), so it
hashes no content and pickles nothing, the work of no cache. A load that finds the sighting hashes the
files, and writes the entry when there is none; the load after it reads the entry.

An entry is a pickle, read back with an unpickler that builds only the catalog's own classes, dates and
plain containers: a damaged or foreign file is ignored with a log line, never run and never a crash.
"""

from __future__ import annotations

import hashlib
import io
import logging
import os
import pickle
import sys
import tempfile
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

from catalog.files import InputFileError, read_bounded

log = logging.getLogger(__name__)

FORMAT = b"gpu-procure precompiled catalog 1"
SUFFIX = ".catalog.pickle"
SIGHTING_SUFFIX = ".catalog.seen"
MAX_SIGHTINGS = 64
"""Sightings kept (the most recently used): each listing loaded once, an edited file giving another."""
MAX_ENTRY_BYTES = 256 * 1024 * 1024

# What an entry may contain besides the catalog's own classes (catalog.models, catalog.loader).
_ALLOWED = {
    ("builtins", "set"), ("builtins", "frozenset"), ("datetime", "date"), ("datetime", "datetime"),
}
_CATALOG_MODULES = ("catalog.models", "catalog.loader", "catalog.compat")


class _CatalogUnpickler(pickle.Unpickler):
    def __init__(self, file: io.BytesIO, classes: frozenset[tuple[str, str]] = frozenset()) -> None:
        super().__init__(file)
        self._classes = classes

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) in _ALLOWED:
            return super().find_class(module, name)
        if (module, name) in self._classes:
            found = super().find_class(module, name)
            if isinstance(found, type):
                return found
        if module in _CATALOG_MODULES:
            found = super().find_class(module, name)
            if isinstance(found, type):  # a class to build, never a function to call
                return found
        raise pickle.UnpicklingError(f"{module}.{name} is not part of a catalog")


@cache
def _code_key() -> bytes:
    """What the validated parts depend on besides the files: the models, the loader and the libraries."""
    import pydantic
    import yaml

    h = hashlib.sha256(FORMAT)
    h.update(f"{sys.version_info[:2]} pydantic {pydantic.VERSION} yaml {yaml.__version__}".encode())
    for name in _CATALOG_MODULES:
        module = sys.modules.get(name)
        try:
            h.update(Path(str(getattr(module, "__file__", None))).read_bytes())
        except OSError:  # a frozen bundle holds no sources: it changes only with the executable
            st = os.stat(sys.executable)
            h.update(f"{sys.executable} {st.st_size} {st.st_mtime_ns}".encode())
    return h.digest()


def entry_key(files: Sequence[tuple[str, bytes]], kind: str) -> str:
    """The cache key of one directory's files (name and bytes each), read as ``kind`` ('shipped', 'overlay')."""
    h = hashlib.sha256(_code_key())
    h.update(kind.encode() + b"\0")
    for name, raw in files:
        h.update(f"{name}\0{len(raw)}\0".encode())
        h.update(raw)
    return h.hexdigest()


def sighting_key(files: Sequence[tuple[str, int]], kind: str) -> str:
    """The name of a directory's listing: its files' paths and sizes (``(path, size)`` each), no contents."""
    h = hashlib.sha256(FORMAT + b" sighting\0" + kind.encode() + b"\0")
    for name, size in files:
        h.update(f"{name}\0{size}\0".encode("utf-8", "surrogateescape"))
    return h.hexdigest()


def sighted(directory: Path, sighting: str) -> bool:
    """Whether the listing ``sighting`` was loaded before (then its entry is worth looking up and writing);
    the first time, the sighting is left for the next load and False returned. No error if unwritable."""
    mark = directory / f"{sighting}{SIGHTING_SUFFIX}"
    try:
        os.utime(mark)  # seen before: and recently used again, so pruning keeps it
        return True
    except OSError:
        pass
    try:
        directory.mkdir(parents=True, exist_ok=True)
        # a new file or nothing: never written through a link planted under the name
        fd = os.open(mark, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o644)
        try:
            os.write(fd, sighting.encode())
        finally:
            os.close(fd)
    except OSError as exc:
        log.debug("catalog sighting not written to %s: %s", directory, exc)
        return False
    from catalog.paths import prune

    prune(directory, MAX_SIGHTINGS * len(sighting), f"*{SIGHTING_SUFFIX}", keep=mark)
    return False


def load(directory: Path, key: str, classes: frozenset[tuple[str, str]] = frozenset()) -> Any | None:
    """The entry stored under ``key``, or None when there is none (or it is unreadable: then logged).
    ``classes``: (module, name) of classes beyond the catalog's that the entry may hold (the policy's model)."""
    entry = directory / f"{key}{SUFFIX}"
    try:
        blob = read_bounded(entry, MAX_ENTRY_BYTES)
    except InputFileError as exc:  # a directory, a FIFO, a file of gigabytes: not ours
        log.warning("ignoring %s in the catalog cache: %s", entry, exc.strerror)
        return None
    except OSError:
        return None  # not there yet (or unreadable): the files are read and the entry written
    try:
        value = _CatalogUnpickler(io.BytesIO(blob), classes).load()
        if not (isinstance(value, tuple) and len(value) == 2 and value[0] == key):
            raise ValueError("not an entry for this key")
    except Exception as exc:  # any damage at all (pickle raises many kinds): parse the files instead
        log.warning("ignoring a damaged precompiled catalog %s (%s: %s); the catalog files are read instead",
                    entry, type(exc).__name__, exc)
        return None
    try:
        os.utime(entry)  # recently used: pruning removes the least recently used entries first
    except OSError:
        pass
    return value[1]


def store(directory: Path, key: str, value: Any) -> None:
    """Write the entry atomically, then keep the cache within its size limit; an unwritable cache is no error."""
    from catalog.paths import YAML_CACHE_MAX_BYTES, prune

    entry = directory / f"{key}{SUFFIX}"
    try:
        blob = pickle.dumps((key, value), protocol=pickle.HIGHEST_PROTOCOL)
        directory.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{key}.", suffix=".tmp", dir=directory)
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(blob)
            os.replace(tmp, entry)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except (OSError, pickle.PicklingError, TypeError, AttributeError, RecursionError) as exc:
        log.debug("precompiled catalog not written to %s: %s", directory, exc)
        return
    prune(directory, YAML_CACHE_MAX_BYTES, keep=entry)

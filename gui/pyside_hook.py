"""A quicker answer to PySide6's question about every module imported after it: "does it use PySide6?".

PySide6 replaces ``builtins.__import__`` to support ``from __feature__ import snake_case``; after each new
import it asks ``shibokensupport.feature._mod_uses_pyside(module)``, which reads the module's source with
``inspect.getsource`` and looks for the word "PySide6". For the ~270 modules the app imports after Qt (pydantic,
the catalog, the plan, the rules, the pages) that cost 50-85 ms of a 1 s start (issue 25). The answer here is
the same question asked of the file's bytes: a ``.py`` file holds "PySide6" exactly when its text does (the
app's sources and its libraries are UTF-8 or ASCII); anything else (a compiled module, a module without a
file, a file that cannot be read) goes to PySide6's own function, as before.

``install()`` is a no-op when PySide6 has no such hook (another version), and when run twice.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from types import ModuleType

import PySide6.QtCore  # noqa: F401  (PySide6 installs its import hook with QtCore)

_MARK = "_gpu_procure_quick"


def uses_pyside(module: ModuleType, fallback: Callable[[ModuleType], bool]) -> bool:
    """Whether ``module``'s source names PySide6, read from its ``.py`` file; ``fallback`` for anything else."""
    path = getattr(module, "__file__", None)
    if not isinstance(path, str) or not path.endswith(".py"):
        return fallback(module)
    try:
        with open(path, "rb") as fh:
            return b"PySide6" in fh.read()
    except OSError:
        return fallback(module)


def install() -> bool:
    """Put the quicker check in place of PySide6's own; True when it is in place."""
    feature = sys.modules.get("shibokensupport.feature")
    original = getattr(feature, "_mod_uses_pyside", None)
    if feature is None or not callable(original):
        return False
    if getattr(original, _MARK, False):
        return True

    def quick(module: ModuleType) -> bool:
        return uses_pyside(module, original)

    setattr(quick, _MARK, True)
    feature._mod_uses_pyside = quick  # type: ignore[attr-defined]
    return True


install()

"""Keeps None alive under PySide6 6.12 on CPython 3.11, where every void Qt method call drops a reference to it.

Measured here (PySide6/shiboken6 6.12.0, CPython 3.11.7): each call of a method that returns nothing, such as
QLabel.setText, lowers sys.getrefcount(None) by exactly one; None starts near 4 000 references, so after a few
thousand calls CPython aborts with "Fatal Python error: none_dealloc: deallocating None". CPython 3.12 made
None immortal (PEP 683), so there the bug is harmless. On older CPython we give None the same effectively
unlimited reference count, once, before any Qt call.
"""

from __future__ import annotations

import ctypes
import sys

IMMORTAL_EXTRA = 1 << 40  # ~10^12 void calls before it could matter (PEP 683 uses a similar huge count)
_done = False


def keep_none_alive() -> bool:
    """Raise None's reference count once on CPython < 3.12; True when it was raised by this call."""
    global _done
    if _done or sys.implementation.name != "cpython" or sys.version_info >= (3, 12):
        return False
    ctypes.c_ssize_t.from_address(id(None)).value += IMMORTAL_EXTRA  # ob_refcnt is the first field
    _done = True
    return True

"""The one bounded JSON reader: reports, raw facts, merge inputs and configs (config.json) all come through here.

Python's ``json`` reads what no other reader does and what no input of this program holds: ``NaN`` and
``Infinity``, ``1e400`` (infinity again), a 4,000-digit integer (a ValueError with a hint about
``sys.set_int_max_str_digits``), a key given twice (the last wins, silently), and nesting deep enough for a
RecursionError in whatever walks the result. :func:`loads` refuses each of them with the file, the line and
the field, as :class:`JsonInputError` (a ValueError); :func:`read_json` first reads the file with the one
bounded reader (regular files only, at most ``limit`` bytes).
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any

from procurement.safe_io import DEFAULT_LIMIT, InputFileError, read_bounded

__all__ = ["MAX_DEPTH", "MAX_INT_DIGITS", "JsonInputError", "loads", "read_json"]

MAX_DEPTH = 64
"""Nesting of objects and arrays (a verification report nests 6 deep, a config.json 3)."""
MAX_INT_DIGITS = 30
"""Digits of one integer: the largest real value (bytes of memory, 10^15) has 16."""
MAX_VALUES = 1_000_000
"""Values in one document (counted from its commas and brackets, an upper bound, before parsing)."""

_CONTROL = re.compile(r"[\x00-\x1f\x7f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


class JsonInputError(ValueError):
    """A JSON file this program refuses: ``where`` (the file), ``line`` (1-based, when known), ``field`` (the
    path inside the document, when known) and ``reason``."""

    def __init__(self, where: str, reason: str, line: int | None = None, field: str = "") -> None:
        self.where, self.reason, self.line, self.field = where, reason, line, field
        head = f"{where}:{line}" if line else where
        super().__init__(f"{head}: {field}: {reason}" if field else f"{head}: {reason}")


def _shown(text: str, limit: int = 60) -> str:
    text = _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)
    return text if len(text) <= limit else text[:limit] + "…"


def _line_of(text: str, needle: str, nth: int = 1) -> int | None:
    at = -1
    for _ in range(nth):
        at = text.find(needle, at + 1)
        if at < 0:
            return None
    return text.count("\n", 0, at) + 1


class _Refused(Exception):
    def __init__(self, reason: str, needle: str = "", nth: int = 1, field: str = "") -> None:
        self.reason, self.needle, self.nth, self.field = reason, needle, nth, field


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _Refused("the key is given twice (which one is meant cannot be told)",
                               json.dumps(key, ensure_ascii=False), 2, _shown(key))
            seen.add(key)
    return out


def _int(digits: int) -> Any:
    def parse(text: str) -> int:
        if len(text.lstrip("-")) > digits:
            raise _Refused(f"not valid JSON here (an integer of {len(text.lstrip('-')):,} digits, at most {digits})",
                           text[:40])
        return int(text)
    return parse


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _Refused(f"not valid JSON here ({_shown(text, 40)} is beyond any finite number)", text[:40])
    return value


def _constant(name: str) -> Any:
    raise _Refused(f"{name} is not valid JSON (no number)", name)


def _too_deep(doc: Any, limit: int) -> str | None:
    """The path of the first container nested more than ``limit`` deep, or None."""
    stack: list[tuple[Any, int, str]] = [(doc, 1, "")]
    while stack:
        node, depth, path = stack.pop()
        if depth > limit:
            return path or "(top)"
        if isinstance(node, dict):
            stack.extend((v, depth + 1, f"{path}.{_shown(k, 30)}" if path else _shown(k, 30))
                         for k, v in node.items() if isinstance(v, (dict, list)))
        elif isinstance(node, list):
            stack.extend((v, depth + 1, f"{path}[{i}]") for i, v in enumerate(node) if isinstance(v, (dict, list)))
    return None


def loads(text: str, where: str, *, max_values: int | None = MAX_VALUES, max_depth: int = MAX_DEPTH,
          max_int_digits: int = MAX_INT_DIGITS) -> Any:
    """The JSON document ``text`` (from the file ``where``), strictly: see the module docstring."""
    if (max_values is not None and len(text) > max_values
            and text.count(",") + text.count("{") + text.count("[") > max_values):
        raise JsonInputError(where, f"more than {max_values:,} values; refused before parsing")
    try:
        doc = json.loads(text, object_pairs_hook=_pairs, parse_int=_int(max_int_digits), parse_float=_float,
                         parse_constant=_constant)
    except json.JSONDecodeError as exc:
        raise JsonInputError(where, f"not valid JSON ({exc.msg}, column {exc.colno})", exc.lineno) from None
    except _Refused as exc:
        raise JsonInputError(where, exc.reason, _line_of(text, exc.needle, exc.nth) if exc.needle else None,
                             exc.field) from None
    except RecursionError:
        raise JsonInputError(where, f"not valid JSON here (nested too deeply: more than {max_depth} levels)") from None
    except ValueError as exc:
        raise JsonInputError(where, f"not valid JSON ({_shown(str(exc), 120)})") from None
    deep = _too_deep(doc, max_depth)
    if deep is not None:
        raise JsonInputError(where, f"not valid JSON here (nested too deeply: more than {max_depth} levels)",
                             field=deep)
    return doc


def read_json(path: str | Path, *, limit: int = DEFAULT_LIMIT, **options: Any) -> Any:
    """:func:`loads` of the file ``path``, read with the one bounded reader (a FIFO or device refused unread,
    at most ``limit`` bytes). Every failure is a JsonInputError naming the file."""
    where = str(path)
    try:
        data = read_bounded(path, limit)
    except InputFileError as exc:
        raise JsonInputError(where, str(exc.strerror)) from None
    except OSError as exc:
        raise JsonInputError(where, f"cannot read ({exc.strerror or exc})") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise JsonInputError(where, f"not UTF-8 text (byte {exc.start})", line) from None
    return loads(text, where, **options)

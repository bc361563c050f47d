"""Safe YAML reading with file:line locations for error messages (shared by the catalog and plan files)."""

from __future__ import annotations

import math
import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import yaml

from catalog.files import InputFileError, read_bounded

try:  # the C loader is ~10x faster; fall back where libyaml is missing
    _Base: Any = yaml.CSafeLoader
except AttributeError:  # pragma: no cover
    _Base = yaml.SafeLoader


class DuplicateKeyError(yaml.constructor.ConstructorError):
    """A key written twice in one mapping (PyYAML keeps the last silently: a second ``gpu:`` section turned a
    4 × A100 plan into 8 × H100)."""

    def __init__(self, key: object, first_line: int, mark: Any) -> None:
        super().__init__(None, None, f"duplicate key '{key}'", mark)
        self.key = key
        self.first_line = first_line


class _Loader(_Base):
    """The safe loader that refuses duplicate keys (merge keys ``<<`` may still be overridden, as YAML says)."""

    def construct_mapping(self, node: Any, deep: bool = False) -> Any:
        if isinstance(node, yaml.MappingNode):
            seen: dict[object, int] = {}
            for key_node, _value in node.value:
                if key_node.tag == "tag:yaml.org,2002:merge":
                    continue
                key = self.construct_object(key_node, deep=True)
                try:
                    if key in seen:
                        raise DuplicateKeyError(key, seen[key], key_node.start_mark)
                    seen[key] = key_node.start_mark.line + 1
                except TypeError:
                    continue  # an unhashable key: the base constructor reports it
        return super().construct_mapping(node, deep=deep)

MAX_YAML_BYTES = 20 * 1024 * 1024
_LINE_BREAK = re.compile("\r\n|[\n\r\x85\u2028\u2029]")
MAX_YAML_VALUES = 150_000
"""Values (scalars, lists and mappings) one YAML file may hold. A plan's cost grows with its values, not its
bytes: 80 000 small mappings in ``verification:`` (240 000 values, 0.9 MB) peaked at 190 MB RSS in ``check``
and a 20 MB file of them exhausted 4 GB (docs/reliability.md). The largest shipped file, catalog/data/gpus.yaml,
holds 1 779 values."""
MAX_ALIAS_VALUES = 100_000
"""How many values aliases (``*name``) may add to a file beyond those written out: a few lines of nested
aliases ('billion laughs') otherwise expand to hundreds of millions of values when the data is walked."""


class YamlError(ValueError):
    """A problem in a YAML file, located as ``path:line``."""

    def __init__(self, path: str | Path, line: int | None, message: str) -> None:
        self.path = str(path)
        self.line = line
        self.message = message
        where = f"{self.path}:{line}" if line else self.path
        super().__init__(f"{where}: {message}")


def parse_yaml(text: str, path: str | Path) -> Any:
    """``yaml.safe_load`` that turns every failure into a located :class:`YamlError`."""
    if len(text) > MAX_YAML_BYTES:
        raise YamlError(path, None, f"file is too large ({len(text) // 1_000_000} MB; at most "
                                    f"{MAX_YAML_BYTES // 1_000_000} MB)")
    crowded = _value_limit_line(text)
    if crowded is not None:
        raise YamlError(path, crowded, f"more than {MAX_YAML_VALUES:,} values in one file; a plan, catalog or "
                                       "policy holds far fewer (refused before building them in memory)")
    try:
        data = yaml.load(text, Loader=_Loader)
    except DuplicateKeyError as exc:
        line = exc.problem_mark.line + 1 if exc.problem_mark else None
        key = format_loc([str(exc.key)])
        raise YamlError(path, line, f"duplicate key '{key}' (first on line {exc.first_line}); a key may appear "
                                    "once in a mapping") from None
    except yaml.constructor.ConstructorError as exc:
        line = exc.problem_mark.line + 1 if exc.problem_mark else None
        match = re.search(r"tag '([^']+)'", exc.problem or "")
        if match:
            tag = match.group(1).replace("tag:yaml.org,2002:", "!!")
            raise YamlError(path, line, f"tag '{tag}' is not allowed (only plain YAML data is read)") from None
        raise YamlError(path, line, f"unsupported YAML: {exc.problem}") from None
    except yaml.MarkedYAMLError as exc:
        line = exc.problem_mark.line + 1 if exc.problem_mark else None
        if exc.problem_mark and exc.problem_mark.index >= len(text):  # "at end of file": name its last line
            breaks = len(_LINE_BREAK.findall(text))
            ends_with_break = bool(text) and _LINE_BREAK.match(text[-1]) is not None
            line = max(1, breaks if ends_with_break else breaks + 1)
        raise YamlError(path, line, f"not valid YAML: {exc.problem or exc.context}") from None
    except yaml.reader.ReaderError as exc:  # its str() spans two lines and names no line of the file
        line = text.count("\n", 0, exc.position) + 1
        column = exc.position - text.rfind("\n", 0, exc.position)
        char = exc.character if isinstance(exc.character, int) else ord(exc.character or "\0")
        raise YamlError(path, line, f"not valid YAML: character #x{char:04x} at column {column}: "
                                    f"{exc.reason}") from None
    except yaml.YAMLError as exc:
        raise YamlError(path, None, f"not valid YAML: {exc}") from None
    except RecursionError:
        raise YamlError(path, None, "not valid YAML: nested too deeply") from None
    except UnicodeEncodeError as exc:  # a str holding lone surrogates (never read from a file, pasted text may)
        line = text.count("\n", 0, exc.start) + 1
        raise YamlError(path, line, f"not valid text: character #x{ord(text[exc.start]):04x} "
                                    "(a lone surrogate) cannot be read") from None
    except (ValueError, OverflowError) as exc:
        # PyYAML raises plain ValueError for scalars that match a timestamp but are no date (2024-13-45), and
        # for an integer of more digits than Python converts (sys.get_int_max_str_digits, 4300 by default)
        line, what = _unconstructible_scalar(text)
        raise YamlError(path, line, what or f"not valid YAML: {exc}") from None
    problem = _alias_problem(data)
    if problem:
        raise YamlError(path, _first_alias_line(text), problem)
    return data


def _value_limit_line(text: str) -> int | None:
    """The line where the file passes MAX_YAML_VALUES values (scalars, lists, mappings), or None. A streaming
    pass over the parser's events, so memory does not grow with the file; YAML errors are left to the load."""
    if len(text) < MAX_YAML_VALUES:  # every value takes at least one character
        return None
    count = 0
    try:
        for event in yaml.parse(text, Loader=_Loader):
            if isinstance(event, (yaml.ScalarEvent, yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                count += 1
                if count > MAX_YAML_VALUES:
                    return event.start_mark.line + 1 if event.start_mark is not None else None
    except (yaml.YAMLError, RecursionError, UnicodeEncodeError, ValueError):
        return None
    return None


def _alias_problem(data: Any) -> str | None:
    """Why the aliases in ``data`` are refused (a cycle, or too many values), or None.

    Without aliases every list and mapping occurs once, and the check is one pass over the containers.
    """
    seen: set[int] = set()
    shared = False
    stack = [data]
    while stack:
        node = stack.pop()
        if isinstance(node, (list, dict)):
            if id(node) in seen:
                shared = True
                continue
            seen.add(id(node))
            stack.extend(node.values() if isinstance(node, dict) else node)
    if not shared:
        return None
    unique = len(seen)
    size: dict[int, int] = {}
    open_: set[int] = set()
    todo: list[tuple[Any, bool]] = [(data, False)]
    while todo:
        node, done = todo.pop()
        children = list(node.values() if isinstance(node, dict) else node)
        if done:
            open_.discard(id(node))
            size[id(node)] = 1 + sum(size.get(id(c), 1) for c in children)
            if size[id(node)] - unique > MAX_ALIAS_VALUES:
                return (f"aliases expand to more than {MAX_ALIAS_VALUES:,} values beyond those written "
                        "out (refused: this looks like an alias bomb)")
            continue
        if id(node) in size:
            continue
        if id(node) in open_:
            return "an alias refers to a list or mapping that contains it (recursive data is not allowed)"
        open_.add(id(node))
        todo.append((node, True))
        todo += [(c, False) for c in children if isinstance(c, (list, dict)) and id(c) not in size]
    return None


def _first_alias_line(text: str) -> int | None:
    try:
        for event in yaml.parse(text, Loader=_Loader):
            if isinstance(event, yaml.AliasEvent) and event.start_mark is not None:
                return event.start_mark.line + 1
    except yaml.YAMLError:
        pass
    return None


def _unconstructible_scalar(text: str) -> tuple[int | None, str | None]:
    """Line and message of the first scalar that PyYAML cannot construct: a timestamp-looking scalar that is no
    date, or an integer too long to convert (named by its field: the limit's own text, which names a Python
    setting, means nothing to the person who typed the number)."""
    root = compose(text)
    stack: list[tuple[Any, tuple[str | int, ...], bool]] = [(root, (), False)] if root is not None else []
    constructor = yaml.constructor.SafeConstructor()
    while stack:
        node, loc, is_key = stack.pop(0)
        if isinstance(node, yaml.MappingNode):
            children = []
            for key, value in node.value:
                name = key.value if isinstance(key, yaml.ScalarNode) else "?"
                children += [(key, loc, True), (value, (*loc, name), False)]
            stack[:0] = children
        elif isinstance(node, yaml.SequenceNode):
            stack[:0] = [(n, (*loc, i), False) for i, n in enumerate(node.value)]
        elif isinstance(node, yaml.ScalarNode) and node.tag == "tag:yaml.org,2002:timestamp":
            try:
                constructor.construct_yaml_timestamp(node)
            except (ValueError, OverflowError) as exc:
                return node.start_mark.line + 1, f"not valid YAML: '{node.value}' is not a valid date or time ({exc})"
        elif isinstance(node, yaml.ScalarNode) and node.tag == "tag:yaml.org,2002:int":
            try:
                constructor.construct_yaml_int(node)
            except (ValueError, OverflowError):
                digits = sum(c.isdigit() for c in str(node.value))
                what = f"a key that is a number too large ({digits} digits)" if is_key else \
                    f"a number too large ({digits} digits)"
                return node.start_mark.line + 1, f"{format_loc(loc)}: {what}" if loc else what
    return None, None


def read_yaml(path: Path) -> tuple[Any, str]:
    """Read and parse a YAML file; returns (data, text). I/O and decoding errors become YamlError."""
    _, text = _read_text(path)
    return parse_yaml(text, path), text


def read_yaml_text(path: Path) -> str:
    """The text of a YAML file, read bounded (MAX_YAML_BYTES) and decoded; errors become YamlError. For callers
    that parse the text themselves (a second parse of a 2 MB plan took 11 s)."""
    return _read_text(path)[1]


def compose(text: str) -> Any:
    """The YAML node tree of ``text`` (C loader where available), or None when it does not parse."""
    try:
        return yaml.compose(text, Loader=_Loader)
    except (yaml.YAMLError, RecursionError, UnicodeEncodeError):
        return None


def locate(text: str, loc: Sequence[str | int]) -> int | None:
    """1-based line of the node at ``loc`` (keys and list indexes), or of its deepest existing parent.
    Composes the whole text: for many locations in one text use a :class:`Locator` (this is one, used once)."""
    return Locator(text).line(loc)


class Locator:
    """The lines of many locations in one text: the text composed once, and each mapping's keys indexed the
    first time a location passes through it. Locating each of 1,000 unknown checklist ids with
    :func:`locate` composed a plan 1,000 times (40 s in ``check``, issue 31); this is linear in the text
    plus the locations. The one walk of a composed file: :func:`locate` and the catalog's lines use it."""

    def __init__(self, text: str) -> None:
        self._root = compose(text)
        self._keys: dict[int, dict[str, tuple[Any, Any]]] = {}

    def _index(self, node: Any) -> dict[str, tuple[Any, Any]]:
        index = self._keys.get(id(node))
        if index is None:
            index = {}
            for k, v in node.value:
                value = getattr(k, "value", None)
                if isinstance(value, str):
                    index.setdefault(value, (k, v))  # the first of a key written twice
            self._keys[id(node)] = index
        return index

    def line(self, loc: Sequence[str | int]) -> int | None:
        node = self._root
        if node is None:
            return None
        line: int = node.start_mark.line + 1
        for key in loc:
            if isinstance(node, yaml.MappingNode):
                found = self._index(node).get(str(key))
                if found is None:
                    return line
                line = found[0].start_mark.line + 1
                node = found[1]
            elif isinstance(node, yaml.SequenceNode) and isinstance(key, int) and 0 <= key < len(node.value):
                node = node.value[key]
                line = node.start_mark.line + 1
            else:
                return line
        return line


_BOUND_ERRORS = frozenset({"greater_than", "greater_than_equal", "less_than", "less_than_equal", "finite_number"})


def not_finite(err: Any) -> bool:
    """Whether a pydantic error is a bound that a NaN or an infinity failed: ``.nan`` fails every comparison,
    so ``budget_cny: .nan`` said 'should be less than or equal to 1000000000000' and ``tdp_w: .nan`` 'should
    be greater than 0'. Plans and catalogs say 'must be a finite number' instead, for ``.inf`` as for NaN."""
    if err.get("type") not in _BOUND_ERRORS:
        return False
    value = err.get("input")
    if isinstance(value, str):  # 'nan' and 'inf' are strings to YAML, numbers to pydantic ('1e309' is too large)
        return value.strip().lstrip("+-").lower() in ("nan", "inf", "infinity")
    return isinstance(value, float) and not math.isfinite(value)


def format_loc(loc: Sequence[str | int]) -> str:
    """('server', 'storage', 0, 'count') -> 'server.storage[0].count'."""
    out = ""
    for part in loc:
        if not isinstance(part, int):  # a key from the file may hold a newline: keep messages one line each
            part = re.sub(r"[\x00-\x1f\x7f\u2028\u2029]", lambda m: f"\\x{ord(m.group()):02x}", str(part))
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out


# ---------------------------------------------------------------- the cache directory
# Parsing and validating YAML is most of the cost of loading the catalog; catalog/precompiled.py keeps each
# catalog directory's validated parts in one entry of this directory.


def cache_dir() -> Path | None:
    """Where the precompiled catalog is cached: $GPU_PROCURE_CACHE_DIR ('' or 'off' disables), else the user cache."""
    env = os.environ.get("GPU_PROCURE_CACHE_DIR")
    if env is not None:
        return None if env.strip().lower() in ("", "0", "off", "no", "false") else Path(env)
    from catalog.paths import cache_root

    return cache_root() / "yaml"


def read_raw_text(path: Path) -> tuple[bytes, str]:
    """A YAML file's bytes and text, read bounded (MAX_YAML_BYTES) and decoded; errors become YamlError."""
    return _read_text(path)


def _read_text(path: Path) -> tuple[bytes, str]:
    try:
        raw = read_bounded(path, MAX_YAML_BYTES)
        return raw, raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise YamlError(path, None, f"not UTF-8 text (byte {exc.start})") from None
    except InputFileError as exc:
        raise YamlError(path, None, str(exc.strerror)) from None
    except OSError as exc:
        raise YamlError(path, None, f"cannot read: {exc.strerror or exc}") from None

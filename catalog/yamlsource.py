"""Safe YAML reading with file:line locations for error messages (shared by the catalog and plan files)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import yaml

try:  # the C loader is ~10x faster; fall back where libyaml is missing
    _Loader: Any = yaml.CSafeLoader
except AttributeError:  # pragma: no cover
    _Loader = yaml.SafeLoader

MAX_YAML_BYTES = 20 * 1024 * 1024


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
    try:
        return yaml.load(text, Loader=_Loader)
    except yaml.constructor.ConstructorError as exc:
        line = exc.problem_mark.line + 1 if exc.problem_mark else None
        match = re.search(r"tag '([^']+)'", exc.problem or "")
        if match:
            tag = match.group(1).replace("tag:yaml.org,2002:", "!!")
            raise YamlError(path, line, f"tag '{tag}' is not allowed (only plain YAML data is read)") from None
        raise YamlError(path, line, f"unsupported YAML: {exc.problem}") from None
    except yaml.MarkedYAMLError as exc:
        line = exc.problem_mark.line + 1 if exc.problem_mark else None
        raise YamlError(path, line, f"not valid YAML: {exc.problem or exc.context}") from None
    except yaml.YAMLError as exc:
        raise YamlError(path, None, f"not valid YAML: {exc}") from None
    except RecursionError:
        raise YamlError(path, None, "not valid YAML: nested too deeply") from None


def read_yaml(path: Path) -> tuple[Any, str]:
    """Read and parse a YAML file; returns (data, text). I/O and decoding errors become YamlError."""
    try:
        size = path.stat().st_size
        if size > MAX_YAML_BYTES:
            raise YamlError(path, None, f"file is too large ({size // 1_000_000} MB; at most "
                                        f"{MAX_YAML_BYTES // 1_000_000} MB)")
        text = path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as exc:
        raise YamlError(path, None, f"not UTF-8 text (byte {exc.start})") from None
    except OSError as exc:
        raise YamlError(path, None, f"cannot read: {exc.strerror or exc}") from None
    return parse_yaml(text, path), text


def compose(text: str) -> Any:
    """The YAML node tree of ``text`` (C loader where available), or None when it does not parse."""
    try:
        return yaml.compose(text, Loader=_Loader)
    except (yaml.YAMLError, RecursionError):
        return None


def locate_node(node: Any, loc: Sequence[str | int]) -> int | None:
    """1-based line of the node at ``loc`` below ``node``, or of its deepest existing parent."""
    if node is None:
        return None
    line: int = node.start_mark.line + 1
    for key in loc:
        if isinstance(node, yaml.MappingNode):
            for k, v in node.value:
                if getattr(k, "value", None) == str(key):
                    line = k.start_mark.line + 1
                    node = v
                    break
            else:
                return line
        elif isinstance(node, yaml.SequenceNode) and isinstance(key, int) and 0 <= key < len(node.value):
            node = node.value[key]
            line = node.start_mark.line + 1
        else:
            return line
    return line


def locate(text: str, loc: Sequence[str | int]) -> int | None:
    """1-based line of the node at ``loc`` (keys and list indexes), or of its deepest existing parent."""
    return locate_node(compose(text), loc)


def format_loc(loc: Sequence[str | int]) -> str:
    """('server', 'storage', 0, 'count') -> 'server.storage[0].count'."""
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out

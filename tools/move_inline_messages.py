"""Moves core messages registered as inline {zh, en} pairs into the gettext catalogue; safe to run again.

    python tools/move_inline_messages.py [FILE_OR_DIR ...]      (default: procurement/ catalog/ gui/)

For every ``register({...})`` entry whose value is ``{"zh": ..., "en": ...}``:
- the Chinese goes into resources/locale/zh/LC_MESSAGES/messages.po (msgctxt = the key, msgid = the English);
- the code keeps the English only: a string, or ``plural(one, other, "field")`` where the old English relied
  on the counted-noun rewriting ("{n} GPU(s)", "1 GPUs" → "1 GPU"). The two forms are worked out by running
  that same rewriting with the field set to 1 and to many, so every message reads exactly as before.
- An entry whose English has two or more counted fields cannot be one gettext message: the first counted
  field chooses the message's form, each later one becomes a counted phrase 'KEY#field' ("{b} GPU" /
  "{b} GPUs", with its Chinese from ZH_COUNTED) that the message uses as '{#b}' (procurement/messages.py).
  A counted noun this table does not know is left as it is and listed, for a person to split.
Then ``python -m gui.i18n_build`` compiles the catalogue. Entries already in English are not touched, so a
second run changes nothing.
"""

from __future__ import annotations

import argparse
import ast
import re
import subprocess
import sys
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from gui import i18n_build  # noqa: E402

WIDTH = 120
FIELD = re.compile(r"\{(\w+)((?:![rsa])?(?::[^{}]*)?)\}")
MARK = "\x01"


# The counted-noun rewriting legacy pairs' English went through at run time ("1 server(s)" → "1 server",
# "4 GPU(s)" → "4 GPUs", "1 GPUs" → "1 GPU"): run here with a count of 1 and of many, it gives the two forms.
_ONE = re.compile(r"(?<![\d.,])\b1 ((?:[A-Za-z-]+ )?[A-Za-z-]+?)(?:\(s\)|s\b(?!'))")
_ONE_NOUNS = frozenset({
    "GPU", "CPU", "PSU", "NIC", "DIMM", "node", "server", "socket", "warning", "error", "core", "drive",
    "card", "part", "unit", "redundant unit", "NVMe drive", "position", "GPU position", "module", "item",
    "finding", "port", "slot", "bay",
})
_MANY = re.compile(r"\b([A-Za-z][A-Za-z-]*)\(s\)")


def english_plurals(text: str) -> str:
    """A legacy pair's English as it was shown: counted nouns agree with a literal count."""
    text = _ONE.sub(lambda m: f"1 {m.group(1)}" if m.group(1) in _ONE_NOUNS else m.group(0), text)
    return _MANY.sub(r"\1s", text)


ZH_COUNTED = {
    "GPU": "{} 个 GPU", "CPU": "{} 颗 CPU", "PSU": "{} 个电源", "NIC": "{} 块网卡", "DIMM": "{} 条内存",
    "node": "{} 个节点", "server": "{} 台服务器", "socket": "{} 路", "core": "{} 核", "warning": "{} 个警告",
    "error": "{} 个错误", "slot": "{} 槽", "GPU position": "{} 个 GPU 位", "position": "{} 个位置",
    "drive": "{} 块硬盘", "NVMe drive": "{} 块 NVMe 硬盘", "card": "{} 张卡", "port": "{} 个端口", "bay": "{} 个盘位",
    "part": "{} 个部件", "item": "{} 项", "finding": "{} 条提示", "module": "{} 条内存", "unit": "{} 个",
    "redundant unit": "{} 个冗余电源",
}
"""The Chinese of a counted phrase, for a message with two counted nouns: the second becomes its own plural
message 'KEY#field' (the Chinese message itself keeps its plain '{field}', which it may go on using)."""


@dataclass
class Moved:
    key: str
    english: str | tuple[str, str, str]
    zh: str
    phrases: list[Moved] = field(default_factory=list)
    """Counted phrases ('KEY#field') that go with this message."""


@dataclass
class FileResult:
    path: Path
    moved: list[Moved] = field(default_factory=list)
    left: list[str] = field(default_factory=list)


def english_forms(en: str) -> str | tuple[str, str, str]:
    """The English of a legacy template as the code will hold it: text, or (one, other, count field)."""
    english, phrases = english_and_phrases(en)
    if phrases:
        raise ValueError(f"counted fields {[p[2] for p in phrases]} besides {english[2]}: use english_and_phrases")
    return english


def english_and_phrases(en: str) -> tuple[str | tuple[str, str, str], list[tuple[str, str, str]]]:
    """The English as the code will hold it, plus the counted phrases of every counted field after the first:
    "{a} CPU(s) for {b} GPU(s)" → ("{a} CPU for {#b}", "{a} CPUs for {#b}", "a") and ("{b} GPU", "{b} GPUs", "b").
    Raises ValueError when a second counted noun is not one the rewriting knew (a person splits it)."""
    other = english_plurals(en)
    counts: list[tuple[int, str, str]] = []
    for name in sorted({m.group(1) for m in FIELD.finditer(en)}):
        marked = FIELD.sub(lambda m, name=name: f"{MARK}1" if m.group(1) == name else m.group(0), en)
        one = english_plurals(marked)
        many = english_plurals(marked.replace(f"{MARK}1", f"{MARK}2"))
        if one.replace(f"{MARK}1", MARK) != many.replace(f"{MARK}2", MARK):
            spec = {m.group(2) for m in FIELD.finditer(en) if m.group(1) == name}
            # put the field back as it was written ("{n}", "{n:,}")
            restored = one.replace(f"{MARK}1", "{" + name + (spec.pop() if len(spec) == 1 else "") + "}")
            counts.append((en.index("{" + name), name, restored))
    if not counts:
        return other, []
    counts.sort()
    _, first, one = counts[0]
    phrases: list[tuple[str, str, str]] = []
    for _, name, _ in counts[1:]:
        phrase = (r"\{" + re.escape(name) + r"((?:![rsa])?(?::[^{}]*)?)\} "
                  r"((?:[A-Za-z-]+ )?[A-Za-z-]+?)(?:\(s\)|s\b(?!'))")
        m = re.search(phrase, en)
        if m is None or m.group(2) not in _ONE_NOUNS:
            raise ValueError(f"counted fields {[c[1] for c in counts]}: split it into counted phrases by hand")
        field_ref, noun = "{" + name + m.group(1) + "}", m.group(2)
        span = f"{field_ref} {noun}s"
        if span not in other or span not in one:
            raise ValueError(f"counted fields {[c[1] for c in counts]}: split it into counted phrases by hand")
        other, one = other.replace(span, "{#" + name + "}"), one.replace(span, "{#" + name + "}")
        phrases.append((f"{field_ref} {noun}", span, name))
    return ((one, other, first) if one != other else other), phrases


def width(s: str) -> int:
    """Columns ``s`` takes as ruff measures a line (East Asian wide characters count two)."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in s)


def literal(s: str) -> str:
    r = repr(s)
    if r[0] == "'":
        r = '"' + r[1:-1].replace("\\'", "'").replace('"', '\\"') + '"'
    return r


def chunks(s: str, room: int) -> list[str]:
    """``s`` cut at spaces into pieces whose literals fit ``room`` columns."""
    words = re.split(r"(?<= )", s)
    out, cur = [], ""
    for w in words:
        if cur and width(literal(cur + w)) > room:
            out.append(cur)
            cur = w
        else:
            cur += w
    if cur or not out:
        out.append(cur)
    return out


def string_expr(s: str, indent: int, col: int, trailer: str) -> str:
    """A string literal starting at column ``col``; wrapped in parentheses over lines when too wide."""
    one = literal(s)
    if col + width(one) + width(trailer) <= WIDTH:
        return one
    pad = " " * (indent + 4)
    lines = [pad + literal(c) for c in chunks(s, WIDTH - indent - 4)]
    return "(\n" + "\n".join(lines) + "\n" + " " * indent + ")"


def value_expr(english: str | tuple[str, str, str], indent: int, col: int, trailer: str) -> str:
    if isinstance(english, str):
        return string_expr(english, indent, col, trailer)
    one, other, count = english
    flat = f"plural({literal(one)}, {literal(other)}, {literal(count)})"
    if col + width(flat) + width(trailer) <= WIDTH:
        return flat
    pad = indent + 4
    parts = [" " * pad + string_expr(x, pad, pad, ",") + "," for x in (one, other)]
    parts.append(" " * pad + literal(count) + ",")
    return "plural(\n" + "\n".join(parts) + "\n" + " " * indent + ")"


def is_register(node: ast.AST) -> bool:
    if not isinstance(node, ast.Call) or len(node.args) != 1 or not isinstance(node.args[0], ast.Dict):
        return False
    f = node.func
    return (isinstance(f, ast.Name) and f.id == "register") or (isinstance(f, ast.Attribute) and f.attr == "register")


def pair(node: ast.AST) -> dict[str, str] | None:
    if not isinstance(node, ast.Dict) or len(node.keys) != 2:
        return None
    out = {}
    for k, v in zip(node.keys, node.values, strict=True):
        if not (isinstance(k, ast.Constant) and isinstance(v, ast.Constant) and isinstance(v.value, str)):
            return None
        out[k.value] = v.value
    return out if set(out) == {"zh", "en"} else None


def convert_source(path: Path) -> tuple[str, FileResult]:
    """The file's new text and what moved; the text is unchanged when nothing is left to move."""
    raw = path.read_bytes()
    text = raw.decode("utf-8")
    result = FileResult(path)
    tree = ast.parse(text)
    lines = raw.split(b"\n")
    starts = [0]
    for ln in lines:
        starts.append(starts[-1] + len(ln) + 1)
    edits: list[tuple[int, int, bytes]] = []
    for node in ast.walk(tree):
        if not is_register(node):
            continue
        d = node.args[0]
        for k, v in zip(d.keys, d.values, strict=True):
            p = pair(v)
            if p is None or not isinstance(k, ast.Constant):
                continue
            key = k.value
            try:
                english, phrases = english_and_phrases(p["en"])
                moved = Moved(key, english, p["zh"], [
                    Moved(f"{key}#{name}", (one, other, name),
                          ZH_COUNTED[one.split("} ", 1)[1]].format("{" + name + "}"))
                    for one, other, name in phrases])
            except (ValueError, KeyError) as exc:
                result.left.append(f"{path}:{v.lineno}: {key}: {exc}")
                continue
            line = lines[v.lineno - 1]
            indent = len(line) - len(line.lstrip(b" "))
            key_line = lines[k.lineno - 1]
            key_indent = len(key_line) - len(key_line.lstrip(b" "))
            col = width(line[: v.col_offset].decode("utf-8"))
            end_line = lines[v.end_lineno - 1]  # type: ignore[operator]
            trailer = end_line[v.end_col_offset:].decode("utf-8")  # type: ignore[misc]
            new = value_expr(english, indent, col, trailer if not phrases else ",")
            for ph in moved.phrases:
                label = f"{literal(ph.key)}: "
                new += ",\n" + " " * key_indent + label + value_expr(ph.english, key_indent,
                                                                     key_indent + width(label), ",")
            begin = starts[v.lineno - 1] + v.col_offset
            end = starts[v.end_lineno - 1] + v.end_col_offset  # type: ignore[operator,index]
            edits.append((begin, end, new.encode("utf-8")))
            result.moved.append(moved)
    for begin, end, new in sorted(edits, reverse=True):
        raw = raw[:begin] + new + raw[end:]
    new_text = raw.decode("utf-8")
    if any(not isinstance(m.english, str) for m in result.moved):
        new_text = add_import(new_text, "plural")
    return new_text, result


def add_import(text: str, name: str) -> str:
    """``name`` added to the module's ``from procurement.messages import …`` (or a new import line)."""
    tree = ast.parse(text)
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module == "procurement.messages":
            names = [a.name for a in node.names]
            if name in names:
                return text
            lines = text.split("\n")
            first, last = node.lineno - 1, node.end_lineno or node.lineno
            ordered = sorted([*names, name], key=lambda n: (0 if n.isupper() else 1 if n[0].isupper() else 2, n))
            lines[first:last] = [f"from procurement.messages import {', '.join(ordered)}"]
            return "\n".join(lines)
    raise ValueError("no 'from procurement.messages import' line to add to")


def write_catalogue(moved: list[Moved], locale: Path = i18n_build.LOCALE) -> None:
    """The Chinese of the moved messages into zh's messages.po (a key already there takes the new text)."""
    po = i18n_build.po_path("zh", i18n_build.CORE, locale)
    catalog = i18n_build.read_po(po, "zh")
    for m in [*moved, *(ph for mv in moved for ph in mv.phrases)]:
        for old in [x for x in catalog if x.context == m.key]:
            catalog.delete(old.id, context=m.key)
        if isinstance(m.english, str):
            catalog.add(m.english, m.zh, context=m.key, flags=("python-brace-format",))
        else:
            catalog.add((m.english[0], m.english[1]), (m.zh,), context=m.key, flags=("python-brace-format",))
    i18n_build.write_po(po, catalog)


def targets(args: list[str]) -> list[Path]:
    roots = [Path(a) for a in args] or [REPO / p for p in i18n_build.CORE_PACKAGES]
    out: list[Path] = []
    for r in roots:
        out += [r] if r.is_file() else sorted(p for p in r.rglob("*.py") if "__pycache__" not in p.parts)
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python tools/move_inline_messages.py", description=__doc__.split("\n")[0])
    p.add_argument("paths", nargs="*", help="files or folders (default: procurement/ catalog/ gui/)")
    p.add_argument("--dry-run", action="store_true", help="say what would move, change nothing")
    args = p.parse_args(argv)
    moved: list[Moved] = []
    changed: list[Path] = []
    left: list[str] = []
    for path in targets(args.paths):
        if "register(" not in path.read_text(encoding="utf-8"):
            continue
        new_text, result = convert_source(path)
        left += result.left
        if result.moved:
            moved += result.moved
            changed.append(path)
            if not args.dry_run:
                path.write_text(new_text, encoding="utf-8")
    if moved and not args.dry_run:
        write_catalogue(moved)
        ruff = Path(sys.executable).parent / "ruff"
        if ruff.exists():  # keep the import lines sorted as the project's lint wants them
            subprocess.run([str(ruff), "check", "--fix", "--select", "I,F401", "-q", *map(str, changed)], check=False)
    for line in left:
        print(f"left inline: {line}", file=sys.stderr)
    print(f"{len(moved)} messages moved from {len(changed)} files; {len(left)} left inline")
    return 0


if __name__ == "__main__":
    sys.exit(main())

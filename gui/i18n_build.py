"""Builds the Chinese UI translation: lupdate over gui/ → .ts, fill Chinese from the YAML tables, lrelease → .qm.

Translations live in resources/translations/zh_CN/*.yaml (one file per owner, so branches do not collide):
a mapping of English source text → Chinese, or "Context|source" → Chinese where one context needs a
different word. Run `python -m gui.i18n_build` (or `make translations`); `--check` fails on anything missing.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[1]
TS = REPO / "resources" / "translations" / "gpu_procure_zh_CN.ts"
QM = TS.with_suffix(".qm")
TABLES = REPO / "resources" / "translations" / "zh_CN"


def tool(name: str) -> str:
    """pyside6-lupdate / -lrelease next to this Python (the venv) or on PATH."""
    beside = Path(sys.executable).parent / name
    found = str(beside) if beside.exists() else shutil.which(name)
    if not found:
        raise SystemExit(f"{name} not found: install PySide6 (it ships {name})")
    return found


def load_tables(directory: Path = TABLES) -> dict[str, str]:
    table: dict[str, str] = {}
    for path in sorted(directory.glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        if not isinstance(data, dict):
            raise SystemExit(f"{path}: expected a mapping of English text to Chinese")
        for key, value in data.items():
            if not isinstance(key, str) or not isinstance(value, str):
                raise SystemExit(f"{path}: {key!r}: both sides must be text")
            if key in table and table[key] != value:
                raise SystemExit(f"{path}: {key!r} is translated differently in another table")
            table[key] = value
    return table


def sources() -> list[Path]:
    return sorted(p for p in (REPO / "gui").rglob("*.py") if "__pycache__" not in p.parts)


def fill(ts_path: Path, table: dict[str, str]) -> list[str]:
    """Write the Chinese for every message; return 'context: source' of those with none."""
    tree = ET.parse(ts_path)
    missing: list[str] = []
    for context in tree.getroot().iter("context"):
        ctx = context.findtext("name") or ""
        for message in context.iter("message"):
            source = message.findtext("source") or ""
            translation = message.find("translation")
            if translation is None:
                translation = ET.SubElement(message, "translation")
            if translation.get("type") in ("obsolete", "vanished"):
                continue
            zh = table.get(f"{ctx}|{source}", table.get(source))
            if zh is None:
                missing.append(f"{ctx}: {source}")
                translation.set("type", "unfinished")
                continue
            translation.attrib.pop("type", None)
            if message.get("numerus") == "yes":
                for child in list(translation):
                    translation.remove(child)
                translation.text = None
                ET.SubElement(translation, "numerusform").text = zh  # Chinese has one plural form
            else:
                translation.text = zh
    ET.indent(tree, space="    ")
    body = ET.tostring(tree.getroot(), encoding="unicode")
    ts_path.write_text('<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE TS>\n' + body + "\n", encoding="utf-8")
    return missing


def build(check: bool = False) -> int:
    TS.parent.mkdir(parents=True, exist_ok=True)
    rel = [str(p.relative_to(REPO)) for p in sources()]
    subprocess.run([tool("pyside6-lupdate"), *rel, "-no-obsolete", "-locations", "none",
                    "-target-language", "zh_CN", "-ts", str(TS.relative_to(REPO))],
                   cwd=REPO, check=True, capture_output=True)
    missing = fill(TS, load_tables())
    subprocess.run([tool("pyside6-lrelease"), str(TS), "-qm", str(QM)], check=True, capture_output=True)
    for line in missing:
        print(f"untranslated: {line}", file=sys.stderr)
    print(f"{TS.relative_to(REPO)}: {len(missing)} untranslated; {QM.relative_to(REPO)} written")
    return 1 if check and missing else 0


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m gui.i18n_build")
    p.add_argument("--check", action="store_true", help="exit 1 when any string has no Chinese")
    return build(p.parse_args(argv).check)


if __name__ == "__main__":
    sys.exit(main())

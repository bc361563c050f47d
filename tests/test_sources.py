"""Every citation resolves inside the repository: docs/sources.md sections and source ids, no outside paths."""

from __future__ import annotations

import re
import subprocess

import pytest

from tests.conftest import REPO

SOURCES = (REPO / "docs" / "sources.md").read_text(encoding="utf-8")
SECTIONS = set(re.findall(r"^#{2,3} ([A-Z]\d*[a-z]?)\.", SOURCES, re.M))
SOURCE_IDS = set(re.findall(r"^\| ([A-Z]+\d+[a-z]?) \|", SOURCES, re.M))
CITATION = re.compile(r"docs/sources\.md §([A-Z][A-Za-z0-9/]*)((?: [A-Z]+\d+[a-z]?)*)")
OUTSIDE = re.compile(r"specs\.md|\.\./shared|/work/shared|issue #3\b")


def _text_files() -> dict[str, str]:
    try:
        names = subprocess.run(["git", "ls-files"], cwd=REPO, capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    out = {}
    for name in names.split():
        path = REPO / name
        if name == "docs/sources.md" or not path.is_file() or path.suffix in (".qm", ".png", ".ttf", ".ttc", ".pdf"):
            continue
        try:
            out[name] = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
    return out


def test_sources_page_has_the_sections_and_source_ids() -> None:
    assert {"A1", "A2", "B", "C1", "C2", "C3", "C4", "C5", "D1", "D2", "D3", "S"} <= SECTIONS
    assert {"G1", "G5", "B2", "C12"} <= SOURCE_IDS
    assert SOURCES.count("https://") > 50, "the reference tables carry their public URLs"


def test_every_citation_names_a_section_or_source_id_that_exists() -> None:
    unresolved: dict[str, set[str]] = {}
    count = 0
    for name, text in _text_files().items():
        for m in CITATION.finditer(text):
            count += 1
            for ref in m.group(1).split("/") + m.group(2).split():
                if ref not in SECTIONS | SOURCE_IDS:
                    unresolved.setdefault(ref, set()).add(name)
    assert count > 200, "the catalog cites its sources"
    assert unresolved == {}


def test_nothing_points_outside_the_repository() -> None:
    offenders = {name: m.group(0) for name, text in _text_files().items() if (m := OUTSIDE.search(text))
                 and name != "tests/test_sources.py"}
    assert offenders == {}

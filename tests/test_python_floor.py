"""The core (catalog/, procurement/) runs on Python 3.10, the system Python of Ubuntu 22.04.

No 3.10 interpreter can be installed here, so vermin reads the sources and names the lowest Python each
construct needs; mypy (python_version = "3.10" in pyproject.toml) checks the standard library's API too.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from catalog.compat import StrEnum

REPO = Path(__file__).resolve().parents[1]
FLOOR = "3.10"
CORE = ("catalog", "procurement")


def _vermin(*paths: Path | str) -> subprocess.CompletedProcess[str]:
    try:
        import vermin  # noqa: F401
    except ImportError:  # pragma: no cover - the test extra installs it
        pytest.fail("vermin is not installed: pip install -e '.[test]'")
    return subprocess.run(
        [sys.executable, "-c", "import sys, vermin; sys.exit(vermin.main())", f"-t={FLOOR}-", "--violations",
         "--no-tips", "--eval-annotations", "--no-parse-comments", *map(str, paths)],
        capture_output=True, text=True, timeout=120, cwd=REPO,
    )


def test_core_needs_no_python_newer_than_the_floor() -> None:
    proc = _vermin(*(REPO / name for name in CORE))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    found = re.search(r"Minimum required versions: ([\d.]+)", proc.stdout)
    assert found, proc.stdout
    assert tuple(map(int, found.group(1).split("."))) <= tuple(map(int, FLOOR.split(".")))


def test_vermin_catches_a_311_only_construct(tmp_path: Path) -> None:
    newer = tmp_path / "newer.py"
    newer.write_text("import datetime as dt\nfrom enum import StrEnum\nprint(dt.UTC, StrEnum)\n", encoding="utf-8")
    proc = _vermin(newer)
    assert proc.returncode != 0
    assert "StrEnum" in proc.stdout and "datetime.UTC" in proc.stdout


def test_pyproject_floor_matches() -> None:
    text = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    assert f'requires-python = ">={FLOOR}"' in text
    assert f'python_version = "{FLOOR}"' in text  # mypy checks against the floor's standard library
    assert f'target-version = "py{FLOOR.replace(".", "")}"' in text


class Colour(StrEnum):
    RED = "red"


def test_strenum_stand_in_behaves_like_the_311_one() -> None:
    assert Colour.RED == "red" and isinstance(Colour.RED, str)
    assert str(Colour.RED) == "red" and f"{Colour.RED}" == "red" and f"{Colour.RED:>5}" == "  red"
    assert json.dumps({"c": Colour.RED}) == '{"c": "red"}'
    assert Colour("red") is Colour.RED

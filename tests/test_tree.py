"""The tests mirror the source tree: the tests of `procurement/pricing/compare.py` are in
`tests/procurement/pricing/test_compare*.py`, so a newcomer finds them from the module's path.

Beside the mirror: `tests/journeys/` (whole stories across the steps, driven as a person does),
`tests/hardening/` (attacks across the readers and writers), `tests/deploy/` and `tests/packaging/` (the
shipped `deploy/` and `packaging/` files on their real engines), and project-wide checks at the top
(layers, vocabulary, sources, the command table)."""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TESTS = REPO / "tests"
MIRRORED = ("procurement", "gui", "catalog")
BESIDE = ("journeys", "hardening", "deploy", "packaging", "fixtures")


def _names(folder: Path) -> set[str]:
    """What a test file in the mirror of ``folder`` may be named after: its modules, and the package itself
    (its ``__init__``)."""
    return {p.stem for p in folder.glob("*.py") if p.name != "__init__.py"} | {folder.name}


def misplaced() -> list[str]:
    out = []
    for test in sorted(TESTS.rglob("test_*.py")):
        parts = test.relative_to(TESTS).parts
        if len(parts) == 1 or parts[0] in BESIDE:
            continue
        if parts[0] not in MIRRORED:
            out.append(f"{test.relative_to(REPO)}: tests/{parts[0]}/ mirrors no source package")
            continue
        source = REPO.joinpath(*parts[:-1])
        stem = test.stem.removeprefix("test_")
        names = _names(source) if source.is_dir() else set()
        if not any(stem == n or stem.startswith(n + "_") for n in names):
            out.append(f"{test.relative_to(REPO)}: no module {'/'.join(parts[:-1])}/{stem.split('_')[0]}….py")
    return out


def test_every_test_file_is_named_after_the_module_it_tests() -> None:
    assert misplaced() == []


def test_every_mirrored_test_folder_is_a_package() -> None:
    """Two test files may share a name in different folders (tests/procurement/commands/test_quote.py and
    tests/procurement/reports/…) only when every folder is a package."""
    missing = [str(d.relative_to(REPO)) for d in TESTS.rglob("*") if d.is_dir() and d.name != "__pycache__"
               and any(d.glob("test_*.py")) and not (d / "__init__.py").exists()]
    assert missing == []

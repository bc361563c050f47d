"""Big plans, checked as a person runs them: `check` on hundreds of lines of one part and on a thousand
unknown checklist ids finishes in seconds (each error was located by composing the whole file again: 40 s
for 1,000 ids), the work grows linearly (counted: compositions of the file, catalog look-ups), and a list of
10,000 drive lines is refused with exit 2 naming the file, the line and the field."""

from __future__ import annotations

import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml

import catalog.yamlsource as ys
from catalog.loader import Catalog, default_catalog
from procurement.evaluation import evaluate
from procurement.plan import MAX_PART_LINES, PlanError, parse_plan

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "resources" / "examples" / "llm-cluster-node.gpuplan.yaml"
ENV = {"PYTHONPATH": str(REPO), "GPU_PROCURE_CACHE_DIR": "off"}
DRIVE = {"role": "data", "part": "samsung-pm9a3-3.84tb-u2", "count": 1}
NIC = {"part": "connectx-7-ndr-400g", "count": 1}


def _plan_text(drives: int = 0, nics: int = 0, unknown_items: int = 0) -> str:
    data: dict[str, Any] = yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))
    if drives:
        data["server"]["storage"] = [dict(DRIVE) for _ in range(drives)]
    if nics:
        data["server"]["nics"] = [dict(NIC) for _ in range(nics)]
    data["checklist"] = {f"no-such-item-{i}": {"checked": True} for i in range(unknown_items)}
    return yaml.safe_dump(data, allow_unicode=True, sort_keys=False)


def _check(path: Path, *extra: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    import os

    return subprocess.run([sys.executable, "-m", "procurement.commands.cli", "check", *extra, str(path)],
                          capture_output=True, text=True, timeout=timeout, env={**os.environ, **ENV},
                          stdin=subprocess.DEVNULL)


def test_check_of_500_drive_lines_and_1000_unknown_checklist_ids_takes_seconds(tmp_path: Path) -> None:
    path = tmp_path / "big.gpuplan.yaml"
    text = _plan_text(drives=MAX_PART_LINES, unknown_items=1000)
    path.write_text(text, encoding="utf-8")
    started = time.monotonic()
    done = _check(path, "--lang", "en", timeout=60)
    took = time.monotonic() - started
    assert "Traceback" not in done.stderr and done.returncode == 2, (done.returncode, done.stderr[-2000:])
    assert took < 20, took  # 40 s before; about 2 s now, with the interpreter's start
    errors = [line for line in done.stderr.splitlines() if "unknown checklist item" in line]
    assert len(errors) == 1000
    lines = text.splitlines()
    for error in errors[:3] + errors[-3:]:  # each located on its own key's line
        where, field = error.split(": ", 2)[:2]
        number = int(where.rsplit(":", 1)[1])
        assert lines[number - 1].strip().startswith(field.removeprefix("checklist.") + ":"), error


def test_locating_many_errors_composes_the_file_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Counted, not timed: the file is composed once whether 10 or 1,000 ids are unknown."""
    cat = default_catalog()
    calls = Counter[str]()
    real = ys.compose

    def compose(text: str) -> Any:
        calls["compose"] += 1
        return real(text)

    monkeypatch.setattr(ys, "compose", compose)
    for n in (10, 1000):
        calls.clear()
        with pytest.raises(PlanError) as raised:
            parse_plan(_plan_text(unknown_items=n), "big.yaml", cat)
        assert str(raised.value).count("unknown checklist item") == n
        assert calls["compose"] == 1, (n, calls)


def test_the_locator_gives_each_key_its_own_line_and_the_deepest_parent_for_the_rest() -> None:
    text = "a: 1\nlist:\n  - x: 1\n  - x: 2\n    y:\n      z: 3\ntwice:\n  k: 1\n  k: 2\nend: 0\n"
    locator = ys.Locator(text)
    expected: dict[tuple[str | int, ...], int] = {
        (): 1, ("a",): 1, ("list",): 2, ("list", 0): 3, ("list", 0, "x"): 3, ("list", 1, "x"): 4,
        ("list", 1, "y", "z"): 6, ("twice", "k"): 8,  # a key written twice: the first
        ("nowhere",): 1, ("list", 99): 2, ("list", 1, "missing"): 4, ("a", "below a scalar"): 1, ("end",): 10}
    assert {loc: locator.line(loc) for loc in expected} == expected
    assert {loc: ys.locate(text, loc) for loc in expected} == expected
    assert ys.Locator("[unclosed").line(("a",)) is None


def test_there_is_one_walk_of_a_composed_file(monkeypatch: pytest.MonkeyPatch) -> None:
    """locate and the catalog's located messages both go through Locator.line (an older copy of the walk
    in locate_node was kept beside it)."""
    assert not hasattr(ys, "locate_node")
    walks = Counter[str]()
    real = ys.Locator.line

    def line(self: ys.Locator, loc: Any) -> int | None:
        walks["line"] += 1
        return real(self, loc)

    monkeypatch.setattr(ys.Locator, "line", line)
    assert ys.locate("a:\n  b: 1\n", ("a", "b")) == 2
    assert walks["line"] == 1
    from catalog.loader import _Source

    source = _Source("x.yaml", "parts:\n  - id: one\n")
    assert source.where(("parts", 0, "id")) == "x.yaml:2"
    assert walks["line"] == 2


def test_evaluation_work_grows_linearly_with_the_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    """Counted catalog look-ups: four times the drive and adapter lines, at most about four times the work (a
    loop over the lines inside a loop over the lines would give sixteen)."""
    cat = default_catalog()
    real = Catalog.get
    calls = Counter[str]()

    def get(self: Catalog, kind: str, part_id: str | None) -> Any:
        calls[kind] += 1
        return real(self, kind, part_id)

    monkeypatch.setattr(Catalog, "get", get)
    work = {}
    for n in (100, 400):
        plan = parse_plan(_plan_text(drives=n, nics=n), "big.yaml", cat)
        calls.clear()
        ev = evaluate(plan, cat)
        assert ev.findings is not None
        work[n] = sum(calls.values())
    assert work[400] <= 4.2 * work[100], work


def test_500_lines_are_a_plan_and_10000_are_refused_naming_file_line_and_field(tmp_path: Path) -> None:
    ok = tmp_path / "ok.gpuplan.yaml"
    ok.write_text(_plan_text(drives=MAX_PART_LINES, nics=MAX_PART_LINES), encoding="utf-8")
    done = _check(ok, "--lang", "en")
    assert done.returncode != 2 and "cannot read the plan" not in done.stderr, done.stderr[-2000:]
    for field, kwargs in (("server.storage", {"drives": 10_000}), ("server.nics", {"nics": 10_000})):
        path = tmp_path / f"{field}.gpuplan.yaml"
        text = _plan_text(**kwargs)
        path.write_text(text, encoding="utf-8")
        started = time.monotonic()
        done = _check(path, "--lang", "en")
        assert time.monotonic() - started < 20
        assert "Traceback" not in done.stderr and done.returncode == 2, (done.returncode, done.stderr[-2000:])
        key = field.split(".")[1]
        line = next(i for i, row in enumerate(text.splitlines(), 1) if row.strip() == f"{key}:")
        assert f"{path}:{line}: {field}: 10000 entries, more than the 500 this list may hold" in done.stderr, \
            done.stderr[-2000:]
        assert done.stderr.count("\n") < 5  # one message, not 10,000


def test_the_cap_is_said_in_chinese_too() -> None:
    with pytest.raises(PlanError) as raised:
        parse_plan(_plan_text(drives=MAX_PART_LINES + 1), "big.yaml", default_catalog(), lang="zh")
    said = f"server.storage: 共 {MAX_PART_LINES + 1} 项，超过此列表最多可容纳的 {MAX_PART_LINES} 项"
    assert said in str(raised.value), raised.value

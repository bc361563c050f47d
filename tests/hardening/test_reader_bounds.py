"""Every reader within 200 MB and 10 s on the worst input at its cap, measured (tracemalloc, an alarm as the
guard against a hang): every command that takes a file, given a FIFO, /dev/zero or a 300 MB file; the JSON
reader at its depth, digit and value caps; a plan at the YAML value cap; an XLSX at the default shared-string
and row caps; a CSV of 100,000 lines; raw facts with arrays of 900,000 entries. Fuzzed JSON, YAML and CSV
give a result or the project's own error, never a traceback.

Run in-process (``cli.main``): a subprocess per case cost 1-2 s of start-up each; the modules a command imports
are imported once, before anything is measured, so the time measured is the reading."""

from __future__ import annotations

import contextlib
import functools
import io
import json
import os
import shutil
import signal
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from catalog.yamlsource import MAX_YAML_VALUES, YamlError, parse_yaml
from procurement.commands.cli import main
from procurement.json_input import MAX_DEPTH, MAX_INT_DIGITS, MAX_VALUES, JsonInputError, loads
from procurement.plan import PlanError, parse_plan
from procurement.pricing import sheets
from procurement.pricing.import_prices import PriceFileError, read_prices
from tests.conftest import EXAMPLES, REPO
from tests.hardening.test_hostile_sheets import _MAIN, sheet_xml, xlsx

PEAK_MB = 200
SECONDS = 10.0
RAW = REPO / "tests" / "fixtures" / "verify" / "raw" / "collector-1.1_t4_untuned.json"
PLAN = EXAMPLES / "llm-cluster-node.gpuplan.yaml"


class _Hung(Exception):
    pass


def _alarm(*_: object) -> None:
    raise _Hung


def measured(fn: Callable[[], Any], guard_s: int = 30) -> tuple[Any, float, float]:
    """(what ``fn`` returned or raised, peak MB traced, seconds); a call still running after ``guard_s``
    seconds is interrupted and returns _Hung (a FIFO open blocks in the kernel: the alarm ends it)."""
    previous = signal.signal(signal.SIGALRM, _alarm)
    tracemalloc.start()
    start = time.perf_counter()
    signal.alarm(guard_s)
    try:
        try:
            result: Any = fn()
        except Exception as exc:  # what was raised is the result the test looks at
            result = exc
        return result, tracemalloc.get_traced_memory()[1] / 2**20, time.perf_counter() - start
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
        tracemalloc.stop()


def within_bounds(peak: float, seconds: float) -> None:
    print(f"[bound] {os.environ.get('PYTEST_CURRENT_TEST', '').split(' ')[0]}: {peak:.1f} MB, {seconds:.2f} s")
    assert peak <= PEAK_MB and seconds <= SECONDS, f"{peak:.1f} MB, {seconds:.2f} s"


def measured_alone(code: str, timeout: float = 60) -> tuple[str, float, float]:
    """Run ``code`` (which sets ``result``) in a fresh interpreter, untraced (tracemalloc made the shared-string
    parse three times slower, past the reader's own 10 s limit): (repr of result, the process's peak resident
    MB, interpreter and imports included, seconds of ``code``)."""
    script = ("import sys, time\nsys.path.insert(0, sys.argv[1])\nstart = time.perf_counter()\n"
              f"{code}\nseconds = time.perf_counter() - start\n"
              "print(repr(result)[:500])\n"
              # VmHWM, this process's own peak (ru_maxrss keeps the forking pytest's ~350 MB across exec)
              "hwm = next(x for x in open('/proc/self/status') if x.startswith('VmHWM'))\n"
              "print(int(hwm.split()[1]) / 1024, seconds)")
    done = subprocess.run([sys.executable, "-c", script, str(REPO)], capture_output=True, text=True,
                          timeout=timeout, env={**os.environ, "GPU_PROCURE_CACHE_DIR": "off"})
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr[-2000:]
    said, numbers = done.stdout.rstrip("\n").rsplit("\n", 1)
    peak, seconds = (float(x) for x in numbers.split())
    return said, peak, seconds


# ---------------------------------------------------------------- every command that takes a file

@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Path]]:
    d = tmp_path_factory.mktemp("bounds")
    plan = d / "plan.gpuplan"
    shutil.copy(PLAN, plan)
    raw = d / "raw.json"
    shutil.copy(RAW, raw)
    fifo = d / "fifo.csv"
    os.mkfifo(fifo)
    zero = d / "zero.xlsx"
    zero.symlink_to("/dev/zero")
    huge = d / "huge.csv"
    with huge.open("wb") as f:
        f.truncate(300 << 20)  # sparse: over every reader's cap, and 300 MB if read whole
    yield {"dir": d, "plan": plan, "raw": raw, "fifo": fifo, "zero": zero, "huge": huge}


def _commands(f: dict[str, Path], bad: str) -> dict[str, list[str]]:
    plan, raw, d = str(f["plan"]), str(f["raw"]), f["dir"]
    return {
        "check PLAN": ["check", bad],
        "check --policy": ["check", plan, "--policy", bad],
        "check --catalog": ["check", plan, "--catalog", bad],
        "export PLAN": ["export", bad, "--quote", str(d / "q.pdf")],
        "export --policy": ["export", plan, "--policy", bad, "--quote", str(d / "q.pdf")],
        "dockerfile PLAN": ["dockerfile", bad],
        "sign PLAN": ["sign", "--kind", "approval", "--name", "x", bad],
        "sign --key": ["sign", "--kind", "approval", "--name", "x", "--key", bad, plan],
        "size --config": ["size", "--config", bad],
        "size --deepspeed-config": ["size", "--model", "llama-2-7b", "--deepspeed-config", bad],
        "judge RAW": ["judge", bad],
        "judge --plan": ["judge", "--plan", bad, raw],
        "verify --merge": ["verify", "--merge", bad],
        "verify --hostfile": ["verify", "--load", "quick", "--hostfile", bad],
        "verify --plan": ["verify", "--plan", bad, "--merge", raw],
        "handover PLAN": ["handover", bad, raw, str(d / "out1")],
        "handover REPORT": ["handover", plan, bad, str(d / "out2")],
        "handover --policy": ["handover", "--policy", bad, plan, raw, str(d / "out3")],
        "quote import PLAN": ["quote", "import", "--vendor", "v", bad, str(f["raw"])],
        "quote import FILE": ["quote", "import", "--vendor", "v", plan, bad],
        "quote compare PLAN": ["quote", "compare", bad],
    }


COMMANDS = list(_commands({k: Path(k) for k in ("plan", "raw", "dir")}, "BAD"))


def run_cli(argv: list[str]) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            rc = main(argv)
    except SystemExit as exc:  # argparse's own usage errors
        rc = int(exc.code or 0)
    return rc, out.getvalue() + err.getvalue()


@pytest.fixture(scope="module")
def warm(files: dict[str, Path]) -> None:
    """Each command run once on a missing file, unmeasured: its modules are imported before the reading is
    timed (the first `export` imports reportlab, 3 s on this machine)."""
    for argv in _commands(files, str(files["dir"] / "missing.csv")).values():
        run_cli(argv)


@pytest.mark.parametrize("kind", ["fifo", "zero", "huge"])
@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_refuses_a_fifo_a_device_or_a_huge_file_unread(
        files: dict[str, Path], warm: None, command: str, kind: str) -> None:
    bad = str(files[kind])
    argv = _commands(files, bad)[command]
    result, peak, seconds = measured(lambda: run_cli(argv))
    assert not isinstance(result, BaseException), f"{command}: {type(result).__name__}: {result}"
    rc, out = result
    assert rc == 2, (command, rc, out[-1500:])
    assert "Traceback" not in out
    assert Path(bad).name in out, out[-1500:]  # the file is named
    if command == "check --catalog":  # it is there: it is no directory (it said "does not exist")
        assert "user catalog directory is not a directory" in out, out
    within_bounds(peak, seconds)


def test_sign_does_not_read_a_plan_over_the_cap_to_stamp_it(files: dict[str, Path]) -> None:
    """`sign` stamped the plan (to notice a write by someone else) by reading it whole, any size, before
    reading it as a plan: 300 MB traced for a 300 MB file (10 GB for 10 GB), and a FIFO was a traceback."""
    from procurement.safe_io import stamp_of

    result, peak, seconds = measured(lambda: stamp_of(files["huge"]))
    assert result.size == 300 << 20 and result.sha256 == ""
    within_bounds(peak, seconds)
    assert peak < 5


# ---------------------------------------------------------------- the JSON reader at its caps

@functools.cache
def _json_cases() -> dict[str, tuple[str, str | None]]:
    """name -> (document, words of the refusal, or None: it is read)."""
    deep = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    many = "[" + ",".join("0" for _ in range(MAX_VALUES - 10)) + "]"
    keys = "{" + ",".join(f'"k{i}":{i}' for i in range(200_000)) + "}"
    digits = "[" + ",".join("9" * MAX_INT_DIGITS for _ in range(200_000)) + "]"
    return {
        "depth at the cap": (deep, None),
        "depth over the cap": ("[" + deep + "]", "nested"),
        "values at the cap": (many, None),
        "values over the cap": (many[:-1] + ",0" * 20 + "]", "values"),
        "200,000 keys": (keys, None),
        "a key twice at the end": (keys[:-1] + ',"k0":1}', "k0"),
        "integers at the digit cap": (digits, None),
        "one digit more": ("[" + "9" * (MAX_INT_DIGITS + 1) + "]", "digits"),
        "a 19 MB string": ('{"a":"' + "x" * (19 << 20) + '"}', None),
    }


@pytest.mark.parametrize("case", list(_json_cases()))
def test_the_json_reader_at_its_caps(case: str) -> None:
    text, refusal = _json_cases()[case]
    result, peak, seconds = measured(lambda: loads(text, "doc.json"))
    if refusal is None:
        assert not isinstance(result, BaseException), result
    else:
        assert isinstance(result, JsonInputError), result
        assert str(result).startswith("doc.json") and refusal in str(result), str(result)[:300]
    within_bounds(peak, seconds)


# ---------------------------------------------------------------- a plan at the YAML value cap

_DUMPER: Any = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


def _plan_data() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(PLAN.read_text(encoding="utf-8"))
    return data


def test_a_plan_just_under_the_value_cap_opens_within_the_bounds() -> None:
    data = _plan_data()
    data["prices"] = {f"part-{i}": {"price_cny": i, "source": "list"} for i in range(10_000)}  # 70,000 values
    data["waivers"] = [{"rule": f"RULE-{i}", "reason": "r", "by": "b", "date": "2026-01-02"}
                       for i in range(1_000)]  # 11,000
    data["checklist"] = {f"item-{i}": {"checked": True, "note": "n" * 10} for i in range(1_000)}
    data["quote"]["number"] = "x"
    text = yaml.dump(data, Dumper=_DUMPER, allow_unicode=True, sort_keys=False)
    result, peak, seconds = measured(lambda: parse_plan(text, "big.gpuplan"))
    assert not isinstance(result, BaseException), result
    assert len(result.prices) == 10_000 and len(result.waivers) == 1_000
    within_bounds(peak, seconds)
    assert text.count(":") < MAX_YAML_VALUES  # under the cap (one past it: tests/hardening/test_bounded_inputs.py)


def test_a_plan_of_20_mb_of_notes_is_refused_within_the_bounds() -> None:
    """19.9 MB of notes peaked at 248 MB in `check` (the issue); the cap on notes is 20,000 characters."""
    data = _plan_data()
    del data["notes"]
    text = yaml.dump(data, Dumper=_DUMPER, allow_unicode=True, sort_keys=False) + "notes: " + "备注" * (3 << 20) + "\n"
    assert len(text.encode()) < 20 * 1024 * 1024
    result, peak, seconds = measured(lambda: parse_plan(text, "notes.gpuplan"))
    assert isinstance(result, PlanError) and "notes: String should have at most 20000 characters" in str(result)
    within_bounds(peak, seconds)


# ---------------------------------------------------------------- price files at the default caps

def test_an_xlsx_at_the_default_shared_string_cap_is_refused_within_the_bounds(tmp_path: Path) -> None:
    n = sheets.DEFAULT.shared_strings
    shared = f"<sst {_MAIN}>" + "<si><t>x</t></si>" * (n + 1) + "</sst>"
    path = tmp_path / "quote.xlsx"
    path.write_bytes(xlsx(sheet_xml(""), shared=shared))
    said, peak, seconds = measured_alone(
        "from procurement.pricing.import_prices import PriceFileError, read_prices\n"
        f"try:\n    result = read_prices({str(path)!r}, [])\nexcept PriceFileError as exc:\n    result = exc")
    assert "PriceFileError" in said and f"more than {n:,} shared strings" in said, said
    within_bounds(peak, seconds)


def test_an_xlsx_at_the_default_row_cap_is_refused_within_the_bounds(tmp_path: Path) -> None:
    n = sheets.DEFAULT.rows
    path = tmp_path / "quote.xlsx"
    path.write_bytes(xlsx(sheet_xml("".join(f'<row r="{r}"/>' for r in range(2, n + 3)))))
    result, peak, seconds = measured(lambda: read_prices(path, []))
    assert isinstance(result, PriceFileError) and f"more than {n:,} rows" in str(result), result
    within_bounds(peak, seconds)


def test_a_price_list_at_the_20000_line_cap_reads_within_the_bounds(tmp_path: Path) -> None:
    path = tmp_path / "prices.csv"
    path.write_bytes(b"part,price\n" + b"".join(b"RTX 4090 24GB,%d\n" % (12000 + i) for i in range(20_000)))
    said, peak, seconds = measured_alone(
        "from procurement.pricing.import_prices import read_prices\n"
        f"result = len(read_prices({str(path)!r}, [], kind='company').lines)")
    assert said == "20000"
    within_bounds(peak, seconds)
    path.write_bytes(path.read_bytes() + b"one more,1\n")
    with pytest.raises(PriceFileError, match="more than 20000 rows"):
        read_prices(path, [], kind="company")
    with pytest.raises(PriceFileError, match="more than 5,000 lines: more than a plan keeps of one vendor's quote"):
        read_prices(path, [], kind="vendor_quote")  # the plan keeps 5,000 lines of one vendor's quote


# ---------------------------------------------------------------- raw facts with huge arrays

@pytest.mark.parametrize("field", ["net", "edac_mc", "infiniband"])
def test_raw_facts_with_an_array_of_900000_entries_are_judged_within_the_bounds(
        tmp_path: Path, warm: None, field: str) -> None:
    data = json.loads(RAW.read_text(encoding="utf-8"))
    data[field] = [{}] * 900_000
    path = tmp_path / "raw.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    result, peak, seconds = measured(lambda: run_cli(["judge", str(path), "--lang", "en"]))
    assert not isinstance(result, BaseException), f"{type(result).__name__}: {result}"
    rc, out = result
    assert "Traceback" not in out and rc == 2 and "raw.json" in out, (rc, out[-1500:])
    within_bounds(peak, seconds)


# ---------------------------------------------------------------- fuzzed: a result or our own error

_FUZZ = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
_JSONISH = st.text(alphabet=st.sampled_from([*'{}[]:,"0123456789.eE+-ntrufals \n\\u', "\ud800", "é"]),
                   max_size=200)


@_FUZZ
@given(text=_JSONISH | st.text(max_size=200))
def test_fuzzed_json_is_read_or_refused_as_json_input_error(text: str) -> None:
    try:
        loads(text, "f.json")
    except JsonInputError as exc:
        assert str(exc).startswith("f.json")


_YAMLISH = st.lists(st.sampled_from([*"abc: -[]{}&*!|>'\"#%@`?,\n\t 012.", "<<", "!!python/object", "\ud800"]),
                    max_size=80).map("".join)


@_FUZZ
@given(text=_YAMLISH | st.text(max_size=200))
def test_fuzzed_yaml_is_read_or_refused_as_yaml_or_plan_error(text: str) -> None:
    try:
        parse_yaml(text, "f.yaml")
    except YamlError as exc:
        assert str(exc).startswith("f.yaml")
    try:
        parse_plan("schema_version: 12\n" + text, "f.gpuplan")
    except PlanError as exc:
        assert str(exc).startswith("f.gpuplan")


@_FUZZ
@given(data=st.binary(max_size=300) | st.text(alphabet=st.sampled_from(list('型号单价,;"\t\n\r 0123456789.¥元x')),
                                                max_size=300).map(lambda s: s.encode("utf-8")))
def test_fuzzed_csv_is_read_or_refused_as_price_file_error(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "f.csv"
    path.write_bytes(data)
    try:
        read_prices(path, [])
    except PriceFileError as exc:
        assert exc.message("en").startswith("f.csv")

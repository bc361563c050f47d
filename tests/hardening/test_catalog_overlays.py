"""Hostile catalog overlays: each loads (and can be quoted) or gives a CatalogError whose every line names a file."""

from __future__ import annotations

import functools
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from catalog.loader import (
    MAX_IGNORED_SHOWN,
    MAX_PRICE_CNY,
    Catalog,
    CatalogError,
    describe_overlay,
    load_catalog,
    overlay_ignored,
    shipped_data_dir,
)
from catalog.models import SECTION_TO_KIND
from catalog.yamlsource import MAX_ALIAS_VALUES
from procurement.plan import Plan
from procurement.reports import build_quote
from procurement.rules import evaluate
from tests.conftest import REPO

FUZZ = settings(max_examples=120, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
SHIPPED = {p.name for p in shipped_data_dir().glob("*.yaml")}
LOCATED = re.compile(r"^(?P<file>.+?\.ya?ml)(?::(?P<line>\d+))?: \S")
SECTIONS = sorted(SECTION_TO_KIND)
TIME_LIMIT_S = 3.0
YAML_LINES = re.compile("\r\n|[\n\r\x85\u2028\u2029]")
COUNTER = {"inputs": 0}
"""Overlay files tried in this run (docs/reliability.md quotes the figure)."""


@pytest.fixture(scope="module")
def shipped() -> Catalog:
    return _shipped()


@functools.cache
def _shipped() -> Catalog:
    return load_catalog()


def _check(directory: Path, text: str | bytes, shipped: Catalog, name: str = "company.yaml") -> Catalog | None:
    """Write one overlay file, load it: a usable catalog, or a CatalogError located line by line."""
    COUNTER["inputs"] += 1
    for old in directory.iterdir():
        old.unlink()
    target = directory / name
    target.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    start = time.perf_counter()
    try:
        cat = load_catalog([directory])
    except CatalogError as exc:
        assert time.perf_counter() - start < TIME_LIMIT_S
        lines = str(exc).split("\n")
        assert lines and lines == exc.problems
        for line in lines:
            m = LOCATED.match(line)
            assert m, f"problem names no file: {line!r}"
            assert m["file"] == str(target) or Path(m["file"]).name in SHIPPED, line
            if m["line"] is not None:  # YAML also breaks lines at \r, NEL, LS and PS
                decoded = text.decode("utf-8", "replace") if isinstance(text, bytes) else text
                assert 1 <= int(m["line"]) <= len(YAML_LINES.split(decoded)), line
        return None
    assert time.perf_counter() - start < TIME_LIMIT_S
    _usable(cat, shipped)
    return cat


def _usable(cat: Catalog, shipped: Catalog) -> None:
    """What loaded can be planned with: the rules run and the quote totals, for every changed GPU."""
    report = cat.overlays[0]
    changed = {entry.split(" ", 1)[1] for entry in report.added + report.replaced + report.prices
               if entry.startswith("gpu ")}
    for gpu_id in sorted(changed)[:3]:
        gpu_id = gpu_id.split(":")[0]
        plan = Plan.model_validate({"gpu": {"model": gpu_id, "count": 8}, "requirements": {"nodes": 64}})
        evaluate(plan, cat, None, "en")
        quote = build_quote(plan, cat)
        assert quote.total >= 0
    assert len(cat) >= len(shipped)


# ---------------------------------------------------------------- hypothesis: text, shapes, mutated parts

@FUZZ
@given(text=st.text(max_size=300))
def test_random_text(tmp_path: Path, text: str) -> None:
    _check(tmp_path, text, _shipped())


yaml_values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(10**40), max_value=10**40)
    | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=20) | st.dates(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4),
    max_leaves=30,
)
section_names = st.sampled_from([*SECTIONS, "prices", "gpu", "GPUs", "extras"]) | st.text(max_size=10)


@FUZZ
@given(data=st.dictionaries(section_names, yaml_values, max_size=5))
def test_valid_yaml_of_the_wrong_shape(tmp_path: Path, data: dict[str, Any]) -> None:
    _check(tmp_path, yaml.safe_dump(data, allow_unicode=True), _shipped())


hostile_values = st.sampled_from([
    None, -1, 0, -1e-9, 10**30, -(10**30), 1e308, float("inf"), float("-inf"), float("nan"), "", "x" * 5000,
    "../../etc/passwd", "<font size=80>", [], {}, [1, 2], {"a": 1}, True, "2024-13-45", "1e400", "\u202e",
    MAX_PRICE_CNY, MAX_PRICE_CNY * 10,
])


@FUZZ
@given(data=st.data())
def test_a_real_part_with_one_field_made_hostile(tmp_path: Path, data: st.DataObject) -> None:
    """A copy of a shipped part (new id, or replacing the shipped one) with 0-3 fields set to hostile values."""
    shipped = _shipped()
    section = data.draw(st.sampled_from(SECTIONS))
    parts = shipped.parts[SECTION_TO_KIND[section]]
    if not parts:
        return
    part = data.draw(st.sampled_from(sorted(parts)))
    raw = parts[part].model_dump(mode="json", exclude_none=True)
    raw["id"] = data.draw(st.sampled_from([part, f"{part}-company", "company-x"]))
    for _ in range(data.draw(st.integers(0, 3))):  # 0: a plain copy or replacement, which must load
        key = data.draw(st.sampled_from([*sorted(raw), "unknown_field"]))
        raw[key] = data.draw(hostile_values)
    items = [raw] * data.draw(st.integers(1, 2))  # twice: a duplicate id in one file
    _check(tmp_path, yaml.safe_dump({section: items}, allow_unicode=True), shipped)


@FUZZ
@given(data=st.data())
def test_price_lists(tmp_path: Path, data: st.DataObject) -> None:
    """Negotiated prices for known, unknown and malformed ids with any numbers, dates and extra keys."""
    shipped = _shipped()
    known = sorted({p.id for p in shipped})
    entries = data.draw(st.lists(st.fixed_dictionaries(
        {"id": st.sampled_from(known) | st.text(max_size=15) | st.integers(),
         "price_cny": hostile_values | st.floats() | st.integers(min_value=-(10**20), max_value=10**20)},
        optional={"price_date": st.dates() | st.text(max_size=10), "price_source": st.text(max_size=30),
                  "discount": st.integers()}), max_size=5))
    cat = _check(tmp_path, yaml.safe_dump({"prices": entries}, allow_unicode=True), shipped)
    if cat is not None:
        for entry in entries:
            part = next(p for p in cat if p.id == entry["id"])
            assert part.price_cny is not None and 0 <= part.price_cny <= MAX_PRICE_CNY


# ---------------------------------------------------------------- named attacks, each with its message

def _gpu_part(shipped: Catalog, **changes: Any) -> dict[str, Any]:
    raw = next(iter(shipped.parts["gpu"].values())).model_dump(mode="json", exclude_none=True)
    return {**raw, "id": "company-gpu", **changes}


def test_python_tags_are_refused_without_running_anything(tmp_path: Path, shipped: Catalog) -> None:
    canary = tmp_path.parent / "canary"
    for tag in ("!!python/object/apply:os.system", "!!python/object/new:os.system",
                "!!python/name:os.system", "!!python/module:os"):
        text = f"gpus:\n  - {tag} ['touch {canary}']\n"
        with pytest.raises(CatalogError) as err:
            load_catalog([_write(tmp_path, text)])
        assert f"company.yaml:2: tag '{tag.split(' ')[0]}" in str(err.value)
    assert not canary.exists()


def _write(directory: Path, text: str, name: str = "company.yaml") -> Path:
    for old in directory.iterdir():
        old.unlink()
    (directory / name).write_text(text, encoding="utf-8")
    return directory


@pytest.mark.parametrize("text,needle", [
    ("gpus: " + "[" * 50_000 + "]" * 50_000 + "\n", "company.yaml:1: not valid YAML"),
    ("gpus:\n" + "".join("  " * i + f"- k{i}:\n" for i in range(3000)), "not valid YAML"),
    ("gpus: &a [*a]\n", "company.yaml:1: an alias refers to a list or mapping that contains it"),
    ("a: &a [x,x,x,x,x,x,x,x,x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join([f'*{chr(97 + i)}'] * 9)}]\n" for i in range(8)),
     f"company.yaml:2: aliases expand to more than {MAX_ALIAS_VALUES:,} values"),
    ("gpus: [\x00]\n", "company.yaml:1: not valid YAML: character #x0000 at column 8"),
    ("cpus: []\nprices: []\nsecrets: []\n", "company.yaml:3: unknown section 'secrets'"),
    ("prices:\n  - {id: no-such-part, price_cny: 1}\n", "company.yaml:2: prices: unknown part id 'no-such-part'"),
    ("prices:\n  - {id: rtx-4090, price_cny: .inf}\n", "company.yaml:2: price #1: price_cny: must be a finite number"),
    ("prices:\n  - {id: rtx-4090, price_cny: -5}\n", "company.yaml:2: price #1: price_cny: Input should be greater"),
    ('prices:\n  - {id: "x\\ny", price_cny: 1}\n', "company.yaml:2: prices: unknown part id 'x\\x0ay'"),
    ("gpus: !!set {a, b}\n", "company.yaml:1: 'gpus' must be a list of parts"),
])
def test_named_attack(tmp_path: Path, shipped: Catalog, text: str, needle: str) -> None:
    start = time.perf_counter()
    assert _check(tmp_path, text, shipped) is None
    with pytest.raises(CatalogError) as err:
        load_catalog([tmp_path])
    assert needle in str(err.value)
    assert time.perf_counter() - start < TIME_LIMIT_S


def test_huge_and_negative_numbers_in_a_part(tmp_path: Path, shipped: Catalog) -> None:
    cases = {"tdp_w": (float("inf"), "tdp_w: must be a finite number"),
             "memory_gib": (-80, "memory_gib: Input should be greater than 0"),
             "price_cny": (1e300, "price_cny: Input should be less than or equal to 1000000000000"),
             "pcie_gen": (10**30, "pcie_gen: Input should be less than or equal to 6")}
    for key, (value, needle) in cases.items():
        text = yaml.safe_dump({"gpus": [_gpu_part(shipped, **{key: value})]})
        line = next(i for i, ln in enumerate(text.splitlines(), 1) if ln.startswith(f"  {key}:"))
        assert _check(tmp_path, text, shipped) is None
        with pytest.raises(CatalogError) as err:
            load_catalog([tmp_path])
        assert str(err.value) == f"{tmp_path / 'company.yaml'}:{line}: gpu 'company-gpu': {needle}", key
    # a finite number beyond what any one part can have is refused too (catalog.models.IMPOSSIBLE)
    (tmp_path / "company.yaml").write_text(
        yaml.safe_dump({"gpus": [_gpu_part(shipped, pcie_lanes=10**30, memory_gib=1e300)]}), encoding="utf-8")
    with pytest.raises(CatalogError) as err:
        load_catalog([tmp_path])
    assert len(err.value.problems) == 2 and all("not possible for one part" in p for p in err.value.problems)


def test_a_5000_digit_integer_in_a_part_names_its_line_and_field(tmp_path: Path, shipped: Catalog) -> None:
    """An integer past Python's 4300-digit conversion limit gave 'not valid YAML: Exceeds the limit …; use
    sys.set_int_max_str_digits()', with no line and no field."""
    text = yaml.safe_dump({"gpus": [_gpu_part(shipped, tdp_w=7)]}).replace("tdp_w: 7", "tdp_w: " + "9" * 5000)
    line = next(i for i, ln in enumerate(text.splitlines(), 1) if ln.startswith("  tdp_w:"))
    _write(tmp_path, text)
    with pytest.raises(CatalogError) as err:
        load_catalog([tmp_path])
    assert err.value.problems == [f"{tmp_path / 'company.yaml'}:{line}: gpus[0].tdp_w: a number too large "
                                  "(5000 digits)"]


@pytest.mark.parametrize("key, value", [("tdp_w", ".nan"), ("memory_gib", "-.inf"), ("fp32_tflops", ".NaN"),
                                        ("price_cny", ".nan")])
def test_nan_in_a_part_is_not_a_finite_number(tmp_path: Path, shipped: Catalog, key: str, value: str) -> None:
    """NaN fails every bound: 'tdp_w: .nan' said 'should be greater than 0' while '.inf' said 'must be a
    finite number'; both now say the latter, in a part as in a price."""
    text = yaml.safe_dump({"gpus": [_gpu_part(shipped, **{key: 7})]}).replace(f"{key}: 7", f"{key}: {value}")
    line = next(i for i, ln in enumerate(text.splitlines(), 1) if ln.startswith(f"  {key}:"))
    _write(tmp_path, text)
    with pytest.raises(CatalogError) as err:
        load_catalog([tmp_path])
    assert err.value.problems == [f"{tmp_path / 'company.yaml'}:{line}: gpu 'company-gpu': {key}: must be a "
                                  "finite number"]
    if key == "price_cny":  # and in a directory's price list
        _write(tmp_path, f"prices:\n  - {{id: rtx-4090, price_cny: {value}}}\n")
        with pytest.raises(CatalogError) as err:
            load_catalog([tmp_path])
        assert err.value.problems == [f"{tmp_path / 'company.yaml'}:2: price #1: price_cny: must be a finite number"]


def test_duplicate_ids_in_one_file_and_across_files(tmp_path: Path, shipped: Catalog) -> None:
    one = yaml.safe_dump({"gpus": [_gpu_part(shipped)]})
    two = yaml.safe_dump({"gpus": [_gpu_part(shipped), _gpu_part(shipped)]})
    _write(tmp_path, two)
    with pytest.raises(CatalogError) as err:
        load_catalog([tmp_path])
    second = [i for i, ln in enumerate(two.splitlines(), 1) if ln.startswith("- ")][1]
    assert str(err.value) == (f"{tmp_path / 'company.yaml'}:{second}: gpu 'company-gpu': duplicate id "
                              f"(first defined at {tmp_path / 'company.yaml'}:2)")
    _write(tmp_path, one, "a.yaml")
    (tmp_path / "b.yaml").write_text(one, encoding="utf-8")
    dup = r"b\.yaml:2: gpu 'company-gpu': duplicate id \(first defined at .*a\.yaml:2"
    with pytest.raises(CatalogError, match=dup):
        load_catalog([tmp_path])


def test_fifty_megabyte_overlay_is_refused_quickly(tmp_path: Path) -> None:
    big = tmp_path / "big.yaml"
    with big.open("w") as fh:
        fh.write("gpus:\n")
        row = "  - {id: x, name: " + "y" * 990 + "}\n"
        for _ in range(50_000):
            fh.write(row)
    start = time.perf_counter()
    with pytest.raises(CatalogError) as err:
        load_catalog([tmp_path])
    assert time.perf_counter() - start < 1.0
    # 6 + 50 000 rows × 1 010 bytes = 50 500 006 bytes; the limit is 20 MiB = 20 971 520 bytes
    assert big.stat().st_size == 50_500_006
    assert str(err.value) == f"{big}: file is too large (50 MB; at most 20 MB)"


def test_not_utf8_and_binary_files(tmp_path: Path) -> None:
    (tmp_path / "latin1.yaml").write_bytes("gpus:\n  - {id: caf\xe9}\n".encode("latin-1"))  # é is byte 6 + 12
    (tmp_path / "zeros.yml").write_bytes(b"\x00" * 4096)
    with pytest.raises(CatalogError) as err:
        load_catalog([tmp_path])
    assert err.value.problems == [f"{tmp_path / 'latin1.yaml'}: not UTF-8 text (byte 18)",
                                  f"{tmp_path / 'zeros.yml'}:1: not valid YAML: character #x0000 at column 1: "
                                  "control characters are not allowed"]


def test_cached_and_uncached_reads_agree(tmp_path: Path, shipped: Catalog, monkeypatch: pytest.MonkeyPatch) -> None:
    """The parsed-YAML cache never turns a refused file into an accepted one (second read hits the cache)."""
    monkeypatch.setenv("GPU_PROCURE_CACHE_DIR", str(tmp_path / "cache"))
    overlay = tmp_path / "overlay"
    overlay.mkdir()
    for text in ("prices:\n  - {id: rtx-4090, price_cny: 1.0e+400}\n", "gpus: &a [*a]\n",
                 yaml.safe_dump({"gpus": [_gpu_part(shipped, tdp_w=float("inf"))]})):
        _write(overlay, text)
        results = []
        for _ in range(2):
            with pytest.raises(CatalogError) as err:
                load_catalog([overlay])
            results.append(str(err.value))
        assert results[0] == results[1]
    _write(overlay, "prices:\n  - {id: rtx-4090, price_cny: 12345.5}\n")
    for _ in range(2):
        assert load_catalog([overlay]).gpu("rtx-4090").price_cny == 12345.5  # type: ignore[union-attr]


# ---------------------------------------------------------------- entries that are no file, files not read

def test_yaml_names_that_are_no_regular_file_are_refused(tmp_path: Path) -> None:
    """A dangling link, a FIFO and a directory named like a catalog file each gave '0 added', exit 0; a FIFO
    must be refused without being opened (a FIFO opened for reading waits for a writer: the load would hang)."""
    (tmp_path / "a.yaml").symlink_to(tmp_path / "missing.yaml")
    os.mkfifo(tmp_path / "b.yaml")
    (tmp_path / "c.yml").mkdir()
    (tmp_path / "d.yaml").symlink_to(tmp_path / "b.yaml")  # a link to the FIFO: what it points to counts
    (tmp_path / "e.yaml").write_text("prices:\n  - {id: rtx-4090, price_cny: 12345}\n", encoding="utf-8")
    opened: list[str] = []
    real_open = os.open

    def spy(path: Any, *args: Any, **kwargs: Any) -> int:
        opened.append(str(path))
        return real_open(path, *args, **kwargs)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(os, "open", spy)
        start = time.perf_counter()
        with pytest.raises(CatalogError) as err:
            load_catalog([tmp_path])
    assert time.perf_counter() - start < TIME_LIMIT_S
    assert err.value.problems == [
        f"{tmp_path / 'a.yaml'}: a link to '{tmp_path / 'missing.yaml'}', which does not exist; not read",
        f"{tmp_path / 'b.yaml'}: a FIFO (named pipe), not a regular file: only files are read",
        f"{tmp_path / 'c.yml'}: a directory, not a regular file: only files are read",
        f"{tmp_path / 'd.yaml'}: a FIFO (named pipe), not a regular file: only files are read",
    ]
    assert not [p for p in opened if p.startswith(str(tmp_path)) and not p.endswith("e.yaml")], opened


def test_files_in_subdirectories_are_named_as_not_read(tmp_path: Path) -> None:
    """Only the directory's own files are read (docs/catalog.md); one in a subdirectory was left out in
    silence. It still loads, with a warning naming each such file."""
    (tmp_path / "sub" / "deeper").mkdir(parents=True)
    (tmp_path / "sub" / "parts.yaml").write_text("gpus: []\n", encoding="utf-8")
    (tmp_path / "sub" / "deeper" / "prices.yml").write_text("prices: []\n", encoding="utf-8")
    (tmp_path / "sub" / "notes.txt").write_text("not a catalog file\n", encoding="utf-8")
    (tmp_path / "prices.yaml").write_text("prices:\n  - {id: rtx-4090, price_cny: 12345}\n", encoding="utf-8")
    cat = load_catalog([tmp_path])
    assert cat.gpu("rtx-4090").price_cny == 12345  # type: ignore[union-attr]
    why = f"in a subdirectory of the user catalog; not read (only the files directly in {tmp_path} are)"
    assert overlay_ignored(cat) == [f"{tmp_path / 'sub' / 'parts.yaml'}: {why}",
                                    f"{tmp_path / 'sub' / 'deeper' / 'prices.yml'}: {why}"]
    assert f"  warning: {tmp_path / 'sub' / 'parts.yaml'}: {why}" in describe_overlay(cat.overlays[0])
    for i in range(MAX_IGNORED_SHOWN + 3):
        (tmp_path / "sub" / f"x{i:02}.yaml").write_text("gpus: []\n", encoding="utf-8")
    lines = overlay_ignored(load_catalog([tmp_path]))
    assert len(lines) == MAX_IGNORED_SHOWN + 1
    assert lines[-1] == f"{tmp_path}: 5 more .yaml files in its subdirectories; not read"


def test_catalog_check_reports_what_it_does_not_read(tmp_path: Path) -> None:
    """`catalog check DIR` and `check --catalog DIR`: an unreadable entry fails, a file not read is a warning."""
    plan = REPO / "resources" / "examples" / "personal-research.gpuplan.yaml"
    env = {**os.environ, "PYTHONPATH": str(REPO), "GPU_PROCURE_CACHE_DIR": "off"}
    broken, nested = tmp_path / "broken", tmp_path / "nested"
    broken.mkdir()
    os.mkfifo(broken / "parts.yaml")
    (nested / "sub").mkdir(parents=True)
    (nested / "sub" / "parts.yaml").write_text("gpus: []\n", encoding="utf-8")
    fifo = f"{broken / 'parts.yaml'}: a FIFO (named pipe), not a regular file: only files are read"
    ignored = f"{nested / 'sub' / 'parts.yaml'}: in a subdirectory of the user catalog; not read"
    for args, rc, needle in ((["catalog", "check", str(broken)], 1, fifo),
                             (["--catalog", str(broken), "check", str(plan)], 2, fifo),
                             (["catalog", "check", str(nested)], 0, f"  warning: {ignored}"),
                             (["--catalog", str(nested), "check", str(plan)], None, f"warning: {ignored}")):
        done = subprocess.run([sys.executable, "-m", "procurement.commands.cli", *args], capture_output=True,
                              text=True, timeout=120, env=env)
        assert rc is None or done.returncode == rc, (args, done.stdout, done.stderr)
        assert needle in done.stdout + done.stderr, (args, done.stdout, done.stderr)


def test_two_prices_for_one_part_are_a_duplicate(tmp_path: Path, shipped: Catalog) -> None:
    """Like a part id, a price's id may appear once per directory: the last silently won (12999 -> 10000 ->
    20000, exit 0), in one file or across two."""
    text = ("prices:\n"
            "  - {id: rtx-4090, price_cny: 10000}\n"
            "  - {id: l40s, price_cny: 60000}\n"
            "  - {id: rtx-4090, price_cny: 20000}\n")
    _write(tmp_path, text)
    with pytest.raises(CatalogError) as err:
        load_catalog([tmp_path])
    assert err.value.problems == [f"{tmp_path / 'company.yaml'}:4: prices: duplicate price for 'rtx-4090' "
                                  "(first at line 2)"]
    _write(tmp_path, "prices:\n  - {id: rtx-4090, price_cny: 10000}\n", "a.yaml")
    (tmp_path / "b.yaml").write_text("gpus: []\nprices:\n  - {id: rtx-4090, price_cny: 20000}\n", encoding="utf-8")
    with pytest.raises(CatalogError) as err:
        load_catalog([tmp_path])
    assert err.value.problems == [f"{tmp_path / 'b.yaml'}:3: prices: duplicate price for 'rtx-4090' "
                                  f"(first at {tmp_path / 'a.yaml'}:2)"]
    # later directories still win over earlier ones (docs/catalog.md): that is no duplicate
    other = tmp_path.parent / f"{tmp_path.name}-later"
    other.mkdir()
    (tmp_path / "b.yaml").unlink()
    (other / "prices.yaml").write_text("prices:\n  - {id: rtx-4090, price_cny: 20000}\n", encoding="utf-8")
    assert load_catalog([tmp_path, other]).gpu("rtx-4090").price_cny == 20000  # type: ignore[union-attr]

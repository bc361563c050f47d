"""Hostile and broken plan files: each either loads or gives a located PlanError; none crashes or hangs."""

from __future__ import annotations

import os
import random
import signal
import time
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from procurement.plan import Plan, PlanError, dump_plan, load_plan, parse_plan, plan_file_text, save_plan

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _expect_clean(text: str) -> Plan | None:
    try:
        return parse_plan(text, "fuzz.gpuplan.yaml")
    except PlanError as exc:
        assert str(exc).startswith("fuzz.gpuplan.yaml"), str(exc)
        return None


@FUZZ
@given(st.text(max_size=400))
def test_random_text_is_plan_or_located_error(text: str) -> None:
    _expect_clean(text)


yaml_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4),
    max_leaves=25,
)
plan_keys = st.sampled_from(["requirements", "gpu", "server", "software", "checklist", "signoffs",
                             "quote", "verification", "notes", "title"])


@FUZZ
@given(st.dictionaries(plan_keys, yaml_values, max_size=6))
def test_valid_yaml_of_the_wrong_shape(data: dict) -> None:
    data["schema_version"] = 1
    _expect_clean(yaml.safe_dump(data, allow_unicode=True))


@pytest.mark.parametrize("path,value,needle", [
    ("gpu.count", -3, "gpu.count: Input should be greater than or equal to 0"),
    ("gpu.count", 10**30, "gpu.count"),
    ("requirements.budget_cny", 1e300, "requirements.budget_cny"),
    ("server.cpu_count", "two", "server.cpu_count"),
])
def test_bad_numbers_name_the_field_and_line(path: str, value: object, needle: str) -> None:
    data = yaml.safe_load(dump_plan(Plan()))
    section, key = path.split(".")
    data[section][key] = value
    text = yaml.safe_dump(data, sort_keys=False)
    line = next(i for i, ln in enumerate(text.splitlines(), 1) if ln.strip().startswith(f"{key}:")
                and i > next(j for j, l2 in enumerate(text.splitlines(), 1) if l2.startswith(f"{section}:")))
    with pytest.raises(PlanError) as err:
        parse_plan(text, "bad.gpuplan.yaml")
    assert f"bad.gpuplan.yaml:{line}: " in str(err.value)
    assert needle in str(err.value)


def test_python_object_tag_is_refused() -> None:
    text = "schema_version: 1\nnotes: !!python/object/apply:os.system ['echo pwned']\n"
    with pytest.raises(PlanError) as err:
        parse_plan(text, "evil.gpuplan.yaml")
    assert str(err.value).startswith("evil.gpuplan.yaml:2: tag '!!python/object/apply:os.system' is not allowed")


def test_deep_nesting_is_an_error_not_a_crash() -> None:
    text = "schema_version: 1\nnotes: " + "[" * 50_000 + "]" * 50_000 + "\n"
    with pytest.raises(PlanError) as err:
        parse_plan(text, "deep.gpuplan.yaml")
    assert "deep.gpuplan.yaml" in str(err.value)


def test_fifty_megabyte_file_is_refused_quickly(tmp_path: Path) -> None:
    big = tmp_path / "big.gpuplan.yaml"
    with big.open("w") as fh:
        fh.write("schema_version: 1\nnotes: |\n")
        line = "  " + "x" * 1000 + "\n"
        for _ in range(50_000):
            fh.write(line)
    start = time.perf_counter()
    with pytest.raises(PlanError) as err:
        load_plan(big)
    assert time.perf_counter() - start < 2.0
    assert "too large" in str(err.value) and str(big) in str(err.value)


def test_not_utf8_is_named(tmp_path: Path) -> None:
    bad = tmp_path / "latin1.gpuplan.yaml"
    bad.write_bytes("schema_version: 1\ntitle: caf\xe9\n".encode("latin-1"))
    with pytest.raises(PlanError, match=r"latin1.gpuplan.yaml: not UTF-8 text"):
        load_plan(bad)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_sigkill_during_save_leaves_old_or_new_file(tmp_path: Path) -> None:
    """100 rounds: a child saves plan A/B in a loop and is SIGKILLed at a random moment."""
    target = tmp_path / "plan.gpuplan.yaml"
    plans = [Plan(title="A", notes="a" * 19_000, checklist={f"i{k}": {"note": "n" * 5000} for k in range(40)}),
             Plan(title="B", notes="b" * 15_000)]
    texts = {plan_file_text(p) for p in plans}
    save_plan(plans[0], target)
    rng = random.Random(1234)
    for _ in range(100):
        pid = os.fork()
        if pid == 0:  # child: save forever, alternating
            try:
                i = 0
                while True:
                    save_plan(plans[i % 2], target)
                    i += 1
            finally:
                os._exit(0)
        time.sleep(rng.uniform(0.0, 0.02))
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        assert target.read_text(encoding="utf-8") in texts
    assert isinstance(load_plan(target), Plan)
    leftovers = [p.name for p in tmp_path.iterdir() if p.name != target.name]
    # a killed writer may leave its temporary file, never a damaged target
    assert all(name.startswith(".plan.gpuplan.yaml.") and name.endswith(".tmp") for name in leftovers)


def test_alias_bomb_is_refused_before_anything_walks_it() -> None:
    """Eight lines of nested aliases expand to 9**8 = 43 046 721 values: dump_plan used to hang on it."""
    rows = ["schema_version: 1", "verification:", " - &a {x: [1, 1, 1, 1, 1, 1, 1, 1, 1]}"]
    rows += [f" - &{chr(98 + i)} {{x: [{', '.join([f'*{chr(97 + i)}'] * 9)}]}}" for i in range(7)]
    start = time.perf_counter()
    with pytest.raises(PlanError) as err:
        parse_plan("\n".join(rows) + "\n", "bomb.gpuplan.yaml")
    assert time.perf_counter() - start < 1.0
    assert str(err.value).startswith("bomb.gpuplan.yaml:4: aliases expand to more than 100,000 values")


def test_recursive_alias_and_fair_aliases() -> None:
    with pytest.raises(PlanError, match=r"^loop.gpuplan.yaml:3: an alias refers to a list or mapping that "):
        parse_plan("schema_version: 1\nverification:\n  - &r {self: *r}\n", "loop.gpuplan.yaml")
    # an alias used the way people use them (one shared block) still loads
    text = "schema_version: 1\nverification:\n  - &n {host: {hostname: a}}\n  - *n\n"
    assert [r.host.hostname for r in parse_plan(text, "ok.gpuplan.yaml").verification] == ["a", "a"]


def test_control_characters_and_lone_surrogates_are_located() -> None:
    with pytest.raises(PlanError) as err:
        parse_plan("schema_version: 1\ntitle: a\x00b\n", "nul.gpuplan.yaml")
    assert str(err.value) == "nul.gpuplan.yaml:2: not valid YAML: character #x0000 at column 9: " \
                             "control characters are not allowed"
    with pytest.raises(PlanError) as err:
        parse_plan("schema_version: 1\ntitle: a\ud800\n", "pasted.gpuplan.yaml")
    assert str(err.value) == "pasted.gpuplan.yaml:2: not valid text: character #xd800 (a lone surrogate) " \
                             "cannot be read"
    with pytest.raises(PlanError) as err:
        parse_plan('schema_version: 1\nrequirements:\n  "x\\ny": 1\n', "key.gpuplan.yaml")
    assert str(err.value) == "key.gpuplan.yaml:3: requirements.x\\x0ay: unknown field"

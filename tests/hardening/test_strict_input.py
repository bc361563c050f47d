"""Bad input is refused with a located error, never accepted silently: duplicate keys, true/false for numbers,
NaN/Infinity and runaway nesting in reports."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from catalog.yamlsource import YamlError, parse_yaml
from procurement.plan import PlanError, parse_plan
from procurement.verify import ReportError, load_report
from tests.conftest import REPO


def test_a_duplicate_key_names_both_lines() -> None:
    text = ("schema_version: 3\ngpu:\n  model: a100-sxm4-80gb\n  count: 4\ntitle: cluster\n"
            "gpu:\n  model: h100-sxm5-80gb\n  count: 8\n")
    with pytest.raises(PlanError) as raised:  # the second gpu: section silently made it 8 × H100
        parse_plan(text, Path("p.gpuplan.yaml"))
    assert str(raised.value) == ("p.gpuplan.yaml:6: duplicate key 'gpu' (first on line 2); a key may appear once "
                                 "in a mapping")


@pytest.mark.parametrize("text, line", [("a: 1\nb: 2\na: 3\n", 3), ("{k: 1, k: 2}", 1), ("- x: 1\n  x: 1\n", 2),
                                        ("a: {b: [{c: 1}, {c: 2, c: 3}]}", 1), ("1: a\n1: b\n", 2)])
def test_duplicate_keys_at_any_depth(text: str, line: int) -> None:
    with pytest.raises(YamlError, match="duplicate key") as raised:
        parse_yaml(text, "f.yaml")
    assert raised.value.line == line


def test_merge_keys_may_still_be_overridden() -> None:
    assert parse_yaml("base: &b {x: 1, y: 2}\nthis:\n  <<: *b\n  x: 3\n", "f") == {
        "base": {"x": 1, "y": 2}, "this": {"x": 3, "y": 2}}


@pytest.mark.parametrize("field, value", [("gpu:\n  count", "true"), ("requirements:\n  nodes", "false"),
                                          ("server:\n  cpu_count", "yes")])
def test_true_or_false_is_not_a_number(field: str, value: str) -> None:
    with pytest.raises(PlanError, match="a number, not true/false"):
        parse_plan(f"schema_version: 3\n{field}: {value}\n", Path("p.yaml"))


def test_schema_version_true_is_not_version_one() -> None:
    with pytest.raises(PlanError, match="schema_version"):
        parse_plan("schema_version: true\n", Path("p.yaml"))


@pytest.mark.parametrize("text, line, message", [
    ("schema_version: 12\nrequirements:\n  batch_size: " + "9" * 5000 + "\n", 3,
     "requirements.batch_size: a number too large (5000 digits)"),
    ("schema_version: 12\nfoo: -" + "1_" * 4500 + "1\n", 2, "foo: a number too large (4501 digits)"),
    ("schema_version: 12\nserver:\n  nics:\n  - {part: x, count: " + "9" * 5000 + "}\n", 4,
     "server.nics[0].count: a number too large (5000 digits)"),
    ("schema_version: 12\nx:\n  ? " + "9" * 5000 + "\n  : a\n", 3,
     "x: a key that is a number too large (5000 digits)"),
])
def test_a_5000_digit_integer_is_located_and_named_by_its_field(text: str, line: int, message: str) -> None:
    """Python refuses to convert an integer of more than 4300 digits; that limit's own text ('Exceeds the limit
    (4300 digits) for integer string conversion … use sys.set_int_max_str_digits()') came out with no line and
    no field, and named a Python setting the person cannot change."""
    with pytest.raises(PlanError) as raised:
        parse_plan(text, Path("p.gpuplan.yaml"))
    assert str(raised.value) == f"p.gpuplan.yaml:{line}: {message}"
    assert "sys." not in str(raised.value)


@pytest.mark.parametrize("field, value", [
    ("requirements:\n  budget_cny", ".nan"), ("requirements:\n  budget_cny", ".inf"),
    ("requirements:\n  budget_cny", "-.inf"), ("requirements:\n  budget_cny", "nan"),
    ("requirements:\n  dataset_gb", ".NaN"), ("tco:\n  pue", ".nan"), ("server:\n  rack_power_limit_kw", ".nan"),
])
@pytest.mark.parametrize("lang, message", [("en", "must be a finite number"), ("zh", "应为有限的数字")])
def test_nan_and_infinity_in_a_plan_are_not_finite_numbers(field: str, value: str, lang: str, message: str) -> None:
    """NaN fails every comparison: '.nan' said 'should be less than or equal to 1000000000000' (or 'greater
    than 0'), a bound it does not break. It, and an infinity, is said to be what it is."""
    with pytest.raises(PlanError) as raised:
        parse_plan(f"schema_version: 12\n{field}: {value}\n", Path("p.yaml"), lang=lang)  # type: ignore[arg-type]
    name = field.replace(":\n  ", ".")
    assert str(raised.value) == f"p.yaml:3: {name}: {message}"


def test_a_finite_number_past_a_bound_still_names_the_bound() -> None:
    with pytest.raises(PlanError) as raised:  # 1e309 is a string to YAML 1.1; too large, not 'not finite'
        parse_plan("schema_version: 12\nrequirements:\n  budget_cny: 1e309\n", Path("p.yaml"))
    assert str(raised.value) == "p.yaml:3: requirements.budget_cny: Input should be less than or equal to 1000000000000"


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_a_report_with_nan_or_infinity_is_not_json(tmp_path: Path, constant: str) -> None:
    path = tmp_path / "node.json"
    path.write_text('{"schema_version": 2, "gpus": [{"temperature_c": ' + constant + "}]}", encoding="utf-8")
    with pytest.raises(ReportError, match=f"{constant} is not valid JSON"):
        load_report(path)


def test_a_100000_deep_report_and_a_5000_digit_number_are_located_errors(tmp_path: Path) -> None:
    deep, digits = tmp_path / "deep.json", tmp_path / "digits.json"
    deep.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    digits.write_text('{"schema_version": ' + "9" * 5000 + "}", encoding="utf-8")
    for path in (deep, digits):
        with pytest.raises(ReportError) as raised:
            load_report(path)
        assert re.match(rf"{re.escape(str(path))}(:1)?: not valid JSON", str(raised.value)), raised.value
    env = {**os.environ, "PYTHONPATH": str(REPO), "GPU_PROCURE_CACHE_DIR": "off"}
    done = subprocess.run([sys.executable, "-m", "procurement.commands.cli", "verify", "--merge", str(deep),
                           str(digits)], capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert "nested too deeply" in done.stderr and "digits" in done.stderr


def test_reports_are_written_as_strict_json() -> None:
    from procurement.verify.report import VerificationReport, report_to_json

    text = report_to_json(VerificationReport())
    json.loads(text, parse_constant=lambda c: pytest.fail(f"{c} in a written report"))


def test_export_refuses_a_plan_with_no_hardware_chosen(tmp_path: Path) -> None:
    plan = tmp_path / "p.gpuplan.yaml"
    plan.write_text("schema_version: 3\n", encoding="utf-8")  # exported a quote of nothing, exit 0
    env = {**os.environ, "PYTHONPATH": str(REPO), "GPU_PROCURE_CACHE_DIR": "off"}
    done = subprocess.run([sys.executable, "-m", "procurement.commands.cli", "export", str(plan), "--quote",
                           str(tmp_path / "q.pdf"), "--lang", "en"], capture_output=True, text=True, timeout=120,
                          env=env)
    assert done.returncode == 3 and "no hardware chosen" in done.stderr, done.stderr
    assert not (tmp_path / "q.pdf").exists()


def test_four_gpus_each_listed_twice_fail_the_gpu_count(catalog) -> None:  # type: ignore[no-untyped-def]
    import re

    from procurement.plan import Plan
    from procurement.verify.probe import report_from_outputs
    from tests.conftest import NVIDIA_SMI_FIXTURES

    xml = (NVIDIA_SMI_FIXTURES / "k8s-test-infra_8x-h100-80gb-hbm3_580.105.08_v13.xml").read_text(encoding="utf-8")
    uuids = re.findall(r"<uuid>([^<]+)</uuid>", xml)
    assert len(set(uuids)) == 8
    for i in range(4):  # GPUs 5-8 are GPUs 1-4 again
        xml = xml.replace(uuids[4 + i], uuids[i])
    plan = Plan.model_validate({"gpu": {"model": "h100-sxm5-80gb", "count": 8}})
    report = report_from_outputs(xml, catalog, plan, "en")
    count = next(c for c in report.checks if c.id == "GPU-COUNT")
    assert count.status == "fail", count  # passed GPU-COUNT 8
    assert "only 4 are distinct" in count.message


def test_an_unknown_model_preset_or_checklist_item_is_an_error_and_old_preset_ids_still_work(catalog) -> None:  # type: ignore[no-untyped-def]
    from procurement.sizing.presets import ALIASES

    text = ("schema_version: 3\nrequirements: {model_preset: llama-70b-typo}\n"
            "checklist: {NOPE-ITEM: {checked: true}}\n")
    with pytest.raises(PlanError) as raised:  # the mistyped preset silently turned the VRAM check off
        parse_plan(text, Path("p.yaml"), catalog)
    assert str(raised.value).splitlines() == [
        "p.yaml:2: requirements.model_preset: unknown model preset 'llama-70b-typo' (mistyped?)",
        "p.yaml:3: checklist.NOPE-ITEM: unknown checklist item 'NOPE-ITEM'"]
    old = next(iter(ALIASES))
    plan = parse_plan(f"schema_version: 3\nrequirements: {{model_preset: {old}}}\n", Path("p.yaml"), catalog)
    assert plan.requirements.model_preset == old


def test_a_19_mb_report_of_small_objects_is_refused_before_parsing(tmp_path: Path) -> None:
    path = tmp_path / "node.json"
    path.write_text('{"schema_version": 2, "gpus": [' + ",".join(['{"a":1}'] * 2_400_000) + "]}", encoding="utf-8")
    with pytest.raises(ReportError, match="more than 100,000 values"):
        load_report(path)


def test_importing_a_fifo_or_a_deeply_nested_file_in_step_5_is_a_located_error(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    from procurement.plan import Plan
    from procurement.probe.nodes import read_node

    fifo, deep = tmp_path / "node.json", tmp_path / "deep.json"
    os.mkfifo(fifo)  # hung the window's import
    deep.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")  # RecursionError in the window
    with pytest.raises(ReportError, match="FIFO"):
        read_node(fifo, Plan(), catalog, "en")
    with pytest.raises(ReportError, match="nested too deeply"):
        read_node(deep, Plan(), catalog, "en")

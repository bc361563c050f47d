"""Fuzzers with memory measured: hypothesis picks the shape and the size of a hostile plan, user catalog, nvidia-smi
XML or report; the reader either takes it or gives a located error (never a traceback), and its memory, traced
with tracemalloc, stays within the 200 MB bound scaled to how much of the file limits the input uses.

The bound: peak RSS stays under 200 MB for any input up to the size limits (docs/reliability.md). An input that
uses a fraction f of its limits (bytes or values, whichever is more) may trace at most ``SLACK + f × 200 MB``, so
a shape that costs more per value than the worst case measured at the full limits fails here at a small size.
Derandomized and few examples each, so the suite stays fast and every run tries the same inputs."""

from __future__ import annotations

import json
import re
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from catalog.loader import CatalogError, load_catalog
from catalog.yamlsource import MAX_YAML_BYTES, MAX_YAML_VALUES
from procurement.evaluation import evaluate
from procurement.plan import Plan, PlanError, dump_plan, parse_plan, plan_to_data
from procurement.policy import default_policy
from procurement.verification_report import MAX_JSON_VALUES, ReportError, load_report, report_to_dict
from procurement.verify.parse.smi_xml import SmiParseError, parse_smi_xml
from procurement.verify.probe import report_from_outputs
from tests.conftest import EXAMPLES, NVIDIA_SMI_FIXTURES

BOUND = 200 * 2**20
SLACK = 16 * 2**20
FUZZ = settings(max_examples=10, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.function_scoped_fixture])
BASE_PLAN = (EXAMPLES / "llm-cluster-node.gpuplan.yaml").read_text(encoding="utf-8")
CAPTURE = (NVIDIA_SMI_FIXTURES / "k8s-test-infra_8x-h100-80gb-hbm3_580.105.08_v13.xml").read_text(encoding="utf-8")
REPORT = Path(__file__).resolve().parents[1] / "fixtures" / "verify" / "report-v1-8x-h100.json"


def _traced(fn: Callable[[], Any]) -> tuple[Any, BaseException | None, int]:
    """(value, exception, peak traced bytes) of ``fn()``."""
    tracemalloc.start()
    tracemalloc.reset_peak()
    try:
        return fn(), None, tracemalloc.get_traced_memory()[1]
    except Exception as exc:  # judged by the caller: located errors pass, anything else fails the test
        return None, exc, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def _within_bound(peak: int, fraction: float, what: str) -> None:
    allowed = SLACK + min(fraction, 1.0) * BOUND
    assert peak <= allowed, f"{what}: traced {peak / 2**20:.1f} MB for {fraction:.1%} of the limits " \
                            f"(allowed {allowed / 2**20:.1f} MB)"


def _yaml_values(text: str) -> int:
    try:
        return sum(1 for e in yaml.parse(text, Loader=yaml.CSafeLoader)
                   if isinstance(e, (yaml.ScalarEvent, yaml.MappingStartEvent, yaml.SequenceStartEvent)))
    except yaml.YAMLError:
        return 0


def _located(message: str, path: str) -> None:
    lines = message.splitlines()
    assert lines, "an empty error message"
    for line in lines:
        assert re.match(rf"{re.escape(path)}(:\d+)?: \S", line), f"not located: {line!r}"
    assert "Traceback" not in message


# ---------------------------------------------------------------- plans

def _plan_text(kind: str, n: int, extra: str) -> str:
    base = BASE_PLAN.replace("verification: []\n", "")
    base = re.sub(r"notes: '(.|\n)*\Z", "notes: ''\n", base)  # notes are the last key: one line
    if kind == "verification":  # many small mappings: the costliest YAML per byte
        return base + "verification:\n" + "  - {a: 1, b: [x, y]}\n" * n
    if kind == "storage":  # many lines of many drives: the lane model and the rules
        lines = "".join(f"  - {{role: data, part: samsung-pm9a3-3.84tb-u2, count: {1 + (i * 7919) % 10_000}}}\n"
                        for i in range(n))
        return re.sub(r"  storage:\n(    .*\n)*", "  storage:\n" + lines.replace("  - ", "    - "), base, count=1)
    if kind == "nested":
        return base.replace("notes: ''", "notes: " + "[" * n + "]" * n)
    if kind == "string":
        return base.replace("notes: ''", "notes: '" + (extra or "x") * n + "'")
    if kind == "aliases":  # each level refers to the one before ten times
        levels = ["a0: &a0 [" + ",".join(["x"] * 10) + "]"]
        levels += [f"a{i}: &a{i} [" + ",".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, min(n, 9))]
        return base + "aliases:\n" + "".join(f"  {lv}\n" for lv in levels)
    if kind == "digits":
        return base.replace("nodes: 8", "nodes: " + "9" * n, 1)
    return base + f"title: {extra!r}\n" * 2  # a duplicate key


plan_shapes = st.tuples(
    st.sampled_from(["verification", "storage", "nested", "string", "aliases", "digits", "duplicate"]),
    st.sampled_from([1, 10, 1_000, 20_000, 60_000]),
    st.text(alphabet=st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=8),
)


@FUZZ
@given(plan_shapes)
def test_fuzzed_plans_load_or_are_located_errors_within_the_memory_bound(catalog, shape: tuple[str, int, str]) -> None:  # type: ignore[no-untyped-def]
    kind, n, extra = shape
    if kind == "storage":
        n = min(n, 3_000)
    text = _plan_text(kind, n, extra)
    path = "fuzz.gpuplan.yaml"
    fraction = max(len(text.encode("utf-8")) / MAX_YAML_BYTES, _yaml_values(text) / MAX_YAML_VALUES)

    def load_and_evaluate() -> Any:
        plan = parse_plan(text, path, catalog, "en")
        return evaluate(plan, catalog, default_policy(), "en")

    evaluation, error, peak = _traced(load_and_evaluate)
    if error is not None:
        assert isinstance(error, PlanError), f"{kind} × {n}: {type(error).__name__}: {error}"
        _located(str(error), path)
    else:
        assert evaluation.plan is not None
    _within_bound(peak, fraction, f"plan {kind} × {n}")


# ---------------------------------------------------------------- the plan's canonical text

report_text = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=120)
report_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**12, 10**12) | st.floats(allow_nan=False, allow_infinity=False)
    | report_text,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(report_text, inner, max_size=3),
    max_leaves=12,
)


@settings(FUZZ, max_examples=25)
@given(st.lists(st.dictionaries(report_text, report_values, max_size=5), min_size=1, max_size=3), report_text)
def test_the_plan_dumped_report_by_report_is_the_text_of_one_dump(reports: list[dict[str, Any]], notes: str) -> None:
    """dump_plan writes each attached report on its own (so the window is not paused while one tree of all their
    values is built and freed); the text must be exactly what one dump of the whole plan with the same emitter
    (libyaml's) gives, and read back the same plan. (libyaml and PyYAML's own emitter differ on rare keys: an
    empty key is ``'': null`` in one and ``? ''`` in the other, found here; both read back the same.)"""
    plan = Plan.model_validate({"title": notes[:200], "verification": reports, "notes": notes})
    whole = yaml.dump(plan_to_data(plan), Dumper=yaml.CSafeDumper, allow_unicode=True, sort_keys=False,
                      width=100, default_flow_style=False)
    assert dump_plan(plan) == whole
    assert parse_plan(whole, "p.gpuplan.yaml") == plan


# ---------------------------------------------------------------- user catalogs

GPU = """\
  - id: fuzz-gpu-{i}
    name: "Fuzz {i}"
    vendor: NVIDIA
    architecture: Hopper
    segment: datacenter
    form_factor: pcie
    memory_gib: {memory}
    memory_type: HBM3
    memory_bandwidth_gbs: 2000
    tdp_w: {tdp}
    pcie_gen: 5
    pcie_lanes: 16
    cooling: passive
    slot_width: 2
    source: "fuzz"
"""


@FUZZ
@given(st.integers(1, 600), st.sampled_from(["80", "8192", "1e9", "true", "-1", "'80'", "9" * 400, ".nan"]),
       st.sampled_from(["350", "7000", "1e-9", "[1, 2]", "{a: 1}", "*x", "!!python/object:os.system x"]))
def test_fuzzed_user_catalogs_load_or_are_located_errors_within_the_memory_bound(
        tmp_path_factory: pytest.TempPathFactory, n: int, memory: str, tdp: str) -> None:
    directory = tmp_path_factory.mktemp("overlay")
    text = "gpus:\n" + "".join(GPU.format(i=i, memory=memory, tdp=tdp) for i in range(n))
    (directory / "gpus.yaml").write_text(text, encoding="utf-8")
    fraction = max(len(text) / MAX_YAML_BYTES, _yaml_values(text) / MAX_YAML_VALUES)
    cat, error, peak = _traced(lambda: load_catalog([directory]))
    if error is not None:
        assert isinstance(error, CatalogError), f"{type(error).__name__}: {error}"
        for line in error.problems:
            assert line.startswith(f"{directory}/gpus.yaml:"), line
    else:
        assert len([p for p in cat.parts["gpu"] if p.startswith("fuzz-gpu-")]) == n
    _within_bound(peak, fraction, f"catalog of {n} GPUs")


# ---------------------------------------------------------------- nvidia-smi XML

GPU_ELEMENT = re.compile(r"<gpu id=.*?</gpu>\n", re.S)
LEAF = re.compile(r"<([a-z_0-9]+)>([^<]*)</\1>")
SMI_LIMIT = 16 * 2**20  # the runner's cap on nvidia-smi's output (procurement/verify/collect/runner.py)


@FUZZ
@given(st.integers(1, 100), st.integers(0, 50),
       st.sampled_from(["N/A", "9" * 400, "-1", "\u202e", "<![CDATA[x]]>", "&#0;", "1e309 MiB", "Gen 99999"]))
def test_fuzzed_nvidia_smi_xml_parses_or_is_refused_within_the_memory_bound(
        catalog, copies: int, leaves: int, junk: str) -> None:  # type: ignore[no-untyped-def]
    gpu = GPU_ELEMENT.search(CAPTURE)
    assert gpu is not None
    text = CAPTURE[:gpu.end()] + gpu.group() * copies + CAPTURE[gpu.end():]
    every = list(LEAF.finditer(text))
    matches = every[:: max(1, len(every) // max(leaves, 1))]
    for m in reversed(matches[:leaves]):
        text = text[:m.start(2)] + junk + text[m.end(2):]
    fraction = len(text.encode("utf-8")) / SMI_LIMIT
    def parse_and_judge() -> Any:
        parse_smi_xml(text)  # SmiParseError here is the located refusal
        return report_from_outputs(text, catalog, lang="en")

    report, error, peak = _traced(parse_and_judge)
    if error is not None:
        assert isinstance(error, SmiParseError), f"{type(error).__name__}: {error}"
        assert str(error) and "\n" not in str(error)
    else:
        json.dumps(report_to_dict(report), allow_nan=False)
    _within_bound(peak, fraction, f"XML with {copies} extra GPUs")


# ---------------------------------------------------------------- reports

@FUZZ
@given(st.integers(0, 3_000), st.sampled_from(["gpus", "checks", "deep", "digits", "nan", "string"]))
def test_fuzzed_reports_load_or_are_located_errors_within_the_memory_bound(
        tmp_path_factory: pytest.TempPathFactory, n: int, kind: str) -> None:
    data = json.loads(REPORT.read_text(encoding="utf-8"))
    text: str
    if kind == "gpus":
        data["gpus"] = data["gpus"] * max(n // 8, 1)
    elif kind == "checks":
        data["checks"] = data["checks"] * max(n // 10, 1)
    if kind == "deep":
        text = json.dumps(data)[:-1] + ', "x": ' + "[" * n * 10 + "]" * n * 10 + "}"
    elif kind == "digits":
        text = json.dumps(data).replace('"gpus"', f'"n": {"9" * (n + 1)}, "gpus"', 1)
    elif kind == "nan":
        text = json.dumps(data).replace('"gpus"', '"n": NaN, "gpus"', 1)
    elif kind == "string":
        text = json.dumps({**data, "error": "\u202e\r" * n * 100})
    else:
        text = json.dumps(data)
    path = tmp_path_factory.mktemp("reports") / "node.json"
    path.write_text(text, encoding="utf-8")
    counted = text.count(",") + text.count("{") + text.count("[")
    fraction = max(len(text) / (20 * 2**20), counted / MAX_JSON_VALUES)
    report, error, peak = _traced(lambda: load_report(path))
    if error is not None:
        assert isinstance(error, ReportError), f"{kind} × {n}: {type(error).__name__}: {error}"
        _located(str(error), str(path))
    else:
        json.dumps(report_to_dict(report), allow_nan=False)
    _within_bound(peak, fraction, f"report {kind} × {n}")

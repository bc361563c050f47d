"""Whatever nvidia-smi, lsblk or topo print, the parsers answer with a result or their own error, never a crash."""

from __future__ import annotations

import importlib.util
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from procurement.verify.bench import BENCH_SCRIPT, run_benchmark
from procurement.verify.collect.runner import run_command
from procurement.verify.host import parse_cpuinfo, parse_lsblk, parse_lscpu, parse_meminfo
from procurement.verify.parse.smi_xml import SmiParseError, parse_smi_xml
from procurement.verify.parse.topo import TopoParseError, parse_topo
from tests.procurement.verify.conftest import FIX, T4_XML

T4 = T4_XML.read_text()
TOPO = (FIX / "topo-m_8x-a100-NV12-NIC0-3_tabs.txt").read_text()


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=len(T4)))
def test_any_truncation_of_a_capture(cut: int) -> None:
    try:
        report = parse_smi_xml(T4[:cut])
    except SmiParseError:
        return
    assert cut >= T4.rindex("</nvidia_smi_log>")  # only a complete document parses
    assert report.gpus[0].name == "Tesla T4"


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=300))
def test_arbitrary_text_to_every_parser(text: str) -> None:
    try:
        parse_smi_xml(text)
    except SmiParseError:
        pass
    try:
        parse_topo(text)
    except TopoParseError:
        pass
    parse_lsblk(text)
    parse_cpuinfo(text)
    parse_lscpu(text)
    parse_meminfo(text)


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=0, max_value=len(TOPO)), st.sampled_from(["", "\t", "  ", "X", "NV4"]))
def test_damaged_topology(cut: int, junk: str) -> None:
    try:
        parse_topo(TOPO[:cut] + junk + TOPO[cut:])
    except TopoParseError:
        pass


def test_odd_lsblk_json() -> None:
    assert parse_lsblk('{"blockdevices": 5}') == []
    assert parse_lsblk('[{"name": "nvme0n1"}]') == []
    assert [
        d.name for d in parse_lsblk('{"blockdevices": [{"name": "nvme0n1", "type": "disk", "size": "x"}]}')
    ] == ["nvme0n1"]


def test_benchmark_script_runs_and_skips_without_torch() -> None:
    compile(BENCH_SCRIPT, "<bench>", "exec")
    if importlib.util.find_spec("torch") is not None:
        pytest.skip("torch is installed here")
    result, reason = run_benchmark(lambda argv, t: run_command(argv, t), sys.executable, 60)
    assert result is None
    assert reason is not None and reason.startswith("no torch: No module named 'torch'")

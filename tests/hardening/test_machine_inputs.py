"""What a broken machine or a hostile file can hand the verifier: mutated nvidia-smi XML and report JSON."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from procurement.plan import load_plan
from procurement.verify import ReportError, load_report, merge_reports, parse_report, report_to_dict
from procurement.verify.parse.smi_xml import SmiParseError, parse_smi_xml
from procurement.verify.probe import report_from_outputs
from procurement.verify.report import STATUSES
from tests.conftest import EXAMPLES, REPO

CAPTURES = sorted((REPO / "tests" / "fixtures" / "nvidia-smi").glob("*.xml"))
FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
LEAF = re.compile(r"<([a-z_0-9]+)>([^<]*)</\1>")
ELEMENT = re.compile(r"<([a-z_0-9]+)>.*?</\1>", re.S)


def _build(xml: str, catalog) -> None:  # type: ignore[no-untyped-def]
    try:
        parse_smi_xml(xml)
    except SmiParseError:
        return
    report = report_from_outputs(xml, catalog, plan=load_plan(EXAMPLES / "llm-cluster-node.gpuplan.yaml"),
                                 lang="en")
    json.dumps(report_to_dict(report))  # always serialisable
    assert all(c.status in STATUSES for c in report.checks)


def test_there_are_captures_of_three_dtd_versions() -> None:
    versions = {re.search(r"nvsmi_device_v(\d+)", p.read_text()).group(1) for p in CAPTURES}  # type: ignore[union-attr]
    assert {"11", "12", "13"} <= versions


@pytest.mark.parametrize("capture", CAPTURES, ids=lambda p: p.name[:30])
@FUZZ
@given(data=st.data())
def test_na_anywhere(capture: Path, data: st.DataObject, catalog) -> None:  # type: ignore[no-untyped-def]
    """Any leaf value replaced by N/A, [Not Supported], [Unknown Error], junk or an empty string."""
    text = capture.read_text(encoding="utf-8")
    leaves = list(LEAF.finditer(text))
    picks = data.draw(st.lists(st.integers(0, len(leaves) - 1), min_size=1, max_size=40))
    junk = data.draw(st.sampled_from(["N/A", "[Not Supported]", "[Unknown Error]", "", "-1 MiB",
                                      "99999999999999999999 W", "Gen ∞", "\u202e"]))
    chosen = {leaves[i].span() for i in picks}
    out, last = [], 0
    for m in leaves:
        if m.span() in chosen:
            out += [text[last:m.start(2)], junk]
            last = m.end(2)
    out.append(text[last:])
    _build("".join(out), catalog)


@pytest.mark.parametrize("capture", CAPTURES, ids=lambda p: p.name[:30])
def test_dropped_elements(capture: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    """Drop every kind of element in turn (200 random drops per capture, seeded)."""
    text = capture.read_text(encoding="utf-8")
    spans = [m.span() for m in ELEMENT.finditer(text)]
    rng = random.Random(capture.name)
    for _ in range(200):
        a, b = rng.choice(spans)
        _build(text[:a] + text[b:], catalog)


@pytest.mark.parametrize("encoding", ["utf-16", "latin-1", "utf-8-sig", "cp1252"])
def test_other_encodings(encoding: str, catalog) -> None:  # type: ignore[no-untyped-def]
    raw = CAPTURES[0].read_text(encoding="utf-8").replace("NVIDIA", "NVIDIA\u00e9")
    data = raw.encode(encoding, errors="replace")
    try:
        parse_smi_xml(data)
    except SmiParseError as exc:
        assert str(exc)


def test_entity_expansion_is_refused() -> None:
    bomb = ('<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]>'
            "<nvidia_smi_log><driver_version>&lol2;</driver_version></nvidia_smi_log>")
    with pytest.raises(SmiParseError):
        parse_smi_xml(bomb)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=20,
)
report_keys = st.sampled_from(["schema_version", "created", "host", "driver_version", "cuda_version",
                               "gpus", "checks", "error"])


@FUZZ
@given(st.dictionaries(report_keys, json_values, max_size=8))
def test_report_json_of_any_shape(data: dict) -> None:
    data.setdefault("schema_version", 1)
    try:
        report = parse_report(data, "node.json")
    except ReportError as exc:
        assert str(exc).startswith("node.json")
        return
    merge_reports([report, report], None, "en")


def test_merging_a_mix_of_good_and_broken_files(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    from procurement.verify import load_reports

    xml = CAPTURES[-1].read_text(encoding="utf-8")
    good = report_from_outputs(xml, catalog, lang="en")
    paths = []
    for i, content in enumerate([json.dumps(report_to_dict(good)), "{not json", "[]", "\xff\xfe",
                                 json.dumps({"schema_version": 99})]):
        p = tmp_path / f"node{i}.json"
        p.write_bytes(content.encode("utf-8", errors="surrogateescape") if i != 3 else b"\xff\xfe\x00")
        paths.append(p)
    reports, _sources, errors = load_reports(paths)
    assert len(reports) == 1 and len(errors) == 4
    assert all(e.startswith(str(tmp_path)) for e in errors)
    assert isinstance(load_report(paths[0]).gpus, list)


def test_report_has_no_environment_secrets(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, catalog) -> None:  # type: ignore[no-untyped-def]
    """A real probe run (fake nvidia-smi replaying a capture) never writes the environment into the report."""
    from procurement.verify import ProbeOptions, run_probe

    secret = "ghp_SECRETTOKEN1234567890"
    monkeypatch.setenv("GITHUB_TOKEN", secret)
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", secret)
    fake = tmp_path / "nvidia-smi"
    fake.write_text(f"#!/bin/sh\nif [ \"$1\" = topo ]; then exit 0; fi\ncat '{CAPTURES[-1]}'\n")
    fake.chmod(0o755)
    report = run_probe(None, catalog, ProbeOptions(nvidia_smi=fake, timeout=10), "en")
    assert report.gpus, report.error
    text = json.dumps(report_to_dict(report))
    assert secret not in text
    assert "GITHUB_TOKEN" not in text and "AWS_SECRET" not in text

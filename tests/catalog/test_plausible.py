"""Implausible catalog numbers: possible for a part, but likely a slipped digit or unit. A user catalog with one
loads, and `catalog check`, every command's `--catalog` and the window say so, naming the file and the line."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import pytest

from catalog.loader import describe_overlay, load_catalog, overlay_warnings
from catalog.models import IMPOSSIBLE
from catalog.plausible import PLAUSIBLE, STANDARD, implausible, rule
from procurement.commands.cli import main

NIC = """\
nics:
  - id: acme-x710-2x10g
    name: Intel X710-DA2
    vendor: Intel
    speed_gbps: {speed}
    ports: 2
    fabric: ethernet
    pcie_gen: 3
    pcie_lanes: {lanes}
    source: "company hardware standard HW-STD-2024-07"
"""


def _shipped_spans() -> dict[tuple[str, str], tuple[float, float]]:
    values: dict[tuple[str, str], list[float]] = defaultdict(list)
    for kind, parts in load_catalog().parts.items():
        for part in parts.values():
            for name, value in dict(part).items():
                if isinstance(value, (int, float)) and not isinstance(value, bool):
                    values[(kind, name)].append(value)
    return {key: (min(v), max(v)) for key, v in values.items()}


def test_each_range_is_the_shipped_span_widened_by_the_rule() -> None:
    """A new shipped part outside a range fails here (the range is reconsidered) instead of warning users."""
    spans = _shipped_spans()
    for key, (low, high) in PLAUSIBLE.items():
        assert key in spans, f"{key}: no shipped part has this field, so no span to reason from"
        shipped_low, shipped_high = spans[key]
        assert low <= shipped_low and shipped_high <= high, (key, spans[key])
        if key not in STANDARD:
            assert (low, high) == rule(shipped_low, shipped_high), (key, spans[key], rule(*spans[key]))
        impossible = next((v for k, v in IMPOSSIBLE.items() if key[1].endswith(k)), None)
        if impossible is not None:  # the band between plausible and impossible exists
            assert (low == 0 or impossible[0] <= low) and high < impossible[1], key


def test_no_shipped_part_is_implausible() -> None:
    for kind, parts in load_catalog().parts.items():
        for part in parts.values():
            assert implausible(kind, dict(part)) == [], part.id


def test_rule_rounds_outward_to_round_figures() -> None:
    assert rule(8, 180) == (2, 800)
    assert rule(70, 1_000) == (15, 4_000)
    assert rule(0, 128) == (0, 600)


@pytest.mark.parametrize(("field", "value"), [("memory_gib", 8192), ("tdp_w", 7000), ("tdp_w", 5),
                                              ("memory_bandwidth_gbs", 50)])
def test_an_implausible_gpu_number_is_a_warning(field: str, value: float) -> None:
    warnings = implausible("gpu", {field: value})
    assert len(warnings) == 1 and warnings[0][0] == field and "implausible" in warnings[0][1]


def test_a_user_catalog_with_implausible_numbers_loads_with_located_warnings(
        tmp_path_factory: pytest.TempPathFactory, capsys: pytest.CaptureFixture[str]) -> None:
    tmp = tmp_path_factory.mktemp("plausible")
    tmp_path = tmp / "company"
    tmp_path.mkdir()
    (tmp_path / "nics.yaml").write_text(NIC.format(speed=10_000, lanes=32), encoding="utf-8")
    (tmp_path / "prices.yaml").write_text("prices:\n  - id: h100-sxm5-80gb\n    price_cny: 23500000\n",
                                          encoding="utf-8")
    cat = load_catalog([tmp_path])
    assert cat.get("nic", "acme-x710-2x10g") is not None, "it loads: possible, only unlikely"
    warnings = overlay_warnings(cat)
    assert [w.split(": ")[0] for w in warnings] == [f"{tmp_path}/nics.yaml:5", f"{tmp_path}/nics.yaml:9",
                                                     f"{tmp_path}/prices.yaml:3"]
    assert "speed_gbps: 10000 is implausible for a nic" in warnings[0]
    assert "pcie_lanes: 32 is implausible" in warnings[1] and "1 to 16" in warnings[1]
    assert "gpu 'h100-sxm5-80gb': price_cny: 2.35e+07 is implausible" in warnings[2]
    assert "3 implausible value(s)" in describe_overlay(cat.overlays[0])

    assert main(["catalog", "check", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert f"warning: {tmp_path}/nics.yaml:5: nic 'acme-x710-2x10g': speed_gbps:" in out

    plan = tmp / "p.gpuplan.yaml"
    plan.write_text("schema_version: 5\ngpu: {model: h100-sxm5-80gb, count: 8}\n", encoding="utf-8")
    main(["check", str(plan), "--catalog", str(tmp_path)])
    err = capsys.readouterr().err
    assert err.count("warning: ") == 3 and f"{tmp_path}/prices.yaml:3" in err


def test_a_plausible_user_catalog_has_no_warnings(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "nics.yaml").write_text(NIC.format(speed=10, lanes=8), encoding="utf-8")
    assert overlay_warnings(load_catalog([tmp_path])) == []
    assert main(["catalog", "check", str(tmp_path)]) == 0
    assert "warning" not in capsys.readouterr().out

"""Step 3's presenter: the gauges' readings in the core's words (the PDFs' and check's), their colours, and
the part texts, without Qt."""

from __future__ import annotations

import pytest

from catalog.models import Chassis, Cpu
from gui.views.server import GAUGES, describe_part, gauge_readings, gauge_states
from procurement.evaluation import evaluate
from procurement.facility_summary import facility_lines, rack_lines, server_line
from procurement.findings import Family, Finding, Severity
from procurement.plan import Plan, load_plan
from tests.conftest import EXAMPLES


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_gauges_word_the_wall_power_and_the_rack_as_the_pdfs_do(catalog, policy, lang) -> None:
    """The power gauge said "Per server at the wall: 2,540 W (model, PSU efficiency 94%), …" and the rack gauge
    "PDU per feed: 3-phase, …" while the quote, the RFQ and `check` said the same figures in other words."""
    plan = load_plan(EXAMPLES / "mid-size-training.gpuplan.yaml", catalog)
    plan = plan.model_copy(update={"requirements": plan.requirements.model_copy(update={"nodes": 8})})
    budgets = evaluate(plan, catalog, policy, lang).budgets
    assert budgets.power is not None
    readings = gauge_readings(budgets, lang)
    assert set(readings) == set(GAUGES)
    on_paper = facility_lines(budgets.power, lang)  # what `check` and the PDFs' facility section print
    server = server_line(budgets.power, lang)
    assert server is not None and server in on_paper and server in readings["power"].detail.splitlines()
    for line in rack_lines(budgets.power, lang):
        assert line in on_paper and line in readings["rack"].detail.splitlines()
    assert readings["power"].used == budgets.power.draw_w
    assert readings["power"].capacity == budgets.power.usable_w
    assert budgets.lanes is not None and readings["pcie"].used == budgets.lanes.cpu_needed + budgets.lanes.switch_needed
    assert budgets.heat is not None and readings["cooling"].used == budgets.heat.required_cfm
    no_limit = {"en": "No rack power limit set: compared with 40 kW per rack",
                "zh": "未设置机柜功率上限：与每机柜 40 kW 比较"}
    assert no_limit[lang] in readings["rack"].detail
    assert "%1" not in "".join(r.detail for r in readings.values())  # no Qt placeholder left unfilled


def test_a_tower_has_no_rack_reading_and_a_failed_budget_says_why(catalog, policy) -> None:
    tower = load_plan(EXAMPLES / "personal-research.gpuplan.yaml", catalog)
    budgets = evaluate(tower, catalog, policy, "en").budgets
    assert gauge_readings(budgets, "en", tower=True)["rack"].used is None
    broken = budgets.__class__(**{**budgets.__dict__, "lanes": None, "errors": {"lanes": "ValueError: boom"}})
    assert gauge_readings(broken, "en")["pcie"] == gauge_readings(broken, "en")["pcie"].__class__(
        None, None, "ValueError: boom")


def _finding(rule: str, family: Family, severity: Severity, *fields: str) -> Finding:
    return Finding.of_text("", rule=rule, family=family, severity=severity, step=3, fields=fields)


def test_a_rack_finding_colours_the_rack_gauge_only(catalog, policy) -> None:
    """The page named POWER-RACK-LIMIT, POWER-RACK-UNITS and COOLING-LIQUID; a finding is the rack's by the
    field it names, so the rules' own findings decide."""
    plan = Plan.model_validate({"requirements": {"nodes": 8}, "gpu": {"model": "h100-sxm5-80gb", "count": 8},
                                "server": {"chassis": "nvidia-dgx-h100", "servers_per_rack": 20,
                                           "rack_power_limit_kw": 5}})
    findings = evaluate(plan, catalog, policy, "en").findings
    rack = [f for f in findings if f.rule in ("POWER-RACK-LIMIT", "POWER-RACK-UNITS", "COOLING-LIQUID")]
    assert {f.rule for f in rack} == {"POWER-RACK-LIMIT", "POWER-RACK-UNITS", "COOLING-LIQUID"}
    assert gauge_states(rack) == {"rack": "error"}
    others = [f for f in findings if f not in rack and f.severity != Severity.INFO]
    assert "rack" not in gauge_states(others)
    assert gauge_states([_finding("POWER-PSU-CAPACITY", "power", Severity.WARNING, "server.psu.count")]) == {
        "power": "warning"}
    assert gauge_states([_finding("POWER-X", "power", Severity.INFO, "server.psu.count")]) == {}
    mixed = [_finding("COOLING-A", "cooling", Severity.ERROR), _finding("COOLING-B", "cooling", Severity.WARNING)]
    assert gauge_states(mixed) == {"cooling": "error"}  # the worst stays


def test_part_texts_use_the_quotes_words(catalog) -> None:
    cpu = next(c for c in catalog.all(Cpu) if c.pcie_lanes and c.max_sockets and c.max_sockets > 1)
    en, zh = describe_part(cpu, "en"), describe_part(cpu, "zh")
    assert en.startswith(f"{cpu.name} — {cpu.cores} cores, ") and f"{cpu.pcie_lanes} PCIe lanes" in en
    assert f"{cpu.cores} 核" in zh and f"最多 {cpu.max_sockets} 路" in zh
    chassis = next(c for c in catalog.all(Chassis) if c.rack_units and c.gpu_slots > 1)
    assert f"{chassis.rack_units}U, {chassis.gpu_slots} GPU positions" in describe_part(chassis, "en")
    assert f"{chassis.gpu_slots} 个 GPU 位（" in describe_part(chassis, "zh")


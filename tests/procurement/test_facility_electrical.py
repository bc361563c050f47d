"""The electrical figures a facility engineer signs, against hand calculations: three-phase current per supply
system, phase balance, N+M redundancy, per-cord amps and the office receptacle.

Hand calculations (docs/rules.md "Supply systems"): three-phase line current I = P / (√3 × V_LL × PF);
208Y/120 V and Japan's 200 V are line-to-line already (V_LL = 208 / 200 V), 220/380, 230/400 and 240/415 V
carry servers line-to-neutral (V_LL = √3 × 220 / 230 / 240 V).
"""

from __future__ import annotations

import math

import pytest

from procurement.facility import (
    PlatformOverhead,
    SystemPower,
    cords_on_phases,
    line_currents,
    rack_plan,
    system_power,
    three_phase_v_ll,
)
from procurement.findings import Severity
from procurement.plan import Redundancy
from procurement.policy import default_policy
from procurement.rules import evaluate_family, power
from procurement.rules.power import power_budget, psus_needed, redundant_units
from tests.procurement.rules.test_rules_parts import CAT, ids, one, workstation_4090

POLICY = default_policy()
DGX_B200_W = 14_300.0  # NVIDIA DGX B200 User Guide: 14.3 kW maximum (catalog nvidia-dgx-b200)


def _server(band: str, wall_w: float = DGX_B200_W, cls: str | None = "titanium") -> SystemPower:
    """A server whose wall power is the vendor's published maximum (PF 0.95 for Titanium)."""
    return system_power(1000.0, 0.0, PlatformOverhead(0, 0, 0), psu_unit_w=3300.0, psu_sharing=6,
                        psu_class=cls, psu_form="server", band=band,  # type: ignore[arg-type]
                        vendor_max_w=wall_w)


def _rack(band: str, servers: int = 2, cords: int = 6, phases: int = 3):  # type: ignore[no-untyped-def]
    return rack_plan(_server(band), rack_units=10, rack_units_usable=42, servers_per_rack=servers, nodes=servers,
                     rack_limit_kw=None, continuous_pct=80, pdu_phases=phases, cords_per_server=cords)


def test_two_dgx_b200_at_208_v_line_to_line_need_about_87_a_and_a_125_a_pdu() -> None:
    # 2 × 14,300 W / (√3 × 200 V × 0.95) = 86.9 A; at 80 % continuous a 100 A PDU carries 80 A -> 125 A.
    r = _rack("200-208")
    assert r.connection == "ll" and r.pdu_volts == pytest.approx(200.0)
    assert r.pdu_amps == pytest.approx(2 * 14_300 / (math.sqrt(3) * 200 * 0.95)) == pytest.approx(86.9, abs=0.05)
    assert r.pdu_rating_amps == 125
    # the defect: V_LL taken as √3 × 200 V read 50 A and a 63 A PDU (~42 % low)
    assert r.pdu_amps > 1.7 * 2 * 14_300 / (math.sqrt(3) * 200 * math.sqrt(3) * 0.95)


@pytest.mark.parametrize(("band", "v_ln", "amps", "rating"), [
    ("230", 230.0, 2 * 14_300 / (3 * 230 * 0.95), 60),   # 230/400 V: 43.6 A; 60 A × 80 % = 48 A
    ("220", 220.0, 2 * 14_300 / (3 * 220 * 0.95), 60),   # 220/380 V: 45.6 A
    ("240", 240.0, 2 * 14_300 / (3 * 240 * 0.95), 60),   # 240/415 V: 41.8 A
])
def test_line_to_neutral_supplies(band: str, v_ln: float, amps: float, rating: int) -> None:
    r = _rack(band)
    assert r.connection == "ln"
    assert r.pdu_volts == pytest.approx(v_ln * math.sqrt(3))  # 398 V, 381 V, 416 V line-to-line
    # P / (√3 × √3 V_LN × PF) = P / (3 × V_LN × PF)
    assert r.pdu_amps == pytest.approx(amps)
    assert r.pdu_rating_amps == rating


def test_230_400_hand_figures() -> None:
    assert _rack("230").pdu_amps == pytest.approx(43.6, abs=0.05)
    assert _rack("220").pdu_amps == pytest.approx(45.6, abs=0.05)


def test_band_that_does_not_say_is_counted_line_to_line_at_200_v() -> None:
    assert three_phase_v_ll("200-240", 200.0) == 200.0
    assert three_phase_v_ll("100-127", 120.0) == pytest.approx(207.8, abs=0.1)  # 120 V from 208Y/120


def test_phase_balance_of_the_rack_cords() -> None:
    assert cords_on_phases(12) == (4, 4, 4)
    assert cords_on_phases(8) == (3, 3, 2)
    assert cords_on_phases(1) == (1, 0, 0)
    # line-to-neutral: the most loaded phase carries its own cords: 3 of 8 -> 12.5 % above balanced
    r = _rack("230", servers=1, cords=8)
    per_cord = 14_300 / 8 / (230 * 0.95)
    assert r.cords_per_phase == (3, 3, 2)
    assert r.pdu_amps == pytest.approx(3 * per_cord)
    assert r.pdu_amps == pytest.approx(r.balanced_amps * 9 / 8)
    assert r.imbalance_pct == pytest.approx(12.5)


def test_line_to_line_line_currents_are_phasor_differences() -> None:
    # balanced delta: line current = √3 × the pair current
    assert line_currents((10.0, 10.0, 10.0), "ll") == pytest.approx((10 * math.sqrt(3),) * 3)
    # one pair loaded (L1-L2 only): L1 and L2 carry it, L3 nothing
    assert line_currents((10.0, 0.0, 0.0), "ll") == pytest.approx((10.0, 10.0, 0.0))
    assert line_currents((3.0, 2.0, 1.0), "ln") == (3.0, 2.0, 1.0)


def test_single_phase_pdu() -> None:
    r = _rack("230", servers=1, phases=1)
    assert r.pdu_amps == pytest.approx(14_300 / (230 * 0.95)) and r.pdu_volts == 230.0


@pytest.mark.parametrize(("mode", "count", "spares"), [
    ("n+1", 6, 1), ("n+2", 6, 2), ("n+3", 6, 3), ("n+n", 6, 3), ("n+n", 5, 3), ("none", 6, 0), ("n+2", 1, 1),
])
def test_redundant_units_of_any_n_plus_m_shape(mode: str, count: int, spares: int) -> None:
    assert redundant_units(Redundancy(mode), count) == spares


def test_psus_needed_with_n_plus_2() -> None:
    # 9,000 W × 1.2 = 10,800 W on 3,300 W units: 4 carry it, two more in reserve (4+2)
    assert psus_needed(9000, 3300, POLICY, Redundancy.N_PLUS_2) == 6


def test_4_plus_2_counts_four_psus_as_capacity() -> None:
    plan = workstation_4090(psu={"part": "sm-2000-ti", "count": 6, "redundancy": "n+2"})
    b = power_budget(plan, CAT, POLICY)
    assert (b.psu_count, b.redundant_units, b.cords_after_failover) == (6, 2, 4)
    assert b.usable_w == pytest.approx(4 * b.psu_unit_w)  # type: ignore[operator]


def test_n_plus_2_needs_more_than_two_psus() -> None:
    plan = workstation_4090(psu={"part": "sm-2000-ti", "count": 2, "redundancy": "n+2"})
    f = one(evaluate_family(power, plan, CAT, POLICY, "en"), "POWER-PSU-REDUNDANCY")
    assert f.severity == Severity.ERROR and "at least 3" in f.message
    ok = workstation_4090(psu={"part": "sm-2000-ti", "count": 3, "redundancy": "n+2"})
    assert "POWER-PSU-REDUNDANCY" not in ids(evaluate_family(power, ok, CAT, POLICY, "en"))


def test_3_plus_3_meets_an_n_plus_n_policy_and_4_plus_2_an_n_plus_1_one() -> None:
    nn = POLICY.model_copy(update={"psu_redundancy_required": "n+n"})
    dc = {"workload": "inference", "deployment": "datacenter"}
    three = workstation_4090(psu={"part": "sm-2000-ti", "count": 6, "redundancy": "n+3"})
    three = three.model_copy(update={"requirements": three.requirements.model_copy(update=dc)})
    assert "POWER-PSU-NO-REDUNDANCY" not in ids(evaluate_family(power, three, CAT, nn, "en"))
    four = three.model_copy(update={"server": three.server.model_copy(
        update={"psu": three.server.psu.model_copy(update={"redundancy": Redundancy.N_PLUS_2})})})
    assert "POWER-PSU-NO-REDUNDANCY" not in ids(evaluate_family(power, four, CAT, POLICY, "en"))
    assert "POWER-PSU-NO-REDUNDANCY" in ids(evaluate_family(power, four, CAT, nn, "en"))


def _office_box(volts: str, deployment: str = "office"):  # type: ignore[no-untyped-def]
    # two GPUs on one PSU: 2 × 450 + 253 + 10 + 150 = 1,313 W DC, about 1.4 kW at the wall
    plan = workstation_4090(psu={"part": "sm-2000-ti", "count": 1}, input_voltage=volts)
    return plan.model_copy(update={
        "gpu": plan.gpu.model_copy(update={"count": 2}),
        "requirements": plan.requirements.model_copy(update={"deployment": deployment})})


def test_office_on_120_v_is_checked_against_a_15_a_receptacle() -> None:
    plan = _office_box("100-127")
    b = power_budget(plan, CAT, POLICY)
    amps = b.amps_per_cord
    assert amps is not None and 12 < amps < 16  # over NEMA 5-15's 12 A continuous, under a 20 A circuit's 16 A
    f = one(evaluate_family(power, plan, CAT, POLICY, "en"), "POWER-CORD-AMPS")
    assert f.severity == Severity.ERROR and "12 A" in f.message and "15 A" in f.message and "NEMA 5-15" in f.message
    # the same box in a data centre on a 20 A branch circuit (16 A continuous) passes
    dc = _office_box("100-127", "datacenter")
    assert "POWER-CORD-AMPS" not in ids(evaluate_family(power, dc, CAT, POLICY, "en"))


def test_office_in_china_is_checked_against_a_10_a_socket() -> None:
    plan = _office_box("220")
    amps = power_budget(plan, CAT, POLICY).amps_per_cord
    assert amps is not None and amps < 8  # ~6.6 A: fits a 10 A socket at 80 %
    assert "POWER-CORD-AMPS" not in ids(evaluate_family(power, plan, CAT, POLICY, "en"))
    big = workstation_4090(psu={"part": "sm-2000-ti", "count": 1}, input_voltage="220")  # 4 GPUs, ~2.4 kW
    big_amps = power_budget(big, CAT, POLICY).amps_per_cord
    assert big_amps is not None and big_amps > 8
    f = one(evaluate_family(power, big, CAT, POLICY, "en"), "POWER-CORD-AMPS")
    assert "10 A wall socket" in f.message and "8 A" in f.message


def _two_hgx_nodes(nics: list[dict[str, object]]):  # type: ignore[no-untyped-def]
    from tests.procurement.rules.test_rules_parts import hgx_node

    plan = hgx_node(requirements={"nodes": 2})
    return plan.model_copy(update={"server": plan.server.model_copy(update={"nics": []})}).model_validate(
        {**plan.model_dump(mode="json"), "server": {**plan.model_dump(mode="json")["server"], "nics": nics}})


def test_multi_node_training_with_one_400g_nic_per_node_is_not_rail_optimised() -> None:
    from procurement.rules import balance

    plan = _two_hgx_nodes([{"part": "cx7-400g", "count": 1}])
    found = evaluate_family(balance, plan, CAT, POLICY, "en")
    assert "BALANCE-FABRIC" not in ids(found)  # the old check: one >= 100 Gb/s NIC per node passed
    f = one(found, "BALANCE-FABRIC-RAILS")
    assert f.severity == Severity.WARNING
    assert "0.12 NIC and 50 Gb/s per GPU" in f.message and "1 NIC and 400 Gb/s" in f.message
    assert "2-8-9-400" in f.message and "8 of 400 Gb/s" in f.fix
    rails = _two_hgx_nodes([{"part": "cx7-400g", "count": 8}])
    assert "BALANCE-FABRIC-RAILS" not in ids(evaluate_family(balance, rails, CAT, POLICY, "en"))

"""Power rules on fixture parts, with the arithmetic worked from the fixture catalog's numbers."""

from __future__ import annotations

import pytest

from procurement.findings import Severity
from procurement.plan import Redundancy
from procurement.policy import default_policy
from procurement.rules import evaluate_family, power
from procurement.rules.power import power_budget, psus_needed, redundant_units
from tests.procurement.rules.test_rules_parts import CAT, hgx_node, ids, one, plan_of, workstation_4090

POLICY = default_policy()
FAN = 1 + POLICY.fan_power_pct / 100
# 4 × RTX 4090 at 450 W + i9-13900K at 253 W + 2 DDR5 DIMMs at 5 W + 150 W base
DRAW_4X4090 = 4 * 450 + 253 + 2 * 5 + 150


def run(plan, policy=POLICY):  # type: ignore[no-untyped-def]
    return evaluate_family(power, plan, CAT, policy, "en")


def test_power_budget_adds_up_the_parts() -> None:
    b = power_budget(workstation_4090(), CAT, POLICY)
    assert b.draw_w == DRAW_4X4090 == 2213
    assert b.gpu_w == 1800
    assert b.usable_w == 1600
    assert b.required_w == pytest.approx(2213 * 1.2)
    assert [i.key for i in b.items] == ["gpu", "cpu", "memory", "base"]
    assert b.load_pct == pytest.approx(100 * 2213 / 1600)


def test_one_1600w_psu_cannot_carry_four_4090s() -> None:
    f = one(run(workstation_4090()), "POWER-PSU-CAPACITY")
    assert f.severity == Severity.ERROR and f.step == 3
    assert "2,213 W" in f.message and "1,600 W" in f.message
    # 2213 × 1.2 = 2655.6 W → ceil(2655.6 / 1600) = 2 PSUs
    assert "at least 2 of these PSUs" in f.fix
    assert f.fields == ("server.psu.part", "server.psu.count")


def test_two_1600w_psus_carry_four_4090s_with_headroom() -> None:
    plan = workstation_4090(psu={"part": "atx-1600", "count": 2})
    assert 2 * 1600 >= DRAW_4X4090 * 1.2
    assert not ids(run(plan)) & {"POWER-PSU-CAPACITY", "POWER-PSU-HEADROOM"}


def test_thin_headroom_is_a_warning() -> None:
    # 3 × 450 + 253 + 10 + 150 = 1763 W ≤ 1800 W, but 1763 × 1.2 = 2115.6 W > 1800 W
    plan = workstation_4090(psu={"part": "sm-2000-ti", "count": 1})
    plan = plan.model_copy(update={"gpu": plan.gpu.model_copy(update={"count": 3})})
    found = run(plan)
    assert "POWER-PSU-CAPACITY" not in ids(found)
    f = one(found, "POWER-PSU-HEADROOM")
    assert f.severity == Severity.WARNING and "2,116 W" in f.message


def test_psus_needed_counts_redundant_units() -> None:
    assert psus_needed(2213, 1600, POLICY, redundancy="none") == 2  # type: ignore[arg-type]
    assert psus_needed(2213, 1600, POLICY, redundancy="n+1") == 3  # type: ignore[arg-type]
    assert psus_needed(2213, 1600, POLICY, redundancy="n+n") == 4  # type: ignore[arg-type]
    assert redundant_units("n+n", 4) == 2 and redundant_units("n+1", 3) == 1  # type: ignore[arg-type]


def test_redundant_units_are_not_capacity() -> None:
    # N+1 with 2 × 1600 W: only 1600 W counts, below 2213 W
    plan = workstation_4090(psu={"part": "atx-1600", "count": 2, "redundancy": "n+1"})
    assert power_budget(plan, CAT, POLICY).usable_w == 1600
    assert "POWER-PSU-CAPACITY" in ids(run(plan))


def test_redundancy_needs_enough_units() -> None:
    assert "POWER-PSU-REDUNDANCY" in ids(
        run(workstation_4090(psu={"part": "atx-1600", "count": 1, "redundancy": "n+1"}))
    )
    assert "POWER-PSU-REDUNDANCY" in ids(
        run(hgx_node(server={"psu": {"part": "sm-3000-ti", "count": 5, "redundancy": "n+n"}}))
    )
    assert "POWER-PSU-REDUNDANCY" not in ids(
        run(hgx_node(server={"psu": {"part": "sm-3000-ti", "count": 6, "redundancy": "n+n"}}))
    )


def test_low_line_unsupported_and_derated() -> None:
    f = one(
        run(workstation_4090(input_voltage="100-127", psu={"part": "ti-2400-hl", "count": 2})),
        "POWER-LOW-LINE-UNSUPPORTED",
    )
    assert f.severity == Severity.ERROR
    found = run(workstation_4090(input_voltage="100-127", psu={"part": "sm-2000-ti", "count": 2}))
    assert one(found, "POWER-LOW-LINE-DERATED").severity == Severity.INFO
    # counted at 2 × 1000 W on low line: below 2213 W
    assert "2,000 W" in one(found, "POWER-PSU-CAPACITY").message
    # on high line the same PSUs give 2 × 1800 = 3600 W ≥ 2655.6 W
    assert not ids(run(workstation_4090(psu={"part": "sm-2000-ti", "count": 2}))) & {
        "POWER-PSU-CAPACITY",
        "POWER-PSU-HEADROOM",
        "POWER-LOW-LINE-DERATED",
    }


def test_low_line_unknown_is_a_warning_naming_what_to_ask_and_capacity_is_not_judged() -> None:
    # sm-3000-ti has low_line 'unknown': 6 × 3000 = 18000 W bound ≥ 7733 W, so no capacity finding — but
    # unknown is not a pass: a warning that says what to ask the vendor
    node = hgx_node(server={"input_voltage": "100-127", "psu": {"part": "sm-3000-ti", "count": 6}})
    found = run(node)
    f = one(found, "POWER-LOW-LINE-UNKNOWN")
    assert f.severity == Severity.WARNING
    assert "rated output (W) at 100-127 V" in f.fix and "sm-3000-ti" in f.fix
    assert not ids(found) & {"POWER-LOW-LINE-UNSUPPORTED", "POWER-PSU-CAPACITY", "POWER-PSU-HEADROOM"}
    b = power_budget(node, CAT, POLICY)
    assert b.psu_unit_w is None and b.usable_w == 0
    # on high line the 3000 W rating is known and there is nothing to say
    assert "POWER-LOW-LINE-UNKNOWN" not in ids(run(hgx_node(server={"psu": {"part": "sm-3000-ti", "count": 6}})))


def test_low_line_unknown_still_fails_a_draw_above_the_high_line_rating() -> None:
    # parts 8 × 700 + 2 × 350 + 32 × 8 + 8 + 4 × 15 + 4 × 25 = 6724 W, plus fans 15 % = 7733 W on
    # 2 × sm-3000-ti (low line unknown): even at 200-240 V they give 2 × 3000 = 6000 W, and low line never more
    node = hgx_node(server={"input_voltage": "100-127", "psu": {"part": "sm-3000-ti", "count": 2}})
    b = power_budget(node, CAT, POLICY)
    assert b.draw_w == pytest.approx(6724 * FAN) and b.upper_bound_w == 6000 and b.psu_unit_w is None
    found = run(node)
    f = one(found, "POWER-PSU-CAPACITY")
    assert f.severity == Severity.ERROR
    assert "7,733 W" in f.message and "6,000 W" in f.message and "even at 200-240 V" in f.message
    # ceil(7733 × 1.2 / 3000) = ceil(3.09) = 4 units
    assert "at least 4 of these PSUs" in f.fix
    assert one(found, "POWER-LOW-LINE-UNKNOWN").severity == Severity.WARNING
    zh = evaluate_family(power, node, CAT, POLICY, "zh")
    assert "任何电压下都不够" in one(zh, "POWER-PSU-CAPACITY").message
    # the same draw on high line is the ordinary capacity error
    high = run(hgx_node(server={"psu": {"part": "sm-3000-ti", "count": 2}}))
    assert "even at 200-240 V" not in one(high, "POWER-PSU-CAPACITY").message


def test_low_line_unknown_checklist_item_fails_above_the_bound() -> None:
    from procurement.checklist import Status, build_checklists

    def psu_item(count: int):  # type: ignore[no-untyped-def]
        node = hgx_node(server={"input_voltage": "100-127", "psu": {"part": "sm-3000-ti", "count": count}})
        cls = build_checklists(node, CAT, [], POLICY, "en")
        return next(i for i in cls["hardware"].items if i.id == "psu_power")

    # 7733 W > 2 × 3000 W = 6000 W at 200-240 V: fails on any voltage, not 'unknown'
    item = psu_item(2)
    assert item.status == Status.FAIL and "7,733 W" in item.reason.replace("\u00a0", ",")
    # 3 × 3000 = 9000 W ≥ 7733 W: within the bound, the low-line capacity itself is still unknown
    assert psu_item(3).status == Status.UNKNOWN

def test_psu_form_must_fit_the_chassis() -> None:
    # tower-ws takes ATX units; sm-2000-ti is a server module
    f = one(run(workstation_4090(psu={"part": "sm-2000-ti", "count": 2})), "POWER-PSU-FORM")
    assert f.severity == Severity.ERROR and "hot-swap server module" in f.message and "ATX" in f.message
    assert "POWER-PSU-FORM" not in ids(run(workstation_4090()))  # atx-1600 in an ATX tower
    zh = evaluate_family(power, workstation_4090(psu={"part": "sm-2000-ti", "count": 2}), CAT, POLICY, "zh")
    assert "服务器热插拔电源模块" in one(zh, "POWER-PSU-FORM").message
    # the HGX platform takes server modules: an ATX unit there is wrong too
    assert "POWER-PSU-FORM" in ids(run(hgx_node(server={"psu": {"part": "atx-1600", "count": 6}})))


def test_psu_bays() -> None:
    assert "POWER-PSU-BAYS" in ids(run(workstation_4090(psu={"part": "atx-1600", "count": 3})))
    assert "POWER-PSU-BAYS" not in ids(run(workstation_4090(psu={"part": "atx-1600", "count": 2})))


def test_chassis_psus_count_and_mixing_is_flagged() -> None:
    node = hgx_node()
    b = power_budget(node, CAT, POLICY)
    # 8 × 700 + 2 × 350 + 32 × 8 + (8 + 4 × 15) + 4 × 25, plus the rack chassis' fans (15 % of the parts)
    assert b.draw_w == pytest.approx((5600 + 700 + 256 + 68 + 100) * FAN)
    assert [i.key for i in b.items][-1] == "fans" and "base" not in [i.key for i in b.items]
    assert b.psu_from_chassis and b.usable_w == 6 * 3000
    assert "POWER-PSU-MISSING" not in ids(run(node))
    assert "POWER-PSU-MIXED" in ids(run(hgx_node(server={"psu": {"part": "sm-2000-ti", "count": 6}})))
    assert "POWER-PSU-MIXED" not in ids(run(hgx_node(server={"psu": {"part": "sm-3000-ti", "count": 6}})))


def test_psu_missing() -> None:
    plan = workstation_4090(psu={"part": None, "count": 0})
    assert one(run(plan), "POWER-PSU-MISSING").severity == Severity.WARNING
    assert run(plan_of()) == []


def test_rack_limit() -> None:
    # the rack carries wall power: 4 servers × (7733 W DC / PSU efficiency ≈ 8.1 kW) = 32.4 kW > 20 kW
    node = hgx_node(server={"rack_power_limit_kw": 20, "servers_per_rack": 4})
    b = power_budget(node, CAT, POLICY)
    assert b.ac_w > b.draw_w and b.rack_kw == pytest.approx(4 * b.ac_w / 1000)
    f = one(run(node), "POWER-RACK-LIMIT")
    assert f"{b.rack_kw:.1f} kW" in f.message and "at the wall" in f.message and "at most 2 servers" in f.fix
    # the old DC-only estimate (27.5 kW) passed a 30 kW limit; at the wall it does not
    assert "POWER-RACK-LIMIT" in ids(run(hgx_node(server={"rack_power_limit_kw": 30, "servers_per_rack": 4})))
    assert "POWER-RACK-LIMIT" not in ids(
        run(hgx_node(server={"rack_power_limit_kw": 35, "servers_per_rack": 4}))
    )


def test_transient_peaks_against_psu_tolerance() -> None:
    plan = workstation_4090(psu={"part": "atx-1600", "count": 2})
    # peak = 2213 + 1800 × (3 − 1) = 5813 W; 200 % of 3200 W = 6400 W → fine
    assert power_budget(plan, CAT, POLICY).peak_w == 5813
    assert "POWER-TRANSIENT" not in ids(run(plan))
    # with only the ATX 3.0 100 ms tolerance (120 %): 3840 W < 5813 W
    strict = POLICY.model_copy(update={"psu_peak_tolerance_pct": 120})
    f = one(run(plan, strict), "POWER-TRANSIENT")
    assert "5,813 W" in f.message and "3,840 W" in f.message


def test_unknown_gpu_watts_are_reported_not_guessed() -> None:
    from catalog.models import Gpu
    from tests.procurement.rules.test_rules_parts import make_catalog, part

    h800 = part(
        Gpu,
        id="h800-pcie",
        name="H800 PCIe",
        segment="datacenter",
        architecture="Hopper",
        compute_capability="9.0",
        memory_gib=80,
        memory_type="HBM2e",
        pcie_gen=5,
        form_factor="pcie",
    )
    cat = make_catalog(h800)
    plan = plan_of(gpu={"model": "h800-pcie", "count": 2}, server={"cpu": "epyc-7543"})
    found = evaluate_family(power, plan, cat, POLICY, "en")
    assert "H800 PCIe" in one(found, "POWER-UNKNOWN-WATTS").message
    assert power_budget(plan, cat, POLICY).draw_w == 225 + 150



def test_parts_without_vendor_watts_use_the_policy_fallback() -> None:
    from catalog.models import MemoryModule, Nic
    from tests.procurement.rules.test_rules_parts import make_catalog, part

    dimm = part(MemoryModule, id="rdimm-nopower", memory_type="DDR5", capacity_gib=64, speed_mts=4800, ecc=True,
                registered=True)
    nic = part(Nic, id="cx7-nopower", speed_gbps=400, ports=1, fabric="infiniband", pcie_gen=5, pcie_lanes=16)
    cat = make_catalog(dimm, nic)
    plan = hgx_node(server={"memory": {"part": "rdimm-nopower", "count": 32},
                            "nics": [{"part": "cx7-nopower", "count": 8}]})
    b = power_budget(plan, cat, POLICY)
    # 32 DIMMs × 10 W and 8 NICs × 40 W (policy fallbacks) instead of catalog figures
    assert [(i.key, i.unit_w) for i in b.estimated] == [("memory", 10), ("nic", 40)]
    assert b.draw_w == pytest.approx((5600 + 700 + 32 * 10 + (8 + 4 * 15) + 8 * 40) * FAN)
    f = one(evaluate_family(power, plan, cat, POLICY, "en"), "POWER-ESTIMATED-WATTS")
    assert "rdimm-nopower 10 W" in f.message and "cx7-nopower 40 W" in f.message
    assert f.fields == ("server.memory.count", "server.nics[0].count")
    assert "POWER-ESTIMATED-WATTS" not in ids(run(hgx_node()))


def test_unknown_chassis_limits_are_not_guessed() -> None:
    from catalog.models import Chassis
    from tests.procurement.rules.test_rules_parts import make_catalog, part

    bare = part(Chassis, id="bare-4u", form="rack", cpu_socket="SP3", cpu_sockets=2, gpu_form_factor="pcie",
                gpu_slots=8, passive_gpu_ready=True, cooling="air", memory_type="DDR4")
    cat = make_catalog(bare)
    plan = plan_of(gpu={"model": "h100-pcie-80gb", "count": 8},
                   server={"chassis": "bare-4u", "cpu": "epyc-7543", "cpu_count": 2,
                           "memory": {"part": "ddr4-64g-rdimm", "count": 64},
                           "storage": [{"role": "data", "part": "nvme-u2-4tb", "count": 30}],
                           "psu": {"part": "sm-2000-ti", "count": 12}})
    from procurement.rules import evaluate

    found = {f.rule for f in evaluate(plan, cat, POLICY, "en")}
    assert not found & {"POWER-PSU-BAYS", "COOLING-GPU-TDP", "PCIE-SLOT-WIDTH", "PCIE-DRIVE-BAYS",
                        "BALANCE-DIMM-SLOTS"}
    assert not any(r.endswith("-INTERNAL") for r in found)


def test_cpu_counted_at_its_maximum_turbo_power(catalog) -> None:  # type: ignore[no-untyped-def]
    # real catalog: i9-13900K TDP 125 W, maximum turbo power 253 W (docs/sources.md §B8);
    # Ryzen 9 7950X 170 W / PPT 230 W
    assert (catalog.get("cpu", "core-i9-13900k").tdp_w, catalog.get("cpu", "core-i9-13900k").max_power_w) == (125, 253)
    plan = plan_of(server={"cpu": "core-i9-13900k", "cpu_count": 1})
    cpu = next(i for i in power_budget(plan, catalog, POLICY).items if i.key == "cpu")
    assert cpu.unit_w == 253 and cpu.total_w == 253
    amd = plan_of(server={"cpu": "ryzen-9-7950x", "cpu_count": 1})
    assert next(i for i in power_budget(amd, catalog, POLICY).items if i.key == "cpu").unit_w == 230
    # no max_power_w sourced (EPYC 9654): the TDP is counted
    epyc = catalog.get("cpu", "epyc-9654")
    two = plan_of(server={"cpu": "epyc-9654", "cpu_count": 2})
    assert epyc.max_power_w is None
    assert next(i for i in power_budget(two, catalog, POLICY).items if i.key == "cpu").total_w == 2 * epyc.tdp_w


def test_capacity_fix_respects_the_psu_bays() -> None:
    # N+N with 2 × 1600 W: 1600 W usable < 2213 W; ceil(2213 × 1.2 / 1600) = 2, doubled for N+N = 4 units,
    # but the tower has 2 PSU bays: the fix says so instead of "use at least 4"
    plan = workstation_4090(psu={"part": "atx-1600", "count": 2, "redundancy": "n+n"})
    f = one(run(plan), "POWER-PSU-CAPACITY")
    assert f.fix.startswith("4 of these PSUs would be needed") and "has 2 PSU bays" in f.fix
    assert "at least 4" not in f.fix
    # without redundancy 2 units fit the 2 bays: the ordinary fix
    assert "at least 2 of these PSUs" in one(run(workstation_4090()), "POWER-PSU-CAPACITY").fix


# ---------------------------------------------------------------- facility-grade power (issue: 10.2 kW, not 6.5)

def test_transients_only_for_pcie_cards_on_atx_psus() -> None:
    # the same over-tolerance on an SXM/HGX build with server PSUs says nothing: CEM 5.0 excursions and the
    # ATX 3.0 tolerance cover add-in cards and desktop PSUs, not SXM modules or server modules
    strict = POLICY.model_copy(update={"psu_peak_tolerance_pct": 100})
    assert "POWER-TRANSIENT" in ids(run(workstation_4090(psu={"part": "atx-1600", "count": 2}), strict))
    hgx = hgx_node(server={"psu": {"part": "sm-3000-ti", "count": 6}})
    b = power_budget(hgx, CAT, POLICY)
    assert b.peak_w > b.usable_w  # the old rule fired on this stock HGX build
    assert "POWER-TRANSIENT" not in ids(run(hgx, strict))
    # PCIe cards on server PSUs: not covered either
    a100 = plan_of(gpu={"model": "a100-40gb-pcie", "count": 8},
                   server={"chassis": "rack-4u-8gpu", "cpu": "epyc-7543", "psu": {"part": "sm-2000-ti", "count": 2}})
    assert "POWER-TRANSIENT" not in ids(run(a100, strict))


def test_redundancy_finding_for_data_centre_plans_with_and_without_spares() -> None:
    # 6 × 3000 W with no redundancy in a data centre: a finding; the fix counts the spare unit in
    bare = hgx_node(server={"psu": {"part": "sm-3000-ti", "count": 6}})
    f = one(run(bare), "POWER-PSU-NO-REDUNDANCY")
    assert f.severity == Severity.WARNING and "PSU redundancy none where" in f.message
    assert "NONE" not in f.message and "N+1" in f.message
    need = psus_needed(power_budget(bare, CAT, POLICY).draw_w, 3000, POLICY, Redundancy.N_PLUS_1)
    assert f"use {need} of these PSUs" in f.fix
    # N+1 with the spare: no finding, and the capacity leaves the spare out
    spare = hgx_node(server={"psu": {"part": "sm-3000-ti", "count": 6, "redundancy": "n+1"}})
    assert "POWER-PSU-NO-REDUNDANCY" not in ids(run(spare))
    assert power_budget(spare, CAT, POLICY).usable_w == 5 * 3000
    # the policy may ask for N+N (A/B feeds): N+1 is then a finding, N+N is not
    nn = POLICY.model_copy(update={"psu_redundancy_required": "n+n"})
    assert "POWER-PSU-NO-REDUNDANCY" in ids(run(spare, nn))
    both = hgx_node(server={"psu": {"part": "sm-3000-ti", "count": 6, "redundancy": "n+n"}})
    assert "POWER-PSU-NO-REDUNDANCY" not in ids(run(both, nn))
    assert power_budget(both, CAT, POLICY).usable_w == 3 * 3000
    # an office/lab plan is not held to the data-centre policy
    office = hgx_node(requirements={"deployment": "office"}, server={"psu": {"part": "sm-3000-ti", "count": 6}})
    assert "POWER-PSU-NO-REDUNDANCY" not in ids(run(office))


def test_cord_current_after_failover() -> None:
    # 3 kW-class server PSUs on 100-127 V: each cord carries far more than a 20 A circuit's 16 A
    low = hgx_node(server={"input_voltage": "100-127", "psu": {"part": "sm-3000-ti", "count": 6,
                                                                "redundancy": "n+1"}})
    b = power_budget(low, CAT, POLICY)
    assert b.cords_after_failover == 5 and b.system is not None and b.system.volts == 100
    f = one(run(low), "POWER-CORD-AMPS")
    assert f.severity == Severity.ERROR and "16 A" in f.message and f"{b.amps_per_cord:.1f} A" in f.message
    # the same server on China's 220 V: within the 16 A of a C19 cord
    cn = hgx_node(server={"input_voltage": "220", "psu": {"part": "sm-3000-ti", "count": 6, "redundancy": "n+1"}})
    assert "POWER-CORD-AMPS" not in ids(run(cn))
    assert power_budget(cn, CAT, POLICY).amps_per_cord == pytest.approx(
        power_budget(cn, CAT, POLICY).ac_w / (220 * 0.95) / 5)


def test_rack_units_are_checked() -> None:
    # six 8U servers do not fit a 42U rack (five do)
    f = one(run(hgx_node(server={"servers_per_rack": 6})), "POWER-RACK-UNITS")
    assert "48U" in f.message and "42" in f.message and "at most 5" in f.fix
    assert "POWER-RACK-UNITS" not in ids(run(hgx_node(server={"servers_per_rack": 5})))


def test_an_sxm_module_without_a_tdp_counts_at_its_platform_rating(catalog) -> None:  # type: ignore[no-untyped-def]
    # real catalog: the H800 SXM has no published TDP; on an HGX H100-class board it counts at 700 W each
    plan = plan_of(gpu={"model": "h800-sxm5-80gb", "count": 8},
                   server={"chassis": "supermicro-sys-821ge-tnhr", "cpu": "xeon-platinum-8480plus", "cpu_count": 2})
    b = power_budget(plan, catalog, POLICY)
    gpu = next(i for i in b.items if i.key == "gpu")
    assert gpu.unit_w == 700 and gpu.estimated and b.gpu_w == 8 * 700
    found = evaluate_family(power, plan, catalog, POLICY, "en")
    assert "NVIDIA H800 SXM5 80GB 700 W" in one(found, "POWER-ESTIMATED-WATTS").message
    assert "POWER-UNKNOWN-WATTS" not in ids(found)


def test_an_assumed_psu_efficiency_is_said(catalog) -> None:  # type: ignore[no-untyped-def]
    # the Supermicro 3000 W unit has no 80 PLUS class in the catalog: the wall power is an estimate, said so
    node = plan_of(gpu={"model": "h100-sxm5-80gb", "count": 8},
                   server={"chassis": "supermicro-sys-821ge-tnhr", "cpu": "xeon-platinum-8480plus", "cpu_count": 2})
    f = one(evaluate_family(power, node, catalog, POLICY, "en"), "POWER-EFFICIENCY-ASSUMED")
    b = power_budget(node, catalog, POLICY)
    assert f.severity == Severity.INFO and f"{b.ac_w:,.0f} W" in f.message
    # a known class (Titanium), or the vendor's own system maximum (DGX H100), needs no such note
    ti = plan_of(gpu={"model": "a100-pcie-40gb", "count": 4},
                 server={"chassis": "supermicro-as-4124gs-tnr", "cpu": "epyc-7543", "cpu_count": 2})
    assert "POWER-EFFICIENCY-ASSUMED" not in ids(evaluate_family(power, ti, catalog, POLICY, "en"))
    dgx = plan_of(gpu={"model": "h100-sxm5-80gb", "count": 8}, server={"chassis": "nvidia-dgx-h100"})
    assert "POWER-EFFICIENCY-ASSUMED" not in ids(evaluate_family(power, dgx, catalog, POLICY, "en"))

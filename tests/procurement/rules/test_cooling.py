"""Cooling rules on fixture parts: TDP per slot, passive and open-air cards, airflow, rack density, fans."""

from __future__ import annotations

import pytest

from procurement.findings import Severity
from procurement.policy import default_policy
from procurement.rules import cooling, evaluate_family
from procurement.rules.cooling import heat_budget
from procurement.rules.power import power_budget
from tests.procurement.rules.test_rules_parts import CAT, hgx_node, ids, one, plan_of, workstation_4090

POLICY = default_policy()


def run(plan, policy=POLICY):  # type: ignore[no-untyped-def]
    return evaluate_family(cooling, plan, CAT, policy, "en")


def l40s_server(count: int = 8, **req: object):  # type: ignore[no-untyped-def]
    return plan_of(
        requirements={"workload": "inference", **req},
        gpu={"model": "l40s", "count": count},
        server={
            "chassis": "rack-4u-8gpu",
            "cpu": "epyc-7543",
            "cpu_count": 2,
            "memory": {"part": "ddr4-64g-rdimm", "count": 16},
        },
    )


def test_gpu_hotter_than_the_slot() -> None:
    # RTX 5090 575 W > the tower's 450 W per GPU; RTX 4090 450 W is at the limit
    plan = plan_of(gpu={"model": "rtx-5090", "count": 1}, server={"chassis": "tower-ws"})
    f = one(run(plan), "COOLING-GPU-TDP")
    assert f.severity == Severity.ERROR and "575 W" in f.message and "450 W" in f.message
    assert "COOLING-GPU-TDP" not in ids(run(workstation_4090()))


def test_passive_card_needs_a_passive_ready_chassis() -> None:
    plan = plan_of(gpu={"model": "a100-40gb-pcie", "count": 1}, server={"chassis": "tower-ws"})
    assert one(run(plan), "COOLING-PASSIVE-GPU").severity == Severity.ERROR
    assert "COOLING-PASSIVE-GPU" not in ids(run(l40s_server()))


def test_open_air_cards() -> None:
    f = one(run(workstation_4090()), "COOLING-OPEN-AIR")
    assert f.severity == Severity.WARNING and "4 open-air" in f.message and "at most 2" in f.message
    two = workstation_4090().model_copy(
        update={"gpu": workstation_4090().gpu.model_copy(update={"count": 2})}
    )
    assert "COOLING-OPEN-AIR" not in ids(run(two))


def test_airflow_from_heat() -> None:
    plan = l40s_server()
    h = heat_budget(plan, CAT, POLICY)
    # all wall power ends up as heat: (8 × 350 + 2 × 225 + 16 × 5) × 1.15 fans = 3830 W DC, over the PSUs'
    # efficiency ≈ 4.5 kW at the wall → 3.16 × 4505 / 20 °F ≈ 712 CFM ≤ 1000 CFM
    b = power_budget(plan, CAT, POLICY)
    assert b.draw_w == pytest.approx((8 * 350 + 2 * 225 + 16 * 5) * 1.15)
    assert h.heat_w == pytest.approx(b.ac_w) and h.heat_w > b.draw_w
    assert h.cfm_from_heat == pytest.approx(3.16 * h.heat_w / 20)
    assert h.cfm_per_gpu_rule == 8 * 500
    assert "COOLING-AIRFLOW" not in ids(run(plan))
    # allow only a 10 °F rise: 3.16 × 4505 / 10 ≈ 1424 CFM > 1000 CFM
    f = one(run(plan, POLICY.model_copy(update={"airflow_delta_t_f": 10})), "COOLING-AIRFLOW")
    assert f"{3.16 * h.heat_w / 10:,.0f} CFM" in f.message and "1,000 CFM" in f.message


def test_airflow_per_gpu_basis() -> None:
    per_gpu = POLICY.model_copy(update={"airflow_basis": "per_gpu"})
    f = one(run(l40s_server(), per_gpu), "COOLING-AIRFLOW-PER-GPU")
    assert "4,000 CFM" in f.message  # 8 GPUs × 500 CFM
    assert "COOLING-AIRFLOW-PER-GPU" not in ids(run(l40s_server(count=2), per_gpu))  # 2 × 500 ≤ 1000


def test_rack_density_needs_liquid() -> None:
    # about 8.1 kW per HGX node at the wall: 5 per rack = 40.5 kW > 40 kW (the old 150 W-base DC figure,
    # 6874 W, read 34.4 kW and passed); 4 per rack = 32.4 kW
    h = heat_budget(hgx_node(server={"servers_per_rack": 5}), CAT, POLICY)
    assert h.rack_kw > 40 and h.rack_btu_h == pytest.approx(h.rack_kw * 1000 * 3.412)
    f = one(run(hgx_node(server={"servers_per_rack": 5})), "COOLING-LIQUID")
    assert f"{h.rack_kw:.1f} kW" in f.message and f"{h.rack_btu_h:,.0f} BTU/h" in f.message
    assert "COOLING-LIQUID" not in ids(run(hgx_node(server={"servers_per_rack": 4})))


def test_four_dgx_h100_cross_forty_kw_with_the_vendor_maximum(catalog) -> None:  # type: ignore[no-untyped-def]
    # NVIDIA's 10.2 kW per DGX H100: four in a rack are 40.8 kW — above the 40 kW liquid threshold that the
    # old parts + 150 W figure (~6.5 kW each, ~26 kW per rack) never reached
    plan = hgx_node(server={"chassis": "nvidia-dgx-h100", "servers_per_rack": 4, "psu": {"part": None, "count": 0},
                            "cpu": "xeon-platinum-8480c"}, gpu={"model": "h100-sxm5-80gb", "count": 8})
    h = heat_budget(plan, catalog, POLICY)
    assert h.rack_kw == pytest.approx(40.8)
    assert "COOLING-LIQUID" in ids(evaluate_family(cooling, plan, catalog, POLICY, "en"))


def test_fan_redundancy_in_a_datacenter() -> None:
    from catalog.models import Chassis
    from tests.procurement.rules.test_rules_parts import make_catalog

    # tower-ws says nothing about fan redundancy (None): an info asking to confirm, never a warning
    plan = plan_of(requirements={"deployment": "datacenter"}, server={"chassis": "tower-ws"})
    f = one(run(plan), "COOLING-FAN-REDUNDANCY-UNKNOWN")
    assert f.severity == Severity.INFO and "does not say" in f.message
    assert "COOLING-FAN-REDUNDANCY" not in ids(run(plan))
    # a chassis whose vendor says it has no redundant fans: a warning
    tower = CAT.get("chassis", "tower-ws")
    assert isinstance(tower, Chassis)
    cat = make_catalog(tower.model_copy(update={"id": "tower-no-spare-fan", "fan_redundancy": False}))
    plan = plan_of(requirements={"deployment": "datacenter"}, server={"chassis": "tower-no-spare-fan"})
    found = evaluate_family(cooling, plan, cat, POLICY, "en")
    assert one(found, "COOLING-FAN-REDUNDANCY").severity == Severity.WARNING
    assert "COOLING-FAN-REDUNDANCY-UNKNOWN" not in ids(found)
    fans = {"COOLING-FAN-REDUNDANCY", "COOLING-FAN-REDUNDANCY-UNKNOWN"}
    assert not fans & ids(run(workstation_4090()))  # office
    assert not fans & ids(run(hgx_node()))  # redundant fans

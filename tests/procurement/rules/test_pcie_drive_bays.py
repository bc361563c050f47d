"""Drives against the chassis' bays: form and interface (U.2, E1.S, SATA sizes), counts per kind, and an unknown
bay count said as a finding (issue 26: Auto-configure put a U.2 SSD on a Z790 desktop board, silently)."""

from __future__ import annotations

from typing import Any

import pytest

from catalog.loader import Catalog
from catalog.models import DRIVE_FITS_BAY, Chassis, Storage
from procurement.compatibility import offer
from procurement.findings import Severity
from procurement.plan import Plan
from procurement.policy import default_policy
from procurement.rules import pcie
from procurement.sizing.derive import pick_storage

Z790 = "tower-z790-workstation"  # ASUS ROG Maximus Z790 Formula: 5 M.2, 4 SATA, no U.2 port
U2 = "samsung-pm9a3-3.84tb-u2"
HDD = "seagate-exos-x20-20tb"  # 3.5-inch SATA


def plan(chassis: str, *storage: tuple[str, int]) -> Plan:
    items: list[dict[str, Any]] = [{"role": "data", "part": p, "count": n} for p, n in storage]
    return Plan.model_validate({"server": {"chassis": chassis, "storage": items}})


def rules(p: Plan, catalog: Catalog) -> dict[str, Any]:
    policy = default_policy()
    out = {}
    for check in (pcie.drive_bays, pcie.drive_bays_unknown, pcie.drive_form):
        out.update({f.rule: f for f in check(p, catalog, policy)})
    return out


def test_each_catalog_drive_has_a_bay_kind(catalog: Catalog) -> None:
    bays = {s.id: s.bay for s in catalog.all(Storage)}
    assert bays[U2] == "u2" and bays[HDD] == "sata_3.5"
    assert bays["samsung-pm9a3-3.84tb-e1s"] == "e1s" and bays["samsung-pm9a3-1.92tb-m2"] == "m2"
    assert all(b == "m2" or b in DRIVE_FITS_BAY for b in bays.values()), bays


def test_a_u2_drive_does_not_fit_a_desktop_board_and_is_not_offered(catalog: Catalog) -> None:
    found = rules(plan(Z790, (U2, 1)), catalog)
    form = found["PCIE-DRIVE-FORM"]
    assert form.severity == Severity.ERROR
    assert form.message_text("en").startswith("Workstation tower")
    assert "takes 4 × SATA/SAS: 1 × Samsung PM9A3 3.84TB" in form.message_text("en")
    assert "needs a 2.5-inch NVMe (U.2/U.3) bay" in form.message_text("en")
    assert "需要 2.5 英寸 NVMe（U.2/U.3） 盘位" in form.message_text("zh")
    # the case's bays are not sourced: said, not assumed fine
    assert found["PCIE-DRIVE-BAYS-UNKNOWN"].severity == Severity.WARNING
    assert "drive bays (for 1 drive)" in found["PCIE-DRIVE-BAYS-UNKNOWN"].message_text("en")
    # step 3's list: the U.2 drive behind "show incompatible", with the reason; M.2 and SATA offered
    offered = {f.part.id: f.reason("en") for f in offer(Plan.model_validate({"server": {"chassis": Z790}}),
                                                         catalog, "storage")}
    assert offered[U2] == "needs a 2.5-inch NVMe (U.2/U.3) bay; the chassis takes 4 × SATA/SAS"
    assert offered[HDD] == "" and offered["samsung-pm9a3-1.92tb-m2"] == ""


def test_auto_configure_gives_a_desktop_board_m2_drives_only(catalog: Catalog) -> None:
    tower = catalog.typed(Chassis, Z790)
    assert tower is not None
    picked = pick_storage(tower, dataset_gb=6_000, data_workload=True, catalog=catalog)
    parts = [catalog.typed(Storage, p["part"]) for p in picked]
    assert {p.bay for p in parts if p} == {"m2"}, picked
    assert {p["role"] for p in picked} == {"system", "data"}
    derived = plan(Z790, *((p["part"], p["count"]) for p in picked))
    assert not {"PCIE-DRIVE-FORM", "PCIE-DRIVE-BAYS"} & set(rules(derived, catalog))


def test_the_dgx_b300_takes_e1s_data_drives_not_u2(catalog: Catalog) -> None:
    wrong = rules(plan("nvidia-dgx-b300", (U2, 8)), catalog)
    assert "takes 8 × E1.S NVMe" in wrong["PCIE-DRIVE-FORM"].message_text("en")
    right = rules(plan("nvidia-dgx-b300", ("samsung-pm9a3-3.84tb-e1s", 8)), catalog)
    assert right == {}


@pytest.mark.parametrize(("n", "expected"), [(16, set()), (17, {"PCIE-DRIVE-FORM"})])
def test_u2_bays_counted_by_kind(catalog: Catalog, n: int, expected: set[str]) -> None:
    # SYS-821GE-TNHR: 16 U.2 NVMe and 3 SATA bays (19 in all): 17 U.2 drives are one too many even though 19 bays
    found = rules(plan("supermicro-sys-821ge-tnhr", (U2, n)), catalog)
    assert set(found) == expected
    if expected:
        assert "are more than its 16 2.5-inch NVMe (U.2/U.3) bays" in found["PCIE-DRIVE-FORM"].message_text("en")


def test_sata_drives_use_the_sata_bays_and_an_unknown_m2_count_is_said(catalog: Catalog) -> None:
    assert rules(plan("supermicro-sys-821ge-tnhr", (HDD, 3)), catalog) == {}
    assert "PCIE-DRIVE-FORM" in rules(plan("supermicro-sys-821ge-tnhr", (HDD, 4)), catalog)
    # the AS-4124GS-TNR's bays and M.2 slots are not in the catalog: U.2 drives there are unknown, not passed and
    # not refused
    unknown = "supermicro-as-4124gs-tnr"
    found = rules(plan(unknown, (U2, 8)), catalog)
    assert set(found) == {"PCIE-DRIVE-BAYS-UNKNOWN"}
    no_m2 = catalog.typed(Chassis, unknown)
    assert no_m2 is not None and no_m2.m2_slots is None and no_m2.drive_bays is None
    both = rules(plan(unknown, ("samsung-pm9a3-1.92tb-m2", 2), (U2, 8)), catalog)
    message = both["PCIE-DRIVE-BAYS-UNKNOWN"].message_text("en")
    assert "M.2 slots (for 2 M.2 drives) and drive bays (for 8 drives)" in message


def test_dgx_h100_as_shipped_and_one_drive_too_many(catalog: Catalog) -> None:
    # NVIDIA DGX BasePOD reference architecture: two M.2 NVMe OS drives and eight U.2 NVMe data drives
    assert rules(plan("nvidia-dgx-h100", ("samsung-pm9a3-1.92tb-m2", 2), (U2, 8)), catalog) == {}
    ninth = rules(plan("nvidia-dgx-h100", ("samsung-pm9a3-1.92tb-m2", 2), (U2, 9)), catalog)
    assert set(ninth) == {"PCIE-DRIVE-BAYS", "PCIE-DRIVE-FORM"}
    assert "are more than its 8 2.5-inch NVMe (U.2/U.3) bays" in ninth["PCIE-DRIVE-FORM"].message_text("en")
    third_m2 = rules(plan("nvidia-dgx-h100", ("samsung-pm9a3-1.92tb-m2", 3), (U2, 8)), catalog)
    assert "PCIE-DRIVE-BAYS" in third_m2
    assert "3 M.2 drives for 2 M.2 slots" in third_m2["PCIE-DRIVE-BAYS"].message_text("en")


def test_a_systems_own_psu_module_fits_that_system_only(catalog: Catalog) -> None:
    """The journey's Auto-configure put the Dell XE9680's PSU module in a Supermicro SYS-221GE-NR."""
    from procurement.rules.power import psu_form

    policy = default_policy()
    dell_in_sm = Plan.model_validate({"server": {"chassis": "supermicro-sys-221ge-nr",
                                                 "psu": {"part": "dell-xe9680-3200w", "count": 2}}})
    (f,) = psu_form(dell_in_sm, catalog, policy)
    assert f.rule == "POWER-PSU-FORM" and f.severity == Severity.ERROR
    assert "is the power supply module of Dell PowerEdge XE9680" in f.message_text("en")
    assert "专用的电源模块" in f.message_text("zh")
    home = Plan.model_validate({"server": {"chassis": "dell-poweredge-xe9680",
                                           "psu": {"part": "dell-xe9680-3200w", "count": 6}}})
    assert psu_form(home, catalog, policy) == []
    offered = {x.part.id: x.reason("en") for x in offer(Plan.model_validate(
        {"server": {"chassis": "supermicro-sys-221ge-nr"}}), catalog, "psu")}
    assert offered["dell-xe9680-3200w"].startswith("the power supply of Dell PowerEdge XE9680")
    assert offered["nvidia-dgx-h100-3300w"].startswith("the power supply of NVIDIA DGX H100")
    assert offered["supermicro-3000w"] == ""

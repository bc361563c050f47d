"""Catalog facts the facility issue found missing: each is filled from a source, or stays null with a note."""

from __future__ import annotations

from catalog.loader import Catalog
from catalog.models import Chassis, Cpu, DriverBranch, Gpu, Nic, Psu


def test_gaps_filled_from_sources(catalog: Catalog) -> None:
    a30 = catalog.typed(Gpu, "a30")
    assert a30 is not None and a30.fp64_tflops == 5.2 and "derived" in a30.notes
    bw = {g: catalog.typed(Gpu, g).memory_bandwidth_gbs  # type: ignore[union-attr]
          for g in ("p100-pcie-16gb", "p100-pcie-12gb", "p100-sxm2-16gb")}
    assert bw == {"p100-pcie-16gb": 732, "p100-pcie-12gb": 549, "p100-sxm2-16gb": 720}
    xeon = catalog.typed(Cpu, "xeon-platinum-8480plus")
    assert xeon is not None and xeon.boost_ghz == 3.8 and not xeon.conflicting
    ten_gbe = [n for n in catalog.all(Nic) if n.speed_gbps == 10]
    assert len(ten_gbe) >= 2 and all(n.power_w for n in ten_gbe)
    atx = [p for p in catalog.all(Psu) if p.form == "atx" and p.rated_w_high_line == 1600]
    assert atx and atx[0].efficiency == "80 PLUS Titanium"
    r525 = catalog.typed(DriverBranch, "r525")
    assert r525 is not None and "525.60.13" in r525.notes and "525.85.12" in r525.notes


def test_unknowns_stay_null_with_a_note(catalog: Catalog) -> None:
    h800 = catalog.typed(Gpu, "h800-sxm5-80gb")
    assert h800 is not None and h800.tdp_w is None and "TDP unknown" in h800.notes
    c8480 = catalog.typed(Cpu, "xeon-platinum-8480c")
    assert c8480 is not None and c8480.tdp_w is None and "TDP not retrieved" in c8480.notes
    for ch in catalog.all(Chassis):
        if ch.form == "rack" and ch.airflow_cfm is None:
            assert "irflow" in ch.notes, ch.id  # says airflow was not retrieved
        if ch.max_system_power_w is not None:
            assert "max" in ch.source.lower(), ch.id


def test_vendor_system_maxima(catalog: Catalog) -> None:
    assert catalog.typed(Chassis, "nvidia-dgx-h100").max_system_power_w == 10200  # type: ignore[union-attr]
    b200 = catalog.typed(Chassis, "nvidia-dgx-b200")
    assert b200 is not None and b200.max_system_power_w == 14300 and b200.rack_units == 10
    # Introduction to NVIDIA DGX B300 Systems, Power Specifications: '15 kW system max.', twelve supplies of
    # '3.3 kW @ 200-240 V, 16 A' in N+N; '10 RU' (its earlier reading, 14.5 kW and 3.2 kW, is the power consumption
    # figure and an older rating)
    b300 = catalog.typed(Chassis, "nvidia-dgx-b300")
    assert b300 is not None and b300.max_system_power_w == 15000 and b300.rack_units == 10
    assert b300.gpus_supported == ["b300"] and b300.baseboard == "hgx-b300-8" and b300.cpu_socket == "LGA4710"
    assert b300.psu_included == "nvidia-dgx-b300-3200w" and b300.psu_included_count == b300.psu_bays == 12
    psu = catalog.typed(Psu, "nvidia-dgx-b300-3200w")
    assert psu is not None and psu.rated_w_high_line == 3300 and psu.low_line == "unsupported"
    assert psu.efficiency is None  # no 80 PLUS class published (docs/sources.md §D4)


def test_dgx_hopper_drive_bays(catalog: Catalog) -> None:
    # NVIDIA DGX BasePOD reference architecture, core components: the DGX H200 and H100 have 'Two 1.92 TB M.2 NVMe
    # drives for DGX OS, eight 3.84 TB U.2 NVMe drives for storage/cache'
    for chassis_id in ("nvidia-dgx-h100", "nvidia-dgx-h200"):
        chassis = catalog.typed(Chassis, chassis_id)
        assert chassis is not None and chassis.drive_bays == 8, chassis_id
        assert chassis.drive_bay_kinds == {"u2": 8} and chassis.m2_slots == 2, chassis_id


def test_dgx_a100_from_nvidias_user_guide(catalog: Catalog) -> None:
    # NVIDIA DGX A100 System User Guide DU-09821-001_v01, 1.1.1-1.1.4 (docs/sources.md D11): '6U Rackmount',
    # DIMMs '16 (base config) 32 (optional)', two M.2 OS and up to eight U.2 data drives, '6.5 kW max.',
    # '3000W @200-240 V, 16 A' each, 3+3; no 80 PLUS class; 840 CFM only 'at 80% fan PWM'
    a100 = catalog.typed(Chassis, "nvidia-dgx-a100")
    assert a100 is not None and a100.rack_units == 6 and a100.max_system_power_w == 6500
    assert (a100.dimm_slots, a100.drive_bays, a100.m2_slots) == (32, 8, 2)
    assert a100.psu_included == "nvidia-dgx-a100-3000w" and a100.psu_included_count == a100.psu_bays == 6
    assert a100.airflow_cfm is None and "80% fan PWM" in a100.notes
    psu = catalog.typed(Psu, "nvidia-dgx-a100-3000w")
    assert psu is not None and psu.rated_w_high_line == 3000 and psu.low_line == "unsupported"
    assert psu.efficiency is None and "DU-09821-001" in psu.source
    h100 = catalog.typed(Psu, "nvidia-dgx-h100-3300w")
    assert h100 is not None and h100.efficiency is None and "250VAC, 20A" in h100.notes

"""The facility model against published system maxima, and its electrical arithmetic.

Each reference system is rebuilt from its parts as a buyer would list them in a configurable HGX/SXM rack
chassis (not from the vendor's stored maximum): GPU module watts, CPU TDPs, and the app's own planning
figures for DIMMs, drives and NICs (the policy fallbacks, since the catalog has no vendor watts for them).
The model must land within 10 % of NVIDIA's published maximum system (AC input) power; for the DGX B300,
whose 15 kW maximum input sits beside the 14.5-15 kW that NVIDIA's best-practices guide calls the estimated system
power, within 10 % of that guide's estimated peak (19 kW) - the test beside it measures the gap to the 15 kW.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from catalog.baseboards import BASEBOARDS
from procurement.facility import (
    BTU_H_PER_W,
    PlatformOverhead,
    circuit_capacity_w,
    efficiency_class,
    platform_overhead,
    psu_efficiency,
    psu_rating_for_band,
    rack_plan,
    system_power,
)
from procurement.policy import default_policy

POLICY = default_policy()


@dataclass(frozen=True)
class Reference:
    name: str
    gpus: int
    gpu_w: float
    cpus: int
    cpu_w: float
    dimms: int
    drives: int
    nics: int
    psus: int
    psu_w: float
    published_max_w: float
    source: str
    baseboard: str = "hgx-h100-8"


REFERENCES = (
    Reference(
        "DGX-1 (V100)", 8, 300, 2, 135, 16, 4, 5, 4, 1600, 3500,
        "NVIDIA DGX-1 with Tesla V100: 3,500 W maximum system power (docs/sources.md D9: the figure the issue "
        "quotes; no public page for it was retrieved, confidence L); 8x V100 SXM2 (300 W, catalog "
        "v100-sxm2-32gb), 2x Xeon E5-2698 v4 (135 W, Intel ARK), 512 GB in 16 DIMMs, 4x 1.92 TB SSD, 4x EDR "
        "InfiniBand + 10 GbE (NVIDIA DGX-1 system architecture white paper WP-08437-002: 'four 100 Gb "
        "InfiniBand network interface cards'); four 1600 W PSUs",
        baseboard="hgx-1-sxm2",
    ),
    Reference(
        "DGX-2", 16, 350, 2, 205, 24, 10, 10, 6, 3000, 10000,
        "DGX-2 10 kW: https://direct.datacenterdynamics.com/en/news/two-petaflops-in-a-box-nvidia-dgx-2-packs-16-"
        "gpus-on-two-boards/ ('10U and consumes 10kW'; 16 V100, 12 NVSwitch, 2 Xeon Platinum, 1.5 TB, 30 TB NVMe); "
        "https://www.tomshardware.com/news/nvidia-worlds-largest-gpu-dgx-2h,38089.html (10 kW, DGX-2H 12 kW); "
        "8 EDR NICs: https://pcper.com/2018/03/nvidia-announces-dgx-2-with-16-gv100s-8-100gb-nics/ . "
        "Xeon Platinum 8168 205 W (Intel ARK). V100 SXM3 module at 350 W: the figure commonly given for the "
        "DGX-2's V100 SXM3 (not retrieved from an NVIDIA document here; confidence L). 1.5 TB = 24x 64 GB.",
    ),
    Reference(
        "DGX A100", 8, 400, 2, 225, 16, 6, 9, 6, 3000, 6500,
        "DGX A100: maximum 6,500 W, six 3 kW PSUs (https://pcnews.ru/news/vycislitelnaa_sistema_nvidia_dgx_a100_"
        "ampere_osnasaetsa_sestu_blokami_pitania_po_3_kvt-985106.html, from NVIDIA's DGX A100 documentation); "
        "8x A100 SXM4 400 W (catalog), 2x EPYC 7742 225 W (AMD), 1 TB in 16 DIMMs, 2 OS + 4 data NVMe, "
        "9 ConnectX-6 (8 cluster + 1 storage)",
    ),
    Reference(
        "DGX H100", 8, 700, 2, 350, 32, 10, 10, 6, 3300, 10200,
        "NVIDIA DGX H100/H200 User Guide, power specifications: 10.2 kW max, 6x 3300 W "
        "(https://docs.nvidia.com/dgx/dgxh100-user-guide/introduction-to-dgxh100.html); 8x H100 SXM5 700 W "
        "(catalog); 2x Xeon 8480C counted at the catalog's Xeon 8480+ TDP 350 W (same 56-core part; the "
        "8480C's own TDP was not retrieved); 2 TB in 32 DIMMs; 2 OS + 8 data NVMe; 8 ConnectX-7 + 2 dual-port "
        "storage NICs",
    ),
    Reference(
        "DGX B200", 8, 1000, 2, 350, 32, 10, 10, 6, 3300, 14300,
        "NVIDIA DGX B200 User Guide, hardware overview and power specifications: 14.3 kW max, 6x 3.3 kW (5+1), "
        "8x B200, 2x Xeon Platinum 8570 (350 W, Intel ARK), 2 TB in 32 DIMMs, 2 M.2 + 8 U.2 NVMe, 8 ConnectX-7 "
        "+ 2 BlueField-3 (https://docs.nvidia.com/dgx/dgxb200-user-guide/introduction-to-dgxb200.html); "
        "B200 1000 W (catalog)",
    ),
    Reference(
        "DGX B300", 8, 1400, 2, 350, 32, 10, 10, 12, 3300, 19000,
        "NVIDIA Data Center Best Practices with DGX B300 v1.0 (https://docs.nvidia.com/dgx-pdf/data-center-best-"
        "practices-with-dgx-b300-v1.pdf): 'Estimated Peak System Power 19 kW' for the PSU version (the user guide's "
        "'15 kW system max.' is above its 14.5 kW 'Estimated System Power', see the test below); NVIDIA DGX B300 "
        "User Guide: 8x B300, 8x ConnectX-8 + 2 BlueField-3, 8 E1.S + 2 M.2 NVMe, 12x 3.3 kW (N+N) (catalog "
        "nvidia-dgx-b300 source); "
        "2x Xeon 6776P 350 W (catalog); B300 1,400 W module maximum (catalog); 32 DIMMs is the buyer's 2 TB "
        "(the DGX B300's DIMM count was not retrieved)",
        baseboard="hgx-b300-8",
    ),
)


def _model_ac_w(ref: Reference) -> float:
    gpu = ref.gpus * ref.gpu_w
    parts = (gpu + ref.cpus * ref.cpu_w + ref.dimms * POLICY.dimm_w_fallback
             + ref.drives * POLICY.drive_w_fallback + ref.nics * POLICY.nic_w_fallback)
    nvswitch = BASEBOARDS[ref.baseboard].nvswitch
    overhead = platform_overhead("rack", "sxm", "air", fan_pct=POLICY.fan_power_pct,
                                 baseboard_pct=POLICY.sxm_baseboard_overhead_pct if nvswitch else 0.0,
                                 base_system_w=POLICY.base_system_w)
    # NVIDIA does not publish these PSUs' 80 PLUS class: counted as Titanium, the class of the HGX-class
    # server PSUs in the catalog (Supermicro 2000 W, ASRock Rack 2.7 kW); see docs/rules.md.
    p = system_power(parts, gpu, overhead, psu_unit_w=ref.psu_w, psu_sharing=ref.psus, psu_class="titanium",
                     psu_form="server", band="200-240")
    return p.model_ac_w


@pytest.mark.parametrize("ref", REFERENCES, ids=lambda r: r.name)
def test_model_within_ten_percent_of_published_maximum(ref: Reference) -> None:
    ac = _model_ac_w(ref)
    assert abs(ac / ref.published_max_w - 1) <= 0.10, (ref.name, round(ac), ref.published_max_w, ref.source)


def test_dgx_b300_parts_meet_nvidias_peak_not_the_user_guides_maximum() -> None:
    # The DGX B300 User Guide's '15 kW system max.' is about what NVIDIA's best-practices guide calls the
    # 'Estimated System Power' (14.5 / 15 kW); its 'Estimated Peak System Power' is 19 kW. Rebuilt from parts at
    # the B300 module's 1,400 W the model lands on the peak and a quarter above 15 kW: a DGX B300 plan uses the
    # published 15 kW (the vendor figure wins), and the catalog notes say what that leaves out.
    b300 = next(r for r in REFERENCES if r.name == "DGX B300")
    ac = _model_ac_w(b300)
    assert ac == pytest.approx(18_855, abs=5)
    assert abs(ac / 19_000 - 1) <= 0.01
    assert ac / 15_000 - 1 == pytest.approx(0.256, abs=0.01)


def test_the_old_fixed_base_figure_fails_the_same_references() -> None:
    # The defect this model replaces: parts + a fixed 150 W "base system", no PSU losses.
    h100 = next(r for r in REFERENCES if r.name == "DGX H100")
    old = (h100.gpus * h100.gpu_w + h100.cpus * h100.cpu_w + h100.dimms * POLICY.dimm_w_fallback
           + h100.drives * POLICY.drive_w_fallback + h100.nics * POLICY.nic_w_fallback + POLICY.base_system_w)
    assert old / h100.published_max_w < 0.75
    assert abs(_model_ac_w(h100) / h100.published_max_w - 1) <= 0.10


def test_efficiency_class_and_curve() -> None:
    assert efficiency_class("80 PLUS Titanium") == "titanium"
    assert efficiency_class("80 PLUS") == "basic"
    assert efficiency_class(None) is None
    # 80 PLUS Titanium, 230 V internal redundant: 94 % at 20 %, 96 % at 50 %, 91 % at 100 % load
    assert psu_efficiency("titanium", "server", "230", 0.5) == (pytest.approx(0.96), False)
    assert psu_efficiency("titanium", "server", "230", 0.35)[0] == pytest.approx(0.95)
    # 115 V internal (100-127 V band): Titanium 94 % at 50 %
    assert psu_efficiency("titanium", "server", "100-127", 0.5)[0] == pytest.approx(0.94)
    # unknown class: the lowest 80 PLUS level, and it says it assumed so
    eff, assumed = psu_efficiency(None, "server", "230", 0.5)
    assert eff == pytest.approx(0.85) and assumed


def test_wall_power_amps_va_btu() -> None:
    overhead = PlatformOverhead(fan_pct=0.0, baseboard_pct_of_gpu=0.0, fixed_w=0.0)
    p = system_power(940.0, 0.0, overhead, psu_unit_w=1000.0, psu_sharing=2, psu_class="titanium",
                     psu_form="server", band="100-127")
    # 940 W on 2 x 1000 W = 47 % load; Titanium 115 V: 92 % at 20 %, 94 % at 50 % -> 93.8 %
    assert p.efficiency == pytest.approx(0.938, abs=1e-3)
    assert p.ac_w == pytest.approx(940 / p.efficiency)
    assert p.volts == 100.0 and p.power_factor == 0.95
    assert p.amps == pytest.approx(p.ac_w / (100 * 0.95))
    assert p.va == pytest.approx(p.ac_w / 0.95)
    assert p.btu_h == pytest.approx(p.ac_w * BTU_H_PER_W)
    assert p.amps_per_cord(2) == pytest.approx(p.amps / 2)


def test_vendor_maximum_wins_where_published() -> None:
    overhead = PlatformOverhead(0.0, 0.0, 0.0)
    p = system_power(5000.0, 4000.0, overhead, psu_unit_w=3300.0, psu_sharing=6, psu_class=None,
                     psu_form="server", band="200-240", vendor_max_w=10200.0)
    assert p.from_vendor and p.ac_w == 10200.0 and p.model_ac_w < 10200.0


def test_rating_per_band() -> None:
    kw = dict(high_line_w=1800.0, low_line_w=1000.0, w_220_240=2000.0)
    assert psu_rating_for_band("100-127", **kw) == 1000.0
    assert psu_rating_for_band("200-208", **kw) == 1800.0
    assert psu_rating_for_band("200-240", **kw) == 1800.0
    for band in ("220", "230", "240"):
        assert psu_rating_for_band(band, **kw) == 2000.0  # type: ignore[arg-type]
    assert psu_rating_for_band("230", high_line_w=3000.0, low_line_w=None, w_220_240=None) == 3000.0
    assert psu_rating_for_band("100-127", high_line_w=3000.0, low_line_w=None, w_220_240=None) is None


def test_circuit_capacity_single_and_three_phase() -> None:
    # a 20 A, 120 V branch circuit carries 1920 W continuously (80 %)
    assert circuit_capacity_w(20, 120, 80) == pytest.approx(1920)
    assert circuit_capacity_w(32, 400, 80, phases=3) == pytest.approx(32 * 400 * 3**0.5 * 0.8)


def test_four_dgx_h100_class_nodes_cross_forty_kw_with_the_model() -> None:
    h100 = next(r for r in REFERENCES if r.name == "DGX H100")
    overhead = PlatformOverhead(POLICY.fan_power_pct, POLICY.sxm_baseboard_overhead_pct, 0.0)
    gpu = 8 * 700.0
    parts = gpu + 700 + 32 * POLICY.dimm_w_fallback + 10 * POLICY.drive_w_fallback + 10 * POLICY.nic_w_fallback
    p = system_power(parts, gpu, overhead, psu_unit_w=h100.psu_w, psu_sharing=6, psu_class="titanium",
                     psu_form="server", band="230")
    rack = rack_plan(p, rack_units=8, rack_units_usable=42, servers_per_rack=4, nodes=10, rack_limit_kw=30,
                     continuous_pct=80, pdu_phases=3)
    assert rack.rack_kw > 40  # the old fixed-150 W model read ~29 kW
    assert rack.fit_by_power == 2 and rack.fit_by_space == 5 and rack.racks_needed == 3
    assert rack.rack_btu_h == pytest.approx(rack.rack_kw * 1000 * BTU_H_PER_W)
    # three-phase 230/400 V: I = P / (sqrt3 x 400 x PF); the PDU rating covers it at 80 %
    assert rack.pdu_volts == pytest.approx(230 * 3**0.5)
    assert rack.pdu_rating_amps is not None and rack.pdu_rating_amps * 0.8 >= rack.pdu_amps


def test_six_8u_servers_do_not_fit_a_42u_rack() -> None:
    p = system_power(1000.0, 0.0, PlatformOverhead(0, 0, 0), psu_unit_w=None, psu_sharing=0, psu_class=None,
                     psu_form=None, band="230")
    rack = rack_plan(p, rack_units=8, rack_units_usable=42, servers_per_rack=6, nodes=6, rack_limit_kw=None,
                     continuous_pct=80, pdu_phases=1)
    assert rack.fit_by_space == 5 and rack.over_space

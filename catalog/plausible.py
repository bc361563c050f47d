"""Plausibility ranges for catalog numbers: a value outside its range is a warning (not an error) when a user
catalog loads, and `gpu-procure catalog check` prints it.

Errors are for numbers no part can have (catalog/models.py IMPOSSIBLE, at least 100 times past the shipped
extremes). Between those and the shipped catalog lies a band of numbers a real part could have but which more
likely carry a wrong unit or a typo (``memory_gib: 800`` meant as MiB/10? ``tdp_w: 7000`` for a GPU?). Each range
below is the span of the shipped catalog (catalog/data, every value with its source) widened by a factor of 4 on
each side and rounded outward to a round figure (RULE), so a new generation of parts (the B200 doubled the H100's
TDP and memory) still passes while a slipped digit or unit does not. Where a standard fixes the range, the
standard decides (PCIe links are x1 to x16 per device; a CPU's lanes are counted per socket). The spans and the
reasoning are in docs/catalog.md "Plausible values"; tests/catalog/test_plausible.py recomputes the shipped span
and checks each range against RULE, so a new shipped part outside a range fails that test instead of warning.
"""

from __future__ import annotations

import math
from typing import Any

FACTOR = 4.0
"""How far past the shipped catalog's extremes a value stays plausible (÷4 below the least, ×4 above the most)."""

PLAUSIBLE: dict[tuple[str, str], tuple[float, float]] = {
    # GPUs: shipped 8-288 GiB (RTX 2080 Super, B300/GB300), 70-1 400 W (T4, B300/GB300), 300-8 000 GB/s (L4,
    # B300), 65-2 500 FP16 tensor TFLOPS (T4, GB200), 8.1-125 FP32 TFLOPS (T4, RTX PRO 6000 Blackwell),
    # NVLink 0-1 800 GB/s (B200), 9 499-190 000 CNY (RTX 4080, H200)
    ("gpu", "memory_gib"): (2, 1_500),
    ("gpu", "tdp_w"): (15, 6_000),
    ("gpu", "memory_bandwidth_gbs"): (70, 35_000),
    ("gpu", "fp16_tensor_tflops"): (15, 10_000),
    ("gpu", "fp32_tflops"): (2, 500),
    ("gpu", "nvlink_gbs"): (0, 8_000),
    ("gpu", "pcie_lanes"): (1, 16),  # the standard: a PCIe link is x1 to x16 (shipped: all x16)
    ("gpu", "price_cny"): (2_000, 800_000),
    # CPUs: shipped 105-360 W TDP (Xeon Silver 4310T, EPYC 9654), 230-253 W maximum power (Ryzen 9 7950X,
    # Core i9-14900K), 20-128 PCIe lanes per socket (Core i9-13900K, EPYC 9654), 10-96 cores
    ("cpu", "tdp_w"): (25, 1_500),
    ("cpu", "max_power_w"): (50, 1_500),
    ("cpu", "pcie_lanes"): (5, 600),
    ("cpu", "cores"): (2, 400),
    # power supplies: shipped 750-3 300 W at high line (Intel AC450NX, DGX H100), 650-1 000 W at low line,
    # 2 000 W at 220-240 V
    ("psu", "rated_w_high_line"): (150, 15_000),
    ("psu", "rated_w_low_line"): (150, 4_000),
    ("psu", "rated_w_220_240"): (500, 8_000),
    # chassis: shipped 6 500-14 300 W system power (DGX A100, DGX B200), 350-1 000 W per GPU slot, 0-128 switch
    # lanes
    ("chassis", "max_system_power_w"): (1_500, 60_000),
    ("chassis", "max_gpu_tdp_w"): (80, 4_000),
    ("chassis", "pcie_switch_lanes"): (0, 600),
    # NICs: shipped x4-x16 (the standard decides: x1-x16), 8.6-13 W, 10-400 Gb/s
    ("nic", "pcie_lanes"): (1, 16),
    ("nic", "power_w"): (2, 60),
    ("nic", "speed_gbps"): (2, 2_000),
    # storage: shipped 0-4 lanes (0: SATA/SAS; the standard decides: up to an x16 add-in card), 6.2-8.6 W,
    # 500-20 000 GB
    ("storage", "pcie_lanes"): (0, 16),
    ("storage", "power_w"): (1, 35),
    ("storage", "capacity_gb"): (100, 80_000),
    # memory modules: shipped 32-64 GiB, 3 200-5 600 MT/s
    ("memory", "capacity_gib"): (8, 300),
    ("memory", "speed_mts"): (800, 25_000),
}
STANDARD = frozenset({("gpu", "pcie_lanes"), ("nic", "pcie_lanes"), ("storage", "pcie_lanes")})
"""Ranges a standard fixes rather than RULE."""


def rule(low: float, high: float) -> tuple[float, float]:
    """The range RULE gives for a shipped span: ÷FACTOR and ×FACTOR, rounded outward to 1-2 significant digits
    (zero stays zero: a part without lanes or NVLink is shipped)."""
    return (_round(low / FACTOR, down=True) if low > 0 else 0.0, _round(high * FACTOR, down=False))


def _round(x: float, *, down: bool) -> float:
    step = 10 ** math.floor(math.log10(x)) / (2 if x >= 10 else 1)
    # 5, 10, 15 … for tens; 50, 100, 150 … for hundreds: a round figure one or two digits long
    if x / step >= 10:
        step *= 2
    return (math.floor(x / step) if down else math.ceil(x / step)) * step


def implausible(kind: str, values: dict[str, Any]) -> list[tuple[str, str]]:
    """(field, why) for each number of a part of ``kind`` outside its plausible range."""
    out = []
    for field, value in values.items():
        limits = PLAUSIBLE.get((kind, field))
        if limits is None or value is None or isinstance(value, bool) or not isinstance(value, (int, float)):
            continue
        if field == "price_cny" and value == 0:  # free (software), not a slipped digit
            continue
        low, high = limits
        if not low <= value <= high:
            out.append((field, f"{value:g} is implausible for a {kind} (the shipped catalog's {kind}s, widened "
                               f"4 times, span {low:g} to {high:g}); check the unit and the digits"))
    return out

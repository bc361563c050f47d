"""Facility physics: DC load, wall (AC) power, amps, VA, BTU/h, rack space, rack power and PDU sizing.

Pure functions of numbers (no plan, no catalog): the power budget feeds them the parts' watts and the
PSU and chassis facts. Every constant here carries its source; thresholds a buyer may change live in
the policy (resources/policy/default.yaml). The model and its calibration are described in
docs/rules.md ("Facility model"); tests/procurement/test_facility.py checks it against five published
NVIDIA system maxima.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from dataclasses import dataclass
from typing import Literal

VoltageBand = Literal["100-127", "200-208", "220", "230", "240", "200-240"]
"""Mains input as the buyer states it. '200-240' is what old plans' 'high' meant (any voltage in that range)."""

VOLTAGE_BANDS: tuple[VoltageBand, ...] = ("100-127", "200-208", "220", "230", "240", "200-240")

BAND_LOW_VOLTS: dict[VoltageBand, float] = {
    "100-127": 100.0,
    "200-208": 200.0,
    "220": 220.0,
    "230": 230.0,
    "240": 240.0,
    "200-240": 200.0,
}
"""The voltage the currents are computed at: the lowest of the band (the highest current, the safe side)."""

Connection = Literal["ln", "ll"]
"""How a server's cord is wired on a three-phase supply: line-to-neutral ('ln') or line-to-line ('ll')."""

SUPPLY_CONNECTION: dict[VoltageBand, Connection] = {
    "100-127": "ln",
    "200-208": "ll",
    "220": "ln",
    "230": "ln",
    "240": "ln",
    "200-240": "ll",
}
"""Which supply system each band is on a three-phase PDU (docs/rules.md "Supply systems"):

* 100-127 V: 120 V from a 208Y/120 V system, line-to-neutral (V_LL = √3 × 120 = 208 V);
* 200-208 V: North-American 208Y/120 V or Japanese 200 V three-phase, where the server's 208 V (200 V) is
  already the voltage between two lines (ANSI C84.1 nominal 208Y/120 V; Japan's 200 V three-phase
  low-voltage supply): V_LL = the band's voltage, not √3 times it;
* 220, 230 and 240 V: 220/380 V (China, GB/T 156), 230/400 V (IEC 60038) and 240/415 V wye systems, the
  server between one line and neutral: V_LL = √3 × the band's voltage;
* 200-240 V (a plan that does not say which): counted line-to-line at 200 V, the case with the highest line
  current (the safe side).
On a single-phase PDU every band is simply its own voltage."""

BTU_H_PER_W = 3.412
"""1 W = 3.412 BTU/h (the same conversion as the airflow formula's source: insideHPC / Dell, J. Fragalla,
https://insidehpc.com/2011/04/calculating-cfms-for-hpc-power-and-cooling/ ; fanacdc)."""

EfficiencyTable = tuple[tuple[float, float], ...]
"""(fraction of rated load, efficiency) points, interpolated linearly, held flat outside the points."""

# 80 PLUS minimum efficiencies (Tom's Hardware, "80 PLUS PSU efficiency" table of the 80 PLUS programme,
# https://www.tomshardware.com/uk/reviews/80-plus-psu-efficiency,4848-2.html ; the Titanium 230 V redundant
# points also in docs/sources.md §D8). 115 V internal applies to 100-127 V input; server (redundant) modules use the
# 230 V internal redundant column, ATX units the 230 V EU internal non-redundant column at 200-240 V.
EIGHTY_PLUS: dict[tuple[str, str], EfficiencyTable] = {
    ("basic", "115"): ((0.2, 0.80), (0.5, 0.80), (1.0, 0.80)),
    ("bronze", "115"): ((0.2, 0.82), (0.5, 0.85), (1.0, 0.82)),
    ("silver", "115"): ((0.2, 0.85), (0.5, 0.88), (1.0, 0.85)),
    ("gold", "115"): ((0.2, 0.87), (0.5, 0.90), (1.0, 0.87)),
    ("platinum", "115"): ((0.2, 0.90), (0.5, 0.92), (1.0, 0.89)),
    ("titanium", "115"): ((0.1, 0.90), (0.2, 0.92), (0.5, 0.94), (1.0, 0.90)),
    ("basic", "230r"): ((0.2, 0.82), (0.5, 0.85), (1.0, 0.82)),
    ("bronze", "230r"): ((0.2, 0.81), (0.5, 0.85), (1.0, 0.81)),
    ("silver", "230r"): ((0.2, 0.85), (0.5, 0.89), (1.0, 0.85)),
    ("gold", "230r"): ((0.2, 0.88), (0.5, 0.92), (1.0, 0.88)),
    ("platinum", "230r"): ((0.2, 0.90), (0.5, 0.94), (1.0, 0.91)),
    ("titanium", "230r"): ((0.1, 0.90), (0.2, 0.94), (0.5, 0.96), (1.0, 0.91)),
    ("bronze", "230eu"): ((0.2, 0.85), (0.5, 0.88), (1.0, 0.85)),
    ("silver", "230eu"): ((0.2, 0.87), (0.5, 0.90), (1.0, 0.87)),
    ("gold", "230eu"): ((0.2, 0.90), (0.5, 0.92), (1.0, 0.89)),
    ("platinum", "230eu"): ((0.2, 0.92), (0.5, 0.94), (1.0, 0.90)),
    ("titanium", "230eu"): ((0.1, 0.90), (0.2, 0.94), (0.5, 0.96), (1.0, 0.94)),
}
UNKNOWN_CLASS = "basic"
"""A PSU whose 80 PLUS class is not in the catalog is counted at the lowest 80 PLUS level (the most wall power
for a given load: the safe side for circuits and cooling), and the budget says it assumed so."""

POWER_FACTOR = {"basic": 0.9, "bronze": 0.9, "silver": 0.9, "gold": 0.9, "platinum": 0.95, "titanium": 0.95}
"""80 PLUS power-factor requirement: >= 0.9 at full load, >= 0.95 for Platinum and Titanium
(https://www.maketecheasier.com/80-plus-power-supply-ratings/ ; Wikipedia '80 Plus'). VA = W / PF."""


def efficiency_class(label: str | None) -> str | None:
    """'80 PLUS Titanium' -> 'titanium'; None where the label names no 80 PLUS level."""
    if not label:
        return None
    low = label.lower()
    for name in ("titanium", "platinum", "gold", "silver", "bronze"):
        if name in low:
            return name
    return "basic" if "80 plus" in low else None


def _interp(x: float, table: EfficiencyTable) -> float:
    if x <= table[0][0]:
        return table[0][1]
    for (x0, y0), (x1, y1) in itertools.pairwise(table):
        if x <= x1:
            return y0 + (y1 - y0) * (x - x0) / (x1 - x0)
    return table[-1][1]


def psu_efficiency(cls: str | None, form: str | None, band: VoltageBand, load_fraction: float) -> tuple[float, bool]:
    """Efficiency of a PSU at ``load_fraction`` of its rating on ``band``; second value: True if the class was
    assumed (not in the catalog)."""
    assumed = cls is None
    level = cls or UNKNOWN_CLASS
    if band == "100-127":
        column = "115"
    else:
        column = "230eu" if form == "atx" else "230r"
    table = EIGHTY_PLUS.get((level, column)) or EIGHTY_PLUS[(level, "230r" if column == "230eu" else column)]
    return _interp(max(load_fraction, 0.0), table), assumed


@dataclass(frozen=True)
class PlatformOverhead:
    """What a chassis draws beyond the parts the buyer lists."""

    fan_pct: float
    """Fans as a share of the parts' DC load (air-cooled rack servers; policy fan_power_pct)."""
    baseboard_pct_of_gpu: float
    """NVSwitch/HGX baseboard share of the GPU modules' watts (SXM platforms; policy)."""
    fixed_w: float
    """A fixed figure (desktop/tower rest-of-system; policy base_system_w)."""


def platform_overhead(form: str | None, gpu_form_factor: str | None, cooling: str | None, *, fan_pct: float,
                      baseboard_pct: float, base_system_w: float) -> PlatformOverhead:
    """Which overhead terms apply: a tower gets the desktop rest-of-system figure; a rack server its fans
    (none counted when liquid-cooled: the cold plates replace them, the CDU is facility load); an SXM
    platform also its NVSwitch baseboard."""
    if form == "rack":
        fans = 0.0 if cooling == "liquid" else fan_pct
        board = baseboard_pct if gpu_form_factor == "sxm" else 0.0
        return PlatformOverhead(fans, board, 0.0)
    return PlatformOverhead(0.0, 0.0, base_system_w)


@dataclass(frozen=True)
class SystemPower:
    """One server's power at its maximum: DC load, what the PSUs draw from the wall, and the currents."""

    parts_w: float
    """Sum of the listed parts (GPU, CPU, DIMMs, drives, NICs) at their maximum."""
    fans_w: float
    baseboard_w: float
    fixed_w: float
    dc_w: float
    """What the PSUs deliver: parts plus platform overhead."""
    psu_load_fraction: float | None
    """DC load over the rating of the PSUs that share it (None: no PSU known)."""
    efficiency: float
    efficiency_assumed: bool
    model_ac_w: float
    """Wall power from the model: dc_w / efficiency."""
    vendor_max_w: float | None
    """The vendor's published maximum input power for this platform, where there is one."""
    volts: float
    power_factor: float
    band: VoltageBand = "200-240"
    psu_form: str | None = None

    def at_class(self, cls: str) -> SystemPower:
        """The same server counted with PSUs of 80 PLUS class ``cls`` (what an unknown class could at best be:
        a verdict that holds only under the assumed lowest class is not a known failure)."""
        eff, _ = psu_efficiency(cls, self.psu_form, self.band,
                                self.psu_load_fraction if self.psu_load_fraction is not None else 0.5)
        return dataclasses.replace(self, efficiency=eff, efficiency_assumed=False, model_ac_w=self.dc_w / eff,
                                   power_factor=POWER_FACTOR[cls])

    @property
    def ac_w(self) -> float:
        """Wall power the facility plans for: the vendor's maximum where published, else the model."""
        return self.vendor_max_w if self.vendor_max_w is not None else self.model_ac_w

    @property
    def from_vendor(self) -> bool:
        return self.vendor_max_w is not None

    @property
    def amps(self) -> float:
        """Input current of the whole server at the band's lowest voltage."""
        return self.ac_w / (self.volts * self.power_factor)

    @property
    def va(self) -> float:
        return self.ac_w / self.power_factor

    @property
    def btu_h(self) -> float:
        return self.ac_w * BTU_H_PER_W

    def amps_per_cord(self, cords: int) -> float:
        """Current in each of ``cords`` power cords sharing the load (one cord per PSU)."""
        return self.amps / cords if cords > 0 else 0.0

    def va_per_cord(self, cords: int) -> float:
        """Apparent power in each of ``cords`` cords sharing the load."""
        return self.va / cords if cords > 0 else 0.0


def system_power(
    parts_w: float,
    gpu_w: float,
    overhead: PlatformOverhead,
    *,
    psu_unit_w: float | None,
    psu_sharing: int,
    psu_class: str | None,
    psu_form: str | None,
    band: VoltageBand,
    vendor_max_w: float | None = None,
) -> SystemPower:
    """The maximum power of one server from its parts.

    dc = parts × (1 + fan_pct) + gpu × baseboard_pct + fixed; wall = dc / η(load fraction, band, 80 PLUS
    class), with the load shared by ``psu_sharing`` PSUs of ``psu_unit_w`` each (all installed units share
    the load in normal operation)."""
    fans = parts_w * overhead.fan_pct / 100
    board = gpu_w * overhead.baseboard_pct_of_gpu / 100
    dc = parts_w + fans + board + overhead.fixed_w
    fraction = dc / (psu_unit_w * psu_sharing) if psu_unit_w and psu_sharing > 0 else None
    eff, assumed = psu_efficiency(psu_class, psu_form, band, fraction if fraction is not None else 0.5)
    level = psu_class or UNKNOWN_CLASS
    return SystemPower(
        parts_w=parts_w,
        fans_w=fans,
        baseboard_w=board,
        fixed_w=overhead.fixed_w,
        dc_w=dc,
        psu_load_fraction=fraction,
        efficiency=eff,
        efficiency_assumed=assumed,
        model_ac_w=dc / eff,
        vendor_max_w=vendor_max_w,
        volts=BAND_LOW_VOLTS[band],
        power_factor=POWER_FACTOR[level],
        band=band,
        psu_form=psu_form,
    )


def circuit_capacity_w(amps: float, volts: float, continuous_pct: float, phases: int = 1) -> float:
    """Continuous real power a circuit carries: amps × volts (× √3 for three-phase line-to-line volts) at the
    continuous-load share of its rating (NEC 210.20(A): continuous loads at most 80 % of the breaker)."""
    factor = math.sqrt(3) if phases == 3 else 1.0
    return amps * volts * factor * continuous_pct / 100


STANDARD_PDU_AMPS: tuple[int, ...] = (16, 20, 24, 30, 32, 48, 50, 60, 63, 100, 125)
"""Common rack-PDU input ratings (IEC 60309 16/32/63/125 A; NEMA L6-20/L6-30/L21-30 and CS8365 50 A; 60 A
and 100 A three-phase units) — the PDU sizing rounds the required current up to the next of these."""


def three_phase_v_ll(band: VoltageBand, volts: float) -> float:
    """The line-to-line voltage of the three-phase supply a server on ``band`` (at ``volts``) hangs off."""
    return volts if SUPPLY_CONNECTION[band] == "ll" else volts * math.sqrt(3)


def cords_on_phases(cords: int) -> tuple[int, int, int]:
    """``cords`` spread round-robin over the three phases (line-to-neutral) or line pairs (line-to-line)."""
    base, extra = divmod(max(cords, 0), 3)
    return (base + (extra > 0), base + (extra > 1), base)


def line_currents(loads_a: tuple[float, float, float], connection: Connection) -> tuple[float, float, float]:
    """Current in each line (L1, L2, L3) from the loads on the three phases (L1-N, L2-N, L3-N) or on the
    three line pairs (L1-L2, L2-L3, L3-L1), all at the same power factor.

    Line-to-neutral: each line carries its own phase's load. Line-to-line: a line carries the phasor
    difference of its two pair currents, 120° apart, so |I_L1| = √(I_12² + I_12·I_31 + I_31²) — √3 × the
    pair current when balanced (the textbook delta relation I_L = √3 × I_ph)."""
    if connection == "ln":
        return loads_a
    a, b, c = loads_a  # L1-L2, L2-L3, L3-L1

    def line(x: float, y: float) -> float:
        return math.sqrt(x * x + x * y + y * y)

    return (line(a, c), line(b, a), line(c, b))


@dataclass(frozen=True)
class RackPlan:
    """Space, power and PDUs for the plan's servers."""

    rack_units: int | None
    """Height of one server (None: not in the catalog)."""
    rack_units_usable: int
    servers_per_rack: int
    """As the buyer plans them."""
    fit_by_space: int | None
    """How many servers the rack's units hold (None: server height unknown)."""
    fit_by_power: int | None
    """How many servers the rack's power limit carries (None: no limit given)."""
    server_ac_w: float
    rack_kw: float
    rack_btu_h: float
    racks_needed: int
    nodes: int
    pdu_phases: int
    pdu_volts: float
    """Single phase: the cord voltage; three-phase: the supply's line-to-line voltage."""
    pdu_amps: float
    """Input current each PDU must carry: the whole rack on one feed (A/B feeds: either one carries all); on
    three phases the most loaded line once the cords are spread over the phases."""
    pdu_rating_amps: int | None
    """The smallest standard PDU rating whose continuous share carries ``pdu_amps`` (None: above the largest)."""
    connection: Connection = "ln"
    """Three-phase: how the servers' cords are wired (line-to-neutral or line-to-line)."""
    balanced_amps: float = 0.0
    """Three-phase line current with the load spread perfectly evenly: P / (√3 × V_LL × PF)."""
    cords_per_phase: tuple[int, int, int] = (0, 0, 0)
    """The rack's cords on each phase (or line pair); all zero where the cords are not known."""
    line_amps: tuple[float, float, float] = (0.0, 0.0, 0.0)
    """Current in each line with the cords spread as in ``cords_per_phase``."""

    @property
    def over_space(self) -> bool:
        return self.fit_by_space is not None and self.servers_per_rack > self.fit_by_space

    @property
    def imbalance_pct(self) -> float:
        """How far the most loaded line is above the balanced current (0: perfectly balanced)."""
        if self.balanced_amps <= 0 or self.pdu_phases != 3:
            return 0.0
        return 100 * (self.pdu_amps / self.balanced_amps - 1)


def rack_plan(
    server: SystemPower,
    *,
    rack_units: int | None,
    rack_units_usable: int,
    servers_per_rack: int,
    nodes: int,
    rack_limit_kw: float | None,
    continuous_pct: float,
    pdu_phases: int,
    cords_per_server: int = 0,
) -> RackPlan:
    """Servers per rack by space and by power, the rack's kW and BTU/h, racks for ``nodes`` and the PDU.

    Three-phase PDUs: I = P / (√3 × V_LL × PF) with V_LL from the band's supply system
    (``SUPPLY_CONNECTION``: 208 V is already line-to-line on a 208Y/120 V supply; 230 V servers sit
    line-to-neutral on 230/400 V). With ``cords_per_server`` known, the rack's cords are spread round-robin
    over the phases and the PDU is sized for the most loaded line. Single phase: I = P / (V × PF)."""
    fit_space = rack_units_usable // rack_units if rack_units else None
    ac = server.ac_w
    fit_power = math.floor(rack_limit_kw * 1000 / ac) if rack_limit_kw is not None and ac > 0 else None
    per_rack = max(servers_per_rack, 1)
    rack_w = ac * per_rack
    racks = math.ceil(max(nodes, 1) / per_rack)
    connection = SUPPLY_CONNECTION[server.band]
    spread: tuple[int, int, int] = (0, 0, 0)
    lines: tuple[float, float, float] = (0.0, 0.0, 0.0)
    if pdu_phases == 3:
        v_ll = three_phase_v_ll(server.band, server.volts)
        balanced = rack_w / (math.sqrt(3) * v_ll * server.power_factor)
        amps = balanced
        volts = v_ll
        cords = cords_per_server * per_rack
        if cords > 0:
            spread = cords_on_phases(cords)
            per_cord = rack_w / cords / (server.volts * server.power_factor)
            lines = line_currents((spread[0] * per_cord, spread[1] * per_cord, spread[2] * per_cord), connection)
            amps = max(lines)
    else:
        amps = rack_w / (server.volts * server.power_factor)
        balanced = amps
        volts = server.volts
    need = amps * 100 / continuous_pct
    rating = next((a for a in STANDARD_PDU_AMPS if a >= need), None)
    return RackPlan(
        rack_units=rack_units,
        rack_units_usable=rack_units_usable,
        servers_per_rack=per_rack,
        fit_by_space=fit_space,
        fit_by_power=fit_power,
        server_ac_w=ac,
        rack_kw=rack_w / 1000,
        rack_btu_h=rack_w * BTU_H_PER_W,
        racks_needed=racks,
        nodes=max(nodes, 1),
        pdu_phases=pdu_phases,
        pdu_volts=volts,
        pdu_amps=amps,
        pdu_rating_amps=rating,
        connection=connection,
        balanced_amps=balanced,
        cords_per_phase=spread,
        line_amps=lines,
    )


def psu_rating_for_band(band: VoltageBand, *, high_line_w: float, low_line_w: float | None,
                        w_220_240: float | None) -> float | None:
    """A PSU's output rating on ``band``: the 100-127 V rating on low line (None: not rated / not known), the
    220-240 V rating where the vendor gives a higher one (Supermicro 2000 W Titanium: 2000 W at 220-240 V,
    1800 W over 200-240 V, docs/sources.md §D1), else the 200-240 V rating."""
    if band == "100-127":
        return low_line_w
    if band in ("220", "230", "240") and w_220_240 is not None:
        return w_220_240
    return high_line_w

"""The power budget of one server and its rack: draw per component, usable PSU capacity, peak, rack kW.

Numbers: the platform overhead (fans, NVSwitch baseboard; the desktop base figure for towers), the planning
fallbacks for parts without a figure, headroom, GPU transients and the PSU peak tolerance come from the
policy (resources/policy/default.yaml, each with its source); part watts, PSU ratings and the vendors'
published system maxima from the catalog. Wall power, currents, BTU/h and the rack come from
procurement/facility.py (docs/rules.md "Facility model").
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from catalog.baseboards import BASEBOARDS
from catalog.loader import Catalog
from catalog.models import GpuFormFactor, Psu
from procurement.budgets.parts import Parts, resolve, scope_for
from procurement.facility import (
    PlatformOverhead,
    RackPlan,
    SystemPower,
    VoltageBand,
    efficiency_class,
    platform_overhead,
    psu_rating_for_band,
    rack_plan,
    system_power,
)
from procurement.plan import Plan, Redundancy
from procurement.policy import Policy


@dataclass(frozen=True)
class PowerItem:
    """One line of the power estimate: what, where in the plan, how many, watts each and in total."""

    key: str
    """'gpu', 'cpu', 'memory', 'storage', 'nic', or the platform overhead: 'fans', 'baseboard', 'base'."""
    label: str
    path: str
    count: int
    unit_w: float | None
    """None: the catalog has no figure for this part (not counted)."""
    estimated: bool = False
    """True: the catalog has no figure; unit_w is the policy's planning fallback for this kind of part."""

    @property
    def total_w(self) -> float:
        return (self.unit_w or 0.0) * self.count


@dataclass(frozen=True)
class PowerBudget:
    """What the GUI's power gauge shows: estimated draw against usable PSU capacity."""

    items: tuple[PowerItem, ...]
    draw_w: float
    """Estimated sustained draw of one server."""
    gpu_w: float
    psu_id: str | None
    psu_unit_w: float | None
    """Each PSU's rating at the plan's input voltage (None: not rated there, or no PSU)."""
    psu_count: int
    redundant_units: int
    usable_w: float
    """Capacity without the redundant units."""
    headroom_pct: float
    low_line: bool
    psu_from_chassis: bool
    peak_w: float
    """Draw with GPU transients (GPU watts × transient factor) for about 100 µs."""
    peak_capacity_w: float
    servers_per_rack: int
    rack_kw: float
    rack_limit_kw: float | None
    system: SystemPower | None = None
    """Wall power, currents, VA and BTU/h of one server (procurement/facility.py)."""
    rack: RackPlan | None = None
    """Rack space, rack power and PDU for the plan's servers."""
    cords_after_failover: int = 0
    """PSU cords that carry the load once the redundant units have failed (each PSU has its own cord)."""
    upper_bound_w: float | None = None
    """Low line with no 100-127 V rating known: the usable capacity at the 200-240 V rating. A PSU never
    delivers more on low line than on high line (docs/sources.md §D1: Supermicro 2000 W Titanium 1000 W at
    100-127 V vs 1800 W at 200-240 V; Intel AC450NX 650 W vs 750 W, source D3 — derated, never uprated), so a draw above
    this figure is too much on any input voltage. None otherwise."""

    @property
    def capacity_bound_w(self) -> float:
        """The usable capacity the checks compare with: the rating at the plan's voltage, else the bound."""
        if self.psu_unit_w is None and self.upper_bound_w is not None:
            return self.upper_bound_w
        return self.usable_w

    @property
    def ac_w(self) -> float:
        """Wall (AC) power of one server at its maximum: the vendor's published figure, else the model."""
        return self.system.ac_w if self.system is not None else self.draw_w

    @property
    def amps_per_cord(self) -> float | None:
        """Current in each PSU cord after the redundant units fail (None: no PSU known)."""
        if self.system is None or self.cords_after_failover <= 0:
            return None
        return self.system.amps_per_cord(self.cords_after_failover)

    @property
    def amps_per_cord_best_case(self) -> float | None:
        """Current per cord after failover if the PSUs were of the best 80 PLUS class (Titanium): differs from
        ``amps_per_cord`` only where the class is assumed and no vendor maximum applies."""
        if self.system is None or self.cords_after_failover <= 0:
            return None
        s = self.system
        if s.from_vendor or not s.efficiency_assumed:
            return self.amps_per_cord
        return s.at_class("titanium").amps_per_cord(self.cords_after_failover)

    @property
    def amps_per_cord_shared(self) -> float | None:
        """Current in each PSU cord in normal operation, every installed PSU sharing (None: no PSU known)."""
        if self.system is None or self.psu_count <= 0:
            return None
        return self.system.amps_per_cord(self.psu_count)

    @property
    def required_w(self) -> float:
        """Draw plus the policy headroom: what the usable PSU capacity should be at least."""
        return self.draw_w * (1 + self.headroom_pct / 100)

    @property
    def load_pct(self) -> float | None:
        return 100 * self.draw_w / self.usable_w if self.usable_w > 0 else None

    @property
    def unknown(self) -> tuple[PowerItem, ...]:
        return tuple(i for i in self.items if i.unit_w is None and i.count > 0)

    @property
    def estimated(self) -> tuple[PowerItem, ...]:
        return tuple(i for i in self.items if i.estimated and i.count > 0)


def psu_unit_w(psu: Psu, band: VoltageBand) -> float | None:
    """The PSU's output rating on the plan's input band (None: not rated there or not known)."""
    return psu_rating_for_band(band, high_line_w=psu.rated_w_high_line, low_line_w=psu.rated_w_low_line,
                               w_220_240=psu.rated_w_220_240)


def redundant_units(redundancy: Redundancy, count: int) -> int:
    """PSUs held in reserve: M for N+M (4+2: two), half for N+N (those are not counted as capacity)."""
    spares = Redundancy(redundancy).spares
    if spares is None:
        return count - count // 2  # an odd count keeps the larger half in reserve
    return min(spares, count)


def _small(key: str, label: str, path: str, count: int, watts: float | None, fallback: float) -> PowerItem:
    if watts is None:
        return PowerItem(key, label, path, count, fallback, estimated=True)
    return PowerItem(key, label, path, count, watts)


def _items(plan: Plan, parts: Parts, policy: Policy) -> list[PowerItem]:
    items: list[PowerItem] = []
    if parts.gpu is not None and parts.gpu_count:
        ch = parts.chassis
        if (parts.gpu.tdp_w is None and parts.gpu.form_factor is GpuFormFactor.SXM and ch is not None
                and ch.max_gpu_tdp_w is not None):
            # an SXM module without a published TDP draws at most what its baseboard position is rated for
            items.append(PowerItem("gpu", parts.gpu.name, "gpu.count", parts.gpu_count, ch.max_gpu_tdp_w,
                                   estimated=True))
        else:
            items.append(PowerItem("gpu", parts.gpu.name, "gpu.count", parts.gpu_count, parts.gpu.tdp_w))
    if parts.cpu is not None and parts.cpu_count:
        # the vendor's maximum sustained package power where sourced (i9-13900K: 253 W, not its 125 W base)
        cpu_w = parts.cpu.max_power_w or parts.cpu.tdp_w
        items.append(PowerItem("cpu", parts.cpu.name, "server.cpu", parts.cpu_count, cpu_w))
    if parts.memory is not None and parts.memory_count:
        items.append(_small("memory", parts.memory.name, "server.memory.count", parts.memory_count,
                            parts.memory.power_w, policy.dimm_w_fallback))
    for s in parts.storage:
        if s.item.count:
            items.append(_small("storage", s.part.name, f"server.storage[{s.index}].count", s.item.count,
                                s.part.power_w, policy.drive_w_fallback))
    for n in parts.nics:
        if n.count:
            items.append(_small("nic", n.part.name, f"server.nics[{n.index}].count", n.count, n.part.power_w,
                                policy.nic_w_fallback))
    items.extend(_overhead(parts, policy, items))
    return items


_NO_OVERHEAD = PlatformOverhead(0.0, 0.0, 0.0)


def _overhead(parts: Parts, policy: Policy, items: list[PowerItem]) -> list[PowerItem]:
    """What the chassis draws beyond the listed parts: fans and the NVSwitch baseboard of a rack server, or
    the desktop rest-of-system figure of a tower (or of a plan without a chassis yet)."""
    ch = parts.chassis
    board = BASEBOARDS.get(ch.baseboard) if ch is not None and ch.baseboard else None
    over = platform_overhead(
        ch.form if ch is not None else None,
        ch.gpu_form_factor.value if ch is not None else None,
        ch.cooling if ch is not None else None,
        fan_pct=policy.fan_power_pct,
        baseboard_pct=policy.sxm_baseboard_overhead_pct if board is not None and board.nvswitch else 0.0,
        base_system_w=policy.base_system_w,
    )
    parts_w = sum(i.total_w for i in items)
    gpu_w = sum(i.total_w for i in items if i.key == "gpu")
    out: list[PowerItem] = []
    if over.fixed_w:
        out.append(PowerItem("base", "base", "server.chassis", 1, over.fixed_w))
    if over.fan_pct:
        out.append(PowerItem("fans", "fans", "server.chassis", 1, parts_w * over.fan_pct / 100))
    if over.baseboard_pct_of_gpu and gpu_w:
        out.append(PowerItem("baseboard", "baseboard", "server.chassis", 1,
                             gpu_w * over.baseboard_pct_of_gpu / 100))
    return out


def power_budget(plan: Plan, catalog: Catalog, policy: Policy, parts: Parts | None = None) -> PowerBudget:
    """The power estimate of one server and of its rack, and the PSU capacity that carries it (computed
    once per evaluation scope)."""
    scope = scope_for(plan, catalog, parts)
    if scope is None:
        return _power_budget(plan, policy, parts or resolve(plan, catalog))
    key = ("power", id(policy))
    if key not in scope.computed:
        scope.computed[key] = _power_budget(plan, policy, scope.parts)
    budget: PowerBudget = scope.computed[key]
    return budget


def _power_budget(plan: Plan, policy: Policy, parts: Parts) -> PowerBudget:
    items = _items(plan, parts, policy)
    draw = sum(i.total_w for i in items)
    gpu_w = sum(i.total_w for i in items if i.key == "gpu")
    band = plan.server.input_voltage
    low = band == "100-127"
    unit: float | None = None
    if parts.psu is not None:
        unit = psu_unit_w(parts.psu, band)
    count = parts.psu_count if parts.psu is not None else 0
    spare = redundant_units(plan.server.psu.redundancy, count)
    usable = (unit or 0.0) * max(count - spare, 0)
    upper: float | None = None
    if low and parts.psu is not None and unit is None and parts.psu.low_line == "unknown":
        upper = parts.psu.rated_w_high_line * max(count - spare, 0)
    peak = draw + gpu_w * (policy.gpu_transient_factor - 1)
    per_rack = plan.server.servers_per_rack
    ch = parts.chassis
    psu = parts.psu
    # the overhead is already in the draw (its own lines): the facility model adds only the PSU losses
    system = system_power(
        draw, 0.0, _NO_OVERHEAD,
        psu_unit_w=unit if unit is not None else (psu.rated_w_high_line if psu is not None else None),
        psu_sharing=count,
        psu_class=efficiency_class(psu.efficiency) if psu is not None else None,
        psu_form=psu.form if psu is not None else None,
        band=band,
        vendor_max_w=ch.max_system_power_w if ch is not None else None,
    )
    rack = rack_plan(
        system,
        rack_units=ch.rack_units if ch is not None else None,
        rack_units_usable=policy.rack_units_usable,
        servers_per_rack=per_rack,
        nodes=plan.requirements.nodes,
        rack_limit_kw=plan.server.rack_power_limit_kw,
        continuous_pct=policy.continuous_load_pct,
        pdu_phases=policy.pdu_phases,
        cords_per_server=count,
    )
    return PowerBudget(
        items=tuple(items),
        draw_w=draw,
        gpu_w=gpu_w,
        psu_id=parts.psu.id if parts.psu else None,
        psu_unit_w=unit,
        psu_count=count,
        redundant_units=spare,
        usable_w=usable,
        headroom_pct=policy.psu_headroom_pct,
        low_line=low,
        psu_from_chassis=parts.psu_from_chassis,
        peak_w=peak,
        peak_capacity_w=usable * policy.psu_peak_tolerance_pct / 100,
        servers_per_rack=per_rack,
        rack_kw=rack.rack_kw,
        rack_limit_kw=plan.server.rack_power_limit_kw,
        system=system,
        rack=None if ch is not None and ch.form == "tower" else rack,  # a tower stands alone: no rack, no PDU
        cords_after_failover=max(count - spare, 0),
        upper_bound_w=upper,
    )


def psus_needed(draw_w: float, unit_w: float, policy: Policy, redundancy: Redundancy) -> int:
    """How many PSUs of ``unit_w`` carry ``draw_w`` with the policy headroom, plus the redundant ones."""
    n = max(1, math.ceil(draw_w * (1 + policy.psu_headroom_pct / 100) / unit_w))
    spares = Redundancy(redundancy).spares
    return 2 * n if spares is None else n + spares

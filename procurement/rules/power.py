"""Power rules: estimated draw vs usable PSU capacity, redundancy, input voltage, cords, rack power and space,
transients.

Numbers: headroom (default 20 %, seed guidance), the platform overhead (fan share, NVSwitch baseboard share;
150 W rest-of-system for towers), GPU excursions 3x for 100 µs (PCI-SIG CEM 5.0) against a PSU peak
tolerance of 200 % for 100 µs (ATX 3.0) — checked only for PCIe add-in cards on ATX PSUs, which those two
documents cover — cord and circuit currents, rack units, required PSU redundancy — all in
resources/policy/default.yaml with their sources; wall power and currents from procurement/facility.py.
Part watts come from the catalog (GPU/CPU TDP, DIMM/drive/NIC power_w). Low-line ratings come from the PSU's
catalog entry (docs/sources.md §D1/D2: some units are derated at 100-127 V, Titanium units may not run there at all).
"""

from __future__ import annotations

import math

from catalog.loader import Catalog
from catalog.models import GpuFormFactor

# re-exported: procurement.budgets.power is their home
from procurement.budgets.power import PowerBudget as PowerBudget
from procurement.budgets.power import PowerItem as PowerItem
from procurement.budgets.power import power_budget, psus_needed
from procurement.budgets.power import psu_unit_w as psu_unit_w
from procurement.budgets.power import redundant_units as redundant_units
from procurement.coded import Coded, coded, names
from procurement.findings import Family, Finding, Severity
from procurement.messages import plural, register
from procurement.plan import Plan, Redundancy
from procurement.policy import Policy
from procurement.rules.base import fmt_w, join_names, make, resolve, server_empty
from procurement.rules.registry import rule

FAMILY: Family = "power"


_PSU = ("server.psu.part", "server.psu.count")


def _has_load(plan: Plan) -> bool:
    return plan.gpu.count > 0 or plan.server.cpu is not None


@rule(FAMILY, "POWER-PSU-MISSING", step=3, item="psu_power")
def psu_missing(plan: Plan, catalog: Catalog, policy: Policy) -> list[Finding]:
    """POWER-PSU-MISSING: GPUs or a CPU chosen but no PSU (and the chassis ships none)."""
    parts = resolve(plan, catalog)
    if not _has_load(plan) or (parts.psu is not None and parts.psu_count > 0):
        return []
    if parts.chassis is None:  # nothing said about a chassis that is not chosen
        severity = Severity.INFO if server_empty(plan) else Severity.WARNING
        return [make("POWER-PSU-MISSING", severity, _PSU, variant="none")]
    return [make("POWER-PSU-MISSING", Severity.WARNING, _PSU, chassis=parts.chassis.name)]


@rule(FAMILY, "POWER-PSU-CAPACITY", "POWER-PSU-HEADROOM", step=3, item="psu_power")
def psu_capacity(plan: Plan, catalog: Catalog, policy: Policy) -> list[Finding]:
    """POWER-PSU-CAPACITY (draw above usable capacity) and POWER-PSU-HEADROOM (below draw + headroom)."""
    parts = resolve(plan, catalog)
    b = power_budget(plan, catalog, policy, parts)
    if b.psu_id is None or b.psu_count == 0:
        return []
    if b.psu_unit_w is None:
        if b.upper_bound_w is None or parts.psu is None or b.draw_w <= b.upper_bound_w:
            return []  # low line, rating unknown, the draw within the 200-240 V bound: POWER-LOW-LINE-UNKNOWN
        high = parts.psu.rated_w_high_line
        kw_low = dict(draw=fmt_w(b.draw_w), usable=fmt_w(b.upper_bound_w), count=b.psu_count,
                      spare=b.redundant_units, unit=fmt_w(high), headroom=f"{b.headroom_pct:g}",
                      need=psus_needed(b.draw_w, high, policy, plan.server.psu.redundancy))
        return [Finding(rule="POWER-PSU-CAPACITY", family=FAMILY, severity=Severity.ERROR, step=3, fields=_PSU,
                        coded_message=coded("POWER-PSU-CAPACITY.low_line_message", **kw_low),
                        coded_fix=coded("POWER-PSU-CAPACITY.fix", **kw_low))]
    kw = dict(
        draw=fmt_w(b.draw_w),
        usable=fmt_w(b.usable_w),
        required=fmt_w(b.required_w),
        count=b.psu_count,
        spare=b.redundant_units,
        unit=fmt_w(b.psu_unit_w),
        headroom=f"{b.headroom_pct:g}",
        need=psus_needed(b.draw_w, b.psu_unit_w, policy, plan.server.psu.redundancy),
    )
    bays = parts.chassis.psu_bays if parts.chassis is not None else None
    over_bays = bays is not None and int(str(kw["need"])) > bays
    variant = "bays" if over_bays else None  # that many units do not fit: say so, not "use N"
    ch = parts.chassis
    one_failed = b.psu_unit_w * (b.psu_count - 1)
    if (b.draw_w > b.usable_w and ch is not None and ch.psu_power_brake and b.redundant_units > 1
            and b.draw_w <= one_failed):
        # the vendor's design: full power with one PSU failed, GPUs throttled with more (not a shortfall)
        return [make("POWER-PSU-CAPACITY", Severity.WARNING, _PSU, variant="brake", chassis=ch.name,
                     one=fmt_w(one_failed), **kw)]
    if b.draw_w > b.usable_w:
        return [make("POWER-PSU-CAPACITY", Severity.ERROR, _PSU, variant=variant, bays=bays,
                     **kw)]
    if b.required_w > b.usable_w:
        return [make("POWER-PSU-HEADROOM", Severity.WARNING, _PSU, variant=variant, bays=bays,
                     **kw)]
    return []


@rule(FAMILY, "POWER-PSU-REDUNDANCY", step=3, item="psu_power")
def psu_redundancy(plan: Plan, catalog: Catalog, policy: Policy) -> list[Finding]:
    """POWER-PSU-REDUNDANCY: N+M needs at least M+1 PSUs (4+2: six with two in reserve), N+N an even count of
    at least 2."""
    red = plan.server.psu.redundancy
    parts = resolve(plan, catalog)
    count = parts.psu_count if parts.psu is not None else plan.server.psu.count
    if red == Redundancy.NONE or count == 0:
        return []
    spares = red.spares
    if spares is not None and spares > 1:
        if count > spares:
            return []
        return [make("POWER-PSU-REDUNDANCY", Severity.ERROR, ("server.psu.count", "server.psu.redundancy"),
                     variant="nm", count=count, mode=redundancy_label(red), least=spares + 1)]
    if count < 2 or (red == Redundancy.N_PLUS_N and count % 2):
        return [
            make(
                "POWER-PSU-REDUNDANCY",
                Severity.ERROR,
                ("server.psu.count", "server.psu.redundancy"),
                count=count,
                mode=redundancy_label(red),
            )
        ]
    return []


@rule(FAMILY, "POWER-LOW-LINE-UNSUPPORTED", "POWER-LOW-LINE-UNKNOWN", "POWER-LOW-LINE-DERATED", step=3,
      item="psu_power")
def low_line(plan: Plan, catalog: Catalog, policy: Policy) -> list[Finding]:
    """POWER-LOW-LINE-UNSUPPORTED (the vendor's input range excludes 100-127 V, error), POWER-LOW-LINE-UNKNOWN
    (no low-line rating in the sources, warning naming what to ask the vendor: capacity is checked only against
    the 200-240 V rating as an upper bound — a draw above that is POWER-PSU-CAPACITY, an error) and
    POWER-LOW-LINE-DERATED (rated lower
    there, info; the capacity uses the low-line figure)."""
    if plan.server.input_voltage != "100-127":
        return []
    parts = resolve(plan, catalog)
    psu = parts.psu
    if psu is None:
        return []
    fields = ("server.input_voltage", "server.psu.part")
    if psu.low_line == "unsupported":
        return [make("POWER-LOW-LINE-UNSUPPORTED", Severity.ERROR, fields, psu=psu.name)]
    if psu.rated_w_low_line is None:  # low_line 'unknown': unknown is not a pass — ask the vendor
        return [make("POWER-LOW-LINE-UNKNOWN", Severity.WARNING, fields, psu=psu.name,
                     high=fmt_w(psu.rated_w_high_line))]
    if psu.rated_w_low_line < psu.rated_w_high_line:
        return [
            make(
                "POWER-LOW-LINE-DERATED",
                Severity.INFO,
                fields,
                psu=psu.name,
                low=fmt_w(psu.rated_w_low_line),
                high=fmt_w(psu.rated_w_high_line),
            )
        ]
    return []


@rule(FAMILY, "POWER-PSU-BAYS", step=3, item="psu_power")
def psu_bays(plan: Plan, catalog: Catalog, policy: Policy) -> list[Finding]:
    """POWER-PSU-BAYS: more PSUs than the chassis has bays."""
    parts = resolve(plan, catalog)
    ch = parts.chassis
    if ch is None or ch.psu_bays is None or parts.psu is None or parts.psu_count <= ch.psu_bays:
        return []
    return [
        make(
            "POWER-PSU-BAYS",
            Severity.ERROR,
            ("server.psu.count", "server.chassis"),
            count=parts.psu_count,
            bays=ch.psu_bays,
            chassis=ch.name,
        )
    ]


def _chassis_name(catalog: Catalog, chassis_id: str) -> str:
    part = catalog.get("chassis", chassis_id)
    return part.name if part is not None else chassis_id


@rule(FAMILY, "POWER-PSU-FORM", step=3, item="psu_power")
def psu_form(plan: Plan, catalog: Catalog, policy: Policy) -> list[Finding]:
    """POWER-PSU-FORM: the PSU's form (ATX desktop unit or hot-swap server module) is not what the chassis'
    PSU bays take (error; checked only where both are known from the catalog's sources)."""
    parts = resolve(plan, catalog)
    ch, psu = parts.chassis, parts.psu
    if ch is not None and psu is not None and psu.systems and ch.id not in psu.systems:
        return [  # one system's own module (a DGX's, a PowerEdge's): it fits no other chassis
            make(
                "POWER-PSU-FORM",
                Severity.ERROR,
                ("server.psu.part", "server.chassis"),
                variant="system",
                psu=psu.name,
                chassis=ch.name,
                systems=names(_chassis_name(catalog, c) for c in psu.systems),
            )
        ]
    if ch is None or psu is None or ch.psu_form is None or psu.form is None or psu.form == ch.psu_form:
        return []
    return [
        make(
            "POWER-PSU-FORM",
            Severity.ERROR,
            ("server.psu.part", "server.chassis"),
            psu=psu.name,
            form=coded(f"power.form.{psu.form}"),
            chassis=ch.name,
            takes=coded(f"power.form.{ch.psu_form}"),
        )
    ]


@rule(FAMILY, "POWER-PSU-MIXED", step=3, item="psu_power")
def psu_mixed(plan: Plan, catalog: Catalog, policy: Policy) -> list[Finding]:
    """POWER-PSU-MIXED: a PSU model other than the one the platform ships with (mixing models is unsafe)."""
    parts = resolve(plan, catalog)
    ch = parts.chassis
    chosen = plan.server.psu.part
    if ch is None or not ch.psu_included or chosen is None or chosen == ch.psu_included:
        return []
    included = catalog.get("psu", ch.psu_included)
    return [
        make(
            "POWER-PSU-MIXED",
            Severity.WARNING,
            ("server.psu.part", "server.chassis"),
            chassis=ch.name,
            included=included.name if included else ch.psu_included,
            chosen=parts.psu.name if parts.psu else chosen,
        )
    ]


@rule(FAMILY, "POWER-RACK-LIMIT", step=3, item="psu_power")
def rack_limit(plan: Plan, catalog: Catalog, policy: Policy) -> list[Finding]:
    """POWER-RACK-LIMIT: servers per rack × wall power above the rack/circuit limit the buyer entered."""
    limit = plan.server.rack_power_limit_kw
    if limit is None:
        return []
    b = power_budget(plan, catalog, policy)
    if b.rack_kw <= limit:
        return []
    per_rack = max(0, math.floor(limit * 1000 / b.ac_w)) if b.ac_w > 0 else 0
    return [
        make(
            "POWER-RACK-LIMIT",
            Severity.ERROR,
            ("server.rack_power_limit_kw", "server.servers_per_rack"),
            rack=f"{b.rack_kw:.1f}",
            limit=f"{limit:g}",
            servers=b.servers_per_rack,
            draw=fmt_w(b.ac_w),
            fit=per_rack,
        )
    ]


@rule(FAMILY, "POWER-TRANSIENT", step=3, item="psu_power")
def transient(plan: Plan, catalog: Catalog, policy: Policy) -> list[Finding]:
    """POWER-TRANSIENT: GPU excursions (TDP × factor, ~100 µs) above the PSUs' peak tolerance — for PCIe add-in
    cards on ATX PSUs only: the excursion figure is the PCIe CEM 5.0 add-in-card limit and the tolerance the
    ATX 3.0 desktop-PSU one; neither covers SXM modules or server PSUs, whose vendors publish no such figure
    here, so nothing is said for them."""
    parts = resolve(plan, catalog)
    if (parts.gpu is None or parts.gpu.form_factor is not GpuFormFactor.PCIE or parts.psu is None
            or parts.psu.form != "atx"):
        return []
    b = power_budget(plan, catalog, policy, parts)
    cap = b.capacity_bound_w  # low line with no rating: the 200-240 V bound (above it fails on any voltage)
    if b.gpu_w <= 0 or cap <= 0 or b.draw_w > cap:
        return []  # no GPUs, no PSU, or already an outright capacity error
    peak_capacity = cap * policy.psu_peak_tolerance_pct / 100
    if b.peak_w <= peak_capacity:
        return []
    return [
        make(
            "POWER-TRANSIENT",
            Severity.WARNING,
            _PSU,
            peak=fmt_w(b.peak_w),
            factor=f"{policy.gpu_transient_factor:g}",
            capacity=fmt_w(peak_capacity),
            tolerance=f"{policy.psu_peak_tolerance_pct:g}",
        )
    ]


_POLICY_REDUNDANCY = {r.value: r for r in Redundancy}


def redundancy_label(redundancy: Redundancy) -> Coded | str:
    """'N+1', 'N+N', 'N+2' as vendors write them; none in words ("电源冗余为 NONE" showed the raw enum name),
    rendered in the reader's language (procurement.coded.render_value)."""
    if redundancy == Redundancy.NONE:
        return coded("power.redundancy.none")
    return redundancy.value.upper()


@rule(FAMILY, "POWER-PSU-NO-REDUNDANCY", step=3, item="psu_power")
def psu_no_redundancy(plan: Plan, catalog: Catalog, policy: Policy) -> list[Finding]:
    """POWER-PSU-NO-REDUNDANCY: a data-centre plan whose PSU redundancy is below what the policy asks for
    (N+1 by default, N+N where the site asks for A/B feeds). The capacity check (POWER-PSU-CAPACITY) already
    leaves the redundant units out."""
    if plan.requirements.deployment != "datacenter":
        return []
    parts = resolve(plan, catalog)
    if parts.psu is None or parts.psu_count == 0:
        return []
    want = _POLICY_REDUNDANCY[policy.psu_redundancy_required]
    have = plan.server.psu.redundancy
    # as many units in reserve as the policy's scheme keeps (6 PSUs: N+3 holds as many as N+N; N+2 more than N+1)
    if redundant_units(have, parts.psu_count) >= redundant_units(want, parts.psu_count) and (
            have != Redundancy.NONE or want == Redundancy.NONE):
        return []
    b = power_budget(plan, catalog, policy, parts)
    need = psus_needed(b.draw_w, b.psu_unit_w, policy, want) if b.psu_unit_w else None
    return [make("POWER-PSU-NO-REDUNDANCY", Severity.WARNING, ("server.psu.redundancy", "server.psu.count"),
                 variant=None if need is not None else "count", have=redundancy_label(have),
                 want=redundancy_label(want),
                 count=parts.psu_count, need=need or 0)]


def cord_limit(plan: Plan, policy: Policy) -> tuple[float, str | None, float]:
    """What one cord may carry continuously, the message variant saying why, and the circuit's rating:
    an office or lab cord goes into a wall receptacle (15 A NEMA 5-15 at 100-127 V, 10 A GB 2099 in China at
    200-240 V) at its continuous share; a data-centre cord into a PDU outlet, limited by the C19/C20
    connector on 200-240 V and by a 20 A branch circuit on 100-127 V (policy values, with their sources)."""
    low = plan.server.input_voltage == "100-127"
    pct = policy.continuous_load_pct / 100
    if plan.requirements.deployment in ("office", "lab"):
        amps = policy.office_receptacle_amps_low_line if low else policy.office_receptacle_amps
        return amps * pct, "office_low" if low else "office", amps
    if low:
        return policy.low_line_circuit_amps * pct, "low", policy.low_line_circuit_amps
    return policy.cord_amps, None, policy.cord_amps


@rule(FAMILY, "POWER-CORD-AMPS", step=3, item="psu_power")
def cord_amps(plan: Plan, catalog: Catalog, policy: Policy) -> list[Finding]:
    """POWER-CORD-AMPS: the current in each PSU cord once the redundant units have failed is above what the
    cord or its circuit carries (``cord_limit``: an office receptacle, a 20 A low-line branch circuit, or the
    C19/C20 connector's 16 A)."""
    parts = resolve(plan, catalog)
    if parts.psu is None or parts.psu_count == 0:
        return []
    b = power_budget(plan, catalog, policy, parts)
    amps = b.amps_per_cord
    if amps is None or b.system is None:
        return []
    limit, variant, circuit = cord_limit(plan, policy)
    if amps <= limit:
        return []
    best = b.amps_per_cord_best_case
    if best is not None and best <= limit and parts.psu is not None:
        # over the limit only at the assumed lowest 80 PLUS class: unknown, not a known failure
        return [make("POWER-CORD-AMPS", Severity.WARNING, ("server.psu.part", "server.psu.count"),
                     variant="assumed", amps=f"{amps:.1f}", best=f"{best:.1f}", limit=f"{limit:g}",
                     cords=b.cords_after_failover, volts=f"{b.system.volts:g}", psu=parts.psu.name)]
    return [make("POWER-CORD-AMPS", Severity.ERROR, ("server.input_voltage", "server.psu.count"),
                 variant=variant, amps=f"{amps:.1f}", limit=f"{limit:g}",
                 cords=b.cords_after_failover, wall=fmt_w(b.ac_w), volts=f"{b.system.volts:g}",
                 circuit=f"{circuit:g}", pct=f"{policy.continuous_load_pct:g}")]


@rule(FAMILY, "POWER-RACK-UNITS", step=3, item="psu_power")
def rack_units(plan: Plan, catalog: Catalog, policy: Policy) -> list[Finding]:
    """POWER-RACK-UNITS: more servers per rack than the rack's units hold (chassis rack_units × servers >
    policy rack_units_usable); silent where the chassis height is not in the catalog."""
    b = power_budget(plan, catalog, policy)
    rack = b.rack
    if rack is None or not rack.over_space or rack.rack_units is None:
        return []
    return [make("POWER-RACK-UNITS", Severity.ERROR, ("server.servers_per_rack", "server.chassis"),
                 servers=rack.servers_per_rack, units=rack.rack_units, total=rack.servers_per_rack * rack.rack_units,
                 usable=rack.rack_units_usable, fit=rack.fit_by_space or 0)]


@rule(FAMILY, "POWER-EFFICIENCY-ASSUMED", step=3, item="psu_power")
def efficiency_assumed(plan: Plan, catalog: Catalog, policy: Policy) -> list[Finding]:
    """POWER-EFFICIENCY-ASSUMED: the wall power (rack, cords, heat) rests on an assumed PSU efficiency — the
    PSU's 80 PLUS class is not in the catalog, so the lowest 80 PLUS level is counted (info; the safe side)."""
    parts = resolve(plan, catalog)
    if parts.psu is None or parts.psu_count == 0 or not _has_load(plan):
        return []
    b = power_budget(plan, catalog, policy, parts)
    if b.system is None or b.system.from_vendor or not b.system.efficiency_assumed:
        return []
    return [make("POWER-EFFICIENCY-ASSUMED", Severity.INFO, ("server.psu.part",),
                 psu=parts.psu.name, wall=fmt_w(b.ac_w), eff=f"{100 * b.system.efficiency:.0f}")]


@rule(FAMILY, "POWER-UNKNOWN-WATTS", step=3, item="psu_power")
def unknown_watts(plan: Plan, catalog: Catalog, policy: Policy) -> list[Finding]:
    """POWER-UNKNOWN-WATTS: a part without a sourced wattage is left out of the estimate (info)."""
    b = power_budget(plan, catalog, policy)
    missing = b.unknown
    if not missing:
        return []
    return [
        make(
            "POWER-UNKNOWN-WATTS",
            Severity.INFO,
            tuple(dict.fromkeys(i.path for i in missing)),
            parts=join_names(i.label for i in missing),
        )
    ]


@rule(FAMILY, "POWER-ESTIMATED-WATTS", step=3, item="psu_power")
def estimated_watts(plan: Plan, catalog: Catalog, policy: Policy) -> list[Finding]:
    """POWER-ESTIMATED-WATTS: DIMMs, drives or NICs without a vendor figure are counted at the policy's
    planning fallback (info)."""
    b = power_budget(plan, catalog, policy)
    est = b.estimated
    if not est:
        return []
    named = join_names(f"{i.label} {fmt_w(i.unit_w or 0)} W" for i in est)  # each part once
    return [make("POWER-ESTIMATED-WATTS", Severity.INFO, tuple(dict.fromkeys(i.path for i in est)),
                 parts=named)]



register(
    {
        "power.redundancy.none": "none",
        "POWER-PSU-MISSING.message": "GPUs or a CPU are chosen but no power supply ({chassis} ships none).",
        "POWER-PSU-MISSING.message.none": "No power supply chosen yet (nor a chassis).",
        "POWER-PSU-MISSING.fix": "Choose a PSU model and count in the server configuration, or use auto-configure.",
        "POWER-PSU-CAPACITY.message": (
            "Estimated draw {draw} W exceeds the usable PSU capacity {usable} W ({count} × {unit} W, {spare} held as "
            "redundancy)."
        ),
        "POWER-PSU-CAPACITY.fix": (
            "Use at least {need} of these PSUs ({headroom}% headroom and redundancy included), a larger PSU, or fewer "
            "GPUs."
        ),
        "POWER-PSU-CAPACITY.low_line_message": (
            "Estimated draw {draw} W exceeds the usable PSU capacity even at 200-240 V, {usable} W ({count} × {unit} "
            "W, {spare} held as redundancy); a PSU delivers no more on 100-127 V, so this is too little on any input "
            "voltage."
        ),
        "POWER-PSU-CAPACITY.message.brake": (
            "Estimated draw {draw} W exceeds the {usable} W left once the {spare} redundant PSUs have failed "
            "({count} × {unit} W); {chassis} carries it with one PSU failed ({one} W) and, by its vendor's design, "
            "power-brakes the GPUs when more fail: full speed is not kept through the whole redundancy."
        ),
        "POWER-PSU-CAPACITY.fix.brake": (
            "Accept throttled GPUs after a second PSU failure, or plan N+1 (or larger PSUs) where full power must "
            "survive it."
        ),
        "POWER-PSU-CAPACITY.fix.bays": (
            "{need} of these PSUs would be needed ({headroom}% headroom and redundancy included) but the chassis has "
            "{bays} PSU bays: choose a larger PSU or another chassis, or fewer GPUs."
        ),
        "POWER-PSU-HEADROOM.fix.bays": (
            "{need} of these PSUs would be needed but the chassis has {bays} PSU bays: choose a larger PSU."
        ),
        "POWER-PSU-HEADROOM.message": (
            "Estimated draw {draw} W plus {headroom}% headroom is {required} W, above the usable PSU capacity {usable} "
            "W."
        ),
        "POWER-PSU-HEADROOM.fix": "Use {need} of these PSUs, or a larger PSU.",
        "POWER-PSU-REDUNDANCY.message": plural(
            "Redundancy {mode} does not work with {count} PSU: N+1 needs at least 2, N+N an even count of at least 2.",
            "Redundancy {mode} does not work with {count} PSUs: N+1 needs at least 2, N+N an even count of at least 2.",
            "count",
        ),
        "POWER-PSU-REDUNDANCY.fix": "Add PSUs, or set redundancy to none.",
        "POWER-PSU-REDUNDANCY.message.nm": (
            "Redundancy {mode} does not work with {count} PSUs: it keeps that many in reserve and needs at least "
            "{least}."
        ),
        "POWER-LOW-LINE-UNSUPPORTED.message": (
            "PSU {psu} is specified for 200-240 V input only; it does not run on 100-127 V (low line)."
        ),
        "POWER-LOW-LINE-UNSUPPORTED.fix": "Supply 200-240 V, or choose a PSU rated for low-line input.",
        "POWER-LOW-LINE-UNKNOWN.message": (
            "The catalog has no 100-127 V (low-line) rating for PSU {psu}: its capacity there is unknown, not a pass; "
            "it is checked only against the {high} W 200-240 V rating as an upper bound, and the real capacity may be "
            "lower."
        ),
        "POWER-LOW-LINE-UNKNOWN.fix": (
            "Ask the vendor for {psu}'s rated output (W) at 100-127 V input, and whether it runs on 100-127 V at all; "
            "or supply 200-240 V."
        ),
        "POWER-PSU-NO-REDUNDANCY.message": (
            "A data-centre server with PSU redundancy {have} where the policy asks for {want}: one PSU failure can "
            "stop it."
        ),
        "POWER-PSU-NO-REDUNDANCY.fix": (
            "Set redundancy to {want} and use {need} of these PSUs (redundant units are not counted as capacity)."
        ),
        "POWER-PSU-NO-REDUNDANCY.fix.count": (
            "Set redundancy to {want} and add PSUs (redundant units are not counted as capacity)."
        ),
        "POWER-CORD-AMPS.message": (
            "With the redundant PSUs failed, {wall} W at the wall is carried by {cords} cords: about {amps} A each at "
            "{volts} V, above the {limit} A of a C19/C20 cord."
        ),
        "POWER-CORD-AMPS.message.low": (
            "On low line (100-127 V), with the redundant PSUs failed, {wall} W at the wall is carried by {cords} "
            "cords: about {amps} A each, above the {limit} A a {circuit} A branch circuit carries continuously "
            "({pct}%)."
        ),
        "POWER-CORD-AMPS.fix": (
            "Add PSUs so each cord carries less, supply a higher voltage, or confirm the PSU inlet and its current "
            "rating with the vendor."
        ),
        "POWER-CORD-AMPS.message.assumed": (
            "With the redundant PSUs failed, {cords} cords carry about {amps} A each at {volts} V, above the {limit} A "
            "limit, if {psu} is of the lowest 80 PLUS class; at 80 PLUS Titanium it would be {best} A. Its class is "
            "not in the catalog, so the cord current is unknown, not a failure."
        ),
        "POWER-CORD-AMPS.fix.assumed": (
            "Ask the vendor for the PSU's efficiency (80 PLUS class or curve) or the system's maximum input power and "
            "add it in a user catalog directory."
        ),
        "POWER-CORD-AMPS.message.office": (
            "In an office or lab, with the redundant PSUs failed, {wall} W at the wall is carried by {cords} cords: "
            "about {amps} A each at {volts} V, above the {limit} A a {circuit} A wall socket carries continuously "
            "({pct}%)."
        ),
        "POWER-CORD-AMPS.message.office_low": (
            "In an office or lab on 100-127 V, with the redundant PSUs failed, {wall} W at the wall is carried by "
            "{cords} cords: about {amps} A each at {volts} V, above the {limit} A a {circuit} A receptacle (NEMA "
            "5-15) carries continuously ({pct}%)."
        ),
        "POWER-CORD-AMPS.fix.office": (
            "Give the server a {circuit} A-plus dedicated circuit and socket (ask an electrician), or place it in a "
            "machine room."
        ),
        "POWER-CORD-AMPS.fix.office_low": (
            "Use a 20 A circuit with a NEMA 5-20 receptacle or 200-240 V (ask an electrician), or place it in a "
            "machine room."
        ),
        "POWER-CORD-AMPS.fix.low": (
            "Supply 200-240 V (high line), or give each PSU its own larger circuit (ask an electrician)."
        ),
        "POWER-EFFICIENCY-ASSUMED.message": (
            "The catalog has no 80 PLUS class for PSU {psu}: the wall power, {wall} W, assumes the lowest 80 PLUS "
            "level ({eff}% efficient at this load), an estimate on the safe side."
        ),
        "POWER-EFFICIENCY-ASSUMED.fix": (
            "Ask the vendor for the PSU's 80 PLUS class (or efficiency curve) and add its efficiency in a user catalog "
            "directory."
        ),
        "POWER-RACK-UNITS.message": plural(
            "{servers} server × {units}U = {total}U per rack, more than the rack's {usable} usable units.",
            "{servers} servers × {units}U = {total}U per rack, more than the rack's {usable} usable units.",
            "servers",
        ),
        "POWER-RACK-UNITS.fix": plural(
            (
                "Put at most {fit} server in a rack, or set the racks' real usable units (rack_units_usable) in the "
                "policy."
            ),
            (
                "Put at most {fit} servers in a rack, or set the racks' real usable units (rack_units_usable) in the "
                "policy."
            ),
            "fit",
        ),
        "POWER-PSU-FORM.message": "PSU {psu} is {form}, but the PSU bays of {chassis} take {takes}.",
        "POWER-PSU-FORM.fix": "Choose a PSU of the form the chassis takes.",
        "POWER-PSU-FORM.message.system": (
            "PSU {psu} is the power supply module of {systems} only; it does not fit {chassis}."
        ),
        "POWER-PSU-FORM.fix.system": (
            "Choose the PSU the chassis' vendor specifies for it, or a PSU sold for any chassis of its form."
        ),
        "power.form.atx": "an ATX desktop unit",
        "power.form.server": "a hot-swap server module",
        "POWER-LOW-LINE-DERATED.message": (
            "PSU {psu} delivers only {low} W on 100-127 V ({high} W on 200-240 V); capacity is counted at {low} W."
        ),
        "POWER-LOW-LINE-DERATED.fix": "Supply 200-240 V where possible.",
        "POWER-PSU-BAYS.message": plural(
            "{count} PSU do not fit the {bays} PSU bays of {chassis}.",
            "{count} PSUs do not fit the {bays} PSU bays of {chassis}.",
            "count",
        ),
        "POWER-PSU-BAYS.fix": "Use larger PSUs so fewer are needed, or another chassis.",
        "POWER-PSU-MIXED.message": (
            "{chassis} ships with {included} but {chosen} is chosen: mixing PSU models in one chassis is not supported."
        ),
        "POWER-PSU-MIXED.fix": "Use the platform's PSU model, or confirm a full replacement with the vendor.",
        "POWER-RACK-LIMIT.message": plural(
            "{servers} server × {draw} W at the wall = {rack} kW per rack, above the rack/circuit limit of {limit} kW.",
            (
                "{servers} servers × {draw} W at the wall = {rack} kW per rack, above the rack/circuit limit of "
                "{limit} kW."
            ),
            "servers",
        ),
        "POWER-RACK-LIMIT.fix": plural(
            "Put at most {fit} server in a rack, or raise the rack's power.",
            "Put at most {fit} servers in a rack, or raise the rack's power.",
            "fit",
        ),
        "POWER-TRANSIENT.message": (
            "PCIe add-in-card power excursions (TDP × {factor} for ~100 µs, PCIe CEM 5.0) can reach {peak} W, above "
            "the ATX PSUs' peak tolerance of {capacity} W ({tolerance}% of rated, ATX 3.0)."
        ),
        "POWER-TRANSIENT.fix": (
            "Add PSU headroom, or check the PSU's peak rating and set psu_peak_tolerance_pct in the policy."
        ),
        "POWER-UNKNOWN-WATTS.message": "No sourced wattage for: {parts}; they are left out of the power estimate.",
        "POWER-ESTIMATED-WATTS.message": (
            "No vendor wattage for these parts; counted at the policy's planning figure: {parts}."
        ),
        "POWER-ESTIMATED-WATTS.fix": (
            "Add the vendor's maximum power in a user catalog directory, or adjust the fallbacks in the policy."
        ),
        "POWER-UNKNOWN-WATTS.fix": "Ask the vendor for the maximum power, or add it in a user catalog directory.",
    }
)

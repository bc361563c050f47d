"""Cooling rules: GPU TDP per slot, passive cards, open-air cards, airflow, rack density, fan redundancy.

Numbers: airflow CFM = 3.16 × W / ΔT(°F) with ΔT 20 °F (insideHPC/Dell, fanacdc) or the seed guidance
of about 500 CFM per GPU (policy ``airflow_basis`` picks which one the rule enforces); liquid cooling
above 40 kW per rack and at most two open-air consumer cards per chassis (policy choices, docs/sources.md §S).
Chassis limits (max GPU TDP, passive-ready, airflow, fan redundancy) come from the catalog.
"""

from __future__ import annotations

from catalog.loader import Catalog
from catalog.models import GpuCooling
from procurement.budgets.heat import HeatBudget as HeatBudget  # re-exported: procurement.budgets is its home
from procurement.budgets.heat import heat_budget
from procurement.findings import Family, Finding, Severity
from procurement.messages import plural, register
from procurement.plan import Plan
from procurement.policy import Policy
from procurement.rules.base import fmt_w, make, resolve
from procurement.rules.registry import rule

FAMILY: Family = "cooling"


_GPU_CHASSIS = ("gpu.model", "server.chassis")


@rule(FAMILY, "COOLING-GPU-TDP", step=3, item="cooling")
def gpu_tdp(plan: Plan, catalog: Catalog, policy: Policy) -> list[Finding]:
    """COOLING-GPU-TDP: the GPU's TDP is above what the chassis cools per GPU position."""
    p = resolve(plan, catalog)
    if p.gpu is None or p.chassis is None or p.gpu.tdp_w is None or p.gpu_count == 0:
        return []
    limit = p.chassis.max_gpu_tdp_w
    if limit is None or p.gpu.tdp_w <= limit:
        return []  # an unknown limit is not guessed
    return [
        make(
            "COOLING-GPU-TDP",
            Severity.ERROR,
            _GPU_CHASSIS,
            gpu=p.gpu.name,
            tdp=fmt_w(p.gpu.tdp_w),
            chassis=p.chassis.name,
            limit=fmt_w(limit),
        )
    ]


@rule(FAMILY, "COOLING-PASSIVE-GPU", step=3, item="cooling")
def passive_gpu(plan: Plan, catalog: Catalog, policy: Policy) -> list[Finding]:
    """COOLING-PASSIVE-GPU: a passive data-centre card in a chassis without the airflow built for it."""
    p = resolve(plan, catalog)
    if p.gpu is None or p.chassis is None or p.gpu_count == 0:
        return []
    if p.gpu.cooling != GpuCooling.PASSIVE or p.chassis.passive_gpu_ready:
        return []
    return [
        make(
            "COOLING-PASSIVE-GPU",
            Severity.ERROR,
            _GPU_CHASSIS,
            gpu=p.gpu.name,
            chassis=p.chassis.name,
        )
    ]


@rule(FAMILY, "COOLING-OPEN-AIR", step=3, item="cooling")
def open_air(plan: Plan, catalog: Catalog, policy: Policy) -> list[Finding]:
    """COOLING-OPEN-AIR: more open-air (axial-fan) cards in one chassis than the policy allows."""
    p = resolve(plan, catalog)
    if p.gpu is None or p.gpu.cooling != GpuCooling.ACTIVE or p.gpu_count <= policy.max_open_air_gpus:
        return []
    return [
        make(
            "COOLING-OPEN-AIR",
            Severity.WARNING,
            ("gpu.count", "gpu.model"),
            count=p.gpu_count,
            gpu=p.gpu.name,
            limit=policy.max_open_air_gpus,
        )
    ]


@rule(FAMILY, "COOLING-AIRFLOW", "COOLING-AIRFLOW-PER-GPU", "COOLING-AIRFLOW-UNKNOWN", step=3, item="cooling")
def airflow(plan: Plan, catalog: Catalog, policy: Policy) -> list[Finding]:
    """COOLING-AIRFLOW / -PER-GPU: airflow needed (from heat, or per GPU) above the chassis' rated airflow;
    COOLING-AIRFLOW-UNKNOWN: an air-cooled rack chassis whose airflow the catalog does not have (info, naming
    both airflow figures the plan needs, so the buyer can ask the vendor)."""
    p = resolve(plan, catalog)
    if p.chassis is None or p.chassis.cooling == "liquid" or not p.gpu_count:
        return []
    h = heat_budget(plan, catalog, policy, p)
    if p.chassis.airflow_cfm is None:
        if p.chassis.form != "rack":
            return []
        return [make("COOLING-AIRFLOW-UNKNOWN", Severity.INFO, ("server.chassis", "gpu.count"),
                     chassis=p.chassis.name, per_gpu_need=fmt_w(h.cfm_per_gpu_rule), gpus=h.gpu_count,
                     per_gpu=f"{policy.airflow_cfm_per_gpu:g}", heat_need=fmt_w(h.cfm_from_heat),
                     heat=fmt_w(h.heat_w), dt=f"{policy.airflow_delta_t_f:g}")]
    if h.required_cfm <= (h.chassis_cfm or 0):
        return []
    key = "COOLING-AIRFLOW" if h.basis == "heat" else "COOLING-AIRFLOW-PER-GPU"
    return [
        make(
            key,
            Severity.WARNING,
            ("server.chassis", "gpu.count"),
            need=fmt_w(h.required_cfm),
            have=fmt_w(h.chassis_cfm or 0),
            chassis=p.chassis.name,
            heat=fmt_w(h.heat_w),
            dt=f"{policy.airflow_delta_t_f:g}",
            gpus=h.gpu_count,
            per_gpu=f"{policy.airflow_cfm_per_gpu:g}",
        )
    ]


@rule(FAMILY, "COOLING-LIQUID", step=3, item="cooling")
def liquid(plan: Plan, catalog: Catalog, policy: Policy) -> list[Finding]:
    """COOLING-LIQUID: rack density above the liquid-cooling threshold with an air-cooled chassis."""
    p = resolve(plan, catalog)
    if p.chassis is None:
        return []
    h = heat_budget(plan, catalog, policy, p)
    if not h.needs_liquid or h.liquid_cooled:
        return []
    ref = p.chassis.reference
    servers = plan.server.servers_per_rack
    if ref is not None and ref.rack_cooling == "air" and ref.servers_per_rack and servers <= ref.servers_per_rack:
        # within the vendor's own air-cooled rack design: both figures side by side; still a warning, since the
        # room must carry that heat by air (the vendor's design assumes it does)
        return [make("COOLING-LIQUID", Severity.WARNING, ("server.chassis", "server.servers_per_rack"),
                     variant="reference", rack=f"{h.rack_kw:.1f}", btu=fmt_w(h.rack_btu_h),
                     limit=f"{h.liquid_threshold_kw:g}", chassis=p.chassis.name, servers=servers,
                     ref_servers=ref.servers_per_rack, cite=ref.cite)]
    return [
        make(
            "COOLING-LIQUID",
            Severity.WARNING,
            ("server.chassis", "server.servers_per_rack"),
            rack=f"{h.rack_kw:.1f}",
            btu=fmt_w(h.rack_btu_h),
            limit=f"{h.liquid_threshold_kw:g}",
        )
    ]


@rule(FAMILY, "COOLING-FAN-REDUNDANCY", "COOLING-FAN-REDUNDANCY-UNKNOWN", step=3, item="cooling")
def fan_redundancy(plan: Plan, catalog: Catalog, policy: Policy) -> list[Finding]:
    """COOLING-FAN-REDUNDANCY: a data-centre deployment in an air-cooled chassis whose vendor says it has no
    redundant fans (warning), or whose fan redundancy the catalog does not know (info: confirm it)."""
    p = resolve(plan, catalog)
    ch = p.chassis
    if ch is None or ch.fan_redundancy or plan.requirements.deployment != "datacenter" or ch.cooling == "liquid":
        return []
    known_without = ch.fan_redundancy is False
    return [
        make(
            "COOLING-FAN-REDUNDANCY" if known_without else "COOLING-FAN-REDUNDANCY-UNKNOWN",
            Severity.WARNING if known_without else Severity.INFO,
            ("server.chassis",),
            chassis=ch.name,
        )
    ]



register(
    {
        "COOLING-GPU-TDP.message": (
            "{gpu} is rated {tdp} W, above the {limit} W per GPU position that {chassis} can cool."
        ),
        "COOLING-GPU-TDP.fix": "Choose a chassis rated for hotter GPUs, or a lower-power GPU.",
        "COOLING-PASSIVE-GPU.message": (
            "{gpu} is a passively cooled data-centre card, but {chassis} has no airflow built for it."
        ),
        "COOLING-PASSIVE-GPU.fix": "Choose a server chassis qualified for passive GPUs.",
        "COOLING-OPEN-AIR.message": plural(
            "{count} open-air {gpu} card in one chassis (at most {limit}): they recirculate hot air and throttle.",
            "{count} open-air {gpu} cards in one chassis (at most {limit}): they recirculate hot air and throttle.",
            "gpu",
        ),
        "COOLING-OPEN-AIR.fix": "Use blower or passive professional cards, or fewer GPUs.",
        "COOLING-AIRFLOW.message": (
            "Removing {heat} W at a {dt} °F rise needs about {need} CFM; {chassis} is rated {have} CFM."
        ),
        "COOLING-AIRFLOW.fix": "Choose a chassis with more airflow, fewer GPUs, or cooler inlet air.",
        "COOLING-AIRFLOW-PER-GPU.message": plural(
            "{gpus} GPU at {per_gpu} CFM each need about {need} CFM; {chassis} is rated {have} CFM.",
            "{gpus} GPUs at {per_gpu} CFM each need about {need} CFM; {chassis} is rated {have} CFM.",
            "gpus",
        ),
        "COOLING-AIRFLOW-PER-GPU.fix": "Choose a chassis with more airflow, or fewer GPUs.",
        "COOLING-LIQUID.message": (
            "Rack heat {rack} kW ({btu} BTU/h, at the servers' maximum wall power) is above {limit} kW: air cooling "
            "will not keep up; plan liquid cooling."
        ),
        "COOLING-AIRFLOW-UNKNOWN.message": plural(
            (
                "The catalog has no rated airflow (CFM) for {chassis}: at the configuration guide's {per_gpu} CFM per "
                "GPU, {gpus} GPU need about {per_gpu_need} CFM; removing {heat} W at a {dt} °F rise needs about "
                "{heat_need} CFM. Whether the chassis moves that much is unknown."
            ),
            (
                "The catalog has no rated airflow (CFM) for {chassis}: at the configuration guide's {per_gpu} CFM per "
                "GPU, {gpus} GPUs need about {per_gpu_need} CFM; removing {heat} W at a {dt} °F rise needs about "
                "{heat_need} CFM. Whether the chassis moves that much is unknown."
            ),
            "gpus",
        ),
        "COOLING-AIRFLOW-UNKNOWN.fix": (
            "Ask the vendor for the chassis' rated airflow (CFM) at full load and its allowed inlet temperature."
        ),
        "COOLING-LIQUID.fix": "Choose a liquid-cooled platform, or put fewer servers in each rack.",
        "COOLING-LIQUID.message.reference": (
            "{rack} kW per rack ({btu} BTU/h) is above this policy's {limit} kW liquid-cooling threshold, but within "
            "the vendor's air-cooled reference design: {ref_servers} × {chassis} per rack ({cite}); this plan puts "
            "{servers} in a rack."
        ),
        "COOLING-LIQUID.fix.reference": (
            "Confirm with the facility that the room's air cooling removes {rack} kW per rack, as the vendor's design "
            "assumes (liquid_cooling_rack_kw is a policy choice, docs/sources.md §S)."
        ),
        "COOLING-FAN-REDUNDANCY.message": (
            "{chassis} has no redundant fans: one fan failure can throttle or stop the GPUs."
        ),
        "COOLING-FAN-REDUNDANCY.fix": "For a data centre choose a chassis with redundant hot-swap fans.",
        "COOLING-FAN-REDUNDANCY-UNKNOWN.message": (
            "The catalog does not say whether {chassis} has redundant fans; without them one fan failure can throttle "
            "or stop the GPUs."
        ),
        "COOLING-FAN-REDUNDANCY-UNKNOWN.fix": "Confirm fan redundancy (N+1) with the vendor.",
    }
)

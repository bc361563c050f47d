"""The heat budget: heat to remove, airflow needed (from heat or per GPU) and available, rack density.

Numbers: airflow CFM = 3.16 × W / ΔT(°F), the per-GPU rule of thumb and the liquid-cooling threshold come
from the policy (resources/policy/default.yaml, each with its source); chassis airflow from the catalog.
"""

from __future__ import annotations

from dataclasses import dataclass

from catalog.loader import Catalog
from procurement.budgets.parts import Parts, resolve, scope_for
from procurement.budgets.power import power_budget
from procurement.facility import BTU_H_PER_W
from procurement.plan import Plan
from procurement.policy import Policy


@dataclass(frozen=True)
class HeatBudget:
    """What the GUI's cooling gauge shows: heat to remove, airflow needed and available, rack density."""

    heat_w: float
    """All electrical power ends up as heat: the wall (AC) power of one server at its maximum."""
    gpu_count: int
    cfm_from_heat: float
    cfm_per_gpu_rule: float
    basis: str
    chassis_cfm: float | None
    rack_kw: float
    liquid_threshold_kw: float
    liquid_cooled: bool
    rack_btu_h: float = 0.0
    """Heat per rack in BTU/h (rack kW × 3412)."""
    fan_redundancy: bool | None = None

    @property
    def heat_btu_h(self) -> float:
        return self.heat_w * BTU_H_PER_W

    @property
    def required_cfm(self) -> float:
        return self.cfm_from_heat if self.basis == "heat" else self.cfm_per_gpu_rule

    @property
    def needs_liquid(self) -> bool:
        return self.rack_kw > self.liquid_threshold_kw


def heat_budget(plan: Plan, catalog: Catalog, policy: Policy, parts: Parts | None = None) -> HeatBudget:
    """The heat of one server (its estimated draw) and the airflow it needs (computed once per scope)."""
    scope = scope_for(plan, catalog, parts)
    if scope is None:
        return _heat_budget(plan, catalog, policy, parts or resolve(plan, catalog))
    key = ("heat", id(policy))
    if key not in scope.computed:
        scope.computed[key] = _heat_budget(plan, catalog, policy, scope.parts)
    budget: HeatBudget = scope.computed[key]
    return budget


def _heat_budget(plan: Plan, catalog: Catalog, policy: Policy, parts: Parts) -> HeatBudget:
    power = power_budget(plan, catalog, policy, parts)
    ch = parts.chassis
    gpus = parts.gpu_count if parts.gpu is not None else 0
    return HeatBudget(
        heat_w=power.ac_w,
        gpu_count=gpus,
        cfm_from_heat=policy.airflow_cfm_per_w_f * power.ac_w / policy.airflow_delta_t_f,
        cfm_per_gpu_rule=policy.airflow_cfm_per_gpu * gpus,
        basis=policy.airflow_basis,
        chassis_cfm=ch.airflow_cfm if ch else None,
        rack_kw=power.rack_kw,
        liquid_threshold_kw=policy.liquid_cooling_rack_kw,
        liquid_cooled=bool(ch and ch.cooling == "liquid"),
        rack_btu_h=power.rack_kw * 1000 * BTU_H_PER_W,
        fan_redundancy=ch.fan_redundancy if ch else None,
    )



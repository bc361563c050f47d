"""GPU recommendation: the reference decision tree (budget tier, scenario, memory tier), then a ranking of
the catalog's GPUs with reasons ("fits with N GPUs", price within budget, FP16 TFLOPS per 万元, power).

Decision tree (docs/sources.md §S, thresholds in the policy): budget < 5万 → consumer cards, 5-20万 → workstation /
professional cards, > 20万 → data-centre cards; training → high memory (≥ 32 GB), inference → mid memory
(16-80 GB), rendering → RTX (consumer/workstation), scientific → full-rate FP64 (half the FP32 rate, as on
GA100/GH100); memory tiers < 16 / 16-32 / 32-80 / > 80 GB → multi-GPU.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from catalog.loader import Catalog
from catalog.models import Chassis, Gpu, GpuFormFactor, Segment
from catalog.units import GIB_TO_GB
from procurement.budgets.cost import CostLine
from procurement.messages import Lang, plural, register, t
from procurement.plan import Requirements, Workload
from procurement.policy import Policy
from procurement.sizing.vram import VramEstimate, estimate_vram, memory_tier, memory_tier_label


@dataclass(frozen=True)
class Candidate:
    """One GPU model, how many of it the workload needs, and why it ranks where it does."""

    gpu: Gpu
    gpus_needed: int | None
    """Fewest GPUs (all nodes together) that hold the workload on each GPU under the cheapest parallelism
    scheme; None without an estimate or when no count does."""
    per_node: int
    max_per_node: int | None
    """Most of these GPUs one catalog platform holds (None: no platform in the catalog takes it)."""
    fits: bool
    gpu_cost_cny: float | None
    within_budget: bool | None
    tflops_per_wan: float | None
    gpu_power_w: float | None
    scenario_match: bool
    tier_match: bool
    reasons: tuple[str, ...]


@dataclass(frozen=True)
class Recommendation:
    budget_tier: str | None
    """'low' (< 5万), 'mid' (5-20万), 'high' (> 20万) or None without a budget."""
    memory_tier: str | None
    estimate: VramEstimate
    candidates: tuple[Candidate, ...]
    policy: Policy

    def summary(self, lang: Lang = "zh") -> list[str]:
        out = []
        if self.memory_tier:
            out.append(
                t(
                    "rec.memory_tier",
                    lang,
                    tier=memory_tier_label(self.memory_tier, self.policy, lang),
                    gb=f"{self.estimate.total_gb:,.0f}",
                )
            )
        if self.budget_tier:
            low, high = self.policy.budget_tiers_cny
            out.append(t(f"rec.budget_tier.{self.budget_tier}", lang, low=f"{low:,.0f}", high=f"{high:,.0f}",
                         low_wan=f"{low / 10_000:g}", high_wan=f"{high / 10_000:g}"))
        return out


def budget_tier(budget_cny: float | None, policy: Policy) -> str | None:
    if budget_cny is None:
        return None
    low, high = policy.budget_tiers_cny
    return "low" if budget_cny < low else "mid" if budget_cny <= high else "high"


def _tier_segments(tier: str | None) -> tuple[Segment, ...]:
    if tier == "low":
        return (Segment.CONSUMER,)
    if tier == "mid":
        return (Segment.WORKSTATION, Segment.CONSUMER)
    if tier == "high":
        return (Segment.DATACENTER,)
    return tuple(Segment)


def scenario_match(gpu: Gpu, workload: Workload, policy: Policy) -> bool:
    low, mid, high = policy.memory_tiers_gb
    mem = gpu.memory_gib  # nominal size as sold ("80 GB"), which the tiers refer to
    if workload in (Workload.TRAINING, Workload.FINE_TUNING):
        return mem >= mid
    if workload == Workload.INFERENCE:
        return low <= mem <= high
    if workload == Workload.RENDERING:
        return gpu.segment in (Segment.CONSUMER, Segment.WORKSTATION)
    if workload == Workload.SCIENTIFIC:
        # full-rate FP64 is an FP32:FP64 ratio of 2:1 (datasheets round, e.g. A100 19.5 / 9.7)
        return bool(gpu.fp64_tflops and gpu.fp32_tflops and round(gpu.fp32_tflops / gpu.fp64_tflops) <= 2)
    return True


def platform_capacity(gpu: Gpu, catalog: Catalog) -> int | None:
    """Most GPUs of this model one catalog platform holds (form factor, supported list, width, TDP)."""
    best: int | None = None
    for ch in catalog.all(Chassis):
        if ch.gpu_form_factor != gpu.form_factor or (ch.gpus_supported and gpu.id not in ch.gpus_supported):
            continue
        if gpu.tdp_w is not None and ch.max_gpu_tdp_w is not None and gpu.tdp_w > ch.max_gpu_tdp_w:
            continue
        width = gpu.slot_width or 2
        if gpu.form_factor == GpuFormFactor.PCIE and ch.max_gpu_slot_width and width > ch.max_gpu_slot_width:
            continue
        per_card = math.ceil(width / 2) if gpu.form_factor == GpuFormFactor.PCIE and width > 2 else 1
        n = ch.gpu_slots // per_card
        best = n if best is None else max(best, n)
    return best


def _wan(cny: float) -> str:
    return f"{cny / 10_000:,.1f}"


def _money(cny: float, lang: Lang) -> str:
    """Chinese text counts in 万 (the template says 万); English text gets full yuan, ¥73,600."""
    return _wan(cny) if lang == "zh" else f"¥{round(cny):,}"


def _candidate(
    gpu: Gpu,
    req: Requirements,
    est: VramEstimate,
    catalog: Catalog,
    policy: Policy,
    tier: str | None,
    lang: Lang,
) -> Candidate:
    mem_gb = gpu.memory_gib * GIB_TO_GB
    nodes = req.nodes
    cap = platform_capacity(gpu, catalog)
    # per GPU under the cheapest parallelism, tensor parallel within one platform's GPUs
    needed = est.gpus_needed(mem_gb, per_node=cap or 8, nodes=nodes, gpu_name=gpu.name)
    per_node = math.ceil((needed or 1) / nodes)
    fits = cap is not None and per_node <= cap and (needed is not None or not est.known)
    reasons: list[str] = []
    if needed is not None:
        key = "rec.fits" if fits else "rec.no_fit"
        reasons.append(
            t(
                key,
                lang,
                n=needed,
                per_node=per_node,
                mem=f"{mem_gb:,.0f}",
                have=f"{mem_gb * needed:,.0f}",
                need=f"{est.total_gb:,.0f}",
                cap=cap or 0,
            )
        )
    elif est.known:
        reasons.append(t("rec.no_count", lang, mem=f"{mem_gb:,.0f}"))
    if cap is None:
        reasons.append(t("rec.no_platform", lang))
    count = per_node * nodes
    # VAT-inclusive like the budget: a retail price that includes VAT is not taxed again (budgets/cost.py)
    line = CostLine("gpu.model", gpu.id, gpu.name, count, gpu.price_cny, gpu.price_includes_vat)
    cost = line.gross_cny(policy) if gpu.price_cny is not None else None
    within = None if cost is None or req.budget_cny is None else cost <= req.budget_cny
    if cost is None:
        reasons.append(t("rec.unpriced", lang))
    else:
        key = "rec.cost" if within is None else "rec.within" if within else "rec.over"
        reasons.append(
            t(
                key,
                lang,
                n=count,
                price=_money(gpu.price_cny or 0, lang),
                cost=_money(cost, lang),
                budget=_money(req.budget_cny or 0, lang),
            )
        )
    per_wan = None
    if gpu.fp16_tensor_tflops and gpu.price_cny:
        per_wan = gpu.fp16_tensor_tflops / (gpu.price_cny / 10_000)
        reasons.append(t("rec.tflops", lang, tflops=f"{gpu.fp16_tensor_tflops:g}", per_wan=f"{per_wan:.1f}"))
    power = gpu.tdp_w * count if gpu.tdp_w is not None else None
    if power is not None:
        reasons.append(t("rec.power", lang, n=count, tdp=f"{gpu.tdp_w:,g}", total=f"{power:,.0f}"))
    scen = scenario_match(gpu, req.workload, policy)
    if scen:
        reasons.append(t(f"rec.scenario.{req.workload.value}", lang))
    tier_ok = gpu.segment in _tier_segments(tier)
    return Candidate(
        gpu, needed, per_node, cap, fits, cost, within, per_wan, power, scen, tier_ok, tuple(reasons)
    )


def recommend(
    req: Requirements, catalog: Catalog, policy: Policy, lang: Lang = "zh", limit: int | None = 10
) -> Recommendation:
    """Ranked GPU candidates for the requirements: fitting, within budget, on-scenario, on-tier, best
    FP16 TFLOPS per 万元 first."""
    est = estimate_vram(req, policy)
    tier = budget_tier(req.budget_cny, policy)
    cands = [_candidate(g, req, est, catalog, policy, tier, lang) for g in catalog.all(Gpu)]
    cands.sort(
        key=lambda c: (
            not c.fits,
            c.within_budget is False,
            # unknown is never good: a card of unknown price ranks after every card known to fit the budget
            c.within_budget is None and req.budget_cny is not None,
            not c.scenario_match,
            not c.tier_match,
            c.within_budget is None,
            -(c.tflops_per_wan or 0),
            c.gpus_needed or 0,
            c.gpu.id,
        )
    )
    return Recommendation(
        tier,
        memory_tier(est.total_gb, policy) if est.known else None,
        est,
        tuple(cands[:limit] if limit else cands),
        policy,
    )


register(
    {
        "rec.memory_tier": "About {gb} GB of GPU memory: {tier}.",
        "rec.budget_tier.low": "Budget under {low} CNY: consumer cards (RTX 4090 class).",
        "rec.budget_tier.mid": "Budget {low}-{high} CNY: workstation/professional cards.",
        "rec.budget_tier.high": "Budget over {high} CNY: data-centre GPUs.",
        "rec.fits": plural(
            (
                "fits with {n} GPU ({per_node} per node; under the cheapest parallelism each GPU's share fits its "
                "{mem} GB)"
            ),
            (
                "fits with {n} GPUs ({per_node} per node; under the cheapest parallelism each GPU's share fits its "
                "{mem} GB)"
            ),
            "n",
        ),
        "rec.no_count": "{mem} GB per GPU: no parallelism layout holds it (tried up to 64 nodes)",
        "rec.no_fit": plural(
            "needs {n} GPU ({per_node} per node), but a platform holds at most {cap}",
            "needs {n} GPUs ({per_node} per node), but a platform holds at most {cap}",
            "n",
        ),
        "rec.no_platform": "no catalog platform takes this GPU",
        "rec.unpriced": "no public reference price (on request)",
        "rec.cost": "GPUs {n} × {price}, {cost} incl. VAT",
        "rec.within": "GPUs {n} × {price}, {cost} incl. VAT, within the {budget} budget",
        "rec.over": "GPUs {n} × {price}, {cost} incl. VAT, over the {budget} budget",
        "rec.tflops": "FP16 tensor {tflops} TFLOPS, {per_wan} TFLOPS per ¥10,000",
        "rec.power": "GPU power {n} × {tdp} W = {total} W",
        "rec.scenario.training": "training: high memory",
        "rec.scenario.fine_tuning": "fine-tuning: high memory",
        "rec.scenario.inference": "inference: mid-size memory",
        "rec.scenario.rendering": "rendering: RTX card",
        "rec.scenario.scientific": "scientific: full-rate FP64",
        "rec.scenario.data_analysis": "data analysis",
    }
)

"""The one place where the GUI reads procurement.sizing: shapes its results for the step 1 and 2 pages."""

from __future__ import annotations

from dataclasses import dataclass, field

from catalog.loader import Catalog
from catalog.models import Gpu
from gui.numbers import integer, number, percent
from procurement.messages import Lang, t
from procurement.plan import Plan
from procurement.policy import Policy
from procurement.sizing import cloud_or_own, estimate_vram, recommend
from procurement.sizing.plan_sizing import size_plan

GIB_IN_GB = 1.073741824  # the estimate is in GB (10^9 B) like the reference formula; GPU memory is GiB


@dataclass(frozen=True)
class VramView:
    parts: list[tuple[str, str, float]]
    """(key, label in the plan's language, GB) per component on the busiest GPU (before the margin)."""
    per_gpu_gb: float
    """The busiest GPU's memory before the margin (the whole model on one GPU while no GPU is chosen)."""
    with_margin_gb: float
    margin_pct: float
    gpus: int = 0
    """GPUs the layout spans (0: no GPU chosen, the whole model on one GPU is shown)."""
    one_gpu_gb: float | None = None
    """Memory of ONE chosen GPU, GB (the limit each bar is compared with; never a sum)."""
    fits: bool | None = None
    scheme: str = ""
    comm: str = ""
    serving: str = ""
    notes: list[str] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    """The breakdown with its arithmetic, one line per component (tooltip)."""


@dataclass(frozen=True)
class GpuRow:
    gpu: Gpu
    rank: int | None = None
    fits_count: int | None = None
    """GPUs of this model the estimate needs (None: no estimate, or no platform holds that many)."""
    reasons: list[str] = field(default_factory=list)
    within_budget: bool | None = None
    """The GPUs for this plan (fits_count of them, incl. VAT) within requirements.budget_cny: None when the
    budget, the price or the count is unknown."""


def vram_for(plan: Plan, catalog: Catalog, policy: Policy, lang: Lang) -> VramView | None:
    """Memory on each GPU of the plan under its scheme (the whole model on one GPU while no GPU is chosen);
    None while the model size is unknown."""
    est = estimate_vram(plan.requirements, policy)
    if not est.known:
        return None
    sized = size_plan(plan, catalog, policy.vram_margin_pct)
    notes = [t(n, lang) for n in est.notes]
    if sized is None or sized.cluster is None:
        parts = [(c.key, c.label(lang), c.gb) for c in est.components]
        return VramView(parts, est.subtotal_gb, est.total_gb, est.margin_pct, notes=notes, lines=est.lines(lang))
    mem = sized.memory
    parts = [(k, t(f"vram.{k}", lang), v) for k, v in mem.breakdown().items() if v > 0]
    lines = [f"{label}: {number(gb, 2)} GB ({mem.formulas.get(k, '')})" for k, label, gb in parts]
    lines.append(f"{t('vram.total', lang)}: {number(mem.total, 1)} GB + {percent(sized.margin_pct)} = "
                 f"{number(sized.with_margin_gb, 1)} GB")
    serving = ""
    if sized.serving is not None:
        sv = sized.serving
        serving = t("vram.view.serving", lang, tokens=integer(sv.kv_tokens), conc=number(sv.max_concurrency, 1),
                    seq=integer(sized.case.seq))
        if sv.decode_tps_per_request:
            serving += " " + t("vram.view.decode", lang, one=number(sv.decode_tps_per_request),
                               agg=number(sv.decode_tps_aggregate or 0))
    return VramView(parts, mem.total, sized.with_margin_gb, sized.margin_pct, sized.parallel.gpus,
                    sized.cluster.gpu_memory_gb, sized.fits, sized.parallel.label(), sized.comm_text.get(lang, ""),
                    serving, notes, lines)


def advice_for(plan: Plan, catalog: Catalog, lang: Lang) -> list[str]:
    """Cloud-or-own: the recommendation first, then its reasons."""
    return list(cloud_or_own(plan, catalog, lang).reasons)


def gpu_rows(plan: Plan, catalog: Catalog, policy: Policy, lang: Lang) -> list[GpuRow]:
    """Every catalog GPU in the recommendation's rank order, with how many fit and why."""
    rec = recommend(plan.requirements, catalog, policy, lang, limit=None)
    rows = [
        # within the budget only for a known count: without an estimate the core prices one GPU per node
        GpuRow(c.gpu, i + 1, c.gpus_needed if c.fits else None, list(c.reasons),
               c.within_budget if c.fits and c.gpus_needed is not None else None)
        for i, c in enumerate(rec.candidates)
    ]
    seen = {r.gpu.id for r in rows}
    rows += [GpuRow(g) for g in sorted(catalog.all(Gpu), key=lambda g: g.name) if g.id not in seen]
    return rows


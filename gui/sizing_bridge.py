"""The one place where the GUI reads procurement.sizing: shapes its results for the step 1 and 2 pages."""

from __future__ import annotations

from dataclasses import dataclass, field

from catalog.loader import Catalog
from catalog.models import Gpu
from gui.numbers import integer, number, percent
from procurement.choices import gpu_choices
from procurement.messages import Lang, t
from procurement.plan import Plan
from procurement.policy import Policy
from procurement.sizing import cloud_or_own, estimate_vram
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
    """The row's place in step 2's table (1 = first): the sizing's order, the GPUs the rules exclude after the
    ones they accept (procurement.choices)."""
    fits_count: int | None = None
    """GPUs of this model the estimate needs (None: no estimate, or no platform holds that many)."""
    reasons: list[str] = field(default_factory=list)
    within_budget: bool | None = None
    """The GPUs for this plan (fits_count of them, incl. VAT) within requirements.budget_cny: None when the
    budget, the price or the count is unknown."""
    excluded_by: tuple[str, ...] = ()
    """Codes of the findings that rule this GPU out in this plan (empty: the rules accept it)."""
    exclusion: str = ""
    """Those findings as 'CODE: message' lines in the plan's language."""
    per_server: int = 1
    """gpu.count when this GPU is chosen: the sizing's count for it per server (1 without an estimate)."""
    sizing_rank: int | None = None
    """The sizing's own rank, before the rules moved the GPUs they exclude down."""
    priced: bool = True


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
    """Every catalog GPU in step 2's order (procurement.choices: the rules' exclusions below the GPUs they
    accept, each group in the recommendation's order), with how many fit, why, and what excludes it."""
    return [
        GpuRow(c.gpu, c.order, c.fits_count, list(c.reasons), c.within_budget, c.exclusion_codes(),
               c.exclusion_text(lang), c.per_server, c.rank, c.priced)
        for c in gpu_choices(plan, catalog, policy, lang)
    ]


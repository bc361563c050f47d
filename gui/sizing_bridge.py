"""The one place where the GUI reads procurement.sizing: shapes its results for the step 1 and 2 pages."""

from __future__ import annotations

from dataclasses import dataclass, field

from catalog.loader import Catalog
from catalog.models import Gpu
from procurement.messages import Lang, t
from procurement.plan import Plan
from procurement.policy import Policy
from procurement.sizing import cloud_or_own, estimate_vram, recommend

GIB_IN_GB = 1.073741824  # the estimate is in GB (10^9 B) like the reference formula; GPU memory is GiB


@dataclass(frozen=True)
class VramView:
    parts: list[tuple[str, float]]
    """(label in the plan's language, GB) for each component, the margin last."""
    total_gb: float
    have_gb: float | None = None
    """Memory of the chosen GPUs together (count × memory), in GB; None when none chosen."""
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


def vram_for(plan: Plan, catalog: Catalog, policy: Policy, lang: Lang) -> VramView | None:
    """The estimate for the requirements; None while the model size is unknown."""
    est = estimate_vram(plan.requirements, policy)
    if not est.known:
        return None
    parts = [(c.label(lang), c.gb) for c in est.components]
    parts.append((t("vram.margin", lang), est.margin_gb))
    gpu = catalog.gpu(plan.gpu.model)
    have = gpu.memory_gib * GIB_IN_GB * plan.gpu.count if gpu is not None and plan.gpu.count else None
    return VramView(parts, est.total_gb, have, [t(n, lang) for n in est.notes], est.lines(lang))


def advice_for(plan: Plan, catalog: Catalog, lang: Lang) -> list[str]:
    """Cloud-or-own: the recommendation first, then its reasons."""
    return list(cloud_or_own(plan, catalog, lang).reasons)


def gpu_rows(plan: Plan, catalog: Catalog, policy: Policy, lang: Lang) -> list[GpuRow]:
    """Every catalog GPU in the recommendation's rank order, with how many fit and why."""
    rec = recommend(plan.requirements, catalog, policy, lang, limit=None)
    rows = [
        GpuRow(c.gpu, i + 1, c.gpus_needed if c.fits else None, list(c.reasons))
        for i, c in enumerate(rec.candidates)
    ]
    seen = {r.gpu.id for r in rows}
    rows += [GpuRow(g) for g in sorted(catalog.all(Gpu), key=lambda g: g.name) if g.id not in seen]
    return rows

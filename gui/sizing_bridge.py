"""The one place where the GUI reads procurement.sizing: shapes its results for the step 1 and 2 pages."""

from __future__ import annotations

from dataclasses import dataclass, field

from catalog.loader import Catalog
from catalog.models import Gpu
from procurement.messages import Lang
from procurement.plan import Plan

try:  # sizing lands from the rules branch; until then the pages show "no estimate"
    from procurement import sizing as _sizing
except ImportError:  # pragma: no cover - only before the merge
    _sizing = None  # type: ignore[assignment]


@dataclass(frozen=True)
class VramView:
    parts: list[tuple[str, float]]
    """(key, GiB): weights, gradients, optimizer, activations, kv_cache, margin, other."""
    total_gib: float
    per_gpu_limit_gib: float | None = None
    note: str = ""


@dataclass(frozen=True)
class GpuRow:
    gpu: Gpu
    rank: int | None = None
    fits_count: int | None = None
    """GPUs of this model needed for the estimate (None: unknown or does not fit in any count)."""
    reasons: list[str] = field(default_factory=list)


def vram_for(plan: Plan, catalog: Catalog) -> VramView | None:
    if _sizing is None:
        return None
    return None


def advice_for(plan: Plan, lang: Lang) -> str | None:
    if _sizing is None:
        return None
    return None


def gpu_rows(plan: Plan, catalog: Catalog, lang: Lang) -> list[GpuRow]:
    """Every catalog GPU, the recommended ones first in their rank order, with why."""
    return [GpuRow(g) for g in sorted(catalog.all(Gpu), key=lambda g: g.name)]

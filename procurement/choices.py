"""The GPU choice as the rules see it: each ranked GPU tried in the plan, and the ones the rules exclude.

The sizing's ranking (procurement.sizing.recommend) knows memory, price and the budget class; the rules know the
rest (driver licence, export control, cooling). Step 2 used to rank first a GPU that step 3 and the checklist then
rejected (RTX 4090 D × 7 in a data centre: GeForce licence, seven open-air cards). Here every candidate is put
into the plan with the count the sizing gives it, the plan is evaluated once with the same rules as everywhere
else, and what it adds to the findings of the plan without a GPU decides:

- an unwaived **error** excludes the GPU;
- so do the warnings whose rule says the GPU cannot be used as planned (``EXCLUDING_WARNINGS``): the GeForce
  driver licence forbids data-centre deployment, more open-air cards than one chassis cools (the sizing already
  finds no chassis for them, sizing/derive.py), and a model the catalog marks as blocked for China
  (``Gpu.blocked_for_china``; the app quotes in CNY for buyers in China), or one whose total processing
  performance needs a US licence for China (LIC-EXPORT-TPP, ECCN 3A090.a), and a GPU without BF16 for a plan in
  BF16/FP16 (VRAM-BF16-UNSUPPORTED: it runs only as FP16 there). They stay warnings in the checklist so
  that saved and signed plans keep their verdicts; here they only order the table.

Passing GPUs keep the sizing's order; excluded ones follow, in the same order, with the findings that exclude
them (codes and messages). Unpriced GPUs are flagged, never ranked as cheap.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from catalog.loader import Catalog
from catalog.models import Gpu
from procurement.evaluation import evaluate
from procurement.findings import Finding, Severity
from procurement.messages import Lang
from procurement.plan import Plan, with_value
from procurement.policy import Policy
from procurement.sizing import recommend

EXCLUDING_WARNINGS = frozenset({"LIC-GEFORCE-DATACENTER", "COOLING-OPEN-AIR", "VRAM-BF16-UNSUPPORTED"})
"""Warnings that rule a GPU out of the choice (see the module docstring); LIC-EXPORT only for a blocked model."""


@dataclass(frozen=True)
class GpuChoice:
    """One catalog GPU as a choice for this plan."""

    gpu: Gpu
    rank: int | None
    """The sizing's rank (1 = its first); None for a GPU the sizing does not rank."""
    fits_count: int | None
    """GPUs of this model the memory estimate needs for the whole plan (None: no estimate, or none fits)."""
    per_server: int
    """The count tried in the plan (gpu.count is per server): the estimate's, or 1 without one."""
    reasons: tuple[str, ...] = ()
    within_budget: bool | None = None
    excluded_by: tuple[Finding, ...] = ()
    """The findings that rule this GPU out (empty: it passes)."""
    priced: bool = True
    order: int = 0
    """Position in the table: passing GPUs first in the sizing's order, then the excluded ones."""

    @property
    def excluded(self) -> bool:
        return bool(self.excluded_by)

    def exclusion_codes(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(f.rule for f in self.excluded_by))

    def exclusion_text(self, lang: Lang) -> str:
        """Why the rules exclude it, in ``lang``: 'RULE: message' per finding ('' when it passes)."""
        return "\n".join(f"{f.rule}: {f.message_text(lang)}" for f in self.excluded_by)


def _excludes(finding: Finding, gpu: Gpu) -> bool:
    if finding.waived is not None:
        return False
    if finding.severity == Severity.ERROR:
        return True
    if finding.rule == "LIC-EXPORT":
        return gpu.blocked_for_china is True
    if finding.rule == "LIC-EXPORT-TPP":  # no note, but its TPP needs a US licence for China (ECCN 3A090.a)
        return True
    return finding.rule in EXCLUDING_WARNINGS


def _key(f: Finding) -> tuple[str, tuple[str, ...]]:
    return f.rule, f.fields


def count_for(fits_count: int | None, nodes: int) -> int:
    """gpu.count (per server) for a GPU the estimate needs ``fits_count`` of in all: 1 without an estimate."""
    if not fits_count:
        return 1
    return -(-fits_count // max(nodes, 1))


def with_gpu(plan: Plan, gpu_id: str, fits_count: int | None) -> Plan:
    """The plan with this GPU chosen and the count the sizing gives it (never the previous GPU's count)."""
    plan = with_value(plan, "gpu.model", gpu_id)
    return with_value(plan, "gpu.count", count_for(fits_count, plan.requirements.nodes))


def gpu_choices(plan: Plan, catalog: Catalog, policy: Policy, lang: Lang = "zh") -> list[GpuChoice]:
    """Every catalog GPU as a choice for ``plan``, in table order (``GpuChoice.order``): the sizing's ranking
    with the GPUs the rules exclude moved below the passing ones."""
    rec = recommend(plan.requirements, catalog, policy, lang, limit=None)
    without = with_value(with_value(plan, "gpu.model", None), "gpu.count", 0)
    baseline = {_key(f) for f in evaluate(without, catalog, policy, lang).findings}
    ranked: list[tuple[Gpu, int | None, int | None, tuple[str, ...], bool | None]] = [
        # within the budget only for a known count: without an estimate the core prices one GPU per node
        (c.gpu, i + 1, c.gpus_needed if c.fits else None, c.reasons,
         c.within_budget if c.fits and c.gpus_needed is not None else None)
        for i, c in enumerate(rec.candidates)
    ]
    seen = {g.id for g, *_ in ranked}
    ranked += [(g, None, None, (), None) for g in sorted(catalog.all(Gpu), key=lambda g: g.name) if g.id not in seen]
    out: list[GpuChoice] = []
    for gpu, rank, fits, reasons, within in ranked:
        tried = with_gpu(plan, gpu.id, fits)
        findings = evaluate(tried, catalog, policy, lang).findings
        excluded = tuple(f for f in findings if _key(f) not in baseline and _excludes(f, gpu))
        out.append(GpuChoice(gpu, rank, fits, tried.gpu.count, reasons, within, excluded,
                             gpu.price_cny is not None or gpu.id in plan.prices))
    passing = [c for c in out if not c.excluded]
    rest = [c for c in out if c.excluded]
    return [replace(c, order=i + 1) for i, c in enumerate(passing + rest)]

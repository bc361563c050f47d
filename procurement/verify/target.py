"""Whether a verification report can come from the plan's target machine (a planning PC's report cannot)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from procurement.plan import Plan


@dataclass(frozen=True)
class NotTarget:
    """Why a report does not look like one of the plan's nodes.

    ``kind`` is "no_gpus" (the machine reported no GPU at all) or "other_gpu" (none of its GPUs is the
    model the plan buys); ``found`` names the GPUs it has, ``planned`` the plan's GPU (catalog id)."""

    kind: Literal["no_gpus", "other_gpu"]
    found: tuple[str, ...] = ()
    planned: str | None = None


def not_target(report: dict[str, Any], plan: Plan) -> NotTarget | None:
    """None when ``report`` may be from one of the plan's nodes; otherwise why it cannot be.

    A node of the plan has GPUs, and (when the plan has chosen one) at least one of the planned model.
    A node whose GPUs are only partly right (one fell off the bus, one wrong card) still matches: that is
    a failing check on the target, not a different machine."""
    gpus = [g for g in report.get("gpus") or [] if isinstance(g, dict)]
    if not gpus:
        return NotTarget("no_gpus", (), plan.gpu.model)
    planned = plan.gpu.model
    if planned is None:
        return None
    if any(g.get("catalog_id") == planned for g in gpus):
        return None
    names = tuple(dict.fromkeys(str(g.get("name") or g.get("catalog_id") or "?") for g in gpus))
    return NotTarget("other_gpu", names, planned)

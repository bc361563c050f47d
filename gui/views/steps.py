"""What the step list shows beside each step: its mark (ok, incomplete, info, warning, error) and why.

The status is the core's (procurement.evaluation.StepStatus: the worst finding of the step and, for step 5,
the attached verification reports' own verdicts, where a report that verified nothing is not a pass); this
module only picks which evaluation stands for the plan on screen.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from procurement.evaluation import Evaluation, StepStatus
    from procurement.findings import Finding
    from procurement.plan import Plan


@dataclass(frozen=True)
class StepMark:
    """One step's mark in the step list and what its tooltip says."""

    state: str
    """'ok', 'incomplete', 'info', 'warning' or 'error' (StepStatus.state)."""
    findings: int
    missing: tuple[str, ...]
    """Required choices still missing (keys for gui/plan_gaps.describe)."""
    failed_checks: int | None
    """Step 5 with reports that give a verdict: their failed checks; None otherwise."""


def _mark(status: StepStatus) -> StepMark:
    return StepMark(status.state, status.count, tuple(status.missing), status.failed_checks)


def step_marks(plan: Plan, evaluation: Evaluation | None, findings: Iterable[Finding]) -> dict[int, StepMark]:
    """Each purchase step's mark: the evaluation's status when it is of ``plan``; a plan edited since the last
    evaluation is marked from its own status with the findings shown until the new evaluation comes."""
    from procurement.evaluation import step_statuses

    steps = (evaluation.steps if evaluation is not None and evaluation.plan is plan
             else step_statuses(plan, tuple(findings)))
    return {step: _mark(status) for step, status in steps.items()}

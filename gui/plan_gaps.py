"""What the plan still lacks, per step: the one place that decides a step is "not started / incomplete"."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication

if TYPE_CHECKING:
    from procurement.plan import Plan


def missing_choices(plan: Plan) -> dict[int, list[str]]:
    """Step number → keys of the required choices still missing (empty steps are left out).

    Step 2 needs a GPU model and a count; step 3 a chassis, a CPU and a PSU; step 4 an OS, a driver branch
    and a CUDA release; step 5 at least one attached verification report. Step 1 has defaults throughout.
    """
    gaps: dict[int, list[str]] = {
        2: ["gpu"] if plan.gpu.model is None or plan.gpu.count == 0 else [],
        3: [key for key, value in (("chassis", plan.server.chassis), ("cpu", plan.server.cpu),
                                   ("psu", plan.server.psu.part)) if value is None],
        4: [key for key, value in (("os", plan.software.os), ("driver", plan.software.driver),
                                   ("cuda", plan.software.cuda)) if value is None],
        5: [] if plan.verification else ["verification"],
    }
    return {step: keys for step, keys in gaps.items() if keys}


def choice_label(key: str) -> str:
    """What the user still has to choose, in the current UI language."""
    translate = QCoreApplication.translate  # lupdate reads translate("Context", "text")
    labels = {
        "gpu": translate("PlanGaps", "a GPU model and count"),
        "chassis": translate("PlanGaps", "a chassis"),
        "cpu": translate("PlanGaps", "a CPU"),
        "psu": translate("PlanGaps", "a power supply"),
        "os": translate("PlanGaps", "an operating system"),
        "driver": translate("PlanGaps", "a driver branch"),
        "cuda": translate("PlanGaps", "a CUDA release"),
        "verification": translate("PlanGaps", "a verification report"),
    }
    return labels.get(key, key)


def describe(keys: list[str]) -> str:
    """'a chassis, a CPU, a power supply' (zh: '机箱、CPU、电源')."""
    sep = QCoreApplication.translate("PlanGaps", ", ")
    return sep.join(choice_label(k) for k in keys)

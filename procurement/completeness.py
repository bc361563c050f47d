"""What the plan still lacks, per step: the one place that decides a step is "not started / incomplete"."""

from __future__ import annotations

from typing import TYPE_CHECKING

from procurement.messages import Lang, register, t

if TYPE_CHECKING:
    from procurement.plan import Plan

# The choices a purchase needs before it can be checked as a whole (steps 2-4). Step 5 (a verification
# report) comes after delivery, so a plan without one is complete for `check`.
PURCHASE_STEPS = (2, 3, 4)


def missing_choices(plan: Plan) -> dict[int, list[str]]:
    """Step number → keys of the required choices still missing (empty steps are left out).

    Step 1 needs the model to run (a preset or its size in parameters: without it no memory need can be
    estimated, so a blank step 1 is not "done" although its other fields have defaults); step 2 a GPU model
    and a count; step 3 a chassis, a CPU and a PSU; step 4 an OS, a driver branch and a CUDA release;
    step 5 at least one attached verification report.
    """
    req = plan.requirements
    gaps: dict[int, list[str]] = {
        1: ["model"] if req.model_preset is None and req.model_params_b is None else [],
        2: ["gpu"] if plan.gpu.model is None or plan.gpu.count == 0 else [],
        3: [key for key, value in (("chassis", plan.server.chassis), ("cpu", plan.server.cpu),
                                   ("psu", plan.server.psu.part)) if value is None],
        4: [key for key, value in (("os", plan.software.os), ("driver", plan.software.driver),
                                   ("cuda", plan.software.cuda)) if value is None],
        5: [] if plan.verification else ["verification"],
    }
    return {step: keys for step, keys in gaps.items() if keys}


def describe_missing(keys: list[str], lang: Lang) -> str:
    """'a chassis, a CPU, a power supply' (zh: '机箱、CPU、电源') for the command line and reports."""
    return t("gaps.sep", lang).join(t(f"gaps.{key}", lang) for key in keys)


register(
    {
        "gaps.model": "a model (a preset or its size)",
        "gaps.gpu": "a GPU model and count",
        "gaps.chassis": "a chassis",
        "gaps.cpu": "a CPU",
        "gaps.psu": "a power supply",
        "gaps.os": "an operating system",
        "gaps.driver": "a driver branch",
        "gaps.cuda": "a CUDA release",
        "gaps.verification": "a verification report",
        "gaps.sep": ", ",
    }
)

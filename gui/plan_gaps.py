"""How the GUI names what a plan still lacks (the decision itself: procurement.completeness)."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from procurement.completeness import missing_choices

__all__ = ["choice_label", "describe", "missing_choices"]


def choice_label(key: str) -> str:
    """What the user still has to choose, in the current UI language."""
    translate = QCoreApplication.translate  # lupdate reads translate("Context", "text")
    labels = {
        "model": translate("PlanGaps", "a model (a preset or its size)"),
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

"""Sizing: VRAM estimate, GPU recommendation, derived defaults for a GPU choice, cloud-or-own advice."""

from __future__ import annotations

from procurement.sizing.cloud import CloudAdvice, cloud_or_own
from procurement.sizing.derive import DerivedDefaults, apply_defaults, derive_defaults
from procurement.sizing.recommend import Candidate, Recommendation, recommend
from procurement.sizing.vram import (
    MODEL_PRESETS,
    ModelPreset,
    VramComponent,
    VramEstimate,
    estimate_vram,
    memory_tier,
    memory_tier_label,
)

__all__ = [
    "MODEL_PRESETS",
    "Candidate",
    "CloudAdvice",
    "DerivedDefaults",
    "ModelPreset",
    "Recommendation",
    "VramComponent",
    "VramEstimate",
    "apply_defaults",
    "cloud_or_own",
    "derive_defaults",
    "estimate_vram",
    "memory_tier",
    "memory_tier_label",
    "recommend",
]

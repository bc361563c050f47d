"""A DeepSpeed configuration (ds_config.json) as the sizing model's ZeRO settings.

Read: ``zero_optimization.stage``, the bucket sizes (``reduce_bucket_size``, ``allgather_bucket_size``,
``stage3_prefetch_bucket_size``, ``stage3_max_live_parameters``; absent ones keep DeepSpeed's defaults),
``overlap_comm``, ``offload_optimizer`` / ``offload_param`` to ``cpu`` or ``nvme``, and
``activation_checkpointing.cpu_checkpointing``. ``"auto"`` is what the Hugging Face Trainer fills in
(transformers DeepSpeed guide): ``reduce_bucket_size`` = hidden², ``stage3_prefetch_bucket_size`` =
0.9 × hidden²; other ``"auto"`` fields keep DeepSpeed's defaults.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from procurement.json_input import JsonInputError, read_json
from procurement.sizing.memory import SchemeName, ZeroBuffers

MAX_BYTES = 1 << 20
"""A ds_config is a few hundred bytes; anything over 1 MiB is not one."""
STAGES: dict[int, SchemeName] = {0: "dp", 1: "zero1", 2: "zero2", 3: "zero3"}


class DeepSpeedConfigError(ValueError):
    """The file is not a DeepSpeed configuration this model can read."""


@dataclass(frozen=True)
class DeepSpeedSettings:
    scheme: SchemeName | None
    buffers: ZeroBuffers
    offload_optimizer: bool
    offload_params: bool
    offload_activations: bool


def _number(zo: dict[str, Any], key: str, auto: float | None) -> float | None:
    if key not in zo:
        return None
    v = zo[key]
    if v == "auto":
        return auto
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or v < 0:
        raise DeepSpeedConfigError(f"zero_optimization.{key} must be a non-negative number or \"auto\"")
    return float(v)


def _device(section: Any) -> bool:
    if section is None:
        return False
    if not isinstance(section, dict):
        raise DeepSpeedConfigError("offload sections must be objects with a \"device\"")
    device = section.get("device", "none")
    if device not in ("cpu", "nvme", "none", None):
        raise DeepSpeedConfigError(f"offload device {device!r} is not cpu, nvme or none")
    return device in ("cpu", "nvme")


def parse(cfg: Any, hidden: int) -> DeepSpeedSettings:
    """The settings of a loaded ds_config for a model of ``hidden`` width."""
    if not isinstance(cfg, dict):
        raise DeepSpeedConfigError("a DeepSpeed configuration is a JSON object")
    zo = cfg.get("zero_optimization", {})
    if not isinstance(zo, dict):
        raise DeepSpeedConfigError("zero_optimization must be an object")
    stage = zo.get("stage")
    if stage is not None and stage not in STAGES:
        raise DeepSpeedConfigError("zero_optimization.stage must be 0, 1, 2 or 3")
    square = float(hidden * hidden) if hidden else None
    sizes: dict[str, Any] = {}
    for key, auto in (("reduce_bucket_size", square), ("allgather_bucket_size", None),
                      ("stage3_prefetch_bucket_size", 0.9 * square if square else None),
                      ("stage3_max_live_parameters", None)):
        v = _number(zo, key, auto)
        if v is not None:
            sizes[key] = v
    b = replace(ZeroBuffers(), **sizes)
    overlap = zo.get("overlap_comm")
    if overlap is not None and not isinstance(overlap, bool):
        raise DeepSpeedConfigError("zero_optimization.overlap_comm must be true or false")
    b = replace(b, overlap_comm=overlap if overlap is not None else (stage == 3 if stage is not None else None))
    ac = cfg.get("activation_checkpointing", {})
    if not isinstance(ac, dict):
        raise DeepSpeedConfigError("activation_checkpointing must be an object")
    return DeepSpeedSettings(STAGES[stage] if stage is not None else None, b,
                             _device(zo.get("offload_optimizer")), _device(zo.get("offload_param")),
                             bool(ac.get("cpu_checkpointing", False)))


def read_config(path: str | Path) -> Any:
    """The parsed ds_config file ``path``, read with the one bounded JSON reader: a FIFO or a device is
    refused unread (``stat`` says 0 bytes for both, and reading one hung ``size`` and step 1's Load button),
    at most MAX_BYTES are read, and duplicate keys, NaN and runaway nesting are refused with the line."""
    try:
        return read_json(path, limit=MAX_BYTES, max_depth=16)
    except JsonInputError as exc:
        raise DeepSpeedConfigError(f"{exc}; not a DeepSpeed configuration") from None


def read(path: str | Path, hidden: int) -> DeepSpeedSettings:
    """The ZeRO settings of the ds_config file ``path`` (read by :func:`read_config`)."""
    return parse(read_config(path), hidden)

"""The whole-model VRAM estimate of step 1 (all of the model on one GPU), with a breakdown a buyer can read.

It is the single-GPU view of procurement.sizing.memory (formulas and sources there and in docs/sizing.md):
weights, gradients, optimizer state (fp32 master weights included, ZeRO's K = 12 for mixed-precision AdamW),
activations (Korthikanti et al.; with gradient checkpointing where the recipe uses it), the KV cache and
the framework overhead, plus the policy's margin (``vram_margin_pct``). Whether the model fits the plan's
GPUs is decided per GPU under a parallelism scheme by procurement.sizing.plan_sizing, never by dividing
this total by the GPU count. GB here are 10^9 bytes.
"""

from __future__ import annotations

from dataclasses import dataclass

from procurement.llm.presets import MODELS
from procurement.llm.shapes import ModelSpec
from procurement.messages import Lang, register, t
from procurement.plan import Requirements, TrainingMode
from procurement.policy import Policy
from procurement.sizing.memory import Case, Parallel, per_gpu
from procurement.sizing.plan_sizing import case_for, effective_mode, gpus_needed_for

ModelPreset = ModelSpec
MODEL_PRESETS: dict[str, ModelSpec] = MODELS
COMPONENT_KEYS = ("weights", "gradients", "optimizer", "activations", "kv_cache", "overhead")
__all__ = ["MODEL_PRESETS", "ModelPreset", "VramComponent", "VramEstimate", "effective_mode", "estimate_vram"]


@dataclass(frozen=True)
class VramComponent:
    key: str
    """'weights', 'gradients', 'optimizer', 'activations', 'kv_cache', 'overhead'."""
    gb: float
    formula: str
    """The arithmetic, e.g. '7.62 B params × 2 B'."""

    def label(self, lang: Lang = "zh") -> str:
        return t(f"vram.{self.key}", lang)


@dataclass(frozen=True)
class VramEstimate:
    """GPU memory the whole model needs on one GPU, by component (the per-GPU verdict is plan_sizing's)."""

    mode: TrainingMode
    params_b: float | None
    components: tuple[VramComponent, ...]
    margin_pct: float
    notes: tuple[str, ...]
    """Message keys of caveats ('vram.note.no_activations'…), shown with t(key, lang)."""
    case: Case | None = None
    users: int | None = None
    """Serving: the concurrent requests, spread over the copies of a layout when counting GPUs."""
    base_batch: int = 1

    @property
    def known(self) -> bool:
        return self.case is not None and self.params_b is not None and self.params_b > 0

    @property
    def subtotal_gb(self) -> float:
        return sum(c.gb for c in self.components)

    @property
    def model_state_gb(self) -> float:
        """Weights, gradients and optimizer state (ZeRO's 16 bytes per parameter for mixed AdamW)."""
        return sum(c.gb for c in self.components if c.key in ("weights", "gradients", "optimizer"))

    @property
    def margin_gb(self) -> float:
        return self.subtotal_gb * self.margin_pct / 100

    @property
    def total_gb(self) -> float:
        return self.subtotal_gb + self.margin_gb

    @property
    def lower_bound(self) -> bool:
        """A term is unknown (no layers, no vocabulary): the total is a lower bound."""
        return any(n in ("vram.note.no_activations", "vram.note.no_vocab") for n in self.notes)

    def component(self, key: str) -> VramComponent | None:
        return next((c for c in self.components if c.key == key), None)

    def gpus_needed(self, memory_gb: float, per_node: int = 8, nodes: int = 1,
                    gpu_name: str | None = None) -> int | None:
        """Fewest GPUs of ``memory_gb`` each that hold the workload on every GPU under the cheapest scheme
        (TP within ``per_node`` GPUs; activations are never divided by data parallelism); None without an
        estimate or when even 64 such nodes do not hold it."""
        if self.case is None or memory_gb <= 0:
            return None
        return gpus_needed_for(self.case, memory_gb, per_node, nodes, self.margin_pct, self.users,
                               self.base_batch, gpu_name)

    def lines(self, lang: Lang = "zh") -> list[str]:
        """The breakdown as readable lines, for the GUI and the PDF."""
        out = [f"{c.label(lang)}: {c.gb:,.1f} GB ({c.formula})" for c in self.components]
        out.append(f"{t('vram.margin', lang)}: {self.margin_gb:,.1f} GB ({self.margin_pct:g}%)")
        out.append(f"{t('vram.total', lang)}: {self.total_gb:,.1f} GB")
        out += [t(n, lang) for n in self.notes]
        return out


def estimate_vram(req: Requirements, policy: Policy) -> VramEstimate:
    """The whole-model estimate for the requirements (no components while the model is unknown)."""
    mode = effective_mode(req)
    case, notes = case_for(req)
    if case is None:
        return VramEstimate(mode, None, (), policy.vram_margin_pct, notes or ("vram.note.no_model",))
    mem = per_gpu(case, Parallel(), explain=True)
    comps = tuple(VramComponent(k, v, mem.formulas.get(k, "")) for k, v in mem.breakdown().items() if v > 0)
    extra: tuple[str, ...] = ("vram.note.checkpointing",) if case.training and case.recompute else ()
    if mem.cpu_offload:  # the weights or checkpoints too (format 12's options, a DeepSpeed config): said so
        extra += ("vram.note.offload_more" if case.offload_params or case.offload_activations else "vram.note.offload",)
    users = req.concurrent_users if not case.training else None
    return VramEstimate(mode, case.model.params_b, comps, policy.vram_margin_pct, notes + extra, case, users,
                        req.batch_size)


def memory_tier_label(tier: str, policy: Policy, lang: Lang = "zh") -> str:
    """The tier as text with the policy's bounds ("16-32 GB")."""
    a, b, c = policy.memory_tiers_gb
    return t(f"vram.tier.{tier}", lang, a=f"{a:g}", b=f"{b:g}", c=f"{c:g}")


def memory_tier(total_gb: float, policy: Policy) -> str:
    """'lt16', '16-32', '32-80' or 'multi' (reference decision tree memory tiers)."""
    a, b, c = policy.memory_tiers_gb
    if total_gb < a:
        return "lt16"
    if total_gb <= b:
        return "16-32"
    if total_gb <= c:
        return "32-80"
    return "multi"


register(
    {
        "vram.weights": "Weights",
        "vram.master_weights": "FP32 master weights",
        "vram.gradients": "Gradients",
        "vram.optimizer": "Optimizer state",
        "vram.activations": "Activations",
        "vram.overhead": "Framework overhead",
        "vram.view.decode": (
            "Decode is bounded by memory bandwidth: at most about {one} tokens/s per request, {agg} tokens/s in "
            "aggregate at full concurrency."
        ),
        "vram.view.serving": (
            "The KV cache holds {tokens} tokens: at most {conc} concurrent requests of {seq} tokens per replica (as "
            "vLLM computes it)."
        ),
        "vram.kv_cache": "KV cache",
        "vram.margin": "Margin",
        "vram.total": "Total",
        "vram.note.no_model": "No model size given; VRAM cannot be estimated.",
        "vram.note.no_activations": (
            "Layers/hidden size not given: activations and the KV cache are not counted; the estimate is a lower bound."
        ),
        "vram.note.no_kv": "Layers/KV heads/head size not given: the KV cache is not counted.",
        "vram.note.no_vocab": (
            "No vocabulary size: embeddings, LM head and logits are not counted; the estimate is a lower bound."
        ),
        "vram.note.bad_config": (
            "The pasted config.json does not describe a decoder model; GPU memory is not estimated."
        ),
        "vram.note.bad_deepspeed": (
            "The DeepSpeed configuration cannot be read (a ZeRO stage other than 0-3, a bucket size that is not a "
            "number, an offload device other than cpu, nvme or none); GPU memory is not estimated."
        ),
        "vram.note.checkpointing": (
            "Gradient checkpointing is on, as in the standard recipe (activations keep only each layer's input)."
        ),
        "vram.note.offload": "The optimizer state is offloaded to CPU RAM, not GPU memory.",
        "vram.note.offload_more": (
            "Part of the training state (the optimizer state, weights or activation checkpoints, as chosen) is "
            "offloaded to CPU RAM, not GPU memory."
        ),
        "vram.note.quantized_training": (
            "INT8/INT4 are for inference or LoRA (QLoRA); full training is estimated as mixed precision."
        ),
        "vram.tier.lt16": "under {a} GB",
        "vram.tier.16-32": "{a}-{b} GB",
        "vram.tier.32-80": "{b}-{c} GB",
        "vram.tier.multi": "over {c} GB (multi-GPU)",
    }
)

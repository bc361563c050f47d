"""VRAM estimate from the requirements, with a breakdown a buyer can read.

Bytes per parameter:
- Reference formula (issue #3): fp32 weights 4 B + gradients 4 B + AdamW state 8 B, plus activations and a
  20 % margin (policy ``vram_margin_pct``).
- Mixed precision with AdamW: 16-bit weights 2 B + 16-bit gradients 2 B + fp32 master weights 4 B + fp32
  Adam moments 8 B = 16 B (Rajbhandari et al., ZeRO, arXiv:1910.02054 §3.1: "2Ψ + 2Ψ + KΨ, K = 12").
- SGD with momentum keeps one fp32 buffer (4 B); 8-bit Adam keeps both moments in 8 bits (2 B; Dettmers et
  al., "8-bit Optimizers via Block-wise Quantization", arXiv:2110.02861).
- LoRA trains adapters ~10,000× smaller than the model (Hu et al., arXiv:2106.09685), so their gradients
  and optimizer state are left to the margin; the frozen weights stay at the chosen precision
  (int4 → 0.5 B: QLoRA).
- Activations per layer s·b·h·34 bytes (Korthikanti et al., arXiv:2205.05198; policy
  ``activation_bytes_per_sbh``), twice that for fp32 activations.
- Inference KV cache 2 × bytes × layers × KV heads × head dim × context × batch (issue #3).
GB here are 10^9 bytes, like the reference formula; GPU memory (GiB) is converted when compared.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from procurement.messages import Lang, register, t
from procurement.plan import Optimizer, Precision, Requirements, TrainingMode, Workload
from procurement.policy import Policy

WEIGHT_BYTES = {
    Precision.FP32: 4.0,
    Precision.MIXED: 2.0,
    Precision.BF16: 2.0,
    Precision.FP8: 1.0,
    Precision.INT8: 1.0,
    Precision.INT4: 0.5,
}
OPTIMIZER_BYTES = {Optimizer.ADAMW: 8.0, Optimizer.SGD_MOMENTUM: 4.0, Optimizer.ADAM_8BIT: 2.0}
TRAINABLE_PRECISIONS = (Precision.FP32, Precision.MIXED, Precision.BF16)


@dataclass(frozen=True)
class ModelPreset:
    """Published architecture numbers of a well-known model (nominal parameter count from its name)."""

    id: str
    name: str
    params_b: float
    layers: int
    hidden_size: int
    kv_heads: int
    head_dim: int
    source: str


MODEL_PRESETS: dict[str, ModelPreset] = {
    p.id: p
    for p in (
        ModelPreset(
            "llama-2-7b",
            "Llama 2 7B",
            7,
            32,
            4096,
            32,
            128,
            "https://huggingface.co/meta-llama/Llama-2-7b-hf/blob/main/config.json",
        ),
        ModelPreset(
            "llama-2-13b",
            "Llama 2 13B",
            13,
            40,
            5120,
            40,
            128,
            "https://huggingface.co/meta-llama/Llama-2-13b-hf/blob/main/config.json",
        ),
        ModelPreset(
            "llama-2-70b",
            "Llama 2 70B",
            70,
            80,
            8192,
            8,
            128,
            "https://huggingface.co/meta-llama/Llama-2-70b-hf/blob/main/config.json",
        ),
        ModelPreset(
            "llama-3-8b",
            "Llama 3 8B",
            8,
            32,
            4096,
            8,
            128,
            "https://huggingface.co/meta-llama/Meta-Llama-3-8B/blob/main/config.json",
        ),
        ModelPreset(
            "llama-3-70b",
            "Llama 3 70B",
            70,
            80,
            8192,
            8,
            128,
            "https://huggingface.co/meta-llama/Meta-Llama-3-70B/blob/main/config.json",
        ),
    )
}


@dataclass(frozen=True)
class VramComponent:
    key: str
    """'weights', 'master_weights', 'gradients', 'optimizer', 'activations', 'kv_cache'."""
    gb: float
    formula: str
    """The arithmetic, e.g. '7 B params × 2 B'."""

    def label(self, lang: Lang = "zh") -> str:
        return t(f"vram.{self.key}", lang)


@dataclass(frozen=True)
class VramEstimate:
    """GPU memory the workload needs in total (before splitting across GPUs), by component."""

    mode: TrainingMode
    params_b: float | None
    components: tuple[VramComponent, ...]
    margin_pct: float
    notes: tuple[str, ...]
    """Message keys of caveats ('vram.note.no_activations'…), shown with t(key, lang)."""

    @property
    def known(self) -> bool:
        return self.params_b is not None and self.params_b > 0

    @property
    def subtotal_gb(self) -> float:
        return sum(c.gb for c in self.components)

    @property
    def model_state_gb(self) -> float:
        """Weights, gradients and optimizer state: what the reference's 'before activations' counts."""
        return sum(
            c.gb for c in self.components if c.key in ("weights", "master_weights", "gradients", "optimizer")
        )

    @property
    def margin_gb(self) -> float:
        return self.subtotal_gb * self.margin_pct / 100

    @property
    def total_gb(self) -> float:
        return self.subtotal_gb + self.margin_gb

    def component(self, key: str) -> VramComponent | None:
        return next((c for c in self.components if c.key == key), None)

    def per_gpu_gb(self, gpus: int) -> float:
        """Memory per GPU when the whole state is sharded over ``gpus`` (model parallel / ZeRO-3)."""
        return self.total_gb / max(gpus, 1)

    def gpus_needed(self, memory_gb: float) -> int | None:
        """GPUs of ``memory_gb`` each that hold the estimate when sharded (None: no estimate)."""
        if not self.known or memory_gb <= 0:
            return None
        return max(1, math.ceil(self.total_gb / memory_gb))

    def lines(self, lang: Lang = "zh") -> list[str]:
        """The breakdown as readable lines, for the GUI and the PDF."""
        out = [f"{c.label(lang)}: {c.gb:,.1f} GB ({c.formula})" for c in self.components]
        out.append(f"{t('vram.margin', lang)}: {self.margin_gb:,.1f} GB ({self.margin_pct:g} %)")
        out.append(f"{t('vram.total', lang)}: {self.total_gb:,.1f} GB")
        out += [t(n, lang) for n in self.notes]
        return out


def effective_mode(req: Requirements) -> TrainingMode:
    if req.mode is not None:
        return req.mode
    if req.workload == Workload.FINE_TUNING:
        return TrainingMode.FULL_FINETUNE
    if req.workload == Workload.TRAINING:
        return TrainingMode.FULL_TRAINING
    return TrainingMode.INFERENCE


def _architecture(req: Requirements) -> tuple[float | None, int | None, int | None, int | None, int | None]:
    preset = MODEL_PRESETS.get(req.model_preset or "")
    params = req.model_params_b if req.model_params_b is not None else (preset.params_b if preset else None)
    layers = req.layers or (preset.layers if preset else None)
    hidden = req.hidden_size or (preset.hidden_size if preset else None)
    kv_heads = req.kv_heads or (preset.kv_heads if preset else None)
    head_dim = req.head_dim or (preset.head_dim if preset else None)
    return params, layers, hidden, kv_heads, head_dim


def _gb(x: float) -> float:
    return x / 1e9


def estimate_vram(req: Requirements, policy: Policy) -> VramEstimate:
    """The VRAM estimate for the requirements (all components zero when the model size is unknown)."""
    mode = effective_mode(req)
    params, layers, hidden, kv_heads, head_dim = _architecture(req)
    notes: list[str] = []
    comps: list[VramComponent] = []
    if params is None or params <= 0:
        return VramEstimate(mode, params, (), policy.vram_margin_pct, ("vram.note.no_model",))
    n = params * 1e9
    prec = req.precision
    wb = WEIGHT_BYTES[prec]
    pb = f"{params:g} B params"
    training = mode in (TrainingMode.FULL_TRAINING, TrainingMode.FULL_FINETUNE)
    if training:
        if prec not in TRAINABLE_PRECISIONS:
            # FP8 training (Transformer Engine) keeps higher-precision master weights: count it as mixed.
            notes.append(
                "vram.note.fp8_training" if prec == Precision.FP8 else "vram.note.quantized_training"
            )
            prec, wb = Precision.MIXED, WEIGHT_BYTES[Precision.MIXED]
        ob = OPTIMIZER_BYTES[req.optimizer]
        comps.append(VramComponent("weights", _gb(n * wb), f"{pb} × {wb:g} B"))
        if prec == Precision.MIXED:
            comps.append(VramComponent("master_weights", _gb(n * 4), f"{pb} × 4 B"))
        comps.append(VramComponent("gradients", _gb(n * wb), f"{pb} × {wb:g} B"))
        comps.append(VramComponent("optimizer", _gb(n * ob), f"{pb} × {ob:g} B"))
    elif mode == TrainingMode.LORA:
        comps.append(VramComponent("weights", _gb(n * wb), f"{pb} × {wb:g} B"))
        notes.append("vram.note.lora")
    else:
        comps.append(VramComponent("weights", _gb(n * wb), f"{pb} × {wb:g} B"))
    s, b = req.sequence_length, req.batch_size
    if mode != TrainingMode.INFERENCE:
        if layers and hidden:
            factor = policy.activation_bytes_per_sbh * (2 if prec == Precision.FP32 else 1)
            comps.append(
                VramComponent(
                    "activations",
                    _gb(layers * s * b * hidden * factor),
                    f"{layers} × {s} × {b} × {hidden} × {factor:g} B",
                )
            )
        else:
            notes.append("vram.note.no_activations")
    else:
        kv_dim = kv_heads * head_dim if kv_heads and head_dim else hidden
        if layers and kv_dim:
            kb = 4.0 if prec == Precision.FP32 else 1.0 if prec == Precision.FP8 else 2.0
            comps.append(
                VramComponent(
                    "kv_cache",
                    _gb(2 * kb * layers * kv_dim * s * b),
                    f"2 × {kb:g} B × {layers} × {kv_dim} × {s} × {b}",
                )
            )
        else:
            notes.append("vram.note.no_kv")
    return VramEstimate(mode, params, tuple(comps), policy.vram_margin_pct, tuple(notes))


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
        "vram.weights": {"zh": "模型权重", "en": "Weights"},
        "vram.master_weights": {"zh": "FP32 主权重", "en": "FP32 master weights"},
        "vram.gradients": {"zh": "梯度", "en": "Gradients"},
        "vram.optimizer": {"zh": "优化器状态", "en": "Optimizer state"},
        "vram.activations": {"zh": "激活值", "en": "Activations"},
        "vram.kv_cache": {"zh": "KV 缓存", "en": "KV cache"},
        "vram.margin": {"zh": "余量", "en": "Margin"},
        "vram.total": {"zh": "合计", "en": "Total"},
        "vram.note.no_model": {
            "zh": "未填写模型参数量，无法估算显存。",
            "en": "No model size given; VRAM cannot be estimated.",
        },
        "vram.note.no_activations": {
            "zh": "未填写层数/隐藏维度，激活值未计入（仅由余量覆盖）。",
            "en": "Layers/hidden size not given: activations are not counted (only the margin covers them).",
        },
        "vram.note.no_kv": {
            "zh": "未填写层数/KV 头数/头维度，KV 缓存未计入。",
            "en": "Layers/KV heads/head size not given: the KV cache is not counted.",
        },
        "vram.note.lora": {
            "zh": "LoRA：适配器参数约为模型的万分之一，其梯度和优化器状态由余量覆盖。",
            "en": "LoRA: adapters are ~1/10,000 of the model; their gradients and optimizer state fall "
                  "within the margin.",
        },
        "vram.note.fp8_training": {
            "zh": "FP8 训练仍保留高精度主权重和优化器状态，按混合精度估算。",
            "en": "FP8 training keeps higher-precision master weights and optimizer state: estimated as "
                  "mixed precision.",
        },
        "vram.note.quantized_training": {
            "zh": "INT8/INT4 仅用于推理或 LoRA（QLoRA）；全量训练按混合精度估算。",
            "en": "INT8/INT4 are for inference or LoRA (QLoRA); full training is estimated as mixed "
                  "precision.",
        },
        "vram.tier.lt16": {"zh": "{a} GB 以下", "en": "under {a} GB"},
        "vram.tier.16-32": {"zh": "{a}-{b} GB", "en": "{a}-{b} GB"},
        "vram.tier.32-80": {"zh": "{b}-{c} GB", "en": "{b}-{c} GB"},
        "vram.tier.multi": {"zh": "{c} GB 以上（多卡）", "en": "over {c} GB (multi-GPU)"},
    }
)

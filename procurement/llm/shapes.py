"""A model's architecture as its Hugging Face config.json gives it, and the parameter counts derived from it.

Parameters are counted from the shapes (embedding, attention incl. grouped-query and DeepSeek's multi-head
latent attention, dense or mixture-of-experts MLP, norms), so a preset and a pasted config.json are sized
the same way; tests compare the counts with the totals the model cards publish. Mixture-of-experts models
count every expert for memory and only the routed top-k (plus shared experts) for compute.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

# Linear layers a LoRA adapter can target, by the names PEFT uses for Llama/Qwen/Mistral-style models.
ATTENTION_TARGETS = ("q_proj", "k_proj", "v_proj", "o_proj")
MLP_TARGETS = ("gate_proj", "up_proj", "down_proj")
ALL_LINEAR = ATTENTION_TARGETS + MLP_TARGETS


class ConfigError(ValueError):
    """A config.json that does not describe a decoder-only transformer this sizing understands."""


@dataclass(frozen=True)
class ModelSpec:
    """Architecture numbers of a decoder-only transformer (names as in Hugging Face config.json)."""

    id: str
    name: str
    layers: int
    hidden: int
    heads: int
    kv_heads: int
    head_dim: int
    vocab: int
    intermediate: int
    """Dense MLP width (SwiGLU: gate/up/down); 0 when every layer is mixture-of-experts."""
    tied_embeddings: bool = False
    qkv_bias: bool = False
    experts: int = 0
    """Routed experts per MoE layer (0: dense model)."""
    experts_active: int = 0
    moe_intermediate: int = 0
    shared_experts: int = 0
    shared_intermediate: int = 0
    """Width of the shared expert(s) together (DeepSeek: shared_experts × moe_intermediate)."""
    dense_layers: int = 0
    """Leading layers with a dense MLP in a MoE model (DeepSeek first_k_dense_replace)."""
    kv_lora_rank: int = 0
    """Multi-head latent attention (DeepSeek-V2/V3): compressed KV width; 0 without MLA."""
    q_lora_rank: int = 0
    qk_rope_head_dim: int = 0
    qk_nope_head_dim: int = 0
    v_head_dim: int = 0
    max_context: int = 0
    source: str = ""
    published_params_b: float | None = None
    """Total parameters as the model card states them (checked against the count from the shapes)."""
    aliases: tuple[str, ...] = field(default=())
    params_override: int = 0
    """Total parameters when only the count is known (no shape: activations and KV cache are not counted)."""

    # ------------------------------------------------------------------ derived counts
    @property
    def hidden_size(self) -> int:
        return self.hidden

    @property
    def moe(self) -> bool:
        return self.experts > 0

    @property
    def mla(self) -> bool:
        return self.kv_lora_rank > 0

    @cached_property
    def embedding_params(self) -> int:
        """Input embedding plus the LM head when it is not tied (kept in 16 bits when quantising)."""
        return self.vocab * self.hidden * (1 if self.tied_embeddings else 2)

    def attention_shapes(self) -> list[tuple[str, int, int]]:
        """(name, in, out) of each attention projection in one layer."""
        h = self.hidden
        if self.mla:
            qk = self.qk_nope_head_dim + self.qk_rope_head_dim
            shapes = []
            if self.q_lora_rank:
                shapes += [("q_a_proj", h, self.q_lora_rank), ("q_b_proj", self.q_lora_rank, self.heads * qk)]
            else:
                shapes += [("q_proj", h, self.heads * qk)]
            shapes += [
                ("kv_a_proj_with_mqa", h, self.kv_lora_rank + self.qk_rope_head_dim),
                ("kv_b_proj", self.kv_lora_rank, self.heads * (self.qk_nope_head_dim + self.v_head_dim)),
                ("o_proj", self.heads * self.v_head_dim, h),
            ]
            return shapes
        return [
            ("q_proj", h, self.heads * self.head_dim),
            ("k_proj", h, self.kv_heads * self.head_dim),
            ("v_proj", h, self.kv_heads * self.head_dim),
            ("o_proj", self.heads * self.head_dim, h),
        ]

    @cached_property
    def attention_params(self) -> int:
        n = sum(i * o for _, i, o in self.attention_shapes())
        if self.mla:
            n += self.kv_lora_rank + (self.q_lora_rank or 0)  # the latent norms
        if self.qkv_bias:
            n += (self.heads + 2 * self.kv_heads) * self.head_dim
        return n

    @cached_property
    def moe_layers(self) -> int:
        return self.layers - self.dense_layers if self.moe else 0

    def _mlp(self, width: int) -> int:
        return 3 * self.hidden * width

    @cached_property
    def expert_params(self) -> int:
        """Routed-expert weights over all layers (the part only top-k of which a token reads)."""
        return self.moe_layers * self.experts * self._mlp(self.moe_intermediate)

    @cached_property
    def layer_params_total(self) -> int:
        """All transformer-block parameters (every expert counted)."""
        if self.params_override:
            return self.params_override - self.embedding_params - self.hidden
        dense_mlp = self._mlp(self.intermediate)
        per_layer_common = self.attention_params + 2 * self.hidden
        n = self.layers * per_layer_common
        if not self.moe:
            return n + self.layers * dense_mlp
        n += self.dense_layers * dense_mlp
        moe = self._mlp(self.shared_intermediate) + self.hidden * self.experts  # shared expert(s) + router
        return n + self.moe_layers * moe + self.expert_params

    @cached_property
    def params(self) -> int:
        """Total parameters (memory): embeddings, blocks with every expert, the final norm."""
        return self.embedding_params + self.layer_params_total + self.hidden

    @cached_property
    def active_params(self) -> int:
        """Parameters one token reads (compute, decode bandwidth): top-k routed experts only."""
        if not self.moe:
            return self.params
        unused = self.moe_layers * (self.experts - self.experts_active) * self._mlp(self.moe_intermediate)
        return self.params - unused

    @property
    def params_b(self) -> float:
        return self.params / 1e9

    @property
    def active_params_b(self) -> float:
        return self.active_params / 1e9

    @cached_property
    def ffn_active(self) -> int:
        """MLP width one token goes through (dense width, or top-k experts plus shared)."""
        if not self.moe:
            return self.intermediate
        return self.experts_active * self.moe_intermediate + self.shared_intermediate

    def kv_bytes_per_token(self, bytes_per_value: float) -> float:
        """KV-cache bytes one token needs over all layers (whole model, before tensor parallelism)."""
        if self.mla:  # the compressed latent plus the shared rotary key (DeepSeek-V2 §2.1.2)
            return self.layers * (self.kv_lora_rank + self.qk_rope_head_dim) * bytes_per_value
        return 2 * self.layers * self.kv_heads * self.head_dim * bytes_per_value

    def lora_params(self, rank: int, targets: tuple[str, ...]) -> int:
        """Adapter parameters: rank × (in + out) for every targeted linear layer (every expert's too)."""
        per_layer = sum(rank * (i + o) for name, i, o in self.attention_shapes() if _targets(name, targets))
        mlp = [(n, self.hidden, 0) for n in MLP_TARGETS if n in targets]
        if not mlp:
            return self.layers * per_layer

        def mlp_adapter(width: int) -> int:
            return sum(rank * (self.hidden + width) for _ in mlp)

        if not self.moe:
            return self.layers * (per_layer + mlp_adapter(self.intermediate))
        n = self.layers * per_layer + self.dense_layers * mlp_adapter(self.intermediate)
        n += self.moe_layers * self.experts * mlp_adapter(self.moe_intermediate)
        if self.shared_intermediate:
            n += self.moe_layers * mlp_adapter(self.shared_intermediate)
        return n


def _targets(name: str, targets: tuple[str, ...]) -> bool:
    if name in targets:
        return True
    # MLA's projections count as the attention they replace
    mla_map = {"q_a_proj": "q_proj", "q_b_proj": "q_proj", "kv_a_proj_with_mqa": "k_proj",
               "kv_b_proj": "v_proj"}
    return mla_map.get(name, "") in targets


# Beyond these no published model goes (the largest: Llama 3.1 405B, 126 layers of 16,384; DeepSeek-V3, 128
# heads and 256 routed experts; Kimi K2, 384 experts; Gemma 3, a 262,144-token vocabulary; Llama 4 Scout, a
# 10 M-token context): a config.json outside them is not a model this program can size (1e30 layers and 10^12
# experts were read as given and sized into nonsense or a traceback).
_RANGES: dict[str, int] = {
    "hidden_size": 1 << 17, "n_embd": 1 << 17, "d_model": 1 << 17,
    "num_hidden_layers": 1024, "num_layers": 1024, "n_layer": 1024,
    "num_attention_heads": 4096, "n_head": 4096,
    "num_key_value_heads": 4096, "multi_query_group_num": 4096,
    "head_dim": 4096, "kv_channels": 4096,
    "vocab_size": 1 << 24, "padded_vocab_size": 1 << 24,
    "n_routed_experts": 16_384, "num_local_experts": 16_384, "num_experts": 16_384,
    "num_experts_per_tok": 16_384, "num_experts_per_token": 16_384,
    "moe_intermediate_size": 1 << 20, "intermediate_size": 1 << 20, "ffn_hidden_size": 1 << 20,
    "n_shared_experts": 1024, "shared_expert_intermediate_size": 1 << 20,
    "first_k_dense_replace": 1024,
    "kv_lora_rank": 1 << 16, "q_lora_rank": 1 << 16, "qk_rope_head_dim": 4096, "qk_nope_head_dim": 4096,
    "v_head_dim": 4096,
    "max_position_embeddings": 1 << 30, "seq_length": 1 << 30,
}
MAX_PARAMS = 10**14
"""100 trillion parameters: two orders of magnitude beyond the largest published model."""


def _int(cfg: Mapping[str, Any], *keys: str, default: int | None = None) -> int:
    """The first of ``keys`` that the config gives (null counts as not given), as a whole number within its
    range; ConfigError naming the key for anything else (``true``, a string, a fraction, a negative number,
    1e300)."""
    for key in keys:
        value = cfg.get(key)
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ConfigError(f"{key}: {str(value)[:40]!r} is not a number")
        if isinstance(value, float) and not value.is_integer():
            raise ConfigError(f"{key}: {value!r} is not a whole number")
        top = _RANGES.get(key, 1 << 30)
        if not 0 <= value <= top:
            raise ConfigError(f"{key}: {value:.6g} is outside 0 to {top:,}: not a model that exists")
        return int(value)
    if default is not None:
        return default
    raise ConfigError(f"config.json has no usable {' / '.join(keys)}")


def from_hf_config(cfg: Mapping[str, Any], model_id: str = "custom", name: str | None = None) -> ModelSpec:
    """A ModelSpec from a Hugging Face config.json (Llama, Qwen2/3, Qwen MoE, Mistral, Mixtral, DeepSeek-V2/V3,
    GLM-4); raises ConfigError naming the missing field."""
    if not isinstance(cfg, Mapping):
        raise ConfigError("config.json must be a JSON object")
    if isinstance(cfg.get("text_config"), Mapping):  # multimodal wrappers keep the LM in text_config
        cfg = cfg["text_config"]
    hidden = _int(cfg, "hidden_size", "n_embd", "d_model")
    layers = _int(cfg, "num_hidden_layers", "num_layers", "n_layer")
    heads = _int(cfg, "num_attention_heads", "n_head")
    if hidden == 0 or layers == 0 or heads == 0:
        raise ConfigError("hidden_size, num_hidden_layers and num_attention_heads must be positive")
    kv_heads = _int(cfg, "num_key_value_heads", "multi_query_group_num", default=heads)
    if cfg.get("multi_query_attention") is False:
        kv_heads = heads
    head_dim = _int(cfg, "head_dim", "kv_channels", default=hidden // heads)
    vocab = _int(cfg, "vocab_size", "padded_vocab_size")
    experts = _int(cfg, "n_routed_experts", "num_local_experts", "num_experts", default=0)
    moe_inter = _int(cfg, "moe_intermediate_size", default=0)
    intermediate = _int(cfg, "intermediate_size", "ffn_hidden_size", default=0)
    shared = _int(cfg, "n_shared_experts", default=0)
    shared_width = shared * moe_inter
    if cfg.get("shared_expert_intermediate_size"):
        shared_width = _int(cfg, "shared_expert_intermediate_size")
        shared = 1
    if experts and not moe_inter:  # Mixtral: every expert is the full MLP width
        moe_inter = intermediate
    if not experts and not intermediate:
        raise ConfigError("config.json has no intermediate_size")
    dense_layers = _int(cfg, "first_k_dense_replace", default=0) if experts else 0
    mlp_only = cfg.get("mlp_only_layers")
    if experts and isinstance(mlp_only, list):
        dense_layers = max(dense_layers, len(mlp_only))
    spec = ModelSpec(
        id=model_id,
        name=name or str(cfg.get("_name_or_path") or model_id),
        layers=layers,
        hidden=hidden,
        heads=heads,
        kv_heads=kv_heads or heads,
        head_dim=head_dim,
        vocab=vocab,
        intermediate=intermediate,
        tied_embeddings=bool(cfg.get("tie_word_embeddings", False)),
        qkv_bias=bool(cfg.get("attention_bias") or cfg.get("add_qkv_bias")
                      or str(cfg.get("model_type", "")).startswith("qwen2")),
        experts=experts,
        experts_active=_int(cfg, "num_experts_per_tok", "num_experts_per_token", default=2 if experts else 0),
        moe_intermediate=moe_inter if experts else 0,
        shared_experts=shared if experts else 0,
        shared_intermediate=shared_width if experts else 0,
        dense_layers=dense_layers,
        kv_lora_rank=_int(cfg, "kv_lora_rank", default=0),
        q_lora_rank=_int(cfg, "q_lora_rank", default=0),
        qk_rope_head_dim=_int(cfg, "qk_rope_head_dim", default=0),
        qk_nope_head_dim=_int(cfg, "qk_nope_head_dim", default=0),
        v_head_dim=_int(cfg, "v_head_dim", default=0),
        max_context=_int(cfg, "max_position_embeddings", "seq_length", default=0),
        source="config.json",
    )
    if spec.mla and not (spec.qk_rope_head_dim and spec.v_head_dim and spec.qk_nope_head_dim):
        raise ConfigError("an MLA config.json needs qk_rope_head_dim, qk_nope_head_dim and v_head_dim")
    check_possible(spec)
    return spec


def check_possible(spec: ModelSpec) -> None:
    """ConfigError for shapes no model has: no head width, more KV heads than heads, more active experts than
    experts, more dense layers than layers, or a parameter count beyond MAX_PARAMS."""
    if not spec.mla and spec.head_dim < 1:
        raise ConfigError("head_dim: 0 (every attention head has a width of at least 1)")
    if spec.kv_heads > spec.heads:
        raise ConfigError(f"num_key_value_heads: {spec.kv_heads} is more than the {spec.heads} attention heads")
    if spec.vocab < 1:
        raise ConfigError("vocab_size: 0 (a model reads at least one token)")
    if spec.experts and not 1 <= spec.experts_active <= spec.experts:
        raise ConfigError(f"num_experts_per_tok: {spec.experts_active} active of {spec.experts} experts "
                          "(at least 1, at most all of them)")
    if spec.dense_layers > spec.layers:
        raise ConfigError(f"first_k_dense_replace: {spec.dense_layers} dense layers of {spec.layers}")
    if spec.params > MAX_PARAMS:
        raise ConfigError(f"{spec.params:.3g} parameters: beyond any model that exists (at most {MAX_PARAMS:.0e})")


CONFIG_MAX_BYTES = 1_000_000
"""A config.json is a few kB; a larger file is not one (and is not read whole)."""


def read_hf_config(path: str) -> tuple[ModelSpec, dict[str, Any]]:
    """The model and the parsed mapping of a config.json file, read with the one bounded reader (a FIFO or
    device refused unread, at most CONFIG_MAX_BYTES) and the bounded JSON reader (duplicate keys, NaN,
    runaway integers and nesting refused); raises ConfigError naming the file, line and field."""
    from procurement.json_input import JsonInputError, loads
    from procurement.safe_io import InputFileError, read_bounded

    try:
        raw = read_bounded(path, CONFIG_MAX_BYTES)
    except InputFileError as exc:
        raise ConfigError(f"{path}: {exc.strerror}; not a config.json") from None
    except OSError as exc:
        raise ConfigError(f"cannot read {path}: {exc.strerror or exc}") from None
    text = raw.decode("utf-8", "replace")
    try:
        data = loads(text, path, max_depth=16)
    except JsonInputError as exc:
        raise ConfigError(f"config.json is not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: config.json must be a JSON object")
    try:
        return from_hf_config(data, "config.json"), data
    except ConfigError as exc:
        key = str(exc).split(":", 1)[0]
        at = text.find(f'"{key}"') if key.isidentifier() else -1
        line = f":{text.count(chr(10), 0, at) + 1}" if at >= 0 else ""
        raise ConfigError(f"{path}{line}: {exc}") from None


def load_hf_config(text: str, model_id: str = "custom") -> ModelSpec:
    """Parse config.json text (bounded by the caller) into a ModelSpec."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ConfigError(f"config.json is not JSON: line {exc.lineno}: {exc.msg}") from None
    return from_hf_config(data, model_id)

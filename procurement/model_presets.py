"""Model shape presets for step 1 (7B / 13B / 70B …): parameters, layers, hidden size, KV heads, head size."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ModelPreset:
    """One published model's shape, from its model card / config.json (``source``)."""

    id: str
    name: str
    params_b: float
    layers: int
    hidden_size: int
    kv_heads: int
    head_dim: int
    source: str


# num_hidden_layers, hidden_size, num_key_value_heads from each model's config.json on Hugging Face;
# head_dim = hidden_size / num_attention_heads (all are 128 here); parameter counts are the model cards'.
PRESETS: tuple[ModelPreset, ...] = (
    ModelPreset("llama2-7b", "Llama 2 7B", 7.0, 32, 4096, 32, 128,
                "https://huggingface.co/meta-llama/Llama-2-7b-hf/blob/main/config.json"),
    ModelPreset("llama2-13b", "Llama 2 13B", 13.0, 40, 5120, 40, 128,
                "https://huggingface.co/meta-llama/Llama-2-13b-hf/blob/main/config.json"),
    ModelPreset("llama2-70b", "Llama 2 70B", 70.0, 80, 8192, 8, 128,
                "https://huggingface.co/meta-llama/Llama-2-70b-hf/blob/main/config.json"),
    ModelPreset("llama3.1-8b", "Llama 3.1 8B", 8.0, 32, 4096, 8, 128,
                "https://huggingface.co/meta-llama/Llama-3.1-8B/blob/main/config.json"),
    ModelPreset("llama3.1-70b", "Llama 3.1 70B", 70.0, 80, 8192, 8, 128,
                "https://huggingface.co/meta-llama/Llama-3.1-70B/blob/main/config.json"),
    ModelPreset("qwen2.5-32b", "Qwen2.5 32B", 32.5, 64, 5120, 8, 128,
                "https://huggingface.co/Qwen/Qwen2.5-32B/blob/main/config.json (model card: 32.5B)"),
    ModelPreset("qwen2.5-72b", "Qwen2.5 72B", 72.7, 80, 8192, 8, 128,
                "https://huggingface.co/Qwen/Qwen2.5-72B/blob/main/config.json (model card: 72.7B)"),
)
BY_ID: dict[str, ModelPreset] = {p.id: p for p in PRESETS}


def preset(preset_id: str | None) -> ModelPreset | None:
    return BY_ID.get(preset_id) if preset_id else None


def requirements_update(preset_id: str | None) -> dict[str, object]:
    """The requirements fields a preset fills (model_preset plus its shape); None clears the preset only."""
    p = preset(preset_id)
    if p is None:
        return {"model_preset": None}
    return {"model_preset": p.id, "model_params_b": p.params_b, "layers": p.layers,
            "hidden_size": p.hidden_size, "kv_heads": p.kv_heads, "head_dim": p.head_dim}

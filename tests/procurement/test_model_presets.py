"""Model presets: every shape is self-consistent and cites its config.json."""

from __future__ import annotations

from procurement.model_presets import BY_ID, PRESETS, requirements_update
from procurement.plan import Plan, with_value


def test_presets_are_consistent_and_sourced() -> None:
    assert len(BY_ID) == len(PRESETS)
    for p in PRESETS:
        assert p.source.startswith("https://huggingface.co/") and "config.json" in p.source
        assert p.hidden_size % p.head_dim == 0
        heads = p.hidden_size // p.head_dim
        assert heads % p.kv_heads == 0, f"{p.id}: KV heads must divide the attention heads"


def test_llama2_13b_fills_the_requirements() -> None:
    plan = Plan()
    for key, value in requirements_update("llama2-13b").items():
        plan = with_value(plan, f"requirements.{key}", value)
    r = plan.requirements
    # Llama-2-13b config.json: 40 layers, hidden 5120, 40 heads × 128, no GQA
    assert (r.model_params_b, r.layers, r.hidden_size, r.kv_heads, r.head_dim) == (13.0, 40, 5120, 40, 128)
    assert requirements_update(None) == {"model_preset": None}

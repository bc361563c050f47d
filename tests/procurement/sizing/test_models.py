"""Model presets and Hugging Face config.json: parameter counts from the shapes agree with the model cards."""

from __future__ import annotations

import json

import pytest

from procurement.sizing.models import ALL_LINEAR, ATTENTION_TARGETS, ConfigError, from_hf_config, load_hf_config
from procurement.sizing.presets import MODELS, PRESETS, preset


@pytest.mark.parametrize("spec", PRESETS, ids=lambda p: p.id)
def test_counted_parameters_match_the_published_total(spec) -> None:  # type: ignore[no-untyped-def]
    assert spec.published_params_b is not None
    assert spec.params_b == pytest.approx(spec.published_params_b, rel=0.015)
    assert spec.source.startswith("https://huggingface.co/") and spec.source.endswith("config.json")


@pytest.mark.parametrize(("pid", "active_b"), [("mixtral-8x7b", 12.9), ("mixtral-8x22b", 39.0),
                                               ("qwen3-30b-a3b", 3.3), ("qwen3-235b-a22b", 22.0),
                                               ("deepseek-v3", 37.0)])
def test_moe_active_parameters_match_the_model_cards(pid: str, active_b: float) -> None:
    spec = preset(pid)
    assert spec is not None and spec.moe
    assert spec.active_params_b == pytest.approx(active_b, rel=0.03)
    assert spec.params_b > 3 * spec.active_params_b


def test_issue_families_are_covered() -> None:
    ids = set(MODELS)
    for pid in ("llama-2-7b", "llama-3-8b", "llama-3.1-70b", "qwen2.5-0.5b", "qwen2.5-72b", "qwen3-8b",
                "qwen3-30b-a3b", "deepseek-v3", "deepseek-r1", "deepseek-r1-distill-qwen-7b",
                "deepseek-r1-distill-llama-70b", "glm-4-9b", "mistral-7b", "mixtral-8x7b", "mixtral-8x22b"):
        assert pid in ids


def test_old_ids_and_aliases_keep_working() -> None:
    for old in ("llama-2-7b", "llama-2-13b", "llama-2-70b", "llama-3-8b", "llama-3-70b"):
        assert preset(old) is MODELS[old]
    assert preset("Llama3-8B") is MODELS["llama-3-8b"]
    assert preset("qwen2.5-7b-instruct") is MODELS["qwen2.5-7b"]
    assert preset("no-such-model") is None


def test_deepseek_mla_kv_cache_is_the_latent() -> None:
    ds = preset("deepseek-v3")
    assert ds is not None and ds.mla
    # (kv_lora_rank 512 + rope 64) × 61 layers × 2 B, against 2 × 61 × 128 heads × 128 × 2 B without MLA
    assert ds.kv_bytes_per_token(2) == 576 * 61 * 2
    assert ds.kv_bytes_per_token(2) < 2 * 61 * 128 * 128 * 2 / 50


def test_gqa_kv_cache() -> None:
    q = preset("qwen2.5-7b")
    assert q is not None
    assert q.kv_bytes_per_token(2) == 2 * 28 * 4 * 128 * 2
    assert q.kv_bytes_per_token(1) == 2 * 28 * 4 * 128


def test_lora_adapter_size_follows_rank_and_targets() -> None:
    llama = preset("llama-2-7b")
    assert llama is not None
    # rank 64 on every linear layer: 32 × 64 × (4 × (4096 + 4096) + 3 × (4096 + 11008))
    assert llama.lora_params(64, ALL_LINEAR) == 32 * 64 * (4 * 8192 + 3 * 15104)
    assert llama.lora_params(64, ALL_LINEAR) / llama.params == pytest.approx(0.0237, rel=0.01)
    assert llama.lora_params(8, ("q_proj", "v_proj")) == 32 * 8 * 2 * 8192
    assert llama.lora_params(16, ATTENTION_TARGETS) == 2 * llama.lora_params(8, ATTENTION_TARGETS)


HF_QWEN25_7B = {
    "architectures": ["Qwen2ForCausalLM"], "model_type": "qwen2", "hidden_size": 3584,
    "intermediate_size": 18944, "num_attention_heads": 28, "num_hidden_layers": 28, "num_key_value_heads": 4,
    "vocab_size": 152064, "tie_word_embeddings": False, "max_position_embeddings": 32768,
}


def test_hf_config_gives_the_same_model_as_the_preset() -> None:
    spec = load_hf_config(json.dumps(HF_QWEN25_7B), "qwen")
    p = preset("qwen2.5-7b")
    assert p is not None
    assert spec.params == p.params and spec.kv_bytes_per_token(2) == p.kv_bytes_per_token(2)


def test_hf_config_for_moe_and_mla_and_glm() -> None:
    mixtral = from_hf_config({"hidden_size": 4096, "intermediate_size": 14336, "num_attention_heads": 32,
                              "num_hidden_layers": 32, "num_key_value_heads": 8, "vocab_size": 32000,
                              "num_local_experts": 8, "num_experts_per_tok": 2})
    assert mixtral.params_b == pytest.approx(46.7, rel=0.01)
    ds = from_hf_config({"hidden_size": 7168, "intermediate_size": 18432, "moe_intermediate_size": 2048,
                         "num_attention_heads": 128, "num_hidden_layers": 61, "num_key_value_heads": 128,
                         "vocab_size": 129280, "n_routed_experts": 256, "num_experts_per_tok": 8,
                         "n_shared_experts": 1, "first_k_dense_replace": 3, "kv_lora_rank": 512,
                         "q_lora_rank": 1536, "qk_rope_head_dim": 64, "qk_nope_head_dim": 128,
                         "v_head_dim": 128})
    assert ds.params_b == pytest.approx(671, rel=0.005) and ds.mla
    glm = from_hf_config({"hidden_size": 4096, "ffn_hidden_size": 13696, "num_attention_heads": 32,
                          "num_layers": 40, "multi_query_group_num": 2, "kv_channels": 128,
                          "padded_vocab_size": 151552, "add_qkv_bias": True, "multi_query_attention": True})
    assert glm.params_b == pytest.approx(9.4, rel=0.01) and glm.kv_heads == 2


@pytest.mark.parametrize("bad", ["[]", "{}", '{"hidden_size": 4096}', "not json",
                                 '{"hidden_size": 0, "num_hidden_layers": 2, "num_attention_heads": 2}'])
def test_hf_config_errors_name_the_problem(bad: str) -> None:
    with pytest.raises(ConfigError):
        load_hf_config(bad)

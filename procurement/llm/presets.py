"""Model presets: the published config.json numbers of the models buyers size for, with their sources.

Every number below is copied from the model's config.json on Hugging Face (the ``source`` address);
``published_params_b`` is the total the model card states, and a test checks that the parameters counted
from the shapes agree with it. Old preset ids (``llama-3-8b`` …) stay as aliases of the new ones.
"""

from __future__ import annotations

from procurement.llm.shapes import ModelSpec

HF = "https://huggingface.co/{}/blob/main/config.json"


def _llama(pid: str, name: str, repo: str, layers: int, hidden: int, heads: int, kv: int, inter: int,
           vocab: int, params_b: float, ctx: int, aliases: tuple[str, ...] = ()) -> ModelSpec:
    return ModelSpec(pid, name, layers, hidden, heads, kv, hidden // heads, vocab, inter, max_context=ctx,
                     source=HF.format(repo), published_params_b=params_b, aliases=aliases)


def _qwen2(pid: str, name: str, repo: str, layers: int, hidden: int, heads: int, kv: int, inter: int,
           vocab: int, tied: bool, params_b: float, ctx: int = 32768) -> ModelSpec:
    return ModelSpec(pid, name, layers, hidden, heads, kv, hidden // heads, vocab, inter, tied_embeddings=tied,
                     qkv_bias=True, max_context=ctx, source=HF.format(repo), published_params_b=params_b)


def _qwen3(pid: str, name: str, repo: str, layers: int, hidden: int, heads: int, kv: int, inter: int,
           tied: bool, params_b: float) -> ModelSpec:
    return ModelSpec(pid, name, layers, hidden, heads, kv, 128, 151936, inter, tied_embeddings=tied,
                     max_context=40960, source=HF.format(repo), published_params_b=params_b)


def _deepseek_v3(pid: str, name: str, repo: str) -> ModelSpec:
    return ModelSpec(
        pid, name, layers=61, hidden=7168, heads=128, kv_heads=128, head_dim=128, vocab=129280,
        intermediate=18432, experts=256, experts_active=8, moe_intermediate=2048, shared_experts=1,
        shared_intermediate=2048, dense_layers=3, kv_lora_rank=512, q_lora_rank=1536, qk_rope_head_dim=64,
        qk_nope_head_dim=128, v_head_dim=128, max_context=163840, source=HF.format(repo),
        published_params_b=671,
    )


PRESETS: tuple[ModelSpec, ...] = (
    # Llama 2 / 3 / 3.1 (Meta)
    _llama("llama-2-7b", "Llama 2 7B", "meta-llama/Llama-2-7b-hf", 32, 4096, 32, 32, 11008, 32000, 6.74, 4096),
    _llama("llama-2-13b", "Llama 2 13B", "meta-llama/Llama-2-13b-hf", 40, 5120, 40, 40, 13824, 32000, 13.0,
           4096),
    _llama("llama-2-70b", "Llama 2 70B", "meta-llama/Llama-2-70b-hf", 80, 8192, 64, 8, 28672, 32000, 69.0,
           4096),
    _llama("llama-3-8b", "Llama 3 8B", "meta-llama/Meta-Llama-3-8B", 32, 4096, 32, 8, 14336, 128256, 8.03, 8192),
    _llama("llama-3-70b", "Llama 3 70B", "meta-llama/Meta-Llama-3-70B", 80, 8192, 64, 8, 28672, 128256, 70.6,
           8192),
    _llama("llama-3.1-8b", "Llama 3.1 8B", "meta-llama/Llama-3.1-8B", 32, 4096, 32, 8, 14336, 128256, 8.03,
           131072),
    _llama("llama-3.1-70b", "Llama 3.1 70B", "meta-llama/Llama-3.1-70B", 80, 8192, 64, 8, 28672, 128256, 70.6,
           131072),
    _llama("llama-3.1-405b", "Llama 3.1 405B", "meta-llama/Llama-3.1-405B", 126, 16384, 128, 8, 53248, 128256,
           405.9, 131072),
    # Qwen2.5 (Alibaba): 0.5B-3B tie the LM head to the embedding
    _qwen2("qwen2.5-0.5b", "Qwen2.5 0.5B", "Qwen/Qwen2.5-0.5B-Instruct", 24, 896, 14, 2, 4864, 151936, True, 0.49),
    _qwen2("qwen2.5-1.5b", "Qwen2.5 1.5B", "Qwen/Qwen2.5-1.5B-Instruct", 28, 1536, 12, 2, 8960, 151936, True,
           1.54),
    _qwen2("qwen2.5-3b", "Qwen2.5 3B", "Qwen/Qwen2.5-3B-Instruct", 36, 2048, 16, 2, 11008, 151936, True, 3.09),
    _qwen2("qwen2.5-7b", "Qwen2.5 7B", "Qwen/Qwen2.5-7B-Instruct", 28, 3584, 28, 4, 18944, 152064, False, 7.61),
    _qwen2("qwen2.5-14b", "Qwen2.5 14B", "Qwen/Qwen2.5-14B-Instruct", 48, 5120, 40, 8, 13824, 152064, False,
           14.7),
    _qwen2("qwen2.5-32b", "Qwen2.5 32B", "Qwen/Qwen2.5-32B-Instruct", 64, 5120, 40, 8, 27648, 152064, False,
           32.5),
    _qwen2("qwen2.5-72b", "Qwen2.5 72B", "Qwen/Qwen2.5-72B-Instruct", 80, 8192, 64, 8, 29568, 152064, False,
           72.7),
    # Qwen3 dense and MoE (head_dim 128 for every size)
    _qwen3("qwen3-0.6b", "Qwen3 0.6B", "Qwen/Qwen3-0.6B", 28, 1024, 16, 8, 3072, True, 0.6),
    _qwen3("qwen3-1.7b", "Qwen3 1.7B", "Qwen/Qwen3-1.7B", 28, 2048, 16, 8, 6144, True, 1.7),
    _qwen3("qwen3-4b", "Qwen3 4B", "Qwen/Qwen3-4B", 36, 2560, 32, 8, 9728, True, 4.0),
    _qwen3("qwen3-8b", "Qwen3 8B", "Qwen/Qwen3-8B", 36, 4096, 32, 8, 12288, False, 8.2),
    _qwen3("qwen3-14b", "Qwen3 14B", "Qwen/Qwen3-14B", 40, 5120, 40, 8, 17408, False, 14.8),
    _qwen3("qwen3-32b", "Qwen3 32B", "Qwen/Qwen3-32B", 64, 5120, 64, 8, 25600, False, 32.8),
    ModelSpec("qwen3-30b-a3b", "Qwen3 30B-A3B (MoE)", 48, 2048, 32, 4, 128, 151936, 6144, experts=128,
              experts_active=8, moe_intermediate=768, max_context=40960,
              source=HF.format("Qwen/Qwen3-30B-A3B"), published_params_b=30.5),
    ModelSpec("qwen3-235b-a22b", "Qwen3 235B-A22B (MoE)", 94, 4096, 64, 4, 128, 151936, 12288, experts=128,
              experts_active=8, moe_intermediate=1536, max_context=40960,
              source=HF.format("Qwen/Qwen3-235B-A22B"), published_params_b=235),
    # DeepSeek-V3 / R1 (MoE with multi-head latent attention) and the R1 distills (Qwen2.5 / Llama shapes)
    _deepseek_v3("deepseek-v3", "DeepSeek-V3 (671B MoE, MLA)", "deepseek-ai/DeepSeek-V3"),
    _deepseek_v3("deepseek-r1", "DeepSeek-R1 (671B MoE, MLA)", "deepseek-ai/DeepSeek-R1"),
    # DeepSeek-V2-Lite-Chat: MLA without a query latent (q_lora_rank null), 64 routed + 2 shared experts of 1,408,
    # 6 active, the first layer dense; the model card: "16B total params, 2.4B active" (15.7B in its table)
    ModelSpec("deepseek-v2-lite", "DeepSeek-V2-Lite (16B MoE, MLA)", layers=27, hidden=2048, heads=16, kv_heads=16,
              head_dim=128, vocab=102400, intermediate=10944, experts=64, experts_active=6, moe_intermediate=1408,
              shared_experts=2, shared_intermediate=2 * 1408, dense_layers=1, kv_lora_rank=512,
              qk_rope_head_dim=64, qk_nope_head_dim=128, v_head_dim=128, max_context=163840,
              source=HF.format("deepseek-ai/DeepSeek-V2-Lite-Chat"), published_params_b=15.7),
    _qwen2("deepseek-r1-distill-qwen-1.5b", "DeepSeek-R1-Distill-Qwen 1.5B",
           "deepseek-ai/DeepSeek-R1-Distill-Qwen-1.5B", 28, 1536, 12, 2, 8960, 151936, False, 1.78, 131072),
    _qwen2("deepseek-r1-distill-qwen-7b", "DeepSeek-R1-Distill-Qwen 7B",
           "deepseek-ai/DeepSeek-R1-Distill-Qwen-7B", 28, 3584, 28, 4, 18944, 152064, False, 7.62, 131072),
    _qwen2("deepseek-r1-distill-qwen-14b", "DeepSeek-R1-Distill-Qwen 14B",
           "deepseek-ai/DeepSeek-R1-Distill-Qwen-14B", 48, 5120, 40, 8, 13824, 152064, False, 14.8, 131072),
    _qwen2("deepseek-r1-distill-qwen-32b", "DeepSeek-R1-Distill-Qwen 32B",
           "deepseek-ai/DeepSeek-R1-Distill-Qwen-32B", 64, 5120, 40, 8, 27648, 152064, False, 32.8, 131072),
    _llama("deepseek-r1-distill-llama-8b", "DeepSeek-R1-Distill-Llama 8B",
           "deepseek-ai/DeepSeek-R1-Distill-Llama-8B", 32, 4096, 32, 8, 14336, 128256, 8.03, 131072),
    _llama("deepseek-r1-distill-llama-70b", "DeepSeek-R1-Distill-Llama 70B",
           "deepseek-ai/DeepSeek-R1-Distill-Llama-70B", 80, 8192, 64, 8, 28672, 128256, 70.6, 131072),
    # GLM-4 (Zhipu): 2 KV groups (multi_query_group_num), QKV bias
    ModelSpec("glm-4-9b", "GLM-4 9B", 40, 4096, 32, 2, 128, 151552, 13696, qkv_bias=True, max_context=131072,
              source=HF.format("THUDM/glm-4-9b-chat"), published_params_b=9.4),
    # Mistral AI
    _llama("mistral-7b", "Mistral 7B", "mistralai/Mistral-7B-v0.1", 32, 4096, 32, 8, 14336, 32000, 7.24, 32768),
    ModelSpec("mixtral-8x7b", "Mixtral 8x7B (MoE)", 32, 4096, 32, 8, 128, 32000, 14336, experts=8,
              experts_active=2, moe_intermediate=14336, max_context=32768,
              source=HF.format("mistralai/Mixtral-8x7B-v0.1"), published_params_b=46.7),
    ModelSpec("mixtral-8x22b", "Mixtral 8x22B (MoE)", 56, 6144, 48, 8, 128, 32000, 16384, experts=8,
              experts_active=2, moe_intermediate=16384, max_context=65536,
              source=HF.format("mistralai/Mixtral-8x22B-v0.1"), published_params_b=141),
)

MODELS: dict[str, ModelSpec] = {p.id: p for p in PRESETS}
ALIASES: dict[str, str] = {
    # ids of earlier versions and common spellings → preset id
    "llama2-7b": "llama-2-7b",
    "llama2-13b": "llama-2-13b",
    "llama2-70b": "llama-2-70b",
    "llama3-8b": "llama-3-8b",
    "llama3-70b": "llama-3-70b",
    "meta-llama-3-8b": "llama-3-8b",
    "meta-llama-3-70b": "llama-3-70b",
    "qwen2.5-7b-instruct": "qwen2.5-7b",
    "qwen2.5-72b-instruct": "qwen2.5-72b",
    "mistral-7b-v0.1": "mistral-7b",
    "mixtral-8x7b-v0.1": "mixtral-8x7b",
    "glm4-9b": "glm-4-9b",
    "deepseek-v2-lite-chat": "deepseek-v2-lite",
}


def preset(pid: str | None) -> ModelSpec | None:
    """The preset for an id or one of its aliases (case-insensitive); None when unknown."""
    if not pid:
        return None
    key = pid.strip().lower()
    return MODELS.get(key) or MODELS.get(ALIASES.get(key, ""))

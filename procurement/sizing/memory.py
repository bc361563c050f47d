"""GPU memory per GPU for a workload under a parallelism plan, and serving capacity (KV tokens, concurrency).

Every GPU holds its own share; memory is never summed across GPUs. Figures are GB (10^9 bytes).

Model states (bytes per parameter; Rajbhandari et al., ZeRO, arXiv:1910.02054 §3.1 and §5):
- ``mixed`` (16-bit compute, fp32 master): weights 2 + gradients 2 + optimizer K (AdamW: fp32 master 4 +
  two fp32 moments 8 = 12) = 16 B. ``fp32``: 4 + 4 + 8. ``bf16`` (pure 16-bit training): 2 + 2 + moments in
  16 bits (AdamW 4). 8-bit AdamW keeps each moment in one byte (Dettmers et al., arXiv:2110.02861);
  SGD with momentum keeps one buffer. ``fp8`` training (Transformer Engine) keeps the ``mixed`` states and
  an fp8 copy of the weights (1 B).
- ZeRO-1 shards the optimizer over the data-parallel group, ZeRO-2 also the gradients, ZeRO-3 (= FSDP full
  sharding) also the weights. Tensor parallel divides the block weights by TP, pipeline parallel gives
  each stage its layers (the first and last stage also hold the embedding / LM head).
- Optimizer offload (ZeRO-Offload, arXiv:2101.06840) moves the optimizer state to CPU RAM.

Activations per layer (Korthikanti et al., arXiv:2205.05198, eq. 1-2 and §4): s·b·h·(34 + 5·a·s/h) bytes in
16 bits; with FlashAttention the 5·a·s/h attention-score term is not stored. Tensor parallel: s·b·h·(10 +
24/t) (34/t with sequence parallel). Full recomputation (gradient checkpointing) keeps 2·s·b·h per layer
plus one layer's activations during its recompute. Pipeline parallel (1F1B) keeps at most PP micro-batches
in flight on the first stage, each of its L/PP layers, so activations per GPU are L × one micro-batch.
The loss keeps the logits: s·b·vocab in 16 bits plus the fp32 copy for the cross-entropy.

Inference: weights (int8/int4 quantise the linear layers of the blocks only; embeddings, LM head and the
MoE router stay 16-bit; GPTQ/AWQ group size 128 adds a 16-bit scale and a 4-bit zero per group; MLA's
down-projections whole on every TP rank, as vLLM builds them),
the KV cache (GQA: KV heads; MLA: the compressed latent plus the rotary key; fp8 KV: 1 B), the prefill
peak (the MLP's gate, up and product tensors plus three hidden-size tensors for the prompt, 16-bit) and a
framework overhead: the CUDA context and kernels, 1,343 MiB measured with nvidia-smi in the Hugging Face
"Model training anatomy" guide (docs/sizing.md lists every source).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Literal

from procurement.llm.shapes import ALL_LINEAR, ModelSpec

Mode = Literal["inference", "full", "lora", "qlora"]
PrecisionName = Literal["fp32", "mixed", "bf16", "fp16", "fp8", "int8", "int4"]
OptimizerName = Literal["adamw", "adamw-8bit", "sgd"]
SchemeName = Literal["dp", "zero1", "zero2", "zero3"]

GB = 1e9
GIB = 1024**3
CUDA_CONTEXT_BYTES = 1343 * 1024**2
"""CUDA context and kernels on one GPU, nvidia-smi after ``torch.ones((1, 1)).to("cuda")`` (Hugging Face,
"Model training anatomy")."""
QUANT_GROUP = 128
"""GPTQ/AWQ default group size: one fp16 scale and one 4-bit zero point per 128 weights."""
NF4_BITS = 4.127
"""QLoRA NF4 with double quantisation: 4 bits + 0.127 bits of constants per parameter (arXiv:2305.14314 §3)."""
KORTHIKANTI_SBH = 34.0
"""Activation bytes per s·b·h per layer in 16 bits, no recompute, attention scores not stored."""
SERVING_PREFILL_TOKENS = 8192
"""vLLM V1's default max_num_batched_tokens for online serving (chunked prefill on by default; vLLM
"Optimization and Tuning" guide): the batched-token budget one engine step (and the start-up profile) runs."""
SERVING_MAX_SEQS = 256
"""vLLM's default max_num_seqs below 70 GiB (and on A100s): the start-up profile also runs the sampler on that
many rows of logits."""

SAMPLER_BYTES_PER_LOGIT = 16
"""fp32 logits, probabilities, log-probabilities and the top-k/top-p sort buffer of the sampler (4 × 4 B)."""
VLLM_NON_TORCH_BYTES = 0.25 * GIB
VLLM_NON_TORCH_TP_BYTES = 0.45 * GIB
"""What vLLM's profile run adds outside PyTorch's allocator (cuBLAS workspaces and the like), which it takes
from the budget: "non_torch_memory takes 0.25GiB" at TP2 (vllm-project/vllm issue 13061), 0.34–0.43 GiB at
TP4 (issue 16570); 0.45 GiB is used under tensor parallel, 0.25 GiB without."""
VLLM_NCCL_BYTES = 1.79 * GIB
"""NCCL communicators and the custom all-reduce buffers, created before the profile and so outside the
budget but on the GPU: the PR 10511 log (its baseline still counted them) shows 3.58 GiB at TP2 against
1.79 GiB at TP1."""
CUDA_GRAPH_BYTES = 0.5 * GIB
"""CUDA graphs, an assumption: vLLM logs what they take ("Graph capturing finished in N secs, took X GiB",
the free memory before less after), which depends on the model and the capture sizes. Recent releases
estimate them before sizing the KV cache ("Estimated CUDA graph memory"), so they are taken from the budget;
older ones captured them afterwards from the reserve, where counting them only lowers the promise."""
CUDA_VISIBLE_SCALE = 0.9935
CUDA_VISIBLE_LESS_GIB = 0.27
"""What CUDA reports as a GPU's total memory (``torch.cuda.mem_get_info``, vLLM's ``total_gpu_memory``) is less
than the memory it is sold with: 79.22 GiB on an 80 GB GPU (vLLM PR 10511 log), 23.58 GiB on a 24 GB RTX
card (vLLM PR 14447 log). The line through both: 0.9935 × GiB − 0.27 GiB."""
LOSS_BYTES_PER_LOGIT = 20.0
"""Cross-entropy over the logits without chunking, per token and vocabulary entry: the 16-bit logits (2 B),
their fp32 upcast (4 B), its shifted fp32 copy (4 B), the fp32 log-softmax kept for the backward (4 B), its
fp32 gradient (4 B) and the 16-bit gradient of the logits (2 B): Hugging Face upcasts the logits to float
before ``cross_entropy``. Measured: the Unsloth README's Hugging Face + FA2 context limits for Llama 3.1 8B
QLoRA grow by 2.65 MB per token, 18.6 B per logit once the checkpoints are taken off (docs/sizing.md)."""
EAGER_SCORE_BYTES = 5.0
"""Attention-score bytes per a·s²·b per layer of the eager kernel (Korthikanti et al. eq. 1: the 2-byte
QKᵀ and softmax and the 1-byte dropout mask); FlashAttention and SDPA's fused kernels store none."""
AttentionImpl = Literal["flash", "sdpa", "eager"]


@dataclass(frozen=True)
class ZeroBuffers:
    """DeepSpeed's communication buffers, in elements, at the defaults of its configuration reference
    (deepspeed.ai/docs/config-json, ``zero_optimization``); a user's ds_config replaces them."""

    reduce_bucket_size: float = 5e8
    allgather_bucket_size: float = 5e8
    """ZeRO-1/2: the gradient reduce bucket and the parameter all-gather bucket, 16-bit."""
    stage3_prefetch_bucket_size: float = 5e7
    stage3_max_live_parameters: float = 1e9
    """ZeRO-3: parameters fetched ahead, and the most gathered parameters kept resident."""
    overlap_comm: bool | None = None
    """None: DeepSpeed's default (off for stage 1/2, on for stage 3). On, ZeRO-1/2 keep 4.5 × the two
    buckets (Hugging Face DeepSpeed guide: 5e8 × 2 B × 2 × 4.5 = 9 GB)."""


def vllm_batch_defaults(gpu_memory_gb: float, gpu_name: str = "") -> tuple[int, int]:
    """``vllm serve``'s default (max_num_batched_tokens, max_num_seqs) for a GPU: 8,192 and 1,024 on GPUs of at
    least 70 GiB other than the A100, 2,048 and 256 on the rest (vLLM ``EngineArgs.get_batch_defaults``,
    OPENAI_API_SERVER context; large budgets cut the A100's throughput, vLLM PR 17885)."""
    if gpu_memory_gb * GB >= 70 * GIB and "a100" not in gpu_name.lower():
        return SERVING_PREFILL_TOKENS, 1024
    return 2048, SERVING_MAX_SEQS


SCHEMES: tuple[SchemeName, ...] = ("dp", "zero1", "zero2", "zero3")
ZERO_STAGE = {"dp": 0, "zero1": 1, "zero2": 2, "zero3": 3}


def weight_bytes(precision: str) -> float:
    """Bytes per quantised block weight (int8/int4 carry their group constants)."""
    if precision == "int4":
        return (4 + (16 + 4) / QUANT_GROUP) / 8
    if precision == "int8":
        return (8 + (16 + 8) / QUANT_GROUP) / 8
    if precision == "fp8":
        return 1.0
    if precision == "fp32":
        return 4.0
    return 2.0


def kv_value_bytes(kv_precision: str) -> float:
    return {"fp32": 4.0, "fp8": 1.0, "int8": 1.0, "int4": 0.5}.get(kv_precision, 2.0)


@dataclass(frozen=True)
class Case:
    """What runs: the model, the mode and its recipe, batch and context (``seq`` counts prompt + output)."""

    model: ModelSpec
    mode: Mode = "inference"
    precision: PrecisionName = "bf16"
    kv_precision: str = "bf16"
    optimizer: OptimizerName = "adamw"
    batch: int = 1
    """Sequences per data-parallel replica (per GPU under pure data parallel) in one step."""
    seq: int = 2048
    checkpointing: bool | None = None
    """None: the recipe's default (on for LoRA/QLoRA as in the QLoRA and PEFT recipes, off for full)."""
    lora_rank: int = 16
    lora_targets: tuple[str, ...] = ALL_LINEAR
    offload_optimizer: bool = False
    sequence_parallel: bool = False
    attention: AttentionImpl = "flash"
    """Attention kernel: ``eager`` stores the a·s² score matrices, ``flash``/``sdpa`` do not."""
    loss_chunks: int = 1
    """Cross-entropy computed over this many chunks of the sequence (torchtune's chunked loss, Liger's
    fused linear cross-entropy, a compiled loss): only one chunk's logits are live at once."""
    offload_params: bool = False
    """ZeRO-3 ``offload_param``: the 16-bit weights live in CPU RAM, each layer gathered when used."""
    offload_activations: bool = False
    """DeepSpeed activation checkpointing with ``cpu_checkpointing``: the checkpoints live in CPU RAM."""
    zero_buffers: ZeroBuffers = ZeroBuffers()
    max_batched_tokens: int | None = None
    """Inference: the serving engine's batched-token budget (vLLM chunks longer prefills and profiles one
    step of this many tokens); None: the whole prompt of every sequence at once (Hugging Face generate)."""
    max_seqs: int = SERVING_MAX_SEQS
    """Serving: the engine's max_num_seqs, the rows of logits its profile runs the sampler on."""

    @property
    def training(self) -> bool:
        return self.mode != "inference"

    @property
    def recompute(self) -> bool:
        if self.checkpointing is not None:
            return self.checkpointing
        return self.mode in ("lora", "qlora")


@dataclass(frozen=True)
class Parallel:
    """How one job is laid out: TP × PP × DP GPUs, ZeRO stage over the DP group."""

    tp: int = 1
    pp: int = 1
    dp: int = 1
    scheme: SchemeName = "dp"

    @property
    def gpus(self) -> int:
        return self.tp * self.pp * self.dp

    @property
    def zero(self) -> int:
        return ZERO_STAGE[self.scheme] if self.dp > 1 else 0

    def label(self) -> str:
        if self.gpus == 1:
            return "1 GPU"
        parts = []
        if self.tp > 1:
            parts.append(f"TP{self.tp}")
        if self.pp > 1:
            parts.append(f"PP{self.pp}")
        if self.dp > 1 or not parts:
            parts.append({"dp": "DP", "zero1": "ZeRO-1", "zero2": "ZeRO-2", "zero3": "ZeRO-3/FSDP"}[self.scheme]
                         + (f"×{self.dp}" if self.dp > 1 else ""))
        return " + ".join(parts)


@dataclass(frozen=True)
class PerGpu:
    """Memory on the busiest GPU of the plan, GB, by component; with the arithmetic behind each."""

    weights: float
    gradients: float
    optimizer: float
    activations: float
    kv_cache: float
    overhead: float
    cpu_offload: float = 0.0
    """Optimizer state (and offloaded weights, gradients, activation checkpoints) in CPU RAM per GPU (GB),
    which the node's RAM must hold."""
    trainable_params: float = 0.0
    formulas: dict[str, str] = field(default_factory=dict)
    outside_budget: float = 0.0
    """Part of ``overhead`` a serving engine does not take from its utilisation budget (GB): the CUDA context
    and NCCL, made before its profile."""
    buffers: float = 0.0
    """Part of ``overhead`` that is ZeRO communication buffers (GB)."""

    KEYS = ("weights", "gradients", "optimizer", "activations", "kv_cache", "overhead")

    @property
    def total(self) -> float:
        return self.weights + self.gradients + self.optimizer + self.activations + self.kv_cache + self.overhead

    @property
    def allocated(self) -> float:
        """What PyTorch's ``max_memory_allocated`` counts: the total less the CUDA context and the memory
        outside PyTorch (nvidia-smi shows ``total``)."""
        return self.total - (self.overhead - self.buffers)

    def breakdown(self) -> dict[str, float]:
        return {k: getattr(self, k) for k in self.KEYS}


# ---------------------------------------------------------------------------------------------- pieces
def _stage_params(m: ModelSpec, par: Parallel) -> tuple[float, float]:
    """(block parameters, embedding/head parameters) on the busiest GPU before ZeRO sharding."""
    blocks = m.layer_params_total / par.pp / par.tp
    if par.pp == 1:
        embed = m.embedding_params / par.tp
    else:  # the first stage has the embedding, the last the head (or the tied copy)
        embed = m.vocab * m.hidden / par.tp
    return blocks, embed


def mla_replicated_params(m: ModelSpec, par: Parallel) -> float:
    """Block parameters every TP rank keeps whole on the busiest GPU beyond its 1/TP share: vLLM builds MLA's
    down-projections ``q_a_proj`` (hidden × q_lora_rank) and ``kv_a_proj_with_mqa`` (hidden × (kv_lora_rank +
    qk_rope_head_dim)) as ``ReplicatedLinear`` (vllm-project/vllm, vllm/model_executor/models/deepseek_v2.py,
    DeepseekV2Attention), so each rank holds them whole, not the 1/TP the split counts."""
    if not m.mla or par.tp == 1:
        return 0.0
    per_layer = m.hidden * (m.q_lora_rank + m.kv_lora_rank + m.qk_rope_head_dim)
    return math.ceil(m.layers / par.pp) * per_layer * (1 - 1 / par.tp)


def _activation_layer_bytes(m: ModelSpec, case: Case, tp: int, batch: int) -> float:
    """One layer's stored activations for ``batch`` sequences (Korthikanti eq. 1-2), with the attention
    scores 5·a·s²·b / t when the kernel is eager. Korthikanti's 34 bytes per s·b·h are 10 that tensor
    parallel does not split (layer norms, block inputs, dropout masks), 8 of attention and 16 of a 4h GELU
    MLP; a gated (SwiGLU) MLP of width f keeps its gate, up, activation and product outputs, 8·f bytes per
    token, so the split part is 8 + 8·f/h (Llama-3-8B: 45 bytes per s·b·h in all, not 34)."""
    sbh = case.seq * batch * m.hidden
    split = 8 + (8 * m.ffn_active / m.hidden if m.ffn_active and m.hidden else 16)
    if tp == 1:
        per = 10 + split
    elif case.sequence_parallel:
        per = (10 + split) / tp
    else:
        per = 10 + split / tp
    scale = 2.0 if case.precision == "fp32" else 1.0
    scores = _score_bytes(m, case, tp, batch)
    return (sbh * per + scores) * scale


def _score_bytes(m: ModelSpec, case: Case, tp: int, batch: int) -> float:
    if case.attention != "eager":
        return 0.0
    return EAGER_SCORE_BYTES * m.heads * case.seq * case.seq * batch / tp


def logits_bytes(m: ModelSpec, case: Case, tp: int, batch: int) -> float:
    """The loss's peak over the logits: s·b·vocab × 20 B / TP (16-bit logits, fp32 copies, log-softmax and
    the gradients), one chunk of them when the loss is chunked."""
    return case.seq * batch * m.vocab * LOSS_BYTES_PER_LOGIT / tp / max(case.loss_chunks, 1)


def _activations_training(m: ModelSpec, case: Case, par: Parallel, explain: bool) -> tuple[float, float, str]:
    """Stored activations on the busiest GPU and those moved to CPU RAM: under PP the first stage (PP
    micro-batches in flight) or the last (one micro-batch, plus the logits of the loss), whichever is larger.
    With checkpointing the loss and the recompute of one layer come at different times, so the peak is the
    kept layer inputs plus the larger of the two."""
    layers_here = math.ceil(m.layers / par.pp)
    if par.pp > 1:  # micro-batches of one sequence, at most PP of them in flight on the first stage
        micro, in_flight = 1, min(par.pp, case.batch)
    else:
        micro, in_flight = case.batch, 1
    per_layer = _activation_layer_bytes(m, case, par.tp, micro)
    scale = 2.0 if case.precision == "fp32" else 1.0
    logits = logits_bytes(m, case, par.tp, micro)
    cpu = 0.0
    if case.recompute:
        kept_one = 2 * case.seq * micro * m.hidden * scale * layers_here
        if case.offload_activations:  # the checkpoints go to CPU RAM; two layers' stay while in transit
            on_gpu = 2 * case.seq * micro * m.hidden * scale * min(2, layers_here)
            cpu, kept_one = kept_one * in_flight, on_gpu
            in_flight = 1
        first = kept_one * in_flight + per_layer
        last = kept_one + max(per_layer, logits)
        total = max(first, last) if par.pp > 1 else kept_one + max(per_layer, logits)
    else:
        first, last = per_layer * layers_here * in_flight, per_layer * layers_here
        total = max(first, last + logits) if par.pp > 1 else first + logits
    what = ""
    if explain:
        split = 8 + (8 * m.ffn_active / m.hidden if m.ffn_active and m.hidden else 16)
        per = (f"{10 + split:.4g}/t" if case.sequence_parallel and par.tp > 1
               else f"(10+{split:.4g}/t)" if par.tp > 1 else f"{10 + split:.4g}")
        scores = " + 5·a·s²·b/t (eager attention scores)" if case.attention == "eager" else ""
        if case.recompute:
            what = (f"checkpointing: 2·s·b·h per layer × {layers_here} layers × {in_flight} micro-batch(es)"
                    + (" (checkpoints in CPU RAM)" if case.offload_activations else "")
                    + f" + max(one layer recomputed s·b·h × {per} B{scores}, logits)")
        else:
            what = f"{layers_here} layers × {in_flight} micro-batch(es) × s·b·h × {per} B{scores}"
        chunks = f" / {case.loss_chunks} chunks" if case.loss_chunks > 1 else ""
        what += (f" (s={case.seq:,}, b={micro}, h={m.hidden:,}, t={par.tp}) + logits s·b·vocab × 20 B / t{chunks}"
                 f" = {logits / GB:,.1f} GB")
    return total, cpu, what


def _prefill_tokens(case: Case) -> int:
    tokens = case.seq * case.batch
    if case.max_batched_tokens:
        return case.max_batched_tokens
    return tokens


def _prefill_bytes(m: ModelSpec, case: Case, tp: int) -> float:
    """Inference peak for one prefill step: the MLP's gate, up and gated product plus three hidden-size
    tensors for its tokens, 16-bit (the whole prompt of every sequence, or the serving engine's batched-token
    budget); a serving engine also profiles its sampler on ``max_seqs`` rows of fp32 logits."""
    tokens = _prefill_tokens(case)
    width = 3 * m.ffn_active / tp
    if case.max_batched_tokens and m.moe:
        width = max(_fused_moe_width(m, tp), 3 * m.intermediate / tp if m.dense_layers else 0.0)
    act = tokens * (width + 3 * m.hidden) * 2.0
    if case.max_batched_tokens:
        act += case.max_seqs * m.vocab * SAMPLER_BYTES_PER_LOGIT
    return act


def _fused_moe_width(m: ModelSpec, tp: int) -> float:
    """16-bit values per token an MoE layer holds in a serving engine: vLLM's fused-MoE kernel keeps, for each
    of the top-k experts a token routes to, one buffer shared by the gate-up output (2 × width / TP) and the
    down-projection output (hidden, not split over TP) and one of the activated product (width / TP)
    (``fused_experts_impl``: ``cache13`` of M·top-k × max(N, K), ``intermediate_cache2`` of M·top-k × N/2;
    vllm-project/vllm, vllm/model_executor/layers/fused_moe/fused_moe.py); the shared experts run as a dense
    MLP (gate, up, product)."""
    per_expert = max(2 * m.moe_intermediate / tp, m.hidden) + m.moe_intermediate / tp
    return m.experts_active * per_expert + 3 * m.shared_intermediate / tp


def _zero_buffers(m: ModelSpec, case: Case, par: Parallel, trainable: float, full: bool) -> tuple[float, str]:
    """DeepSpeed's buffers on one GPU at its defaults (``zero_buffers``): ZeRO-1/2 the 16-bit reduce and
    all-gather buckets (4.5 × with overlap_comm); ZeRO-3 the reduce bucket, the prefetch bucket and the
    gathered weights and gradients of the largest layer (4 B per parameter, as DeepSpeed's
    ``estimate_zero3_model_states_mem_needs`` counts ``largest_layer_memory``)."""
    z = par.zero
    if z == 0 or not trainable:
        return 0.0, ""
    zb = case.zero_buffers
    if z in (1, 2):
        overlap = 4.5 if zb.overlap_comm else 1.0
        b = (min(zb.reduce_bucket_size, trainable) + min(zb.allgather_bucket_size, trainable)) * 2 * overlap
        return b, (f"ZeRO buffers: reduce {zb.reduce_bucket_size:.3g} + all-gather {zb.allgather_bucket_size:.3g} "
                   f"elements × 2 B" + (" × 4.5 (overlap_comm)" if zb.overlap_comm else ""))
    widest = max(m.vocab * m.hidden, m.hidden * max(m.intermediate, m.moe_intermediate), m.hidden * m.hidden)
    largest = min(widest / par.tp, zb.stage3_max_live_parameters)
    total_params = m.params / par.tp / par.pp
    reduce = min(zb.reduce_bucket_size, trainable) * 2
    prefetch = min(zb.stage3_prefetch_bucket_size, total_params) * 2
    b = reduce + prefetch + (4 if full else 2) * largest
    return b, (f"ZeRO-3 buffers: reduce bucket {zb.reduce_bucket_size:.3g} × 2 B + prefetch "
               f"{zb.stage3_prefetch_bucket_size:.3g} × 2 B + largest layer {largest / 1e6:,.0f} M × "
               f"{4 if full else 2} B")


def _inference_per_gpu(case: Case, par: Parallel, blocks: float, embed: float, overhead: float,
                       f: dict[str, str], explain: bool) -> PerGpu:
    """per_gpu for serving: weights, the KV cache, one prefill step's activations and the engine's overhead."""
    m = case.model
    wb = weight_bytes(case.precision)
    quantised = case.precision in ("int8", "int4", "fp8")
    router = m.moe_layers * m.hidden * m.experts / par.pp / par.tp if quantised else 0.0
    replicated = mla_replicated_params(m, par)
    blocks += replicated
    eb = 2.0 if quantised else wb
    weights = (blocks - router) * wb + router * 2.0 + embed * eb
    kvb = kv_value_bytes(case.kv_precision)
    kv_tok = kv_per_token_per_gpu(m, par, kvb)
    kv = kv_tok * case.seq * case.batch
    act = _prefill_bytes(m, case, par.tp)
    outside = 0.0
    if case.max_batched_tokens:  # a serving engine: the CUDA context and NCCL, made before its profile,
        # lie outside vLLM's budget; the profile's growth outside PyTorch and the CUDA graphs come out of it
        outside = CUDA_CONTEXT_BYTES + (VLLM_NCCL_BYTES if par.tp > 1 else 0.0)
        overhead = (outside + CUDA_GRAPH_BYTES
                    + (VLLM_NON_TORCH_TP_BYTES if par.tp > 1 else VLLM_NON_TORCH_BYTES))
    if explain:
        f["weights"] = (f"{blocks / 1e9:,.2f} B block params × {wb:.3g} B + {embed / 1e9:,.2f} B "
                        f"embedding/head params × {eb:g} B" + (" (not quantised)" if quantised else "")
                        + (f" (MLA down-projections whole on every rank: +{replicated / 1e9:,.2f} B)"
                           if replicated else ""))
        f["kv_cache"] = (f"{kv_tok:,.0f} B per token per GPU × {case.seq:,} tokens × {case.batch} "
                         "sequence(s)" + (" (MLA latent, every TP rank keeps it)" if m.mla else ""))
        if case.max_batched_tokens:
            width = (f"fused-MoE {m.experts_active} × (max(2 × {m.moe_intermediate:,} / {par.tp}, "
                     f"{m.hidden:,}) + {m.moe_intermediate:,} / {par.tp})"
                     + (f" + 3 × {m.shared_intermediate:,} / {par.tp}" if m.shared_intermediate else "")
                     if m.moe else f"3 × {m.ffn_active:,} / {par.tp}")
            f["activations"] = (f"one prefill step of {case.max_batched_tokens:,} batched tokens × ({width} + "
                                f"3 × {m.hidden:,}) × 2 B + sampler "
                                f"{case.max_seqs:,} × {m.vocab:,} logits × {SAMPLER_BYTES_PER_LOGIT} B")
            f["overhead"] = ("CUDA context 1,343 MiB" + (" + NCCL and all-reduce buffers 1.79 GiB + profiled "
                                                          "non-torch 0.45 GiB" if par.tp > 1 else
                                                          " + profiled non-torch 0.25 GiB")
                             + " + CUDA graphs 0.5 GiB per GPU (vLLM start-up logs)")
        else:
            f["activations"] = (f"prefill peak {case.seq:,} × {case.batch} tokens × (3 × {m.ffn_active:,} / "
                                f"{par.tp} + 3 × {m.hidden:,}) × 2 B")
    return PerGpu(weights / GB, 0.0, 0.0, act / GB, kv / GB, overhead / GB, formulas=f,
                  outside_budget=outside / GB)


def per_gpu(case: Case, par: Parallel, explain: bool = False) -> PerGpu:
    """Memory on the busiest GPU for ``case`` laid out as ``par`` (with the arithmetic when ``explain``:
    the scheme search needs only the numbers)."""
    m = case.model
    blocks, embed = _stage_params(m, par)
    f: dict[str, str] = {}
    overhead = float(CUDA_CONTEXT_BYTES)
    if explain:
        f["overhead"] = "CUDA context and kernels 1,343 MiB per GPU (Hugging Face, Model training anatomy)"
    if not case.training:
        return _inference_per_gpu(case, par, blocks, embed, overhead, f, explain)

    z = par.zero
    d = par.dp
    if case.mode in ("lora", "qlora"):
        wb = (NF4_BITS / 8 if case.mode == "qlora" else 4.0 if case.precision == "fp32"
              else weight_bytes("int8") if case.precision == "int8" else 2.0)
        eb = 4.0 if case.precision == "fp32" and case.mode == "lora" else 2.0
        frozen = (blocks * wb + embed * eb) / (d if z >= 3 else 1)
        trainable = float(lora_params(m, case.lora_rank, case.lora_targets))
        lora = trainable / par.pp / par.tp
        # PEFT keeps adapters in fp32 (autocast_adapter_dtype): weights 4 B, gradients 4 B
        ob = {"adamw": 8.0, "adamw-8bit": 2.0, "sgd": 4.0}[case.optimizer]
        weights = frozen + lora * 4
        grads = lora * 4 / (d if z >= 2 else 1)
        opt = lora * ob / (d if z >= 1 else 1)
        if explain:
            f["weights"] = (f"frozen {blocks / 1e9:,.2f} B block params × {wb:.3g} B + {embed / 1e9:,.2f} B "
                            f"embedding/head × {eb:g} B" + (f" / {d}" if z >= 3 else "")
                            + f" + adapters {lora / 1e6:,.1f} M × 4 B (rank {case.lora_rank}, "
                            f"{', '.join(case.lora_targets)})")
            f["gradients"] = f"adapters {lora / 1e6:,.1f} M × 4 B" + (f" / {d}" if z >= 2 else "")
            f["optimizer"] = f"adapters {lora / 1e6:,.1f} M × {ob:g} B ({case.optimizer})" + (
                f" / {d}" if z >= 1 else "")
    else:
        n = blocks + embed
        if case.precision == "fp32":
            wb, gb, master = 4.0, 4.0, 0.0
        elif case.precision in ("bf16", "fp16"):
            wb, gb, master = 2.0, 2.0, 0.0
        else:  # mixed, fp8 (Transformer Engine keeps the mixed-precision states and an fp8 weight copy)
            wb, gb, master = 2.0 + (1.0 if case.precision == "fp8" else 0.0), 2.0, 4.0
        moment = 4.0 if case.precision == "fp32" or master else 2.0
        ob = master + {"adamw": 2 * moment, "adamw-8bit": 2.0, "sgd": moment}[case.optimizer]
        weights = n * wb / (d if z >= 3 else 1)
        grads = n * gb / (d if z >= 2 else 1)
        opt = n * ob / (d if z >= 1 else 1)
        trainable = float(m.params)
        if explain:
            shard = {0: "", 1: "optimizer sharded", 2: "optimizer + gradients sharded",
                     3: "all states sharded"}[z]
            f["weights"] = f"{n / 1e9:,.2f} B params per GPU × {wb:g} B" + (f" / {d}" if z >= 3 else "")
            f["gradients"] = f"{n / 1e9:,.2f} B × {gb:g} B" + (f" / {d}" if z >= 2 else "")
            f["optimizer"] = (f"{n / 1e9:,.2f} B × {ob:g} B ({case.optimizer}"
                              + (", fp32 master weights" if master else "") + ")"
                              + (f" / {d}" if z >= 1 else "") + (f" [{shard}]" if shard else ""))
    cpu = 0.0
    full = case.mode not in ("lora", "qlora")
    if case.offload_optimizer:  # ZeRO-Offload: the optimizer step runs on the CPU, gradients stream there
        cpu, opt = opt + grads, 0.0
        grads = 0.0
        if explain:
            f["optimizer"] += " → offloaded to CPU RAM"
            f["gradients"] = f.get("gradients", "") + " → streamed to CPU RAM (ZeRO-Offload)"
    if case.offload_params and z >= 3:  # ZeRO-3 offload_param: weights in CPU RAM, gathered layer by layer
        cpu += weights
        weights = 0.0
        if explain:
            f["weights"] += " → offloaded to CPU RAM (offload_param)"
    act, act_cpu, what = _activations_training(m, case, par, explain)
    cpu += act_cpu
    buffers, buf_what = _zero_buffers(m, case, par, trainable / par.tp / par.pp, full)
    if explain:
        f["activations"] = what
        if buffers:
            f["overhead"] += " + " + buf_what
    return PerGpu(weights / GB, grads / GB, opt / GB, act / GB, 0.0, (overhead + buffers) / GB, cpu / GB,
                  trainable, f, buffers=buffers / GB)


@lru_cache(maxsize=512)
def lora_params(m: ModelSpec, rank: int, targets: tuple[str, ...]) -> int:
    return m.lora_params(rank, targets)


def kv_per_token_per_gpu(m: ModelSpec, par: Parallel, kv_bytes: float) -> float:
    """KV-cache bytes per token on one GPU: KV heads split over TP (replicated when TP > KV heads), layers
    over PP; MLA's latent is not split over TP (every rank keeps it)."""
    layers = math.ceil(m.layers / par.pp)
    if m.mla:
        return layers * (m.kv_lora_rank + m.qk_rope_head_dim) * kv_bytes
    heads = math.ceil(m.kv_heads / par.tp)
    return 2 * layers * heads * m.head_dim * kv_bytes


# ---------------------------------------------------------------------------------------------- serving
@dataclass(frozen=True)
class Serving:
    """What vLLM reports at start for this layout, and a decode-throughput bound from memory bandwidth."""

    budget_gb: float
    """GPU memory as CUDA reports it × utilisation, per GPU."""
    kv_cache_gb: float
    """Memory left for the KV cache per GPU after weights, the prefill peak and the overhead."""
    kv_tokens: int
    max_concurrency: float
    """kv_tokens / seq: requests of ``seq`` tokens that fit at once (vLLM's 'Maximum concurrency')."""
    decode_tps_per_request: float | None
    decode_tps_aggregate: float | None
    """Bandwidth-bound upper bounds (tokens/s) at one request and at max concurrency, over all replicas."""


def cuda_visible_gb(gpu_memory_gb: float) -> float:
    """The total CUDA reports for a GPU of ``gpu_memory_gb`` (GB), which vLLM multiplies by its utilisation."""
    gib = gpu_memory_gb * GB / GIB
    return max(gib * CUDA_VISIBLE_SCALE - CUDA_VISIBLE_LESS_GIB, 0.0) * GIB / GB


def serving(case: Case, par: Parallel, gpu_memory_gb: float, utilization: float = 0.9,
            bandwidth_gbs: float | None = None, replicas: int = 1) -> Serving:
    """KV tokens and concurrency as vLLM computes them on each GPU of a copy: memory × utilisation − weights /
    TP − the profiled activation peak of one step of the batched-token budget (/ TP) − what the profile adds
    outside PyTorch − the CUDA graphs, over the KV bytes per token per GPU (the CUDA context and NCCL lie
    outside the budget). Decode speed as bytes read per step / memory bandwidth."""
    m = case.model
    # vLLM profiles one step of max_num_batched_tokens whatever the requests (V1 chunks longer prompts)
    single = replace(case, batch=1, max_batched_tokens=case.max_batched_tokens or SERVING_PREFILL_TOKENS)
    mem = per_gpu(single, par)
    budget = cuda_visible_gb(gpu_memory_gb) * utilization
    free = budget - mem.weights - mem.activations - (mem.overhead - mem.outside_budget)
    kv_tok = kv_per_token_per_gpu(m, par, kv_value_bytes(case.kv_precision))
    tokens = max(0, int(free * GB // kv_tok)) if kv_tok else 0
    conc = tokens / case.seq if case.seq else 0.0
    per_req = agg = None
    if bandwidth_gbs:
        bw = bandwidth_gbs * GB
        active_share = _active_weight_share(m, 1)
        step1 = par.pp * (mem.weights * GB * active_share + kv_tok * case.seq) / bw
        per_req = 1 / step1 if step1 > 0 else None
        c = max(1, math.floor(conc))
        step_c = par.pp * (mem.weights * GB * _active_weight_share(m, c) + c * kv_tok * case.seq) / bw
        agg = c / step_c * replicas if step_c > 0 and conc >= 1 else None
    return Serving(budget, max(free, 0.0), tokens, conc, per_req, agg)


def _active_weight_share(m: ModelSpec, concurrent: int) -> float:
    """Share of the weights one decode step reads: all for dense models; for MoE the non-expert part plus the
    experts that ``concurrent`` tokens route to (each picks top-k of E)."""
    if not m.moe:
        return 1.0
    expert_share = m.expert_params / m.params
    used = 1 - (1 - m.experts_active / m.experts) ** concurrent
    return (1 - expert_share) + expert_share * used

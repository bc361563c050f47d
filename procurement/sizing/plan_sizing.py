"""The plan's sizing: its requirements as a sizing case, its GPUs as a cluster, and the per-GPU verdict.

One entry point, ``size_plan``, used by the VRAM rules, the recommendation, the checklist, ``check --json``
and step 1's per-GPU bar; its result is cached per requirements and GPU choice, so an unrelated edit
(a PSU, a price) costs a dictionary lookup.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any, cast

from catalog.loader import Catalog
from catalog.models import GpuFormFactor
from procurement.llm.presets import preset
from procurement.llm.shapes import ALL_LINEAR, ConfigError, ModelSpec, from_hf_config
from procurement.messages import languages
from procurement.plan import Optimizer, Plan, Precision, Requirements, TrainingMode, Workload
from procurement.sizing.deepspeed import DeepSpeedConfigError
from procurement.sizing.deepspeed import parse as parse_deepspeed
from procurement.sizing.estimate import TrainingOptions, with_training_options
from procurement.sizing.hardware import facts_for_gpu
from procurement.sizing.memory import (
    SERVING_PREFILL_TOKENS,
    Case,
    Mode,
    OptimizerName,
    Parallel,
    PerGpu,
    PrecisionName,
    Serving,
    per_gpu,
    serving,
    vllm_batch_defaults,
)
from procurement.sizing.schemes import Choice, Cluster, Search, communication, describe, layouts, search, tp_ok

OPTIMIZERS: dict[Optimizer, OptimizerName] = {
    Optimizer.ADAMW: "adamw", Optimizer.SGD_MOMENTUM: "sgd", Optimizer.ADAM_8BIT: "adamw-8bit",
}


def effective_mode(req: Requirements) -> TrainingMode:
    if req.mode is not None:
        return req.mode
    if req.workload == Workload.FINE_TUNING:
        return TrainingMode.FULL_FINETUNE
    if req.workload == Workload.TRAINING:
        return TrainingMode.FULL_TRAINING
    return TrainingMode.INFERENCE


def spec_from_shape(params_b: float | None, layers: int | None, hidden: int | None, heads: int | None = None,
                    kv_heads: int | None = None, head_dim: int | None = None, vocab: int | None = None,
                    ) -> tuple[ModelSpec | None, tuple[str, ...]]:
    """A model from the numbers a buyer typed: the MLP width solved from the parameter count. Without layers
    and hidden size only the model states are known (no activations, no KV cache): a lower bound."""
    if not params_b or params_b <= 0:
        return None, ("vram.note.no_model",)
    notes: list[str] = []
    if not (layers and hidden):
        spec = ModelSpec("custom", f"{params_b:g}B", 0, 0, 0, 0, 0, 0, 0, params_override=int(params_b * 1e9),
                         published_params_b=params_b)
        return spec, ("vram.note.no_activations",)
    hd = head_dim or (hidden // heads if heads else 128)
    nh = heads or max(hidden // hd, 1)
    kv = kv_heads or nh
    if not vocab:
        notes.append("vram.note.no_vocab")
    base = ModelSpec("custom", f"{params_b:g}B", layers, hidden, nh, kv, hd, vocab or 0, 0)
    rest = params_b * 1e9 - base.embedding_params - layers * (base.attention_params + 2 * hidden)
    inter = max(int(rest / (3 * hidden * layers)), 0)
    return ModelSpec("custom", f"{params_b:g}B", layers, hidden, nh, kv, hd, vocab or 0, inter,
                     params_override=0 if inter else int(params_b * 1e9), published_params_b=params_b), tuple(notes)


def model_for(req: Requirements) -> tuple[ModelSpec | None, tuple[str, ...]]:
    """The model the requirements describe: a pasted config.json, a preset, or the typed shape."""
    if req.hf_config:
        try:
            return from_hf_config(req.hf_config, "config.json"), ()
        except ConfigError:
            return None, ("vram.note.bad_config",)
    spec = preset(req.model_preset)
    if spec is not None:
        return spec, ()
    return spec_from_shape(req.model_params_b, req.layers, req.hidden_size, req.attention_heads, req.kv_heads,
                           req.head_dim, req.vocab_size)


def case_for(req: Requirements) -> tuple[Case | None, tuple[str, ...]]:
    """The sizing case of the requirements (None while the model is unknown) and the notes on it."""
    spec, notes = model_for(req)
    if spec is None:
        return None, notes
    tm = effective_mode(req)
    prec = req.precision
    extra: list[str] = []
    mode: Mode
    if tm in (TrainingMode.FULL_TRAINING, TrainingMode.FULL_FINETUNE):
        mode = "full"
        if prec in (Precision.INT8, Precision.INT4):
            extra.append("vram.note.quantized_training")
            prec = Precision.MIXED
    elif tm == TrainingMode.LORA:
        mode = "qlora" if prec == Precision.INT4 else "lora"
    else:
        mode = "inference"
    precision = cast(PrecisionName, "int4" if mode == "qlora" else prec.value)
    batch = req.batch_size
    if mode == "inference" and req.concurrent_users:
        batch = max(batch, req.concurrent_users)
    rank = req.lora_rank or (64 if mode == "qlora" else 8)
    targets = tuple(req.lora_targets) if req.lora_targets else ALL_LINEAR
    ds = None
    if req.deepspeed_config is not None:
        try:
            ds = parse_deepspeed(req.deepspeed_config, spec.hidden)
        except DeepSpeedConfigError:
            return None, (*notes, "vram.note.bad_deepspeed")
    case = Case(spec, mode, precision, req.kv_precision, OPTIMIZERS[req.optimizer], batch, req.sequence_length,
                req.gradient_checkpointing, rank, targets,
                # a plan's inference is a serving engine: one chunked prefill of the batched-token budget,
                # not sequence_length × users tokens at once (docs/sizing.md, "Serving capacity")
                max_batched_tokens=SERVING_PREFILL_TOKENS if mode == "inference" else None)
    # the training options as `size` applies them (estimate.with_training_options: one place for both)
    case = with_training_options(case, training_options(req), ds)
    return case, notes + tuple(extra)


def training_options(req: Requirements) -> TrainingOptions:
    """The requirements' training options (format 12) as `gpu-procure size` takes them."""
    return TrainingOptions(req.attention, req.loss_chunks, req.sequence_parallel, req.offload_optimizer,
                           req.offload_params, req.offload_activations)


def scheme_for(req: Requirements) -> str | None:
    """The scheme the requirements fix: their own, else the DeepSpeed config's ZeRO stage (as `size` reads it)."""
    if req.scheme is not None or req.deepspeed_config is None:
        return req.scheme
    try:
        return parse_deepspeed(req.deepspeed_config, 0).scheme
    except DeepSpeedConfigError:
        return None


def cluster_for(plan: Plan, catalog: Catalog) -> tuple[Cluster | None, Any]:
    """The plan's GPUs as a cluster (None until a GPU model and count are chosen), and the catalog GPU."""
    gpu = catalog.gpu(plan.gpu.model)
    if gpu is None or not plan.gpu.count:
        return None, gpu
    f = facts_for_gpu(gpu)
    network = plan.requirements.network_gbps
    if network is None:  # the node's NICs together
        network = sum(_nic_gbps(catalog, n.part) * n.count for n in plan.server.nics) or None
    # SXM boards: NVSwitch joins every GPU of the node; PCIe boards: NVLink bridges join pairs, and only when the
    # buyer asks for NVLink (bridges bought); otherwise PCIe alone
    pcie = gpu.form_factor == GpuFormFactor.PCIE
    nvlink_gbs = f.nvlink_gbs if not pcie or plan.requirements.needs_nvlink else 0.0
    return Cluster(f.memory_gb, plan.gpu.count, plan.requirements.nodes, nvlink_gbs, f.pcie_gbs, network,
                   f.tflops, f.p2p, nvlink_domain=2 if pcie else None), gpu


def _nic_gbps(catalog: Catalog, part: str) -> float:
    nic = catalog.get("nic", part)
    return float(getattr(nic, "speed_gbps", 0.0) or 0.0)


@dataclass(frozen=True)
class PlanSizing:
    """The per-GPU verdict of a plan: layout, memory on the busiest GPU, fit, communication, serving."""

    case: Case
    notes: tuple[str, ...]
    cluster: Cluster | None
    parallel: Parallel
    memory: PerGpu
    margin_pct: float
    fits: bool | None
    """None while no GPU is chosen."""
    searched: bool
    """The layout was searched (True) or fixed by the requirements (False)."""
    comm_text: dict[str, str]
    """The scheme's communication cost in words, per language."""
    network_bound: bool
    gpus_needed: int | None
    serving: Serving | None
    checks: tuple[tuple[str, dict[str, Any]], ...]
    """(finding id, message fields) for the layout checks that failed."""

    @property
    def with_margin_gb(self) -> float:
        return self.memory.total * (1 + self.margin_pct / 100)

    @property
    def cpu_offload_gb_per_node(self) -> float:
        return self.memory.cpu_offload * (self.cluster.gpus_per_node if self.cluster else 1)


def size_plan(plan: Plan, catalog: Catalog, margin_pct: float) -> PlanSizing | None:
    """The plan's per-GPU sizing (None while the model is unknown)."""
    case, notes = case_for(plan.requirements)
    if case is None:
        return None
    cluster, gpu = cluster_for(plan, catalog)
    req = plan.requirements
    if not case.training and req.concurrent_users:
        # the users are spread over the serving copies below; the case carries one copy's own batch
        case = replace(case, batch=req.batch_size)
    if not case.training and cluster is not None:  # vLLM's batched-token budget and sequences for this GPU
        tokens, seqs = vllm_batch_defaults(cluster.gpu_memory_gb, gpu.name if gpu is not None else "")
        case = replace(case, max_batched_tokens=tokens, max_seqs=seqs)
    return _size(case, notes, cluster, margin_pct, scheme_for(req), req.tensor_parallel, req.pipeline_parallel,
                 req.concurrent_users, gpu.memory_bandwidth_gbs if gpu is not None else None,
                 bool(gpu is not None and facts_for_gpu(gpu).fp8), gpu.name if gpu is not None else "")


@lru_cache(maxsize=128)
def _size(case: Case, notes: tuple[str, ...], cluster: Cluster | None, margin_pct: float, scheme: str | None,
          tp: int | None, pp: int | None, users: int | None, bandwidth: float | None, fp8: bool,
          gpu_name: str) -> PlanSizing:
    checks: list[tuple[str, dict[str, Any]]] = []
    if cluster is None:
        par = Parallel()
        mem = per_gpu(case, par, explain=True)
        return PlanSizing(case, notes, None, par, mem, margin_pct, None, False, {}, False, None, None, ())
    total = cluster.gpus
    base_batch = case.batch
    explicit = None
    if scheme is not None or tp is not None or pp is not None:
        t_, p_ = tp or 1, pp or 1
        if total % (t_ * p_) == 0 and t_ <= cluster.gpus_per_node:
            explicit = Parallel(t_, p_, total // (t_ * p_), scheme or "dp")  # type: ignore[arg-type]
        else:
            checks.append(("VRAM-LAYOUT", {"tp": t_, "pp": p_, "gpus": total,
                                           "per_node": cluster.gpus_per_node}))
    if users and not case.training:
        if explicit is not None:
            case = replace(case, batch=max(case.batch, math.ceil(users / explicit.dp)))
            found = search(case, cluster, margin_pct)
        else:
            case, found = _spread_users(case, cluster, margin_pct, users)
    else:
        found = search(case, cluster, margin_pct)
    searched = explicit is None
    par = explicit or (found.best or found.smallest).parallel
    mem = per_gpu(case, par, explain=True)
    with_margin = mem.total * (1 + margin_pct / 100)
    fits = with_margin <= cluster.gpu_memory_gb
    choice = Choice(par, mem, with_margin, fits, communication(case, par, cluster),
                    case.batch if par.pp > 1 else 1)
    texts = {lang: describe(choice, cluster, lang) for lang in languages()}
    network_bound = choice.comm.link == "network" and bool(choice.comm.bound)
    if par.tp > 1 and not tp_ok(case, par.tp):
        checks.append(("VRAM-TP-HEADS", {"tp": par.tp, "heads": case.model.heads, "kv": case.model.kv_heads}))
    if par.tp > 1 and not cluster.p2p and (fits or explicit is not None):  # not for a layout that fails anyway
        checks.append(("VRAM-TP-NO-P2P", {"tp": par.tp, "gpu": gpu_name}))
    if case.precision == "fp8" and not fp8:
        checks.append(("VRAM-FP8-UNSUPPORTED", {"gpu": gpu_name}))
    srv = None
    if not case.training:
        srv = serving(case, par, cluster.gpu_memory_gb, 0.9, bandwidth, par.dp)
        if users and srv.max_concurrency * par.dp < users:
            checks.append(("VRAM-SERVING", {"users": users, "seq": case.seq,
                                            "conc": f"{srv.max_concurrency * par.dp:,.1f}",
                                            "tokens": f"{srv.kv_tokens:,}", "replicas": par.dp}))
    needed = found.gpus_needed
    if users and not case.training:  # the users spread over the copies of each candidate count
        needed = gpus_needed_for(case, cluster.gpu_memory_gb, cluster.gpus_per_node, cluster.nodes, margin_pct,
                                 users, base_batch)
    return PlanSizing(case, notes, cluster, par, mem, margin_pct, fits, searched, texts, network_bound,
                      needed, srv, tuple(checks))


def _spread_users(case: Case, cluster: Cluster, margin_pct: float, users: int) -> tuple[Case, Search]:
    """Serving: ``users`` concurrent requests shared by the model's copies. Each copy (TP × PP GPUs) holds the KV
    cache of its share, ceil(users / copies), so the layout and the per-copy batch decide each other: the most
    copies (fewest GPUs per copy) whose share fits wins. Nothing fits: every request on one copy, as before."""
    counts = sorted({d for d in range(1, cluster.gpus + 1) if cluster.gpus % d == 0}, reverse=True)
    for copies in counts:
        share = replace(case, batch=max(case.batch, math.ceil(users / copies)))
        found = search(share, cluster, margin_pct)
        if found.best is not None and found.best.parallel.dp >= copies:
            return share, found
    everyone = replace(case, batch=max(case.batch, users))
    return everyone, search(everyone, cluster, margin_pct)


def gpus_needed_for(case: Case, memory_gb: float, per_node: int, nodes: int, margin_pct: float,
                    users: int | None = None, base_batch: int = 1, gpu_name: str | None = None) -> int | None:
    """Fewest GPUs of ``memory_gb`` that hold ``case`` on each GPU (TP within ``per_node``), None if none do.
    Serving ``users`` requests: each copy of a layout holds its share, ceil(users / copies), as the plan's
    sizing spreads them (so step 2's count and VRAM-TOTAL's agree); ``gpu_name`` given, with vLLM's
    batched-token defaults for that GPU, as the plan's sizing uses them."""
    if gpu_name is not None and not case.training:
        tokens, seqs = vllm_batch_defaults(memory_gb, gpu_name)
        case = replace(case, max_batched_tokens=tokens, max_seqs=seqs)
    if not users or case.training:
        cluster = Cluster(memory_gb, max(per_node, 1), max(nodes, 1))
        return search(case, cluster, margin_pct).gpus_needed
    return _gpus_needed_serving(case, memory_gb, max(per_node, 1), margin_pct, users, base_batch)


@lru_cache(maxsize=256)
def _gpus_needed_serving(case: Case, memory_gb: float, per_node: int, margin_pct: float, users: int,
                         base_batch: int) -> int | None:
    counts = list(range(1, per_node + 1)) + [per_node * k for k in range(2, 65)]
    for n in counts:
        gpn, nn = (n, 1) if n <= per_node else (per_node, n // per_node)
        for par in layouts(case, gpn, nn, replicas=True):
            if par.gpus != n:
                continue
            share = replace(case, batch=max(base_batch, math.ceil(users / par.dp)))
            if per_gpu(share, par).total * (1 + margin_pct / 100) <= memory_gb:
                return n
    return None


def per_node_for(needed: int | None, nodes: int) -> int:
    return math.ceil((needed or 1) / max(nodes, 1))

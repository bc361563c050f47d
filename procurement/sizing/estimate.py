"""One size estimate: a model, a workload and a GPU layout → memory per GPU, whether it fits (with the
margin), the layout searched or given, serving capacity and the layout's checks (`gpu-procure size`,
docs/sizing.md). Figures are GB (10^9 bytes)."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Literal, cast

from procurement.llm.presets import MODELS, preset
from procurement.llm.shapes import (
    ALL_LINEAR,
    ATTENTION_TARGETS,
    MAX_PARAMS,
    ConfigError,
    ModelSpec,
    check_possible,
    read_hf_config,
)
from procurement.sizing.deepspeed import DeepSpeedConfigError, DeepSpeedSettings
from procurement.sizing.deepspeed import read as read_deepspeed
from procurement.sizing.memory import (
    SERVING_PREFILL_TOKENS,
    AttentionImpl,
    Case,
    Mode,
    OptimizerName,
    Parallel,
    PerGpu,
    PrecisionName,
    SchemeName,
    Serving,
    ZeroBuffers,
    per_gpu,
    serving,
    vllm_batch_defaults,
)
from procurement.sizing.schemes import Choice, Cluster, Search, communication, describe, search, tp_ok

DEFAULT_MARGIN_PCT = 20.0
"""The policy's vram_margin_pct (resources/policy/default.yaml) unless --policy gives another."""


class SizeInputError(ValueError):
    """Input the command cannot use (exit 2)."""


@dataclass(frozen=True)
class SizeRequest:
    """What `gpu-procure size` is asked: each field is the option of the same name (None: not given)."""

    model: str | None = None
    config: Path | None = None
    params_b: float | None = None
    layers: int | None = None
    hidden: int | None = None
    heads: int | None = None
    kv_heads: int | None = None
    head_dim: int | None = None
    vocab: int | None = None
    intermediate: int | None = None
    mode: Mode = "inference"
    precision: str | None = None
    kv_precision: str = "bf16"
    optimizer: str = "adamw"
    batch: int = 1
    seq: int = 2048
    checkpointing: str | None = None
    lora_rank: int | None = None
    lora_targets: str = "all-linear"
    offload_optimizer: bool = False
    deepspeed_config: Path | None = None
    sequence_parallel: bool = False
    attention: AttentionImpl = "flash"
    loss_chunks: int = 1
    offload_params: bool = False
    offload_activations: bool = False
    max_batched_tokens: int | None = None
    gpus: int = 1
    nodes: int = 1
    tp: int | None = None
    pp: int | None = None
    scheme: SchemeName | Literal["fsdp"] | None = None
    network_gbps: float | None = None
    gpu: str | None = None
    gpu_memory_gb: float | None = None
    utilization: float = 0.9
    catalog_dirs: tuple[Path, ...] = ()
    """User catalog directories, read only when ``gpu`` names a catalog GPU."""


# ---------------------------------------------------------------------------------------------- inputs
def model_spec(req: SizeRequest) -> tuple[ModelSpec, list[str]]:
    notes: list[str] = []
    if req.model:
        spec = preset(req.model)
        if spec is None:
            raise SizeInputError(f"unknown model preset {req.model!r}; presets: {', '.join(MODELS)}")
        return spec, notes
    if req.config:
        try:
            return read_hf_config(str(req.config))[0], notes
        except ConfigError as exc:
            raise SizeInputError(str(exc)) from None
    return shape_from_flags(req, notes), notes


FLAG_MAX = 1 << 30
"""The largest layer count, width, head count or vocabulary a shape flag takes (config.json's own bound)."""


def shape_from_flags(req: SizeRequest, notes: list[str]) -> ModelSpec:
    """A ModelSpec from --params-b/--layers/--hidden/… (the MLP width solved from the parameter count)."""
    if not (req.layers and req.hidden):
        raise SizeInputError("give --model PRESET, --config config.json, or at least --layers and --hidden "
                             "with --params-b or --intermediate")
    for name in ("layers", "hidden", "heads", "kv_heads", "head_dim", "vocab", "intermediate"):
        v = getattr(req, name)
        if v is not None and not 0 < v <= FLAG_MAX:
            raise SizeInputError(f"--{name.replace('_', '-')} must be a whole number from 1 to {FLAG_MAX:,}")
    if req.params_b is not None and not (math.isfinite(req.params_b) and 0 < req.params_b <= MAX_PARAMS / 1e9):
        raise SizeInputError(f"--params-b must be above 0 and at most {MAX_PARAMS / 1e9:,.0f} (billions): "
                             "no model that exists is larger")
    head_dim = req.head_dim or (req.hidden // req.heads if req.heads else 128)
    heads = req.heads or max(req.hidden // head_dim, 1)
    if not req.heads:
        notes.append("size.note.heads_assumed")
    kv = req.kv_heads or heads
    vocab = req.vocab or 0
    if not req.vocab:
        notes.append("size.note.no_vocab")
    base = ModelSpec("custom", "custom", req.layers, req.hidden, heads, kv, head_dim, vocab, 0)
    inter = req.intermediate
    if inter is None:
        if not req.params_b or req.params_b <= 0:
            raise SizeInputError("give --params-b or --intermediate")
        rest = req.params_b * 1e9 - base.embedding_params - req.layers * (base.attention_params + 2 * req.hidden)
        inter = int(rest / (3 * req.hidden * req.layers))
        if inter <= 0:
            raise SizeInputError("--params-b is too small for these --layers/--hidden/--vocab")
    spec = ModelSpec("custom", f"custom {req.params_b or ''}B".replace(" B", ""), req.layers, req.hidden,
                     heads, kv, head_dim, vocab, inter, source="command-line shape",
                     published_params_b=req.params_b)
    try:  # the shape flags are held to what config.json is: a model that can exist
        check_possible(replace(spec, vocab=spec.vocab or 1))  # no --vocab is said as a lower bound, not refused
    except ConfigError as exc:  # said with the flag's name, not config.json's
        text = str(exc)
        for key, flag in (("num_key_value_heads", "--kv-heads"), ("head_dim", "--head-dim"), ("vocab_size", "--vocab")):
            text = text.replace(key, flag)
        raise SizeInputError(text) from None
    return spec


def build_case(req: SizeRequest, spec: ModelSpec) -> Case:
    if req.batch < 1 or req.seq < 1:
        raise SizeInputError("--batch and --seq must be at least 1")
    mode = req.mode
    precision = req.precision or ("mixed" if mode == "full" else "bf16")
    if mode == "qlora":
        precision = "int4"
    if mode in ("full", "lora") and precision in ("int8", "int4"):
        raise SizeInputError(f"--precision {precision} is for inference or qlora, not --mode {mode}")
    targets_arg = (req.lora_targets or "all-linear").strip()
    targets: tuple[str, ...]
    if targets_arg in ("all-linear", "all"):
        targets = ALL_LINEAR
    elif targets_arg == "attention":
        targets = ATTENTION_TARGETS
    else:
        targets = tuple(x.strip() for x in targets_arg.split(",") if x.strip())
        bad = [x for x in targets if x not in ALL_LINEAR]
        if bad or not targets:
            raise SizeInputError(f"--lora-targets: unknown {', '.join(bad) or '(empty)'}; use names from "
                                 f"{', '.join(ALL_LINEAR)}")
    rank = req.lora_rank if req.lora_rank is not None else (64 if mode == "qlora" else 8)
    if rank < 1:
        raise SizeInputError("--lora-rank must be at least 1")
    optimizer = "adamw-8bit" if req.optimizer == "paged-adamw-8bit" else req.optimizer
    checkpointing = None if req.checkpointing is None else req.checkpointing == "on"
    if req.loss_chunks < 1 or (req.max_batched_tokens or 0) < 0:
        raise SizeInputError("--loss-chunks must be at least 1 and --max-batched-tokens not negative")
    if req.offload_activations and checkpointing is False:
        raise SizeInputError("--offload-activations moves the checkpoints: it needs --checkpointing on")
    batched = (SERVING_PREFILL_TOKENS if req.max_batched_tokens is None else req.max_batched_tokens or None
               ) if mode == "inference" else None
    case = Case(spec, mode, cast(PrecisionName, precision), req.kv_precision, cast(OptimizerName, optimizer),
                req.batch, req.seq, checkpointing, rank, targets, max_batched_tokens=batched)
    return with_training_options(case, TrainingOptions(
        req.attention, req.loss_chunks, req.sequence_parallel, req.offload_optimizer, req.offload_params,
        req.offload_activations), deepspeed_settings(req, spec))


@dataclass(frozen=True)
class TrainingOptions:
    """The training options of `gpu-procure size` (and of a plan's requirements, format 12)."""

    attention: AttentionImpl = "flash"
    loss_chunks: int = 1
    sequence_parallel: bool = False
    offload_optimizer: bool = False
    offload_params: bool = False
    offload_activations: bool = False


def with_training_options(case: Case, options: TrainingOptions, ds: DeepSpeedSettings | None) -> Case:
    """``case`` with the training options and a DeepSpeed configuration's buffers and offloads applied: the one
    place `size` and the plan's sizing (procurement.sizing.plan_sizing) turn the options into the model's case.
    An offload asked for by the option or by the config is on; offloading activations turns checkpointing on."""
    buffers = ZeroBuffers()
    offload_opt, offload_params = options.offload_optimizer, options.offload_params
    offload_acts = options.offload_activations
    if ds is not None:
        buffers = ds.buffers
        offload_opt, offload_params = offload_opt or ds.offload_optimizer, offload_params or ds.offload_params
        offload_acts = offload_acts or ds.offload_activations
    return replace(case, checkpointing=True if offload_acts else case.checkpointing, offload_optimizer=offload_opt,
                   sequence_parallel=options.sequence_parallel, attention=options.attention,
                   loss_chunks=options.loss_chunks, offload_params=offload_params, offload_activations=offload_acts,
                   zero_buffers=buffers)


def deepspeed_settings(req: SizeRequest, spec: ModelSpec) -> DeepSpeedSettings | None:
    """The --deepspeed-config file's ZeRO settings (None without one)."""
    path = req.deepspeed_config
    if path is None:
        return None
    try:
        return read_deepspeed(path, spec.hidden)
    except DeepSpeedConfigError as exc:
        raise SizeInputError(f"--deepspeed-config: {exc}") from None


@dataclass(frozen=True)
class GpuFacts:
    memory_gb: float | None
    name: str = ""
    bandwidth_gbs: float | None = None
    nvlink_gbs: float = 0.0
    pcie_gbs: float = 31.5
    tflops: float | None = None
    p2p: bool = True
    fp8: bool | None = None


def gpu_facts(req: SizeRequest) -> GpuFacts:
    from procurement.sizing.hardware import facts_for_gpu

    if req.gpu_memory_gb is not None and req.gpu_memory_gb <= 0:
        raise SizeInputError("--gpu-memory-gb must be positive")
    if not req.gpu:
        return GpuFacts(req.gpu_memory_gb)
    from catalog.loader import load_catalog
    from catalog.models import Gpu

    cat = load_catalog(list(req.catalog_dirs))
    gpu = cat.get("gpu", req.gpu)
    if not isinstance(gpu, Gpu):
        ids = ", ".join(g.id for g in cat.all(Gpu))
        raise SizeInputError(f"unknown GPU {req.gpu!r}; catalog GPUs: {ids}")
    facts = facts_for_gpu(gpu)
    mem = req.gpu_memory_gb if req.gpu_memory_gb is not None else facts.memory_gb
    return GpuFacts(mem, gpu.name, facts.bandwidth_gbs, facts.nvlink_gbs, facts.pcie_gbs, facts.tflops,
                    facts.p2p, facts.fp8)


# ---------------------------------------------------------------------------------------------- result
@dataclass(frozen=True)
class SizeResult:
    case: Case
    parallel: Parallel
    memory: PerGpu
    margin_pct: float
    gpu: GpuFacts
    fits: bool | None
    scheme_text: str
    gpus_needed: int | None
    serving: Serving | None
    checks: list[tuple[str, str, dict[str, Any]]]
    """(id, severity, message fields)."""
    notes: list[str]

    @property
    def with_margin_gb(self) -> float:
        return self.memory.total * (1 + self.margin_pct / 100)


def layout(req: SizeRequest, case: Case, cluster: Cluster, margin: float) -> tuple[Parallel, Search | None]:
    total = req.gpus * req.nodes
    if req.gpus < 1 or req.nodes < 1:
        raise SizeInputError("--gpus and --nodes must be at least 1")
    scheme: SchemeName | None = "zero3" if req.scheme == "fsdp" else req.scheme
    ds = deepspeed_settings(req, case.model)
    if scheme is None and ds is not None and ds.scheme is not None:  # the ds_config's stage fixes the scheme
        scheme = ds.scheme
    explicit = req.tp is not None or req.pp is not None or scheme is not None
    if not explicit and total > 1 and not cluster.gpu_memory_gb:
        # no GPU memory to search against: the usual layouts. Serving: tensor parallel over a node's GPUs (the
        # largest size the heads allow), pipeline over the nodes, as vLLM is run; training: ZeRO-3/FSDP.
        if case.training:
            return Parallel(1, 1, total, "zero3"), None
        tp = max(d for d in range(1, req.gpus + 1) if req.gpus % d == 0 and tp_ok(case, d))
        return Parallel(tp, req.nodes, req.gpus // tp, "dp"), None
    if explicit or total == 1 or not cluster.gpu_memory_gb:
        tp, pp = req.tp or 1, req.pp or 1
        if tp < 1 or pp < 1 or total % (tp * pp):
            raise SizeInputError(f"--tp {tp} × --pp {pp} does not divide the {total} GPUs")
        if tp > req.gpus:
            raise SizeInputError(f"--tp {tp} is more than the {req.gpus} GPUs of one node")
        return Parallel(tp, pp, total // (tp * pp), scheme or "dp"), None
    found = search(case, cluster, margin)
    best = found.best or found.smallest
    return best.parallel, found


def compute(req: SizeRequest, margin_pct: float) -> SizeResult:
    spec, notes = model_spec(req)
    case = build_case(req, spec)
    gpu = gpu_facts(req)
    if case.max_batched_tokens and req.max_batched_tokens is None and gpu.memory_gb:  # vLLM's default
        tokens, seqs = vllm_batch_defaults(gpu.memory_gb, gpu.name)
        case = replace(case, max_batched_tokens=tokens, max_seqs=seqs)
    cluster = Cluster(gpu.memory_gb or 0.0, req.gpus, req.nodes, gpu.nvlink_gbs, gpu.pcie_gbs,
                      req.network_gbps, gpu.tflops, gpu.p2p)
    par, found = layout(req, case, cluster, margin_pct)
    mem = per_gpu(case, par, explain=True)
    with_margin = mem.total * (1 + margin_pct / 100)
    fits = None if not gpu.memory_gb else with_margin <= gpu.memory_gb
    choice = Choice(par, mem, with_margin, bool(fits), communication(case, par, cluster),
                    case.batch if par.pp > 1 else 1)
    text = describe(choice, cluster, "en")
    checks = layout_checks(case, par, gpu)
    if not fits and found is not None:  # P2P matters for a layout that is used, not for one that fails anyway
        checks = [c for c in checks if c[0] != "SIZE-TP-NO-P2P"]
    if any(sev == "error" for _, sev, _ in checks):
        fits = False
    srv = None
    if not case.training and gpu.memory_gb:
        srv = serving(case, par, gpu.memory_gb, req.utilization, gpu.bandwidth_gbs, par.dp)
    if req.optimizer == "paged-adamw-8bit":
        notes.append("size.note.paged")
    if case.training and case.recompute and req.checkpointing is None:
        notes.append("size.note.checkpointing_default")
    if fits is False and case.training and not case.recompute:
        notes.append("size.note.try_checkpointing")
    gpus_needed = found.gpus_needed if found is not None else None
    return SizeResult(case, par, mem, margin_pct, gpu, fits, text, gpus_needed, srv, checks, notes)


def layout_checks(case: Case, par: Parallel, gpu: GpuFacts) -> list[tuple[str, str, dict[str, Any]]]:
    """Checks tied to the layout: heads divisible by TP, TP without peer-to-peer, fp8 support."""
    m = case.model
    out: list[tuple[str, str, dict[str, Any]]] = []
    if par.tp > 1 and not tp_ok(case, par.tp):
        out.append(("SIZE-TP-HEADS", "error", {"tp": par.tp, "heads": m.heads, "kv": m.kv_heads}))
    if par.tp > 1 and not gpu.p2p:
        out.append(("SIZE-TP-NO-P2P", "warning", {"tp": par.tp, "gpu": gpu.name}))
    if case.precision == "fp8" and gpu.fp8 is False:
        out.append(("SIZE-FP8-UNSUPPORTED", "error", {"gpu": gpu.name}))
    if m.max_context and case.seq > m.max_context:
        out.append(("SIZE-CONTEXT", "warning", {"seq": case.seq, "max": m.max_context}))
    return out

"""`gpu-procure size`: GPU memory per GPU for a model, mode and parallelism plan, as text or JSON.

Exit status: 0 fits every GPU (with the margin), 1 does not fit, 2 bad input, 3 no GPU memory given (the
size is printed, but whether it fits cannot be decided). Figures are GB (10^9 bytes). docs/sizing.md.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TextIO, cast

from procurement.commands import add_catalog_option
from procurement.exit_status import ExitStatus
from procurement.llm.presets import MODELS, preset
from procurement.llm.shapes import ALL_LINEAR, ATTENTION_TARGETS, ConfigError, ModelSpec, read_hf_config
from procurement.messages import Lang, default_lang, languages, plural, register, t
from procurement.sizing.deepspeed import DeepSpeedConfigError, DeepSpeedSettings
from procurement.sizing.deepspeed import read as read_deepspeed
from procurement.sizing.memory import (
    GB,
    GIB,
    SERVING_PREFILL_TOKENS,
    Case,
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

EXIT_FITS, EXIT_NO_FIT, EXIT_BAD_INPUT, EXIT_UNKNOWN = (
    ExitStatus.OK, ExitStatus.FAILED, ExitStatus.UNUSABLE, ExitStatus.INCOMPLETE)
DEFAULT_MARGIN_PCT = 20.0
"""The policy's vram_margin_pct (resources/policy/default.yaml) unless --policy gives another."""


class SizeInputError(ValueError):
    """Input the command cannot use (exit 2)."""


def add_arguments(p: argparse.ArgumentParser) -> None:
    m = p.add_argument_group("model (one of --model, --config or the shape flags)")
    m.add_argument("--model", metavar="PRESET", help="model preset id (see --list-models)")
    m.add_argument("--config", type=Path, metavar="FILE", help="a Hugging Face config.json")
    m.add_argument("--list-models", action="store_true", help="print the preset ids and exit")
    m.add_argument("--params-b", type=float, help="parameters, billions")
    m.add_argument("--layers", type=int)
    m.add_argument("--hidden", type=int)
    m.add_argument("--heads", type=int)
    m.add_argument("--kv-heads", type=int)
    m.add_argument("--head-dim", type=int)
    m.add_argument("--vocab", type=int)
    m.add_argument("--intermediate", type=int, help="MLP width (derived from --params-b when omitted)")
    w = p.add_argument_group("workload")
    w.add_argument("--mode", choices=("inference", "full", "lora", "qlora"), default="inference")
    w.add_argument("--precision", choices=("fp32", "mixed", "bf16", "fp16", "fp8", "int8", "int4"),
                   help="mixed = 16-bit compute with fp32 master weights; bf16 = pure bf16 (default: bf16; "
                        "mixed for full training; NF4 for qlora)")
    w.add_argument("--kv-precision", choices=("fp32", "bf16", "fp16", "fp8", "int8"), default="bf16")
    w.add_argument("--optimizer", choices=("adamw", "adamw-8bit", "paged-adamw-8bit", "sgd"), default="adamw")
    w.add_argument("--batch", type=int, default=1, help="sequences per data-parallel replica (default 1)")
    w.add_argument("--seq", type=int, default=2048, help="tokens per sequence, prompt plus output")
    w.add_argument("--checkpointing", choices=("on", "off"), default=None,
                   help="gradient checkpointing (default: on for lora/qlora, off for full)")
    w.add_argument("--lora-rank", type=int, default=None, help="default 8 (PEFT) for lora, 64 (QLoRA) for qlora")
    w.add_argument("--lora-targets", default="all-linear",
                   help="all-linear, attention, or a comma list such as q_proj,v_proj")
    w.add_argument("--offload-optimizer", action="store_true", help="optimizer state in CPU RAM (ZeRO-Offload)")
    w.add_argument("--deepspeed-config", type=Path, metavar="FILE",
                   help="a ds_config.json: its ZeRO stage, bucket sizes and offloads (defaults: DeepSpeed's)")
    w.add_argument("--sequence-parallel", action="store_true", help="Megatron sequence parallelism with TP")
    w.add_argument("--attention", choices=("flash", "sdpa", "eager"), default="flash",
                   help="attention kernel in training: eager stores the score matrices (default flash)")
    w.add_argument("--loss-chunks", type=int, default=1,
                   help="cross-entropy over this many chunks (chunked/compiled loss, Liger); default 1")
    w.add_argument("--offload-params", action="store_true", help="ZeRO-3 weights in CPU RAM (offload_param)")
    w.add_argument("--offload-activations", action="store_true",
                   help="activation checkpoints in CPU RAM (DeepSpeed cpu_checkpointing; with --checkpointing on)")
    w.add_argument("--max-batched-tokens", type=int, default=None,
                   help="inference: the serving engine's batched-token budget per step (default vLLM's for the "
                        "GPU: 8192 on 70 GiB and more except A100, else 2048); 0 = the whole prompt of every "
                        "sequence at once, as Hugging Face generate")
    g = p.add_argument_group("GPUs and layout")
    g.add_argument("--gpus", type=int, default=1, help="GPUs per node (default 1)")
    g.add_argument("--nodes", type=int, default=1)
    g.add_argument("--tp", type=int, default=None, help="tensor-parallel size (default: searched)")
    g.add_argument("--pp", type=int, default=None, help="pipeline-parallel size (default: searched)")
    g.add_argument("--scheme", choices=("dp", "zero1", "zero2", "zero3", "fsdp"), default=None,
                   help="data-parallel sharding; fsdp = ZeRO-3 (default: searched)")
    g.add_argument("--network-gbps", type=float, default=None, help="network between nodes, Gb/s per node")
    g.add_argument("--gpu", metavar="ID", help="catalog GPU id (memory, bandwidth, links)")
    g.add_argument("--gpu-memory-gb", type=float, default=None, help="memory per GPU, GB (10^9 B)")
    g.add_argument("--utilization", type=float, default=0.9, help="share of GPU memory for serving (vLLM 0.9)")
    g.add_argument("--margin-pct", type=float, default=None, help="safety margin (default: policy, 20 %%)")
    p.add_argument("--json", action="store_true")
    p.add_argument("--lang", choices=languages(), default=None)
    add_catalog_option(p)


# ---------------------------------------------------------------------------------------------- inputs
def _model(args: argparse.Namespace) -> tuple[ModelSpec, list[str]]:
    notes: list[str] = []
    if args.model:
        spec = preset(args.model)
        if spec is None:
            raise SizeInputError(f"unknown model preset {args.model!r}; presets: {', '.join(MODELS)}")
        return spec, notes
    if args.config:
        try:
            return read_hf_config(str(args.config))[0], notes
        except ConfigError as exc:
            raise SizeInputError(str(exc)) from None
    return shape_from_flags(args, notes), notes


def shape_from_flags(args: argparse.Namespace, notes: list[str]) -> ModelSpec:
    """A ModelSpec from --params-b/--layers/--hidden/… (the MLP width solved from the parameter count)."""
    if not (args.layers and args.hidden):
        raise SizeInputError("give --model PRESET, --config config.json, or at least --layers and --hidden "
                             "with --params-b or --intermediate")
    for name in ("layers", "hidden", "heads", "kv_heads", "head_dim", "vocab", "intermediate"):
        v = getattr(args, name)
        if v is not None and v <= 0:
            raise SizeInputError(f"--{name.replace('_', '-')} must be positive")
    head_dim = args.head_dim or (args.hidden // args.heads if args.heads else 128)
    heads = args.heads or max(args.hidden // head_dim, 1)
    if not args.heads:
        notes.append("size.note.heads_assumed")
    kv = args.kv_heads or heads
    vocab = args.vocab or 0
    if not args.vocab:
        notes.append("size.note.no_vocab")
    base = ModelSpec("custom", "custom", args.layers, args.hidden, heads, kv, head_dim, vocab, 0)
    inter = args.intermediate
    if inter is None:
        if not args.params_b or args.params_b <= 0:
            raise SizeInputError("give --params-b or --intermediate")
        rest = args.params_b * 1e9 - base.embedding_params - args.layers * (base.attention_params + 2 * args.hidden)
        inter = int(rest / (3 * args.hidden * args.layers))
        if inter <= 0:
            raise SizeInputError("--params-b is too small for these --layers/--hidden/--vocab")
    return ModelSpec("custom", f"custom {args.params_b or ''}B".replace(" B", ""), args.layers, args.hidden,
                     heads, kv, head_dim, vocab, inter, source="command-line shape",
                     published_params_b=args.params_b)


def build_case(args: argparse.Namespace, spec: ModelSpec) -> Case:
    if args.batch < 1 or args.seq < 1:
        raise SizeInputError("--batch and --seq must be at least 1")
    mode = args.mode
    precision = args.precision or ("mixed" if mode == "full" else "bf16")
    if mode == "qlora":
        precision = "int4"
    if mode in ("full", "lora") and precision in ("int8", "int4"):
        raise SizeInputError(f"--precision {precision} is for inference or qlora, not --mode {mode}")
    targets_arg = (args.lora_targets or "all-linear").strip()
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
    rank = args.lora_rank if args.lora_rank is not None else (64 if mode == "qlora" else 8)
    if rank < 1:
        raise SizeInputError("--lora-rank must be at least 1")
    optimizer = "adamw-8bit" if args.optimizer == "paged-adamw-8bit" else args.optimizer
    checkpointing = None if args.checkpointing is None else args.checkpointing == "on"
    if args.loss_chunks < 1 or (args.max_batched_tokens or 0) < 0:
        raise SizeInputError("--loss-chunks must be at least 1 and --max-batched-tokens not negative")
    if args.offload_activations and checkpointing is False:
        raise SizeInputError("--offload-activations moves the checkpoints: it needs --checkpointing on")
    batched = (SERVING_PREFILL_TOKENS if args.max_batched_tokens is None else args.max_batched_tokens or None
               ) if mode == "inference" else None
    buffers = ZeroBuffers()
    offload_opt, offload_params, offload_acts = args.offload_optimizer, args.offload_params, args.offload_activations
    ds = deepspeed_settings(args, spec)
    if ds is not None:
        buffers = ds.buffers
        offload_opt, offload_params = offload_opt or ds.offload_optimizer, offload_params or ds.offload_params
        offload_acts = offload_acts or ds.offload_activations
    return Case(spec, mode, cast(PrecisionName, precision), args.kv_precision, cast(OptimizerName, optimizer),
                args.batch, args.seq, True if offload_acts else checkpointing, rank, targets,
                offload_opt, args.sequence_parallel, attention=args.attention,
                loss_chunks=args.loss_chunks, offload_params=offload_params,
                offload_activations=offload_acts, zero_buffers=buffers, max_batched_tokens=batched)


def deepspeed_settings(args: argparse.Namespace, spec: ModelSpec) -> DeepSpeedSettings | None:
    """The --deepspeed-config file's ZeRO settings (None without one)."""
    path = getattr(args, "deepspeed_config", None)
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


def gpu_facts(args: argparse.Namespace) -> GpuFacts:
    from procurement.sizing.hardware import facts_for_gpu

    if args.gpu_memory_gb is not None and args.gpu_memory_gb <= 0:
        raise SizeInputError("--gpu-memory-gb must be positive")
    if not args.gpu:
        return GpuFacts(args.gpu_memory_gb)
    from catalog.loader import load_catalog
    from catalog.models import Gpu

    cat = load_catalog(list(getattr(args, "catalog", []) or []) + list(args.catalog_sub or []))
    gpu = cat.get("gpu", args.gpu)
    if not isinstance(gpu, Gpu):
        ids = ", ".join(g.id for g in cat.all(Gpu))
        raise SizeInputError(f"unknown GPU {args.gpu!r}; catalog GPUs: {ids}")
    facts = facts_for_gpu(gpu)
    mem = args.gpu_memory_gb if args.gpu_memory_gb is not None else facts.memory_gb
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


def _layout(args: argparse.Namespace, case: Case, cluster: Cluster, margin: float
            ) -> tuple[Parallel, Search | None]:
    total = args.gpus * args.nodes
    if args.gpus < 1 or args.nodes < 1:
        raise SizeInputError("--gpus and --nodes must be at least 1")
    scheme: SchemeName | None = "zero3" if args.scheme == "fsdp" else args.scheme
    ds = deepspeed_settings(args, case.model)
    if scheme is None and ds is not None and ds.scheme is not None:  # the ds_config's stage fixes the scheme
        scheme = ds.scheme
    explicit = args.tp is not None or args.pp is not None or scheme is not None
    if not explicit and total > 1 and not cluster.gpu_memory_gb:
        # no GPU memory to search against: the usual layouts. Serving: tensor parallel over a node's GPUs (the
        # largest size the heads allow), pipeline over the nodes, as vLLM is run; training: ZeRO-3/FSDP.
        if case.training:
            return Parallel(1, 1, total, "zero3"), None
        tp = max(d for d in range(1, args.gpus + 1) if args.gpus % d == 0 and tp_ok(case, d))
        return Parallel(tp, args.nodes, args.gpus // tp, "dp"), None
    if explicit or total == 1 or not cluster.gpu_memory_gb:
        tp, pp = args.tp or 1, args.pp or 1
        if tp < 1 or pp < 1 or total % (tp * pp):
            raise SizeInputError(f"--tp {tp} × --pp {pp} does not divide the {total} GPUs")
        if tp > args.gpus:
            raise SizeInputError(f"--tp {tp} is more than the {args.gpus} GPUs of one node")
        return Parallel(tp, pp, total // (tp * pp), scheme or "dp"), None
    found = search(case, cluster, margin)
    best = found.best or found.smallest
    return best.parallel, found


def compute(args: argparse.Namespace, margin_pct: float) -> SizeResult:
    spec, notes = _model(args)
    case = build_case(args, spec)
    gpu = gpu_facts(args)
    if case.max_batched_tokens and args.max_batched_tokens is None and gpu.memory_gb:  # vLLM's default
        tokens, seqs = vllm_batch_defaults(gpu.memory_gb, gpu.name)
        case = replace(case, max_batched_tokens=tokens, max_seqs=seqs)
    cluster = Cluster(gpu.memory_gb or 0.0, args.gpus, args.nodes, gpu.nvlink_gbs, gpu.pcie_gbs,
                      args.network_gbps, gpu.tflops, gpu.p2p)
    par, found = _layout(args, case, cluster, margin_pct)
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
        srv = serving(case, par, gpu.memory_gb, args.utilization, gpu.bandwidth_gbs, par.dp)
    if args.optimizer == "paged-adamw-8bit":
        notes.append("size.note.paged")
    if case.training and case.recompute and args.checkpointing is None:
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


def result_json(r: SizeResult, lang: Lang) -> dict[str, Any]:
    m = r.case.model
    out: dict[str, Any] = {
        "model": {"id": m.id, "name": m.name, "params_b": round(m.params_b, 3),
                  "active_params_b": round(m.active_params_b, 3), "moe": m.moe, "mla": m.mla,
                  "source": m.source},
        "mode": r.case.mode,
        "precision": r.case.precision,
        "per_gpu_gb": round(r.memory.total, 3),
        "allocated_gb": round(r.memory.allocated, 3),
        "per_gpu_with_margin_gb": round(r.with_margin_gb, 3),
        "margin_pct": r.margin_pct,
        "breakdown": {k: round(v, 3) for k, v in r.memory.breakdown().items()},
        "formulas": dict(r.memory.formulas),
        "gpu_memory_gb": round(r.gpu.memory_gb, 3) if r.gpu.memory_gb else None,
        "fits": r.fits,
        "scheme": r.parallel.label(),
        "parallel": {"tp": r.parallel.tp, "pp": r.parallel.pp, "dp": r.parallel.dp, "zero": r.parallel.zero,
                     "gpus": r.parallel.gpus},
        "communication": r.scheme_text,
        "gpus_needed": r.gpus_needed,
        "checkpointing": r.case.recompute if r.case.training else None,
        "trainable_params": int(r.memory.trainable_params) if r.case.training else None,
        "cpu_offload_gb": round(r.memory.cpu_offload, 3),
        "kv_tokens": r.serving.kv_tokens if r.serving else None,
        "max_concurrency": round(r.serving.max_concurrency, 2) if r.serving else None,
        "kv_tokens_all_copies": r.serving.kv_tokens * r.parallel.dp if r.serving else None,
        "decode_tokens_per_s": (
            {"per_request": _round(r.serving.decode_tps_per_request),
             "aggregate": _round(r.serving.decode_tps_aggregate), "bound": "memory bandwidth (upper bound)"}
            if r.serving else None),
        "checks": [{"id": cid, "severity": sev, "message": t(f"size.check.{cid}", lang, **kw)}
                   for cid, sev, kw in r.checks],
        "notes": [t(n, lang) for n in r.notes],
        "lower_bound": "size.note.no_vocab" in r.notes,
    }
    return out


def _round(v: float | None) -> float | None:
    return None if v is None else round(v, 1)


def format_text(r: SizeResult, lang: Lang) -> str:
    m = r.case.model
    lines = [t("size.head", lang, name=m.name, params=f"{m.params_b:,.1f}", active=f"{m.active_params_b:,.1f}",
               mode=r.case.mode, precision=r.case.precision, scheme=r.parallel.label(), gpus=r.parallel.gpus)]
    for key, gb in r.memory.breakdown().items():
        if gb:
            lines.append(f"  {t('size.part.' + key, lang):<14} {gb:>9,.2f} GB   {r.memory.formulas.get(key, '')}")
    lines.append(t("size.total", lang, gb=f"{r.memory.total:,.2f}", pct=f"{r.margin_pct:g}",
                   margin=f"{r.with_margin_gb:,.2f}"))
    if r.memory.cpu_offload:
        lines.append(t("size.offload", lang, gb=f"{r.memory.cpu_offload:,.2f}"))
    if r.gpu.memory_gb:
        key = "size.fits" if r.fits else "size.no_fit"
        lines.append(t(key, lang, have=f"{r.gpu.memory_gb:,.1f}", gib=f"{r.gpu.memory_gb * GB / GIB:,.1f}"))
    else:
        lines.append(t("size.no_gpu", lang))
    lines.append(r.scheme_text)
    if r.gpus_needed:
        lines.append(t("size.gpus_needed", lang, n=r.gpus_needed))
    if r.serving:
        s = r.serving
        lines.append(t("size.serving", lang, tokens=f"{s.kv_tokens:,}", conc=f"{s.max_concurrency:,.2f}",
                       seq=f"{r.case.seq:,}", kv=f"{s.kv_cache_gb:,.1f}"))
        if s.decode_tps_per_request:
            lines.append(t("size.decode", lang, one=f"{s.decode_tps_per_request:,.0f}",
                           agg=f"{s.decode_tps_aggregate or 0:,.0f}"))
    for cid, sev, kw in r.checks:
        lines.append(f"[{t('severity.' + sev, lang)}] {cid}: {t('size.check.' + cid, lang, **kw)}")
    lines += [t(n, lang) for n in r.notes]
    return "\n".join(lines)


def run_size(args: argparse.Namespace, out: TextIO | None = None, err: TextIO | None = None) -> int:
    out = out or sys.stdout
    err = err or sys.stderr
    lang: Lang = args.lang or default_lang()
    if args.list_models:
        for spec in MODELS.values():
            print(f"{spec.id:32} {spec.name} ({spec.params_b:,.1f} B)", file=out)
        return EXIT_FITS
    margin = DEFAULT_MARGIN_PCT if args.margin_pct is None else args.margin_pct
    try:
        if not 0 < args.utilization <= 1:
            raise SizeInputError("--utilization must be in (0, 1]")
        if margin < 0:
            raise SizeInputError("--margin-pct must not be negative")
        r = compute(args, margin)
    except SizeInputError as exc:
        print(f"gpu-procure size: {exc}", file=err)
        return EXIT_BAD_INPUT
    text = json.dumps(result_json(r, lang), ensure_ascii=False, indent=2) if args.json else format_text(r, lang)
    try:
        print(text, file=out)
        out.flush()
    except BrokenPipeError:  # `gpu-procure size … | head`: the reader left; no traceback
        if out is sys.stdout:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return EXIT_UNKNOWN if r.fits is None else EXIT_FITS if r.fits else EXIT_NO_FIT


def run(args: argparse.Namespace) -> int:
    return int(run_size(args))


def main(argv: list[str] | None = None, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Stand-alone entry (tests, ``python -m procurement.commands.size``)."""
    p = argparse.ArgumentParser(prog="gpu-procure size")
    add_arguments(p)
    try:
        args = p.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0) and EXIT_BAD_INPUT
    return int(run_size(args, out, err))


register(
    {
        "size.head": plural(
            (
                "{name} ({params} B params, {active} B active per token) · {mode} · {precision} · {scheme} ({gpus} "
                "GPU), per GPU:"
            ),
            (
                "{name} ({params} B params, {active} B active per token) · {mode} · {precision} · {scheme} ({gpus} "
                "GPUs), per GPU:"
            ),
            "gpus",
        ),
        "size.part.weights": "weights",
        "size.part.gradients": "gradients",
        "size.part.optimizer": "optimizer",
        "size.part.activations": "activations",
        "size.part.kv_cache": "KV cache",
        "size.part.overhead": "overhead",
        "size.total": "per GPU {gb} GB, with the {pct}% margin {margin} GB",
        "size.offload": "offloaded to CPU RAM: {gb} GB per GPU",
        "size.fits": "Fits every GPU ({have} GB = {gib} GiB each).",
        "size.no_fit": "Does not fit: each GPU has {have} GB ({gib} GiB).",
        "size.no_gpu": "No GPU given (--gpu or --gpu-memory-gb): whether it fits is not decided.",
        "size.gpus_needed": plural("At least {n} GPU of this model.", "At least {n} GPUs of this model.", "n"),
        "size.serving": (
            "KV cache {kv} GB: {tokens} tokens; at most {conc} concurrent requests of {seq} tokens (as vLLM computes "
            "it)."
        ),
        "size.decode": (
            "Decode bound by memory bandwidth: about {one} tokens/s per request, {agg} tokens/s in aggregate at full "
            "concurrency (upper bounds)."
        ),
        "size.note.heads_assumed": "No --heads: the head count assumes 128 dimensions per head.",
        "size.note.no_vocab": (
            "No --vocab: embeddings, LM head and logits are not counted; the figures are lower bounds."
        ),
        "size.note.paged": (
            "The paged optimizer moves its state to CPU RAM at memory spikes; resident memory is counted as 8-bit "
            "AdamW."
        ),
        "size.note.checkpointing_default": (
            "Gradient checkpointing is on, as in the standard recipe (--checkpointing off to change)."
        ),
        "size.note.try_checkpointing": "Gradient checkpointing (--checkpointing on) cuts the activation memory a lot.",
        "size.check.SIZE-TP-HEADS": "Tensor parallel {tp} does not divide the {heads} attention heads ({kv} KV heads).",
        "size.check.SIZE-TP-NO-P2P": (
            "{gpu} has no peer-to-peer between GPUs: tensor parallel {tp} goes through host memory and will be slow."
        ),
        "size.check.SIZE-FP8-UNSUPPORTED": "{gpu} does not support FP8 (compute capability 8.9 or later needed).",
        "size.check.SIZE-CONTEXT": "The sequence of {seq} tokens is longer than the model's maximum context of {max}.",
    }
)

if __name__ == "__main__":
    sys.exit(main())

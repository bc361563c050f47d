"""`gpu-procure size`: GPU memory per GPU for a model, mode and parallelism plan, as text or JSON.

Exit status: 0 fits every GPU (with the margin), 1 does not fit, 2 bad input, 3 no GPU memory given (the
size is printed, but whether it fits cannot be decided). Figures are GB (10^9 bytes). docs/sizing.md.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from dataclasses import fields
from pathlib import Path
from typing import Any, TextIO

from procurement.commands import add_catalog_option
from procurement.exit_status import ExitStatus
from procurement.llm.presets import MODELS
from procurement.messages import Lang, default_lang, languages, plural, register, t
from procurement.sizing.estimate import DEFAULT_MARGIN_PCT, SizeInputError, SizeRequest, SizeResult, compute
from procurement.sizing.memory import GB, GIB

EXIT_FITS, EXIT_NO_FIT, EXIT_BAD_INPUT, EXIT_UNKNOWN = (
    ExitStatus.OK, ExitStatus.FAILED, ExitStatus.UNUSABLE, ExitStatus.INCOMPLETE)


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


def request_from(args: argparse.Namespace) -> SizeRequest:
    """The request the options make (the user catalog directories given before and after the word)."""
    given = {f.name: getattr(args, f.name) for f in fields(SizeRequest) if hasattr(args, f.name)}
    dirs = [*(getattr(args, "catalog", []) or []), *(getattr(args, "catalog_sub", []) or [])]
    return SizeRequest(**{**given, "catalog_dirs": tuple(dirs)})


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
        if not (math.isfinite(margin) and 0 <= margin <= 1000):
            raise SizeInputError("--margin-pct must be a number from 0 to 1000")
        for flag, value in (("--gpu-memory-gb", args.gpu_memory_gb), ("--network-gbps", args.network_gbps)):
            if value is not None and not (math.isfinite(value) and 0 < value <= 1e6):
                raise SizeInputError(f"{flag} must be a number above 0 and at most 1,000,000")
        r = compute(request_from(args), margin)
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

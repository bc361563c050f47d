"""VRAM rules: does the workload fit **each** GPU of the plan, under which parallelism scheme, and at what cost.

Memory is never summed across GPUs: procurement.sizing.plan_sizing sizes the busiest GPU of the cheapest
fitting layout (data parallel, ZeRO-1/2/3 = FSDP, tensor and pipeline parallel over the plan's GPUs and
nodes) or of the layout the requirements fix, and these rules report its verdict. Formulas and sources:
procurement/sizing/memory.py and docs/sizing.md.
"""

from __future__ import annotations

import math

from catalog.loader import Catalog
from procurement.coded import Coded, by_language, coded, joined
from procurement.findings import Family, Finding, Severity
from procurement.messages import plural, register
from procurement.plan import Plan, Precision, Workload
from procurement.policy import Policy
from procurement.rules.base import GIB_TO_GB, make, resolve
from procurement.rules.registry import rule
from procurement.sizing.plan_sizing import size_plan

FAMILY: Family = "vram"
SIZED_WORKLOADS = (Workload.TRAINING, Workload.FINE_TUNING, Workload.INFERENCE)
STEP = 2
FIELDS = ("gpu.count", "gpu.model")


@rule(FAMILY, "VRAM-TOTAL", "VRAM-SHARDING", "VRAM-NETWORK-BOUND", step=2, item="gpu_vram")
def capacity(plan: Plan, catalog: Catalog, policy: Policy) -> list[Finding]:
    """VRAM-TOTAL: no layout of the plan's GPUs holds the workload on each GPU (error). VRAM-SHARDING: it
    fits only when the model is split or sharded, and says the scheme and its communication cost (info);
    VRAM-NETWORK-BOUND when that scheme's traffic outlasts the compute (warning)."""
    p = resolve(plan, catalog)
    if p.gpu is None or not p.gpu_count:
        return []
    s = size_plan(plan, catalog, policy.vram_margin_pct)
    if s is None or s.cluster is None or s.fits is None:
        return []
    req = plan.requirements
    per_gpu_gb = p.gpu.memory_gib * GIB_TO_GB
    gpus = p.gpu_count * req.nodes
    kw = dict(
        need=f"{s.memory.total:,.1f}",
        need_margin=f"{s.with_margin_gb:,.1f}",
        per_gpu=f"{per_gpu_gb:,.1f}",
        per_gpu_gib=f"{p.gpu.memory_gib:g}",
        gpus=gpus,
        gpu=p.gpu.name,
        scheme=s.parallel.label(),
        nodes=req.nodes,
        per_node=p.gpu_count,
        pct=f"{s.margin_pct:g}",
        parts=_parts(s.memory.breakdown()),
    )
    out: list[Finding] = []
    if not s.fits:
        fit = s.gpus_needed
        variant = "nodes" if req.nodes > 1 else None
        fix_variant = "none" if fit is None else ("nodes" if req.nodes > 1 else None)
        fit_node = math.ceil((fit or 0) / req.nodes)
        msg = make("VRAM-TOTAL", Severity.ERROR, FIELDS, variant=variant,
                   fit=fit or 0, fit_node=fit_node, **kw)
        if fix_variant != variant:
            fix = make("VRAM-TOTAL", Severity.ERROR, FIELDS, variant=fix_variant,
                       fit=fit or 0, fit_node=fit_node, **kw)
            msg = msg.model_copy(update={"coded_fix": fix.coded_fix})
        out.append(msg)
        return out
    if s.parallel.gpus > 1 and (s.parallel.tp > 1 or s.parallel.pp > 1 or s.parallel.zero > 0):
        out.append(make("VRAM-SHARDING", Severity.INFO, FIELDS,
                        comm=by_language(s.comm_text), **kw))
    if s.network_bound:
        out.append(make("VRAM-NETWORK-BOUND", Severity.WARNING, ("requirements.network_gbps", "server.nics"),
                        comm=by_language(s.comm_text), **kw))
    return out


def _parts(breakdown: dict[str, float]) -> Coded:
    return joined((joined((coded("vram." + k), f"{v:,.1f}"), " ") for k, v in breakdown.items() if v > 0.005),
                  ", ")


@rule(FAMILY, "VRAM-TP-HEADS", "VRAM-LAYOUT", "VRAM-TP-NO-P2P", "VRAM-SERVING", step=2, item="gpu_vram")
@rule(FAMILY, "VRAM-FP8-UNSUPPORTED", step=1, item="gpu_vram")
def layout(plan: Plan, catalog: Catalog, policy: Policy) -> list[Finding]:
    """Checks tied to the GPU count: VRAM-TP-HEADS (heads not divisible by TP), VRAM-LAYOUT (TP × PP does
    not divide the GPUs), VRAM-TP-NO-P2P (GeForce 40/50 without peer-to-peer under TP), VRAM-FP8-UNSUPPORTED,
    VRAM-SERVING (the concurrent users do not fit the KV cache)."""
    s = size_plan(plan, catalog, policy.vram_margin_pct)
    if s is None or s.cluster is None:
        return []
    severity = {"VRAM-TP-HEADS": Severity.ERROR, "VRAM-LAYOUT": Severity.ERROR, "VRAM-TP-NO-P2P": Severity.WARNING,
                "VRAM-FP8-UNSUPPORTED": Severity.ERROR, "VRAM-SERVING": Severity.ERROR}
    fields = {"VRAM-TP-HEADS": ("requirements.tensor_parallel", "gpu.count"),
              "VRAM-LAYOUT": ("requirements.tensor_parallel", "requirements.pipeline_parallel", "gpu.count"),
              "VRAM-TP-NO-P2P": ("gpu.model", "requirements.tensor_parallel"),
              "VRAM-FP8-UNSUPPORTED": ("requirements.precision", "gpu.model"),
              "VRAM-SERVING": ("requirements.concurrent_users", "gpu.count", "gpu.model")}
    return [make(cid, severity[cid], fields[cid], **kw)
            for cid, kw in s.checks]


@rule(FAMILY, "VRAM-BF16-UNSUPPORTED", "VRAM-BF16-UNKNOWN", step=1, item="gpu_vram")
def bf16(plan: Plan, catalog: Catalog, policy: Policy) -> list[Finding]:
    """VRAM-BF16-UNSUPPORTED (warning): the plan's 16-bit precision ("BF16/FP16", ``precision: bf16``) on a GPU
    without BF16 (Pascal, Volta, Turing: docs/sources.md §A3) runs as FP16 there; VRAM-BF16-UNKNOWN (warning):
    the catalog does not say whether the GPU has BF16. As VRAM-FP8-UNSUPPORTED for FP8, but a warning: the
    precision also stands for FP16, which these GPUs run (the GPU choice ranks them below those with BF16,
    procurement/choices.py); with or without a model size, the precision alone decides."""
    gpu = resolve(plan, catalog).gpu
    if gpu is None or plan.requirements.precision != Precision.BF16 or gpu.bf16 is True:
        return []
    cid = "VRAM-BF16-UNSUPPORTED" if gpu.bf16 is False else "VRAM-BF16-UNKNOWN"
    return [make(cid, Severity.WARNING, ("requirements.precision", "gpu.model"), gpu=gpu.name,
                 cc=gpu.compute_capability)]


@rule(FAMILY, "VRAM-OFFLOAD-RAM", step=3, item="gpu_vram")
def offload_ram(plan: Plan, catalog: Catalog, policy: Policy) -> list[Finding]:
    """VRAM-OFFLOAD-RAM: what is offloaded to CPU RAM (the optimizer state; with format 12's options also the
    weights and activation checkpoints, or what a DeepSpeed config offloads) does not fit the node's memory."""
    req = plan.requirements
    if not (req.offload_optimizer or req.offload_params or req.offload_activations or req.deepspeed_config):
        return []
    s = size_plan(plan, catalog, policy.vram_margin_pct)
    p = resolve(plan, catalog)
    if s is None or s.cluster is None or p.memory is None:
        return []
    need = s.cpu_offload_gb_per_node
    ram = p.memory.capacity_gib * p.memory_count * GIB_TO_GB
    if need <= ram:
        return []
    only_optimizer = not (s.case.offload_params or s.case.offload_activations)
    return [make("VRAM-OFFLOAD-RAM", Severity.ERROR, ("server.memory.count", "server.memory.part"),
                 variant=None if only_optimizer else "more", need=f"{need:,.0f}", ram=f"{ram:,.0f}")]


@rule(FAMILY, "VRAM-NO-ESTIMATE", step=1, item="gpu_vram")
def no_estimate(plan: Plan, catalog: Catalog, policy: Policy) -> list[Finding]:
    """VRAM-NO-ESTIMATE: a sized workload without a model size, so GPU memory is not checked (info)."""
    req = plan.requirements
    if req.workload not in SIZED_WORKLOADS or not plan.gpu.count:
        return []
    if size_plan(plan, catalog, policy.vram_margin_pct) is not None:
        return []
    return [make("VRAM-NO-ESTIMATE", Severity.INFO, ("requirements.model_params_b",))]




def per_gpu_record(plan: Plan, catalog: Catalog, policy: Policy) -> Finding | None:
    """VRAM-PER-GPU (info, for ``check --json``): the busiest GPU's breakdown under the plan's scheme, in a
    finding's shape so that the JSON stays a list of findings; None while no GPU or no model is chosen."""
    p = resolve(plan, catalog)
    s = size_plan(plan, catalog, policy.vram_margin_pct)
    if s is None or s.cluster is None or p.gpu is None:
        return None
    parts = ", ".join(f"{k} {v:.2f}" for k, v in s.memory.breakdown().items())
    extra: Coded | str = ""
    if s.serving is not None:
        extra = coded("vram.per_gpu.serving", tokens=s.serving.kv_tokens,
                      conc=f"{s.serving.max_concurrency:.2f}", seq=s.case.seq)
    verdict = coded("vram.per_gpu.fits" if s.fits else "vram.per_gpu.no_fit")
    message = coded("vram.per_gpu.message", scheme=s.parallel.label(), gpus=s.parallel.gpus, parts=parts,
                    total=f"{s.memory.total:.2f}", margin=f"{s.with_margin_gb:.2f}", pct=f"{s.margin_pct:g}",
                    have=f"{s.cluster.gpu_memory_gb:.2f}", verdict=verdict, serving=extra)
    # not a rule of the evaluation (the GUI draws the bars instead): a record only `check --json` prints
    return Finding(rule="VRAM-PER-GPU", family=FAMILY, severity=Severity.INFO, step=STEP, fields=FIELDS,
                   coded_message=message)

register(
    {
        "VRAM-TOTAL.message": (
            "Each GPU needs {need} GB ({need_margin} GB with the {pct}% margin; best layout {scheme}: {parts}), more "
            "than one {gpu}'s {per_gpu} GB ({per_gpu_gib} GiB); the memory of the {gpus} GPUs does not add up."
        ),
        "VRAM-TOTAL.message.nodes": plural(
            (
                "Each GPU needs {need} GB ({need_margin} GB with the {pct}% margin; {nodes} node × {#per_node}, best "
                "layout {scheme}: {parts}), more than one {gpu}'s {per_gpu} GB ({per_gpu_gib} GiB)."
            ),
            (
                "Each GPU needs {need} GB ({need_margin} GB with the {pct}% margin; {nodes} nodes × {#per_node}, best "
                "layout {scheme}: {parts}), more than one {gpu}'s {per_gpu} GB ({per_gpu_gib} GiB)."
            ),
            "nodes",
        ),
        "VRAM-TOTAL.message.nodes#per_node": plural("{per_node} GPU", "{per_node} GPUs", "per_node"),
        "VRAM-TOTAL.fix": (
            "Use at least {fit} of these GPUs (per-GPU memory under the cheapest parallelism), a GPU with more memory, "
            "gradient checkpointing, or lower precision/batch size."
        ),
        "VRAM-TOTAL.fix.nodes": plural(
            (
                "Use at least {fit} of these GPUs ({fit_node} per node over {nodes} node), a GPU with more memory, "
                "gradient checkpointing, or lower precision/batch size."
            ),
            (
                "Use at least {fit} of these GPUs ({fit_node} per node over {nodes} nodes), a GPU with more memory, "
                "gradient checkpointing, or lower precision/batch size."
            ),
            "nodes",
        ),
        "VRAM-TOTAL.fix.none": (
            "Even 64 nodes of this GPU do not hold it: choose a GPU with more memory, quantise, use gradient "
            "checkpointing or a smaller batch/sequence."
        ),
        "VRAM-SHARDING.message": (
            "One GPU cannot hold a whole copy: split over the {gpus} GPUs as {scheme}, each GPU needs {need} GB "
            "({need_margin} GB with the margin), within its {per_gpu} GB. {comm}"
        ),
        "VRAM-SHARDING.fix": "Configure the framework for this layout (tensor/pipeline parallel or ZeRO/FSDP).",
        "VRAM-NETWORK-BOUND.message": "{comm}",
        "VRAM-NETWORK-BOUND.fix": (
            "Use a faster network between nodes (InfiniBand/RoCE 200-400 Gb/s) or less traffic across nodes (TP/PP "
            "inside a node, larger batches)."
        ),
        "VRAM-TP-HEADS.message": "Tensor parallel {tp} does not divide the {heads} attention heads ({kv} KV heads).",
        "VRAM-TP-HEADS.fix": "Choose a tensor-parallel size that divides the heads.",
        "VRAM-LAYOUT.message": plural(
            (
                "Tensor parallel {tp} × pipeline parallel {pp} does not divide the {gpus} GPU, or TP exceeds the "
                "{#per_node} of a node."
            ),
            (
                "Tensor parallel {tp} × pipeline parallel {pp} does not divide the {gpus} GPUs, or TP exceeds the "
                "{#per_node} of a node."
            ),
            "gpus",
        ),
        "VRAM-LAYOUT.message#per_node": plural("{per_node} GPU", "{per_node} GPUs", "per_node"),
        "VRAM-LAYOUT.fix": "Change the tensor/pipeline-parallel size or the GPU count.",
        "VRAM-TP-NO-P2P.message": (
            "{gpu} has no peer-to-peer between GPUs: tensor parallel {tp} traffic goes through host memory and will be "
            "slow."
        ),
        "VRAM-TP-NO-P2P.fix": "Prefer pipeline or data parallelism, or professional cards with P2P/NVLink.",
        "VRAM-FP8-UNSUPPORTED.message": (
            "{gpu} does not support FP8 (compute capability 8.9 or later: Ada, Hopper, Blackwell)."
        ),
        "VRAM-FP8-UNSUPPORTED.fix": "Use BF16/mixed precision or a GPU with FP8.",
        "VRAM-BF16-UNSUPPORTED.message": (
            "{gpu} (compute capability {cc}) has no BF16 (it needs compute capability 8.0 or later: Ampere, Ada, "
            "Hopper, Blackwell): BF16 is only emulated there, far slower, so the plan's 16-bit precision runs as "
            "FP16, whose narrower range can overflow a model trained in BF16."
        ),
        "VRAM-BF16-UNSUPPORTED.fix": (
            "Choose a GPU with BF16, or plan for FP16: check that the model runs in FP16, and train in mixed "
            "precision with loss scaling."
        ),
        "VRAM-BF16-UNKNOWN.message": "The catalog does not say whether {gpu} (compute capability {cc}) has BF16.",
        "VRAM-BF16-UNKNOWN.fix": (
            "Check the GPU's datasheet (BF16 needs compute capability 8.0 or later) and record it as bf16 in the "
            "catalog, or use FP16 mixed precision."
        ),
        "VRAM-SERVING.message": (
            "{users} concurrent users of {seq} tokens do not fit: the KV cache holds {tokens} tokens, about {conc} "
            "concurrent requests over {replicas} replicas."
        ),
        "VRAM-SERVING.fix": "Add GPUs, use an fp8 KV cache or quantised weights, or shorten the context.",
        "VRAM-OFFLOAD-RAM.message": (
            "The optimizer state offloaded to the CPU needs {need} GB of RAM per node; the node has {ram} GB."
        ),
        "VRAM-OFFLOAD-RAM.message.more": (
            "What is offloaded to the CPU (optimizer state, weights, activation checkpoints) needs {need} GB of RAM "
            "per node; the node has {ram} GB."
        ),
        "VRAM-OFFLOAD-RAM.fix": "Add RAM, or shard the optimizer with ZeRO instead of offloading it.",
        "vram.per_gpu.message": plural(
            (
                "per GPU ({scheme}, {gpus} GPU), GB: {parts}; total {total}, with the {pct}% margin {margin}, of "
                "{have}: {verdict}{serving}"
            ),
            (
                "per GPU ({scheme}, {gpus} GPUs), GB: {parts}; total {total}, with the {pct}% margin {margin}, of "
                "{have}: {verdict}{serving}"
            ),
            "gpus",
        ),
        "vram.per_gpu.fits": "fits",
        "vram.per_gpu.no_fit": "does not fit",
        "vram.per_gpu.serving": "; KV cache {tokens} tokens, at most {conc} concurrent requests of {seq} tokens",
        "VRAM-NO-ESTIMATE.message": "No model size given, so GPU memory is not checked.",
        "VRAM-NO-ESTIMATE.fix": "Enter the model size or pick a model preset in the requirements.",
    }
)

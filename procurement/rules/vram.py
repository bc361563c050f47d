"""VRAM rules: the estimate (procurement.sizing.vram) against memory per GPU and in total.

Data parallel keeps a full copy of the model state on every GPU, so it fits only when the estimate fits
one GPU; model parallel / ZeRO-3 / FSDP shards it, so it fits when the estimate fits all GPUs of all nodes
together. The estimate's formulas and sources are in procurement/sizing/vram.py.
"""

from __future__ import annotations

import math

from catalog.loader import Catalog
from procurement.findings import Family, Finding, Severity
from procurement.messages import Lang, register
from procurement.plan import Plan, Workload
from procurement.policy import Policy
from procurement.rules.base import GIB_TO_GB, Rule, make, resolve
from procurement.rules.registry import rule
from procurement.sizing.vram import estimate_vram

FAMILY: Family = "vram"
SIZED_WORKLOADS = (Workload.TRAINING, Workload.FINE_TUNING, Workload.INFERENCE)


@rule(FAMILY, "VRAM-TOTAL", "VRAM-SHARDING", step=2, item="gpu_vram")
def capacity(plan: Plan, catalog: Catalog, policy: Policy, lang: Lang) -> list[Finding]:
    """VRAM-TOTAL (the estimate does not fit all GPUs together) and VRAM-SHARDING (it does not fit one GPU,
    so data parallel alone will not work; shard the model)."""
    p = resolve(plan, catalog)
    if p.gpu is None or not p.gpu_count:
        return []
    est = estimate_vram(plan.requirements, policy)
    if not est.known:
        return []
    per_gpu = p.gpu.memory_gib * GIB_TO_GB
    gpus = p.gpu_count * plan.requirements.nodes
    total = est.total_gb
    kw = dict(
        need=f"{total:,.0f}",
        per_gpu=f"{per_gpu:,.0f}",
        per_gpu_gib=f"{p.gpu.memory_gib:g}",
        gpus=gpus,
        have=f"{per_gpu * gpus:,.0f}",
        gpu=p.gpu.name,
        fit=est.gpus_needed(per_gpu),
        nodes=plan.requirements.nodes,
        per_node=p.gpu_count,
        fit_node=math.ceil((est.gpus_needed(per_gpu) or 0) / plan.requirements.nodes),
    )
    if total > per_gpu * gpus:
        variant = "nodes" if plan.requirements.nodes > 1 else None  # say that the GPUs span the nodes
        return [make("VRAM-TOTAL", FAMILY, Severity.ERROR, 2, ("gpu.count", "gpu.model"), lang, variant=variant,
                     **kw)]
    if total > per_gpu:
        return [make("VRAM-SHARDING", FAMILY, Severity.INFO, 2, ("gpu.count", "gpu.model"), lang, **kw)]
    return []


@rule(FAMILY, "VRAM-NO-ESTIMATE", step=1, item="gpu_vram")
def no_estimate(plan: Plan, catalog: Catalog, policy: Policy, lang: Lang) -> list[Finding]:
    """VRAM-NO-ESTIMATE: a sized workload without a model size, so GPU memory is not checked (info)."""
    req = plan.requirements
    if req.workload not in SIZED_WORKLOADS or not plan.gpu.count:
        return []
    if estimate_vram(req, policy).known:
        return []
    return [make("VRAM-NO-ESTIMATE", FAMILY, Severity.INFO, 1, ("requirements.model_params_b",), lang)]


RULES: tuple[Rule, ...] = (capacity, no_estimate)

register(
    {
        "VRAM-TOTAL.message": {
            "zh": "显存估算 {need} GB，超过 {gpus} 个 {gpu} 的总显存 {have} GB（每卡 {per_gpu_gib} GiB = "
                  "{per_gpu} GB）。",
            "en": "The VRAM estimate of {need} GB exceeds the {have} GB of {gpus} × {gpu} ({per_gpu_gib} GiB "
                  "= {per_gpu} GB each).",
        },
        "VRAM-TOTAL.message.nodes": {
            "zh": "显存估算 {need} GB，超过 {nodes} 个节点 × 每节点 {per_node} 个 {gpu}（共 {gpus} 个）的总显存 "
                  "{have} GB（每卡 {per_gpu_gib} GiB = {per_gpu} GB）。",
            "en": "The VRAM estimate of {need} GB exceeds the {have} GB of {nodes} nodes × {per_node} × {gpu} "
            "({gpus} GPUs, {per_gpu_gib} GiB = {per_gpu} GB each).",
        },
        "VRAM-TOTAL.fix.nodes": {
            "zh": "至少需要 {fit} 个此型号 GPU（{nodes} 个节点时每节点 {fit_node} 个，模型并行），或选择显存更大的 "
                  "GPU、降低精度/批量。",
            "en": "Use at least {fit} of these GPUs ({fit_node} per node over {nodes} nodes, model parallel), a "
            "GPU with more memory, or lower precision/batch size.",
        },
        "VRAM-TOTAL.fix": {
            "zh": "至少需要 {fit} 个此型号 GPU（模型并行），或选择显存更大的 GPU、降低精度/批量。",
            "en": "Use at least {fit} of these GPUs (model parallel), a GPU with more memory, or lower "
            "precision/batch size.",
        },
        "VRAM-SHARDING.message": {
            "zh": "显存估算 {need} GB 超过单卡 {per_gpu_gib} GiB（{per_gpu} GB）：纯数据并行放不下，"
                  "需要模型并行（张量/流水线并行、ZeRO-3/FSDP）把状态分到 {gpus} 个 GPU（共 {have} GB）。",
            "en": "The VRAM estimate of {need} GB exceeds one GPU's {per_gpu_gib} GiB ({per_gpu} GB): data "
                  "parallel alone will not fit; shard it over the {gpus} GPUs ({have} GB) with model "
                  "parallelism (tensor/pipeline, ZeRO-3/FSDP).",
        },
        "VRAM-SHARDING.fix": {
            "zh": "使用支持模型并行的训练框架配置。",
            "en": "Configure the framework for model parallelism.",
        },
        "VRAM-NO-ESTIMATE.message": {
            "zh": "未填写模型参数量，无法核对显存是否够用。",
            "en": "No model size given, so GPU memory is not checked.",
        },
        "VRAM-NO-ESTIMATE.fix": {
            "zh": "在需求分析中填写模型参数量或选择模型预设。",
            "en": "Enter the model size or pick a model preset in the requirements.",
        },
    }
)

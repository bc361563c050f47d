"""Framework settings from the plan: data-loader workers, pinned memory, precision, TF32, cuDNN autotuning, with why.

The guide's §8.3 advice is generic; the plan knows the cores per GPU (catalog CPU cores × sockets / GPUs), the
precision and the GPU's compute capability, so each setting here is decided from them and says why. Sources:
- PyTorch Performance Tuning Guide (https://pytorch.org/tutorials/recipes/recipes/tuning_guide.html): async data
  loading with num_workers > 0 and pin_memory=True; "Enable cuDNN auto-tuner" (cudnn.benchmark) for fixed
  input shapes; automatic mixed precision.
- PyTorch CUDA semantics, "TensorFloat-32 (TF32) on Ampere (and later) devices"
  (https://pytorch.org/docs/stable/notes/cuda.html): TF32 matmul is off by default since PyTorch 1.12.
- PyTorch AMP (https://pytorch.org/docs/stable/amp.html): bfloat16 autocast needs no GradScaler; float16 does.
- NVIDIA Transformer Engine (https://docs.nvidia.com/deeplearning/transformer-engine/): FP8 on compute
  capability 8.9 and 9.0 and later.
"""

from __future__ import annotations

from dataclasses import dataclass

from catalog.loader import Catalog
from catalog.models import Cpu, Gpu
from procurement.messages import Lang, register, t
from procurement.plan import Plan, Precision, Workload

register({
    "fw.workers": "DataLoader(num_workers={workers})",
    "fw.workers.why": (
        "{cores} CPU cores shared by {gpus} × GPU give {per_gpu:g} per GPU; one stays with the training process, "
        "the rest load and augment data in parallel (an estimate: raise it while the GPUs wait for data)"
    ),
    "fw.workers.unknown": "DataLoader(num_workers=…): decide on the node",
    "fw.workers.unknown.why": "The plan's CPU or GPU count is not known, so the cores per GPU are not either",
    "fw.pin": "DataLoader(pin_memory=True)",
    "fw.pin.why": "Page-locked host buffers let the copy to the GPU run asynchronously (non_blocking=True)",
    "fw.amp.bf16": 'torch.autocast("cuda", dtype=torch.bfloat16)',
    "fw.amp.bf16.why": (
        "The plan trains in mixed precision and the GPU (compute capability {cc}) has bfloat16: no loss scaling "
        "is needed"
    ),
    "fw.amp.fp16": 'torch.autocast("cuda", dtype=torch.float16) with torch.amp.GradScaler("cuda")',
    "fw.amp.fp16.why": "The GPU (compute capability {cc}) has no bfloat16: float16 needs the gradient scaler",
    "fw.amp.off": "No autocast (float32)",
    "fw.amp.off.why": "The plan's precision is fp32",
    "fw.amp.fp8": "Transformer Engine fp8_autocast for the linear layers",
    "fw.amp.fp8.why": "The plan's precision is FP8 and the GPU (compute capability {cc}) has FP8 tensor cores",
    "fw.amp.fp8.no": "FP8 is not available on this GPU (compute capability {cc}); use bfloat16 or float16 autocast",
    "fw.amp.quantised": "{precision} base weights (bitsandbytes) with bnb_4bit_compute_dtype / autocast {dtype}",
    "fw.amp.quantised.why": (
        "The plan fine-tunes adapters over quantised base weights: the weights stay {precision}, the adapters and "
        "the arithmetic run in {dtype}"
    ),
    "fw.amp.infer": "Load the weights in the plan's precision ({precision}); no autocast",
    "fw.amp.infer.why": "Inference runs the stored precision; autocast is for training",
    "fw.tf32.on": 'torch.set_float32_matmul_precision("high")  # TF32 matmuls',
    "fw.tf32.on.why": (
        "Compute capability {cc} has TF32 tensor cores; PyTorch leaves TF32 matmuls off by default since 1.12, "
        "so float32 matmuls would run at the slower full-precision rate"
    ),
    "fw.tf32.off": "TF32: not available",
    "fw.tf32.off.why": "TF32 needs compute capability 8.0 (Ampere) or later; this GPU has {cc}",
    "fw.cudnn.on": "torch.backends.cudnn.benchmark = True",
    "fw.cudnn.on.why": (
        "The workload feeds inputs of one shape, so cuDNN's autotuner picks the fastest kernels once and reuses them"
    ),
    "fw.cudnn.off": "torch.backends.cudnn.benchmark = False",
    "fw.cudnn.off.why": (
        "Language models and serving see changing sequence lengths: the autotuner would search again for every "
        "new shape"
    ),
    "fw.head": "| Setting | Why |",
    "fw.unknown_gpu": "The plan's GPU is not known: precision, TF32 and FP8 are decided on the node",
})


@dataclass(frozen=True)
class Setting:
    key: str
    value: str
    why: str


def _cores(plan: Plan, catalog: Catalog) -> int | None:
    cpu = catalog.typed(Cpu, plan.server.cpu)
    return cpu.cores * plan.server.cpu_count if cpu is not None and plan.server.cpu_count else None


def workers_per_gpu(cores: int | None, gpus: int) -> int | None:
    """Physical cores per GPU less the one the training process keeps, at least one."""
    if cores is None or gpus <= 0:
        return None
    return max(1, cores // gpus - 1)


def framework_settings(plan: Plan, catalog: Catalog, lang: Lang = "en") -> list[Setting]:
    out: list[Setting] = []

    def add(key: str, code: str, **fields: object) -> None:
        out.append(Setting(key, t(code, lang, **fields), t(code + ".why", lang, **fields)))

    gpus = plan.gpu.count
    cores = _cores(plan, catalog)
    workers = workers_per_gpu(cores, gpus)
    if workers is None or cores is None:
        add("workers", "fw.workers.unknown")
    else:
        add("workers", "fw.workers", workers=workers, cores=cores, gpus=gpus, per_gpu=cores / gpus)
    add("pin_memory", "fw.pin")
    gpu = catalog.typed(Gpu, plan.gpu.model)
    if gpu is None:
        out.append(Setting("precision", t("fw.unknown_gpu", lang), ""))
        return out
    cc, cc_text = gpu.cc_tuple, gpu.compute_capability
    precision = plan.requirements.precision
    inference = plan.requirements.workload == Workload.INFERENCE
    if precision == Precision.FP8:
        if cc >= (8, 9):
            add("precision", "fw.amp.fp8", cc=cc_text)
        else:
            out.append(Setting("precision", t("fw.amp.fp8.no", lang, cc=cc_text), ""))
    elif inference:
        add("precision", "fw.amp.infer", precision=precision.value)
    elif precision in (Precision.INT8, Precision.INT4):
        dtype = "bfloat16" if gpu.bf16 and cc >= (8, 0) else "float16"
        add("precision", "fw.amp.quantised", precision=precision.value, dtype=dtype)
    elif precision == Precision.FP32:
        add("precision", "fw.amp.off")
    elif gpu.bf16 and cc >= (8, 0):
        add("precision", "fw.amp.bf16", cc=cc_text)
    else:
        add("precision", "fw.amp.fp16", cc=cc_text)
    add("tf32", "fw.tf32.on" if cc >= (8, 0) else "fw.tf32.off", cc=cc_text)
    fixed_shapes = plan.requirements.workload in (Workload.TRAINING, Workload.RENDERING, Workload.SCIENTIFIC) \
        and plan.requirements.model_preset is None and plan.requirements.hf_config is None
    add("cudnn_benchmark", "fw.cudnn.on" if fixed_shapes else "fw.cudnn.off")
    return out


def settings_markdown(plan: Plan, catalog: Catalog, lang: Lang = "en") -> str:
    """The settings as a Markdown table for the handover README."""
    rows = [f"| `{s.value}` | {s.why} |" for s in framework_settings(plan, catalog, lang)]
    return "\n".join([t("fw.head", lang), "|---|---|", *rows]) + "\n"

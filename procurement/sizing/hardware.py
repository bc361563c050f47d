"""What sizing needs to know of a catalog GPU: memory in GB, bandwidth, links, peak rate, P2P and FP8.

- Memory: the catalog's GiB as GB (× 1.073741824), since every sizing figure is 10^9 bytes.
- PCIe: usable GB/s per lane and direction by generation (PCI-SIG 8/16/32/64 GT/s with 128b/130b coding).
- Peer-to-peer: GeForce cards of the Ada (RTX 40) and Blackwell (RTX 50) generations (compute capability
  8.9 and later, consumer segment) do not offer P2P between GPUs, so tensor-parallel traffic goes through
  host memory (docs/sizing.md, "Checks tied to the GPU count").
- FP8 tensor cores: compute capability 8.9 (Ada) and later (Hopper 9.0, Blackwell 10.x/12.x); NVIDIA
  Transformer Engine documents FP8 for these architectures.
"""

from __future__ import annotations

from dataclasses import dataclass

from catalog.models import Gpu, Segment

GIB_TO_GB = 1024**3 / 1e9
PCIE_GBS_PER_LANE = {1: 0.25, 2: 0.5, 3: 0.985, 4: 1.969, 5: 3.938, 6: 7.563}


@dataclass(frozen=True)
class GpuSizingFacts:
    memory_gb: float
    bandwidth_gbs: float | None
    nvlink_gbs: float
    pcie_gbs: float
    tflops: float | None
    p2p: bool
    fp8: bool


def has_p2p(gpu: Gpu) -> bool:
    """False for GeForce RTX 40/50 (consumer segment, compute capability 8.9 or later)."""
    return not (gpu.segment == Segment.CONSUMER and gpu.cc_tuple >= (8, 9))


def supports_fp8(gpu: Gpu) -> bool:
    return gpu.cc_tuple >= (8, 9)


def facts_for_gpu(gpu: Gpu) -> GpuSizingFacts:
    return GpuSizingFacts(
        memory_gb=gpu.memory_gib * GIB_TO_GB,
        bandwidth_gbs=gpu.memory_bandwidth_gbs,
        nvlink_gbs=gpu.nvlink_gbs,
        pcie_gbs=PCIE_GBS_PER_LANE.get(gpu.pcie_gen, 1.969) * gpu.pcie_lanes,
        tflops=gpu.fp16_tensor_tflops,
        p2p=has_p2p(gpu),
        fp8=supports_fp8(gpu),
    )

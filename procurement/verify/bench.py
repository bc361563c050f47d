"""Optional per-GPU matrix-multiply and memory-bandwidth run through PyTorch, in a child process."""

from __future__ import annotations

import json

from procurement.verify.runner import Runner

BENCH_TIMEOUT_S = 300.0
"""Wall-clock cap for the whole benchmark child (all GPUs); it is killed after that."""

# Sizes: an 8192² bf16/fp16 GEMM (about 1.1 TFLOP per call) and a 1 GiB device-to-device copy are large
# enough to reach steady clocks on data-centre GPUs and small enough to finish in seconds.
_SCRIPT = r"""
import json, sys
try:
    import torch
except Exception as exc:
    print(json.dumps({"skip": "no torch: " + str(exc)[:200]})); sys.exit(0)
if not torch.cuda.is_available():
    print(json.dumps({"skip": "torch " + torch.__version__ + " sees no CUDA device"})); sys.exit(0)
res = []
for i in range(torch.cuda.device_count()):
    item = {"index": i, "name": torch.cuda.get_device_name(i)}
    try:
        dev = torch.device("cuda", i)
        dt = torch.bfloat16 if torch.cuda.is_bf16_supported() else torch.float16
        n = 8192
        a = torch.randn(n, n, device=dev, dtype=dt); b = torch.randn(n, n, device=dev, dtype=dt)
        for _ in range(3):
            a @ b
        torch.cuda.synchronize(dev)
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        iters = 20
        s.record()
        for _ in range(iters):
            a @ b
        e.record(); torch.cuda.synchronize(dev)
        item["matmul_tflops"] = 2 * n ** 3 * iters / (s.elapsed_time(e) / 1e3) / 1e12
        del a, b
        nbytes = 1 << 30
        x = torch.empty(nbytes, dtype=torch.uint8, device=dev); y = torch.empty_like(x)
        y.copy_(x); torch.cuda.synchronize(dev)
        s.record()
        for _ in range(iters):
            y.copy_(x)
        e.record(); torch.cuda.synchronize(dev)
        item["bandwidth_gbs"] = 2 * nbytes * iters / (s.elapsed_time(e) / 1e3) / 1e9
        del x, y
        torch.cuda.empty_cache()
    except Exception as exc:
        item["error"] = str(exc).splitlines()[0][:200] if str(exc) else type(exc).__name__
    res.append(item)
print(json.dumps({"torch": torch.__version__, "gpus": res}))
"""


def run_benchmark(
    runner: Runner, python: str, timeout: float = BENCH_TIMEOUT_S
) -> tuple[dict | None, str | None]:
    """(result, None) when the benchmark ran, (None, reason) when it was skipped or could not run."""
    res = runner((python, "-c", _SCRIPT), timeout)
    if res.timed_out:
        return None, f"timeout {timeout:g} s"
    if res.missing or res.error:
        return None, res.error or f"{python} not found"
    lines = [ln for ln in res.stdout.strip().splitlines() if ln.startswith("{")]
    if res.returncode != 0 or not lines:
        tail = (res.stderr.strip().splitlines() or ["no output"])[-1]
        return None, tail[:200]
    try:
        data = json.loads(lines[-1])
    except ValueError:
        return None, "unreadable benchmark output"
    if not isinstance(data, dict):
        return None, "unreadable benchmark output"
    if "skip" in data:
        return None, str(data["skip"])
    return data, None

"""Optional per-GPU matrix-multiply and memory-bandwidth run through PyTorch, in a child process."""

from __future__ import annotations

import json

from procurement.verify.collect.raw import BENCH_SCRIPT
from procurement.verify.collect.runner import Runner

BENCH_TIMEOUT_S = 300.0
"""Wall-clock cap for the whole benchmark child (all GPUs); it is killed after that."""

def run_benchmark(
    runner: Runner, python: str, timeout: float = BENCH_TIMEOUT_S
) -> tuple[dict | None, str | None]:
    """(result, None) when the benchmark ran, (None, reason) when it was skipped or could not run."""
    res = runner((python, "-c", BENCH_SCRIPT), timeout)
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

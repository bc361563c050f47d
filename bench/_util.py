"""Tiny timing helpers shared by the benchmarks: median of repeated runs, printed in milliseconds."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


def median_ms(fn: Callable[[], object], repeat: int = 30, warmup: int = 3) -> float:
    """Median wall time of ``fn()`` in milliseconds over ``repeat`` runs after ``warmup`` unmeasured runs."""
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def report(label: str, ours_ms: float, baseline_label: str, baseline_ms: float) -> None:
    ratio = ours_ms / baseline_ms if baseline_ms else float("inf")
    print(f"{label:<34} {ours_ms:8.2f} ms   {baseline_label:<34} {baseline_ms:8.2f} ms   ratio {ratio:5.2f}x")

"""Memory and time bounded by the size of the input, not by the numbers inside it (tracemalloc peaks)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

from procurement.plan import Plan, load_plan
from procurement.rules import evaluate
from tests.conftest import EXAMPLES, REPO

PEAK_BOUND_B = 200 * 1024 * 1024
"""docs/reliability.md: any single input up to the size limits stays under 200 MB."""


def peak_of(fn: Callable[[], Any]) -> tuple[Any, int, float]:
    """(result, peak bytes allocated by Python while ``fn`` ran, seconds)."""
    tracemalloc.start()
    start = time.perf_counter()
    try:
        result = fn()
        return result, tracemalloc.get_traced_memory()[1], time.perf_counter() - start
    finally:
        tracemalloc.stop()


def _storage_plan(lines: int, count: int) -> Plan:
    data = load_plan(EXAMPLES / "llm-cluster-node.gpuplan.yaml").model_dump(mode="json")
    data["server"]["storage"] = [{"role": "data", "part": "samsung-pm9a3-3.84tb-u2", "count": count}] * lines
    return Plan.model_validate(data)


def test_300_storage_lines_of_10000_drives_cost_what_300_lines_cost(catalog, policy) -> None:  # type: ignore[no-untyped-def]
    """A 22 KB plan: one lane-model object per drive (3 million) cost 1.05 GB and 14.6 s in ``check``."""
    plan = _storage_plan(300, 10_000)
    findings, peak, seconds = peak_of(lambda: evaluate(plan, catalog, policy, "en"))
    lanes = next(f for f in findings if f.rule == "PCIE-LANES")
    assert "the CPU needs 12000000, has 160" in lanes.message  # 300 × 10 000 drives × x4
    _, small_peak, _ = peak_of(lambda: evaluate(_storage_plan(300, 1), catalog, policy, "en"))
    assert peak < 2 * small_peak + 5 * 1024 * 1024, (peak, small_peak)
    assert seconds < 5


def _check_rss(plan: Path) -> tuple[int, str, int]:
    """(exit status, stderr, peak RSS in bytes) of ``gpu-procure check PLAN`` in a child process."""
    code = ("import resource, subprocess, sys\n"
            "p = subprocess.run([sys.executable, '-m', 'procurement.commands.cli', 'check', sys.argv[1],"
            " '--lang', 'en'],"
            " capture_output=True, text=True)\n"
            "print(p.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
            "sys.stderr.write(p.stderr)\n")
    env = {**os.environ, "PYTHONPATH": str(REPO), "GPU_PROCURE_CACHE_DIR": "off"}
    done = subprocess.run([sys.executable, "-c", code, str(plan)], capture_output=True, text=True, timeout=300,
                          env=env)
    status, kib = done.stdout.split()
    return int(status), done.stderr, int(kib) * 1024


def test_a_20_mb_plan_of_small_mappings_is_refused_within_the_memory_bound(tmp_path: Path) -> None:
    """A ``verification:`` list of small mappings cost ~240 MB per MB of file; 19.5 MB exhausted 4 GB."""
    base = (EXAMPLES / "llm-cluster-node.gpuplan.yaml").read_text(encoding="utf-8").replace("verification: []\n", "")
    plan = tmp_path / "big.gpuplan.yaml"
    plan.write_text(base + "verification:\n" + "  - {a: 1}\n" * 1_900_000, encoding="utf-8")
    assert 19 * 1_000_000 < plan.stat().st_size < 20 * 1024 * 1024
    status, err, rss = _check_rss(plan)
    assert status == 2 and "more than 150,000 values in one file" in err, err
    assert rss < PEAK_BOUND_B, rss

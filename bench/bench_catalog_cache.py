"""Benchmark: the catalog caches against no cache, fresh and warm, on the shipped catalog and on a generated
user catalog of many files (3,000 by default, each a little over 2 kB).

Each measurement is a whole process (``load_catalog`` in a new interpreter), because the caches exist for the
next start; the process's import time is left out. A fresh cache (the first load) must cost no more than no
cache; the second load writes the entry ("writing"), and the ones after read it ("warm"), at less.
The kinds of run alternate, so a change in the machine's load reaches them all alike.

Run: PYTHONPATH=. python bench/bench_catalog_cache.py [--files 3000] [--runs 3]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

CHILD = r"""
import json, sys, time
from pathlib import Path
from catalog.loader import load_catalog
overlay = [Path(sys.argv[1])] if sys.argv[1] else []
start = time.perf_counter()
cat = load_catalog(overlay)
print(json.dumps({"s": time.perf_counter() - start, "parts": len(cat)}))
"""

PART = """  - id: bench-cpu-{i}
    name: Bench CPU {i}
    vendor: Bench
    segment: datacenter
    socket: SP5
    cores: {cores}
    threads: {threads}
    base_ghz: 2.4
    boost_ghz: 3.7
    tdp_w: 280
    pcie_lanes: 128
    pcie_gen: 5
    memory_channels: 12
    memory_type: DDR5
    max_memory_mts: 4800
    max_sockets: 2
    ecc: true
    source: "generated for bench/bench_catalog_cache.py: a stand-in for a company's own part list"
    notes: "{notes}"
"""


def make_catalog(directory: Path, files: int) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    for i in range(files):
        body = PART.format(i=i, cores=i % 96 + 1, threads=2 * (i % 96 + 1), notes="x" * 1700)
        (directory / f"part-{i:05d}.yaml").write_text("cpus:\n" + body, encoding="utf-8")


def load_once(overlay: Path | None, cache: str) -> float:
    env = dict(os.environ, GPU_PROCURE_CACHE_DIR=cache, PYTHONPATH=str(REPO))
    out = subprocess.run([sys.executable, "-c", CHILD, str(overlay or "")], env=env, cwd=REPO,
                         capture_output=True, text=True, check=True).stdout
    return float(json.loads(out.splitlines()[-1])["s"])


def measure(overlay: Path | None, runs: int) -> dict[str, float]:
    """Median seconds of: no cache; a fresh (empty) cache; the second load (it writes the entry); a warm
    cache (filled by the runs before)."""
    off, fresh, writing, warm = [], [], [], []
    for i in range(runs):
        with tempfile.TemporaryDirectory() as cache:
            if i % 2:  # which of the two goes first alternates: the first of a pair ran measurably slower
                off.append(load_once(overlay, "off"))
                fresh.append(load_once(overlay, cache))
            else:
                fresh.append(load_once(overlay, cache))
                off.append(load_once(overlay, "off"))
            writing.append(load_once(overlay, cache))
            warm.append(load_once(overlay, cache))
    return {"no cache": statistics.median(off), "fresh cache": statistics.median(fresh),
            "writing": statistics.median(writing), "warm cache": statistics.median(warm)}


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--files", type=int, default=3000)
    p.add_argument("--runs", type=int, default=3)
    args = p.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="bench-catalog-cache-"))
    try:
        make_catalog(work / "user", args.files)
        size_kb = sum(f.stat().st_size for f in (work / "user").iterdir()) / 1024 / args.files
        for label, overlay in (("shipped catalog", None),
                               (f"shipped + user catalog of {args.files} files ({size_kb:.1f} kB each)",
                                work / "user")):
            times = measure(overlay, args.runs)
            base = times["no cache"]
            print(f"{label}, median of {args.runs} processes:")
            for name, seconds in times.items():
                print(f"  {name:<12} {seconds * 1000:9.1f} ms  ({seconds / base:4.2f} x no cache)")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

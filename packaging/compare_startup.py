"""Start-up of the frozen bundle against the same code run by the venv's Python (the numbers in docs/packaging.md).

Usage: python packaging/compare_startup.py dist/gpu-procure [-n 5]
Runs `--version`, `check PLAN` and the app's `--self-test` (offscreen) alternately from the bundle and as
`python -m gpu_procure` from this repository, after one unmeasured warm-up each, and prints the median wall
time of each. Both run in the same clean environment as the smoke test (temporary HOME, no user settings).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("bundle", type=Path)
    ap.add_argument("-n", type=int, default=5)
    args = ap.parse_args(argv)
    exe = args.bundle.resolve() / ("gpu-procure.exe" if os.name == "nt" else "gpu-procure")
    plan = sorted((REPO / "resources" / "examples").glob("*.gpuplan*"))[0]
    with tempfile.TemporaryDirectory(prefix="gpu-procure-startup-") as home:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "QT_", "XDG_"))}
        env.update(HOME=home, QT_QPA_PLATFORM="offscreen", XDG_STATE_HOME=str(Path(home) / "state"),
                   GPU_PROCURE_CACHE_DIR=str(Path(home) / "cache"))
        venv_env = dict(env, PYTHONPATH=str(REPO))
        cases = [("--version", ["--version"]), ("check PLAN", ["check", str(plan)]),
                 ("app --self-test", ["--self-test"])]
        print(f"{'what':18} {'bundle':>10} {'venv':>10}  (median of {args.n}; load average "
              f"{os.getloadavg()[0]:.1f})")
        for label, extra in cases:
            times: dict[str, list[float]] = {"bundle": [], "venv": []}
            for i in range(args.n + 1):
                for kind, cmd, e in (("bundle", [str(exe)], env),
                                     ("venv", [sys.executable, "-m", "gpu_procure"], venv_env)):
                    start = time.perf_counter()
                    subprocess.run([*cmd, *extra], env=e, cwd=home, capture_output=True, timeout=300)
                    if i:  # the first round warms the page cache and writes .pyc files
                        times[kind].append(time.perf_counter() - start)
            print(f"{label:18} {statistics.median(times['bundle']):9.2f}s {statistics.median(times['venv']):9.2f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

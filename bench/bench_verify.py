"""Benchmark: parse the 8-GPU nvidia-smi XML and build the verification report; target < 10 ms median.

Baseline, in the same run: xml.etree.ElementTree parsing the same file alone (the floor any parser pays).
Run: python bench/bench_verify.py [--runs N] [--check]   (--check exits 1 when the target is missed)
"""

from __future__ import annotations

import argparse
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from _util import median_ms  # noqa: E402

from catalog.loader import load_catalog  # noqa: E402
from catalog.models import Gpu  # noqa: E402
from procurement.plan import GpuChoice, Plan  # noqa: E402
from procurement.verify.probe import report_from_outputs  # noqa: E402
from procurement.verify.report import report_to_json  # noqa: E402

CAPTURE = REPO / "tests" / "fixtures" / "nvidia-smi" / "k8s-test-infra_8x-h100-80gb-hbm3_580.105.08_v13.xml"
TOPO = REPO / "tests" / "fixtures" / "nvidia-smi" / "topo-m_8x-h100-NV18_spaces.txt"
TARGET_MS = 10.0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=200)
    ap.add_argument("--check", action="store_true", help="exit 1 when the median misses the target")
    opts = ap.parse_args()
    data = CAPTURE.read_bytes()
    text = data.decode("utf-8")
    topo = TOPO.read_text(encoding="utf-8")
    cat, which = load_catalog(), "shipped catalog"
    gpu_id = next(g.id for g in cat.all(Gpu) if "NVIDIA H100 80GB HBM3" in g.smi_names)
    plan = Plan(gpu=GpuChoice(model=gpu_id, count=8))

    def full() -> str:
        report = report_from_outputs(text, cat, plan, "en", topo_text=topo)
        return report_to_json(report)

    report = report_from_outputs(text, cat, plan, "en", topo_text=topo)
    assert len(report.gpus) == 8 and report.check("GPU-COUNT").status == "pass"  # type: ignore[union-attr]
    baseline = median_ms(lambda: ET.fromstring(data), opts.runs, warmup=1)
    ours = median_ms(full, opts.runs, warmup=1)
    print(f"capture: {CAPTURE.name} ({len(data)} bytes, 8 GPUs); catalog: {which}; runs: {opts.runs}")
    print(f"baseline  xml.etree.ElementTree.fromstring alone : {baseline:7.3f} ms median")
    print(f"verify    parse + topo + checks + report JSON     : {ours:7.3f} ms median")
    print(f"ratio     verify / baseline                        : {ours / baseline:7.2f}x")
    ok = ours < TARGET_MS
    print(f"target    < {TARGET_MS:g} ms median                         : {'met' if ok else 'MISSED'}")
    return 0 if ok or not opts.check else 1


if __name__ == "__main__":
    sys.exit(main())

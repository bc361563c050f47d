"""Benchmark: importing a 10,000-line XLSX price list against openpyxl reading the same file alone.

Run: PYTHONPATH=. python bench/bench_prices.py [--strict]   (--strict: exit 1 when a target is missed)
The file is written here with openpyxl: a header row, then lines of part number, name, quantity, unit price
and amount, a few of them the plan's own parts, the rest models the plan does not have. Measured: the
import matched against the plan's parts (what Import prices… does), the same file matched against every
hardware part of the catalog (a company price list), and applying the matches plus one evaluation.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

import openpyxl

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _util import median_ms, report

from catalog.loader import load_catalog
from catalog.models import Chassis, Cpu, Gpu, MemoryModule, Nic, Psu, Storage
from procurement.evaluation import evaluate
from procurement.plan import Plan
from procurement.policy import default_policy
from procurement.pricing.import_prices import MAX_COLUMNS, import_for_plan, read_prices

LINES = 10_000
REPEAT = 5
TARGET_RATIO = 1.5
"""The issue's target: the import takes at most 1.5× what openpyxl alone needs to read the file."""


def write_list(path: Path, lines: int) -> None:
    book = openpyxl.Workbook(write_only=True)
    ws = book.create_sheet("价格表")
    ws.append(["序号", "型号", "品名", "数量", "含税单价", "金额", "备注"])
    plan_lines = ["rtx-4090", "AMD EPYC 7543", "M393A4K40EB3-CWE", "AS-4124GS-TNR"]
    for i in range(lines):
        model = plan_lines[i] if i < len(plan_lines) else f"X{i:05d}-{i % 97}G"
        price = 1_000 + (i * 37) % 90_000
        ws.append([i + 1, model, f"配件 {i}", 1 + i % 8, price, price * (1 + i % 8), ""])
    book.save(path)


def main(argv: list[str]) -> int:
    catalog, policy = load_catalog(), default_policy()
    plan = Plan.model_validate({
        "gpu": {"model": "rtx-4090", "count": 2},
        "server": {"chassis": "supermicro-as-4124gs-tnr", "cpu": "epyc-7543", "cpu_count": 2,
                   "memory": {"part": "samsung-ddr4-3200-rdimm-32gb", "count": 16}},
    })
    hardware = [p for cls in (Gpu, Cpu, Chassis, MemoryModule, Storage, Nic, Psu) for p in catalog.all(cls)]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "price-list.xlsx"
        write_list(path, LINES)

        def openpyxl_alone() -> None:
            book = openpyxl.load_workbook(path, read_only=True, data_only=True)
            for _ in book.worksheets[0].iter_rows(max_col=MAX_COLUMNS, values_only=True):
                pass
            book.close()

        result = import_for_plan(path, plan, catalog)
        assert len(result.lines) == LINES and len(result.matches) == 4, (len(result.lines), len(result.matches))
        print(f"price list: {LINES} lines, {path.stat().st_size / 1024:.0f} KiB; "
              f"{len(result.matches)} matched to the plan, {len(result.extras)} extra")
        # interleaved, so that a busy machine slows the baseline and the import alike
        times: dict[str, list[float]] = {"base": [], "ours": [], "every": []}
        runs = {"base": openpyxl_alone, "ours": lambda: import_for_plan(path, plan, catalog),
                "every": lambda: read_prices(path, hardware)}
        for _ in range(REPEAT):
            for key, fn in runs.items():
                start = time.perf_counter()
                fn()
                times[key].append((time.perf_counter() - start) * 1000)
        base, ours, every = (statistics.median(times[k]) for k in ("base", "ours", "every"))
        report("import_for_plan (plan's parts)", ours, "openpyxl read-only, same file", base)
        report(f"read_prices ({len(hardware)} catalog parts)", every, "openpyxl read-only, same file", base)
        after = result.apply(plan, [m.row for m in result.matches])
        apply_ms = median_ms(lambda: evaluate(result.apply(plan, [m.row for m in result.matches]), catalog,
                                              policy), repeat=5, warmup=1)
        print(f"apply the matches and evaluate once: {apply_ms:.1f} ms ({len(after.prices)} prices in the plan)")
    missed = ours / base > TARGET_RATIO
    print(f"target: import ≤ {TARGET_RATIO}× openpyxl alone: {'MISSED' if missed else 'met'} ({ours / base:.2f}×)")
    return 1 if missed and "--strict" in argv else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

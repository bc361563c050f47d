"""Benchmark: catalog load + validation and plan load/save, each against bare PyYAML in the same run.

Run: PYTHONPATH=. python bench/bench_catalog.py [--strict]   (--strict: exit 1 when a target is missed)
The catalog is measured with the parsed-YAML cache (the normal path) and without it.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _util import median_ms, report

from catalog.loader import load_catalog, shipped_data_dir
from procurement.plan import dump_plan, load_plan, plan_to_data, save_plan

CATALOG_TARGET_MS = 30.0
EXAMPLES = Path(__file__).resolve().parents[1] / "resources" / "examples"
_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
Dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


def main(argv: list[str]) -> int:
    files = sorted(shipped_data_dir().glob("*.yaml"))
    size_kb = sum(p.stat().st_size for p in files) / 1024

    def bare_catalog() -> None:
        for p in files:
            yaml.load(p.read_text(encoding="utf-8"), Loader=_Loader)

    saved = os.environ.get("GPU_PROCURE_CACHE_DIR")
    with tempfile.TemporaryDirectory() as cache:
        # a private cache directory, so the numbers do not depend on what the user's cache holds
        os.environ["GPU_PROCURE_CACHE_DIR"] = cache
        start = time.perf_counter()
        cat = load_catalog()  # parses the YAML and leaves a sighting (the second load fills the cache)
        first_ms = (time.perf_counter() - start) * 1000
        print(f"catalog: {len(files)} files, {size_kb:.0f} KiB, {len(cat)} parts; "
              f"first load (empty cache) {first_ms:.1f} ms")
        base_ms = median_ms(bare_catalog)
        cat_ms = median_ms(load_catalog)
        report("load_catalog (validated, cached)", cat_ms, "yaml CSafeLoader, same files", base_ms)
        os.environ["GPU_PROCURE_CACHE_DIR"] = "off"
        report("load_catalog (validated, no cache)", median_ms(load_catalog), "yaml CSafeLoader, same files",
               median_ms(bare_catalog))
    if saved is None:
        del os.environ["GPU_PROCURE_CACHE_DIR"]
    else:
        os.environ["GPU_PROCURE_CACHE_DIR"] = saved

    plan_path = max(EXAMPLES.glob("*.gpuplan.yaml"), key=lambda p: p.stat().st_size)
    text = plan_path.read_text(encoding="utf-8")
    plan = load_plan(plan_path, cat)
    data = plan_to_data(plan)
    print(f"plan: {plan_path.name}, {len(text.encode())} bytes")
    report("load_plan (validated, refs checked)", median_ms(lambda: load_plan(plan_path, cat), 200),
           "yaml CSafeLoader of the file", median_ms(lambda: yaml.load(plan_path.read_text(encoding="utf-8"),
                                                                        Loader=_Loader), 200))
    report("dump_plan (canonical text)", median_ms(lambda: dump_plan(plan), 200),
           "yaml CSafeDumper of the same data", median_ms(lambda: yaml.dump(data, Dumper=Dumper,
                                                                            allow_unicode=True,
                                                                            sort_keys=False), 200))
    with tempfile.TemporaryDirectory() as tmp:
        target = Path(tmp) / "bench.gpuplan.yaml"
        plain = Path(tmp) / "plain.yaml"

        def bare_save() -> None:
            plain.write_text(yaml.dump(data, Dumper=Dumper, allow_unicode=True, sort_keys=False),
                             encoding="utf-8")

        report("save_plan (atomic, fsync)", median_ms(lambda: save_plan(plan, target), 50),
               "yaml CSafeDumper + write_text", median_ms(bare_save, 50))

    ok = cat_ms < CATALOG_TARGET_MS
    print(f"catalog target < {CATALOG_TARGET_MS:.0f} ms (cached load): {'met' if ok else 'MISSED'} "
          f"({cat_ms:.1f} ms)")
    return 1 if ("--strict" in argv and not ok) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

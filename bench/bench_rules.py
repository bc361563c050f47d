"""Benchmark: evaluate() on the largest example plan (the 8× H100 node), per family and as a whole
(procurement.evaluation: findings, budgets, step status), against a baseline.

Target (docs/sources.md §S): well under a keystroke, 1 ms median for all rules, so the GUI can check on every
edit. The baseline, measured in the same run, is a deep Plan.model_copy and a walk over the plan's dict.
Run: python bench/bench_rules.py [--n 2000]
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from _util import median_ms  # noqa: E402

from catalog.loader import Catalog, load_catalog  # noqa: E402
from procurement.evaluation import evaluate as evaluate_plan  # noqa: E402
from procurement.plan import Plan, load_plan, plan_to_data  # noqa: E402
from procurement.policy import default_policy  # noqa: E402
from procurement.rules import evaluate, evaluate_family, registry  # noqa: E402

TARGET_MS = 1.0


def largest_example() -> tuple[Plan, Catalog, str]:
    """The example plan with the most GPUs, with the shipped catalog."""
    catalog = load_catalog()
    plans = [(load_plan(p, catalog), p.name) for p in sorted((REPO / "resources" / "examples").glob("*.gpuplan.yaml"))]
    plan, name = max(plans, key=lambda x: (x[0].gpu.count, x[0].server.cpu_count))
    return plan, catalog, name


def median_us(fn: Callable[[], Any], n: int) -> float:
    return median_ms(fn, n, warmup=min(50, n)) * 1000


def walk(node: Any) -> int:
    if isinstance(node, dict):
        return sum(walk(v) for v in node.values()) + 1
    if isinstance(node, list):
        return sum(walk(v) for v in node) + 1
    return 1


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=2000)
    n = ap.parse_args().n
    plan, catalog, name = largest_example()
    policy = default_policy()
    findings = evaluate(plan, catalog, policy, "zh")
    print(f"plan: {name}: {plan.gpu.count} × {plan.gpu.model}, {len(findings)} findings "
          f"({', '.join(sorted({f.rule for f in findings}))})")
    base_copy = median_us(lambda: plan.model_copy(deep=True), n)
    data = plan_to_data(plan)
    base_walk = median_us(lambda: walk(data), n)
    total = median_us(lambda: evaluate(plan, catalog, policy, "zh"), n)
    print(f"{'what':<28}{'median µs':>12}")
    print(f"{'baseline: Plan.model_copy':<28}{base_copy:>12.1f}")
    print(f"{'baseline: dict walk':<28}{base_walk:>12.1f}")
    for fam in registry.families():
        us = median_us(lambda fam=fam: evaluate_family(fam, plan, catalog, policy, "zh"), n)  # type: ignore[misc]
        print(f"{'  ' + fam + f' ({len(registry.rules_of(fam))} rules)':<28}{us:>12.1f}")
    print(f"{'evaluate() all families':<28}{total:>12.1f}")
    full = median_us(lambda: evaluate_plan(plan, catalog, policy, "zh"), n)
    print(f"{'Evaluation (+ budgets, steps)':<28}{full:>12.1f}")
    print(f"ratio to model_copy: {total / base_copy:.1f}×; target {TARGET_MS * 1000:.0f} µs: "
          f"{'met' if total <= TARGET_MS * 1000 else 'NOT met'}")
    return 0 if total <= TARGET_MS * 1000 else 1


if __name__ == "__main__":
    sys.exit(main())

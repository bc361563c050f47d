"""Findings of every example and stored test plan, compared with a stored snapshot (both languages).

A refactoring of the rules, budgets or evaluation must leave these identical. A change that is meant to
alter findings updates the snapshot on purpose and shows the difference in review:

    UPDATE_FINDINGS_SNAPSHOT=1 python -m pytest tests/procurement/test_findings_snapshot.py
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from catalog.loader import Catalog, load_catalog
from procurement.plan import Plan, load_plan
from procurement.rules import evaluate
from tests.conftest import EXAMPLES
from tests.procurement.rules.test_rules_parts import CAT, hgx_node, workstation_4090

DATA = Path(__file__).parent / "data"
SNAPSHOT = DATA / "findings_snapshot.json"


def _cases() -> dict[str, Callable[[], tuple[Plan, Catalog]]]:
    shipped: list[Catalog] = []

    def catalog() -> Catalog:
        if not shipped:
            shipped.append(load_catalog())
        return shipped[0]

    def stored(path: Path, cat: Callable[[], Catalog]) -> Callable[[], tuple[Plan, Catalog]]:
        return lambda: (load_plan(path, cat()), cat())

    cases: dict[str, Callable[[], tuple[Plan, Catalog]]] = {}
    for path in sorted(EXAMPLES.glob("*.gpuplan.yaml")):
        cases[f"example/{path.name}"] = stored(path, catalog)
    # (the stored old-format plans in data/plans/ are the migrations' test files: they open as the examples'
    # decisions, so they add nothing here and would tie every format bump to this snapshot)
    reports_cat = lambda: load_catalog(data_dir=DATA / "reports_catalog")  # noqa: E731
    cases["reports_plan.gpuplan.yaml"] = stored(DATA / "reports_plan.gpuplan.yaml", reports_cat)
    cases["parts/workstation_4090"] = lambda: (workstation_4090(), CAT)
    cases["parts/workstation_4090_two_psus"] = lambda: (workstation_4090(psu={"part": "atx-1600", "count": 2}), CAT)
    cases["parts/hgx_node"] = lambda: (hgx_node(), CAT)
    cases["parts/hgx_node_low_line_office"] = lambda: (
        hgx_node(server={"input_voltage": "100-127"}, requirements={"deployment": "office"}), CAT)
    return cases


CASES = _cases()


def findings_of(name: str) -> dict[str, list[dict[str, Any]]]:
    plan, catalog = CASES[name]()
    return {lang: [f.model_dump(mode="json") for f in evaluate(plan, catalog, None, lang)] for lang in ("zh", "en")}


def test_snapshot_covers_every_case() -> None:
    if os.environ.get("UPDATE_FINDINGS_SNAPSHOT"):
        SNAPSHOT.write_text(json.dumps({name: findings_of(name) for name in CASES}, ensure_ascii=False,
                                       indent=1, sort_keys=True) + "\n", encoding="utf-8")
    assert sorted(json.loads(SNAPSHOT.read_text(encoding="utf-8"))) == sorted(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_findings_unchanged(name: str) -> None:
    expected = json.loads(SNAPSHOT.read_text(encoding="utf-8"))[name]
    assert findings_of(name) == expected, "findings changed; if on purpose, see this module's docstring"

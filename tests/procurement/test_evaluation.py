"""procurement.evaluation: one evaluation gives findings, budgets, step status and item needs, each once."""

from __future__ import annotations

from typing import Any

import pytest

import procurement.budgets.balance as balance_mod
import procurement.budgets.cost as cost_mod
import procurement.budgets.heat as heat_mod
import procurement.budgets.lanes as lanes_mod
import procurement.budgets.power as power_mod
from catalog.loader import Catalog, load_catalog
from procurement.budgets.lanes import lane_budget
from procurement.budgets.power import power_budget
from procurement.evaluation import evaluate
from procurement.exit_status import ExitStatus
from procurement.plan import Plan, load_plan
from procurement.policy import default_policy
from procurement.rules import evaluate as findings_only
from tests.conftest import EXAMPLES
from tests.procurement.rules.test_rules_parts import CAT, workstation_4090


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog()


@pytest.mark.parametrize("name", ["llm-cluster-node", "mid-size-training", "personal-research"])
def test_evaluation_of_the_examples(name: str, catalog: Catalog) -> None:
    plan = load_plan(EXAMPLES / f"{name}.gpuplan.yaml", catalog)
    policy = default_policy()
    ev = evaluate(plan, catalog, policy, "en")
    assert list(ev.findings) == findings_only(plan, catalog, policy, "en")
    assert ev.budgets.power == power_budget(plan, catalog, policy)
    assert ev.budgets.lanes == lane_budget(plan, catalog, policy)
    assert ev.budgets.errors == {}
    assert ev.incomplete == {} and ev.exit_status() == ExitStatus.OK  # the examples have no error
    assert ev.steps[5].state == "incomplete"  # no verification report attached yet
    assert all(ev.steps[s].state != "incomplete" for s in (1, 2, 3, 4))
    for item, findings in ev.items.items():
        assert findings and all(f in ev.findings for f in findings), item


def test_every_budget_is_computed_once_per_evaluation(monkeypatch: pytest.MonkeyPatch, catalog: Catalog) -> None:
    plan = load_plan(EXAMPLES / "llm-cluster-node.gpuplan.yaml", catalog)
    calls: dict[str, int] = {}
    for module, name in ((power_mod, "_power_budget"), (heat_mod, "_heat_budget"), (lanes_mod, "_lane_budget"),
                         (cost_mod, "_plan_cost"), (balance_mod, "_balance_needs")):
        real = getattr(module, name)

        def counted(*args: Any, _real: Any = real, _name: str = name) -> Any:
            calls[_name] = calls.get(_name, 0) + 1
            return _real(*args)

        monkeypatch.setattr(module, name, counted)
    evaluate(plan, catalog, default_policy(), "en")
    assert calls == {"_power_budget": 1, "_heat_budget": 1, "_lane_budget": 1, "_plan_cost": 1,
                     "_balance_needs": 1}


def test_step_status_of_an_unfinished_plan_and_the_exit_status() -> None:
    bare = Plan.model_validate({"gpu": {"model": "rtx-4090", "count": 4}})
    ev = evaluate(bare, CAT, None, "en")
    assert ev.steps[2].missing == () and ev.steps[3].missing == ("chassis", "cpu", "psu")
    assert ev.steps[3].state in ("incomplete", "warning", "error")
    assert set(ev.incomplete) == {3, 4}
    assert ev.exit_status() in (ExitStatus.INCOMPLETE, ExitStatus.FAILED)
    errors = evaluate(workstation_4090(), CAT, None, "en")
    assert errors.has_errors and errors.exit_status() == ExitStatus.FAILED
    assert errors.steps[3].worst == "error" and errors.steps[3].state == "error"
    assert "psu_power" in errors.items

"""Step 3 with the live rules: a person's choices raise and clear findings with no extra action; auto-configure."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from gui.controller import PlanController
from gui.pages.step3_server import ServerPage
from procurement.plan import Plan
from procurement.rules.pcie import lane_budget
from procurement.rules.power import power_budget


@pytest.fixture
def page(qtbot, catalog, policy):
    ctl = PlanController(catalog, policy, lang="en")
    # step 2's choice: 4 × RTX 4090
    ctl.new(Plan.model_validate({"gpu": {"model": "rtx-4090", "count": 4}}))
    page = ServerPage(ctl)
    qtbot.addWidget(page)
    return page


def choose(combo, part_id) -> None:
    idx = combo.findData(part_id)
    assert idx >= 0, f"{part_id} is not offered"
    combo.setCurrentIndex(idx)


def _rules(ctl: PlanController) -> set[str]:
    return {f.rule for f in ctl.findings}


def test_tower_with_one_psu_raises_power_cooling_pcie_and_a_server_clears_them(page, qtbot, catalog):
    ctl = page.controller
    # a workstation tower, a desktop CPU and one 1500 W ATX PSU (the catalog's closest to 1600 W)
    choose(page.chassis_combo, "tower-z790-workstation")
    choose(page.cpu_combo, "core-i9-13900k")
    choose(page.psu_combo, "corsair-hx1500i")
    assert ctl.plan.server.psu.count == 1
    qtbot.waitUntil(lambda: {"POWER-PSU-CAPACITY", "COOLING-OPEN-AIR", "PCIE-LANES-REDUCED"} <= _rules(ctl))
    # the gauge shows the rules' own estimate: GPUs alone draw 4 × 450 W = 1 800 W > one 1 500 W unit
    pb = power_budget(ctl.plan, catalog, ctl.policy)
    assert pb.gpu_w == 4 * 450
    assert pb.usable_w == 1500 and pb.draw_w > pb.usable_w
    assert page.power_gauge.used() == pb.draw_w and page.power_gauge.capacity() == 1500
    assert page.power_gauge.state() == "error"
    lb = lane_budget(ctl.plan, catalog, ctl.policy)
    assert page.pcie_gauge.used() == lb.cpu_needed + lb.switch_needed == 64  # 4 GPUs × x16
    assert page.pcie_gauge.capacity() == lb.cpu_lanes
    assert page.pcie_gauge.fraction() > 1

    # a 4U 8-GPU server, two EPYC CPUs and 2+2 × 2000 W Titanium (1 800 W at 200-240 V): N+N keeps 2 × 1 800
    choose(page.chassis_combo, "supermicro-as-4124gs-tnr")
    choose(page.cpu_combo, "epyc-7543")
    page.cpu_count.setValue(2)
    choose(page.psu_combo, "supermicro-2000w-titanium")
    page.psu_count.setValue(4)
    choose(page.redundancy_combo, "n+n")
    qtbot.waitUntil(lambda: not {"POWER-PSU-CAPACITY", "PCIE-LANES-REDUCED"} & _rules(ctl))
    pb = power_budget(ctl.plan, catalog, ctl.policy)
    assert pb.usable_w == 2 * 1800
    assert page.power_gauge.capacity() == 3600 and page.power_gauge.state() != "error"
    # what stays is about the cards themselves (open-air consumer GPUs), not the chassis or the power
    assert {f.rule for f in ctl.findings if f.family in ("power", "pcie") and f.severity != "info"} == set()
    assert {f.rule for f in ctl.findings if f.family == "cooling" and f.severity != "info"} <= {"COOLING-OPEN-AIR"}


def test_auto_configure_is_one_undo_step(page, qtbot):
    ctl = page.controller
    ctl.set_value("gpu.count", 2)  # two open-air cards: within what one chassis can cool (policy max_open_air_gpus)
    before = ctl.plan
    depth = ctl.undo_stack.count()
    qtbot.mouseClick(page.auto_button, Qt.MouseButton.LeftButton)
    after = ctl.plan
    assert after != before
    assert after.server.chassis is not None and after.server.cpu is not None
    assert after.server.psu.part is not None and after.server.psu.count >= 1
    assert ctl.undo_stack.count() == depth + 1
    # the widgets show the new plan
    assert page.chassis_combo.currentData() == after.server.chassis
    assert page.auto_label.text()
    ctl.undo_stack.undo()
    assert ctl.plan == before
    assert page.chassis_combo.currentData() is None


def test_auto_configure_refuses_a_chassis_for_four_open_air_cards_and_says_why(page, qtbot):
    """4 × RTX 4090 (open-air coolers): no chassis in the catalog may hold more than 2 such cards (COOLING-OPEN-AIR),
    so auto-configure must not pick one and must tell the buyer why."""
    ctl = page.controller
    assert ctl.plan.gpu.count == 4
    qtbot.mouseClick(page.auto_button, Qt.MouseButton.LeftButton)
    assert ctl.plan.server.chassis is None
    assert "COOLING-OPEN-AIR" not in {f.rule for f in ctl.findings if f.fields and "server.chassis" in f.fields}
    reason = page.error_label.text()
    assert page.error_label.isVisibleTo(page)
    assert "4 open-air NVIDIA GeForce RTX 4090 cards exceed the 2 one chassis can cool" in reason, reason


def test_an_edit_computes_the_lane_budget_once_for_the_rule_and_the_gauges(page, qtbot, monkeypatch):
    """The page refreshes on plan_changed and recolours on findings_changed for the same plan: the lane budget
    is computed once per evaluation and read by the PCIE-LANES rule and the gauge alike (it used to be three
    times: the rule and the gauges twice; a 10 000-drive plan made each call count)."""
    import procurement.budgets.lanes as lanes

    ctl = page.controller
    page.show()
    qtbot.waitExposed(page)
    calls: list[int] = []
    real = lanes._lane_budget

    def counted(*args, **kwargs):  # type: ignore[no-untyped-def]
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(lanes, "_lane_budget", counted)
    with qtbot.waitSignal(ctl.findings_changed):
        page.cpu_count.setValue(2)
    assert ctl.plan.server.cpu_count == 2
    assert len(calls) == 1
    assert ctl.evaluation is not None and ctl.evaluation.budgets.lanes is not None
    assert page.pcie_gauge.used() == 4 * 16


def test_rack_gauge_shows_per_rack_figures_next_to_the_server(qtbot, catalog, policy):
    # four DGX H100 in one rack: NVIDIA's 10.2 kW each is 40.8 kW per rack, above the 40 kW liquid threshold
    ctl = PlanController(catalog, policy, lang="en")
    ctl.new(Plan.model_validate({"requirements": {"nodes": 8}, "gpu": {"model": "h100-sxm5-80gb", "count": 8}}))
    page = ServerPage(ctl)
    qtbot.addWidget(page)
    choose(page.chassis_combo, "nvidia-dgx-h100")
    page.servers_per_rack.setValue(4)
    qtbot.waitUntil(lambda: "COOLING-LIQUID" in _rules(ctl))
    qtbot.waitUntil(lambda: page.rack_gauge.used() is not None and abs(page.rack_gauge.used() - 40.8) < 1e-6)
    assert page.rack_gauge.capacity() == policy.liquid_cooling_rack_kw and page.rack_gauge.state() == "warning"
    pb = power_budget(ctl.plan, catalog, ctl.policy)
    assert pb.rack is not None and pb.rack.racks_needed == 2  # 8 nodes, 4 per rack
    # a rack limit the buyer enters replaces the threshold as the gauge's capacity; three fit 32 kW
    page.rack_limit.setValue(32)
    qtbot.waitUntil(lambda: page.rack_gauge.capacity() == 32 and page.rack_gauge.state() == "error")
    page.servers_per_rack.setValue(3)
    qtbot.waitUntil(lambda: page.rack_gauge.state() == "ok" and abs(page.rack_gauge.used() - 30.6) < 1e-6)


def test_a_rack_limit_error_colours_the_rack_gauge_not_the_psu_gauge(qtbot, catalog, policy):
    """The PSU gauge turned red at 48 % load because an unrelated rack-limit error appeared: each gauge
    takes its colour from its own metric's findings."""
    from procurement.plan import load_plan
    from tests.conftest import REPO

    ctl = PlanController(catalog, policy, lang="en")
    ctl.new(load_plan(REPO / "resources" / "examples" / "llm-cluster-node.gpuplan.yaml", catalog))
    page = ServerPage(ctl)
    qtbot.addWidget(page)
    page.show()
    ctl.reevaluate()
    page.refresh_now()
    assert page.power_gauge.state() == "ok"  # the PSUs carry the load with room to spare
    page.rack_limit.setFocus()
    page.rack_limit.selectAll()
    qtbot.keyClicks(page.rack_limit, "1")  # a 1 kW rack: far too little for this server
    qtbot.waitUntil(lambda: "POWER-RACK-LIMIT" in _rules(ctl))
    ctl.reevaluate()
    page.refresh_now()
    assert page.rack_gauge.state() == "error"
    assert page.power_gauge.state() == "ok", "the PSU gauge took the rack's colour"


def test_the_rack_gauge_says_what_it_compares_with(qtbot, catalog, policy):
    """With no rack limit set the gauge read "2.1 / 40 kW" as if 40 kW (the liquid-cooling threshold) were a limit,
    and a tower got a rack gauge too."""
    from procurement.plan import load_plan
    from tests.conftest import EXAMPLES

    ctl = PlanController(catalog, policy, lang="en")
    ctl.new(load_plan(EXAMPLES / "mid-size-training.gpuplan.yaml", catalog))
    page = ServerPage(ctl)
    qtbot.addWidget(page)
    page.show()
    ctl.reevaluate()
    qtbot.waitUntil(lambda: page.rack_gauge.used() is not None)
    assert "No rack power limit set: compared with 40 kW per rack" in page.rack_gauge.toolTip() + page.rack_gauge.text()
    ctl.new(load_plan(EXAMPLES / "personal-research.gpuplan.yaml", catalog))  # a tower workstation
    ctl.reevaluate()
    qtbot.waitUntil(lambda: page.rack_gauge.used() is None)
    assert "a tower: not in a rack" in page.rack_gauge.text()

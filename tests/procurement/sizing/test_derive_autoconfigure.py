"""Auto-configure weighs the deployment and the budget, takes the smallest chassis that fits, explains each
choice in one line, and knows which parts the buyer chose by hand."""

from __future__ import annotations

import pytest

from catalog.loader import Catalog, load_catalog
from catalog.models import Chassis, Cpu
from procurement.plan import Plan, with_value
from procurement.policy import default_policy
from procurement.sizing.derive import (
    apply_defaults,
    auto_part_of,
    derive_defaults,
    hand_chosen,
    hand_edit,
    would_replace,
)

POLICY = default_policy()


def _plan(gpu: str, count: int, deployment: str, budget: float | None = None) -> Plan:
    plan = with_value(with_value(Plan(), "gpu.model", gpu), "gpu.count", count)
    plan = with_value(plan, "requirements.deployment", deployment)
    return with_value(plan, "requirements.budget_cny", budget) if budget is not None else plan


@pytest.mark.parametrize("deployment,form", [("lab", "tower"), ("office", "tower"), ("datacenter", "rack")])
def test_the_deployment_decides_tower_or_rack(catalog: Catalog, deployment: str, form: str) -> None:
    derived = derive_defaults(_plan("rtx-4090", 1, deployment), catalog, POLICY, lang="en")
    chassis = catalog.typed(Chassis, derived.changes["server.chassis"])
    assert chassis is not None and chassis.form == form
    assert all("\n" not in r for r in derived.reasons), "one line per choice"
    assert f"({form}" in derived.reasons[0].replace("rack server", "rack")


def test_a_lab_that_no_tower_can_serve_is_told_why(catalog: Catalog) -> None:
    reasons = derive_defaults(_plan("rtx-4090", 2, "lab"), catalog, POLICY, lang="en").reasons
    assert "No tower will do" in reasons[0] and "has 2 GPU positions and 2 × NVIDIA GeForce RTX 4090 take 4" \
        in reasons[0] and "server room" in reasons[0]
    passive = derive_defaults(_plan("a100-pcie-40gb", 2, "lab"), catalog, POLICY, lang="zh").reasons
    assert "无法为被动散热" in passive[0], "the tower's real reason, not its slot count"


def test_the_smallest_chassis_that_fits_not_the_largest_even_when_cheaper() -> None:
    cat = load_catalog()
    # every 8-position PCIe platform cheaper than the 4-position one: still the 4-position platform for 2 GPUs
    for pid, part in list(cat.parts["chassis"].items()):
        assert isinstance(part, Chassis)
        price = 1_000.0 if part.gpu_slots >= 8 else 90_000.0
        cat.parts["chassis"][pid] = part.model_copy(update={"price_cny": price, "price_includes_vat": True})
    derived = derive_defaults(_plan("a100-pcie-40gb", 2, "datacenter"), cat, POLICY, lang="en")
    assert derived.changes["server.chassis"] == "dell-poweredge-r750xa"
    assert "4 GPU positions for 2 GPUs — the fewest positions that hold them" in derived.reasons[0]


def test_a_chassis_known_to_exceed_the_budget_goes_last() -> None:
    cat = load_catalog()
    r750 = cat.parts["chassis"]["dell-poweredge-r750xa"]
    cat.parts["chassis"]["dell-poweredge-r750xa"] = r750.model_copy(update={"price_cny": 400_000.0,
                                                                            "price_includes_vat": True})
    within = derive_defaults(_plan("a100-pcie-40gb", 2, "datacenter", 1_000_000), cat, POLICY, lang="en")
    assert within.changes["server.chassis"] == "dell-poweredge-r750xa"
    tight = derive_defaults(_plan("a100-pcie-40gb", 2, "datacenter", 300_000), cat, POLICY, lang="en")
    assert tight.changes["server.chassis"] != "dell-poweredge-r750xa"
    assert tight.reasons[-1].startswith("Budget: whether it fits ¥300,000 is unknown")


def test_the_budget_line_says_the_verdict(catalog: Catalog) -> None:
    from tests.conftest import every_part_priced

    over = derive_defaults(_plan("rtx-4090", 1, "lab", 5_000), catalog, POLICY, lang="en").reasons[-1]
    assert over.startswith("Budget: the priced parts alone come to") and "over the ¥5,000 budget" in over
    priced = every_part_priced()
    within = derive_defaults(_plan("rtx-4090", 1, "lab", 1_000_000), priced, POLICY, lang="en").reasons[-1]
    assert "within the ¥1,000,000 budget (every line priced)" in within
    assert not any(r.startswith("Budget") for r in derive_defaults(_plan("rtx-4090", 1, "lab"), catalog, POLICY,
                                                                   lang="en").reasons), "no budget, no line"


def test_auto_configure_records_its_parts_and_a_hand_edit_takes_one_back(catalog: Catalog) -> None:
    plan = _plan("rtx-4090", 1, "lab")
    after = apply_defaults(plan, derive_defaults(plan, catalog, POLICY, lang="en"))
    assert after.server.auto_chosen == ["chassis", "cpu", "memory", "storage", "nics", "psu"]
    assert hand_chosen(after) == []
    edited = hand_edit(after, "server.memory.count", 4)
    assert edited.server.memory is not None and edited.server.memory.count == 4
    assert "memory" not in edited.server.auto_chosen and hand_chosen(edited) == ["memory"]
    assert [auto_part_of(p) for p in ("server.cpu_count", "server.storage[0].part", "server.psu.redundancy",
                                      "server.input_voltage", "gpu.count")] == ["cpu", "storage", "psu", None, None]


def test_pressed_again_it_replaces_nothing_chosen_by_hand_unless_told(catalog: Catalog) -> None:
    plan = _plan("rtx-4090", 1, "datacenter")
    plan = hand_edit(plan, "server.chassis", "asrock-rack-4u8g-turin2")  # the buyer's own chassis
    derived = derive_defaults(plan, catalog, POLICY, lang="en")
    assert derived.changes["server.chassis"] != "asrock-rack-4u8g-turin2"
    assert would_replace(plan, derived) == ["chassis"]
    kept = derive_defaults(plan, catalog, POLICY, lang="en", keep=would_replace(plan, derived))
    assert "server.chassis" not in kept.changes
    assert kept.reasons[0].startswith("Chassis: your choice, ") and kept.reasons[0].endswith(", kept.")
    after = apply_defaults(plan, kept)
    assert after.server.chassis == "asrock-rack-4u8g-turin2" and "chassis" not in after.server.auto_chosen
    chassis, cpu = catalog.typed(Chassis, "asrock-rack-4u8g-turin2"), catalog.typed(Cpu, after.server.cpu)
    assert chassis is not None and cpu is not None and cpu.socket == chassis.cpu_socket, "built around the choice"
    # the kept chassis stays the buyer's: asked about again next time, the rest (Auto-configure's) is not
    assert would_replace(after, derive_defaults(after, catalog, POLICY, lang="en")) == ["chassis"]

"""Budget, VRAM and licensing rules on fixture parts."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest

from procurement.findings import Severity
from procurement.policy import default_policy
from procurement.rules import budget, evaluate_family, licensing, vram
from procurement.rules.budget import plan_cost
from tests.procurement.rules.test_rules_parts import CAT, hgx_node, ids, one, plan_of, workstation_4090

POLICY = default_policy()
# 4 × 15,000 GPUs + 5,000 chassis + 4,000 CPU + 2 × 800 DIMMs + 1 × 3,000 PSU
COST_4X4090 = 4 * 15_000 + 5_000 + 4_000 + 2 * 800 + 3_000


def run(family, plan):  # type: ignore[no-untyped-def]
    return evaluate_family(family, plan, CAT, POLICY, "en")


def with_budget(plan, budget_cny: float, nodes: int = 1):  # type: ignore[no-untyped-def]
    req = plan.requirements.model_copy(update={"budget_cny": budget_cny, "nodes": nodes})
    return plan.model_copy(update={"requirements": req})


def test_cost_adds_up() -> None:
    c = plan_cost(workstation_4090(), CAT)
    assert c.node_cny == COST_4X4090 == 73_600
    assert plan_cost(with_budget(workstation_4090(), 1, nodes=2), CAT).total_cny == 2 * 73_600


def test_over_budget() -> None:
    f = one(run(budget, with_budget(workstation_4090(), 70_000)), "BUDGET-OVER")
    assert f.severity == Severity.ERROR and f.step == 1
    # 73,600 before VAT × 1.13 = 83,168 incl. 13 % VAT; 83,168 − 70,000 = 13,168 over, in full yuan
    assert "¥83,168" in f.message and "¥73,600 before VAT" in f.message and "¥13,168 over" in f.message
    assert "13% VAT" in f.message and "万" not in f.message
    # the budget is VAT-inclusive: 80,000 covers 73,600 before VAT but not 83,168 with it
    assert "BUDGET-OVER" in ids(run(budget, with_budget(workstation_4090(), 80_000)))
    assert "BUDGET-OVER" not in ids(run(budget, with_budget(workstation_4090(), 83_168)))
    # two nodes: 2 × 73,600 × 1.13 = 166,336 > 90,000
    f2 = one(run(budget, with_budget(workstation_4090(), 90_000, nodes=2)), "BUDGET-OVER")
    assert "¥166,336" in f2.message and "¥76,336 over" in f2.message
    # the share per node is of the same VAT-inclusive total (it was that total / 2 beside "before VAT"):
    # 83,168 × 2 = 166,336; before VAT 147,200 = 2 × 73,600
    assert "(¥83,168.00 per node × 2; ¥147,200 before VAT)" in f2.message
    zh = one(evaluate_family(budget, with_budget(workstation_4090(), 70_000), CAT, POLICY, "zh"), "BUDGET-OVER")
    assert "含税参考总价 ¥83,168" in zh.message and "超过含税预算 ¥70,000，超出 ¥13,168" in zh.message


def test_vram_total_on_several_nodes_says_nodes_of_gpus() -> None:
    # 70B mixed AdamW over 2 nodes × 4 GPUs: 1120 GB of model states / 8 + the CUDA context = 141.4 GB on
    # each GPU, more than its 85.9 GB (the old check summed the 8 GPUs' 687 GB)
    plan = hgx_node(requirements={"nodes": 2}, gpu={"model": "h100-sxm5-80gb", "count": 4})
    f = one(run(vram, plan), "VRAM-TOTAL")
    assert "Each GPU needs 141.4 GB" in f.message and "2 nodes × 4 GPUs" in f.message
    assert "85.9 GB (80 GiB)" in f.message
    # (1120 GB / n + 1.41 GB) × 1.2 ≤ 85.9 GB → 16 GPUs → 8 per node over 2 nodes
    assert "at least 16 of these GPUs (8 per node over 2 nodes" in f.fix


def test_unpriced_parts_listed_and_chassis_psus_not_added() -> None:
    node = hgx_node()
    c = plan_cost(node, CAT)
    assert "server.psu.part" not in [line.path for line in c.lines]  # ships with the chassis
    f = one(run(budget, node), "BUDGET-UNPRICED")
    assert "h100-sxm5-80gb" in f.message and "xeon-8480p" in f.message and "hgx-h100-8" in f.message
    assert "BUDGET-UNPRICED" not in ids(run(budget, workstation_4090()))


def test_vram_total_and_sharding() -> None:
    # 70B mixed AdamW (no layer data: activations not counted): 1120 GB / 8 GPUs = 140 GB per GPU
    one_node = hgx_node(requirements={"nodes": 1})
    f = one(run(vram, one_node), "VRAM-TOTAL")
    assert f.severity == Severity.ERROR and "Each GPU needs 141.4 GB" in f.message
    assert "at least 16 of these GPUs" in f.fix
    # 8 nodes × 8 GPUs: sharded, each GPU holds its 1/64 share; not on one GPU
    s = one(run(vram, hgx_node()), "VRAM-SHARDING")
    assert s.severity == Severity.INFO and "64 GPUs" in s.message
    small = hgx_node(requirements={"model_params_b": 1, "workload": "inference", "precision": "bf16"})
    assert not ids(run(vram, small))


def test_vram_without_model_size() -> None:
    plan = plan_of(requirements={"workload": "training"}, gpu={"model": "l40s", "count": 1})
    assert one(run(vram, plan), "VRAM-NO-ESTIMATE").step == 1
    assert run(vram, plan_of(requirements={"workload": "rendering"}, gpu={"model": "l40s", "count": 1})) == []


def test_geforce_in_a_datacenter() -> None:
    plan = plan_of(requirements={"deployment": "datacenter"}, gpu={"model": "rtx-4090", "count": 1})
    f = one(run(licensing, plan), "LIC-GEFORCE-DATACENTER")
    assert f.severity == Severity.WARNING and "§2.1.3" in f.message
    assert "LIC-GEFORCE-DATACENTER" not in ids(run(licensing, workstation_4090()))  # office


@pytest.mark.parametrize(
    ("gpu", "rule"),
    [
        ("rtx-4090", "LIC-EXPORT"),
        ("h100-sxm5-80gb", "LIC-EXPORT"),
        ("rtx-4090-d", "LIC-CHINA-MARKET"),
        # the fixture A100 has no note, but 312 dense FP16 TFLOPS × 16 = 4992 ≥ 4800 (ECCN 3A090.a)
        ("a100-40gb-pcie", "LIC-EXPORT-TPP"),
    ],
)
def test_export_notes(gpu: str, rule: str | None) -> None:
    found = ids(run(licensing, plan_of(requirements={"deployment": "lab"}, gpu={"model": gpu, "count": 1})))
    assert found == ({rule} if rule else set())


def test_export_note_in_the_users_language() -> None:
    plan = plan_of(requirements={"deployment": "lab"}, gpu={"model": "h100-sxm5-80gb", "count": 1})
    en = one(run(licensing, plan), "LIC-EXPORT").message
    zh = one(evaluate_family(licensing, plan, CAT, POLICY, "zh"), "LIC-EXPORT").message
    assert en.endswith("blocked for China") and "禁止" not in en
    assert zh.endswith("禁止向中国出口") and "blocked" not in zh


def test_a_user_catalog_note_in_one_language_is_still_shown() -> None:
    from catalog.models import Gpu
    from tests.procurement.rules.test_rules_parts import make_catalog

    h100 = CAT.get("gpu", "h100-sxm5-80gb")
    assert isinstance(h100, Gpu)
    only_zh = h100.model_copy(update={"id": "h100-site", "export_note": "", "export_note_zh": "需许可证"})
    assert only_zh.export_note_for("en") == only_zh.export_note_for("zh") == "需许可证"
    plan = plan_of(requirements={"deployment": "lab"}, gpu={"model": "h100-site", "count": 1})
    found = evaluate_family(licensing, plan, make_catalog(only_zh), POLICY, "en")
    assert one(found, "LIC-EXPORT").message.endswith("需许可证")


@pytest.mark.parametrize("nodes", [3, 7, 8])
def test_the_share_per_node_multiplies_back_to_the_total(nodes: int) -> None:
    # what a buyer checks by hand: share × nodes is the VAT-inclusive total, and net × 1.13 is that total too
    plan = with_budget(workstation_4090(), 1_000, nodes=nodes)
    f = one(run(budget, plan), "BUDGET-OVER")
    m = re.search(r"total including 13% VAT is ¥([\d,]+) \(¥([\d,.]+) per node × (\d+); ¥([\d,]+) before VAT\)",
                  f.message)
    assert m, f.message
    total, share, n, net = (Decimal(g.replace(",", "")) for g in m.groups())
    assert n == nodes and abs(share * n - total) < 1  # the total is printed in whole yuan
    assert abs(net * Decimal("1.13") - total) <= Decimal("0.01") * nodes + 1
    zh = one(evaluate_family(budget, plan, CAT, POLICY, "zh"), "BUDGET-OVER")
    assert f"（每节点 ¥{m.group(2)} × {nodes} 台；不含税 ¥{m.group(4)}，另加 13% 增值税）" in zh.message

"""Sizing: VRAM estimate (worked checks), recommendation ranking, derived defaults, cloud-or-own."""

from __future__ import annotations

import pytest

from procurement.plan import Requirements
from procurement.policy import default_policy
from procurement.rules import evaluate
from procurement.rules.base import GIB_TO_GB
from procurement.sizing import (
    MODEL_PRESETS,
    apply_defaults,
    cloud_or_own,
    derive_defaults,
    estimate_vram,
    memory_tier,
    recommend,
)
from tests.procurement.rules.test_rules_parts import CAT, plan_of, workstation_4090

POLICY = default_policy()


def test_7b_mixed_adamw_training_before_activations() -> None:
    est = estimate_vram(Requirements(workload="training", model_params_b=7), POLICY)
    # 7e9 × (2 weights + 4 fp32 master + 2 gradients + 8 Adam moments) = 112 GB
    assert est.model_state_gb == pytest.approx(112)
    assert 112 <= est.model_state_gb <= 126
    # the fp32 master weights are optimizer state (ZeRO's K = 12); the CUDA context is the overhead
    assert [c.key for c in est.components] == ["weights", "gradients", "optimizer", "overhead"]
    overhead = 1343 * 1024**2 / 1e9
    assert est.total_gb == pytest.approx((112 + overhead) * 1.2)
    assert "vram.note.no_activations" in est.notes and est.lower_bound


def test_70b_bf16_inference_weights() -> None:
    est = estimate_vram(Requirements(workload="inference", precision="bf16", model_params_b=70), POLICY)
    assert est.component("weights").gb == pytest.approx(140)  # type: ignore[union-attr]
    assert est.component("gradients") is None


def test_reference_fp32_formula_and_optimizers() -> None:
    fp32 = estimate_vram(Requirements(model_params_b=1, precision="fp32"), POLICY)
    assert fp32.model_state_gb == pytest.approx(1 * (4 + 4 + 8))  # the reference formula
    sgd = estimate_vram(Requirements(model_params_b=1, precision="fp32", optimizer="sgd_momentum"), POLICY)
    assert sgd.component("optimizer").gb == pytest.approx(4)  # type: ignore[union-attr]
    adam8 = estimate_vram(Requirements(model_params_b=1, optimizer="adam_8bit"), POLICY)
    assert adam8.model_state_gb == pytest.approx(2 + 4 + 2 + 2)


def test_lora_and_qlora_keep_only_frozen_weights() -> None:
    lora = estimate_vram(Requirements(model_params_b=7, mode="lora", precision="bf16"), POLICY)
    assert lora.model_state_gb == pytest.approx(14)
    qlora = estimate_vram(Requirements(model_params_b=70, mode="lora", precision="int4"), POLICY)
    assert qlora.model_state_gb == pytest.approx(70 * 4.127 / 8)  # NF4 with double quantisation


def test_activations_and_kv_cache_from_the_architecture() -> None:
    # Llama 2 7B: 32 layers, hidden 4096, gated MLP 11,008; s = 2048, b = 1: 32 × 2048 × 1 × (18 × 4096 + 8 ×
    # 11,008) B = 10.6 GB, plus the logits of the loss 2048 × 32000 × 20 B (16-bit logits, fp32 copies,
    # log-softmax and the gradients)
    train = estimate_vram(Requirements(model_preset="llama-2-7b", workload="training"), POLICY)
    assert train.component("activations").gb == pytest.approx(  # type: ignore[union-attr]
        (32 * 2048 * (18 * 4096 + 8 * 11008) + 2048 * 32000 * 20) / 1e9)
    # Llama 2 70B inference, 8 KV heads × 128, 4096 context, batch 4: 2 × 2 B × 80 × 1024 × 4096 × 4
    inf = estimate_vram(
        Requirements(
            model_preset="llama-2-70b",
            workload="inference",
            precision="bf16",
            sequence_length=4096,
            batch_size=4,
        ),
        POLICY,
    )
    assert inf.component("kv_cache").gb == pytest.approx(2 * 2 * 80 * 1024 * 4096 * 4 / 1e9)  # type: ignore[union-attr]
    assert inf.params_b == MODEL_PRESETS["llama-2-70b"].params_b == pytest.approx(69.0, abs=0.05)


def test_unknown_model_size() -> None:
    est = estimate_vram(Requirements(), POLICY)
    assert not est.known and est.total_gb == 0 and est.gpus_needed(80) is None
    assert est.lines("en")[-1].startswith("No model size")


def test_breakdown_lines_are_readable_in_both_languages() -> None:
    est = estimate_vram(Requirements(model_params_b=7), POLICY)
    assert est.lines("en")[0] == "Weights: 14.0 GB (7.00 B params per GPU × 2 B)"
    assert est.lines("zh")[0].startswith("模型权重: 14.0 GB")
    assert memory_tier(est.total_gb, POLICY) == "multi"
    assert memory_tier(20, POLICY) == "16-32" and memory_tier(10, POLICY) == "lt16"


def test_recommendation_ranks_fitting_gpus_with_reasons() -> None:
    req = Requirements(workload="training", model_params_b=7, budget_cny=400_000)
    rec = recommend(req, CAT, POLICY, "en", limit=None)
    assert rec.budget_tier == "high" and rec.memory_tier == "multi"
    by_id = {c.gpu.id: c for c in rec.candidates}
    # 134.4 GB: 2 × H100 PCIe (85.9 GB each) or 4 × A100 40 GB (42.9 GB each)
    assert by_id["h100-pcie-80gb"].gpus_needed == 2
    assert by_id["a100-40gb-pcie"].gpus_needed == 4 and by_id["a100-40gb-pcie"].fits
    # the budget includes VAT and so does the comparison: a price that does not say it includes VAT gets 13 %
    assert by_id["a100-40gb-pcie"].gpu_cost_cny == 4 * 70_000 * 1.13 and by_id["a100-40gb-pcie"].within_budget
    # English in full yuan (4 × ¥70,000, ¥316,400 incl. VAT), Chinese in 万 (4 × 7.0 万，含税 31.6 万元)
    assert "GPUs 4 × ¥70,000, ¥316,400 incl. VAT, within the ¥400,000 budget" in by_id["a100-40gb-pcie"].reasons
    assert not any("万" in r for c in rec.candidates for r in c.reasons)
    zh = {c.gpu.id: c for c in recommend(req, CAT, POLICY, "zh", limit=None).candidates}
    assert "GPU 4 × 7.0 万，含税 31.6 万元，在预算 40.0 万元内" in zh["a100-40gb-pcie"].reasons
    # 6 × RTX 4090 (25.8 GB each) would be needed; the tower holds 2 three-slot cards → does not fit
    assert by_id["rtx-4090"].gpus_needed == 6 and not by_id["rtx-4090"].fits
    first = rec.candidates[0]
    assert first.fits and first.within_budget and first.scenario_match and first.tier_match
    assert any(r.startswith("fits with") for r in first.reasons)
    assert rec.candidates[-1].fits is False or rec.candidates[-1].within_budget is not True


def test_recommendation_tiers_and_scenarios() -> None:
    cheap = recommend(Requirements(workload="rendering", budget_cny=40_000), CAT, POLICY, "en")
    assert cheap.budget_tier == "low"
    assert cheap.candidates[0].gpu.segment == "consumer"
    sci = recommend(Requirements(workload="scientific"), CAT, POLICY, "en", limit=None)
    fp64 = [c.gpu.id for c in sci.candidates if c.scenario_match]
    assert "a100-40gb-pcie" in fp64 and "rtx-4090" not in fp64  # 19.5 / 9.7 ≈ 2:1; 82.6 / 1.29 ≈ 64:1


def test_derived_defaults_for_8_a100s() -> None:
    plan = plan_of(requirements={"workload": "training", "dataset_gb": 10_000, "deployment": "datacenter"})
    d = derive_defaults(plan, CAT, POLICY, "a100-40gb-pcie", 8, "en")
    assert not d.missing
    c = d.changes
    assert c["server.chassis"] == "rack-4u-8gpu"
    assert (c["server.cpu"], c["server.cpu_count"]) == ("epyc-7543", 2)  # 64 cores ≥ 16
    # RAM ≥ 2 × 8 × 40 GiB = 640 GiB → 10 × 64 GiB, rounded up to 16 (2 sockets × 8 channels)
    assert c["server.memory"] == {"part": "ddr4-64g-rdimm", "count": 16}
    # 10,000 GB dataset / 3840 GB = 3 U.2 drives
    assert c["server.storage"] == [
        {"role": "system", "part": "nvme-m2-1tb", "count": 1},
        {"role": "data", "part": "nvme-u2-4tb", "count": 3},
    ]
    assert c["server.nics"] == [{"part": "nic-25g", "count": 1}]
    new = apply_defaults(plan, d)
    # draw = (8 × 250 + 2 × 225 + 16 × 5 + (8 + 3 × 15) + 15) × 1.15 rack fans = 2988 W; × 1.2 = 3585 W
    # cheapest way: 2 × 1800 W (sm-2000-ti, 2,500 CNY each), plus one for N+1 in a data centre = 3
    assert c["server.psu.redundancy"] == "n+1"
    assert (c["server.psu.part"], c["server.psu.count"]) == ("sm-2000-ti", 3)
    errors = [f.rule for f in evaluate(new, CAT, POLICY, "en") if f.severity == "error"]
    assert errors == []
    assert len(d.reasons) >= 6
    # the summary: 2988 W is the draw; with 20 % headroom 3585 W
    assert any("estimated draw 2,988 W, 3,585 W with 20% headroom" in r for r in d.reasons)
    # an office or lab machine keeps the buyer's redundancy (none)
    lab = derive_defaults(plan_of(requirements={"workload": "training", "deployment": "lab"}), CAT, POLICY,
                          "a100-40gb-pcie", 2, "en")
    assert "server.psu.redundancy" not in lab.changes


def test_derived_defaults_count_from_the_estimate_and_multi_node_fabric() -> None:
    plan = plan_of(
        requirements={"workload": "training", "model_params_b": 70, "nodes": 8},
        gpu={"model": "h100-sxm5-80gb"},
    )
    d = derive_defaults(plan, CAT, POLICY, lang="en")
    # 1344 GB / 85.9 GB = 16 GPUs over 8 nodes = 2 per node
    assert d.changes["gpu.count"] == 2
    assert d.changes["server.chassis"] == "hgx-h100-8"
    assert d.changes["server.nics"] == [{"part": "cx7-400g", "count": 1}]
    assert d.changes["server.psu.part"] == "sm-3000-ti" and d.changes["server.psu.count"] == 6


def test_derived_defaults_say_what_is_missing() -> None:
    d = derive_defaults(plan_of(), CAT, POLICY, lang="en")
    assert d.missing == ["Choose a GPU model first."] and not d.changes
    d = derive_defaults(plan_of(), CAT, POLICY, "rtx-4090", 8, "en")
    # RTX 4090 is an open-air card: 8 > the policy's 2 per chassis (COOLING-OPEN-AIR), so no chassis at all
    assert d.missing == ["8 open-air rtx-4090 cards exceed the 2 one chassis can cool (they throttle): use "
                         "blower or passive cards, or at most 2 per server."]
    assert "server.chassis" not in d.changes
    d4 = derive_defaults(plan_of(requirements={"deployment": "datacenter"}), CAT, POLICY, "rtx-4090", 4, "en")
    assert "server.chassis" not in d4.changes and "4 open-air" in d4.missing[0]
    two = derive_defaults(plan_of(requirements={"deployment": "lab"}), CAT, POLICY, "rtx-4090", 2, "en")
    assert "server.chassis" in two.changes  # 2 ≤ 2: a chassis is chosen
    assert "COOLING-OPEN-AIR" not in {f.rule for f in evaluate(apply_defaults(plan_of(), two), CAT, POLICY, "en")}


def test_cloud_or_own() -> None:
    own = cloud_or_own(plan_of(requirements={"usage": "continuous", "data_sensitivity": "high"}), CAT, "en")
    assert own.choice == "own" and any("Sensitive" in r for r in own.reasons)
    rent = cloud_or_own(with_req(workstation_4090(), usage="occasional", budget_cny=50_000), CAT, "en")
    # 73,600 × 1.13 VAT = 83,168 > 50,000 (budgets include VAT); full yuan in English, 万 in Chinese
    assert rent.choice == "cloud" and any("¥83,168, exceeds the ¥50,000 budget" in r for r in rent.reasons)
    zh = cloud_or_own(with_req(workstation_4090(), usage="occasional", budget_cny=50_000), CAT, "zh")
    assert any("含税参考价 8.3 万元超出预算 5.0 万元" in r for r in zh.reasons)
    # 80,000 covers 73,600 before VAT but not 83,168 with it
    tight = cloud_or_own(with_req(workstation_4090(), usage="continuous", budget_cny=80_000), CAT, "en")
    assert any("exceeds the ¥80,000 budget" in r for r in tight.reasons)
    tie = cloud_or_own(plan_of(requirements={"usage": "occasional", "data_sensitivity": "high"}), CAT, "en")
    assert tie.choice == "own"  # sensitive data weighs more than occasional use


def with_req(plan, **kw):  # type: ignore[no-untyped-def]
    return plan.model_copy(update={"requirements": plan.requirements.model_copy(update=kw)})


def test_gib_conversion() -> None:
    assert 80 * GIB_TO_GB == pytest.approx(85.899, abs=1e-3)


def test_derived_defaults_for_an_office_workstation() -> None:
    plan = plan_of(requirements={"workload": "training", "deployment": "office"})
    d = derive_defaults(plan, CAT, POLICY, "rtx-4090", 2, "en")
    c = d.changes
    assert c["server.chassis"] == "tower-ws" and c["server.cpu"] == "i9-13900k"
    assert c["server.nics"] == []  # one machine in an office: the board's port
    # a data NVMe drive even without a dataset size (BALANCE-NVME-DATA), M.2 system drive in the tower
    assert c["server.storage"] == [{"role": "system", "part": "nvme-m2-1tb", "count": 1},
                                   {"role": "data", "part": "nvme-u2-4tb", "count": 1}]
    # RAM ≥ 2 × 2 × 24 GiB = 96 GiB → 4 × 32 GiB UDIMMs (2 channels: 4 is a multiple)
    assert c["server.memory"] == {"part": "ddr5-32g-udimm", "count": 4}
    # draw = 2 × 450 + 253 + 4 × 5 + (8 + 15) + 150 = 1346 W; × 1.2 = 1615.2 W. One 1800 W server module
    # would carry it, but the tower takes ATX units: 2 × atx-1600 (2 bays)
    assert (c["server.psu.part"], c["server.psu.count"]) == ("atx-1600", 2)
    new = apply_defaults(plan, d)
    found = {f.rule for f in evaluate(new, CAT, POLICY, "en")}
    assert not found & {"POWER-PSU-CAPACITY", "POWER-PSU-HEADROOM", "BALANCE-NVME-DATA", "BALANCE-RAM",
                        "PCIE-GPU-SLOTS", "POWER-PSU-FORM"}


def test_derived_psu_form_for_a_chassis_without_one_in_the_catalog() -> None:
    from catalog.models import Chassis
    from procurement.sizing.derive import psu_form_for
    from tests.procurement.rules.test_rules_parts import make_catalog

    tower = CAT.get("chassis", "tower-ws")
    rack = CAT.get("chassis", "rack-4u-8gpu")
    assert isinstance(tower, Chassis) and isinstance(rack, Chassis)
    assert psu_form_for(tower) == "atx" and psu_form_for(rack) == "server"
    # unknown: a tower is assumed to take ATX units, a rack server hot-swap modules
    bare_tower = tower.model_copy(update={"id": "tower-bare", "psu_form": None})
    assert psu_form_for(bare_tower) == "atx"
    assert psu_form_for(rack.model_copy(update={"psu_form": None})) == "server"
    plan = plan_of(requirements={"workload": "inference", "deployment": "office"},
                   server={"chassis": "tower-bare"})
    d = derive_defaults(plan, make_catalog(bare_tower), POLICY, "rtx-4090", 2, "en")
    assert d.changes["server.psu.part"] == "atx-1600"


def test_tier_texts_follow_the_policy() -> None:
    req = Requirements(workload="training", model_params_b=7, budget_cny=100_000)
    rec = recommend(req, CAT, POLICY, "en")
    assert rec.summary("en") == ["About 136 GB of GPU memory: over 80 GB (multi-GPU).",
                                 "Budget 50,000-200,000 CNY: workstation/professional cards."]
    assert rec.summary("zh")[1] == "预算 5-20 万元：工作站/专业卡。"
    custom = POLICY.model_copy(update={"memory_tiers_gb": (24, 48, 141), "budget_tiers_cny": (80_000, 300_000)})
    rec = recommend(req, CAT, custom, "en")
    assert rec.memory_tier == "32-80"  # 136 GB ≤ 141 GB
    assert rec.summary("en") == ["About 136 GB of GPU memory: 48-141 GB.",
                                 "Budget 80,000-300,000 CNY: workstation/professional cards."]


def test_derive_prefers_a_buyable_cpu_with_a_known_tdp(catalog) -> None:  # type: ignore[no-untyped-def]
    # real catalog, 8 × H100 SXM in a data centre: the LGA4677 choices are the 8480+ (TDP sourced) and the
    # DGX-only 8480C (TDP not sourced); the 8480+ is taken, with N+1 PSUs
    assert catalog.get("cpu", "xeon-platinum-8480c").tdp_w is None
    plan = plan_of(requirements={"workload": "training", "deployment": "datacenter"})
    d = derive_defaults(plan, catalog, POLICY, "h100-sxm5-80gb", 8, "en")
    assert not d.missing and d.changes["server.cpu"] == "xeon-platinum-8480plus"
    assert d.changes["server.psu.redundancy"] == "n+1"
    errors = [f.rule for f in evaluate(apply_defaults(plan, d), catalog, POLICY, "en") if f.severity == "error"]
    assert errors == []


def test_unpriced_cards_rank_after_every_card_known_to_fit_the_budget() -> None:
    """A ¥50,000 budget: a card of unknown price must not rank above one known to fit (the 4090 was 18th)."""
    from catalog.loader import load_catalog

    shipped = load_catalog()
    req = Requirements(workload="inference", model_params_b=7, budget_cny=50_000)
    ranked = recommend(req, shipped, POLICY, "en", limit=None).candidates
    known = [i for i, c in enumerate(ranked) if c.fits and c.within_budget]
    unknown = [i for i, c in enumerate(ranked) if c.within_budget is None]
    assert known and unknown and max(known) < min(unknown)
    first = ranked[0]
    assert first.within_budget is True and first.gpu_cost_cny is not None and first.gpu_cost_cny <= 50_000
    # the RTX 4090's ¥12,999 is a China retail price that includes VAT: not taxed a second time
    by_id = {c.gpu.id: c for c in ranked}
    c4090 = by_id["rtx-4090"]
    assert c4090.gpu_cost_cny is not None and c4090.gpu_cost_cny % 12_999 == 0

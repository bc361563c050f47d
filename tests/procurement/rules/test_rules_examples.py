"""The three shipped example plans, checked with the shipped catalog: power worked out from catalog numbers,
their exact findings, the sizing for them, and random plans from the shipped catalog never break a rule."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

from procurement.findings import Severity
from procurement.plan import Plan, load_plan
from procurement.rules import evaluate
from procurement.rules.power import power_budget
from procurement.sizing import apply_defaults, cloud_or_own, derive_defaults, recommend
from tests.conftest import EXAMPLES
from tests.procurement.rules import test_rules

# fallbacks for parts without a vendor figure (policy): DIMM 10 W, drive 15 W, NIC 40 W; fans 15 % of the parts
# for rack servers, NVSwitch baseboard 30 % of GPU watts on SXM boards, 150 W base for towers
FAN = 1.15
FINDINGS = {
    # no BALANCE-SINGLE-THREAD: the 8480+ boosts to 3.8 GHz like the DGX-only 8480C
    # COOLING-AIRFLOW-UNKNOWN: no vendor airflow figure for these chassis (unknown, said so)
    "llm-cluster-node": {
        "LIC-EXPORT", "VRAM-SHARDING", "BUDGET-UNPRICED",
        "COOLING-FAN-REDUNDANCY-UNKNOWN", "COOLING-AIRFLOW-UNKNOWN", "POWER-ESTIMATED-WATTS",
        "POWER-EFFICIENCY-ASSUMED",  # the Supermicro 3000 W unit's 80 PLUS class is not published
        "BALANCE-SINGLE-THREAD",  # info: the Xeon Platinum 8570 (4.0 GHz) fits the same socket as its 8480+
    },
    "mid-size-training": {
        "LIC-EXPORT", "VRAM-SHARDING", "BUDGET-UNPRICED", "COOLING-FAN-REDUNDANCY-UNKNOWN",
        "COOLING-AIRFLOW-UNKNOWN", "POWER-ESTIMATED-WATTS",
        "SW-IMAGE-UNKNOWN",  # NGC 23.05: CUDA, driver floor and the PyTorch inside are not in the reference (C4)
        "PCIE-DRIVE-BAYS-UNKNOWN",  # the AS-4124GS-TNR's drive bays are not in the catalog's sources
    },
    "personal-research": {
        "LIC-EXPORT", "BALANCE-ECC", "BALANCE-SINGLE-THREAD", "BUDGET-UNPRICED", "POWER-ESTIMATED-WATTS",
        "BUDGET-PRICE-AGE",  # the RTX 4090's reference price dates from 2023-12-28
    },
}
# the only warnings left: the export note on each GPU, on the consumer platform no ECC for training, the
# age of the RTX 4090's 2023 reference price, and the NGC 23.05 image whose contents the catalog does not know
WARNINGS = {
    "llm-cluster-node": {"LIC-EXPORT"},
    "mid-size-training": {"LIC-EXPORT", "SW-IMAGE-UNKNOWN", "PCIE-DRIVE-BAYS-UNKNOWN"},
    "personal-research": {"LIC-EXPORT", "BALANCE-ECC", "BUDGET-PRICE-AGE"},
}


def example(name: str, catalog) -> Plan:  # type: ignore[no-untyped-def]
    return load_plan(EXAMPLES / f"{name}.gpuplan.yaml", catalog)


@pytest.mark.parametrize("name", sorted(FINDINGS))
def test_example_findings(name: str, catalog, policy) -> None:  # type: ignore[no-untyped-def]
    found = evaluate(example(name, catalog), catalog, policy, "en")
    test_rules.check_findings(found)
    assert {f.rule for f in found} == FINDINGS[name]
    assert not [f for f in found if f.severity == Severity.ERROR]  # the reference configurations are sound
    assert {f.rule for f in found if f.severity == Severity.WARNING} == WARNINGS[name]


def test_examples_are_sized(catalog, policy) -> None:  # type: ignore[no-untyped-def]
    """Each example states a model, so the VRAM rules check it (no VRAM-NO-ESTIMATE)."""
    from procurement.rules.base import GIB_TO_GB
    from procurement.sizing.vram import estimate_vram

    mid = estimate_vram(example("mid-size-training", catalog).requirements, policy)
    # Llama 2 7B (6.74 B) full fine-tune, mixed AdamW: 16 B per parameter + activations 32 × 2048 × 1 × (18 ×
    # 4096 + 8 × 11,008) B (gated MLP) + logits 2048 × 32000 × 20 B + the CUDA context, + 20 %; on one GPU
    n7 = 6_738_415_616
    act = (32 * 2048 * (18 * 4096 + 8 * 11008) + 2048 * 32000 * 20) / 1e9
    ctx = 1343 * 1024**2 / 1e9
    assert mid.total_gb == pytest.approx((16 * n7 / 1e9 + act + ctx) * 1.2) and round(mid.total_gb) == 145
    assert 40 * GIB_TO_GB < mid.total_gb < 4 * 40 * GIB_TO_GB  # over one A100 40GB, within four
    own = estimate_vram(example("personal-research", catalog).requirements, policy)
    # QLoRA with its recipe's gradient checkpointing: well inside one RTX 4090
    assert own.total_gb < 24 * GIB_TO_GB and own.component("activations").gb < act / 3  # type: ignore[union-attr]
    node = example("llm-cluster-node", catalog)
    llm = estimate_vram(node.requirements, policy)
    # Llama 2 70B (68.98 B), mixed AdamW: 16 B per parameter + 80 × 4096 × 1 × 8192 × 34 B activations + logits
    assert llm.model_state_gb == pytest.approx(16 * 68.98, rel=1e-3)
    assert node.requirements.nodes == 8 and llm.total_gb < 64 * 80 * GIB_TO_GB


def test_llm_node_power(catalog, policy) -> None:  # type: ignore[no-untyped-def]
    b = power_budget(example("llm-cluster-node", catalog), catalog, policy)
    # 8 × H100 SXM 700 W + 2 × Xeon 8480+ 350 W + 32 DIMMs × 10 W + 5 U.2 × 15 W + 8 ConnectX-7 × 40 W = 7015 W,
    # + fans 15 % + the HGX H100 board's NVSwitch share, 30 % of 5600 W
    parts = 8 * 700 + 2 * 350 + 32 * 10 + 5 * 15 + 8 * 40
    assert parts == 7015 and b.draw_w == pytest.approx(parts * FAN + 0.30 * 5600)
    # six 3000 W PSUs as Supermicro ships them, 4+2 (N+2): four count
    assert (b.psu_unit_w, b.psu_count, b.redundant_units, b.usable_w) == (3000, 6, 2, 12_000)
    assert b.required_w < b.usable_w
    # at the wall (80 PLUS class not known: the lowest level, 85 % near half load): within 10 % of the
    # 10.2 kW NVIDIA publishes for the DGX H100 with the same GPUs and CPUs
    assert b.system is not None and b.system.efficiency_assumed
    assert abs(b.ac_w / 10_200 - 1) < 0.15


def test_mid_size_power(catalog, policy) -> None:  # type: ignore[no-untyped-def]
    b = power_budget(example("mid-size-training", catalog), catalog, policy)
    # 4 × A100 40 GB PCIe 250 W + 2 × EPYC 7543 225 W + 16 DIMMs × 10 W + 3 drives × 15 W + 1 NIC × 40 W, + fans
    assert b.draw_w == pytest.approx((4 * 250 + 2 * 225 + 16 * 10 + 3 * 15 + 40) * FAN)
    # 4 × Supermicro 2000 W Titanium at 200-240 V = 1800 W each, N+N: two count (docs/sources.md §D1)
    assert b.usable_w == 2 * 1800


def test_personal_research_power(catalog, policy) -> None:  # type: ignore[no-untyped-def]
    plan = example("personal-research", catalog)
    b = power_budget(plan, catalog, policy)
    # RTX 4090 450 W + i9-13900K 253 W (maximum turbo power, docs/sources.md §B8; 125 W is its base) + 2 DIMMs × 10 W
    # + 2 M.2 × 15 W + 150 W on a 1500 W PSU
    assert b.draw_w == 450 + 253 + 2 * 10 + 2 * 15 + 150 == 903
    assert b.usable_w == 1500
    low = plan.model_copy(update={"server": plan.server.model_copy(update={"input_voltage": "100-127"})})
    # the HX1500i's 100-127 V rating is not in the catalog: unknown, a warning (not a false "unsupported" error)
    low_rules = {f.rule: f.severity for f in evaluate(low, catalog, policy, "en")}
    assert low_rules["POWER-LOW-LINE-UNKNOWN"] == Severity.WARNING and "POWER-LOW-LINE-UNSUPPORTED" not in low_rules


def test_sizing_on_the_examples(catalog, policy) -> None:  # type: ignore[no-untyped-def]
    node = example("llm-cluster-node", catalog)
    d = derive_defaults(node, catalog, policy, lang="en")
    assert not d.missing and d.changes["gpu.count"] == 8
    assert catalog.get("chassis", d.changes["server.chassis"]).gpu_form_factor == "sxm"
    errors = [f.rule for f in evaluate(apply_defaults(node, d), catalog, policy, "en") if f.severity == "error"]
    assert errors == []
    assert cloud_or_own(node, catalog, "en").choice == "own"  # continuous use
    rec = recommend(node.requirements, catalog, policy, "en", limit=None)
    h100 = next(c for c in rec.candidates if c.gpu.id == "h100-sxm5-80gb")
    # Llama 2 70B, per GPU: 16 GPUs (TP2 × PP8) leave each 70 GB of model states + 7.4 GB of activations
    # + the context = 95.7 GB with the margin > 85.9 GB; 24 (TP2 × PP12) need 65.6 GB each → 3 per node
    assert (h100.gpus_needed, h100.per_node, h100.fits) == (24, 3, True)
    req = node.requirements.model_copy(update={"model_preset": None, "model_params_b": 70})
    h100 = next(c for c in recommend(req, catalog, policy, "en", limit=None).candidates
                if c.gpu.id == "h100-sxm5-80gb")
    # without the architecture (no activations counted): (70 B × 16 B / n + 1.41 GB) × 1.2 ≤ 85.9 GB → 16
    assert (h100.gpus_needed, h100.per_node) == (16, 2)


@pytest.fixture(scope="module")
def shipped_plans(catalog):  # type: ignore[no-untyped-def]
    saved = test_rules.CAT
    test_rules.CAT = catalog
    try:
        return test_rules.plans()
    finally:
        test_rules.CAT = saved


def test_random_plans_from_the_shipped_catalog(catalog, policy, shipped_plans) -> None:  # type: ignore[no-untyped-def]
    @settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
    @given(plan=shipped_plans)
    def run(plan: Plan) -> None:
        test_rules.check_findings(evaluate(plan, catalog, policy, "zh"))
        recommend(plan.requirements, catalog, policy, "en")
        cloud_or_own(plan, catalog, "en")
        if plan.gpu.model:
            derive_defaults(plan, catalog, policy, lang="en")

    run()

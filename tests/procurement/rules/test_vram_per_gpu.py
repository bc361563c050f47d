"""VRAM rules tied to the layout and the GPU count, on the shipped catalog (each check fails before its fix)."""

from __future__ import annotations

from typing import Any

from catalog.loader import Catalog
from procurement.findings import Severity
from procurement.plan import Plan
from procurement.policy import default_policy
from procurement.rules import evaluate_family, vram

POLICY = default_policy()


def plan(gpu: str, count: int, nodes: int = 1, server: dict[str, Any] | None = None, **req: Any) -> Plan:
    return Plan.model_validate({"requirements": {"nodes": nodes, **req}, "gpu": {"model": gpu, "count": count},
                                "server": server or {}})


def rules(p: Plan, catalog: Catalog) -> dict[str, Any]:
    return {f.rule: f for f in evaluate_family(vram, p, catalog, POLICY, "en")}


def test_tp_must_divide_the_heads(catalog: Catalog) -> None:
    # Qwen2.5-7B has 28 heads and 4 KV heads: TP 8 splits neither evenly
    found = rules(plan("h100-sxm5-80gb", 8, workload="inference", model_preset="qwen2.5-7b",
                       precision="bf16", tensor_parallel=8), catalog)
    assert found["VRAM-TP-HEADS"].severity == Severity.ERROR and "28 attention heads" in found["VRAM-TP-HEADS"].message
    ok = rules(plan("h100-sxm5-80gb", 8, workload="inference", model_preset="qwen2.5-7b", precision="bf16",
                    tensor_parallel=4), catalog)
    assert "VRAM-TP-HEADS" not in ok


def test_layout_must_divide_the_gpus(catalog: Catalog) -> None:
    found = rules(plan("h100-sxm5-80gb", 8, workload="inference", model_preset="llama-3-70b", precision="bf16",
                       tensor_parallel=3), catalog)
    assert "VRAM-LAYOUT" in found


def test_geforce_without_p2p_flagged_for_tensor_parallel(catalog: Catalog) -> None:
    found = rules(plan("rtx-4090", 2, workload="inference", model_preset="qwen2.5-14b", precision="bf16",
                       tensor_parallel=2), catalog)
    assert found["VRAM-TP-NO-P2P"].severity == Severity.WARNING
    pro = rules(plan("rtx-6000-ada", 2, workload="inference", model_preset="qwen2.5-14b", precision="bf16",
                     tensor_parallel=2), catalog)
    assert "VRAM-TP-NO-P2P" not in pro


def test_fp8_needs_ada_or_later(catalog: Catalog) -> None:
    a100 = rules(plan("a100-sxm4-80gb", 1, workload="inference", model_preset="qwen2.5-7b", precision="fp8"),
                 catalog)
    assert a100["VRAM-FP8-UNSUPPORTED"].step == 1
    h100 = rules(plan("h100-sxm5-80gb", 1, workload="inference", model_preset="qwen2.5-7b", precision="fp8"),
                 catalog)
    assert "VRAM-FP8-UNSUPPORTED" not in h100


def test_concurrent_users_are_sized_from_the_kv_cache(catalog: Catalog) -> None:
    # Llama 3 8B at 8,192 tokens: one H100 80GB holds ~400k KV tokens at 0.9 utilisation, ~50 requests
    few = rules(plan("h100-sxm5-80gb", 1, workload="inference", model_preset="llama-3-8b", precision="bf16",
                     sequence_length=8192, concurrent_users=16), catalog)
    assert "VRAM-SERVING" not in few and "VRAM-TOTAL" not in few
    many = rules(plan("h100-sxm5-80gb", 1, workload="inference", model_preset="llama-3-8b", precision="bf16",
                      sequence_length=8192, concurrent_users=200), catalog)
    assert "VRAM-TOTAL" in many or "VRAM-SERVING" in many


def test_offloaded_optimizer_must_fit_the_ram(catalog: Catalog) -> None:
    # Llama 2 13B, ZeRO-2 over 4 GPUs with offload: 13 B × (12 B optimizer + 2 B gradients streamed to the
    # CPU, as ZeRO-Offload does) = 182 GB per node
    small = {"memory": {"part": "samsung-ddr4-3200-rdimm-32gb", "count": 4}}
    found = rules(plan("a100-sxm4-80gb", 4, server=small, workload="fine_tuning", model_preset="llama-2-13b",
                       offload_optimizer=True, scheme="zero2", gradient_checkpointing=True), catalog)
    assert "VRAM-OFFLOAD-RAM" in found and "182 GB" in found["VRAM-OFFLOAD-RAM"].message
    big = {"memory": {"part": "samsung-ddr4-3200-rdimm-32gb", "count": 16}}
    assert "VRAM-OFFLOAD-RAM" not in rules(plan("a100-sxm4-80gb", 4, server=big, workload="fine_tuning",
                                                model_preset="llama-2-13b", offload_optimizer=True,
                                                scheme="zero2", gradient_checkpointing=True), catalog)


def test_zero3_over_slow_ethernet_is_network_bound(catalog: Catalog) -> None:
    found = rules(plan("a100-sxm4-80gb", 8, nodes=4, workload="fine_tuning", model_preset="llama-2-7b",
                       scheme="zero3", gradient_checkpointing=True, network_gbps=25), catalog)
    assert "VRAM-NETWORK-BOUND" in found and "25 Gb/s will be network-bound" in found["VRAM-NETWORK-BOUND"].message


def test_concurrent_users_are_shared_by_the_serving_copies(catalog: Catalog) -> None:
    """40 users over 40 T4s: each card holds a copy of Qwen2.5 7B int8 and serves its one user (DP×40); the
    users are not all put on every copy, which forced tensor parallelism over PCIe before."""
    from procurement.sizing.plan_sizing import size_plan

    def sized(users: int, count: int = 4, nodes: int = 10):  # type: ignore[no-untyped-def]
        p = plan("t4", count, workload="inference", model_preset="qwen2.5-7b", precision="int8",
                 sequence_length=4096, concurrent_users=users, nodes=nodes)
        return size_plan(p, catalog, 20.0), rules(p, catalog)

    s, found = sized(40)
    assert (s.parallel.tp, s.parallel.pp, s.parallel.dp) == (1, 1, 40) and s.case.batch == 1 and s.fits
    assert "VRAM-SHARDING" not in found and "VRAM-TOTAL" not in found and "VRAM-SERVING" not in found
    # the same 40 users on one card do not fit it: every request is that copy's, as before
    one_card, found = sized(40, count=1, nodes=1)
    assert one_card.case.batch == 40 and not one_card.fits
    assert "VRAM-TOTAL" in found or "VRAM-SERVING" in found

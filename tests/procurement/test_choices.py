"""The GPU choice as the rules see it (procurement.choices): the GPUs the app itself rejects rank below the
ones it accepts, each with the findings that exclude it, and the count follows the GPU."""

from __future__ import annotations

from procurement.choices import gpu_choices, with_gpu
from procurement.llm.presets import MODELS
from procurement.plan import Plan, Requirements, with_value


def llama_2_7b(**requirements: object) -> Plan:
    """Step 1 with the Llama 2 7B preset, its shape filled in as the page does."""
    p = MODELS["llama-2-7b"]
    shape = {"model_params_b": p.published_params_b or round(p.params_b, 2), "layers": p.layers,
             "hidden_size": p.hidden, "attention_heads": p.heads, "kv_heads": p.kv_heads, "head_dim": p.head_dim,
             "vocab_size": p.vocab}
    return Plan(requirements=Requirements(model_preset="llama-2-7b", **shape, **requirements))  # type: ignore[arg-type]


def test_data_centre_full_fine_tune_puts_geforce_below_what_passes(catalog, policy) -> None:
    plan = llama_2_7b(workload="fine_tuning", mode="full_finetune", budget_cny=200_000, deployment="datacenter")
    choices = gpu_choices(plan, catalog, policy, "en")
    by_id = {c.gpu.id: c for c in choices}
    d = by_id["rtx-4090-d"]
    # the sizing alone ranks it first, with seven cards
    assert (d.rank, d.fits_count, d.per_server) == (1, 7, 7)
    # the rules the checklist runs rule it out: the GeForce licence and seven open-air cards in one chassis
    assert set(d.exclusion_codes()) == {"LIC-GEFORCE-DATACENTER", "COOLING-OPEN-AIR"}
    assert "does not permit data-centre deployment" in d.exclusion_text("en")
    assert "7 open-air NVIDIA GeForce RTX 4090 D cards in one chassis (at most 2)" in d.exclusion_text("en")
    passing = [c for c in choices if not c.excluded]
    assert passing and choices[: len(passing)] == passing  # every passing GPU above every excluded one
    assert d.order > len(passing)
    assert choices[0].gpu.id == "rtx-pro-6000-blackwell" and not choices[0].priced
    assert [c.order for c in choices] == list(range(1, len(choices) + 1))
    # within each group the sizing's order stays
    ranks = [c.rank or 10_000 for c in passing]
    assert ranks == sorted(ranks)


def test_personal_box_in_china_puts_the_export_blocked_4090_below(catalog, policy) -> None:
    plan = llama_2_7b(workload="inference", budget_cny=50_000, deployment="office")
    choices = gpu_choices(plan, catalog, policy, "zh")
    by_id = {c.gpu.id: c for c in choices}
    blocked = by_id["rtx-4090"]
    assert blocked.rank == 1 and blocked.excluded
    assert blocked.exclusion_codes() == ("LIC-EXPORT",)
    assert "禁止向中国出口" in blocked.exclusion_text("zh")
    assert "Banned for China" in blocked.exclusion_text("en")
    # the China variant at the same price passes (its export note only says to check the current rules)
    assert not by_id["rtx-4090-d"].excluded and by_id["rtx-4090-d"].priced
    assert [c.gpu.id for c in choices[:2]] == ["rtx-4080-16gb", "rtx-4090-d"]
    assert blocked.order > max(c.order for c in choices if not c.excluded)


def test_the_count_follows_the_new_gpu(catalog, policy) -> None:
    plan = llama_2_7b(workload="fine_tuning", mode="full_finetune", budget_cny=200_000, deployment="datacenter")
    plan = with_value(with_value(plan, "gpu.model", "rtx-4090-d"), "gpu.count", 7)
    by_id = {c.gpu.id: c for c in gpu_choices(plan, catalog, policy, "en")}
    pro = by_id["rtx-pro-6000-blackwell"]
    assert pro.per_server == 2  # the sizing's count for this GPU, not the 7 of the one chosen before
    assert with_gpu(plan, pro.gpu.id, pro.fits_count).gpu.count == 2


def test_export_control_excludes_only_a_model_marked_blocked(catalog, policy) -> None:
    from procurement.choices import _excludes
    from procurement.rules import evaluate

    plan = llama_2_7b(workload="inference", budget_cny=50_000, deployment="office")
    f = next(f for f in evaluate(with_gpu(plan, "rtx-4090", 1), catalog, policy, "en") if f.rule == "LIC-EXPORT")
    assert _excludes(f, catalog.gpu("rtx-4090"))
    assert not _excludes(f, catalog.gpu("rtx-4090-d"))  # the same rule on a model not marked blocked

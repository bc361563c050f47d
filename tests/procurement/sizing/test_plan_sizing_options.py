"""The plan's training options (format 12) are sized as `gpu-procure size` sizes the same options: the VRAM rules,
step 2 and `size` print one figure for one case (procurement.sizing.estimate.with_training_options)."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from catalog.loader import Catalog, load_catalog
from procurement.commands.size import main as size_main
from procurement.plan import Plan, Requirements, Workload
from procurement.policy import default_policy
from procurement.rules import evaluate
from procurement.sizing.plan_sizing import size_plan

MARGIN = default_policy().vram_margin_pct
DS_ZERO3 = {"zero_optimization": {"stage": 3, "overlap_comm": True, "stage3_prefetch_bucket_size": "auto",
                                  "offload_optimizer": {"device": "cpu"}}}


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog()


# (plan requirements beyond the base, the same as `size` options)
CASES: list[tuple[dict[str, Any], list[str]]] = [
    ({}, []),
    ({"attention": "eager"}, ["--attention", "eager"]),
    ({"attention": "sdpa", "loss_chunks": 8}, ["--attention", "sdpa", "--loss-chunks", "8"]),
    ({"offload_activations": True}, ["--offload-activations"]),
    ({"gradient_checkpointing": True, "offload_params": True, "scheme": "zero3"},
     ["--checkpointing", "on", "--offload-params", "--scheme", "zero3"]),
    ({"sequence_parallel": True, "tensor_parallel": 2, "scheme": "dp"},
     ["--sequence-parallel", "--tp", "2", "--scheme", "dp"]),
    ({"deepspeed_config": DS_ZERO3}, ["--deepspeed-config", "DS"]),
    ({"deepspeed_config": DS_ZERO3, "offload_activations": True, "loss_chunks": 4},
     ["--deepspeed-config", "DS", "--offload-activations", "--loss-chunks", "4"]),
]


def _plan(extra: dict[str, Any]) -> Plan:
    req = Requirements(workload=Workload.TRAINING, model_preset="llama-3-8b", batch_size=2, sequence_length=4096,
                       tensor_parallel=extra.pop("tensor_parallel", 1), pipeline_parallel=1, **extra)
    return Plan.model_validate({"requirements": req.model_dump(mode="json"),
                                "gpu": {"model": "h100-sxm5-80gb", "count": 8}})


def _size_json(args: list[str], tmp_path: Path) -> dict[str, Any]:
    ds = tmp_path / "ds_config.json"
    ds.write_text(json.dumps(DS_ZERO3), encoding="utf-8")
    args = [str(ds) if a == "DS" else a for a in args]
    out, err = io.StringIO(), io.StringIO()
    base = ["--model", "llama-3-8b", "--mode", "full", "--batch", "2", "--seq", "4096", "--gpu", "h100-sxm5-80gb",
            "--gpus", "8", "--pp", "1", "--json", "--lang", "en"]
    if "--tp" not in args:
        base += ["--tp", "1"]
    code = size_main([*base, *args], out, err)
    assert code in (0, 1), err.getvalue()
    data: dict[str, Any] = json.loads(out.getvalue())
    return data


@pytest.mark.parametrize(("plan_fields", "size_args"), CASES, ids=[" ".join(a) or "defaults" for _, a in CASES])
def test_the_plan_and_size_print_one_figure(plan_fields: dict[str, Any], size_args: list[str], catalog: Catalog,
                                           tmp_path: Path) -> None:
    s = size_plan(_plan(dict(plan_fields)), catalog, MARGIN)
    cli = _size_json(size_args, tmp_path)
    assert s is not None
    assert cli["scheme"] == s.parallel.label()
    assert cli["breakdown"] == {k: round(v, 3) for k, v in s.memory.breakdown().items()}
    assert cli["per_gpu_gb"] == round(s.memory.total, 3)
    assert cli["cpu_offload_gb"] == round(s.memory.cpu_offload, 3)
    assert cli["checkpointing"] == s.case.recompute


def test_the_options_move_the_figure(catalog: Catalog) -> None:
    """Each option is read: eager attention adds the score matrices, chunks shrink the logits, offloads move memory
    off the GPU (a field the sizing ignored would pass the test above only by luck of equal defaults)."""
    def total(**kw: Any) -> float:
        s = size_plan(_plan(kw), catalog, MARGIN)
        assert s is not None
        return s.memory.total

    flash = total()
    assert total(attention="eager") > flash
    assert total(loss_chunks=16) < flash
    assert total(gradient_checkpointing=True, offload_activations=True) < total(gradient_checkpointing=True)
    ds = size_plan(_plan({"deepspeed_config": DS_ZERO3}), catalog, MARGIN)
    assert ds is not None and ds.parallel.scheme == "zero3" and ds.memory.cpu_offload > 0


def test_the_vram_rule_uses_the_options(catalog: Catalog) -> None:
    """VRAM-TOTAL judges the same case: 8B full training, batch 1 × 4096 tokens without checkpointing on 8 × H100
    80GB under ZeRO-3 fits with FlashAttention (about 67 GB with the margin) and not with eager attention (170)."""
    def plan(attention: str) -> Plan:
        req = Requirements(workload=Workload.TRAINING, model_preset="llama-3-8b", batch_size=1,
                           sequence_length=4096, gradient_checkpointing=False, scheme="zero3", tensor_parallel=1,
                           pipeline_parallel=1, attention=attention)  # type: ignore[arg-type]
        return Plan.model_validate({"requirements": req.model_dump(mode="json"),
                                    "gpu": {"model": "h100-sxm5-80gb", "count": 8}})

    flash, eager = (size_plan(plan(a), catalog, MARGIN) for a in ("flash", "eager"))
    assert flash is not None and eager is not None
    assert flash.fits and not eager.fits
    rules = {a: {f.rule for f in evaluate(plan(a), catalog, default_policy(), "en")} for a in ("flash", "eager")}
    assert "VRAM-TOTAL" not in rules["flash"] and "VRAM-TOTAL" in rules["eager"]


def test_a_deepspeed_config_that_cannot_be_read_is_no_estimate(catalog: Catalog) -> None:
    s = size_plan(_plan({"deepspeed_config": {"zero_optimization": {"stage": 7}}}), catalog, MARGIN)
    assert s is None
    from procurement.sizing.plan_sizing import case_for

    case, notes = case_for(_plan({"deepspeed_config": {"zero_optimization": {"stage": 7}}}).requirements)
    assert case is None and "vram.note.bad_deepspeed" in notes


@pytest.mark.parametrize("attention", ["flash", "eager"])
def test_step_2s_gpu_count_is_sizes_count(attention: str, catalog: Catalog, tmp_path: Path) -> None:
    """Step 2 ranks GPUs by the count estimate_vram gives (procurement.sizing.vram): with the options, the count
    `size` searches for the same case on the same GPU."""
    from procurement.sizing.vram import estimate_vram

    req = Requirements(workload=Workload.TRAINING, model_preset="llama-3-8b", batch_size=2, sequence_length=4096,
                       attention=attention, loss_chunks=4)  # type: ignore[arg-type]
    est = estimate_vram(req, default_policy())
    gpu = catalog.gpu("h100-sxm5-80gb")
    assert gpu is not None
    step2 = est.gpus_needed(gpu.memory_gib * 1.073741824, per_node=8, nodes=1, gpu_name=gpu.name)
    out, err = io.StringIO(), io.StringIO()
    size_main(["--model", "llama-3-8b", "--mode", "full", "--batch", "2", "--seq", "4096", "--gpu", "h100-sxm5-80gb",
               "--gpus", "8", "--attention", attention, "--loss-chunks", "4", "--json"], out, err)
    assert step2 is not None and step2 == json.loads(out.getvalue())["gpus_needed"], err.getvalue()


def test_the_offload_note_names_what_is_offloaded() -> None:
    from procurement.sizing.vram import estimate_vram

    base = dict(workload=Workload.TRAINING, model_preset="llama-3-8b", gradient_checkpointing=True)
    only_optimizer = estimate_vram(Requirements(**base, offload_optimizer=True), default_policy())  # type: ignore[arg-type]
    checkpoints = estimate_vram(Requirements(**base, offload_activations=True), default_policy())  # type: ignore[arg-type]
    assert "vram.note.offload" in only_optimizer.notes and "vram.note.offload_more" not in only_optimizer.notes
    assert "vram.note.offload_more" in checkpoints.notes and "vram.note.offload" not in checkpoints.notes

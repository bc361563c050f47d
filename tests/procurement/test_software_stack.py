"""The recommended software stack: what an image brings, and a driver/CUDA/framework the rules accept."""

from __future__ import annotations

import pytest

from procurement.findings import Severity
from procurement.plan import Plan
from procurement.rules import evaluate_family
from procurement.rules import software as software_rules
from procurement.rules.base import major_minor, version
from procurement.software_stack import apply_values, image_fill, recommend_stack


def _plan(gpu: str | None = None, **software: str | None) -> Plan:
    plan = Plan()
    if gpu:
        plan = plan.model_copy(update={"gpu": plan.gpu.model_copy(update={"model": gpu, "count": 1})})
    return apply_values(plan, {f"software.{k}": v for k, v in software.items() if v is not None})


def _blocking(plan, catalog):
    return [f for f in evaluate_family(software_rules, plan, catalog) if f.severity != Severity.INFO]


@pytest.mark.parametrize("gpu", ["rtx-5090", "h100-sxm5-80gb", "t4", "v100-sxm2-32gb", "p100-pcie-16gb",
                                 "a100-pcie-80gb", "b200", "l40s"])
def test_the_recommended_stack_raises_no_software_error_or_warning(catalog, gpu):
    rec = recommend_stack(_plan(gpu), catalog, lang="en")
    assert rec is not None
    assert {"software.framework", "software.cuda", "software.driver", "software.os"} <= set(rec.values)
    after = apply_values(_plan(gpu), rec.values)
    assert _blocking(after, catalog) == []
    assert len(rec.reasons) >= 4 and all(r.strip() for r in rec.reasons)


def test_an_old_gpu_gets_the_last_cuda_line_that_still_compiles_for_it(catalog):
    # CUDA 13.0 dropped Volta (docs/sources.md C11): a V100 must not be offered CUDA 13
    rec = recommend_stack(_plan("v100-sxm2-32gb"), catalog, lang="en")
    cuda = catalog.cuda(rec.values["software.cuda"].removeprefix("cuda-"))
    assert (12, 8) <= major_minor(cuda.version) < (13, 0)


def test_blackwell_gets_at_least_the_first_cuda_and_driver_that_know_it(catalog):
    rec = recommend_stack(_plan("rtx-5090"), catalog, lang="en")
    cuda = catalog.cuda(rec.values["software.cuda"].removeprefix("cuda-"))
    assert major_minor(cuda.version) >= (12, 8)
    driver = next(p for p in catalog if p.id == rec.values["software.driver"])
    assert version(driver.version) >= version(cuda.min_driver_linux)


def test_the_driver_is_the_oldest_branch_that_meets_the_cuda_minimum(catalog):
    rec = recommend_stack(_plan("a100-pcie-80gb"), catalog, lang="en")
    cuda = catalog.cuda(rec.values["software.cuda"].removeprefix("cuda-"))
    chosen = next(p for p in catalog if p.id == rec.values["software.driver"])
    from catalog.models import DriverBranch
    older_meeting = [d for d in catalog.all(DriverBranch)
                     if version(cuda.min_driver_linux) <= version(d.version) < version(chosen.version)]
    assert older_meeting == []


def test_the_plans_os_and_a_chosen_image_are_kept_and_decide(catalog):
    plan = _plan("a100-pcie-80gb", os="rocky-9", image="ngc-pytorch-24.05")
    rec = recommend_stack(plan, catalog, lang="en")
    assert "software.os" not in rec.values
    assert rec.values["software.image"] == "ngc-pytorch-24.05"
    assert rec.values["software.framework"] == "pytorch-2.4"          # what the image contains
    assert rec.values["software.cuda"] == "cuda-12.4"
    assert any("contained in the image" in r for r in rec.reasons)


def test_an_image_that_records_nothing_is_said_to_be_unchecked(catalog):
    rec = recommend_stack(_plan("a100-pcie-80gb", image="ngc-pytorch-23.05"), catalog, lang="en")
    assert any("does not record its framework" in r for r in rec.reasons)
    assert any("does not record its CUDA" in r for r in rec.reasons)


def test_no_gpu_no_recommendation(catalog):
    assert recommend_stack(_plan(), catalog) is None


def test_choosing_an_image_fills_cuda_framework_and_minimum_driver_where_the_plan_is_empty(catalog):
    fill = image_fill(_plan("a100-pcie-80gb"), catalog, "ngc-pytorch-24.05", "en")
    assert fill.changes == {"software.cuda": "cuda-12.4", "software.framework": "pytorch-2.4",
                            "software.driver": "r545"}     # the image needs R545+ (docs/sources.md §C4b)
    assert fill.mismatches == ()
    assert len(fill.notes) == 3


def test_choosing_an_image_states_each_mismatch_and_changes_nothing(catalog):
    plan = _plan("a100-pcie-80gb", driver="r535", cuda="cuda-12.1", framework="pytorch-2.1")
    fill = image_fill(plan, catalog, "ngc-pytorch-24.05", "zh")
    assert fill.changes == {}
    assert set(fill.mismatches) == {"software.cuda", "software.framework", "software.driver"}
    text = "\n".join(fill.notes)
    assert "CUDA 12.1" in text and "CUDA 12.4.1" in text and "PyTorch 2.1" in text and "PyTorch 2.4" in text
    assert "545" in text


def test_an_image_that_records_nothing_fills_nothing_and_says_so(catalog):
    fill = image_fill(_plan("a100-pcie-80gb"), catalog, "ngc-pytorch-23.05", "en")
    assert fill.changes == {}
    assert len(fill.notes) == 3 and all("does not record" in n for n in fill.notes)

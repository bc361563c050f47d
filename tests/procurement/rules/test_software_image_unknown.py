"""SW-IMAGE-UNKNOWN: an image whose CUDA, driver floor or framework the catalog does not record is never a pass.

Step 4 showed a green ✓ for PyTorch 2.1 on NGC 23.05 although the catalog records neither the image's CUDA, nor
its driver floor, nor the PyTorch inside (its own note doubts 23.05 has 2.1). Images whose documentation says they
hold no CUDA (Miniconda, Jupyter scipy-notebook) must not raise it.
"""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from catalog.models import ContainerImage
from procurement.evaluation import evaluate
from procurement.findings import Severity
from procurement.plan import load_plan, with_value
from tests.conftest import EXAMPLES


def _mid_size(catalog):  # type: ignore[no-untyped-def]
    return load_plan(EXAMPLES / "mid-size-training.gpuplan.yaml", catalog)


def _unknown(plan, catalog, policy, lang="en"):  # type: ignore[no-untyped-def]
    return [f for f in evaluate(plan, catalog, policy, lang).findings if f.rule == "SW-IMAGE-UNKNOWN"]


def test_pytorch_2_1_on_ngc_23_05_is_a_warning_and_step_4_is_not_ok(catalog, policy) -> None:
    plan = _mid_size(catalog)
    assert (plan.software.image, plan.software.framework) == ("ngc-pytorch-23.05", "pytorch-2.1")
    [f] = _unknown(plan, catalog, policy)
    assert f.severity == Severity.WARNING and f.step == 4 and f.fields == ("software.image",)
    assert ("the CUDA version, the minimum driver, the framework release of image nvcr.io/nvidia/pytorch:23.05-py3"
            in f.message_text("en"))
    # the fix names the image of the same framework whose contents are recorded, and the named confirmation
    assert "pytorch/pytorch:2.1.0-cuda12.1-cudnn8-runtime" in f.fix_text("en")
    assert "named person" in f.fix_text("en")
    zh = f.message_text("zh")
    assert "CUDA 版本、最低驱动版本、框架版本" in zh and "The catalog" not in zh
    assert "确认人" in f.fix_text("zh")
    # stored as a code and parameters, rendered in the reader's language
    assert f.coded_message is not None and f.coded_message.code == "SW-IMAGE-UNKNOWN.message"
    assert evaluate(plan, catalog, policy, "en").steps[4].state == "warning"


def test_an_image_whose_contents_are_known_passes(catalog, policy) -> None:
    plan = with_value(_mid_size(catalog), "software.image", "pytorch-2.1.0-cuda12.1-runtime")
    assert _unknown(plan, catalog, policy) == []
    assert evaluate(plan, catalog, policy, "en").steps[4].state == "ok"


@pytest.mark.parametrize("image", ["miniconda3", "jupyter-scipy-notebook", "cuda-12.1.1-runtime-ubuntu22.04"])
@pytest.mark.parametrize("framework", ["pytorch-2.1", None])
def test_images_that_hold_no_cuda_or_no_framework_raise_nothing(catalog, policy, image, framework) -> None:
    """Miniconda and scipy-notebook have no CUDA and no framework (their Dockerfiles, recorded in the catalog);
    NVIDIA's CUDA base has no framework: the Dockerfile installs the plan's framework on top."""
    plan = with_value(with_value(_mid_size(catalog), "software.framework", framework), "software.image", image)
    assert _unknown(plan, catalog, policy) == []
    img = catalog.typed(ContainerImage, image)
    assert img.bundles_framework is False and img.framework is None
    assert img.bundles_cuda is (None if image.startswith("cuda-") else False)
    checklist_reason = _preinstalled(plan, catalog, policy).reason
    assert "unknown" not in checklist_reason.split("Python")[0]  # CUDA and framework: a version or none


def _preinstalled(plan, catalog, policy):  # type: ignore[no-untyped-def]
    from procurement.checklist import build_checklists

    found = evaluate(plan, catalog, policy, "en").findings
    return next(i for i in build_checklists(plan, catalog, found, policy, "en")["software"].items
                if i.id == "preinstalled_software")


def test_only_the_facts_the_plan_relies_on_are_named(catalog, policy) -> None:
    # NGC 23.05 with no framework chosen: its CUDA and driver floor are still unknown, the framework is not asked
    plan = with_value(_mid_size(catalog), "software.framework", None)
    [f] = _unknown(plan, catalog, policy)
    text = f.message_text("en")
    assert "the CUDA version, the minimum driver of image" in text and "framework" not in text


def test_the_catalog_refuses_a_no_cuda_image_that_names_a_cuda(catalog) -> None:
    base = catalog.typed(ContainerImage, "miniconda3").model_dump()
    assert base["bundles_cuda"] is False and "no CUDA" in base["source"]
    with pytest.raises(ValidationError, match="bundles_cuda: false"):
        ContainerImage.model_validate({**base, "cuda": "12.1"})
    with pytest.raises(ValidationError, match="bundles_framework: false"):
        ContainerImage.model_validate({**base, "framework": "pytorch-2.1"})

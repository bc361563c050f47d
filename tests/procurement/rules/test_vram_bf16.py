"""VRAM-BF16-UNSUPPORTED / -UNKNOWN: a plan in pure BF16 on a GPU without BF16 (or not known to have it).

Step 2 offered a Quadro RTX 8000 for a BF16 plan and no rule said Turing has no BF16; a user catalog's GPU
without the fact defaulted to "has BF16".
"""

from __future__ import annotations

import pytest

from catalog.loader import Catalog
from catalog.models import Gpu
from procurement.evaluation import evaluate
from procurement.findings import Severity
from procurement.plan import load_plan, with_value
from tests.conftest import EXAMPLES


def _bf16_plan(catalog, gpu: str, precision: str = "bf16"):  # type: ignore[no-untyped-def]
    plan = load_plan(EXAMPLES / "mid-size-training.gpuplan.yaml", catalog)
    return with_value(with_value(plan, "requirements.precision", precision), "gpu.model", gpu)


def _bf16(plan, catalog, policy, lang="en"):  # type: ignore[no-untyped-def]
    return [f for f in evaluate(plan, catalog, policy, lang).findings if f.rule.startswith("VRAM-BF16")]


@pytest.mark.parametrize("gpu", ["quadro-rtx-8000", "t4", "v100-pcie-32gb", "p100-pcie-16gb"])
def test_bf16_on_a_gpu_without_it_is_a_warning(catalog, policy, gpu) -> None:
    """A warning, not FP8's error: the plan's "BF16/FP16" precision also stands for FP16, which these GPUs run."""
    [f] = _bf16(_bf16_plan(catalog, gpu), catalog, policy)
    assert f.rule == "VRAM-BF16-UNSUPPORTED" and f.severity == Severity.WARNING
    assert f.fields == ("requirements.precision", "gpu.model")
    name = catalog.gpu(gpu).name
    assert f.message_text("en").startswith(f"{name} (compute capability {catalog.gpu(gpu).compute_capability}) "
                                           "has no BF16")
    assert "runs as FP16" in f.message_text("en") and "loss scaling" in f.fix_text("en")
    assert "不支持 BF16" in f.message_text("zh") and "损失缩放" in f.fix_text("zh")


@pytest.mark.parametrize("gpu", ["a100-pcie-40gb", "l40s", "h100-sxm5-80gb", "rtx-4090", "b200"])
def test_bf16_on_ampere_and_later_raises_nothing(catalog, policy, gpu) -> None:
    assert catalog.gpu(gpu).bf16 is True
    assert _bf16(_bf16_plan(catalog, gpu), catalog, policy) == []


def test_mixed_precision_on_a_gpu_without_bf16_raises_nothing(catalog, policy) -> None:
    """'mixed' runs as FP16 with loss scaling where BF16 is missing (procurement/framework_settings.py)."""
    assert _bf16(_bf16_plan(catalog, "quadro-rtx-8000", "mixed"), catalog, policy) == []


def test_the_gpu_choice_ranks_a_gpu_without_bf16_below_those_with_it(catalog, policy) -> None:
    """Step 2 ranked a Quadro RTX 8000 second for a BF16 plan: now below every GPU the rules accept."""
    from procurement.choices import gpu_choices
    from tests.procurement.test_choices import llama_2_7b

    plan = llama_2_7b(workload="fine_tuning", mode="full_finetune", precision="bf16", budget_cny=200_000,
                      deployment="datacenter")
    choices = gpu_choices(plan, catalog, policy, "en")
    quadro = next(c for c in choices if c.gpu.id == "quadro-rtx-8000")
    assert "VRAM-BF16-UNSUPPORTED" in quadro.exclusion_codes()
    assert quadro.order > len([c for c in choices if not c.excluded])


def test_every_shipped_gpu_states_bf16_by_its_compute_capability(catalog) -> None:
    """docs/sources.md §A3: BF16 from compute capability 8.0; the catalog states it for every GPU it ships."""
    for gpu in catalog.all(Gpu):
        assert gpu.bf16 is (gpu.cc_tuple >= (8, 0)), gpu.id


def test_a_gpu_whose_bf16_is_not_recorded_is_unknown_not_silence(catalog, policy) -> None:
    gpu = catalog.gpu("a100-pcie-40gb")
    data = gpu.model_dump()
    data.pop("bf16")
    mine = Gpu.model_validate({**data, "id": "company-gpu", "name": "Company GPU"})
    assert mine.bf16 is None  # not "has BF16" by default
    cat = Catalog(parts={k: dict(v) for k, v in catalog.parts.items()})
    cat.parts["gpu"]["company-gpu"] = mine
    [f] = _bf16(_bf16_plan(cat, "company-gpu"), cat, policy)
    assert f.rule == "VRAM-BF16-UNKNOWN" and f.severity == Severity.WARNING
    assert "does not say whether Company GPU" in f.message_text("en")
    assert "是否支持 BF16" in f.message_text("zh")

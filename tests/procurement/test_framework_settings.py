"""Framework settings decided from each shipped example: workers from cores per GPU, precision from the GPU."""

from __future__ import annotations

from pathlib import Path

import pytest

from catalog.loader import Catalog, load_catalog
from procurement.framework_settings import framework_settings, settings_markdown, workers_per_gpu
from procurement.plan import Plan, Precision, Workload, load_plan

EXAMPLES = Path(__file__).parents[2] / "resources" / "examples"


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog()


def _settings(plan: Plan, catalog: Catalog) -> dict[str, str]:
    return {s.key: s.value for s in framework_settings(plan, catalog)}


def test_workers_follow_the_cores_per_gpu(catalog: Catalog) -> None:
    llm = load_plan(EXAMPLES / "llm-cluster-node.gpuplan.yaml", catalog)  # 2 × 56-core Xeon 8480+, 8 H100
    assert _settings(llm, catalog)["workers"] == "DataLoader(num_workers=13)"
    t4 = load_plan(EXAMPLES / "realtime-inference-cluster.gpuplan.yaml", catalog)  # 2 × 10 cores, 4 T4
    assert _settings(t4, catalog)["workers"] == "DataLoader(num_workers=4)"
    assert workers_per_gpu(4, 8) == 1 and workers_per_gpu(None, 8) is None


def test_precision_follows_the_gpu_and_the_plan(catalog: Catalog) -> None:
    plan = load_plan(EXAMPLES / "dl-training-platform.gpuplan.yaml", catalog)  # A100, mixed
    s = _settings(plan, catalog)
    assert "bfloat16" in s["precision"] and "set_float32_matmul_precision" in s["tf32"]
    assert s["cudnn_benchmark"].endswith("= False")  # a language model: changing sequence lengths
    t4 = load_plan(EXAMPLES / "realtime-inference-cluster.gpuplan.yaml", catalog)
    t4.requirements.workload, t4.requirements.precision = Workload.TRAINING, Precision.MIXED
    t4.requirements.model_preset = None
    s = _settings(t4, catalog)
    assert "GradScaler" in s["precision"]  # Turing: no bfloat16
    assert s["tf32"] == "TF32: not available" and s["cudnn_benchmark"].endswith("= True")
    t4.requirements.precision = Precision.FP8
    assert "not available" in _settings(t4, catalog)["precision"]
    qlora = load_plan(EXAMPLES / "personal-research.gpuplan.yaml", catalog)  # RTX 4090, int4 fine-tuning
    assert "int4 base weights" in _settings(qlora, catalog)["precision"]


def test_unknown_parts_are_said(catalog: Catalog) -> None:
    s = framework_settings(Plan(), catalog)
    assert [x.key for x in s] == ["workers", "pin_memory", "precision"]
    assert "decide on the node" in s[0].value


def test_markdown_table_has_every_setting(catalog: Catalog) -> None:
    plan = load_plan(EXAMPLES / "mid-size-training.gpuplan.yaml", catalog)
    table = settings_markdown(plan, catalog)
    assert table.count("\n| `") == 5 and "64 CPU cores shared by 4 × GPU give 16 per GPU" in table

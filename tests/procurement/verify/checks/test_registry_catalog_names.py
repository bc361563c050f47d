"""The shipped catalog's nvidia-smi names: unambiguous, and covering the data-centre captures."""

from __future__ import annotations

from collections import Counter

import pytest

from catalog.loader import Catalog, CatalogError, load_catalog
from catalog.models import Gpu
from procurement.plan import Plan, load_plan
from procurement.verify.checks import match_gpu
from procurement.verify.probe import report_from_outputs
from tests.conftest import EXAMPLES
from tests.procurement.verify.conftest import A100_MIG_XML, H100_TOPO, H100_XML


@pytest.fixture(scope="module")
def shipped() -> Catalog:
    try:
        cat = load_catalog()
    except (CatalogError, OSError) as exc:
        pytest.skip(f"no shipped catalog yet ({exc})")
    if not any(g.smi_names for g in cat.all(Gpu)):
        pytest.skip("the shipped catalog has no smi_names yet")
    return cat


def test_each_smi_name_maps_to_one_part(shipped: Catalog) -> None:
    names = Counter(" ".join(n.split()).casefold() for g in shipped.all(Gpu) for n in g.smi_names)
    assert [n for n, c in names.items() if c > 1] == []


@pytest.mark.parametrize("name", ["NVIDIA H100 80GB HBM3", "NVIDIA A100-SXM4-80GB"])
def test_capture_names_map_to_catalog_parts(shipped: Catalog, name: str) -> None:
    part = match_gpu(name, shipped)
    assert part is not None, f"no catalog GPU lists {name!r} in smi_names"
    assert part.memory_gib >= 80


def _example(shipped: Catalog, name: str) -> Plan:
    path = EXAMPLES / name
    if not path.exists():
        pytest.skip(f"{name} not shipped yet")
    return load_plan(path, shipped)


def test_shipped_llm_node_example_against_the_8x_h100_capture(shipped: Catalog) -> None:
    plan = _example(shipped, "llm-cluster-node.gpuplan.yaml")
    assert (plan.gpu.model, plan.gpu.count) == ("h100-sxm5-80gb", 8)
    rep = report_from_outputs(H100_XML.read_text(), shipped, plan, "en", topo_text=H100_TOPO.read_text())
    status = {c.id: c.status for c in rep.checks}
    for cid in (
        "GPU-MODEL",
        "GPU-COUNT",
        "GPU-MEMORY",
        "PCIE-WIDTH",
        "PCIE-GEN",
        "NVLINK",
        "ECC",
        "POWER-LIMIT",
        "PERSISTENCE",
        "DRIVER-MIN",
        "CUDA-VERSION",
    ):
        assert status[cid] == "pass", (cid, rep.check(cid))
    assert {g.catalog_id for g in rep.gpus} == {"h100-sxm5-80gb"}


def test_shipped_a100_example_against_the_a100_mig_capture(shipped: Catalog) -> None:
    plan = _example(shipped, "mid-size-training.gpuplan.yaml")
    rep = report_from_outputs(A100_MIG_XML.read_text(), shipped, plan, "en")
    status = {c.id: c.status for c in rep.checks}
    # planned 4x A100 40GB PCIe; the capture shows one A100-SXM4-80GB (of 4 attached) in MIG mode
    assert (status["GPU-MODEL"], status["GPU-COUNT"], status["GPU-VISIBLE"], status["MIG"]) == (
        "fail",
        "fail",
        "fail",
        "warn",
    )
    assert rep.exit_code() == 1

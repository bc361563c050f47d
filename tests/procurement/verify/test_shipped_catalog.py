"""The shipped catalog's nvidia-smi names: unambiguous, and covering the data-centre captures."""

from __future__ import annotations

from collections import Counter

import pytest

from catalog.loader import Catalog, CatalogError, load_catalog
from catalog.models import Gpu
from procurement.verify.checks import match_gpu


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

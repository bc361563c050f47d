"""Fixtures shared by the probe's tests (the small verification catalog)."""

from __future__ import annotations

import pytest

from catalog.loader import Catalog
from tests.procurement.verify.conftest import make_catalog


@pytest.fixture(scope="session")
def vcat() -> Catalog:
    return make_catalog()

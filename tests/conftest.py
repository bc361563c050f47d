"""Test settings: headless Qt, the shipped catalog once per session, paths to shared fixtures."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("LANG", "C.UTF-8")
# keep the parsed-YAML cache of the catalog out of ~/.cache during tests
os.environ.setdefault(
    "GPU_PROCURE_CACHE_DIR", os.path.join(tempfile.gettempdir(), f"gpu-procure-test-cache-{os.getpid()}")
)
# and the state directory (recovery copies, logs) out of ~/.local/state
os.environ["XDG_STATE_HOME"] = os.path.join(tempfile.gettempdir(), f"gpu-procure-test-state-{os.getpid()}")

import pytest

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "resources" / "examples"


# The real captures are copied into tests/fixtures so that CI and a fresh clone have them.
NVIDIA_SMI_FIXTURES = REPO / "tests" / "fixtures" / "nvidia-smi"


@pytest.fixture(scope="session")
def catalog():
    from catalog.loader import load_catalog

    return load_catalog()


def every_part_priced():
    """The shipped catalog with a price on every part that has none (¥1,000, VAT not included): the quote is
    then the buyer's priced copy with notes and findings, not the vendor-facing request for quotation that
    leaves internal content out."""
    from catalog.loader import load_catalog

    priced = load_catalog()
    for by_id in priced.parts.values():
        for pid, part in list(by_id.items()):
            if part.price_cny is None:
                by_id[pid] = part.model_copy(update={"price_cny": 1000.0, "price_includes_vat": False})
    return priced


@pytest.fixture(scope="session")
def buyer_catalog():
    return every_part_priced()


@pytest.fixture(scope="session")
def policy():
    from procurement.policy import default_policy

    return default_policy()

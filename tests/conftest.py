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


@pytest.fixture(scope="session")
def policy():
    from procurement.policy import default_policy

    return default_policy()

"""Paths and helpers shared by the packaging tests."""

from __future__ import annotations

import sys

from tests.conftest import REPO

PACKAGING = REPO / "packaging"
if str(PACKAGING) not in sys.path:  # the packaging scripts are plain scripts, not a package
    sys.path.insert(0, str(PACKAGING))

DESKTOP_ID = "io.github.gpuprocure.GpuProcure"
PLAN_MIME = "application/x-gpuplan+yaml"

"""The probe runner still ends a hung program where os.killpg does not exist (Windows)."""

from __future__ import annotations

import os
import sys
import time

import pytest

from procurement.verify.collect.runner import run_command


@pytest.mark.skipif(sys.platform == "win32", reason="simulates Windows on POSIX")
def test_timeout_without_killpg_kills_the_program(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delattr(os, "killpg")
    start = time.monotonic()
    result = run_command([sys.executable, "-c", "import time; time.sleep(60)"], timeout=0.5)
    assert result.timed_out
    assert not result.ok
    assert result.returncode is not None  # ended, not left running
    assert time.monotonic() - start < 10

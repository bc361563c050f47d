"""A program that writes endlessly is stopped at the output cap, with memory bounded (verify's runner)."""

from __future__ import annotations

import stat
import time
import tracemalloc
from pathlib import Path

from procurement.verify.collect import runner
from procurement.verify.collect.runner import run_command


def test_an_endless_nvidia_smi_is_stopped_at_the_cap(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(runner, "MAX_OUTPUT_BYTES", 4 * 1024 * 1024)
    exe = tmp_path / "nvidia-smi"
    exe.write_text("#!/bin/sh\nexec yes 'GPU 0: NVIDIA H100 80GB HBM3'\n", encoding="utf-8")
    exe.chmod(exe.stat().st_mode | stat.S_IXUSR)
    tracemalloc.start()
    start = time.monotonic()
    try:
        result = run_command([str(exe), "-q", "-x"], timeout=30)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert time.monotonic() - start < 10, "stopped at the cap, not at the 30 s timeout"  # took 2.0 GB in 5 s
    assert result.error is not None and "output larger than" in result.error and not result.ok
    assert len(result.stdout) == 4 * 1024 * 1024
    assert peak < 40 * 1024 * 1024, peak


def test_ordinary_output_is_whole(tmp_path: Path) -> None:
    exe = tmp_path / "tool"
    exe.write_text("#!/bin/sh\necho out; echo err >&2; exit 3\n", encoding="utf-8")
    exe.chmod(exe.stat().st_mode | stat.S_IXUSR)
    result = run_command([str(exe)], timeout=10)
    assert (result.stdout, result.stderr, result.returncode, result.error) == ("out\n", "err\n", 3, None)


def test_a_400_digit_reading_in_nvidia_smi_xml_is_a_parse_error() -> None:
    import re

    import pytest

    from procurement.verify.parse.smi_xml import SmiParseError, parse_smi_xml
    from tests.conftest import NVIDIA_SMI_FIXTURES

    xml = (NVIDIA_SMI_FIXTURES / "k8s-test-infra_8x-h100-80gb-hbm3_580.105.08_v13.xml").read_text(encoding="utf-8")
    for pattern in (r"(<attached_gpus>)[^<]*", r"(<gpu_temp>)[^<]*", r"(<fb_memory_usage>\s*<total>)[^<]*"):
        hostile = re.sub(pattern, lambda m: m.group(1) + "9" * 400 + " MiB", xml, count=1)
        with pytest.raises(SmiParseError, match="impossible number"):  # was OverflowError, exit 1
            parse_smi_xml(hostile)

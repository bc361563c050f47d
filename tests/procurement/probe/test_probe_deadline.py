"""The standalone probe bounds the whole run by its deadline and re-reads the health counters after the load."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from procurement.probe import probe_main
from procurement.verify.collect import raw


def test_a_hung_dcgmi_cannot_hold_the_probe_past_its_deadline(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A dcgmi that never answers (its own limit is 600 s) under --timeout 5 --deadline 6: the probe ends
    within the deadline plus 30 s, records that the deadline stopped dcgmi, and still re-reads after the load."""
    from tests.procurement.probe.helpers import fake_server
    from tests.procurement.verify.conftest import H100_XML, write_exe

    monkeypatch.setattr(raw, "AFTER_RESERVE_S", 2.0)
    bin_dir, root = fake_server(tmp_path, H100_XML)
    write_exe(bin_dir, "dcgmi", "exec sleep 600\n")
    monkeypatch.setenv("PATH", f"{bin_dir}:/usr/bin:/bin")
    args = probe_main.build_parser().parse_args(
        ["--root", str(root), "--python", str(bin_dir / "fakepython"), "--timeout", "5", "--load", "quick",
         "--duration", "1", "--deadline", "6"])
    started = time.monotonic()
    doc = probe_main.collect(args)
    assert time.monotonic() - started < 6 + 30
    dcgm = doc["load"]["tools"]["dcgmi_diag"]
    assert dcgm["timed_out"] and dcgm["deadline"] and doc["deadline_s"] == 6
    assert "nvidia_smi_q" in doc["load"]["after"] and "kernel_log" in doc["load"]["after"]


def test_the_deadline_defaults_to_the_documented_durations() -> None:
    args = probe_main.build_parser().parse_args(["--load", "quick"])
    assert args.deadline is None and raw.default_deadline(args.load, args.duration) == 900

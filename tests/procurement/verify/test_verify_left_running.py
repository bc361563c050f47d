"""An nvidia-smi that exits but leaves a process behind holding its output open (a wrapper script's
`sleep 1000 &`): the NVIDIA-SMI check says so, and `gpu-procure verify` returns within its --timeout instead
of hanging for ever (it blocked in the runner's close of a pipe the leftover held)."""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from procurement.verify.collect.raw import new_raw, result
from procurement.verify.judge import smi_from_raw
from tests.conftest import REPO
from tests.procurement.verify.conftest import H100_XML, write_exe


def _doc(record: dict[str, Any]) -> dict[str, Any]:
    doc = new_raw()
    doc["commands"]["nvidia_smi_q"] = record
    doc["timeout_s"] = 3
    return doc


def test_a_report_with_a_leftover_holding_the_output_is_a_warning() -> None:
    record = dict(result(["nvidia-smi", "-q", "-x"], 0, H100_XML.read_text()), left_running=True)
    parsed, check, error = smi_from_raw(_doc(record), "en")
    assert parsed is not None and len(parsed.gpus) == 8 and error is None  # the report is still read
    assert check.status == "warn" and check.actual == "left running", check
    assert "a process it left behind kept its output open" in check.message and "8 GPUs" in check.message
    zh = smi_from_raw(_doc(record), "zh")[1]
    assert zh.status == "warn" and "留下的进程" in zh.message


def test_no_report_and_a_leftover_holding_the_output_fails_and_says_both() -> None:
    record = dict(result(["nvidia-smi", "-q", "-x"], 0, ""), left_running=True)
    parsed, check, error = smi_from_raw(_doc(record), "en")
    assert parsed is None and check.status == "fail" and error == check.message
    assert "without a usable XML report" in check.message and "left behind kept its output open" in check.message


def test_a_raw_record_without_the_flag_reads_as_before() -> None:
    _, check, _ = smi_from_raw(_doc(result(["nvidia-smi", "-q", "-x"], 0, H100_XML.read_text())), "en")
    assert check.status == "pass", check


@pytest.fixture
def pidfile(tmp_path: Path) -> Iterator[Path]:
    """The leftovers' pids, one a line; each of them is ended afterwards, whatever verify did."""
    path = tmp_path / "left.pids"
    yield path
    for line in (path.read_text(encoding="ascii").split() if path.exists() else ()):
        try:
            os.kill(int(line), signal.SIGKILL)
        except (ProcessLookupError, ValueError):
            pass


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX programs and process groups")
def test_verify_as_typed_returns_within_its_timeout(tmp_path: Path, pidfile: Path) -> None:
    smi = write_exe(tmp_path / "bin", "nvidia-smi",
                    f"cat {shlex.quote(str(H100_XML))}\nsleep 1000 &\necho $! >> {shlex.quote(str(pidfile))}\n"
                    "exit 0\n")
    out = tmp_path / "r.json"
    argv = ["verify", "--nvidia-smi", str(smi), "--timeout", "3", "--json", str(out), "--lang", "en"]
    code = f"import sys\nfrom gui.launch import main\nsys.exit(main({argv!r}))\n"
    env = {"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "QT_QPA_PLATFORM": "offscreen",
           "HOME": str(tmp_path)}
    started = time.monotonic()
    try:
        res = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True,
                             timeout=30)
    except subprocess.TimeoutExpired:
        pytest.fail("verify hung on an nvidia-smi whose leftover child holds its output")
    seconds = time.monotonic() - started
    assert seconds < 3 + 5, seconds
    assert res.returncode in (1, 3), res.stdout[-2000:] + res.stderr[-2000:]  # no plan: unknowns, never a pass
    smi = next(c for c in json.loads(out.read_text())["checks"] if c["id"] == "NVIDIA-SMI")
    assert smi["status"] == "warn" and "left behind kept its output open" in smi["message"], smi
    pids = [int(p) for p in pidfile.read_text(encoding="ascii").split()]
    assert pids, "the fake nvidia-smi did not run"
    for pid in pids:
        assert _ended(pid), f"the leftover sleep {pid} outlived verify"


def _ended(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text(encoding="ascii")
    except FileNotFoundError:
        return True
    return stat.rsplit(")", 1)[1].split()[0] in ("Z", "X")  # a zombie waiting for its reaper has ended

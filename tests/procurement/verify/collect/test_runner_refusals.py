"""Both no-shell runners (the app's and the probe's Python 3.6 copy) on programs that cannot run or are
cancelled: each outcome is said, never raised."""

from __future__ import annotations

import stat
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from procurement.verify.collect import raw, runner
from tests.procurement.verify.conftest import write_exe

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX programs and modes")


def _app(argv: list[str], timeout: float, cancel: Any = None) -> dict[str, Any]:
    res = runner.run_command(argv, timeout, cancel)
    return {"returncode": res.returncode, "missing": res.missing, "cancelled": res.cancelled,
            "timed_out": res.timed_out, "error": res.error}


def _probe(argv: list[str], timeout: float, cancel: Any = None) -> dict[str, Any]:
    return raw.run_command(argv, timeout, cancel)


RUNNERS = pytest.mark.parametrize("run", [_app, _probe], ids=["runner", "raw"])
Run = Callable[..., dict[str, Any]]


@RUNNERS
def test_empty_argv_is_missing(run: Run) -> None:
    res = run([], 5)
    assert res["missing"] and res["returncode"] is None and res["error"] is None


@RUNNERS
def test_a_file_without_the_execute_bit_is_missing_and_says_so(run: Run, tmp_path: Path) -> None:
    exe = write_exe(tmp_path, "smi", "echo hi\n")
    exe.chmod(stat.S_IRUSR | stat.S_IWUSR)
    res = run([str(exe)], 5)
    assert res["missing"] and res["error"] == f"{exe} is not executable"


@RUNNERS
def test_an_executable_the_kernel_cannot_start_is_an_error(run: Run, tmp_path: Path) -> None:
    """Execute bit set but no interpreter line and no binary format (a truncated download): exec fails."""
    exe = tmp_path / "smi"
    exe.write_bytes(b"\x00\x01\x02 not a program")
    exe.chmod(stat.S_IRWXU)
    res = run([str(exe)], 5)
    assert not res["missing"] and res["returncode"] is None
    assert res["error"] is not None and res["error"].startswith(f"{exe}: ")


@RUNNERS
def test_cancel_kills_a_running_program(run: Run, tmp_path: Path) -> None:
    exe = write_exe(tmp_path, "hang", "sleep 30\n")
    cancel = threading.Event()
    threading.Timer(0.2, cancel.set).start()
    res = run([str(exe)], 20, cancel)
    assert res["cancelled"] and not res["timed_out"] and res["returncode"] != 0

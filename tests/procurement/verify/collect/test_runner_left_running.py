"""Both no-shell runners on a program that exits but leaves a process behind holding its output open (a
wrapper script's `sleep 1000 &`): the run returns soon after the program ends, keeps what it printed, says
that something kept its output open, and kills that leftover process's group.

Each run happens in a child Python with a hard timeout, so a runner that waits for the pipe's end (the
defect: it blocked for ever in the stream's close) fails the test instead of hanging the suite."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.procurement.verify.conftest import write_exe

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX programs and process groups")

ROOT = Path(__file__).resolve().parents[4]
TIMEOUT_S = 3.0
GRACE_S = 0.3
"""The runners' PIPE_GRACE_S in these runs (1 s by default), to keep the tests short."""
HARD_LIMIT_S = 20.0
"""The child Python is killed past this: a hang is a failure here, never a stuck suite."""

_DRIVER = r"""
import json, sys, time
which, exe, timeout, grace = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
from procurement.verify.collect import raw, runner
runner.PIPE_GRACE_S = raw.PIPE_GRACE_S = grace
start = time.monotonic()
if which == "runner":
    r = runner.run_command([exe], timeout)
    out = {"returncode": r.returncode, "stdout": r.stdout, "timed_out": r.timed_out, "error": r.error,
           "left_running": r.left_running}
else:
    r = raw.run_command([exe], timeout)
    out = {k: r.get(k) for k in ("returncode", "stdout", "timed_out", "error")}
    out["left_running"] = bool(r.get("left_running"))
out["seconds"] = time.monotonic() - start
print(json.dumps(out))
"""


def _run(which: str, exe: Path, timeout: float = TIMEOUT_S) -> dict[str, object]:
    try:
        done = subprocess.run([sys.executable, "-c", _DRIVER, which, str(exe), str(timeout), str(GRACE_S)], cwd=ROOT,
                              capture_output=True, text=True, timeout=HARD_LIMIT_S, check=False)
    except subprocess.TimeoutExpired:
        pytest.fail(f"run_command hung on a program whose leftover child holds its output (> {HARD_LIMIT_S:g} s)")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            state = f.read().rsplit(")", 1)[1].split()[0]
        return state not in ("Z", "X")  # a zombie waiting for its reaper has ended
    except FileNotFoundError:
        return False
    except OSError:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True


def _gone(pid: int, within: float = 2.0) -> bool:
    end = time.monotonic() + within
    while _alive(pid):
        if time.monotonic() > end:
            return False
        time.sleep(0.02)
    return True


def _leftover(pidfile: Path) -> int:
    for _ in range(100):  # written by the script before it exits
        text = pidfile.read_text(encoding="ascii").strip() if pidfile.exists() else ""
        if text:
            return int(text)
        time.sleep(0.02)
    raise AssertionError("the fake program wrote no pid")


@pytest.fixture
def pidfile(tmp_path: Path) -> Iterator[Path]:
    """Where the fake program writes its leftover's pid; that one process is ended afterwards, whatever the
    runner did (a hung runner included)."""
    path = tmp_path / "sleep.pid"
    yield path
    text = path.read_text(encoding="ascii").strip() if path.exists() else ""
    if text.isdigit():
        try:
            os.kill(int(text), signal.SIGKILL)
        except ProcessLookupError:
            pass


RUNNERS = pytest.mark.parametrize("which", ["runner", "raw"])


@RUNNERS
@pytest.mark.parametrize("prints", ["<nvidia_smi_log>whole</nvidia_smi_log>", ""], ids=["after_output", "no_output"])
def test_a_background_child_holding_the_output_is_killed_and_said(which: str, prints: str, tmp_path: Path,
                                                                 pidfile: Path) -> None:
    exe = write_exe(tmp_path, "nvidia-smi",
                    (f"echo '{prints}'\n" if prints else "") + f"sleep 1000 &\necho $! > {pidfile}\nexit 0\n")
    res = _run(which, exe)
    pid = _leftover(pidfile)
    assert res["left_running"] is True
    assert res["returncode"] == 0 and not res["timed_out"]
    assert res["stdout"] == (prints + "\n" if prints else "")  # what it printed before it ended is kept
    assert float(res["seconds"]) < 1.5  # type: ignore[arg-type]  # long before the 3 s timeout
    assert _gone(pid), "the leftover sleep (same process group) was not killed"


@RUNNERS
def test_a_child_that_left_the_group_cannot_hold_the_run(which: str, tmp_path: Path, pidfile: Path) -> None:
    # its own session: the group kill cannot reach it, and it keeps the pipe open as long as it lives
    exe = write_exe(tmp_path, "nvidia-smi",
                    f"echo partial\nsh -c 'echo $$ > {pidfile}; exec setsid sleep 1000' &\nexit 0\n")
    res = _run(which, exe)
    pid = _leftover(pidfile)
    assert res["left_running"] is True and res["returncode"] == 0
    assert res["stdout"] == "partial\n"
    assert _alive(pid), "the premise: out of the group's reach, it outlives the run (the fixture ends it)"
    assert float(res["seconds"]) < 1.5  # type: ignore[arg-type]  # long before the 3 s timeout


@RUNNERS
def test_a_hang_with_a_background_child_is_a_timeout_and_kills_both(which: str, tmp_path: Path, pidfile: Path) -> None:
    exe = write_exe(tmp_path, "nvidia-smi", f"sleep 1000 &\necho $! > {pidfile}\nexec sleep 1000\n")
    res = _run(which, exe, timeout=1.0)
    pid = _leftover(pidfile)
    assert res["timed_out"] is True and res["left_running"] is False
    assert float(res["seconds"]) < 2.5  # type: ignore[arg-type]
    assert _gone(pid)


@RUNNERS
def test_a_quick_program_is_not_said_to_leave_anything(which: str, tmp_path: Path) -> None:
    exe = write_exe(tmp_path, "nvidia-smi", "echo fine\n")
    res = _run(which, exe)
    assert (res["stdout"], res["returncode"], res["left_running"], res["timed_out"]) == ("fine\n", 0, False, False)
    assert float(res["seconds"]) < 1.0  # type: ignore[arg-type]

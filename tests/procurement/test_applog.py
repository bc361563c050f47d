"""The log file under the state directory, its rotation, --debug on stderr, crash stacks, and diagnostics."""

from __future__ import annotations

import faulthandler
import logging
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from procurement import __version__, applog
from tests.conftest import REPO


@pytest.fixture
def logdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    enabled: list[object] = []
    monkeypatch.setattr(faulthandler, "enable", lambda *a, **k: enabled.append(k))  # keep pytest's own
    monkeypatch.setattr(faulthandler, "is_enabled", lambda: False)
    level = logging.getLogger().level
    yield tmp_path / "log"
    applog.stop_logging()
    logging.getLogger().setLevel(level)
    assert enabled, "faulthandler was not enabled"


def test_log_file_is_written_and_read_back(logdir: Path) -> None:
    path = applog.setup_logging(directory=logdir, argv=["check", "x.gpuplan"])
    assert path == logdir / applog.LOG_FILE
    logging.getLogger("procurement.test").info("hello from the test")
    logging.getLogger("procurement.test").debug("not without --debug")
    lines = applog.last_lines()
    assert any(f"gpu-procure {__version__} started: check x.gpuplan" in ln for ln in lines)
    assert lines[-1].endswith("INFO procurement.test: hello from the test")
    assert not any("not without --debug" in ln for ln in lines)


def test_log_rotates_and_keeps_three(logdir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(applog, "MAX_LOG_BYTES", 2000)
    applog.setup_logging(directory=logdir)
    for i in range(200):
        logging.getLogger("t").info("line %d %s", i, "x" * 50)
    files = sorted(p.name for p in logdir.iterdir() if p.name.startswith(applog.LOG_FILE))
    assert files == [applog.LOG_FILE] + [f"{applog.LOG_FILE}.{i}" for i in (1, 2, 3)]
    assert all((logdir / f).stat().st_size <= 2100 for f in files)


def test_debug_logs_to_stderr_too(logdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    applog.setup_logging(debug=True, directory=logdir)
    logging.getLogger("t").debug("details for --debug")
    assert "DEBUG t: details for --debug" in capsys.readouterr().err
    assert any("details for --debug" in ln for ln in applog.last_lines())


def test_unwritable_directory_is_not_fatal(tmp_path: Path, logdir: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    assert applog.setup_logging(directory=blocker / "log") is None
    assert applog.last_lines() == []


def test_diagnostics_name_versions_platform_and_last_lines(logdir: Path) -> None:
    applog.setup_logging(directory=logdir)
    logging.getLogger("t").warning("something went wrong")
    text = applog.diagnostics({"catalog": "2026-11-30"})
    assert f"gpu-procure  {__version__}" in text
    assert "python" in text and sys.version.split()[0] in text
    assert "catalog" in text and "2026-11-30" in text
    assert text.rstrip().endswith("WARNING t: something went wrong")


def test_a_hard_crash_writes_the_stack_to_crash_log(tmp_path: Path) -> None:
    code = ("import sys; from pathlib import Path; from procurement import applog\n"
            f"applog.setup_logging(directory=Path({str(tmp_path)!r}))\n"
            "def deep_in_the_app():\n    import faulthandler; faulthandler._sigsegv()\n"
            "deep_in_the_app()\n")
    proc = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=60)
    assert proc.returncode != 0
    crash = (tmp_path / applog.CRASH_FILE).read_text(encoding="utf-8")
    assert "Fatal Python error: Segmentation fault" in crash
    assert "deep_in_the_app" in crash


def test_a_faulthandler_enabled_by_the_caller_is_left_alone(tmp_path: Path) -> None:
    code = ("import sys; from pathlib import Path; from procurement import applog\n"
            f"applog.setup_logging(directory=Path({str(tmp_path)!r}))\n"
            "import faulthandler; faulthandler._sigsegv()\n")
    proc = subprocess.run([sys.executable, "-X", "faulthandler", "-c", code], cwd=REPO, capture_output=True,
                          text=True, timeout=60)
    assert "Fatal Python error: Segmentation fault" in proc.stderr
    assert not (tmp_path / applog.CRASH_FILE).exists() or not (tmp_path / applog.CRASH_FILE).read_text()


def test_an_uncaught_exception_is_logged(tmp_path: Path) -> None:
    code = ("from pathlib import Path; from procurement import applog\n"
            f"applog.setup_logging(directory=Path({str(tmp_path)!r}))\n"
            "raise RuntimeError('boom in the app')\n")
    proc = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1 and "boom in the app" in proc.stderr  # still shown as before
    log = (tmp_path / applog.LOG_FILE).read_text(encoding="utf-8")
    assert "CRITICAL gpu_procure: uncaught exception" in log and "RuntimeError: boom in the app" in log


def test_a_failing_log_write_is_silent(logdir: Path, capsys: pytest.CaptureFixture[str],
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    applog.setup_logging(directory=logdir)
    handler = next(h for h in logging.getLogger().handlers if isinstance(h, applog._QuietRotatingFileHandler))

    def full_disk(record: logging.LogRecord) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(handler, "shouldRollover", full_disk)
    logging.getLogger("t").warning("lost, quietly")
    err = capsys.readouterr().err
    assert "Logging error" not in err and "No space left" not in err

"""Entry points of an install: the CLI without Qt, a clear message when the app's Qt is missing, the
gui-scripts entry, `python -m gpu_procure`, `--debug` anywhere, and a --help that shows every mode."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from procurement.commands import COMMANDS
from procurement.commands.cli import build_parser
from procurement.exit_status import MEANING, ExitStatus
from tests.conftest import EXAMPLES, REPO

BLOCK_QT = r"""
import sys
class BlockQt:
    def find_spec(self, name, path=None, target=None):
        if name.split('.')[0] in ('PySide6', 'shiboken6'):
            raise ModuleNotFoundError("No module named " + repr(name), name=name)
        return None
sys.meta_path.insert(0, BlockQt())
from gui.launch import {entry}
sys.exit({entry}({argv!r}))
"""


def _env(tmp_path: Path, lang: str = "C.UTF-8") -> dict[str, str]:
    return {"PYTHONPATH": str(REPO), "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": lang,
            "QT_QPA_PLATFORM": "offscreen", "HOME": str(tmp_path), "XDG_STATE_HOME": str(tmp_path / "state"),
            "GPU_PROCURE_CACHE_DIR": "off"}


def _run_without_qt(tmp_path: Path, entry: str, argv: list[str], lang: str = "C.UTF-8") \
        -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", BLOCK_QT.format(entry=entry, argv=argv)], cwd=tmp_path,
                          env=_env(tmp_path, lang), capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("entry", ["main", "main_gui"])
def test_app_without_pyside6_says_how_to_install_it(tmp_path: Path, entry: str) -> None:
    proc = _run_without_qt(tmp_path, entry, [])
    assert proc.returncode == ExitStatus.UNUSABLE
    assert "Traceback" not in proc.stderr
    assert "needs Qt (PySide6), which is not installed" in proc.stderr
    assert "pip install 'gpu-procure[gui]'" in proc.stderr


def test_the_message_is_in_chinese_under_a_chinese_locale(tmp_path: Path) -> None:
    proc = _run_without_qt(tmp_path, "main", [], lang="zh_CN.UTF-8")
    assert proc.returncode == 2 and "桌面程序需要 Qt" in proc.stderr and "gpu-procure[gui]" in proc.stderr


def test_headless_commands_work_without_pyside6(tmp_path: Path) -> None:
    plan = sorted(EXAMPLES.glob("*.gpuplan.yaml"))[0]
    proc = _run_without_qt(tmp_path, "main", ["check", "--json", str(plan)])
    assert proc.returncode in (0, 1, 3), proc.stderr
    assert isinstance(json.loads(proc.stdout), (list, dict))


def test_debug_anywhere_logs_to_stderr_and_the_log_file(tmp_path: Path) -> None:
    plan = sorted(EXAMPLES.glob("*.gpuplan.yaml"))[0]
    proc = _run_without_qt(tmp_path, "main", ["check", str(plan), "--debug"])
    assert proc.returncode in (0, 1, 3), proc.stderr
    assert "DEBUG" in proc.stderr and "gpu-procure" in proc.stderr
    log = (tmp_path / "state" / "gpu-procure" / "log" / "gpu-procure.log").read_text(encoding="utf-8")
    assert f"started: check {plan}" in log and f"exit status {proc.returncode}" in log


def test_without_debug_nothing_extra_on_stderr(tmp_path: Path) -> None:
    proc = _run_without_qt(tmp_path, "main", ["--version"])
    assert proc.returncode == 0 and proc.stderr == ""
    assert (tmp_path / "state" / "gpu-procure" / "log" / "gpu-procure.log").is_file()


def test_python_m_gpu_procure(tmp_path: Path) -> None:
    from procurement import __version__

    proc = subprocess.run([sys.executable, "-m", "gpu_procure", "--version"], cwd=tmp_path, env=_env(tmp_path),
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and proc.stdout.strip() == f"gpu-procure {__version__}"


def test_gui_scripts_entry_is_declared_and_importable() -> None:
    text = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    section = text.split("[project.gui-scripts]", 1)[1].split("\n[", 1)[0]
    assert re.search(r'^gpu-procure-gui = "gui\.launch:main_gui"', section, re.M)
    from gui import launch

    assert callable(launch.main_gui)


def test_help_shows_every_mode_option_and_exit_status(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        build_parser().parse_args(["--help"])
    assert stop.value.code == 0
    text = capsys.readouterr().out
    for command in COMMANDS:
        assert command.name in text
    for option in ("--self-test", "--policy FILE", "--lang {en,zh}", "--catalog DIR", "--debug", "--version"):
        assert option in text, option
    assert "the app, without a COMMAND" in text and "plan" in text
    for status in ExitStatus:
        assert f"  {int(status)}  {MEANING[status]}" in text

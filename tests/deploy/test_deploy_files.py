"""`gpu-procure deploy-files DIR` writes the shipped Slurm and Ansible files (the wheel test checks that they
are in the wheel and the sdist); the app on a host with Qt but no display says so instead of aborting."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from gui.launch import no_display
from procurement.commands.cli import main
from tests.conftest import REPO

SHIPPED = ["ansible/roles/gpu_procure_probe/defaults/main.yml", "ansible/roles/gpu_procure_probe/tasks/main.yml",
           "ansible/verify.yml", "slurm/verify.sbatch", "slurm/verify.sh"]


def test_deploy_files_writes_the_shipped_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "cluster"
    assert main(["deploy-files", str(out)]) == 0
    written = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    assert written == SHIPPED
    for rel in SHIPPED:
        assert (out / rel).read_bytes() == (REPO / "deploy" / rel).read_bytes()
    assert os.access(out / "slurm/verify.sbatch", os.X_OK) and os.access(out / "slurm/verify.sh", os.X_OK)
    assert "5 files" in capsys.readouterr().out
    # a second run refuses to mix into the full directory, unless told
    assert main(["deploy-files", str(out)]) == 2
    assert main(["deploy-files", str(out), "--force"]) == 0


@pytest.mark.parametrize(("env", "platform", "expected"), [
    ({}, "linux", True),
    ({"DISPLAY": ":0"}, "linux", False),
    ({"WAYLAND_DISPLAY": "wayland-0"}, "linux", False),
    ({"QT_QPA_PLATFORM": "offscreen"}, "linux", False),
    ({}, "win32", False),
    ({}, "darwin", False),
])
def test_no_display(env: dict[str, str], platform: str, expected: bool) -> None:
    assert no_display(env, platform) is expected


def test_the_app_without_a_display_exits_2_with_a_message(tmp_path: Path) -> None:
    """PySide6 is installed here (the gui extra): Qt itself would abort with SIGABRT (exit 134)."""
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "LANG": "C.UTF-8", "PYTHONPATH": str(REPO),
           "XDG_STATE_HOME": str(tmp_path / "state")}
    proc = subprocess.run([sys.executable, "-m", "gui.launch"], env=env, capture_output=True, text=True,
                          timeout=120, cwd=tmp_path)
    assert proc.returncode == 2, (proc.returncode, proc.stderr[-2000:])
    assert "needs a display" in proc.stderr and "QT_QPA_PLATFORM=offscreen" in proc.stderr
    assert "Traceback" not in proc.stderr

"""`make install-desktop`: files land in the XDG dirs, Exec points at the program, uninstall cleans up."""

from __future__ import annotations

import configparser
import shutil
import subprocess
from pathlib import Path

import install_desktop
import pytest

from tests.packaging.conftest import DESKTOP_ID, PLAN_MIME


@pytest.mark.parametrize(("program", "value"), [
    ("/opt/gpu-procure/gpu-procure", "/opt/gpu-procure/gpu-procure"),
    ("/home/张三/my apps/gpu-procure", '"/home/张三/my apps/gpu-procure"'),
    ('/tmp/a"b$c', '"/tmp/a\\\\"b\\\\$c"'),
])
def test_exec_value_is_quoted_only_when_needed(program: str, value: str) -> None:
    assert install_desktop.desktop_exec_value(program) == value


def test_install_then_uninstall(qapp: object, tmp_path: Path) -> None:
    prefix = tmp_path / "share"
    program = str(tmp_path / "my apps" / "gpu-procure")
    written = install_desktop.install(prefix, program)
    desktop = prefix / "applications" / f"{DESKTOP_ID}.desktop"
    assert desktop in written
    assert (prefix / "metainfo" / f"{DESKTOP_ID}.metainfo.xml").is_file()
    assert (prefix / "mime" / "packages" / f"{DESKTOP_ID}.xml").is_file()
    assert (prefix / "icons" / "hicolor" / "512x512" / "apps" / f"{DESKTOP_ID}.png").is_file()

    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read_string(desktop.read_text(encoding="utf-8"))
    assert parser["Desktop Entry"]["Exec"] == f'"{program}" %f'
    assert parser["Desktop Entry"]["TryExec"] == program
    if shutil.which("desktop-file-validate"):
        proc = subprocess.run(["desktop-file-validate", str(desktop)], capture_output=True, text=True)
        assert proc.returncode == 0, proc.stdout
    if shutil.which("update-mime-database"):  # the database was rebuilt with the plan type in it
        globs = (prefix / "mime" / "globs2").read_text(encoding="utf-8").splitlines()
        assert any(line.endswith(f"{PLAN_MIME}:*.gpuplan.yaml") for line in globs)
        assert any(line.endswith(f"{PLAN_MIME}:*.gpuplan") for line in globs)  # the single extension
    if shutil.which("update-desktop-database"):
        cache = (prefix / "applications" / "mimeinfo.cache").read_text(encoding="utf-8")
        assert f"{PLAN_MIME}={DESKTOP_ID}.desktop;" in cache

    removed = install_desktop.uninstall(prefix)
    assert len(removed) == 3 + 10  # desktop, metainfo, MIME package, 9 PNGs and the SVG
    assert not list(prefix.rglob(f"{DESKTOP_ID}*"))

"""packaging/system-deps.sh installs every library Qt's xcb platform plugin links (a bare Debian/Ubuntu
failed at start: "xcb-cursor0 or libxcb-cursor0 is needed to load the Qt xcb platform plugin")."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
TABLE = REPO / "packaging" / "qt-xcb-libs.txt"
SCRIPT = REPO / "packaging" / "system-deps.sh"


def _table() -> dict[str, str]:
    rows = {}
    for line in TABLE.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            soname, package = line.split()[:2]
            rows[soname] = package
    return rows


@pytest.mark.skipif(not sys.platform.startswith("linux") or shutil.which("ldd") is None, reason="Linux, ldd")
def test_every_library_the_venvs_xcb_plugin_links_is_in_the_table() -> None:
    pyside6 = pytest.importorskip("PySide6")
    plugin = Path(pyside6.__file__).parent / "Qt" / "plugins" / "platforms" / "libqxcb.so"
    if not plugin.exists():
        pytest.skip("this PySide6 has no xcb plugin")
    out = subprocess.run(["ldd", str(plugin)], capture_output=True, text=True, check=True).stdout
    linked = set()
    for line in out.splitlines():
        name, _, target = line.strip().partition(" => ")
        path = target.split(" (")[0]
        if not target or "PySide6" in path:  # the vdso, the loader, Qt's own libraries
            continue
        linked.add(name)
    missing = sorted(linked - set(_table()))
    assert not missing, f"add these to {TABLE.name} with their Debian package: {missing}"
    assert _table()["libxcb-cursor.so.0"] == "libxcb-cursor0"


def test_a_bare_system_gets_the_xcb_packages(tmp_path: Path) -> None:
    """With an empty library cache, the script asks apt for every package of the table (sudo and apt are
    stand-ins here: they only record what they are asked)."""
    if shutil.which("bash") is None:
        pytest.skip("bash")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    log = tmp_path / "calls.log"
    for name, body in {"ldconfig": "echo '0 libs found in cache'", "id": "echo 1000",
                       "sudo": f'echo "$*" >> {log}', "apt-get": f'echo "$*" >> {log}'}.items():
        exe = bin_dir / name
        exe.write_text(f"#!/bin/sh\n{body}\nexit 0\n", encoding="utf-8")
        exe.chmod(0o755)
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"}
    run = subprocess.run(["bash", str(SCRIPT)], capture_output=True, text=True, env=env, timeout=60)
    assert run.returncode == 0, run.stderr
    installing = next(line for line in run.stdout.splitlines() if line.startswith("system-deps: installing"))
    wanted = {p for p in _table().values() if p != "-"}
    assert wanted <= set(installing.split()[2:]), sorted(wanted - set(installing.split()[2:]))
    assert "libxcb-cursor0" in log.read_text(encoding="utf-8")

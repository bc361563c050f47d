"""Installs the desktop entry, AppStream metainfo, plan MIME type and icons into the user's XDG directories.

Usage: python packaging/install_desktop.py [--prefix DIR] [--exec PATH] [--uninstall]
DIR defaults to $XDG_DATA_HOME or ~/.local/share; PATH defaults to the bundle in dist/, else the
gpu-procure next to this Python, else `gpu-procure` on PATH.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))
from make_icons import DESKTOP_ID, SIZES, render_icons  # noqa: E402

DESKTOP = HERE / f"{DESKTOP_ID}.desktop"
METAINFO = HERE / f"{DESKTOP_ID}.metainfo.xml"
MIME = HERE / f"{DESKTOP_ID}.mime.xml"


def data_home() -> Path:
    env = os.environ.get("XDG_DATA_HOME", "")
    return Path(env) if os.path.isabs(env) else Path.home() / ".local" / "share"


def default_exec() -> str:
    for cand in (REPO / "dist" / "gpu-procure" / "gpu-procure", Path(sys.executable).parent / "gpu-procure"):
        if cand.is_file() and os.access(cand, os.X_OK):
            return str(cand)
    found = shutil.which("gpu-procure")
    return found or "gpu-procure"


def desktop_exec_value(program: str) -> str:
    """The program as a desktop-entry Exec argument: quoted when it has reserved characters, then escaped."""
    if re.fullmatch(r"[A-Za-z0-9/._+-]+", program):
        return program
    quoted = '"' + re.sub(r'(["`$\\])', r"\\\1", program) + '"'
    return quoted.replace("\\", "\\\\")


def desktop_entry(program: str) -> str:
    """The shipped .desktop text with Exec/TryExec pointing at `program`."""
    lines = []
    for line in DESKTOP.read_text(encoding="utf-8").splitlines():
        if line.startswith("Exec="):
            line = f"Exec={desktop_exec_value(program)} %f"
        elif line.startswith("TryExec="):
            line = f"TryExec={program}"
        lines.append(line)
    return "\n".join(lines) + "\n"


def targets(prefix: Path) -> dict[str, Path]:
    return {
        "desktop": prefix / "applications" / f"{DESKTOP_ID}.desktop",
        "metainfo": prefix / "metainfo" / f"{DESKTOP_ID}.metainfo.xml",
        "mime": prefix / "mime" / "packages" / f"{DESKTOP_ID}.xml",
    }


def _refresh(prefix: Path) -> None:
    """Rebuild the caches that desktops read, with whichever tools this system has."""
    for tool, args in (("update-mime-database", [str(prefix / "mime")]),
                       ("update-desktop-database", [str(prefix / "applications")]),
                       ("gtk-update-icon-cache", ["-f", "-t", "-q", str(prefix / "icons" / "hicolor")])):
        if shutil.which(tool) is None:
            print(f"install-desktop: {tool} not found, skipped")
            continue
        proc = subprocess.run([tool, *args], capture_output=True, text=True)
        if proc.returncode != 0:
            print(f"install-desktop: {tool} failed: {proc.stderr.strip()}", file=sys.stderr)


def install(prefix: Path, program: str) -> list[Path]:
    t = targets(prefix)
    for path in t.values():
        path.parent.mkdir(parents=True, exist_ok=True)
    t["desktop"].write_text(desktop_entry(program), encoding="utf-8")
    shutil.copyfile(METAINFO, t["metainfo"])
    shutil.copyfile(MIME, t["mime"])
    written = [*t.values(), *render_icons(prefix / "icons")]
    _refresh(prefix)
    return written


def uninstall(prefix: Path) -> list[Path]:
    icons = [prefix / "icons" / "hicolor" / f"{s}x{s}" / "apps" / f"{DESKTOP_ID}.png" for s in SIZES]
    icons.append(prefix / "icons" / "hicolor" / "scalable" / "apps" / f"{DESKTOP_ID}.svg")
    removed = [p for p in [*targets(prefix).values(), *icons] if p.is_file()]
    for path in removed:
        path.unlink()
    _refresh(prefix)
    return removed


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="install_desktop", description=__doc__.splitlines()[0])
    p.add_argument("--prefix", type=Path, default=None, help="XDG data directory (default: %(default)s)")
    p.add_argument("--exec", dest="program", default=None, help="the gpu-procure program the entry runs")
    p.add_argument("--uninstall", action="store_true")
    args = p.parse_args(argv)
    prefix = (args.prefix or data_home()).resolve()
    if args.uninstall:
        for path in uninstall(prefix):
            print(f"removed {path}")
        return 0
    program = args.program or default_exec()
    for path in install(prefix, program):
        print(f"installed {path}")
    print(f"install-desktop: the entry runs {program}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

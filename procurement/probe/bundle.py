"""Builds the probe as one runnable zipapp (`make probe`, `gpu-procure probe-bundle DIR`, step 5's button).

The archive holds the standard-library collector (procurement/verify/collect/raw.py, the one `verify` runs), the
probe command around it (procurement/probe/probe_main.py) and a three-line `__main__`; it is byte-for-byte the same
for the same collector (fixed timestamps and order), so two builds can be compared by their digest.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import sys
import zipfile
from importlib import resources
from pathlib import Path

from procurement.plan import atomic_write

PYZ_NAME = "gpu-procure-probe.pyz"
SHEBANG = b"#!/usr/bin/env python3\n"
_MAIN = (
    '"""Runs the gpu-procure probe: python3 gpu-procure-probe.pyz --help."""\n'
    "import sys\n"
    "from gpu_procure_probe import main\n"
    "sys.exit(main())\n"
)
_EPOCH = (1980, 1, 1, 0, 0, 0)


SOURCES = (
    # (name in the zipapp, package, file): the collector verify uses, and the probe command around it
    ("gpu_procure_raw.py", "procurement.verify.collect", "raw.py"),
    ("gpu_procure_probe.py", "procurement.probe", "probe_main.py"),
)


def source(package: str, name: str) -> bytes:
    """A module's source as shipped in the package (also in the frozen app, as a data file)."""
    return resources.files(package).joinpath(name).read_bytes()


def build_pyz() -> bytes:
    """The zipapp's bytes: shebang, then a zip with gpu_procure_probe.py and __main__.py."""
    buf = io.BytesIO()
    buf.write(SHEBANG)
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        files = [(arc, source(pkg, name)) for arc, pkg, name in SOURCES] + [("__main__.py", _MAIN.encode())]
        for name, data in files:
            info = zipfile.ZipInfo(name, date_time=_EPOCH)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            zf.writestr(info, data)
    return buf.getvalue()


def write_pyz(target: str | Path) -> Path:
    """Write the probe to ``target`` (a directory: DIR/gpu-procure-probe.pyz), executable; returns the file."""
    path = Path(target)
    if path.is_dir():
        path = path / PYZ_NAME
    atomic_write(path, build_pyz())
    path.chmod(0o755)
    return path


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def run_probe_bundle(args: argparse.Namespace) -> int:
    """`gpu-procure probe-bundle DIR`: 0 written, 2 (input unusable) not writable."""
    directory = Path(args.directory)
    try:
        directory.mkdir(parents=True, exist_ok=True)
        path = write_pyz(directory)
    except OSError as exc:
        print(f"gpu-procure probe-bundle: {directory}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    data = path.read_bytes()
    print(f"{path}  {len(data)} bytes  sha256 {digest(data)}")
    print(f"run on the target: python3 {path.name} -o $(hostname).json", file=sys.stderr)
    return 0


def main(argv: list[str] | None = None) -> int:
    """`python -m procurement.probe.bundle FILE_OR_DIR` (what `make probe` runs)."""
    p = argparse.ArgumentParser(prog="python -m procurement.probe.bundle")
    p.add_argument("target", nargs="?", default="dist/" + PYZ_NAME)
    args = p.parse_args(argv)
    target = Path(args.target)
    target.parent.mkdir(parents=True, exist_ok=True)
    path = write_pyz(target)
    print(f"{path}  {path.stat().st_size} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())

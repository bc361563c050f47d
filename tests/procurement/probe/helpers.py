"""A fake GPU server for the probe's tests: a host tree, and nvidia-smi and host programs on PATH."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
from pathlib import Path

from tests.procurement.verify.conftest import HOST_OUTPUTS, make_host_root, smi_replay, write_exe


def fake_server(tmp: Path, xml: Path, topo: Path | None = None, *, torch: bool = True) -> tuple[Path, Path]:
    """(bin dir to put first on PATH, host root): nvidia-smi replaying ``xml``, lsblk, docker, nvcc,
    nvidia-ctk answering with real-looking output, and a `python` that reports PyTorch with CUDA."""
    bin_dir = tmp / "bin"
    root = make_host_root(tmp / "root")
    (root / "etc/machine-id").write_text("0123456789abcdef0123456789abcdef\n")
    (root / "sys/devices/system/edac/mc/mc0").mkdir(parents=True)
    smi_replay(bin_dir, xml, topo)
    files = tmp / "outputs"
    files.mkdir(exist_ok=True)

    def canned(name: str, text: str, code: int = 0) -> None:
        out = files / name.replace(" ", "_")
        out.write_text(text)
        write_exe(bin_dir, name, f"cat {shlex.quote(str(out))}\nexit {code}\n")

    canned("lsblk", HOST_OUTPUTS["lsblk"])
    canned("nvcc", HOST_OUTPUTS["nvcc"])
    canned("nvidia-ctk", HOST_OUTPUTS["nvidia-ctk"])
    docker_info = files / "docker_info"
    docker_info.write_text(HOST_OUTPUTS["docker info"])
    write_exe(
        bin_dir,
        "docker",
        'case "$1" in\n'
        '  version) echo 24.0.7;;\n'
        f'  info) cat {shlex.quote(str(docker_info))};;\n'
        '  images) echo nvcr.io/nvidia/pytorch:24.05-py3; echo ubuntu:22.04;;\n'
        '  image) [ "$3" = nvcr.io/nvidia/pytorch:24.05-py3 ] && echo "[{}]" || { echo "[]"; exit 1; };;\n'
        "  *) exit 1;;\nesac\n",
    )
    fw = {"torch": {"version": "2.4.0+cu124", "cuda": "12.4", "cuda_available": True, "device_count": 8}}
    bench = {"torch": "2.4.0+cu124", "gpus": [{"index": 0, "name": "NVIDIA H100 80GB HBM3",
                                               "matmul_tflops": 700.0, "bandwidth_gbs": 2900.0}]}
    write_exe(bin_dir, "fakepython",
              f'case "$2" in *matmul_tflops*) echo {shlex.quote(json.dumps(bench))};;\n'
              f"  *) echo {shlex.quote(json.dumps(fw if torch else {}))};;\nesac\n")
    return bin_dir, root


def interpreters() -> list[Path]:
    """Every CPython 3 found here: the system one, pyenv's versions, python3.N on PATH (no shims)."""
    found: dict[str, Path] = {}
    cands = [Path(p) for p in (shutil.which("python3"), "/usr/bin/python3") if p]
    pyenv_root = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv"))
    cands += sorted(pyenv_root.glob("versions/3.*/bin/python3"))
    cands += [Path(p) for n in range(6, 15) if (p := shutil.which(f"python3.{n}"))]
    for c in cands:
        if c.is_file() and os.access(c, os.X_OK) and "shims" not in c.parts:
            found.setdefault(str(c.resolve()), c)
    return list(found.values())


def version_of(python: Path) -> tuple[int, int] | None:
    try:
        out = subprocess.run([str(python), "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
                             capture_output=True, text=True, timeout=30).stdout.strip()
        major, minor = out.split(".")
        return int(major), int(minor)
    except (OSError, ValueError, subprocess.TimeoutExpired):
        return None


def oldest_python(floor: tuple[int, int] = (3, 6)) -> Path:
    """The oldest interpreter here at or above the probe's floor (the system python3 at worst)."""
    found = [(v, p) for p in interpreters() if (v := version_of(p)) and v >= floor]
    return min(found)[1] if found else Path(shutil.which("python3") or "python3")

"""The sdist and the wheel are complete: built from a copy of the tree, the sdist carries tests, docs, packaging
files and LICENSE; the wheel built from that sdist installs with --no-deps into a venv outside the repository
(its dependencies from the venv the tests run in) and runs `check`, `export` (also with the package's fonts
only) and the app's `--self-test`."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import zipfile
from pathlib import Path

import pytest

from procurement import __version__
from tests.conftest import EXAMPLES, REPO

pytestmark = pytest.mark.slow

IGNORE = shutil.ignore_patterns(".git", ".venv", "build", "dist", "*.egg-info", "__pycache__", ".pytest_cache",
                                ".mypy_cache", ".ruff_cache", ".hypothesis", "out", "shared")


def _build(kind: str, source: Path, out: Path) -> Path:
    """setuptools' PEP 517 hook in ``source``, without network (no build isolation; setuptools>=77 installed)."""
    code = f"from setuptools import build_meta as b; print(b.build_{kind}({str(out)!r}))"
    proc = subprocess.run([sys.executable, "-c", code], cwd=source, capture_output=True, text=True, timeout=300,
                          env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"})
    assert proc.returncode == 0, proc.stderr[-3000:]
    return out / proc.stdout.strip().splitlines()[-1]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    tmp = tmp_path_factory.mktemp("wheel")
    tree = tmp / "tree"
    shutil.copytree(REPO, tree, ignore=IGNORE)
    sdist = _build("sdist", tree, tmp / "dist")
    unpacked = tmp / "unpacked"
    with tarfile.open(sdist) as tar:
        tar.extractall(unpacked, filter="data")
    (src,) = unpacked.iterdir()
    wheel = _build("wheel", src, tmp / "dist")  # from the sdist: what a distribution would do
    return {"tmp": tmp, "sdist": sdist, "wheel": wheel}


def test_sdist_carries_tests_docs_packaging_and_licence(built: dict[str, Path]) -> None:
    with tarfile.open(built["sdist"]) as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
    for needed in ("LICENSE", "CHANGELOG.md", "README.md", "Makefile", "pyproject.toml", "tests/conftest.py",
                   "docs/packaging.md", "packaging/gpu-procure.spec", "packaging/notices.py",
                   "packaging/io.github.gpuprocure.GpuProcure.metainfo.xml", "catalog/data/gpus.yaml",
                   "resources/policy/default.yaml", "bench/startup.py", "setup.py", "deploy/slurm/verify.sbatch",
                   "deploy/ansible/verify.yml", "deploy/ansible/roles/gpu_procure_probe/tasks/main.yml"):
        assert needed in names, needed
    assert not any("__pycache__" in n or n.endswith(".pyc") for n in names)


def test_wheel_metadata(built: dict[str, Path]) -> None:
    with zipfile.ZipFile(built["wheel"]) as whl:
        names = whl.namelist()
        meta_name = next(n for n in names if n.endswith(".dist-info/METADATA"))
        meta = whl.read(meta_name).decode("utf-8")
        entry_points = whl.read(meta_name.replace("METADATA", "entry_points.txt")).decode("utf-8")
    assert f"Version: {__version__}" in meta
    assert "License-Expression: Apache-2.0" in meta and "Requires-Python: >=3.10" in meta
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    requires = [ln for ln in meta.splitlines() if ln.startswith("Requires-Dist:")]
    core = [r for r in requires if "extra ==" not in r]
    assert not any("PySide6" in r for r in core), "Qt must be the gui extra, not a core dependency"
    assert any("PySide6" in r and "extra == \"gui\"" in r for r in requires)
    assert "gpu-procure = gui.launch:main" in entry_points
    assert "[gui_scripts]" in entry_points and "gpu-procure-gui = gui.launch:main_gui" in entry_points
    for top in ("catalog/data/gpus.yaml", "resources/policy/default.yaml", "gpu_procure/__main__.py",
                "resources/locale/zh/LC_MESSAGES/gui.qm", "resources/locale/zh/LC_MESSAGES/messages.mo",
                "gpu_procure/deploy/slurm/verify.sbatch", "gpu_procure/deploy/ansible/verify.yml",
                "gpu_procure/deploy/ansible/roles/gpu_procure_probe/tasks/main.yml",
                "gpu_procure/deploy/ansible/roles/gpu_procure_probe/defaults/main.yml"):
        assert top in names, top
    with zipfile.ZipFile(built["wheel"]) as whl:
        mode = whl.getinfo("gpu_procure/deploy/slurm/verify.sbatch").external_attr >> 16
    assert mode & 0o111, "the batch script keeps its executable bit"
    assert not any(n.startswith("tests/") for n in names)


def test_installed_wheel_runs_outside_the_repository(built: dict[str, Path]) -> None:
    tmp = built["tmp"]
    venv = tmp / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", "--system-site-packages", str(venv)],
                   check=True, timeout=120)
    py = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    # The dependencies come from the venv the tests run in (--system-site-packages would reach only the base
    # interpreter's): a plain path line, so that venv's own .pth files (an editable install of this
    # repository among them) are not run.
    purelib = Path(subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                                  capture_output=True, text=True, check=True, timeout=60).stdout.strip())
    (purelib / "deps-from-test-venv.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "pip", "--python", str(py), "install", "--no-deps", "--no-index",
                           "--quiet", str(built["wheel"])], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    work = tmp / "work"
    work.mkdir()
    env = {"PATH": f"{py.parent}{os.pathsep}/usr/bin:/bin", "HOME": str(work), "LANG": "C.UTF-8",
           "QT_QPA_PLATFORM": "offscreen", "XDG_STATE_HOME": str(work / "state"), "GPU_PROCURE_CACHE_DIR": "off"}

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(list(args), cwd=work, env=env, capture_output=True, text=True, timeout=180)

    where = run(str(py), "-c", "import procurement, gui, catalog; print(procurement.__file__, catalog.__file__)")
    assert where.returncode == 0, where.stderr
    assert all(Path(p).is_relative_to(venv) for p in where.stdout.split()), where.stdout
    exe = str(py.parent / "gpu-procure")
    plan = shutil.copy(sorted(EXAMPLES.glob("*.gpuplan.yaml"))[0], work / "plan.gpuplan")
    check = run(exe, "check", "--json", str(plan))
    assert check.returncode in (0, 1, 3), check.stderr
    assert check.stdout.lstrip().startswith(("[", "{"))
    export = run(exe, "export", str(plan), "--quote", "q.pdf", "--checklist", "c.pdf", "--lang", "zh")
    assert export.returncode == 0, export.stderr
    assert (work / "q.pdf").read_bytes().startswith(b"%PDF-") and (work / "c.pdf").read_bytes()[:5] == b"%PDF-"
    env["GPU_PROCURE_SYSTEM_FONTS"] = "0"  # fonts from the installed package only (procurement.reports.fonts)
    bare = run(exe, "export", str(plan), "--quote", "bare.pdf", "--lang", "zh")
    assert bare.returncode == 0, bare.stderr
    assert (work / "bare.pdf").read_bytes().startswith(b"%PDF-")
    del env["GPU_PROCURE_SYSTEM_FONTS"]
    # the cluster files from the installed package: no checkout needed
    deploy = run(exe, "deploy-files", "cluster")
    assert deploy.returncode == 0, deploy.stderr
    assert os.access(work / "cluster/slurm/verify.sbatch", os.X_OK)
    assert (work / "cluster/ansible/verify.yml").read_bytes() == (REPO / "deploy/ansible/verify.yml").read_bytes()
    module = run(str(py), "-m", "gpu_procure", "--version")
    assert module.stdout.strip() == f"gpu-procure {__version__}"
    if importlib_has("PySide6"):
        gui = run(str(py.parent / "gpu-procure-gui"), "--self-test")
        assert gui.returncode == 0, gui.stderr
        assert "Traceback" not in gui.stderr
        # Qt installed, no display: the friendly message and 2, not Qt's abort (134)
        del env["QT_QPA_PLATFORM"]
        headless = run(exe)
        assert headless.returncode == 2 and "needs a display" in headless.stderr, headless


def importlib_has(name: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(name) is not None

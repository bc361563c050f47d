"""The probe runs where the app cannot: Python 3.6+, standard library only, one small file, any shell."""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from procurement.probe import bundle, probe_main
from procurement.verify import bench
from procurement.verify.collect import raw
from tests.procurement.probe.helpers import interpreters, version_of

SRC = Path(probe_main.__file__)
SOURCES = (SRC, Path(raw.__file__))
FLOOR = (3, 6)
STDLIB = set(sys.stdlib_module_names)


def test_vermin_says_the_probe_needs_no_more_than_python_3_6(tmp_path: Path) -> None:
    vermin = shutil.which("vermin") or str(Path(sys.executable).parent / "vermin")
    if not Path(vermin).exists():
        pytest.skip("vermin is not installed (pip install '.[test]')")
    res = subprocess.run(
        [vermin, "-t=3.6-", "--eval-annotations", "--no-tips", "--violations", *map(str, SOURCES)],
        capture_output=True, text=True, timeout=60,
    )
    assert res.returncode == 0, res.stdout + res.stderr
    # and vermin does find a newer construct when there is one (the check can fail)
    newer = tmp_path / "vermin-canary.py"
    newer.write_text("import subprocess\nsubprocess.run(['true'], capture_output=True)\n")
    bad = subprocess.run([vermin, "-t=3.6-", "--no-tips", "--violations", str(newer)],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode != 0


@pytest.mark.parametrize("src", SOURCES, ids=lambda p: p.name)
def test_the_probe_imports_only_the_standard_library(src: Path) -> None:
    """Besides the collector it ships beside itself (gpu_procure_raw in the zipapp, its source-tree name
    as the fallback), nothing outside the standard library."""
    tree = ast.parse(src.read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, "no relative imports: the file runs alone"
            names.add((node.module or "").split(".")[0])
    assert names and names - {"gpu_procure_raw", "procurement"} <= STDLIB, names - STDLIB


def test_the_benchmark_child_is_the_one_verify_runs() -> None:
    """Same script: its output means the same to the judge whether verify or the probe ran it."""
    assert bench.BENCH_SCRIPT is raw.BENCH_SCRIPT  # one copy, shipped in the zipapp with raw.py


def test_the_zipapp_is_small_and_reproducible() -> None:
    a, b = bundle.build_pyz(), bundle.build_pyz()
    assert a == b
    assert a.startswith(b"#!/usr/bin/env python3\n")
    assert len(a) < 200 * 1024
    zf = zipfile.ZipFile(__import__("io").BytesIO(a[len(bundle.SHEBANG):]))
    assert sorted(zf.namelist()) == ["__main__.py", "gpu_procure_probe.py", "gpu_procure_raw.py"]
    assert zf.read("gpu_procure_probe.py") == SRC.read_bytes()
    assert zf.read("gpu_procure_raw.py") == Path(raw.__file__).read_bytes()


@pytest.mark.parametrize("python", interpreters(), ids=lambda p: str(p))
def test_the_zipapp_runs_under_every_python_here(tmp_path: Path, python: Path) -> None:
    v = version_of(python)
    if v is None:
        pytest.skip(f"{python} does not start")
    if v < FLOOR:
        pytest.skip(f"{python} is Python {v}, below the probe's floor")
    version = f"{v[0]}.{v[1]}"
    pyz = bundle.write_pyz(tmp_path)
    from tests.procurement.probe.helpers import fake_server
    from tests.procurement.verify.conftest import H100_TOPO, H100_XML

    bin_dir, root = fake_server(tmp_path, H100_XML, H100_TOPO)
    env = {"PATH": f"{bin_dir}:/usr/bin:/bin", "LANG": "C"}  # C locale: 3.6 prints ASCII only
    out = tmp_path / "node.json"
    res = subprocess.run([str(python), str(pyz), "-q", "--root", str(root), "-o", str(out), "--timeout", "10"],
                         capture_output=True, text=True, timeout=120, env=env)
    assert res.returncode == 0, res.stderr
    doc = json.loads(out.read_text())
    assert doc["python"].startswith(version)
    assert doc["probe_version"] == raw.PROBE_VERSION and doc["probe"]["cli_version"] == probe_main.PROBE_CLI_VERSION
    assert doc["raw_schema_version"] == raw.RAW_SCHEMA_VERSION and doc["kind"] == raw.KIND
    smi = doc["commands"]["nvidia_smi_q"]
    assert smi["returncode"] == 0 and smi["stdout"] == H100_XML.read_text()
    assert doc["commands"]["nvidia_smi_topo"]["stdout"] == H100_TOPO.read_text()
    assert doc["files"]["/proc/sys/kernel/hostname"] == "node01\n"
    # standard output works too, under the C locale
    res = subprocess.run([str(python), str(pyz), "-q", "--root", str(root)], capture_output=True, timeout=120,
                         env=env)
    assert res.returncode == 0 and json.loads(res.stdout)["files"]["/etc/machine-id"]


def test_unwritable_output_is_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert probe_main.main(["-q", "--root", str(tmp_path), "--nvidia-smi", str(tmp_path / "none"),
                           "-o", str(tmp_path / "no" / "such" / "dir.json")]) == 2
    assert "cannot write" in capsys.readouterr().err


def test_load_run_and_benchmark_are_verify_s(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """--load quick --duration 1: verify's own load run (each tool where installed, missing ones recorded as
    missing, the GPUs sampled during the burn); --benchmark: verify's PyTorch run, stored as verify stores it."""
    from tests.procurement.probe.helpers import fake_server
    from tests.procurement.verify.conftest import H100_XML, write_exe

    bin_dir, root = fake_server(tmp_path, H100_XML)
    write_exe(bin_dir, "gpu_burn", 'echo "Burning for $1 seconds."\nsleep 0.3\necho "GPU 0: OK"\n')
    monkeypatch.setenv("PATH", f"{bin_dir}:/usr/bin:/bin")
    args = probe_main.build_parser().parse_args(
        ["--root", str(root), "--python", str(bin_dir / "fakepython"), "--timeout", "5", "--load", "quick",
         "--duration", "1", "--benchmark"])
    doc = probe_main.collect(args)
    load = doc["load"]
    assert load["level"] == "quick" and load["duration_s"] == 1 and load["gpus"] == 8
    assert load["tools"]["dcgmi_diag"]["missing"] and load["tools"]["nvbandwidth"]["missing"]
    burn = load["tools"]["gpu_burn"]
    assert burn["argv"][-1] == "1" and "GPU 0: OK" in burn["stdout"]
    assert load["tools"]["all_reduce_perf"]["argv"][-1] == "8"  # -g: every GPU the driver listed
    assert load["samples"]  # the sampler ran during the burn
    # torch sees CUDA (the fake one), so the benchmark child ran and its result is stored as verify stores it
    assert doc["benchmark"]["gpus"][0]["matmul_tflops"] == 700.0


def test_a_hung_program_is_ended_where_there_is_no_killpg(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without os.killpg (Windows) the collector's timeout still ends the program: the child alone."""
    from tests.procurement.verify.conftest import write_exe

    monkeypatch.delattr(os, "killpg")
    exe = write_exe(tmp_path, "hangs", "exec sleep 30\n")
    res = raw.run_command([str(exe)], 0.3)
    assert res["timed_out"] and res["returncode"] is not None

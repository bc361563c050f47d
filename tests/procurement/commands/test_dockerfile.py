"""`gpu-procure dockerfile`: the step-4 Dockerfile from the command line, with the China mirror option."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = ROOT / "resources" / "examples" / "mid-size-training.gpuplan.yaml"


def _run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "gui.launch", "dockerfile", *args], capture_output=True,
                          text=True, cwd=cwd or ROOT, env={"PYTHONPATH": str(ROOT), "LANG": "C.UTF-8",
                                                           "PATH": "/usr/bin:/bin"})


def test_writes_the_same_dockerfile_as_step_4_with_the_mirror(tmp_path, catalog):
    from procurement.dockerfile import dockerfile_for_plan
    from procurement.plan import load_plan

    out = tmp_path / "Dockerfile"
    proc = _run(str(EXAMPLE), "-o", str(out), "--mirror", "tuna", "--lang", "en")
    assert proc.returncode == 0, proc.stderr
    expected = dockerfile_for_plan(load_plan(EXAMPLE, catalog), catalog, "en", "tuna")
    assert out.read_text(encoding="utf-8") == expected
    assert "ENV PIP_INDEX_URL=https://pypi.tuna.tsinghua.edu.cn/simple" in expected


def test_standard_output_by_default_and_no_mirror(tmp_path):
    proc = _run(str(EXAMPLE), "--lang", "en")
    assert proc.returncode == 0
    assert "FROM nvcr.io/nvidia/pytorch:23.05-py3" in proc.stdout and "PIP_INDEX_URL" not in proc.stdout


def test_a_plan_without_an_image_is_incomplete_and_writes_nothing(tmp_path):
    data = yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))
    data["software"]["image"] = None
    plan = tmp_path / "p.gpuplan.yaml"
    plan.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    proc = _run(str(plan), "-o", str(tmp_path / "Dockerfile"), "--lang", "en")
    assert proc.returncode == 3
    assert "no container image" in proc.stderr
    assert not (tmp_path / "Dockerfile").exists()


def test_unreadable_plan_and_unknown_mirror_are_usage_errors(tmp_path):
    assert _run(str(tmp_path / "missing.gpuplan.yaml")).returncode == 2
    bad = _run(str(EXAMPLE), "--mirror", "nowhere")
    assert bad.returncode == 2 and "invalid choice" in bad.stderr


def test_it_never_overwrites_the_plan(tmp_path):
    plan = tmp_path / "p.gpuplan.yaml"
    plan.write_bytes(EXAMPLE.read_bytes())
    proc = _run(str(plan), "-o", str(plan))
    assert proc.returncode == 2
    assert plan.read_bytes() == EXAMPLE.read_bytes()


def test_in_process_with_a_stream():
    import argparse

    from catalog.loader import default_catalog
    from procurement.commands.dockerfile import run_dockerfile

    buf = io.BytesIO()
    args = argparse.Namespace(plan=EXAMPLE, output="-", mirror="aliyun", lang="zh")
    assert run_dockerfile(args, default_catalog(), stdout=buf) == 0
    assert "mirrors.aliyun.com" in buf.getvalue().decode("utf-8")

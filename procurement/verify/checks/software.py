"""Driver, CUDA, container runtime, image, framework and the bundled benchmark."""

from __future__ import annotations

from catalog.models import (
    ContainerImage,
    DriverBranch,
    Framework,
    parse_version,
    version_or_none,
)
from procurement import verification_texts  # noqa: F401  (registers the messages)
from procurement.verify.checks.registry import (
    Ctx,
    check,
)

# ---------------------------------------------------------------- driver, CUDA, containers, frameworks


@check("DRIVER-MIN", "software", needs_smi=True, item="cuda_gpu")
def _driver_min(c: Ctx) -> None:
    smi, plan = c.smi, c.plan
    assert smi is not None
    driver = smi.driver_version
    cuda = c.catalog.cuda(plan.software.cuda) if plan and plan.software.cuda else None
    if cuda is None:
        c.add("DRIVER-MIN", "skip", "driver_min.no_plan", None, driver)
    elif (have := version_or_none(driver)) is None:
        c.add("DRIVER-MIN", "unknown", "driver_min.unknown", f"≥ {cuda.min_driver_linux}", driver)
    elif have >= parse_version(cuda.min_driver_linux):
        c.add("DRIVER-MIN", "pass", "driver_min.pass", f"≥ {cuda.min_driver_linux}", driver, cuda=cuda.version)
    else:
        c.add("DRIVER-MIN", "fail", "driver_min.fail", f"≥ {cuda.min_driver_linux}", driver, cuda=cuda.version,
              need=cuda.min_driver_linux)


@check("DRIVER-BRANCH", "software", needs_smi=True, item="os_driver")
def _driver_branch(c: Ctx) -> None:
    smi, plan = c.smi, c.plan
    assert smi is not None
    branch = c.catalog.typed(DriverBranch, plan.software.driver) if plan and plan.software.driver else None
    if branch is None:
        return  # not planned: nothing to say
    have, want = version_or_none(smi.driver_version), parse_version(branch.version)
    if have is None:
        c.add("DRIVER-BRANCH", "unknown", "driver_min.unknown", branch.version, smi.driver_version)
    elif have[0] == want[0]:
        c.add("DRIVER-BRANCH", "pass", "driver_branch.pass", branch.version, smi.driver_version)
    else:
        c.add("DRIVER-BRANCH", "warn", "driver_branch.warn", branch.version, smi.driver_version, branch=branch.branch)


@check("CUDA-VERSION", "software", needs_smi=True, item="cuda_gpu")
def _cuda_version(c: Ctx) -> None:
    smi, plan = c.smi, c.plan
    assert smi is not None
    cuda = c.catalog.cuda(plan.software.cuda) if plan and plan.software.cuda else None
    if cuda is None:
        c.add("CUDA-VERSION", "skip", "cuda.inventory", None, smi.cuda_version)  # no plan: recorded
        return
    want = parse_version(cuda.version)[:2]
    have = version_or_none(smi.cuda_version)
    if have is None:
        c.add("CUDA-VERSION", "unknown", "cuda.unknown", f"≥ {cuda.version}", smi.cuda_version)
    elif have[:2] >= want:
        c.add("CUDA-VERSION", "pass", "cuda.pass", f"≥ {cuda.version}", smi.cuda_version)
    else:
        c.add("CUDA-VERSION", "fail", "cuda.fail", f"≥ {cuda.version}", smi.cuda_version, cuda=cuda.version)


@check("CUDA-TOOLKIT", "software", item="cuda_gpu")
def _cuda_toolkit(c: Ctx) -> None:
    host, plan = c.facts.host, c.plan
    cuda = c.catalog.cuda(plan.software.cuda) if plan and plan.software.cuda else None
    # nvcc on the host is optional: containers bring their own toolkit.
    if host.nvcc_version is None:
        c.add("CUDA-TOOLKIT", "skip", "toolkit.none", cuda.version if cuda else None, None)
    elif cuda is not None and parse_version(cuda.version)[:2] != (version_or_none(host.nvcc_version) or ())[:2]:
        c.add("CUDA-TOOLKIT", "warn", "toolkit.other", cuda.version, host.nvcc_version, cuda=cuda.version)
    else:
        c.add("CUDA-TOOLKIT", "pass", "toolkit.pass", cuda.version if cuda else None, host.nvcc_version)


def _image(c: Ctx) -> ContainerImage | None:
    plan = c.plan
    return c.catalog.typed(ContainerImage, plan.software.image) if plan and plan.software.image else None


@check("CONTAINER-RUNTIME", "software", item="preinstalled_software")
def _container_runtime(c: Ctx) -> None:
    host = c.facts.host
    image = _image(c)
    docker = f"docker {host.docker_version}" if host.docker_version else None
    toolkit = host.docker_nvidia_runtime or host.nvidia_ctk_version is not None
    actual = ", ".join(
        x for x in (docker, f"nvidia-ctk {host.nvidia_ctk_version}" if host.nvidia_ctk_version else None) if x
    ) or None
    if docker and toolkit:
        c.add("CONTAINER-RUNTIME", "pass", "runtime.pass", "docker + NVIDIA Container Toolkit" if image else None,
              actual)
    elif image is not None:
        c.add("CONTAINER-RUNTIME", "fail", "runtime.no_toolkit" if docker else "runtime.none",
              "docker + NVIDIA Container Toolkit", actual)
    elif docker:
        c.add("CONTAINER-RUNTIME", "warn", "runtime.no_toolkit", None, actual)
    else:
        c.add("CONTAINER-RUNTIME", "skip", "runtime.optional", None, actual)


@check("IMAGE", "software", item="preinstalled_software")
def _image_check(c: Ctx) -> None:
    image = _image(c)
    if image is None:
        return  # not planned
    host = c.facts.host
    if host.images.get(image.reference):
        c.add("IMAGE", "pass", "image.pass", image.reference, image.reference)
    elif host.docker_version is None:
        c.add("IMAGE", "unknown", "image.no_docker", image.reference, None)
    else:
        c.add("IMAGE", "warn", "image.missing", image.reference, None, ref=image.reference)


@check("FRAMEWORK", "software", item="framework_installed")
def _framework(c: Ctx) -> None:
    host, plan, smi = c.facts.host, c.plan, c.smi
    fw = c.catalog.typed(Framework, plan.software.framework) if plan and plan.software.framework else None
    found = host.frameworks
    summary = ", ".join(
        f"{k} {v.get('version', '?')}" + (" (CUDA)" if v.get("cuda_available") else "") for k, v in found.items()
    ) or None
    has_gpus = smi is not None and bool(smi.gpus)
    if fw is not None:
        installed = found.get("torch" if fw.framework == "pytorch" else fw.framework)
        expected = f"{fw.framework} {fw.version}"
        if not installed:
            c.add("FRAMEWORK", "skip", "framework.absent", expected, None, name=fw.framework)
        elif not str(installed.get("version", "")).startswith(fw.version):
            c.add("FRAMEWORK", "warn", "framework.other", expected, summary, name=fw.framework)
        elif has_gpus and not installed.get("cuda_available"):
            c.add("FRAMEWORK", "warn", "framework.no_cuda", expected, summary, name=fw.framework)
        else:
            c.add("FRAMEWORK", "pass", "framework.pass", expected, summary)
    elif found:
        no_cuda = [k for k, v in found.items() if not v.get("cuda_available")]
        if has_gpus and no_cuda:
            c.add("FRAMEWORK", "warn", "framework.no_cuda", None, summary, name=", ".join(no_cuda))
        else:
            c.add("FRAMEWORK", "skip", "framework.inventory", None, summary)
    else:
        c.add("FRAMEWORK", "skip", "framework.none", None, host.frameworks_error)


@check("BENCHMARK", "load", item="gpu_model_count")
def _benchmark(c: Ctx) -> None:
    facts = c.facts
    if facts.benchmark is None:
        if facts.benchmark_skip:
            c.add("BENCHMARK", "unknown", "bench.skip", None, None, reason=facts.benchmark_skip)
        return
    per_gpu = facts.benchmark.get("gpus")
    if not isinstance(per_gpu, list) or not per_gpu:
        c.add("BENCHMARK", "unknown", "bench.skip", None, None, reason=str(facts.benchmark.get("skip", "-")))
        return
    errors, lines, expected = [], [], []
    for item in per_gpu:
        if not isinstance(item, dict):
            continue
        idx = item.get("index")
        if item.get("error"):
            errors.append(f"GPU{idx}: {item['error']}")
            continue
        part = facts.parts.get(int(idx)) if isinstance(idx, int) else None
        tflops, gbs = item.get("matmul_tflops"), item.get("bandwidth_gbs")
        text = f"GPU{idx}: {_num(tflops)} TFLOPS, {_num(gbs)} GB/s"
        if part is not None:
            pct = []
            if isinstance(tflops, int | float) and part.fp16_tensor_tflops:
                pct.append(f"{100 * tflops / part.fp16_tensor_tflops:.0f}% FP16")
            if isinstance(gbs, int | float) and part.memory_bandwidth_gbs:
                pct.append(f"{100 * gbs / part.memory_bandwidth_gbs:.0f}% BW")
            if pct:
                text += f" ({', '.join(pct)})"
            expected.append(f"GPU{idx}: {_num(part.fp16_tensor_tflops)} TFLOPS, {_num(part.memory_bandwidth_gbs)} GB/s")
        lines.append(text)
    if errors:
        c.add("BENCHMARK", "fail", "bench.fail", None, "; ".join(errors), which="; ".join(errors))
    else:
        c.add("BENCHMARK", "pass", "bench.pass", "; ".join(expected) or None, "; ".join(lines))


def _num(x: object) -> str:
    if isinstance(x, int | float):
        return f"{x:.0f}" if x >= 100 else f"{x:.1f}"
    return "?"

"""Software rules: driver vs CUDA, CUDA vs GPU architecture, container image, OS, framework, MIG and NVLink.

Facts from the catalog, which takes them from docs/sources.md §C1-C5: CUDA → minimum Linux driver (NVIDIA CUDA
release notes, Table 3), the compute capabilities each CUDA compiles for (C2), framework CUDA builds
(PyTorch RELEASE.md, C3), NGC container CUDA/driver (C4), OS support (NVIDIA driver installation guide,
C5), MIG/NVLink per GPU (A2). No thresholds of its own.
"""

from __future__ import annotations

from catalog.loader import Catalog
from catalog.models import ContainerImage, CudaRelease, Framework, Gpu, Segment
from procurement.coded import Coded, coded, names
from procurement.findings import Family, Finding, Severity
from procurement.messages import register
from procurement.plan import Plan
from procurement.policy import Policy
from procurement.rules.base import major_minor, make, resolve, version
from procurement.rules.registry import rule

FAMILY: Family = "software"


@rule(FAMILY, "SW-DRIVER-CUDA", step=4, item="cuda_gpu")
def driver_cuda(plan: Plan, catalog: Catalog, policy: Policy) -> list[Finding]:
    """SW-DRIVER-CUDA: the driver is older than the CUDA release's minimum Linux driver."""
    p = resolve(plan, catalog)
    if p.driver is None or p.cuda is None:
        return []
    have, need = version(p.driver.version), version(p.cuda.min_driver_linux)
    if have is None or need is None or have >= need:
        return []
    return [
        make(
            "SW-DRIVER-CUDA",
            Severity.ERROR,
            ("software.driver", "software.cuda"),
            driver=p.driver.version,
            cuda=p.cuda.version,
            need=p.cuda.min_driver_linux,
        )
    ]


def first_cuda_for(gpu: Gpu, catalog: Catalog) -> CudaRelease | None:
    """The oldest catalog CUDA release that compiles for the GPU's compute capability (docs/sources.md §C2: e.g.
    Blackwell 12.0 → CUDA 12.8), or None."""
    cc = major_minor(gpu.compute_capability)
    if cc is None:
        return None
    fits = [
        c for c in catalog.all(CudaRelease)
        if (lo := major_minor(c.min_cc)) is not None and (hi := major_minor(c.max_cc)) is not None and lo <= cc <= hi
    ]
    return min(fits, key=lambda c: version(c.version) or (0,), default=None)


def _framework_runs_on(fw: Framework, cc: tuple[int, int], catalog: Catalog) -> bool | None:
    """True when one of the framework's CUDA builds compiles for ``cc``; None when no build is in the catalog."""
    known = [c for c in (catalog.cuda(v) for v in fw.cuda_versions) if c is not None]
    if not known:
        return None
    return any(
        (lo := major_minor(c.min_cc)) is not None and (hi := major_minor(c.max_cc)) is not None and lo <= cc <= hi
        for c in known
    )


def first_framework_for(fw: Framework, gpu: Gpu, catalog: Catalog) -> Framework | None:
    """The oldest release of the same framework with a CUDA build for the GPU (docs/sources.md §C3: PyTorch 2.7 is the
    first with CUDA 12.8 wheels and sm_120)."""
    cc = major_minor(gpu.compute_capability)
    if cc is None:
        return None
    same = [f for f in catalog.all(Framework) if f.framework == fw.framework and _framework_runs_on(f, cc, catalog)]
    return min(same, key=lambda f: version(f.version) or (0,), default=None)


def _arch_fix(gpu: Gpu, catalog: Catalog, fw: Framework | None) -> Coded | str:
    """'CUDA ≥ 12.8, driver ≥ 570.26, PyTorch ≥ 2.7': the versions the GPU's architecture needs."""
    cuda = first_cuda_for(gpu, catalog)
    if cuda is None:
        return ""
    parts: list[object] = [f"CUDA ≥ {cuda.version}", coded("sw.driver_ge", v=cuda.min_driver_linux)]
    newer = first_framework_for(fw, gpu, catalog) if fw is not None else None
    if newer is not None and fw is not None:
        parts.append(f"{_fw_label(fw)} ≥ {newer.version}")
    return names(parts)


def _fw_label(fw: Framework) -> str:
    return {"pytorch": "PyTorch", "tensorflow": "TensorFlow", "jax": "JAX"}[fw.framework]


@rule(FAMILY, "SW-DRIVER-ARCH", step=4, item="cuda_gpu")
def driver_arch(plan: Plan, catalog: Catalog, policy: Policy) -> list[Finding]:
    """SW-DRIVER-ARCH: the driver is older than the minimum driver of the first CUDA release for the GPU's
    architecture — a branch older than that does not know the GPU (docs/sources.md §C1 + C2: Blackwell needs CUDA
    12.8, whose minimum Linux driver is 570.26; catalog r570 note: first branch for Blackwell)."""
    p = resolve(plan, catalog)
    if p.gpu is None or p.driver is None:
        return []
    first = first_cuda_for(p.gpu, catalog)
    if first is None:
        return []
    have, need = version(p.driver.version), version(first.min_driver_linux)
    if have is None or need is None or have >= need:
        return []
    return [
        make(
            "SW-DRIVER-ARCH",
            Severity.ERROR,
            ("software.driver", "gpu.model"),
            gpu=p.gpu.name,
            arch=p.gpu.architecture,
            cc=p.gpu.compute_capability,
            driver=p.driver.version,
            need=first.min_driver_linux,
            cuda=first.version,
            versions=_arch_fix(p.gpu, catalog, p.framework),
        )
    ]


@rule(FAMILY, "SW-FRAMEWORK-ARCH", step=4, item="framework_installed")
def framework_arch(plan: Plan, catalog: Catalog, policy: Policy) -> list[Finding]:
    """SW-FRAMEWORK-ARCH: none of the framework release's CUDA builds compiles for the GPU's compute
    capability (docs/sources.md §C3: PyTorch 2.1's newest build is CUDA 12.1, up to sm_90; 2.7 is the first with CUDA
    12.8 and sm_120)."""
    p = resolve(plan, catalog)
    if p.gpu is None or p.framework is None:
        return []
    cc = major_minor(p.gpu.compute_capability)
    if cc is None or _framework_runs_on(p.framework, cc, catalog) is not False:
        return []
    newer = first_framework_for(p.framework, p.gpu, catalog)
    return [
        make(
            "SW-FRAMEWORK-ARCH",
            Severity.ERROR,
            ("software.framework", "gpu.model"),
            framework=p.framework.name,
            builds=", ".join(p.framework.cuda_versions),
            gpu=p.gpu.name,
            cc=p.gpu.compute_capability,
            versions=_arch_fix(p.gpu, catalog, p.framework) if newer else coded("sw.no_release"),
        )
    ]


@rule(FAMILY, "SW-CUDA-ARCH-NEW", "SW-CUDA-ARCH-OLD", step=4, item="cuda_gpu")
def cuda_arch(plan: Plan, catalog: Catalog, policy: Policy) -> list[Finding]:
    """SW-CUDA-ARCH: the GPU's compute capability is outside what the CUDA release (or the image's CUDA)
    compiles for — too new for an old toolkit, or dropped by a new one."""
    p = resolve(plan, catalog)
    if p.gpu is None:
        return []
    out = []
    image_cuda = catalog.cuda(p.image.cuda) if p.image and p.image.cuda else None
    checked: set[str] = set()
    for cuda, path in ((p.cuda, "software.cuda"), (image_cuda, "software.image")):
        if cuda is None or cuda.id in checked:
            continue
        checked.add(cuda.id)
        cc, lo, hi = major_minor(p.gpu.compute_capability), major_minor(cuda.min_cc), major_minor(cuda.max_cc)
        if cc is None or lo is None or hi is None:
            continue
        if cc > hi:
            out.append(
                make(
                    "SW-CUDA-ARCH-NEW",
                    Severity.ERROR,
                    (path, "gpu.model"),
                    gpu=p.gpu.name,
                    cc=p.gpu.compute_capability,
                    cuda=cuda.version,
                    max=cuda.max_cc,
                    versions=_arch_fix(p.gpu, catalog, p.framework) or coded("sw.newer_cuda"),
                )
            )
        elif cc < lo:
            out.append(
                make(
                    "SW-CUDA-ARCH-OLD",
                    Severity.ERROR,
                    (path, "gpu.model"),
                    gpu=p.gpu.name,
                    cc=p.gpu.compute_capability,
                    cuda=cuda.version,
                    min=cuda.min_cc,
                )
            )
    return out


@rule(FAMILY, "SW-IMAGE-CUDA", "SW-IMAGE-DRIVER", step=4, item="preinstalled_software")
def image(plan: Plan, catalog: Catalog, policy: Policy) -> list[Finding]:
    """SW-IMAGE-DRIVER (the image needs a newer driver) and SW-IMAGE-CUDA (the image brings another CUDA
    line than the one chosen; info)."""
    p = resolve(plan, catalog)
    img = p.image
    if img is None:
        return []
    out = []
    image_cuda = catalog.cuda(img.cuda) if img.cuda else None
    need_text = img.min_driver_linux or (image_cuda.min_driver_linux if image_cuda else None)
    if p.driver is not None and need_text:
        have, need = version(p.driver.version), version(need_text)
        if have is not None and need is not None and have < need:
            out.append(
                make(
                    "SW-IMAGE-DRIVER",
                    Severity.ERROR,
                    ("software.image", "software.driver"),
                    image=img.reference,
                    need=need_text,
                    driver=p.driver.version,
                )
            )
    if img.cuda and p.cuda is not None and major_minor(img.cuda) != major_minor(p.cuda.version):
        out.append(
            make(
                "SW-IMAGE-CUDA",
                Severity.INFO,
                ("software.image", "software.cuda"),
                image=img.reference,
                image_cuda=img.cuda,
                cuda=p.cuda.version,
            )
        )
    return out


def image_unknowns(img: ContainerImage, framework: str | None, catalog: Catalog) -> list[str]:
    """What the catalog does not record about image ``img`` that a plan with ``framework`` relies on: 'cuda' (the
    CUDA version inside), 'driver' (the minimum driver it needs) and 'framework' (which release of the plan's
    framework it holds). An image whose documentation says it has no CUDA (``bundles_cuda: false``) misses no
    CUDA or driver fact; one with no framework (``bundles_framework: false``) gets the plan's framework installed,
    pinned, by the Dockerfile; a plan without a framework asks nothing of the image's."""
    out = []
    if img.bundles_cuda is not False:
        if not img.cuda:
            out.append("cuda")
        image_cuda = catalog.cuda(img.cuda) if img.cuda else None
        if not (img.min_driver_linux or (image_cuda.min_driver_linux if image_cuda else None)):
            out.append("driver")  # the floor SW-IMAGE-DRIVER compares with: unknown, so not compared
    if framework and not img.framework and img.bundles_framework is not False:
        out.append("framework")
    return out


@rule(FAMILY, "SW-IMAGE-UNKNOWN", step=4, item="preinstalled_software")
def image_contents(plan: Plan, catalog: Catalog, policy: Policy) -> list[Finding]:
    """SW-IMAGE-UNKNOWN (warning): the catalog does not record the image's CUDA version, driver floor or the
    framework release inside, so whether it runs on this driver and holds the plan's framework is unknown, never a
    pass (docs/sources.md §C4: NGC 23.05's contents are not in the reference). The fix names catalog images of the
    plan's framework whose contents are all recorded."""
    img = resolve(plan, catalog).image
    framework = plan.software.framework
    missing = image_unknowns(img, framework, catalog) if img is not None else []
    if img is None or not missing:
        return []
    known = sorted(i.reference for i in catalog.all(ContainerImage)
                   if i.trusted and i.framework and i.framework == framework
                   and not image_unknowns(i, framework, catalog))
    return [make("SW-IMAGE-UNKNOWN", Severity.WARNING, ("software.image",), variant="alt" if known else None,
                 image=img.reference, facts=names(coded(f"sw.image_fact.{m}") for m in missing),
                 alternatives=names(known))]


@rule(FAMILY, "SW-OS-DRIVER", "SW-OS-CUDA", step=4, item="os_driver")
def os_support(plan: Plan, catalog: Catalog, policy: Policy) -> list[Finding]:
    """SW-OS-DRIVER (OS not in the driver installation guide) and SW-OS-CUDA (CUDA newer than the OS gets)."""
    p = resolve(plan, catalog)
    if p.os is None:
        return []
    out = []
    if not p.os.driver_supported and (p.driver is not None or p.gpu is not None):
        out.append(make("SW-OS-DRIVER", Severity.WARNING, ("software.os",), os=p.os.name))
    if p.os.max_cuda and p.cuda is not None:
        cap, want = major_minor(p.os.max_cuda), major_minor(p.cuda.version)
        if cap is not None and want is not None and want > cap:
            out.append(
                make(
                    "SW-OS-CUDA",
                    Severity.ERROR,
                    ("software.os", "software.cuda"),
                    os=p.os.name,
                    cuda=p.cuda.version,
                    max=p.os.max_cuda,
                )
            )
    return out


@rule(FAMILY, "SW-FRAMEWORK-CUDA", step=4, item="framework_installed")
def framework(plan: Plan, catalog: Catalog, policy: Policy) -> list[Finding]:
    """SW-FRAMEWORK-CUDA: the framework release has no official build for the chosen CUDA line."""
    p = resolve(plan, catalog)
    if p.framework is None or p.cuda is None:
        return []
    want = major_minor(p.cuda.version)
    builds = {major_minor(v) for v in p.framework.cuda_versions}
    if want is None or want in builds:
        return []
    return [
        make(
            "SW-FRAMEWORK-CUDA",
            Severity.WARNING,
            ("software.framework", "software.cuda"),
            framework=p.framework.name,
            cuda=p.cuda.version,
            builds=", ".join(p.framework.cuda_versions),
        )
    ]


@rule(FAMILY, "SW-NVLINK", "SW-MIG", "SW-MIG-UNKNOWN", step=2, item="gpu_model_count")
def features(plan: Plan, catalog: Catalog, policy: Policy) -> list[Finding]:
    """SW-MIG and SW-NVLINK: MIG or NVLink asked for on a GPU without it."""
    p = resolve(plan, catalog)
    req = plan.requirements
    if p.gpu is None:
        return []
    out = []
    if req.needs_mig and not p.gpu.mig_max:
        # 0: the GPU has no MIG (error); None: the catalog does not know (info, not a false alarm)
        out.append(
            make(
                "SW-MIG" if p.gpu.mig_max == 0 else "SW-MIG-UNKNOWN",
                Severity.ERROR if p.gpu.mig_max == 0 else Severity.INFO,
                ("gpu.model", "requirements.needs_mig"),
                gpu=p.gpu.name,
            )
        )
    if req.needs_nvlink and p.gpu.nvlink_gbs == 0:
        out.append(
            make(
                "SW-NVLINK",
                Severity.ERROR,
                ("gpu.model", "requirements.needs_nvlink"),
                gpu=p.gpu.name,
            )
        )
    return out


@rule(FAMILY, "SW-DRIVER-DATACENTER", step=4, item="os_driver")
def datacenter_driver(plan: Plan, catalog: Catalog, policy: Policy) -> list[Finding]:
    """SW-DRIVER-DATACENTER: a data-centre-only driver branch with a GeForce card."""
    p = resolve(plan, catalog)
    if p.driver is None or p.gpu is None or not p.driver.datacenter_only or p.gpu.segment != Segment.CONSUMER:
        return []
    return [
        make(
            "SW-DRIVER-DATACENTER",
            Severity.WARNING,
            ("software.driver", "gpu.model"),
            driver=p.driver.name,
            gpu=p.gpu.name,
        )
    ]


@rule(FAMILY, "SW-INCOMPLETE", step=4, item_by_field={"software.driver": "os_driver", "software.cuda": "cuda_gpu"})
def incomplete(plan: Plan, catalog: Catalog, policy: Policy) -> list[Finding]:
    """SW-INCOMPLETE: GPUs chosen but no driver or no CUDA/image yet (info)."""
    sw = plan.software
    if not plan.gpu.model or not plan.gpu.count:
        return []
    missing = []
    if sw.driver is None:
        missing.append("software.driver")
    if sw.cuda is None and sw.image is None:
        missing.append("software.cuda")
    if not missing:
        return []
    return [make("SW-INCOMPLETE", Severity.INFO, tuple(missing))]


@rule(FAMILY, "SW-IMAGE-UNTRUSTED", step=4, item="image_trusted")
def image_trust(plan: Plan, catalog: Catalog, policy: Policy) -> list[Finding]:
    """SW-IMAGE-UNTRUSTED: the image's publisher is not an official registry (the catalog's ``trusted``)."""
    img = resolve(plan, catalog).image
    if img is None or img.trusted:
        return []
    return [make("SW-IMAGE-UNTRUSTED", Severity.WARNING, ("software.image",),
                 image=img.reference, publisher=img.publisher)]



register(
    {
        "SW-DRIVER-CUDA.message": "Driver {driver} is older than the {need} that CUDA {cuda} needs on Linux.",
        "SW-DRIVER-CUDA.fix": "Choose a driver branch at {need} or newer, or an older CUDA release.",
        "SW-CUDA-ARCH-NEW.message": (
            "{gpu} (compute capability {cc}) is newer than the {max} that CUDA {cuda} compiles for."
        ),
        "SW-CUDA-ARCH-NEW.fix": "This architecture needs {versions}.",
        "sw.driver_ge": "driver ≥ {v}",
        "sw.newer_cuda": "a newer CUDA release that supports it",
        "sw.no_release": "no release in the catalog",
        "SW-DRIVER-ARCH.message": (
            "Driver {driver} is older than {need}, the minimum Linux driver of CUDA {cuda}, the first release for "
            "{gpu} ({arch}, compute capability {cc}); this driver does not know the GPU."
        ),
        "SW-DRIVER-ARCH.fix": "This architecture needs {versions}.",
        "SW-FRAMEWORK-ARCH.message": (
            "None of the official CUDA builds of {framework} ({builds}) compiles for {gpu} (compute capability {cc}): "
            "the framework cannot run CUDA kernels on it."
        ),
        "SW-FRAMEWORK-ARCH.fix": "This architecture needs {versions}.",
        "SW-CUDA-ARCH-OLD.message": "CUDA {cuda} no longer supports {gpu} (compute capability {cc}; minimum {min}).",
        "SW-CUDA-ARCH-OLD.fix": "Choose an older CUDA release that still supports this architecture.",
        "SW-IMAGE-DRIVER.message": "Image {image} needs driver {need} or newer; the driver is {driver}.",
        "SW-IMAGE-DRIVER.fix": (
            "Choose a newer driver branch or an older image (data-centre GPUs can also use the CUDA "
            "forward-compatibility package)."
        ),
        "SW-IMAGE-UNTRUSTED.message": "Image {image} comes from {publisher}, not an official publisher's registry.",
        "SW-IMAGE-UNTRUSTED.fix": (
            "Use an image from NVIDIA NGC, Docker Official Images or the framework's own organisation; if this one is "
            "required, check its digest and where it was built."
        ),
        "SW-IMAGE-UNKNOWN.message": (
            "The catalog does not record {facts} of image {image}: whether it runs on this driver and holds what the "
            "plan needs is unknown."
        ),
        "SW-IMAGE-UNKNOWN.fix": (
            "Choose an image whose contents the catalog records, or have a named person confirm them from the image's "
            "release notes on the checklist item \"Pre-installed software meets development needs\"."
        ),
        "SW-IMAGE-UNKNOWN.fix.alt": (
            "Choose an image whose contents the catalog records ({alternatives}), or have a named person confirm them "
            "from the image's release notes on the checklist item \"Pre-installed software meets development needs\"."
        ),
        "sw.image_fact.cuda": "the CUDA version",
        "sw.image_fact.driver": "the minimum driver",
        "sw.image_fact.framework": "the framework release",
        "SW-IMAGE-CUDA.message": (
            "Image {image} brings CUDA {image_cuda}, not the chosen CUDA {cuda}; inside the container the image's CUDA "
            "is used."
        ),
        "SW-IMAGE-CUDA.fix": "For one CUDA line everywhere, pick an image built on the chosen CUDA.",
        "SW-OS-DRIVER.message": "{os} is not in the current NVIDIA driver installation guide's list of distributions.",
        "SW-OS-DRIVER.fix": "Choose a supported OS such as Ubuntu 22.04/24.04 LTS or Rocky/RHEL 8/9.",
        "SW-OS-CUDA.message": "{os} gets packages/images up to CUDA {max}; CUDA {cuda} is chosen.",
        "SW-OS-CUDA.fix": "Choose a newer OS or an older CUDA release.",
        "SW-FRAMEWORK-CUDA.message": "{framework} has no official build for CUDA {cuda} (official builds: {builds}).",
        "SW-FRAMEWORK-CUDA.fix": "Choose a CUDA line the framework is built for, or use a matching container image.",
        "SW-MIG-UNKNOWN.message": "The catalog has no sourced MIG support figure for {gpu}.",
        "SW-MIG-UNKNOWN.fix": (
            "Confirm MIG support with the vendor, or choose a GPU in NVIDIA's MIG user guide (A30, A100, H100, H200, "
            "B200…)."
        ),
        "SW-MIG.message": "MIG is required but {gpu} has no MIG.",
        "SW-MIG.fix": "Choose a MIG-capable GPU (A100, H100, A30…).",
        "SW-NVLINK.message": "NVLink is required but {gpu} has none.",
        "SW-NVLINK.fix": "Choose a GPU with NVLink (SXM modules or PCIe cards with an NVLink bridge).",
        "SW-DRIVER-DATACENTER.message": "Driver {driver} is a data-centre branch and does not serve {gpu}.",
        "SW-DRIVER-DATACENTER.fix": "Choose a general (production branch) driver for GeForce cards.",
        "SW-INCOMPLETE.message": "No driver or CUDA/image chosen yet; software compatibility is not checked.",
        "SW-INCOMPLETE.fix": "Choose OS, driver, CUDA and image in the image selection step.",
    }
)

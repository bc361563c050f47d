"""The recommended software stack: what an image brings with it, and a driver/CUDA/framework for the GPU.

Nothing here has facts of its own. The catalog says what each image contains (docs/sources.md §C4), which
CUDA lines a framework release is built for (§C3), what each CUDA release compiles for and needs from the driver
(§C1, §C2) and what each OS gets (§C5); the software rules (procurement/rules/software.py) say whether a
combination works. A recommendation is the newest framework release, then the newest of its CUDA lines, then the
oldest driver branch that together raise no software error or warning for the chosen GPU and OS — the oldest
branch because it is the one the CUDA release was qualified with, and because newer branches drop old GPUs.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from catalog.loader import Catalog
from catalog.models import ContainerImage, CudaRelease, DriverBranch, Framework, Gpu, OperatingSystem
from procurement.findings import Severity
from procurement.messages import Lang, register, t
from procurement.plan import Plan, SoftwareChoice
from procurement.policy import Policy
from procurement.rules import evaluate_family
from procurement.rules import software as software_rules
from procurement.rules.base import major_minor, version

register({
    "stack.framework": (
        "{framework}: the newest release of the framework with a CUDA build for the {gpu} (compute capability {cc})"
    ),
    "stack.cuda": "CUDA {cuda}: the newest of {framework}'s official builds that compiles for the {gpu}{os_cap}",
    "stack.os_cap": ", within CUDA {max} that {os} gets",
    "stack.driver": (
        "{driver}: the oldest branch that meets CUDA {cuda}'s minimum driver {need} (the branch that CUDA release was "
        "qualified with; newer branches drop old GPUs)"
    ),
    "stack.os": "{os}: the newest long-term-support release in NVIDIA's driver installation guide",
    "stack.image": "{image}: a trusted NGC image that contains {framework} and CUDA {cuda} and needs no newer driver",
    "stack.none": "No driver/CUDA/framework combination in the catalog runs on the {gpu} without an error or warning",
    "stack.image_fill": "{field}: {value} from the image {image}",
    "stack.image_mismatch": "{field}: the plan has {plan_value}, the image {image} contains {image_value}",
    "stack.image_unknown": "The image {image} does not record its {field}: check the image's release notes",
    "stack.image_none": (
        "The image {image} holds no {field} (per its source in the catalog): it comes from what is installed on "
        "top"
    ),
    "stack.image_driver_low": "Driver: the plan's {plan_value} is older than the image {image} needs ({need})",
    "stack.framework_image": "{framework}: contained in the image {image}",
    "stack.cuda_image": "CUDA {cuda}: contained in the image {image}",
    "stack.field.driver": "driver",
    "stack.field.cuda": "CUDA",
    "stack.field.framework": "framework",
})

DEFAULT_FRAMEWORK = "pytorch"
"""The framework family proposed when the plan names none (the one most NGC images and the catalog carry)."""


@dataclass(frozen=True)
class ImageFill:
    """What choosing an image means for the rest of the stack."""

    changes: dict[str, str] = field(default_factory=dict)
    """Plan paths the image decides and the plan had left empty: path → catalog id."""
    notes: tuple[str, ...] = ()
    """One line per filled field, per mismatch and per thing the image does not record."""
    mismatches: tuple[str, ...] = ()
    """The paths where the plan's choice differs from what the image contains."""


@dataclass(frozen=True)
class Recommendation:
    values: dict[str, str]
    """software.* path → catalog id; only the fields the recommendation decides."""
    reasons: tuple[str, ...]
    """One line per choice, in the order os, framework, cuda, driver, image."""


def _cuda_for_version(catalog: Catalog, text: str | None) -> CudaRelease | None:
    """The catalog CUDA release of the same major.minor as ``text`` ('12.4.1' → cuda-12.4)."""
    want = major_minor(text) if text else None
    if want is None:
        return None
    return next((c for c in catalog.all(CudaRelease) if major_minor(c.version) == want), None)


def _drivers_ascending(catalog: Catalog) -> list[DriverBranch]:
    return sorted(catalog.all(DriverBranch), key=lambda d: version(d.version) or (0,))


def _oldest_driver_meeting(catalog: Catalog, need: str | None) -> DriverBranch | None:
    floor = version(need) if need else None
    if floor is None:
        return None
    return next((d for d in _drivers_ascending(catalog) if (version(d.version) or (0,)) >= floor), None)


def image_fill(plan: Plan, catalog: Catalog, image_id: str, lang: Lang = "zh") -> ImageFill:
    """The CUDA line, framework and minimum driver that ``image_id`` brings: filled where the plan is empty,
    stated as a mismatch where the plan chose otherwise, and said to be unknown where the catalog does not
    record it (never guessed)."""
    image = catalog.typed(ContainerImage, image_id)
    if image is None:
        return ImageFill()
    sw = plan.software
    changes: dict[str, str] = {}
    notes: list[str] = []
    mismatches: list[str] = []

    def field_name(path: str, start: bool = False) -> str:
        name = t(f"stack.field.{path.split('.')[-1]}", lang)
        return name[:1].upper() + name[1:] if start else name

    def decide(path: str, current: str | None, proposed_id: str | None, proposed_text: str,
               same: bool, absent: bool = False) -> None:
        if proposed_id is None:
            # none inside (bundles_cuda / bundles_framework: false) is a fact; not recorded is unknown
            notes.append(t("stack.image_none" if absent else "stack.image_unknown", lang, image=image.reference,
                           field=field_name(path)))
        elif current is None:
            changes[path] = proposed_id
            notes.append(t("stack.image_fill", lang, field=field_name(path, start=True), image=image.reference,
                           value=proposed_text))
        elif not same:
            mismatches.append(path)
            if path == "software.driver":
                notes.append(t("stack.image_driver_low", lang, image=image.reference,
                               plan_value=_name(catalog, current), need=need))
            else:
                notes.append(t("stack.image_mismatch", lang, field=field_name(path, start=True),
                               image=image.reference, plan_value=_name(catalog, current),
                               image_value=proposed_text))

    cuda = _cuda_for_version(catalog, image.cuda)
    plan_cuda = catalog.cuda(sw.cuda) if sw.cuda else None
    same_cuda = plan_cuda is not None and image.cuda is not None and \
        major_minor(plan_cuda.version) == major_minor(image.cuda)
    decide("software.cuda", sw.cuda, cuda.id if cuda else None, f"CUDA {image.cuda}", same_cuda,
           absent=image.bundles_cuda is False)

    fw = catalog.typed(Framework, image.framework) if image.framework else None
    decide("software.framework", sw.framework, fw.id if fw else None, fw.name if fw else "",
           sw.framework == (fw.id if fw else None), absent=image.bundles_framework is False)

    need = image.min_driver_linux or (cuda.min_driver_linux if cuda else None)
    driver = _oldest_driver_meeting(catalog, need)
    plan_driver = catalog.typed(DriverBranch, sw.driver) if sw.driver else None
    meets = plan_driver is not None and need is not None and \
        (version(plan_driver.version) or (0,)) >= (version(need) or (0,))
    if image.bundles_cuda is not False:  # no CUDA inside: the image asks no driver of its own
        decide("software.driver", sw.driver, driver.id if driver else None,
               f"{driver.name} (≥ {need})" if driver else "", meets)
    return ImageFill(changes, tuple(notes), tuple(mismatches))


def _name(catalog: Catalog, part_id: str) -> str:
    part = next((p for p in catalog if p.id == part_id), None)
    return part.name if part is not None else part_id


def _blocking(plan: Plan, catalog: Catalog, policy: Policy | None) -> bool:
    """True when the software rules raise an error or a warning for ``plan``."""
    return any(f.severity != Severity.INFO
               for f in evaluate_family(software_rules, plan, catalog, policy, "en"))


def _with_software(plan: Plan, **values: str | None) -> Plan:
    return plan.model_copy(update={"software": plan.software.model_copy(update=values)})


def _default_os(catalog: Catalog) -> OperatingSystem | None:
    """The newest LTS Ubuntu the driver guide lists (the distribution NGC images are built on)."""
    ubuntu = [o for o in catalog.all(OperatingSystem)
              if o.family == "ubuntu" and o.lts and o.driver_supported and o.max_cuda is None]
    return max(ubuntu, key=lambda o: version(o.version) or (0,), default=None)


def recommend_stack(plan: Plan, catalog: Catalog, policy: Policy | None = None,
                    lang: Lang = "zh") -> Recommendation | None:
    """A driver, CUDA line and framework release (and an OS and an image where the plan has none) that the
    software rules accept for the plan's GPU; None without a known GPU. The plan's OS and framework family are
    kept; the image is kept when it still fits, else the newest trusted image that contains the choice."""
    gpu = catalog.typed(Gpu, plan.gpu.model) if plan.gpu.model else None
    if gpu is None:
        return None
    cc = major_minor(gpu.compute_capability)
    reasons: list[str] = []
    values: dict[str, str] = {}
    os_part = catalog.typed(OperatingSystem, plan.software.os) if plan.software.os else None
    if os_part is None:
        os_part = _default_os(catalog)
        if os_part is not None:
            values["software.os"] = os_part.id
            reasons.append(t("stack.os", lang, os=os_part.name))
    chosen_fw = catalog.typed(Framework, plan.software.framework) if plan.software.framework else None
    family = chosen_fw.framework if chosen_fw else DEFAULT_FRAMEWORK
    frameworks = sorted((f for f in catalog.all(Framework) if f.framework == family),
                        key=lambda f: version(f.version) or (0,), reverse=True)
    # An image the user chose decides what it contains: the framework and CUDA line come from it when the
    # catalog records them; an image that records nothing is kept and said to be unchecked.
    image = catalog.typed(ContainerImage, plan.software.image) if plan.software.image else None
    image_fw = catalog.typed(Framework, image.framework) if image is not None and image.framework else None
    image_cuda = _cuda_for_version(catalog, image.cuda) if image is not None else None
    if image is not None:
        if image_fw is not None:
            frameworks = [image_fw]
        else:
            reasons.append(t("stack.image_none" if image.bundles_framework is False else "stack.image_unknown",
                             lang, image=image.reference, field=t("stack.field.framework", lang)))
        if image_cuda is None:
            reasons.append(t("stack.image_none" if image.bundles_cuda is False else "stack.image_unknown", lang,
                             image=image.reference, field=t("stack.field.cuda", lang)))
    base = _with_software(plan, os=os_part.id if os_part else plan.software.os, image=None)
    found = _first_accepted(base, frameworks, image_cuda, cc, catalog, policy)
    if found is None:
        return Recommendation(values, (*reasons, t("stack.none", lang, gpu=gpu.name)))
    fw, cuda, driver, candidate = found
    values.update({"software.framework": fw.id, "software.cuda": cuda.id, "software.driver": driver.id})
    if image is not None and image_fw is not None:
        reasons.append(t("stack.framework_image", lang, framework=fw.name, image=image.reference))
    else:
        reasons.append(t("stack.framework", lang, framework=fw.name, gpu=gpu.name, cc=gpu.compute_capability))
    os_cap = (t("stack.os_cap", lang, os=os_part.name, max=os_part.max_cuda)
              if os_part is not None and os_part.max_cuda else "")
    if image is not None and image_cuda is not None:
        reasons.append(t("stack.cuda_image", lang, cuda=image.cuda, image=image.reference))
    else:
        reasons.append(t("stack.cuda", lang, cuda=cuda.version, framework=fw.name, gpu=gpu.name, os_cap=os_cap))
    reasons.append(t("stack.driver", lang, driver=driver.name, cuda=cuda.version, need=cuda.min_driver_linux))
    proposed = _image_for(candidate, catalog, policy, plan.software.image)
    if proposed is not None:
        values["software.image"] = proposed.id
        if proposed.id != plan.software.image:
            reasons.append(t("stack.image", lang, image=proposed.reference, framework=fw.name, cuda=proposed.cuda))
    return Recommendation(values, tuple(reasons))


def _first_accepted(base: Plan, frameworks: list[Framework], image_cuda: CudaRelease | None,
                    cc: tuple[int, int] | None, catalog: Catalog, policy: Policy | None,
                    ) -> tuple[Framework, CudaRelease, DriverBranch, Plan] | None:
    """The newest framework release, then the newest CUDA line for the GPU's compute capability, then the
    oldest driver that the software rules accept (with the plan they make), or None."""
    for fw in frameworks:
        cudas = [c for c in (_cuda_for_version(catalog, v) for v in fw.cuda_versions) if c is not None]
        if image_cuda is not None:
            cudas = [image_cuda]
        cudas.sort(key=lambda c: version(c.version) or (0,), reverse=True)
        for cuda in cudas:
            lo, hi = major_minor(cuda.min_cc), major_minor(cuda.max_cc)
            if cc is None or lo is None or hi is None or not lo <= cc <= hi:
                continue
            for driver in _drivers_ascending(catalog):
                candidate = _with_software(base, framework=fw.id, cuda=cuda.id, driver=driver.id)
                if not _blocking(candidate, catalog, policy):
                    return fw, cuda, driver, candidate
    return None


def _image_for(candidate: Plan, catalog: Catalog, policy: Policy | None, current: str | None) -> ContainerImage | None:
    """The plan's image when it still raises nothing, else the newest trusted image that contains exactly the
    chosen framework release and CUDA line and raises nothing with the chosen driver; None when none does."""
    sw = candidate.software
    if current is not None:
        kept = catalog.typed(ContainerImage, current)
        if kept is not None and not _blocking(_with_software(candidate, image=current), catalog, policy):
            return kept
    cuda = catalog.cuda(sw.cuda) if sw.cuda else None
    fits = [i for i in catalog.all(ContainerImage)
            if i.trusted and i.framework == sw.framework and i.cuda and cuda is not None
            and major_minor(i.cuda) == major_minor(cuda.version)
            and not _blocking(_with_software(candidate, image=i.id), catalog, policy)]
    return max(fits, key=lambda i: i.reference, default=None)


def apply_values(plan: Plan, values: dict[str, str]) -> Plan:
    """``plan`` with the software.* ``values`` set (validated as a whole)."""
    software = {path.split(".", 1)[1]: value for path, value in values.items() if path.startswith("software.")}
    return plan.model_copy(update={"software": SoftwareChoice.model_validate(
        {**plan.software.model_dump(), **software})})

"""Hardware and software checklists validated from the plan, findings and verification reports (the sign-offs
are procurement/signoff.py)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from catalog.compat import StrEnum
from catalog.loader import Catalog
from catalog.models import (
    Chassis,
    ContainerImage,
    Cpu,
    DriverBranch,
    Framework,
    GpuCooling,
    MemoryModule,
    Nic,
    OperatingSystem,
    Psu,
    Segment,
    Storage,
    StorageKind,
    parse_version,
    version_or_none,
)
from catalog.units import GIB_TO_GB  # the sizing estimate is GB; catalog GPU memory GiB
from procurement.budgets.balance import cores_needed, ram_needed_gib
from procurement.budgets.parts import resolved_once
from procurement.budgets.power import power_budget
from procurement.checklist_items import ITEM_IDS as ITEM_IDS
from procurement.checklist_items import ITEMS as ITEMS
from procurement.checklist_items import ItemDef as ItemDef
from procurement.checklist_items import Which as Which
from procurement.coded import Coded, coded
from procurement.findings import Finding, Severity, verdict_rank
from procurement.messages import Lang, plural, register, t
from procurement.plan import ChecklistMark, Plan
from procurement.policy import Policy, default_policy
from procurement.rules.registry import items_for_finding
from procurement.sizing.plan_sizing import size_plan
from procurement.terminal import prose
from procurement.verification_report import message_of, values_of

WHICH: tuple[Which, ...] = ("hardware", "software")


class Status(StrEnum):
    PASS = "pass"
    CONFIRMED = "confirmed"
    """The app could not decide; a person confirmed it, with a note (never shown as an automatic pass)."""
    FAIL = "fail"
    ATTENTION = "attention"
    UNKNOWN = "unknown"


# An item's status as a verdict of the one order (procurement.findings): attention is a warning; a person's
# confirmation of an undecided automatic item ranks just above a pass.
_VERDICT = {Status.PASS: "pass", Status.CONFIRMED: "pass", Status.UNKNOWN: "unknown", Status.ATTENTION: "warn",
            Status.FAIL: "fail"}


def _rank(s: Status) -> tuple[int, bool]:
    return verdict_rank(_VERDICT[s]), s == Status.CONFIRMED


def worse(a: Status, b: Status) -> Status:
    """Combining two opinions on one item keeps the worse."""
    return a if _rank(a) >= _rank(b) else b


register(
    {
        "checklist.hardware": "Hardware checklist",
        "checklist.software": "Software checklist",
        "checklist.status.pass": "Pass",
        "checklist.status.fail": "Fail",
        "checklist.status.attention": "Attention",
        "checklist.status.unknown": "Unknown",
        "checklist.status.confirmed": "Confirmed",
        "checklist.r.confirmed_by": "confirmed by {name}: {note}",
        "checklist.status.confirmed_by": "confirmed by {name}",
        "checklist.confirmed_finding": (
            "checklist item '{item}' cannot be decided by the app; confirmed by {name} (not an automatic pass): {note}"
        ),
        "checklist.confirm_needs": (
            "confirming an item the app cannot decide needs the confirming person's name and a note"
        ),
        # item labels
        "checklist.item.gpu_model_count": "GPU model and count meet the need",
        "checklist.item.gpu_vram": "GPU memory fits the model",
        "checklist.item.cpu_cores": "Enough CPU cores",
        "checklist.item.ram": "Enough system memory",
        "checklist.item.storage_nvme": "Storage is NVMe",
        "checklist.item.network": "Network meets distributed training",
        "checklist.item.psu_power": "PSU power enough (GPU power × count + system)",
        "checklist.item.cooling": "Cooling is sound",
        "checklist.item.os_driver": "OS compatible with the GPU driver",
        "checklist.item.cuda_gpu": "CUDA matches the GPU",
        "checklist.item.framework_installed": "Framework correctly installed",
        "checklist.item.preinstalled_software": "Pre-installed software meets development needs",
        "checklist.item.image_trusted": "Image from a trusted source",
        # reasons
        "checklist.r.not_chosen": "No {what} chosen",
        "checklist.what.gpu": "GPU",
        "checklist.what.cpu": "CPU",
        "checklist.what.memory": "memory",
        "checklist.what.storage": "storage",
        "checklist.what.psu": "PSU",
        "checklist.what.chassis": "chassis",
        "checklist.what.os": "operating system",
        "checklist.what.driver": "driver",
        "checklist.what.cuda": "CUDA release",
        "checklist.what.framework": "framework",
        "checklist.what.image": "image",
        "checklist.r.gpu_count_zero": "{gpu} chosen, count is 0",
        "checklist.r.gpu_plan": plural(
            "{count} × {gpu} per server, {nodes} server",
            "{count} × {gpu} per server, {nodes} servers",
            "nodes",
        ),
        "checklist.r.vram_have": "{per} GiB per GPU, {total} GiB in total",
        "checklist.r.vram_per_gpu": plural(
            "each GPU needs {need} GiB ({need_gb} GB, {margin_gb} GB with the margin; {gpus} GPU as {scheme}), {per} "
            "GiB per GPU",
            "each GPU needs {need} GiB ({need_gb} GB, {margin_gb} GB with the margin; {gpus} GPUs as {scheme}), "
            "{per} GiB per GPU",
            "gpus",
        ),
        "checklist.r.vram_no_estimate": "no memory estimate yet (enter the model size)",
        "checklist.r.cpu_cores": plural(
            "{cores} core ({cpus} × {cpu}); ≥ {#need} advised for {#gpus}",
            "{cores} cores ({cpus} × {cpu}); ≥ {#need} advised for {#gpus}",
            "cores",
        ),
        "checklist.r.cpu_cores#gpus": plural("{gpus} GPU", "{gpus} GPUs", "gpus"),
        "checklist.r.cpu_cores#need": plural("{need} core", "{need} cores", "need"),
        "checklist.r.ram": "{ram} GiB RAM for {vram} GiB of GPU memory; ≥ {need} GiB advised",
        "checklist.r.ram_no_gpu": "{ram} GiB RAM (no GPU chosen to compare with)",
        "checklist.r.storage_all_nvme": "NVMe: {parts}",
        "checklist.r.storage_not_nvme": "not NVMe: {parts}",
        "checklist.r.net_single": "single server, no fabric needed; NICs: {nics}",
        "checklist.r.net_none": "none",
        "checklist.r.net_multi": plural(
            "{nodes} server in distributed training; fastest NIC {best} Gb/s, ≥ {need} Gb/s advised",
            "{nodes} servers in distributed training; fastest NIC {best} Gb/s, ≥ {need} Gb/s advised",
            "nodes",
        ),
        "checklist.r.power": (
            "needs {need} W ({draw} W estimated + {headroom}% headroom), {avail} W available ({usable} × {unit} W{red})"
        ),
        "checklist.r.power_red": plural(
            ", {red} redundant unit not counted",
            ", {red} redundant units not counted",
            "red",
        ),
        "checklist.r.power_low_line_none": "{psu} does not run on 100-127 V input",
        "checklist.r.power_low_line_unknown": "no 100-127 V rating known for {psu}; ask the vendor",
        "checklist.r.power_over_high_line": (
            "estimated draw {draw} W is above the usable capacity even at 200-240 V, {high} W; low line gives no more"
        ),
        "checklist.r.power_missing": "not counted (no power figure): {parts}",
        "checklist.r.power_estimated": "estimated with the policy's planning figure (no vendor figure): {parts}",
        "checklist.r.power_no_base": "board, fans and base load not included",
        "checklist.r.cooling_tdp": "GPU {tdp} W, chassis limit {limit} W per slot",
        "checklist.r.cooling_tdp_unknown": (
            "GPU power or the chassis' per-slot cooling limit is unknown; check the vendor sheets"
        ),
        "checklist.r.cooling_passive": "passive GPU in a chassis not built for passive cards",
        "checklist.r.cooling_open_air": "{count} open-air cards in one chassis (more than {max} recirculate hot air)",
        "checklist.r.cooling_kind": "chassis cooling: {kind}",
        "checklist.cooling.air": "air",
        "checklist.cooling.liquid": "liquid",
        "checklist.r.os_supported": "{os} is listed by the NVIDIA driver guide; driver {driver}",
        "checklist.r.os_unsupported": "{os} is not listed by the NVIDIA driver guide",
        "checklist.r.os_max_cuda": "{os} goes up to CUDA {max}; {cuda} chosen",
        "checklist.r.os_max_cuda_unknown": "{os}: its highest CUDA \"{max}\" is not a version, so it cannot be checked",
        "checklist.r.cuda_ok": "CUDA {cuda} covers compute capability {cc} ({min}–{max}); driver {driver} ≥ {need}",
        "checklist.r.cuda_cc": "CUDA {cuda} covers compute capability {min}–{max}; the GPU is {cc}",
        "checklist.r.cuda_driver": "driver {driver} is below the {need} that CUDA {cuda} needs",
        "checklist.r.framework_cuda": "{fw} has official builds for CUDA {lines}",
        "checklist.r.framework_no_cuda": "{fw} has no official build for CUDA {cuda} (has {lines})",
        "checklist.r.image": "{ref} (publisher {publisher})",
        "checklist.r.image_contents": "image {ref}: CUDA {cuda}, framework {fw}, Python {py}",
        "checklist.r.image_untrusted": "{ref} is not from an official publisher registry ({publisher})",
        "checklist.r.await_person": "awaiting a reviewer's check",
        "checklist.r.person_ok": "confirmed by a reviewer",
        "checklist.r.needs_name": (
            "ticked without a name: what the app knows is incomplete, so a tick needs the confirming person's name "
            "and a note"
        ),
        "checklist.r.finding": "{sev}: {msg}",
        "checklist.r.verified": "measured: {actual}",
        "checklist.r.verified_gpus": "GPUs: {gpus}",
        "checklist.r.unknown_value": "unknown",
        "checklist.r.none_value": "none",
    }
)




@dataclass(frozen=True)
class ChecklistItem:
    id: str
    which: Which
    label: str
    status: Status
    reason: str
    """Why, with the numbers (several facts joined by '；' / '; ')."""
    person: bool
    checked: bool = False
    note: str = ""
    rules: tuple[str, ...] = ()
    """Rule ids of the findings that bear on this item."""
    verified: str = ""
    """What the delivered machine really has, from the attached verification reports ('' if none)."""
    fields: tuple[str, ...] = ()
    confirmed_by: str = ""
    """Who confirmed an item the app cannot decide (status CONFIRMED)."""
    needs_confirmation: bool = False
    """A person's item whose automatic evidence is unknown: a tick counts only with the confirming person's name
    and a note (procurement.checklist.confirm), and then shows as confirmed by them, never as a pass."""


@dataclass(frozen=True)
class Checklist:
    which: Which
    title: str
    items: tuple[ChecklistItem, ...]

    def count(self, status: Status) -> int:
        return sum(1 for i in self.items if i.status == status)


# ---------------------------------------------------------------- figures (one place, switch to rules later)


@dataclass(frozen=True)
class PowerFigures:
    draw_w: float
    """Estimated draw of the parts with a power figure."""
    need_w: float
    """draw × (1 + headroom)."""
    headroom_pct: float
    available_w: float | None
    """Usable PSU output (redundant units excluded); None when no PSU is known."""
    unit_w: float | None
    usable_units: int
    redundant_units: int
    missing: tuple[str, ...]
    """Parts not counted: no power figure."""
    estimated: tuple[str, ...]
    """Parts counted with the policy's planning figure (the catalog has no vendor figure)."""
    base_included: bool
    low_line_unsupported: str | None = None
    """Name of the PSU whose input range excludes 100-127 V, when the plan runs on low line."""
    low_line_unknown: str | None = None
    """Name of the PSU with no known 100-127 V rating, when the plan runs on low line."""
    upper_bound_w: float | None = None
    """With low_line_unknown: the usable capacity at the 200-240 V rating, which low line never exceeds."""


def power_figures(plan: Plan, catalog: Catalog, policy: Policy) -> PowerFigures:
    """Per-server draw and usable PSU output: the power rules' own budget, so the checklist and the rules agree."""
    b = power_budget(plan, catalog, policy)
    psu = catalog.typed(Psu, b.psu_id) if b.psu_id else None
    base = [i for i in b.items if i.key in ("base", "fans", "baseboard") and i.unit_w]
    return PowerFigures(
        draw_w=b.draw_w,
        need_w=b.required_w,
        headroom_pct=b.headroom_pct,
        available_w=None if psu is None else b.usable_w,
        unit_w=b.psu_unit_w,
        usable_units=max(b.psu_count - b.redundant_units, 0),
        redundant_units=b.redundant_units,
        missing=tuple(dict.fromkeys(i.label for i in b.unknown if i.key != "base")),
        estimated=tuple(dict.fromkeys(i.label for i in b.estimated)),
        base_included=bool(base),  # a rest-of-system figure, or the fans and baseboard of a rack server
        low_line_unsupported=psu.name if psu is not None and b.low_line and psu.low_line == "unsupported" else None,
        low_line_unknown=psu.name if psu is not None and b.low_line and psu.low_line == "unknown" else None,
        upper_bound_w=b.upper_bound_w,
    )


# ---------------------------------------------------------------- formatting

NBSP = "\u00a0"
"""No longer used for numbers; kept for the PDF-text tests that normalise spaces."""


def fmt_num(value: float) -> str:
    """2352 -> '2,352'; one decimal where needed (1949.2). The same digits the screen shows: the app's
    locales (en_US, zh_CN) group thousands with ',' and use '.', and gui/numbers.py formats with QLocale;
    tests/gui/test_numbers_locale.py holds the two together. (The no-break-space groups this wrote before
    stood beside '7,165 W' and '50,000 元' on the same screen.)"""
    if abs(value - round(value)) < 1e-9:
        return f"{round(value):,}"
    return f"{value:,.1f}"


def _sep(lang: Lang) -> str:
    return "；" if lang == "zh" else "; "


# ---------------------------------------------------------------- findings → items

# The rule ids of procurement/rules (docs/rules.md) and the item each one bears on. A rule not listed falls
# back to its family, then to the first plan field it points at that an item looks at.
# ---------------------------------------------------------------- verification → items

# The check ids of `gpu-procure verify` (docs/verify.md) and the item each one shows the machine's side of are
# declared with each check (`@check(..., item=...)` in procurement/verify/checks/); read from its registry.
def verify_check_items() -> dict[str, str]:
    """Check id -> the checklist item it covers, as the verify check registry declares them."""
    from procurement.verify.checks import CHECKS

    return {spec.id: spec.item for spec in CHECKS.values() if spec.item is not None}


_CHECK_PREFIXES: tuple[tuple[str, str], ...] = (
    ("gpu_memory", "gpu_vram"),
    ("vram", "gpu_vram"),
    ("gpu_model", "gpu_model_count"),
    ("gpu_count", "gpu_model_count"),
    ("gpu_name", "gpu_model_count"),
    ("gpus", "gpu_model_count"),
    ("pcie", "gpu_model_count"),
    ("cpu", "cpu_cores"),
    ("ram", "ram"),
    ("host_memory", "ram"),
    ("system_memory", "ram"),
    ("memory", "ram"),
    ("nvme", "storage_nvme"),
    ("storage", "storage_nvme"),
    ("disk", "storage_nvme"),
    ("network", "network"),
    ("net", "network"),
    ("nic", "network"),
    ("power_limit", "psu_power"),
    ("psu", "psu_power"),
    ("temperature", "cooling"),
    ("thermal", "cooling"),
    ("cooling", "cooling"),
    ("os", "os_driver"),
    ("driver", "os_driver"),
    ("cuda", "cuda_gpu"),
    ("framework", "framework_installed"),
    ("torch", "framework_installed"),
    ("pytorch", "framework_installed"),
    ("tensorflow", "framework_installed"),
    ("jax", "framework_installed"),
    ("image", "preinstalled_software"),
    ("container", "preinstalled_software"),
    ("docker", "preinstalled_software"),
)
# A check the machine could not answer is unknown on the item too, never a tick.
_CHECK_STATUS = {"fail": Status.FAIL, "warn": Status.ATTENTION, "pass": Status.PASS, "unknown": Status.UNKNOWN}


def item_for_check(check_id: str) -> str | None:
    """The checklist item a verification check covers ('GPU-COUNT', 'DRIVER-MIN', …), or None."""
    items = verify_check_items()
    if check_id.upper() in items:
        return items[check_id.upper()]
    norm = check_id.lower().replace("-", "_").replace(".", "_").replace(" ", "_")
    best: tuple[int, str] | None = None
    for prefix, item in _CHECK_PREFIXES:
        if norm == prefix or norm.startswith(prefix + "_"):
            if best is None or len(prefix) > best[0]:
                best = (len(prefix), item)
    return best[1] if best else None


@dataclass
class _Verified:
    status: Status | None = None
    actual: list[str] = field(default_factory=list)


def _verification(plan: Plan, lang: Lang) -> dict[str, _Verified]:
    out: dict[str, _Verified] = {}
    gpu_names: dict[str, int] = {}
    for report in plan.verification:
        for gpu in report.gpus:
            if gpu.name:
                gpu_names[gpu.name] = gpu_names.get(gpu.name, 0) + 1
        for check in report.checks:
            item = item_for_check(check.id)
            status = _CHECK_STATUS.get(check.status)
            if item is None or status is None:
                continue
            v = out.setdefault(item, _Verified())
            v.status = status if v.status is None else worse(v.status, status)
            actual = values_of(check, lang)[1]  # rendered in the reader's language from its code
            text = actual if actual not in (None, "") else message_of(check, lang)
            if text and text not in v.actual:
                v.actual.append(text)
    if gpu_names:
        v = out.setdefault("gpu_model_count", _Verified())
        summary = ("、" if lang == "zh" else ", ").join(f"{n} × {name}" for name, n in gpu_names.items())
        v.actual.insert(0, t("checklist.r.verified_gpus", lang, gpus=summary))
    return out


# ---------------------------------------------------------------- the items


def _not_chosen(what: str, lang: Lang) -> str:
    name = t(f"checklist.what.{what}", lang)
    if lang == "zh" and name[:1].isascii():  # 未选择 GPU: a space between Chinese and Latin text
        name = " " + name
    return t("checklist.r.not_chosen", lang, what=name)


def _gib(v: float) -> str:
    return fmt_num(round(v, 1))


class _Eval:
    """Computes each item's own status and reason from the plan and catalog (before findings/verification)."""

    def __init__(self, plan: Plan, catalog: Catalog, policy: Policy, lang: Lang) -> None:
        self.plan, self.catalog, self.policy, self.lang = plan, catalog, policy, lang
        self.gpu = catalog.gpu(plan.gpu.model)
        self.cpu = catalog.typed(Cpu, plan.server.cpu)
        self.chassis = catalog.typed(Chassis, plan.server.chassis)
        self.os = catalog.typed(OperatingSystem, plan.software.os)
        self.driver = catalog.typed(DriverBranch, plan.software.driver)
        self.cuda = catalog.cuda(plan.software.cuda)
        self.framework = catalog.typed(Framework, plan.software.framework)
        self.image = catalog.typed(ContainerImage, plan.software.image)

    def t(self, key: str, **kw: object) -> str:
        return t(f"checklist.r.{key}", self.lang, **kw)

    def join(self, names: Iterable[str]) -> str:
        """Part names as a list: 、 between them in Chinese text, ", " in English."""
        return ("、" if self.lang == "zh" else ", ").join(names)

    def gpu_model_count(self) -> tuple[Status, list[str]]:
        if self.gpu is None:
            return Status.FAIL, [_not_chosen("gpu", self.lang)]
        if self.plan.gpu.count == 0:
            return Status.FAIL, [self.t("gpu_count_zero", gpu=self.gpu.name)]
        reason = [self.t("gpu_plan", count=self.plan.gpu.count, gpu=self.gpu.name, nodes=self.plan.requirements.nodes)]
        sized = size_plan(self.plan, self.catalog, self.policy.vram_margin_pct)
        if sized is not None and sized.fits is not None:  # per GPU under the plan's scheme, never a sum
            return (Status.PASS if sized.fits else Status.FAIL), reason
        return Status.PASS, reason

    def gpu_vram(self) -> tuple[Status, list[str]]:
        """Each GPU holds its share under the plan's parallelism scheme (memory is never summed)."""
        if self.gpu is None or self.plan.gpu.count == 0:
            return Status.UNKNOWN, [_not_chosen("gpu", self.lang)]
        per = self.gpu.memory_gib
        total = per * self.plan.gpu.count * self.plan.requirements.nodes
        sized = size_plan(self.plan, self.catalog, self.policy.vram_margin_pct)
        if sized is None or sized.fits is None:
            return Status.UNKNOWN, [
                self.t("vram_have", per=_gib(per), total=_gib(total)),
                self.t("vram_no_estimate"),
            ]
        need_gb = sized.memory.total
        status = Status.PASS if sized.fits else Status.FAIL  # judged with the margin
        # GB beside GiB: the VRAM finding and step 1's estimate speak in GB ('needs 32.3 GB (38.8 GB with the
        # margin)'); the need in GiB is the same 32.3 GB, not the figure with the margin
        return status, [self.t("vram_per_gpu", need=_gib(need_gb / GIB_TO_GB), need_gb=f"{need_gb:,.1f}",
                               margin_gb=f"{sized.with_margin_gb:,.1f}", per=_gib(per),
                               scheme=sized.parallel.label(), gpus=sized.parallel.gpus)]

    def cpu_cores(self) -> tuple[Status, list[str]]:
        if self.cpu is None:
            return Status.UNKNOWN, [_not_chosen("cpu", self.lang)]
        cores = self.cpu.cores * self.plan.server.cpu_count
        gpus = self.plan.gpu.count
        need = math.ceil(cores_needed(gpus, self.policy))
        status = Status.PASS if cores >= need else Status.FAIL
        return status, [
            self.t(
                "cpu_cores",
                cores=cores,
                cpus=self.plan.server.cpu_count,
                cpu=self.cpu.name,
                gpus=gpus,
                need=need,
            )
        ]

    def ram(self) -> tuple[Status, list[str]]:
        mem = self.plan.server.memory
        module = self.catalog.typed(MemoryModule, mem.part) if mem else None
        if mem is None or module is None:
            return Status.UNKNOWN, [_not_chosen("memory", self.lang)]
        ram = module.capacity_gib * mem.count
        if self.gpu is None or self.plan.gpu.count == 0:
            return Status.UNKNOWN, [self.t("ram_no_gpu", ram=fmt_num(ram))]
        vram = self.gpu.memory_gib * self.plan.gpu.count
        need = ram_needed_gib(self.gpu.memory_gib, self.plan.gpu.count, self.policy)
        status = Status.PASS if ram >= need else Status.ATTENTION
        return status, [self.t("ram", ram=fmt_num(ram), vram=_gib(vram), need=_gib(need))]

    def storage_nvme(self) -> tuple[Status, list[str]]:
        drives = [(s, self.catalog.typed(Storage, s.part)) for s in self.plan.server.storage]
        known = [(s, d) for s, d in drives if d is not None]
        if not known:
            return Status.UNKNOWN, [_not_chosen("storage", self.lang)]
        slow = [
            f"{s.count} × {d.name}"
            for s, d in known
            if d.storage_kind != StorageKind.NVME and s.role.value in ("data", "scratch")
        ]
        if slow:
            return Status.ATTENTION, [self.t("storage_not_nvme", parts=self.join(slow))]
        nvme = [f"{s.count} × {d.name}" for s, d in known if d.storage_kind == StorageKind.NVME]
        others = [f"{s.count} × {d.name}" for s, d in known if d.storage_kind != StorageKind.NVME]
        if not nvme:
            return Status.ATTENTION, [self.t("storage_not_nvme", parts=self.join(others))]
        reason = [self.t("storage_all_nvme", parts=self.join(nvme))]
        if others:
            reason.append(self.t("storage_not_nvme", parts=self.join(others)))
        return Status.PASS, reason

    def network(self) -> tuple[Status, list[str]]:
        nics = [(n, self.catalog.typed(Nic, n.part)) for n in self.plan.server.nics]
        known = [(n, c) for n, c in nics if c is not None]
        names = self.join(f"{n.count} × {c.name}" for n, c in known) or self.t("net_none")
        nodes = self.plan.requirements.nodes
        if nodes <= 1:
            return Status.PASS, [self.t("net_single", nics=names)]
        need = self.policy.min_fabric_gbps
        best = max((c.speed_gbps for _, c in known), default=0.0)
        status = Status.PASS if best >= need else Status.FAIL
        return status, [self.t("net_multi", nodes=nodes, best=fmt_num(best), need=fmt_num(need))]

    def psu_power(self) -> tuple[Status, list[str]]:
        pf = power_figures(self.plan, self.catalog, self.policy)
        if pf.available_w is None:
            return Status.UNKNOWN, [_not_chosen("psu", self.lang)]
        reason: list[str] = []
        if pf.low_line_unknown:  # no low-line figure: only the 200-240 V rating bounds it from above
            why = self.t("power_low_line_unknown", psu=pf.low_line_unknown)
            if pf.upper_bound_w is not None and pf.draw_w > pf.upper_bound_w:
                over = self.t("power_over_high_line", draw=fmt_num(round(pf.draw_w)),
                              high=fmt_num(round(pf.upper_bound_w)))
                return Status.FAIL, [over, why]
            return Status.UNKNOWN, [why]
        if pf.low_line_unsupported:
            reason.append(self.t("power_low_line_none", psu=pf.low_line_unsupported))
        red = self.t("power_red", red=pf.redundant_units) if pf.redundant_units else ""
        reason.append(
            self.t(
                "power",
                need=fmt_num(round(pf.need_w)),
                draw=fmt_num(round(pf.draw_w)),
                headroom=fmt_num(pf.headroom_pct),
                avail=fmt_num(round(pf.available_w)),
                usable=pf.usable_units,
                unit=fmt_num(pf.unit_w or 0),
                red=red,
            )
        )
        if pf.missing:
            reason.append(self.t("power_missing", parts=self.join(pf.missing)))
        if pf.estimated:
            reason.append(self.t("power_estimated", parts=self.join(pf.estimated)))
        if not pf.base_included:
            reason.append(self.t("power_no_base"))
        from procurement.facility_summary import cord_lines  # amps per cord, the facility model's figures

        reason += cord_lines(power_budget(self.plan, self.catalog, self.policy), self.lang)
        ch = self.chassis
        one_failed = (pf.unit_w or 0) * (pf.usable_units + pf.redundant_units - 1)
        if (pf.available_w < pf.draw_w and ch is not None and ch.psu_power_brake and pf.redundant_units > 1
                and pf.draw_w <= one_failed):
            status = Status.ATTENTION  # the vendor power-brakes the GPUs past one failure (POWER-PSU-CAPACITY)
        elif pf.available_w < pf.draw_w:
            status = Status.FAIL  # the draw without the missing parts is a lower bound: already too much
        elif pf.missing or not pf.base_included:
            status = Status.UNKNOWN  # a sum with an unknown term is a lower bound: it proves nothing is enough
        elif pf.available_w < pf.need_w:
            status = Status.ATTENTION
        else:
            status = Status.PASS
        return status, reason

    def cooling(self) -> tuple[Status, list[str]]:
        if self.gpu is None:
            return Status.UNKNOWN, [_not_chosen("gpu", self.lang)]
        if self.chassis is None:
            return Status.UNKNOWN, [_not_chosen("chassis", self.lang)]
        status, reason = (
            Status.PASS,
            [self.t("cooling_kind", kind=t(f"checklist.cooling.{self.chassis.cooling}", self.lang))],
        )
        limit_w = self.chassis.max_gpu_tdp_w
        if self.gpu.tdp_w is not None and limit_w is not None:
            reason.append(self.t("cooling_tdp", tdp=fmt_num(self.gpu.tdp_w), limit=fmt_num(limit_w)))
            if self.gpu.tdp_w > limit_w:
                status = Status.FAIL
        else:  # a figure the catalog does not have (never guessed): a person has to check the sheet
            status = worse(status, Status.UNKNOWN)
            reason.append(self.t("cooling_tdp_unknown"))
        if self.gpu.cooling == GpuCooling.PASSIVE and not self.chassis.passive_gpu_ready:
            status = Status.FAIL
            reason.append(self.t("cooling_passive"))
        limit = self.policy.max_open_air_gpus
        if (
            self.gpu.cooling == GpuCooling.ACTIVE
            and self.gpu.segment == Segment.CONSUMER
            and self.plan.gpu.count > limit
        ):
            status = worse(status, Status.ATTENTION)
            reason.append(self.t("cooling_open_air", count=self.plan.gpu.count, max=fmt_num(limit)))
        return status, reason

    def os_driver(self) -> tuple[Status, list[str]]:
        if self.os is None:
            return Status.UNKNOWN, [_not_chosen("os", self.lang)]
        driver = self.driver.version if self.driver else self.t("unknown_value")
        if not self.os.driver_supported:
            return Status.FAIL, [self.t("os_unsupported", os=self.os.name)]
        reason = [self.t("os_supported", os=self.os.name, driver=driver)]
        status = Status.PASS if self.driver else Status.UNKNOWN
        max_cuda = version_or_none(self.os.max_cuda)
        if self.os.max_cuda and self.cuda and max_cuda is None:
            # not a version (a user catalog's typo): the limit is unknown, never read as 0
            status = worse(status, Status.UNKNOWN)
            reason.append(self.t("os_max_cuda_unknown", os=self.os.name, max=self.os.max_cuda))
        elif max_cuda and self.cuda and parse_version(self.cuda.version)[:2] > max_cuda[:2]:
            status = Status.FAIL
            reason.append(self.t("os_max_cuda", os=self.os.name, max=self.os.max_cuda, cuda=self.cuda.version))
        return status, reason

    def cuda_gpu(self) -> tuple[Status, list[str]]:
        if self.cuda is None:
            return Status.UNKNOWN, [_not_chosen("cuda", self.lang)]
        if self.gpu is None:
            return Status.UNKNOWN, [_not_chosen("gpu", self.lang)]
        cc = self.gpu.cc_tuple
        status, reason = Status.PASS, []
        if not (parse_version(self.cuda.min_cc) <= cc <= parse_version(self.cuda.max_cc)):
            status = Status.FAIL
            reason.append(
                self.t(
                    "cuda_cc",
                    cuda=self.cuda.version,
                    min=self.cuda.min_cc,
                    max=self.cuda.max_cc,
                    cc=self.gpu.compute_capability,
                )
            )
        if self.driver is None:
            status = worse(status, Status.UNKNOWN)
            reason.append(_not_chosen("driver", self.lang))
        elif parse_version(self.driver.version) < parse_version(self.cuda.min_driver_linux):
            status = Status.FAIL
            reason.append(
                self.t(
                    "cuda_driver",
                    driver=self.driver.version,
                    cuda=self.cuda.version,
                    need=self.cuda.min_driver_linux,
                )
            )
        if not reason or status == Status.PASS:
            reason = [
                self.t(
                    "cuda_ok",
                    cuda=self.cuda.version,
                    cc=self.gpu.compute_capability,
                    min=self.cuda.min_cc,
                    max=self.cuda.max_cc,
                    driver=self.driver.version if self.driver else "?",
                    need=self.cuda.min_driver_linux,
                )
            ]
        return status, reason

    def framework_installed(self) -> tuple[Status, list[str]]:
        if self.framework is None:
            return Status.UNKNOWN, [_not_chosen("framework", self.lang)]
        lines = ", ".join(self.framework.cuda_versions)
        if self.cuda is not None:
            line = ".".join(self.cuda.version.split(".")[:2])
            if line not in self.framework.cuda_versions:
                return Status.FAIL, [self.t("framework_no_cuda", fw=self.framework.name, cuda=line, lines=lines)]
        return Status.PASS, [self.t("framework_cuda", fw=self.framework.name, lines=lines)]

    def preinstalled_software(self) -> tuple[Status, list[str]]:
        if self.image is None:
            return Status.UNKNOWN, [_not_chosen("image", self.lang)]
        from procurement.rules.software import image_unknowns

        unknown, none = self.t("unknown_value"), self.t("none_value")
        img = self.image
        fw = self.catalog.typed(Framework, img.framework) if img.framework else None
        missing = image_unknowns(img, self.plan.software.framework, self.catalog)
        # what the catalog does not record is unknown (SW-IMAGE-UNKNOWN says which); what the image's own
        # documentation says it lacks is none, and comes from what is installed on top
        return Status.UNKNOWN if missing else Status.PASS, [
            self.t(
                "image_contents",
                ref=img.reference,
                cuda=img.cuda or (none if img.bundles_cuda is False else unknown),
                fw=fw.name if fw else (none if img.bundles_framework is False else unknown),
                py=img.python or unknown,
            )
        ]

    def image_trusted(self) -> tuple[Status, list[str]]:
        if self.image is None:
            return Status.UNKNOWN, [_not_chosen("image", self.lang)]
        if not self.image.trusted:
            return Status.FAIL, [self.t("image_untrusted", ref=self.image.reference, publisher=self.image.publisher)]
        return Status.PASS, [self.t("image", ref=self.image.reference, publisher=self.image.publisher)]


def build_checklists(
    plan: Plan,
    catalog: Catalog,
    findings: Iterable[Finding] | None = None,
    policy: Policy | None = None,
    lang: Lang = "zh",
) -> dict[Which, Checklist]:
    """Both checklists with every item's status, reason, note and measured values.

    ``findings`` defaults to ``procurement.rules.evaluate(plan, catalog, policy, lang)``. The items read the
    same budgets as the rules, computed once in one evaluation scope.
    """
    with resolved_once(plan, catalog):
        return _build_checklists(plan, catalog, findings, policy or default_policy(), lang)


def states_unknown(finding: Finding) -> bool:
    """Whether a finding says that something its item rests on is unknown (the ``…-UNKNOWN`` rules: no wattage,
    no airflow, no fan redundancy, no lane count …): the item is then unknown, even for an Info finding."""
    return finding.rule.endswith("-UNKNOWN") or "-UNKNOWN-" in finding.rule


def _person_says(ev: _Eval, status: Status, reason: list[str], mark: ChecklistMark | None,
                 related: list[Finding]) -> tuple[Status, list[str], bool]:
    """A person's item that the plan shows nothing wrong with: only a person can say it is done. Where the app's
    own evidence is unknown (an image whose CUDA and framework the catalog does not record), a bare tick proves
    nothing: it stays unknown until a named person confirms it with a note, shown as confirmed by them.
    Returns the status, the reason and whether the evidence is unknown."""
    evidence_unknown = status == Status.UNKNOWN or any(
        states_unknown(f) and f.waived is None and f.severity != Severity.ERROR for f in related)
    checked = bool(mark and mark.checked)
    if checked and not evidence_unknown:
        return Status.PASS, [*reason, ev.t("person_ok")], evidence_unknown
    named = bool(mark and mark.by.strip() and mark.note.strip())
    return Status.UNKNOWN, [*reason, ev.t("needs_name" if checked and not named else "await_person")], \
        evidence_unknown


def _with_findings(status: Status, reason: list[str], related: list[Finding], lang: Lang) -> Status:
    """The item's status after its findings (their words appended to ``reason``)."""
    for f in related:
        unknown = states_unknown(f)
        if f.waived is not None:
            pass  # accepted on purpose: listed in the reason (its message says so), the status unchanged
        elif f.severity == Severity.ERROR:
            status = Status.FAIL
        elif unknown:  # what the item rests on is unknown: never a pass, whatever the finding's severity
            status = worse(status, Status.UNKNOWN)
        elif f.severity == Severity.WARNING:
            status = worse(status, Status.ATTENTION)
        if f.severity != Severity.INFO or unknown:
            msg = f.message_text(lang).rstrip().rstrip("。.")  # the items' facts are joined with '；'
            sev = t("checklist.status.unknown", lang) if unknown and f.severity != Severity.ERROR else \
                t(f"severity.{f.severity.value}", lang)
            reason.append(t("checklist.r.finding", lang, sev=sev, msg=msg))
    return status


def _with_verification(status: Status, v: _Verified | None, person: bool, sep: str, lang: Lang) -> tuple[Status, str]:
    """The item's status after what the delivered machine showed (``v``: its verification, if any), and the
    words for what was measured."""
    if v is None:
        return status, ""
    vtext = t("checklist.r.verified", lang, actual=sep.join(v.actual)) if v.actual else ""
    if v.status == Status.FAIL:
        return Status.FAIL, vtext
    if v.status == Status.ATTENTION:
        return worse(status, Status.ATTENTION), vtext
    if v.status == Status.PASS and person and status == Status.UNKNOWN:
        return Status.PASS, vtext  # the machine shows it installed and working
    return status, vtext


def _build_checklists(
    plan: Plan, catalog: Catalog, findings: Iterable[Finding] | None, policy: Policy, lang: Lang
) -> dict[Which, Checklist]:
    if findings is None:
        from procurement.rules import evaluate

        findings = evaluate(plan, catalog, policy, lang)
    by_item: dict[str, list[Finding]] = {}
    for f in findings:
        for item in items_for_finding(f):
            by_item.setdefault(item, []).append(f)
    verified = _verification(plan, lang)
    ev = _Eval(plan, catalog, policy, lang)
    sep = _sep(lang)
    out: dict[Which, list[ChecklistItem]] = {"hardware": [], "software": []}
    for d in ITEMS:
        status, reason = getattr(ev, d.id)()
        mark = plan.checklist.get(d.id)
        checked = bool(mark and mark.checked)
        related = by_item.get(d.id, [])
        evidence_unknown = False
        if d.person and status != Status.FAIL:
            status, reason, evidence_unknown = _person_says(ev, status, reason, mark, related)
        status = _with_findings(status, reason, related, lang)
        confirmed_by = ""
        if status == Status.UNKNOWN and checked and mark and mark.by.strip() and mark.note.strip():
            # only a named person with a note lifts an unknown, and it shows as confirmed, never as a pass
            status, confirmed_by = Status.CONFIRMED, mark.by.strip()
            reason = [r for r in reason if r not in (ev.t("await_person"), ev.t("needs_name"))]
            reason = [*reason, t("checklist.r.confirmed_by", lang, name=prose(mark.by), note=prose(mark.note))]
        status, vtext = _with_verification(status, verified.get(d.id), d.person, sep, lang)
        out[d.which].append(
            ChecklistItem(
                id=d.id,
                which=d.which,
                label=t(f"checklist.item.{d.id}", lang),
                status=status,
                reason=sep.join(reason),
                person=d.person,
                checked=checked,
                note=mark.note if mark else "",
                rules=tuple(dict.fromkeys(f.rule for f in related)),
                verified=vtext,
                fields=d.fields,
                confirmed_by=confirmed_by if status == Status.CONFIRMED else "",
                needs_confirmation=evidence_unknown,
            )
        )
    return {which: Checklist(which, t(f"checklist.{which}", lang), tuple(items)) for which, items in out.items()}


# ---------------------------------------------------------------- a person's marks


def mark(plan: Plan, item_id: str, checked: bool, note: str = "", by: str = "") -> Plan:
    """A new Plan with a person's tick and note on one checklist item (``by``: who, for a confirmation)."""
    if item_id not in ITEM_IDS:
        raise ValueError(f"unknown checklist item {item_id!r} (known: {', '.join(ITEM_IDS)})")
    marks = {**plan.checklist, item_id: ChecklistMark(checked=checked, note=note, by=by)}
    return plan.model_copy(update={"checklist": marks})


def confirm(plan: Plan, item_id: str, by: str, note: str, lang: Lang = "zh") -> Plan:
    """A person confirms an automatic item the app cannot decide (unknown): only with their name and a note;
    it then shows as 'confirmed by <name>', never as an automatic pass."""
    if not by.strip() or not note.strip():
        raise ValueError(t("checklist.confirm_needs", lang))
    return mark(plan, item_id, True, note.strip(), by.strip())


def status_label(status: Status, lang: Lang = "zh") -> str:
    return t(f"checklist.status.{status.value}", lang)


def item_status_text(item: ChecklistItem, lang: Lang = "zh") -> str:
    """The status as shown on screen and on paper: 'confirmed by 王工' for a person's confirmation."""
    if item.status == Status.CONFIRMED and item.confirmed_by:
        return t("checklist.status.confirmed_by", lang, name=item.confirmed_by)
    return status_label(item.status, lang)


def confirmation_findings(plan: Plan, checklists: dict[Which, Checklist]) -> list[Finding]:
    """One CHECKLIST-CONFIRMED (info) per automatic item a person confirmed, so that `check` says who vouched
    for what the app could not decide. They store codes: shown in the reader's language."""
    out = []
    for item in all_items(checklists):
        mark = plan.checklist.get(item.id)
        if item.status == Status.CONFIRMED and mark is not None:
            note = mark.note.strip()
            out.append(Finding(rule="CHECKLIST-CONFIRMED", family="checklist", severity=Severity.INFO, step=5,
                               fields=(f"checklist.{item.id}",),
                               coded_message=coded("checklist.confirmed_finding", item=_item_label(item),
                                                   name=item.confirmed_by, note=note),
                               stated_params=(("item", item.id),)))
    return out


def _item_label(item: ChecklistItem) -> Coded:
    """An item's label in no one language: the code its ``label`` was rendered from."""
    return coded(f"checklist.item.{item.id}")


def all_items(checklists: dict[Which, Checklist]) -> Sequence[ChecklistItem]:
    return [i for c in checklists.values() for i in c.items]

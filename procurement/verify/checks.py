"""The declared verification checks: one function per check id, each pass/fail/warn/unknown/skip with why.

`CHECKS` lists every node check in report order (docs/verify.md's table is tested against it). A check
judges what the probes found (`Facts`) against the plan and the catalog; when a value it needs could not be
read it says `unknown` and names what and where, never `pass`. "Every GPU" is said only when every GPU was
read.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from catalog.loader import Catalog
from catalog.models import (
    ContainerImage,
    Cpu,
    DriverBranch,
    Framework,
    Gpu,
    GpuFormFactor,
    MemoryModule,
    Nic,
    OperatingSystem,
    Segment,
    Storage,
    StorageKind,
    parse_version,
    version_or_none,
)
from catalog.units import BYTES_PER_GB, BYTES_PER_MIB
from procurement import verification_texts  # noqa: F401  (registers the messages)
from procurement.messages import Lang, t
from procurement.plan import Plan
from procurement.policy import Policy
from procurement.verify.health import (
    IbPort,
    KernelFault,
    LoadFacts,
    XidEvent,
    lspci_gpus,
)
from procurement.verify.host import HostInfo
from procurement.verify.report import CheckRecord, CheckStatus, Coded, GpuRecord, make_check, render_value
from procurement.verify.runner import CommandResult
from procurement.verify.smi_xml import SmiGpu, SmiReport
from procurement.verify.topo import Topology


@dataclass
class Facts:
    """Everything the probes found on one machine (parsed from the raw facts)."""

    smi: SmiReport | None
    host: HostInfo
    topo: Topology | None = None
    benchmark: dict[str, object] | None = None
    benchmark_skip: str | None = None
    parts: dict[int, Gpu | None] = field(default_factory=dict)
    """GPU index -> matched catalog part."""
    smi_check: CheckRecord | None = None
    """The NVIDIA-SMI check, judged from how nvidia-smi ran (procurement.verify.judge)."""
    topo_error: str | None = None
    """Why `nvidia-smi topo -m` gave no matrix (None: it did, or was not run)."""
    xid: list[XidEvent] | None = None
    """Xid events from the kernel log; None when the log could not be read."""
    kernel_log_error: str | Coded | None = None
    aer: dict[str, dict[str, int | None]] = field(default_factory=dict)
    """sysfs bus id -> {'correctable': n, 'nonfatal': n, 'fatal': n} (None: not readable)."""
    ib_ports: list[IbPort] | None = None
    """InfiniBand/RoCE ports (sysfs, else ibstat); None when neither was available."""
    lspci: str | None = None
    """`lspci -nn -D` output (None: not run or failed)."""
    lspci_error: str | Coded | None = None
    fabricmanager: str | None = None
    """`systemctl is-active nvidia-fabricmanager`: 'active', 'inactive', 'failed', … (None: not asked)."""
    load: LoadFacts | None = None
    nvlink: CommandResult | None = None
    """`nvidia-smi nvlink -s` as run (None: not run)."""
    nvlink_errors: CommandResult | None = None
    """`nvidia-smi nvlink -e` as run (None: not run)."""
    kernel_faults: list[KernelFault] = field(default_factory=list)
    """Fatal NVRM lines without an Xid (a GPU fallen off the bus, a failed initialisation)."""
    ib_reader_error: str | None = None
    """The InfiniBand reader (ibstat) that failed: tool, device where it names one, exit and first error line."""
    deadline_s: float | None = None
    """The whole run's deadline (raw `deadline_s`)."""


# ---------------------------------------------------------------- matching and labels


def _norm(name: str) -> str:
    return " ".join(name.split()).casefold()


def match_gpu(name: str | None, catalog: Catalog) -> Gpu | None:
    """The catalog GPU whose smi_names include ``name`` (as nvidia-smi prints it), or None."""
    if not name:
        return None
    key = _norm(name)
    for gpu in catalog.all(Gpu):
        if any(_norm(n) == key for n in gpu.smi_names):
            return gpu
    return None


def gpu_record(g: SmiGpu, part: Gpu | None) -> GpuRecord:
    return GpuRecord(
        index=g.index,
        name=g.name,
        catalog_id=part.id if part else None,
        uuid=g.uuid,
        serial=g.serial,
        memory_total_mib=g.memory_total_mib,
        pcie_gen_current=g.pcie_gen_current,
        pcie_gen_max=g.pcie_gen_max,
        pcie_width_current=g.pcie_width_current,
        pcie_width_max=g.pcie_width_max,
        power_limit_w=g.power_limit_w,
        persistence_mode=g.persistence_mode,
        ecc_enabled=g.ecc_enabled,
        temperature_c=g.temperature_c,
        mig_mode=g.mig_mode,
        bus_id=g.bus_id,
        vbios_version=g.vbios_version,
        board_part_number=g.board_part_number,
        faults=[f"{path}: {value}" for path, value in g.faults],
    )


def _label(g: SmiGpu) -> str:
    """'GPU3 (00000000:B5:00.0)': the index and the slot it sits in."""
    return f"GPU{g.index} ({g.bus_id})" if g.bus_id else f"GPU{g.index}"


def _labels(gpus: Iterable[SmiGpu]) -> str:
    return ", ".join(_label(g) for g in gpus)


def _gpus_label(indexes: Iterable[int]) -> str:
    return ", ".join(f"GPU{i}" for i in indexes)


# ---------------------------------------------------------------- the registry


@dataclass
class Ctx:
    """What every check reads, and where it writes its one record."""

    facts: Facts
    plan: Plan | None
    catalog: Catalog
    lang: Lang
    checks: list[CheckRecord] = field(default_factory=list)
    policy: Policy | None = None
    """Thresholds (PSU headroom); None: the shipped policy."""

    @property
    def smi(self) -> SmiReport | None:
        return self.facts.smi

    @property
    def gpus(self) -> list[SmiGpu]:
        return self.facts.smi.gpus if self.facts.smi else []

    @property
    def planned(self) -> Gpu | None:
        plan = self.plan
        return self.catalog.gpu(plan.gpu.model) if plan and plan.gpu.model else None

    def part(self, g: SmiGpu) -> Gpu | None:
        return self.facts.parts.get(g.index)

    def v(self, key: str, **fields: object) -> Coded:
        """A value for the Expected/Actual columns in no one language ('Enabled' / '已启用'): stored as its
        code and parameters, rendered in each reader's language."""
        return Coded(code=f"verify.val.{key}", params=fields)

    def cores(self, cores: int, sockets: int | None) -> Coded:
        key = "cores_socket" if sockets == 1 else "cores_sockets"
        return self.v(key, cores=cores, sockets=sockets if sockets is not None else "?")

    def add(
        self,
        check_id: str,
        status: CheckStatus,
        key: str,
        expected: object = None,
        actual: object = None,
        **fields: object,
    ) -> None:
        code = f"verify.{key}"
        text = t(code, self.lang, **{k: render_value(v, self.lang) for k, v in fields.items()})
        self.checks.append(make_check(check_id, status, text, expected, actual, code, fields, self.lang))

    def unread(self, check_id: str, gpus: list[SmiGpu], expected: object = None, actual: object = None) -> None:
        """`unknown`: the check's reading failed on these GPUs, so nothing is said about them."""
        why = "; ".join(
            f"{_label(g)}: " + (", ".join(f"{p} {v}" for p, v in g.faults[:3]) or "N/A")
            for g in gpus
        )
        self.add(check_id, "unknown", "unknown.unread", expected, actual, gpus=_labels(gpus), why=why)


@dataclass(frozen=True)
class CheckSpec:
    id: str
    family: str
    """'gpu', 'health', 'host', 'network', 'software', 'load'."""
    fn: Callable[[Ctx], None]
    needs_smi: bool = False
    """Without a readable nvidia-smi report the check is `unknown` (not run)."""


CHECKS: dict[str, CheckSpec] = {}


CheckFn = Callable[[Ctx], None]


def check(check_id: str, family: str, needs_smi: bool = False) -> Callable[[CheckFn], CheckFn]:
    """Declare the function that judges ``check_id`` (one function per id, registered in report order)."""

    def register(fn: CheckFn) -> CheckFn:
        if check_id in CHECKS:
            raise ValueError(f"check {check_id} declared twice")
        CHECKS[check_id] = CheckSpec(check_id, family, fn, needs_smi)
        return fn

    return register


def evaluate(
    facts: Facts, plan: Plan | None, catalog: Catalog, lang: Lang = "zh", policy: Policy | None = None
) -> list[CheckRecord]:
    """Every declared check for one machine, in declaration order."""
    ctx = Ctx(facts, plan, catalog, lang, policy=policy)
    for spec in CHECKS.values():
        if spec.needs_smi and facts.smi is None:
            ctx.add(spec.id, "unknown", "unknown.no_smi")
            continue
        spec.fn(ctx)
    return ctx.checks


# ---------------------------------------------------------------- per-GPU verdicts (also used by the GUI)


def gpu_verdicts(g: SmiGpu | GpuRecord, part: Gpu | None) -> dict[str, CheckStatus]:
    """Per-GPU pass/fail/warn/unknown for the checks that can be judged from one GPU's report fields."""
    out: dict[str, CheckStatus] = {}
    faults = g.faults if isinstance(g, GpuRecord) else [f"{p}: {v}" for p, v in g.faults]
    if faults:
        out["GPU-READINGS"] = "fail"
    if g.pcie_width_current is not None and g.pcie_width_max is not None:
        short = g.pcie_width_current < g.pcie_width_max or (
            part is not None and g.pcie_width_max < part.pcie_lanes
        )
        out["PCIE-WIDTH"] = "fail" if short else "pass"
    if g.pcie_gen_current is not None and g.pcie_gen_max is not None:
        if part is not None and g.pcie_gen_max < part.pcie_gen:
            out["PCIE-GEN"] = "fail"
        else:
            out["PCIE-GEN"] = "warn" if g.pcie_gen_current < g.pcie_gen_max else "pass"
    if g.persistence_mode is not None:
        out["PERSISTENCE"] = "pass" if g.persistence_mode else "warn"
    if g.ecc_enabled is not None:
        required = _ecc_required(part)
        out["ECC"] = "pass" if g.ecc_enabled else ("fail" if required else "warn")
    if part is not None:
        if g.memory_total_mib is not None:
            out["GPU-MEMORY"] = "pass" if _memory_ok(g.memory_total_mib, part) else "fail"
        elif faults:
            out["GPU-MEMORY"] = "unknown"
    return out


def _ecc_required(part: Gpu | None) -> bool:
    """ECC off fails on data-centre GPUs (ECC is their default); elsewhere it is a warning."""
    return part is not None and part.segment == Segment.DATACENTER


def _memory_ok(mib: int, part: Gpu) -> bool:
    # Datasheets give decimal GB (T4 "16 GB" shows as 15360 MiB = 16.1e9 bytes); nvidia-smi shows MiB
    # after the driver's reservation. Comparing bytes against decimal GB tolerates both and still catches a
    # 40 GB card delivered for an 80 GB one.
    return mib * BYTES_PER_MIB >= part.memory_gib * BYTES_PER_GB


def _missing(gpus: list[SmiGpu], *attrs: str) -> list[SmiGpu]:
    """GPUs where any of ``attrs`` has no reading while other GPUs have one, or where it was a fault."""
    out = []
    for g in gpus:
        for a in attrs:
            if getattr(g, a) is None and (a in g.unreadable or any(getattr(o, a) is not None for o in gpus)):
                out.append(g)
                break
    return out


# ---------------------------------------------------------------- GPU inventory


@check("NVIDIA-SMI", "gpu")
def _nvidia_smi(c: Ctx) -> None:
    if c.facts.smi_check is not None:
        c.checks.append(c.facts.smi_check)


@check("GPU-READINGS", "gpu", needs_smi=True)
def _gpu_readings(c: Ctx) -> None:
    faulty = [g for g in c.gpus if g.faults]
    if not faulty:
        c.add("GPU-READINGS", "pass", "readings.pass", None, None, n=len(c.gpus))
        return
    which = "; ".join(
        f"{_label(g)}: " + ", ".join(f"{p} = {v}" for p, v in g.faults[:4]) + (" …" if len(g.faults) > 4 else "")
        for g in faulty
    )
    c.add("GPU-READINGS", "fail", "readings.fail", None, which, gpus=_labels(faulty), which=which)


@check("GPU-VISIBLE", "gpu", needs_smi=True)
def _gpu_visible(c: Ctx) -> None:
    smi = c.smi
    assert smi is not None
    n = len(smi.gpus)
    if smi.attached_gpus is not None and smi.attached_gpus > n:
        c.add("GPU-VISIBLE", "fail", "gpu_visible.fail", smi.attached_gpus, n, attached=smi.attached_gpus, n=n)
    else:
        c.add("GPU-VISIBLE", "pass", "gpu_visible.pass", smi.attached_gpus, n, n=n)


@check("GPU-PCI-COUNT", "gpu", needs_smi=True)
def _gpu_pci_count(c: Ctx) -> None:
    """GPUs on the PCI bus (lspci) vs GPUs the driver shows: one the driver lost is still on the bus."""
    n = len(c.gpus)
    if c.facts.lspci is None:
        c.add("GPU-PCI-COUNT", "unknown", "pci_count.unknown", None, n, why=c.facts.lspci_error or "-")
        return
    on_bus = lspci_gpus(c.facts.lspci)
    if len(on_bus) > n:
        driven = {(g.bus_id or "").lower()[-7:] for g in c.gpus}
        lost = [b for b in on_bus if b.lower()[-7:] not in driven]
        c.add("GPU-PCI-COUNT", "fail", "pci_count.fail", len(on_bus), n, bus=len(on_bus), n=n,
              lost=", ".join(lost) or "-")
    elif len(on_bus) < n:
        # the driver cannot see a GPU the bus does not have: the listing is incomplete (an empty lspci that
        # exited 0, a container without the host's PCI tree), not a confirmation
        why = c.v("lspci_short", bus=len(on_bus), n=n)
        c.add("GPU-PCI-COUNT", "unknown", "pci_count.unknown", None, n, why=why)
    else:
        c.add("GPU-PCI-COUNT", "pass", "pci_count.pass", len(on_bus), n, n=n)


def _part_id(part: Gpu | None) -> str | None:
    return part.id if part is not None else None


@check("GPU-MODEL", "gpu", needs_smi=True)
def _gpu_model(c: Ctx) -> None:
    gpus = c.gpus
    names = Counter(g.name or "?" for g in gpus)
    actual = ", ".join(f"{k}× {name}" for name, k in names.items()) or "-"
    planned = c.planned
    plan = c.plan
    unnamed = [g for g in gpus if g.name is None]
    if plan is not None and plan.gpu.model:
        expected = planned.name if planned else plan.gpu.model
        if planned is not None and not planned.smi_names:
            c.add("GPU-MODEL", "warn", "gpu_model.no_names", expected, actual, part=expected)
            return
        wrong = [g for g in gpus if (g.name is not None and (p := c.part(g)) is not None and p.id != plan.gpu.model)
                 or (g.name is not None and c.part(g) is None)]
        if not gpus:
            c.add("GPU-MODEL", "fail", "gpu_model.none", expected, actual)
        elif wrong:
            c.add("GPU-MODEL", "fail", "gpu_model.fail", expected, actual, gpus=_labels(wrong), part=expected)
        elif unnamed:
            c.unread("GPU-MODEL", unnamed, expected, actual)
        else:
            c.add("GPU-MODEL", "pass", "gpu_model.pass", expected, actual, part=expected)
        return
    if unnamed:
        c.unread("GPU-MODEL", unnamed, None, actual)
    elif unknown := [g.index for g in gpus if c.part(g) is None]:
        c.add("GPU-MODEL", "warn", "gpu_model.unknown", None, actual, gpus=_gpus_label(unknown))
    elif len(names) > 1:
        c.add("GPU-MODEL", "warn", "gpu_model.mixed", None, actual)
    else:
        c.add("GPU-MODEL", "pass", "gpu_model.inventory", None, actual)


@check("GPU-COUNT", "gpu", needs_smi=True)
def _gpu_count(c: Ctx) -> None:
    n = len(c.gpus)
    uuids = [g.uuid for g in c.gpus if g.uuid]
    repeated = sorted({u for u in uuids if uuids.count(u) > 1})
    if repeated:
        # one GPU listed twice (an edited or replayed report): four GPUs each twice passed GPU-COUNT 8
        c.add("GPU-COUNT", "fail", "gpu_count.duplicate_uuid", c.plan.gpu.count if c.plan else None, n, n=n,
              distinct=n - sum(uuids.count(u) - 1 for u in repeated), uuids=", ".join(repeated[:4]))
        return
    if c.plan is None or c.plan.gpu.count <= 0:
        c.add("GPU-COUNT", "skip", "gpu_count.no_plan", None, n, n=n)
        return
    want = c.plan.gpu.count
    if n == want:
        c.add("GPU-COUNT", "pass", "gpu_count.pass", want, n, n=n)
    elif n < want:
        c.add("GPU-COUNT", "fail", "gpu_count.fewer", want, n, n=n, want=want)
    else:
        c.add("GPU-COUNT", "warn", "gpu_count.more", want, n, n=n, want=want)


@check("GPU-MEMORY", "gpu", needs_smi=True)
def _gpu_memory(c: Ctx) -> None:
    gpus, planned = c.gpus, c.planned
    short, unread, judged = [], [], 0
    for g in gpus:
        ref = planned or c.part(g)
        if g.memory_total_mib is None:
            if ref is not None or "memory_total_mib" in g.unreadable:
                unread.append(g)
            continue
        if ref is None:
            continue
        judged += 1
        if not _memory_ok(g.memory_total_mib, ref):
            short.append(g)
    actual = ", ".join(sorted({f"{g.memory_total_mib} MiB" for g in gpus if g.memory_total_mib})) or None
    ref_part = planned or next((p for p in c.facts.parts.values() if p is not None), None)
    expected = f"≥ {ref_part.memory_gib:g} GB" if ref_part else None
    if short:
        c.add("GPU-MEMORY", "fail", "gpu_memory.fail", expected, actual, gpus=_labels(short))
    elif unread:
        c.unread("GPU-MEMORY", unread, expected, actual)
    elif judged:
        c.add("GPU-MEMORY", "pass", "gpu_memory.pass", expected, actual, n=judged)
    else:
        c.add("GPU-MEMORY", "skip", "gpu_memory.skip", None, actual)


@check("PCIE-WIDTH", "gpu", needs_smi=True)
def _pcie_width(c: Ctx) -> None:
    gpus, planned = c.gpus, c.planned
    known = [g for g in gpus if g.pcie_width_current is not None and g.pcie_width_max is not None]
    unread = _missing(gpus, "pcie_width_current", "pcie_width_max")
    if not known and not unread:
        c.add("PCIE-WIDTH", "skip", "pcie.skip")
        return
    bad = []
    for g in known:
        part = c.part(g) or planned  # the card actually in the slot: its own link width
        assert g.pcie_width_current is not None and g.pcie_width_max is not None
        if g.pcie_width_current < g.pcie_width_max:
            bad.append(f"{_label(g)} x{g.pcie_width_current} (max x{g.pcie_width_max})")
        elif part is not None and g.pcie_width_max < part.pcie_lanes:
            bad.append(f"{_label(g)} x{g.pcie_width_max} ({part.name}: x{part.pcie_lanes})")
    widths = sorted({g.pcie_width_max for g in known if g.pcie_width_max})
    rated = sorted({p.pcie_lanes for g in known if (p := c.part(g) or planned) is not None})
    expected = "/".join(f"x{w}" for w in (rated or widths))
    if bad:
        c.add("PCIE-WIDTH", "fail", "pcie_width.fail", expected, "; ".join(bad), which="; ".join(bad))
    elif unread:
        c.unread("PCIE-WIDTH", unread, expected)
    else:
        c.add("PCIE-WIDTH", "pass", "pcie_width.pass", expected, expected, n=len(known))


@check("PCIE-GEN", "gpu", needs_smi=True)
def _pcie_gen(c: Ctx) -> None:
    gpus, planned = c.gpus, c.planned
    known = [g for g in gpus if g.pcie_gen_current is not None and g.pcie_gen_max is not None]
    unread = _missing(gpus, "pcie_gen_current", "pcie_gen_max")
    if not known and not unread:
        c.add("PCIE-GEN", "skip", "pcie.skip")
        return
    capped, idle = [], []
    for g in known:
        # The detected card's own catalog entry: a wrong card delivered (GPU-MODEL fails) is not the slot's
        # fault, so its link is judged against what that card itself supports.
        part = c.part(g) or planned
        assert g.pcie_gen_current is not None and g.pcie_gen_max is not None
        if part is not None and g.pcie_gen_max < part.pcie_gen:
            capped.append(f"{_label(g)} Gen{g.pcie_gen_max} ({part.name}: Gen{part.pcie_gen})")
        elif g.pcie_gen_current < g.pcie_gen_max:
            idle.append(f"{_label(g)} Gen{g.pcie_gen_current} (max Gen{g.pcie_gen_max})")
    gens = sorted({g.pcie_gen_max for g in known if g.pcie_gen_max})
    rated = sorted({p.pcie_gen for g in known if (p := c.part(g) or planned) is not None})
    expected = "/".join(f"Gen{x}" for x in (rated or gens))
    if capped:
        c.add("PCIE-GEN", "fail", "pcie_gen.fail", expected, "; ".join(capped), which="; ".join(capped))
    elif unread:
        c.unread("PCIE-GEN", unread, expected)
    elif idle:
        c.add("PCIE-GEN", "warn", "pcie_gen.idle", expected, "; ".join(idle), which="; ".join(idle))
    else:
        c.add("PCIE-GEN", "pass", "pcie_gen.pass", expected, expected, n=len(known))


# ---------------------------------------------------------------- GPU configuration


@check("PERSISTENCE", "gpu", needs_smi=True)
def _persistence(c: Ctx) -> None:
    gpus = c.gpus
    off = [g.index for g in gpus if g.persistence_mode is False]
    unread = _missing(gpus, "persistence_mode")
    if all(g.persistence_mode is None for g in gpus) and not unread:
        c.add("PERSISTENCE", "skip", "persistence.skip")
    elif off:
        c.add("PERSISTENCE", "warn", "persistence.off", c.v("enabled"), c.v("disabled_on", gpus=_gpus_label(off)),
              gpus=_gpus_label(off))
    elif unread:
        c.unread("PERSISTENCE", unread, c.v("enabled"))
    else:
        c.add("PERSISTENCE", "pass", "persistence.pass", c.v("enabled"), c.v("enabled"))


@check("ECC", "gpu", needs_smi=True)
def _ecc(c: Ctx) -> None:
    gpus, planned = c.gpus, c.planned
    unread = _missing(gpus, "ecc_enabled")
    if all(g.ecc_enabled is None for g in gpus) and not unread:
        c.add("ECC", "skip", "ecc.skip")
        return
    required_off: list[int] = []
    optional_off: list[int] = []
    pending: list[int] = []
    for g in gpus:
        required = _ecc_required(planned or c.part(g))
        if g.ecc_enabled is False:
            (required_off if required else optional_off).append(g.index)
        if g.ecc_pending is not None and g.ecc_enabled is not None and g.ecc_pending != g.ecc_enabled:
            pending.append(g.index)
    if required_off:
        c.add("ECC", "fail", "ecc.fail", c.v("enabled"), c.v("disabled_on", gpus=_gpus_label(required_off)),
              gpus=_gpus_label(required_off))
    elif unread:
        c.unread("ECC", unread, c.v("enabled"))
    elif optional_off or pending:
        idx = sorted(set(optional_off + pending))
        c.add("ECC", "warn", "ecc.warn", c.v("enabled"), c.v("disabled_pending_on", gpus=_gpus_label(idx)),
              gpus=_gpus_label(idx))
    else:
        c.add("ECC", "pass", "ecc.pass", c.v("enabled"), c.v("enabled"))


@check("POWER-LIMIT", "gpu", needs_smi=True)
def _power_limit(c: Ctx) -> None:
    gpus = c.gpus
    known = [g for g in gpus if g.power_limit_w is not None and g.default_power_limit_w is not None]
    unread = _missing(gpus, "power_limit_w", "default_power_limit_w")
    if not known and not unread:
        c.add("POWER-LIMIT", "skip", "power.skip")
        return
    low = [g for g in known if g.power_limit_w < g.default_power_limit_w]  # type: ignore[operator]
    defaults = "/".join(sorted({f"{g.default_power_limit_w:g} W" for g in known})) or "-"
    if low:
        which = c.v("list", items=[c.v("power_capped", gpu=_label(g), w=f"{g.power_limit_w:g}",
                                       default=c.v("default_w", w=f"{g.default_power_limit_w:g}")) for g in low])
        c.add("POWER-LIMIT", "fail", "power.fail", f"≥ {defaults}", which, which=which,
              watts=f"{low[0].default_power_limit_w:g}")
    elif unread:
        c.unread("POWER-LIMIT", unread, f"≥ {defaults}")
    else:
        limits = "/".join(sorted({f"{g.power_limit_w:g} W" for g in known}))
        c.add("POWER-LIMIT", "pass", "power.pass", f"≥ {defaults}", limits)


@check("MIG", "gpu", needs_smi=True)
def _mig(c: Ctx) -> None:
    gpus, plan = c.gpus, c.plan
    needs_mig = plan is not None and plan.requirements.needs_mig
    enabled = [g for g in gpus if g.mig_mode]
    pending = [g for g in gpus if g.mig_pending is not None and g.mig_mode is not None and g.mig_pending != g.mig_mode]
    if needs_mig:
        unsupported = [g.index for g in gpus if g.mig_mode is None]
        if unsupported:
            c.add("MIG", "fail", "mig.unsupported", "MIG", f"N/A: {_gpus_label(unsupported)}",
                  gpus=_gpus_label(unsupported))
            return
    if pending:
        # The mode shown is not the mode the GPU will run in after its next reset: nothing settled to judge.
        c.add("MIG", "warn", "mig.pending", None, _mig_actual(gpus, c), gpus=_labels(pending))
    elif needs_mig:
        c.add("MIG", "pass", "mig.supported", "MIG", _mig_actual(gpus, c))
    elif enabled:
        c.add("MIG", "warn" if plan is not None else "pass", "mig.enabled", None, _mig_actual(gpus, c),
              gpus=_gpus_label(g.index for g in enabled), first=enabled[0].index)
    elif any(g.mig_mode is False for g in gpus):
        c.add("MIG", "pass", "mig.off", None, c.v("disabled"))
    else:
        c.add("MIG", "skip", "mig.skip")


def _mig_actual(gpus: list[SmiGpu], c: Ctx) -> Coded | str:
    parts: list[Coded] = []
    for g in gpus:
        if g.mig_mode is None:
            continue
        now = c.v("mig_on", n=len(g.mig_devices)) if g.mig_mode else c.v("disabled")
        if g.mig_pending is not None and g.mig_pending != g.mig_mode:
            parts.append(c.v("gpu_pending", gpu=f"GPU{g.index}", now=now,
                             then=c.v("enabled") if g.mig_pending else c.v("disabled")))
        else:
            parts.append(c.v("gpu_state", gpu=f"GPU{g.index}", now=now))
    return c.v("list", items=parts) if parts else "N/A"


@check("VBIOS-CONSISTENT", "gpu", needs_smi=True)
def _vbios(c: Ctx) -> None:
    """Same model, same VBIOS and board part number: a mixed batch hides a reworked or grey-market card."""
    by_model: dict[str, list[SmiGpu]] = {}
    for g in c.gpus:
        by_model.setdefault(g.name or "?", []).append(g)
    odd = []
    for gpus in by_model.values():
        for attr in ("vbios_version", "board_part_number"):
            values = Counter(getattr(g, attr) for g in gpus if getattr(g, attr))
            if len(values) > 1:
                common = values.most_common(1)[0][0]
                odd += [f"{_label(g)} {attr} {getattr(g, attr)} (others {common})" for g in gpus
                        if getattr(g, attr) and getattr(g, attr) != common]
    seen = sorted({f"{g.vbios_version} / {g.board_part_number}" for g in c.gpus if g.vbios_version})
    if odd:
        c.add("VBIOS-CONSISTENT", "warn", "vbios.warn", None, "; ".join(odd), which="; ".join(odd))
    elif not seen:
        c.add("VBIOS-CONSISTENT", "skip", "vbios.skip")
    else:
        c.add("VBIOS-CONSISTENT", "pass", "vbios.pass", None, ", ".join(seen))


# ---------------------------------------------------------------- health


@check("MEMORY-RETIRED", "health", needs_smi=True)
def _memory_retired(c: Ctx) -> None:
    gpus = c.gpus
    pending = [g.index for g in gpus if g.retired_pending or g.remapped_pending]
    failed = [g.index for g in gpus if g.remapped_failure]
    retired = [g.index for g in gpus if (g.retired_pages or 0) > 0 or (g.remapped_uncorrectable or 0) > 0]
    judged = [g for g in gpus if g.retired_pending is not None or g.remapped_pending is not None]
    if failed:
        c.add("MEMORY-RETIRED", "fail", "retired.failure", c.v("no"), c.v("remap_failure", gpus=_gpus_label(failed)),
              gpus=_gpus_label(failed))
    elif pending:
        c.add("MEMORY-RETIRED", "fail", "retired.pending", c.v("no"), c.v("pending", gpus=_gpus_label(pending)),
              gpus=_gpus_label(pending))
    elif retired:
        c.add("MEMORY-RETIRED", "warn", "retired.some", "0", c.v("retired_pages", gpus=_gpus_label(retired)),
              gpus=_gpus_label(retired))
    elif judged and len(judged) < len(gpus):
        c.unread("MEMORY-RETIRED", [g for g in gpus if g not in judged], c.v("no"))
    elif judged:
        c.add("MEMORY-RETIRED", "pass", "retired.pass", c.v("no"), c.v("no"))
    else:
        c.add("MEMORY-RETIRED", "skip", "retired.skip")


@check("ECC-ERRORS", "health", needs_smi=True)
def _ecc_errors(c: Ctx) -> None:
    """Uncorrectable ECC errors since the driver loaded fail a new machine; lifetime ones are a warning."""
    gpus = c.gpus
    volatile = [g for g in gpus if (g.ecc_uncorrectable_volatile or 0) > 0]
    lifetime = [g for g in gpus if (g.ecc_uncorrectable_aggregate or 0) > 0]
    counted = [g for g in gpus if g.ecc_uncorrectable_aggregate is not None or g.ecc_uncorrectable_volatile is not None]
    if volatile:
        which = "; ".join(f"{_label(g)}: {g.ecc_uncorrectable_volatile}" for g in volatile)
        c.add("ECC-ERRORS", "fail", "ecc_errors.volatile", "0", which, which=which)
    elif lifetime:
        which = "; ".join(f"{_label(g)}: {g.ecc_uncorrectable_aggregate}" for g in lifetime)
        c.add("ECC-ERRORS", "warn", "ecc_errors.warn", "0", which, which=which)
    elif counted and len(counted) < len(gpus):
        c.unread("ECC-ERRORS", [g for g in gpus if g not in counted], "0")
    elif counted:
        c.add("ECC-ERRORS", "pass", "ecc_errors.pass", "0", "0")
    else:
        c.add("ECC-ERRORS", "skip", "ecc_errors.skip")


# Clock event reasons that mean the hardware protected itself (fail) or software cooled it (warn); the rest
# (idle, application clocks, software power cap, sync boost) are normal operation.
_THROTTLE_FAIL = ("hw_thermal_slowdown", "hw_slowdown", "hw_power_brake_slowdown")
_THROTTLE_WARN = ("sw_thermal_slowdown",)


@check("THROTTLE", "health", needs_smi=True)
def _throttle(c: Ctx) -> None:
    gpus = c.gpus
    hard = [(g, [r for r in _THROTTLE_FAIL if g.throttle.get(r)]) for g in gpus]
    hard = [(g, rs) for g, rs in hard if rs]
    soft = [(g, [r for r in _THROTTLE_WARN if g.throttle.get(r)]) for g in gpus]
    soft = [(g, rs) for g, rs in soft if rs]
    known = [g for g in gpus if g.throttle]
    if hard:
        which = "; ".join(f"{_label(g)}: {', '.join(rs)}" + (f" {g.temperature_c} °C" if g.temperature_c else "")
                          for g, rs in hard)
        c.add("THROTTLE", "fail", "throttle.fail", c.v("none"), which, which=which)
    elif soft:
        which = "; ".join(f"{_label(g)}: {', '.join(rs)}" for g, rs in soft)
        c.add("THROTTLE", "warn", "throttle.warn", c.v("none"), which, which=which)
    elif known and len(known) < len(gpus):
        c.unread("THROTTLE", [g for g in gpus if not g.throttle], c.v("none"))
    elif known:
        c.add("THROTTLE", "pass", "throttle.pass", c.v("none"), c.v("none"))
    else:
        c.add("THROTTLE", "skip", "throttle.skip")


@check("GPU-TEMP", "health", needs_smi=True)
def _gpu_temp(c: Ctx) -> None:
    """Temperature against the GPU's own slowdown and shutdown thresholds (nvidia-smi reports them)."""
    gpus = c.gpus
    hot: list[Coded] = []
    judged = []
    for g in gpus:
        if g.temperature_c is not None and g.temp_slowdown_c is not None:
            judged.append(g)
            if g.temp_shutdown_c is not None and g.temperature_c >= g.temp_shutdown_c:
                hot.append(c.v("temp_over", gpu=_label(g), t=g.temperature_c, limit=g.temp_shutdown_c,
                               kind=c.v("shutdown")))
            elif g.temperature_c >= g.temp_slowdown_c:
                hot.append(c.v("temp_over", gpu=_label(g), t=g.temperature_c, limit=g.temp_slowdown_c,
                               kind=c.v("slowdown")))
        elif g.tlimit_margin_c is not None and g.tlimit_slowdown_c is not None:
            # H100 and newer: T.Limit is the headroom to the GPU's own limit; slowdown starts when it
            # falls to the (negative) slowdown margin.
            judged.append(g)
            if g.tlimit_margin_c <= g.tlimit_slowdown_c:
                hot.append(c.v("tlimit_under", gpu=_label(g), t=g.tlimit_margin_c, limit=g.tlimit_slowdown_c))
    unread = [g for g in gpus if g.temperature_c is None and g.tlimit_margin_c is None
              and ("temperature_c" in g.unreadable or judged)]
    temps = ", ".join(f"GPU{g.index} {g.temperature_c} °C" for g in gpus if g.temperature_c is not None) or None
    if hot:
        c.add("GPU-TEMP", "fail", "temp.fail", c.v("below_slowdown"), c.v("list", items=hot),
              which=c.v("list", items=hot))
    elif unread:
        c.unread("GPU-TEMP", unread, c.v("below_slowdown"), temps)
    elif judged:
        c.add("GPU-TEMP", "pass", "temp.pass", c.v("below_slowdown"), temps, n=len(judged))
    else:
        c.add("GPU-TEMP", "skip", "temp.skip", None, temps)


@check("PCIE-ERRORS", "health", needs_smi=True)
def _pcie_errors(c: Ctx) -> None:
    """PCIe AER counters (sysfs) and the replay counter (nvidia-smi) of each GPU since boot."""
    from procurement.verify.raw import sysfs_bus_id

    fatal, soft = [], []
    read = 0
    for g in c.gpus:
        aer = c.facts.aer.get(sysfs_bus_id(g.bus_id)) if g.bus_id else None
        if aer:
            read += 1
            if (aer.get("fatal") or 0) > 0 or (aer.get("nonfatal") or 0) > 0:
                fatal.append(f"{_label(g)} AER fatal {aer.get('fatal')}, non-fatal {aer.get('nonfatal')}")
            elif (aer.get("correctable") or 0) > 0:
                soft.append(f"{_label(g)} AER correctable {aer.get('correctable')}")
        if g.replay_counter:
            soft.append(f"{_label(g)} replays {g.replay_counter}")
    if fatal:
        c.add("PCIE-ERRORS", "fail", "pcie_errors.fail", "0", "; ".join(fatal), which="; ".join(fatal))
    elif soft:
        c.add("PCIE-ERRORS", "warn", "pcie_errors.warn", "0", "; ".join(soft), which="; ".join(soft))
    elif read or any(g.replay_counter is not None for g in c.gpus):
        c.add("PCIE-ERRORS", "pass", "pcie_errors.pass", "0", "0")
    else:
        c.add("PCIE-ERRORS", "skip", "pcie_errors.skip")


@check("XID", "health", needs_smi=True)
def _xid(c: Ctx) -> None:
    """Xid events in the kernel log, each with NVIDIA's meaning and the action it calls for."""
    from procurement.verify.health import xid_info

    events = c.facts.xid
    if events is None:
        c.add("XID", "unknown", "xid.unknown", c.v("none"), None, why=c.facts.kernel_log_error or "-")
        return
    faults = c.facts.kernel_faults
    if not events and not faults:
        c.add("XID", "pass", "xid.pass", c.v("none"), c.v("none"))
        return
    groups: dict[tuple[str, int], int] = Counter((e.bus, e.code) for e in events)
    lines, worst = [], "warn"
    for (bus, kind), n in sorted(Counter((f.bus, f.kind) for f in faults).items()):
        # the driver's own words for a GPU it lost or could not start, with or without an Xid line
        worst = "fail"
        text = next(f.text for f in faults if f.bus == bus and f.kind == kind)
        action = t("verify.xid.action.driver" if kind == "init" else "verify.xid.action.reseat", c.lang)
        lines.append(f"{bus} ×{n}: {text} → {action}")
    for (bus, code), n in sorted(groups.items()):
        info = xid_info(code)
        if info.severity == "fail":
            worst = "fail"
        action = t(f"verify.xid.action.{info.action}", c.lang)
        lines.append(f"{bus} Xid {code} ×{n}: {info.meaning} → {action}")
    which = "; ".join(lines)
    key = "xid.nvrm" if faults else f"xid.{worst}"  # the driver's fault lines carry no Xid number: said so
    c.add("XID", "fail" if worst == "fail" else "warn", key, c.v("none"), which, which=which,
          n=len(events) + len(faults))


@check("FABRIC-MANAGER", "health", needs_smi=True)
def _fabric_manager(c: Ctx) -> None:
    """HGX/NVSwitch systems need nvidia-fabricmanager; without it CUDA cannot start on any GPU."""
    gpus = c.gpus
    states = [(g, g.fabric_state) for g in gpus if g.fabric_state is not None]
    service = c.facts.fabricmanager
    planned = c.planned
    expected = "Completed"
    if states:
        bad = [(g, s) for g, s in states if s.casefold() != "completed"]
        bad_status = [(g, g.fabric_status) for g, s in states
                      if s.casefold() == "completed" and g.fabric_status and g.fabric_status.casefold() != "success"]
        if bad or bad_status:
            which = "; ".join(f"{_label(g)}: {s}" for g, s in bad + bad_status)
            c.add("FABRIC-MANAGER", "fail", "fabric.fail", expected, which, which=which,
                  service=service or "-")
        elif service == "failed":
            # systemd says the daemon died: the fabric the GPUs report was trained before it did, and nothing
            # now handles NVSwitch errors or a GPU reset; the GPUs' state does not outrank the service's
            c.add("FABRIC-MANAGER", "fail", "fabric.service_failed", "active", service, n=len(states))
        elif service is not None and service not in ("active", "unknown"):
            c.add("FABRIC-MANAGER", "warn", "fabric.service_down", "active", service, service=service, n=len(states))
        else:
            c.add("FABRIC-MANAGER", "pass", "fabric.pass", expected, f"{expected} ({len(states)})")
        return
    needs = planned is not None and planned.form_factor == GpuFormFactor.SXM and c.plan is not None \
        and c.plan.gpu.count >= 8
    if service in ("failed", "inactive") and (needs or any(g.name and "SXM" in g.name for g in gpus)):
        c.add("FABRIC-MANAGER", "fail", "fabric.service", "active", service, service=service)
    elif needs and service == "active":
        c.add("FABRIC-MANAGER", "pass", "fabric.active", "active", service)
    elif needs:
        c.add("FABRIC-MANAGER", "unknown", "fabric.unknown", "active", service, service=service or "-")
    else:
        c.add("FABRIC-MANAGER", "skip", "fabric.skip", None, service)


def _nvlink_wanted(c: Ctx) -> bool:
    # SXM modules are always NVLinked on their baseboard; PCIe cards only with bridges the buyer may not
    # have ordered, so for them NVLink is expected only when the plan asks for it.
    planned, plan = c.planned, c.plan
    return plan is not None and (
        plan.requirements.needs_nvlink
        or (planned is not None and planned.form_factor == GpuFormFactor.SXM and plan.gpu.count > 1)
    )


@check("NVLINK", "gpu", needs_smi=True)
def _nvlink(c: Ctx) -> None:
    wanted = _nvlink_wanted(c)
    expected = "NVLink" if wanted else None
    topo = c.facts.topo
    if topo is None or len(topo.gpus) < 2:
        if wanted and len(c.gpus) > 1:
            c.add("NVLINK", "unknown", "nvlink.unknown", expected, None, why=c.facts.topo_error or "-")
        else:
            c.add("NVLINK", "skip", "nvlink.skip", expected, None)
        return
    missing = topo.gpu_pairs_without_nvlink()
    summary = topo.nvlink_summary()
    actual: Coded | str = summary or (c.v("pairs_without_nvlink", n=len(missing)) if missing else "NVLink")
    if not missing:
        c.add("NVLINK", "pass", "nvlink.pass", expected, actual, kind=summary or "NV")
    elif wanted:
        pairs = ", ".join(f"{a}-{b}" for a, b in missing[:6]) + (" …" if len(missing) > 6 else "")
        c.add("NVLINK", "fail", "nvlink.fail", "NVLink", actual, pairs=pairs)
    else:
        c.add("NVLINK", "pass", "nvlink.pcie", None, actual)


def _nvlink_output(c: Ctx, check_id: str, key: str, res: CommandResult | None) -> str | None:
    """The output of an `nvidia-smi nvlink` read, or None once the check is recorded as skipped (not read) or
    unknown (it failed where the plan wants NVLink)."""
    if res is None:
        c.add(check_id, "skip", f"{key}.skip")
        return None
    if not res.ok or (not res.stdout.strip() and _nvlink_wanted(c)):
        # failed, or printed nothing where the plan has NVLink: nothing was read, so nothing is confirmed
        status: CheckStatus = "unknown" if _nvlink_wanted(c) else "skip"
        why = (res.stderr.strip() or res.stdout.strip() or (f"exit {res.returncode}" if not res.ok else
               f"`{' '.join(res.argv) or 'nvidia-smi nvlink'}` exited 0 but printed nothing"))
        c.add(check_id, status, f"{key}.unknown", None, None, why=why[:200])
        return None
    return res.stdout


@check("NVLINK-LINKS", "gpu", needs_smi=True)
def _nvlink_links(c: Ctx) -> None:
    """`nvidia-smi nvlink -s`: every GPU's links up, as many and as fast as on the other GPUs."""
    from procurement.verify.health import NvlinkGpu, parse_nvlink_status

    out = _nvlink_output(c, "NVLINK-LINKS", "nvlink_links", c.facts.nvlink)
    if out is None:
        return
    gpus = parse_nvlink_status(out)
    if not gpus or all(not g.links and not g.all_inactive for g in gpus):
        if _nvlink_wanted(c):  # the plan has NVLink: no link listed confirms nothing
            c.add("NVLINK-LINKS", "unknown", "nvlink_links.unknown", None, None,
                  why=f"nvidia-smi nvlink -s listed {len(gpus)} GPUs and no link")
        else:
            c.add("NVLINK-LINKS", "skip", "nvlink_links.none")
        return
    dead = [f"GPU{g.index}" for g in gpus if g.all_inactive]
    down = [f"GPU{g.index} link {n}" for g in gpus for n, v in g.links.items() if v is None]
    def shape(g: NvlinkGpu) -> tuple[int, float]:  # links and the slowest link's speed
        return len(g.links), min((v for v in g.links.values() if v), default=0)

    shapes = Counter(shape(g) for g in gpus if not g.all_inactive)
    common = shapes.most_common(1)[0][0] if shapes else (0, 0)
    odd = [f"GPU{g.index} {shape(g)[0]}× {shape(g)[1]:g} GB/s"
           for g in gpus if not g.all_inactive and shape(g) != common]
    actual = f"{common[0]}× {common[1]:g} GB/s" if common[0] else None
    if dead or down:
        which = "; ".join(dead + down)
        c.add("NVLINK-LINKS", "fail", "nvlink_links.fail", actual, which, which=which)
    elif odd:
        c.add("NVLINK-LINKS", "warn", "nvlink_links.odd", actual, "; ".join(odd), which="; ".join(odd))
    else:
        c.add("NVLINK-LINKS", "pass", "nvlink_links.pass", actual, actual, n=len(gpus))


@check("NVLINK-ERRORS", "health", needs_smi=True)
def _nvlink_errors(c: Ctx) -> None:
    """`nvidia-smi nvlink -e`: Replay, Recovery and CRC error counts per link against the policy's limits
    (a degrading link retransmits, retrains and corrupts before it goes down)."""
    from procurement.policy import default_policy
    from procurement.verify.health import NVLINK_COUNTERS, parse_nvlink_errors

    out = _nvlink_output(c, "NVLINK-ERRORS", "nvlink_errors", c.facts.nvlink_errors)
    if out is None:
        return
    gpus = [g for g in parse_nvlink_errors(out) if g.links]
    if not gpus:
        c.add("NVLINK-ERRORS", "skip", "nvlink_errors.none")
        return
    policy = c.policy or default_policy()
    limits = {"replay": policy.nvlink_replay_errors_max, "recovery": policy.nvlink_recovery_errors_max,
              "crc": policy.nvlink_crc_errors_max}
    over = [f"GPU{g.index} link {n} {key} {v[key]}" for g in gpus for n, v in sorted(g.links.items())
            for key in NVLINK_COUNTERS if key in v and v[key] > limits[key]]
    expected = ", ".join(f"{key} ≤ {limits[key]}" for key in NVLINK_COUNTERS)
    links = sum(len(g.links) for g in gpus)
    if over:
        which = "; ".join(over[:8]) + (" …" if len(over) > 8 else "")
        c.add("NVLINK-ERRORS", "fail", "nvlink_errors.fail", expected, which, which=which, n=len(over))
    else:
        c.add("NVLINK-ERRORS", "pass", "nvlink_errors.pass", expected, "0", n=links, gpus=len(gpus))


_LINK_RANK = {"PIX": 0, "PXB": 1, "PHB": 2, "NODE": 3, "SYS": 4}
"""Closeness of a PCIe path in `topo -m`'s legend, nearest first (PIX: at most one PCIe bridge; SYS: across
the SMP interconnect between NUMA nodes)."""


@check("GPU-NIC-AFFINITY", "network", needs_smi=True)
def _gpu_nic_affinity(c: Ctx) -> None:
    """Each GPU's nearest NIC in `topo -m`. With a NIC port per GPU planned (one rail per GPU for GPUDirect
    RDMA), every GPU should reach its NIC without crossing the CPU's host bridge (PIX or PXB)."""
    topo = c.facts.topo
    ports = len(_planned_ports(c))
    gpus = len(c.gpus)
    rails = ports >= gpus > 1
    nics = [d for d in topo.devices if not d.startswith("GPU")] if topo is not None else []
    if topo is None or not nics:
        if rails:
            why = c.facts.topo_error or c.v("topo_no_nic")
            c.add("GPU-NIC-AFFINITY", "unknown", "affinity.unknown", "PIX/PXB", None, why=why)
        else:
            c.add("GPU-NIC-AFFINITY", "skip", "affinity.skip")
        return
    nearest: dict[str, tuple[str, str]] = {}
    for g in topo.gpus:
        links = [(topo.links.get((g, n)) or topo.links.get((n, g)) or "SYS", n) for n in nics]
        link, nic = min(links, key=lambda x: _LINK_RANK.get(x[0], 9))
        nearest[g] = (link, topo.nic_names.get(nic, nic))
    summary = ", ".join(f"{n}× {link}" for link, n in sorted(
        Counter(link for link, _ in nearest.values()).items(), key=lambda x: _LINK_RANK.get(x[0], 9)))
    far = [f"{g}→{nic} {link}" for g, (link, nic) in nearest.items() if _LINK_RANK.get(link, 9) > _LINK_RANK["PXB"]]
    if not rails:
        c.add("GPU-NIC-AFFINITY", "skip", "affinity.inventory", None, summary)
    elif far:
        c.add("GPU-NIC-AFFINITY", "warn", "affinity.warn", "PIX/PXB", summary, which="; ".join(far))
    else:
        c.add("GPU-NIC-AFFINITY", "pass", "affinity.pass", "PIX/PXB", summary, n=len(nearest))


# ---------------------------------------------------------------- host


def _model_tokens(name: str) -> list[str]:
    return [tok for tok in re.split(r"[\s()]+", name) if any(ch.isdigit() for ch in tok)]


@check("CPU-MODEL", "host")
def _cpu_model(c: Ctx) -> None:
    host, plan = c.facts.host, c.plan
    cpu = c.catalog.typed(Cpu, plan.server.cpu) if plan and plan.server.cpu else None
    if cpu is None:
        c.add("CPU-MODEL", "skip", "cpu_model.inventory" if host.cpu_model else "cpu_model.unknown", None,
              host.cpu_model)
        return
    tokens = _model_tokens(cpu.name)
    have = (host.cpu_model or "").casefold()
    if host.cpu_model is None:
        c.add("CPU-MODEL", "unknown", "cpu_model.unknown", cpu.name, None)
    elif tokens and all(tok.casefold() in have for tok in tokens):
        c.add("CPU-MODEL", "pass", "cpu_model.pass", cpu.name, host.cpu_model)
    else:
        c.add("CPU-MODEL", "fail", "cpu_model.fail", cpu.name, host.cpu_model, part=cpu.name)


@check("CPU-CORES", "host")
def _cpu_cores(c: Ctx) -> None:
    host, plan = c.facts.host, c.plan
    cpu = c.catalog.typed(Cpu, plan.server.cpu) if plan and plan.server.cpu else None
    actual = c.cores(host.cpu_cores, host.cpu_sockets) if host.cpu_cores is not None else None
    if cpu is None or plan is None or plan.server.cpu_count <= 0:
        c.add("CPU-CORES", "skip", "cpu_cores.inventory" if actual else "cpu_cores.unknown", None, actual)
        return
    want = cpu.cores * plan.server.cpu_count
    expected = c.cores(want, plan.server.cpu_count)
    if host.cpu_cores is None:
        c.add("CPU-CORES", "unknown", "cpu_cores.unknown", expected, None)
    elif host.cpu_cores >= want:
        c.add("CPU-CORES", "pass", "cpu_cores.pass", expected, actual)
    else:
        c.add("CPU-CORES", "fail", "cpu_cores.fail", expected, actual, have=host.cpu_cores, want=want)


@check("RAM", "host")
def _ram(c: Ctx) -> None:
    host, plan = c.facts.host, c.plan
    module = c.catalog.typed(MemoryModule, plan.server.memory.part) if plan and plan.server.memory else None
    actual = f"{host.memory_gib:g} GiB" if host.memory_gib is not None else None
    if module is None or plan is None or plan.server.memory is None or not plan.server.memory.count:
        c.add("RAM", "skip", "ram.inventory" if actual else "ram.unknown", None, actual)
        return
    count = plan.server.memory.count
    want = module.capacity_gib * count
    expected = f"{want} GiB ({count}× {module.capacity_gib} GiB)"
    if host.memory_gib is None:
        c.add("RAM", "unknown", "ram.unknown", expected, None)
    # MemTotal sits below the installed size by what firmware and kernel reserve; only a whole module
    # (or more) missing is a definite shortfall.
    elif host.memory_gib > want - module.capacity_gib:
        c.add("RAM", "pass", "ram.pass", expected, actual)
    else:
        c.add("RAM", "fail", "ram.fail", expected, actual, have=f"{host.memory_gib:g}", want=want,
              module=module.capacity_gib)


@check("NVME", "host")
def _nvme(c: Ctx) -> None:
    host, plan = c.facts.host, c.plan
    nvme = [d for d in host.disks if d.is_nvme]
    actual = ", ".join(f"{d.name} {d.size_bytes / 1e12:.2f} TB" if d.size_bytes else d.name for d in nvme) or "0"
    planned = 0
    if plan is not None:
        for item in plan.server.storage:
            part = c.catalog.typed(Storage, item.part)
            if part is not None and part.storage_kind == StorageKind.NVME:
                planned += item.count
    if planned:
        if not host.disks:
            c.add("NVME", "unknown", "nvme.unknown", planned, None)
        elif len(nvme) >= planned:
            c.add("NVME", "pass", "nvme.pass", planned, actual, n=len(nvme))
        else:
            c.add("NVME", "fail", "nvme.fail", planned, actual, n=len(nvme), want=planned)
    elif nvme:
        c.add("NVME", "skip", "nvme.inventory", None, actual, n=len(nvme))  # no plan: recorded
    else:
        c.add("NVME", "warn", "nvme.none", None, actual)


@dataclass
class _Port:
    name: str
    gbps: float | None
    """None: down or speed unknown."""
    up: bool


def _ports(c: Ctx) -> list[_Port] | None:
    """Every physical network port: Ethernet interfaces, and InfiniBand ports (sysfs or ibstat) in place
    of their IPoIB interfaces; None when nothing about the network could be read."""
    host = c.facts.host
    ib = c.facts.ib_ports
    out = []
    ib_names = set()
    for p in ib or []:
        if p.link_layer.casefold() == "infiniband":
            out.append(_Port(f"{p.device}/{p.port}", p.rate_gbps if p.active else None, p.active))
            ib_names.add(p.device)
    for ln in host.net:
        if ln.kind == "infiniband" and ib_names:
            continue  # IPoIB: the port itself is counted above
        up = ln.operstate == "up" if ln.operstate else ln.speed_mbps is not None
        out.append(_Port(ln.name, ln.speed_mbps / 1000 if ln.speed_mbps and up else None, up))
    if not out and ib is None and not host.net:
        return None
    return out


def _planned_ports(c: Ctx) -> list[tuple[float, str]]:
    """One (speed Gb/s, NIC name) per planned port."""
    plan = c.plan
    out: list[tuple[float, str]] = []
    if plan is None:
        return out
    for pc in plan.server.nics:
        nic = c.catalog.typed(Nic, pc.part)
        if nic is not None:
            out += [(float(nic.speed_gbps), nic.name)] * (pc.count * max(1, nic.ports))
    return out


@check("NIC-PORTS", "network")
def _nic_ports(c: Ctx) -> None:
    """As many network ports as the planned NICs have (up or down: a missing card shows here)."""
    want = _planned_ports(c)
    ports = _ports(c)
    if not want:
        c.add("NIC-PORTS", "skip", "nic_ports.no_plan", None, len(ports) if ports is not None else None)
        return
    if ports is None:
        c.add("NIC-PORTS", "unknown", "nic_ports.unknown", len(want), None)
    elif len(ports) >= len(want):
        c.add("NIC-PORTS", "pass", "nic_ports.pass", len(want), len(ports), n=len(ports))
    elif c.facts.ib_reader_error:
        # fewer ports seen because the reader failed: the reader is named, no card is said to be missing
        c.add("NIC-PORTS", "unknown", "nic_ports.reader", len(want), len(ports), n=len(ports),
              reader=c.facts.ib_reader_error)
    else:
        c.add("NIC-PORTS", "fail", "nic_ports.fail", len(want), len(ports), n=len(ports), want=len(want))


@check("NIC-FIRMWARE", "network")
def _nic_firmware(c: Ctx) -> None:
    """InfiniBand/RoCE adapters of one type (CA type) run one firmware version."""
    ports = c.facts.ib_ports or []
    by_type: dict[str, dict[str, set[str]]] = {}
    for p in ports:
        if p.firmware:
            by_type.setdefault(p.ca_type or "?", {}).setdefault(p.firmware, set()).add(p.device)
    if not by_type:
        c.add("NIC-FIRMWARE", "skip", "nic_fw.skip")
        return
    actual = "; ".join(f"{t}: {', '.join(sorted(fw))}" for t, fw in sorted(by_type.items()))
    mixed = {t: fw for t, fw in by_type.items() if len(fw) > 1}
    if mixed:
        which = "; ".join(f"{t}: " + ", ".join(f"{v} ({', '.join(sorted(devs))})" for v, devs in sorted(fw.items()))
                          for t, fw in sorted(mixed.items()))
        c.add("NIC-FIRMWARE", "warn", "nic_fw.warn", None, actual, which=which)
    else:
        c.add("NIC-FIRMWARE", "pass", "nic_fw.pass", None, actual)


@check("NET-SPEED", "network")
def _net_speed(c: Ctx) -> None:
    """Every planned port has its own link up at the planned speed (not: one link somewhere is fast)."""
    want = sorted(_planned_ports(c), reverse=True)
    ports = _ports(c)
    up = sorted((p for p in ports or [] if p.up and p.gbps), key=lambda p: -(p.gbps or 0))
    actual = ", ".join(f"{p.name} {p.gbps:g} Gb/s" for p in up) or None
    if not want:
        c.add("NET-SPEED", "skip", "net.inventory" if actual else "net.unknown", None, actual)
        return
    expected = ", ".join(f"{n}× {s:g} Gb/s" for s, n in sorted(Counter(s for s, _ in want).items(), reverse=True))
    if ports is None:
        c.add("NET-SPEED", "unknown", "net.unknown", expected, None)
        return
    # Greedy: the fastest links serve the fastest planned ports.
    short = 0
    pool = [p.gbps or 0 for p in up]
    for speed, _ in want:
        if pool and pool[0] >= speed:
            pool.pop(0)
        else:
            short += 1
    down = [p.name for p in ports or [] if not p.up or not p.gbps]
    if short and c.facts.ib_reader_error:
        c.add("NET-SPEED", "unknown", "net.reader", expected, actual or "-", reader=c.facts.ib_reader_error)
    elif short:
        c.add("NET-SPEED", "fail", "net.fail", expected, actual or "-", short=short, want=len(want),
              down=", ".join(down) or "-")
    else:
        c.add("NET-SPEED", "pass", "net.pass", expected, actual, n=len(want))


@check("OS", "host")
def _os(c: Ctx) -> None:
    host, plan = c.facts.host, c.plan
    os_part = c.catalog.typed(OperatingSystem, plan.software.os) if plan and plan.software.os else None
    if os_part is None:
        c.add("OS", "skip", "os.inventory" if host.os_name else "os.unknown", None, host.os_name)
        return
    expected = f"{os_part.family} {os_part.version}"
    ver = host.os_version_id or ""
    same_family = (host.os_id or "").casefold() == os_part.family
    same_version = ver == os_part.version or ver.startswith(os_part.version + ".")
    if host.os_id is None:
        c.add("OS", "unknown", "os.unknown", expected, None)
    elif same_family and same_version:
        c.add("OS", "pass", "os.pass", expected, host.os_name)
    else:
        c.add("OS", "fail", "os.fail", expected, host.os_name or f"{host.os_id} {ver}", part=os_part.name)


# ---------------------------------------------------------------- driver, CUDA, containers, frameworks


@check("DRIVER-MIN", "software", needs_smi=True)
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


@check("DRIVER-BRANCH", "software", needs_smi=True)
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


@check("CUDA-VERSION", "software", needs_smi=True)
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


@check("CUDA-TOOLKIT", "software")
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


@check("CONTAINER-RUNTIME", "software")
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


@check("IMAGE", "software")
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


@check("FRAMEWORK", "software")
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


@check("BENCHMARK", "load")
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


# The load-run checks register after BENCHMARK (their module needs `check` and `Ctx` from here).
from procurement.verify import load as _load  # noqa: E402, F401

__all__ = ["CHECKS", "CheckSpec", "Ctx", "Facts", "check", "evaluate", "gpu_record", "gpu_verdicts", "match_gpu"]

"""The check registry: `@check` declares the function that judges one check id; `evaluate` runs them all.

`CHECKS` lists every node check in report order (the modules of procurement.verify.checks fill it). A check
judges what the probes found (`Facts`) against the plan and the catalog; when a value it needs could not be
read it says `unknown` and names what and where, never `pass`. "Every GPU" is said only when every GPU was
read.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from catalog.loader import Catalog
from catalog.models import (
    Gpu,
    Nic,
    Segment,
)
from catalog.units import BYTES_PER_GB, BYTES_PER_MIB
from procurement import verification_texts  # noqa: F401  (registers the messages)
from procurement.messages import Lang, t
from procurement.plan import Plan
from procurement.policy import Policy
from procurement.verify.collect.runner import CommandResult
from procurement.verify.host import HostInfo
from procurement.verify.parse.fabricmanager import FmLog
from procurement.verify.parse.infiniband import IbPort
from procurement.verify.parse.kernel_log import KernelFault, XidEvent
from procurement.verify.parse.load import LoadFacts
from procurement.verify.parse.smi_xml import SmiGpu, SmiReport
from procurement.verify.parse.topo import Topology
from procurement.verify.report import CheckRecord, CheckStatus, Coded, GpuRecord, make_check, render_value


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
    fm_log: FmLog | None = None
    """Fabric Manager's log, read (None: not read, see fm_log_error, or not collected)."""
    fm_log_error: str | None = None
    """Why Fabric Manager's log was not read ('/var/log/fabricmanager.log: not found'); None also when the raw
    facts have no such record (a collector before 1.3): the check then judges as before."""
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
    files: dict[str, str | None] = field(default_factory=dict)
    """The raw facts' files (path -> text, None: unreadable), as the host tuning check reads them."""
    mig_lgi: CommandResult | None = None
    """`nvidia-smi mig -lgi` as run (None: not run, e.g. by a collector before 1.2)."""
    gpu_list: CommandResult | None = None
    """`nvidia-smi -L` as run (None: not run)."""
    after_setup: bool = False
    """The handover's setup (host-tuning.sh, mig-create.sh) is said to have run: a host not tuned as planned
    fails (`--after-setup`); before it, that is a warning."""


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
    item: str | None = None
    """The checklist item (procurement.checklist_items) whose machine side the check shows; None: the checklist
    places it by its id's prefix."""


CHECKS: dict[str, CheckSpec] = {}


CheckFn = Callable[[Ctx], None]


def check(
    check_id: str, family: str, needs_smi: bool = False, item: str | None = None
) -> Callable[[CheckFn], CheckFn]:
    """Declare the function that judges ``check_id`` (one function per id, registered in report order), its
    family and the checklist item it covers."""

    def register(fn: CheckFn) -> CheckFn:
        if check_id in CHECKS:
            raise ValueError(f"check {check_id} declared twice")
        CHECKS[check_id] = CheckSpec(check_id, family, fn, needs_smi, item)
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


# ---------------------------------------------------------------- helpers the check modules share


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


__all__ = ["CHECKS", "CheckSpec", "Ctx", "Facts", "check", "evaluate", "gpu_record", "match_gpu"]

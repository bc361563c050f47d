"""Shared helpers for the rule families: the plan's parts looked up once, and a Finding builder."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from catalog.loader import Catalog
from catalog.models import (
    Chassis,
    ContainerImage,
    Cpu,
    CudaRelease,
    DriverBranch,
    Framework,
    Gpu,
    MemoryModule,
    Nic,
    OperatingSystem,
    Psu,
    Storage,
    parse_version,
)
from procurement.findings import Family, Finding, Severity
from procurement.messages import MESSAGES, Lang, t
from procurement.plan import Plan, StorageItem, Workload
from procurement.policy import Policy

Rule = Callable[[Plan, Catalog, Policy, Lang], list[Finding]]
"""A rule: a pure function of plan, catalog, policy and language returning its findings."""

GIB_TO_GB = 1024**3 / 1e9
"""GPU memory is binary (80 GiB HBM); the estimates are decimal GB like the reference formula."""

TRAINING_WORKLOADS = (Workload.TRAINING, Workload.FINE_TUNING)


@dataclass(frozen=True)
class StorageUse:
    index: int
    item: StorageItem
    part: Storage


@dataclass(frozen=True)
class NicUse:
    index: int
    count: int
    part: Nic


@dataclass(frozen=True)
class Parts:
    """The catalog parts a plan refers to (None where unset or unknown to the catalog)."""

    gpu: Gpu | None
    gpu_count: int
    chassis: Chassis | None
    cpu: Cpu | None
    cpu_count: int
    memory: MemoryModule | None
    memory_count: int
    psu: Psu | None
    psu_count: int
    psu_from_chassis: bool
    storage: tuple[StorageUse, ...]
    nics: tuple[NicUse, ...]
    os: OperatingSystem | None
    driver: DriverBranch | None
    cuda: CudaRelease | None
    framework: Framework | None
    image: ContainerImage | None


_RESOLVED: ContextVar[tuple[Plan, Catalog, Parts] | None] = ContextVar("resolved_parts", default=None)


@contextmanager
def resolved_once(plan: Plan, catalog: Catalog) -> Iterator[None]:
    """Within the block, resolve(plan, catalog) looks the parts up once (evaluate() runs every rule in one)."""
    token = _RESOLVED.set((plan, catalog, _resolve(plan, catalog)))
    try:
        yield
    finally:
        _RESOLVED.reset(token)


def resolve(plan: Plan, catalog: Catalog) -> Parts:
    """Look up every part id of the plan in the catalog."""
    cached = _RESOLVED.get()
    if cached is not None and cached[0] is plan and cached[1] is catalog:
        return cached[2]
    return _resolve(plan, catalog)


def _resolve(plan: Plan, catalog: Catalog) -> Parts:
    srv = plan.server
    psu = catalog.typed(Psu, srv.psu.part)
    psu_count = srv.psu.count
    from_chassis = False
    chassis = catalog.typed(Chassis, srv.chassis)
    if srv.psu.part is None and chassis is not None and chassis.psu_included:
        # The platform ships with its PSUs; until the buyer picks others, those are the ones counted.
        psu = catalog.typed(Psu, chassis.psu_included)
        psu_count = chassis.psu_included_count
        from_chassis = psu is not None
    storage = []
    for i, item in enumerate(srv.storage):
        part = catalog.typed(Storage, item.part)
        if part is not None:
            storage.append(StorageUse(i, item, part))
    nics = []
    for i, pc in enumerate(srv.nics):
        nic = catalog.typed(Nic, pc.part)
        if nic is not None:
            nics.append(NicUse(i, pc.count, nic))
    sw = plan.software
    return Parts(
        gpu=catalog.typed(Gpu, plan.gpu.model),
        gpu_count=plan.gpu.count,
        chassis=chassis,
        cpu=catalog.typed(Cpu, srv.cpu),
        cpu_count=srv.cpu_count,
        memory=catalog.typed(MemoryModule, srv.memory.part) if srv.memory else None,
        memory_count=srv.memory.count if srv.memory else 0,
        psu=psu,
        psu_count=psu_count,
        psu_from_chassis=from_chassis,
        storage=tuple(storage),
        nics=tuple(nics),
        os=catalog.typed(OperatingSystem, sw.os),
        driver=catalog.typed(DriverBranch, sw.driver),
        cuda=catalog.cuda(sw.cuda),
        framework=catalog.typed(Framework, sw.framework),
        image=catalog.typed(ContainerImage, sw.image),
    )


def version(text: str | None) -> tuple[int, ...] | None:
    """A version tuple, or None where the text is missing or not a version."""
    if not text:
        return None
    try:
        return parse_version(text)
    except ValueError:
        return None


def major_minor(text: str | None) -> tuple[int, int] | None:
    v = version(text)
    if v is None:
        return None
    return (v[0], v[1] if len(v) > 1 else 0)


def make(
    rule: str,
    family: Family,
    severity: Severity,
    step: int,
    fields: tuple[str, ...],
    lang: Lang,
    *,
    variant: Any = None,  # str | None (Any: callers spread a **dict of fields)
    **kw: Any,
) -> Finding:
    """A Finding whose message and fix come from the message table ('<RULE>.message' / '.fix'; with a
    ``variant``, '<RULE>.message.<variant>' and '<RULE>.fix.<variant>', each where one is registered)."""
    msg_key = f"{rule}.message.{variant}" if variant and f"{rule}.message.{variant}" in MESSAGES else f"{rule}.message"
    fix_key = f"{rule}.fix.{variant}" if variant and f"{rule}.fix.{variant}" in MESSAGES else f"{rule}.fix"
    return Finding(
        rule=rule,
        family=family,
        severity=severity,
        step=step,
        fields=fields,
        message=t(msg_key, lang, **kw),
        fix=t(fix_key, lang, **kw) if fix_key in MESSAGES else "",
    )


def server_empty(plan: Plan) -> bool:
    """True while nothing of the server section is chosen yet (a GPU-first plan): rules then say 'not chosen
    yet' at info level instead of reporting unset parts as zero."""
    s = plan.server
    return (s.chassis is None and s.cpu is None and s.memory is None and not s.storage and not s.nics
            and s.psu.part is None)


def join_names(names: Iterable[str], lang: Lang) -> str:
    """Part names as a list in the user's language (Chinese text separates them with 、), each name once."""
    items = dict.fromkeys(names)
    return ("、" if lang == "zh" else ", ").join(items)


def fmt_w(watts: float) -> str:
    return f"{watts:,.0f}"

"""The catalog parts a plan refers to, looked up once per evaluation (the bottom of the core's rule stack)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
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
)
from procurement.plan import Plan, StorageItem


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


@dataclass
class Scope:
    """One evaluation of one plan: its parts, and each budget computed at most once (per policy)."""

    plan: Plan
    catalog: Catalog
    parts: Parts
    computed: dict[tuple[str, int], Any] = field(default_factory=dict)


_SCOPE: ContextVar[Scope | None] = ContextVar("evaluation_scope", default=None)


@contextmanager
def resolved_once(plan: Plan, catalog: Catalog) -> Iterator[Scope]:
    """Within the block, resolve(plan, catalog) looks the parts up once and each budget function computes
    its budget once (evaluate() runs every rule in one). Nested blocks for the same plan share the scope."""
    current = _SCOPE.get()
    if current is not None and current.plan is plan and current.catalog is catalog:
        yield current
        return
    scope = Scope(plan, catalog, _resolve(plan, catalog))
    token = _SCOPE.set(scope)
    try:
        yield scope
    finally:
        _SCOPE.reset(token)


def resolve(plan: Plan, catalog: Catalog) -> Parts:
    """Look up every part id of the plan in the catalog."""
    scope = _SCOPE.get()
    if scope is not None and scope.plan is plan and scope.catalog is catalog:
        return scope.parts
    return _resolve(plan, catalog)


def scope_for(plan: Plan, catalog: Catalog, parts: Parts | None) -> Scope | None:
    """The current evaluation scope when it is this plan's (and ``parts``, if given, are its parts)."""
    scope = _SCOPE.get()
    if scope is None or scope.plan is not plan or scope.catalog is not catalog:
        return None
    if parts is not None and parts is not scope.parts:
        return None
    return scope


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



"""The PCIe lane budget: lanes wanted by GPUs, NVMe drives and NICs against what the CPUs or switches give.

Lane needs come from the catalog: each GPU's, NVMe drive's and NIC's ``pcie_lanes``. Lanes available: the
CPU's usable lanes per socket × sockets, or, for GPUs behind PCIe switches, the chassis' switch lanes. On
HGX platforms the SXM modules and up to ``switch_nic_slots`` NICs sit behind the platform's PCIe switches
(see procurement/rules/pcie.py for the sources) and are not budgeted.
"""

from __future__ import annotations

from dataclasses import dataclass

from catalog.loader import Catalog
from catalog.models import GpuFormFactor, Segment, StorageKind
from procurement.budgets.parts import Parts, resolve, scope_for
from procurement.plan import Plan
from procurement.policy import Policy

MIN_WIDTH = 4


@dataclass(frozen=True)
class LaneDevice:
    """Identical devices on the lane budget (the GPUs, or one storage or NIC line, or the part of it that runs
    at one width): what each wants and what the budget can give each. The model counts devices instead of
    holding one object per drive: 300 storage lines of 10 000 drives were 3 million objects, 1 GB and 15 s."""

    kind: str
    """'gpu', 'nvme' or 'nic'."""
    label: str
    path: str
    pool: str
    """'cpu' (lanes from the CPUs), 'switch' (the chassis' PCIe switches), 'baseboard' (SXM modules, and the
    NICs in the slots wired beside them, behind an HGX platform's PCIe switches whose lane counts the catalog
    does not give) or 'chipset' (M.2 drives a desktop or workstation board wires to its chipset); only 'cpu'
    and 'switch' are budgeted."""
    wanted: int
    """Lanes each device wants."""
    granted: int
    """Lanes each device gets."""
    count: int = 1
    first: int = 1
    """The number of the first of these devices (GPU 7 of GPUs 7-8); 1 for storage and NIC lines."""


@dataclass(frozen=True)
class LaneBudget:
    """What the GUI's PCIe gauge shows: lanes used and available per pool and who runs narrower."""

    cpu_lanes: int | None
    """Usable CPU lanes (per socket × sockets); None where the catalog has no count."""
    switch_lanes: int
    devices: tuple[LaneDevice, ...]
    cpu_needed: int
    switch_needed: int
    cpu_shortfall: int
    """Lanes still missing with every device at its narrowest (x4)."""
    switch_shortfall: int

    @property
    def reduced(self) -> tuple[LaneDevice, ...]:
        return tuple(d for d in self.devices if d.granted < d.wanted)

    @property
    def shortfall(self) -> int:
        return self.cpu_shortfall + self.switch_shortfall


@dataclass
class _Group:
    kind: str
    name: str
    path: str
    pool: str
    wanted: int
    count: int
    first: int = 1
    granted: int = -1

    def __post_init__(self) -> None:
        if self.granted < 0:
            self.granted = self.wanted

    def split(self, tail: int) -> tuple[_Group, _Group]:
        """(the first count - tail devices, the last tail devices)."""
        head = _Group(self.kind, self.name, self.path, self.pool, self.wanted, self.count - tail, self.first,
                      self.granted)
        last = _Group(self.kind, self.name, self.path, self.pool, self.wanted, tail, self.first + head.count,
                      self.granted)
        return head, last

    def device(self) -> LaneDevice:
        if self.kind == "gpu":
            numbers = str(self.first) if self.count == 1 else f"{self.first}–{self.first + self.count - 1}"
            label = f"GPU {numbers} ({self.name})"
        else:
            label = self.name
        return LaneDevice(self.kind, label, self.path, self.pool, self.wanted, self.granted, self.count,
                          self.first)


def _devices(parts: Parts) -> list[_Group]:
    out: list[_Group] = []
    on_switch = parts.chassis is not None and parts.chassis.pcie_switch_lanes > 0
    if parts.gpu is not None and parts.gpu_count > 0:
        # SXM modules reach the host through the HGX baseboard's own PCIe switches; without their lane
        # count in the catalog they stay out of the CPU budget rather than being guessed.
        pool = "switch" if on_switch else "baseboard" if parts.gpu.form_factor == GpuFormFactor.SXM else "cpu"
        out.append(_Group("gpu", parts.gpu.name, "gpu.count", pool, parts.gpu.pcie_lanes, parts.gpu_count))
    # An HGX platform wires its one-NIC-per-GPU slots to the same PCIe switches as the GPU modules; those NICs
    # share the baseboard pool (not budgeted: the switches' lane counts are not in the catalog).
    behind_switch = parts.chassis.switch_nic_slots if parts.chassis is not None else 0
    for n in parts.nics:
        path = f"server.nics[{n.index}].part"
        on_board = min(max(behind_switch, 0), n.count)
        behind_switch -= n.count
        if on_board:
            out.append(_Group("nic", n.part.name, path, "baseboard", n.part.pcie_lanes, on_board))
        if n.count - on_board:
            out.append(_Group("nic", n.part.name, path, "cpu", n.part.pcie_lanes, n.count - on_board))
    for s in parts.storage:
        if s.part.storage_kind == StorageKind.NVME and s.part.pcie_lanes > 0 and s.item.count > 0:
            out.append(_Group("nvme", s.part.name, f"server.storage[{s.index}].part", "cpu", s.part.pcie_lanes,
                              s.item.count))
    return out


def _with_chipset(raw: list[_Group], cpu_lanes: int) -> list[_Group]:
    """Desktop and workstation boards wire further M.2 slots to the chipset: NVMe drives that do not fit
    the CPU lanes left after the cards go there (pool 'chipset', not budgeted)."""
    left = cpu_lanes - sum(d.wanted * d.count for d in raw if d.pool == "cpu" and d.kind != "nvme")
    out: list[_Group] = []
    for d in raw:
        if d.kind == "nvme":
            fit = min(d.count, max(left, 0) // d.wanted)
            left -= fit * d.wanted
            if fit < d.count:
                head, tail = d.split(d.count - fit)
                tail.pool = "chipset"
                out += [g for g in (head, tail) if g.count]
                continue
        out.append(d)
    return out


def _fit(groups: list[_Group], available: int) -> int:
    """Narrow devices until they fit: NICs then GPUs to x8 (last first), then NICs then GPUs to x4; splits a
    group where only its last devices need to narrow. Returns the lanes still missing."""
    total = sum(g.granted * g.count for g in groups)
    for target in (8, MIN_WIDTH):
        for kind in ("nic", "gpu"):
            i = len(groups) - 1
            while i >= 0:
                if total <= available:
                    return 0
                g = groups[i]
                if g.kind == kind and g.granted > target:
                    saving = g.granted - target
                    narrow = min(g.count, -(-(total - available) // saving))
                    if narrow < g.count:
                        head, g = g.split(narrow)
                        groups[i:i + 1] = [head, g]
                    g.granted = target
                    total -= saving * narrow
                i -= 1
    return max(0, total - available)


def lane_budget(
    plan: Plan, catalog: Catalog, policy: Policy | None = None, parts: Parts | None = None
) -> LaneBudget:
    """Lanes wanted by GPUs, NVMe drives and NICs against what the CPUs (or PCIe switches) provide
    (computed once per evaluation scope; the policy does not enter it)."""
    scope = scope_for(plan, catalog, parts)
    if scope is None:
        return _lane_budget(parts or resolve(plan, catalog))
    if ("lanes", 0) not in scope.computed:
        scope.computed[("lanes", 0)] = _lane_budget(scope.parts)
    budget: LaneBudget = scope.computed[("lanes", 0)]
    return budget


def _lane_budget(parts: Parts) -> LaneBudget:
    raw = _devices(parts)
    cpu_lanes = None
    if parts.cpu is not None and parts.cpu.pcie_lanes is not None:
        cpu_lanes = parts.cpu.pcie_lanes * max(parts.cpu_count, 1)
    switch_lanes = parts.chassis.pcie_switch_lanes if parts.chassis else 0
    if cpu_lanes is not None and parts.cpu is not None and parts.cpu.segment != Segment.DATACENTER:
        raw = _with_chipset(raw, cpu_lanes)
    short = {"cpu": 0, "switch": 0}
    fitted: dict[str, list[_Group]] = {}
    for pool, available in (("cpu", cpu_lanes), ("switch", switch_lanes)):
        groups = [g for g in raw if g.pool == pool]
        if available is None or not groups:
            continue
        short[pool] = _fit(groups, available)
        fitted[pool] = groups
    # the pools' groups back in the plan's order (GPUs, NICs, drives), split groups in place
    ordered: list[_Group] = []
    taken: dict[str, int] = {}
    for g in raw:
        if g.pool in fitted:
            groups = fitted[g.pool]
            i = taken.get(g.pool, 0)
            while i < len(groups) and groups[i].path == g.path and groups[i].kind == g.kind:
                ordered.append(groups[i])
                i += 1
            taken[g.pool] = i
        else:
            ordered.append(g)
    devices = tuple(g.device() for g in ordered)
    return LaneBudget(
        cpu_lanes=cpu_lanes,
        switch_lanes=switch_lanes,
        devices=devices,
        cpu_needed=sum(d.wanted * d.count for d in devices if d.pool == "cpu"),
        switch_needed=sum(d.wanted * d.count for d in devices if d.pool == "switch"),
        cpu_shortfall=short["cpu"],
        switch_shortfall=short["switch"],
    )

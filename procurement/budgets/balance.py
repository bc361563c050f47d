"""Balance needs: the CPU cores and system RAM the GPUs call for, against what the plan has.

Ratios from the policy (``cpu_cores_per_gpu``, ``ram_to_vram_ratio``, each with its source in
resources/policy/default.yaml); cores and capacities from the catalog. The rules (BALANCE-CPU-CORES,
BALANCE-RAM), the checklist and the derived defaults (procurement/sizing/derive.py) read these.
"""

from __future__ import annotations

from dataclasses import dataclass

from catalog.loader import Catalog
from procurement.budgets.parts import Parts, resolve, scope_for
from procurement.plan import Plan
from procurement.policy import Policy


def cores_needed(gpu_count: int, policy: Policy) -> float:
    """CPU cores (all sockets) that ``gpu_count`` GPUs call for."""
    return policy.cpu_cores_per_gpu * gpu_count


def ram_needed_gib(gpu_memory_gib: float, gpu_count: int, policy: Policy) -> float:
    """System RAM that ``gpu_count`` GPUs of ``gpu_memory_gib`` each call for."""
    return policy.ram_to_vram_ratio * gpu_memory_gib * gpu_count


@dataclass(frozen=True)
class BalanceNeeds:
    """What the GPUs call for and what the plan has; None where a part is not chosen (never read as 0)."""

    gpu_count: int
    """GPUs counted (0 without a known GPU model)."""
    vram_gib: float | None
    """Total GPU memory; None without a known GPU model."""
    cores: int | None
    """CPU cores over all sockets; None without a known CPU."""
    cores_needed: float
    ram_gib: float | None
    """System RAM; None without a known memory module."""
    ram_needed_gib: float | None
    """None without a known GPU model."""
    fabric_nics: int = 0
    """NICs whose port speed reaches the policy's ``min_fabric_gbps`` (the compute fabric between nodes)."""
    fabric_gbps: float = 0.0
    """What those NICs carry together: ports × port speed, each card capped by its PCIe link."""

    @property
    def fabric_nics_per_gpu(self) -> float | None:
        return self.fabric_nics / self.gpu_count if self.gpu_count else None

    @property
    def fabric_gbps_per_gpu(self) -> float | None:
        return self.fabric_gbps / self.gpu_count if self.gpu_count else None


def balance_needs(plan: Plan, catalog: Catalog, policy: Policy, parts: Parts | None = None) -> BalanceNeeds:
    """The balance needs of the plan (computed once per evaluation scope)."""
    scope = scope_for(plan, catalog, parts)
    if scope is None:
        return _balance_needs(policy, parts or resolve(plan, catalog))
    key = ("balance", id(policy))
    if key not in scope.computed:
        scope.computed[key] = _balance_needs(policy, scope.parts)
    needs: BalanceNeeds = scope.computed[key]
    return needs


PCIE_LANE_GBPS = {1: 2.0, 2: 4.0, 3: 7.877, 4: 15.754, 5: 31.508, 6: 60.5}
"""Usable data rate of one PCIe lane per direction, Gb/s: 2.5/5 GT/s with 8b/10b (Gen1/2), 8/16/32 GT/s with
128b/130b (Gen3/4/5), 64 GT/s PAM4 with FLIT encoding (Gen6, ~242/256 after FEC/CRC) — PCI-SIG base
specifications; a ConnectX-7 on Gen5 x16 carries 400 Gb/s, two 200 Gb/s ports on Gen4 x16 cannot both run
at line rate (catalog nics notes)."""


def nic_gbps(speed_gbps: float, ports: int, pcie_gen: int, pcie_lanes: int) -> float:
    """What one card carries: its ports at line rate, at most what its PCIe link moves."""
    return min(speed_gbps * ports, PCIE_LANE_GBPS.get(pcie_gen, 0.0) * pcie_lanes or speed_gbps * ports)


def _balance_needs(policy: Policy, p: Parts) -> BalanceNeeds:
    gpus = p.gpu_count if p.gpu is not None else 0
    fabric = [n for n in p.nics if n.count and n.part.speed_gbps >= policy.min_fabric_gbps]
    return BalanceNeeds(
        gpu_count=gpus,
        vram_gib=p.gpu.memory_gib * p.gpu_count if p.gpu is not None else None,
        cores=p.cpu.cores * p.cpu_count if p.cpu is not None else None,
        cores_needed=cores_needed(gpus, policy),
        ram_gib=p.memory.capacity_gib * p.memory_count if p.memory is not None else None,
        ram_needed_gib=ram_needed_gib(p.gpu.memory_gib, p.gpu_count, policy) if p.gpu is not None else None,
        fabric_nics=sum(n.count for n in fabric),
        fabric_gbps=sum(n.count * nic_gbps(n.part.speed_gbps, n.part.ports, n.part.pcie_gen, n.part.pcie_lanes)
                        for n in fabric),
    )

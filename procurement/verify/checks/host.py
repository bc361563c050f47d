"""Host checks: CPU, RAM, NVMe, the network ports and the OS."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from catalog.models import (
    Cpu,
    MemoryModule,
    OperatingSystem,
    Storage,
    StorageKind,
)
from procurement import verification_texts  # noqa: F401  (registers the messages)
from procurement.verify.checks.registry import (
    Ctx,
    _planned_ports,
    check,
)

# ---------------------------------------------------------------- host


def _model_tokens(name: str) -> list[str]:
    return [tok for tok in re.split(r"[\s()]+", name) if any(ch.isdigit() for ch in tok)]


@check("CPU-MODEL", "host", item="cpu_cores")
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


@check("CPU-CORES", "host", item="cpu_cores")
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


@check("RAM", "host", item="ram")
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


@check("NVME", "host", item="storage_nvme")
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


@check("NET-SPEED", "network", item="network")
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


@check("OS", "host", item="os_driver")
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

"""Derived defaults for a chosen GPU and count: chassis, CPU and sockets, memory, storage, NIC and PSUs.

The reference configuration rules (docs/sources.md §S, thresholds in the policy): CPU cores ≥ 2 × GPUs, RAM ≥ 2 ×
total GPU memory (DIMMs in multiples of the memory channels), NVMe data capacity ≥ the dataset, single
node 10 GbE, multi-node ≥ 100 Gb/s InfiniBand/RoCE, PSUs for the estimated draw plus headroom, a chassis
that holds the GPUs. Among parts that qualify the cheapest is taken (unpriced ones last). The result is a
dict of plan paths → values for an "auto-configure" button, and ``apply_defaults`` makes the new Plan.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from catalog.loader import Catalog
from catalog.models import (
    Chassis,
    Cpu,
    Gpu,
    GpuCooling,
    GpuFormFactor,
    MemoryModule,
    Nic,
    Part,
    Psu,
    Segment,
    Storage,
    StorageKind,
)
from catalog.units import GIB_TO_GB
from procurement.budgets.balance import cores_needed, ram_needed_gib
from procurement.budgets.power import power_budget, psu_unit_w, psus_needed
from procurement.messages import Lang, register, t
from procurement.plan import Plan, PlanError, Workload, with_value
from procurement.policy import Policy
from procurement.sizing.vram import estimate_vram


@dataclass
class DerivedDefaults:
    """Plan paths → values ('server.cpu' → 'epyc-7543'), with a reason per decision (user's language)."""

    changes: dict[str, Any] = field(default_factory=dict)
    reasons: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    """What could not be chosen from the catalog (message lines)."""


def _price_key(p: Part) -> tuple[bool, float, str]:
    return (p.price_cny is None, p.price_cny or 0.0, p.id)


def _positions(gpu: Gpu, count: int) -> int:
    width = gpu.slot_width or 2
    per = math.ceil(width / 2) if gpu.form_factor == GpuFormFactor.PCIE and width > 2 else 1
    return count * per


def pick_chassis(
    gpu: Gpu, count: int, catalog: Catalog, deployment: str = "datacenter", policy: Policy | None = None
) -> Chassis | None:
    """The cheapest platform that holds ``count`` of ``gpu`` and cools them. More open-air (axial-fan) cards
    than ``policy.max_open_air_gpus`` are cooled by no chassis (the COOLING-OPEN-AIR rule): None."""
    if policy is not None and open_air_over(gpu, count, policy):
        return None
    ok = []
    for ch in catalog.all(Chassis):
        if ch.gpu_form_factor != gpu.form_factor or (ch.gpus_supported and gpu.id not in ch.gpus_supported):
            continue
        if gpu.tdp_w is not None and ch.max_gpu_tdp_w is not None and gpu.tdp_w > ch.max_gpu_tdp_w:
            continue
        max_width = ch.max_gpu_slot_width
        if gpu.form_factor == GpuFormFactor.PCIE and max_width and (gpu.slot_width or 2) > max_width:
            continue
        if gpu.cooling == GpuCooling.PASSIVE and not ch.passive_gpu_ready:
            continue
        if _positions(gpu, count) > ch.gpu_slots:
            continue
        ok.append(ch)
    # prefer a tower for an office or lab, a rack server for a data centre, then price, then fewest slots
    want_form = "rack" if deployment == "datacenter" else "tower"
    ok.sort(key=lambda c: (c.form != want_form, *_price_key(c)[:2], c.gpu_slots, c.id))
    return ok[0] if ok else None


def open_air_over(gpu: Gpu, count: int, policy: Policy) -> bool:
    """True when ``count`` open-air cards exceed the policy's limit per chassis (COOLING-OPEN-AIR)."""
    return gpu.cooling == GpuCooling.ACTIVE and count > policy.max_open_air_gpus


def pick_cpu(
    chassis: Chassis, gpu: Gpu, count: int, policy: Policy, catalog: Catalog, training: bool
) -> tuple[Cpu, int] | None:
    """The cheapest CPU for the board's socket with enough cores (and lanes where GPUs use CPU lanes)."""
    cands = []
    for cpu in catalog.all(Cpu):
        if cpu.socket != chassis.cpu_socket:
            continue
        sockets = max(1, min(chassis.cpu_sockets, cpu.max_sockets or 1))  # an unknown limit is not assumed to be 2
        cores_ok = cpu.cores * sockets >= cores_needed(count, policy)
        lanes_ok = (
            chassis.pcie_switch_lanes > 0
            or gpu.form_factor == GpuFormFactor.SXM  # behind the HGX platform's PCIe switches
            or cpu.pcie_lanes is None
            or cpu.pcie_lanes * sockets >= gpu.pcie_lanes * count
        )
        ecc_ok = cpu.ecc or not training
        # a CPU whose TDP is known can be counted in the power budget; an OEM-only SKU (the DGX's 8480C)
        # cannot be bought on its own: both go after the parts that can
        cands.append((not cores_ok, not lanes_ok, not ecc_ok, cpu.tdp_w is None, cpu.oem_only,
                      *_price_key(cpu), cpu, sockets))
    if not cands:
        return None
    best = min(cands, key=lambda c: c[:8])
    return best[8], best[9]


def pick_memory(
    chassis: Chassis, cpu: Cpu, sockets: int, need_gib: float, catalog: Catalog, ecc: bool
) -> tuple[MemoryModule, int] | None:
    """Modules of the board's type adding up to ``need_gib``, in multiples of channels × sockets, cheapest."""
    step = cpu.memory_channels * sockets
    server = cpu.segment == Segment.DATACENTER
    cands = []
    for m in catalog.all(MemoryModule):
        if m.memory_type != chassis.memory_type or m.memory_type not in cpu.memory_type.upper():
            continue
        if (ecc and not m.ecc) or m.registered != server:
            continue
        n = max(1, math.ceil(need_gib / m.capacity_gib))
        balanced = math.ceil(n / step) * step
        slots = chassis.dimm_slots
        if slots is None or balanced <= slots:
            n = balanced
        if slots is not None and n > slots:
            continue
        cost = m.price_cny * n if m.price_cny is not None else None
        cands.append((cost is None, cost or 0.0, n, m.id, m, n))
    if not cands:
        return None
    best = min(cands, key=lambda c: c[:4])
    return best[4], best[5]


def _nvme(catalog: Catalog, m2: bool) -> list[Storage]:
    return [
        s
        for s in catalog.all(Storage)
        if s.storage_kind == StorageKind.NVME and ("m.2" in s.form.lower()) == m2
    ]


def pick_storage(
    chassis: Chassis, dataset_gb: float, data_workload: bool, catalog: Catalog
) -> list[dict[str, Any]]:
    """A system NVMe drive and, for data workloads, NVMe data drives holding the dataset."""
    out: list[dict[str, Any]] = []
    m2_slots = chassis.m2_slots or 0  # an unknown M.2 count plans no M.2 drives
    use_m2 = m2_slots > 0 and bool(_nvme(catalog, True))
    system = _nvme(catalog, use_m2) or _nvme(catalog, not use_m2)
    if system:
        drive = min(system, key=lambda s: (s.capacity_gb, *_price_key(s)))
        out.append({"role": "system", "part": drive.id, "count": 1})
    if data_workload:  # BALANCE-NVME-DATA wants an NVMe data drive even before the dataset size is known
        data_m2 = chassis.drive_bays == 0 and m2_slots > 0
        pool = _nvme(catalog, data_m2) or _nvme(catalog, not data_m2)
        if data_m2:
            limit = max(m2_slots - (1 if use_m2 else 0), 1)
        else:  # unknown bay count: no cap (the vendor confirms)
            limit = max(chassis.drive_bays, 1) if chassis.drive_bays is not None else 10_000
        best = None
        for s in pool:
            n = max(1, math.ceil(dataset_gb / s.capacity_gb))
            if n > limit:
                continue
            cost = (s.price_cny or 0) * n
            key = (s.price_cny is None, cost, n, s.id)
            if best is None or key < best[0]:
                best = (key, s, n)
        if best:
            out.append({"role": "data", "part": best[1].id, "count": best[2]})
    return out


def pick_nic(nodes: int, training: bool, policy: Policy, catalog: Catalog) -> Nic | None:
    nics = catalog.all(Nic)
    if nodes > 1 and training:
        fabric = [n for n in nics if n.speed_gbps >= policy.min_fabric_gbps]
        fabric.sort(key=lambda n: (n.fabric == "ethernet", n.speed_gbps, *_price_key(n)))
        return fabric[0] if fabric else None
    eth = [n for n in nics if n.speed_gbps >= policy.single_node_nic_gbps]
    eth.sort(key=lambda n: (n.speed_gbps, n.fabric != "ethernet", *_price_key(n)))
    return eth[0] if eth else None


def psu_form_for(chassis: Chassis) -> str:
    """The PSU form the chassis takes: its catalog value, else 'atx' for a tower and 'server' for a rack
    server (the usual case; the POWER-PSU-FORM rule checks only catalog values)."""
    if chassis.psu_form is not None:
        return chassis.psu_form
    return "atx" if chassis.form == "tower" else "server"


def pick_psu(plan: Plan, chassis: Chassis, catalog: Catalog, policy: Policy) -> tuple[Psu, int] | None:
    """The platform's own PSU where it ships one, else the model of the chassis' PSU form (ATX or server)
    needing the fewest units within the bays."""
    draw = power_budget(plan, catalog, policy).draw_w
    red = plan.server.psu.redundancy
    band = plan.server.input_voltage
    options = [catalog.typed(Psu, chassis.psu_included)] if chassis.psu_included else catalog.all(Psu)
    best = None
    form = psu_form_for(chassis)
    for psu in options:
        if psu is None or (psu.id != chassis.psu_included and psu.form not in (form, None)):
            continue
        unit = psu_unit_w(psu, band)
        if not unit:
            continue
        n = psus_needed(draw, unit, policy, red)
        if chassis.psu_included and psu.id == chassis.psu_included:
            n = max(n, chassis.psu_included_count)
        if chassis.psu_bays is not None and n > chassis.psu_bays:
            continue
        key = (n, psu.price_cny is None, (psu.price_cny or 0) * n, psu.id)
        if best is None or key < best[0]:
            best = (key, psu, n)
    return (best[1], best[2]) if best else None


def derive_defaults(
    plan: Plan,
    catalog: Catalog,
    policy: Policy,
    gpu_id: str | None = None,
    count: int | None = None,
    lang: Lang = "zh",
) -> DerivedDefaults:
    """Server parts for ``gpu_id`` × ``count`` (defaults: the plan's GPU choice, or what the VRAM estimate
    needs per node), following the reference rules."""
    out = DerivedDefaults()
    req = plan.requirements
    gpu = catalog.gpu(gpu_id or plan.gpu.model)
    if gpu is None:
        out.missing.append(t("derive.no_gpu", lang))
        return out
    if not count:
        count = plan.gpu.count
    if not count:
        est = estimate_vram(req, policy)
        needed = est.gpus_needed(gpu.memory_gib * GIB_TO_GB) or 1
        count = math.ceil(needed / req.nodes)
        out.reasons.append(t("derive.count", lang, n=count, need=f"{est.total_gb:,.0f}"))
    out.changes["gpu.model"] = gpu.id
    out.changes["gpu.count"] = count
    training = req.workload in (Workload.TRAINING, Workload.FINE_TUNING)
    chassis = pick_chassis(gpu, count, catalog, req.deployment, policy)
    if chassis is None:
        if open_air_over(gpu, count, policy):
            out.missing.append(t("derive.open_air", lang, n=count, gpu=gpu.name, limit=policy.max_open_air_gpus))
        else:
            out.missing.append(t("derive.no_chassis", lang, n=count, gpu=gpu.name))
        return out
    out.changes["server.chassis"] = chassis.id
    out.reasons.append(t("derive.chassis", lang, chassis=chassis.name, slots=chassis.gpu_slots, n=count))
    cpu_pick = pick_cpu(chassis, gpu, count, policy, catalog, training)
    if cpu_pick is None:
        out.missing.append(t("derive.no_cpu", lang, socket=chassis.cpu_socket))
        return out
    cpu, sockets = cpu_pick
    out.changes["server.cpu"] = cpu.id
    out.changes["server.cpu_count"] = sockets
    out.reasons.append(
        t(
            "derive.cpu",
            lang,
            cpu=cpu.name,
            sockets=sockets,
            cores=cpu.cores * sockets,
            need=f"{cores_needed(count, policy):g}",
        )
    )
    need_gib = ram_needed_gib(gpu.memory_gib, count, policy)
    mem = pick_memory(chassis, cpu, sockets, need_gib, catalog, ecc=training and cpu.ecc)
    if mem is None:
        out.missing.append(t("derive.no_memory", lang, type=chassis.memory_type))
    else:
        module, n = mem
        out.changes["server.memory"] = {"part": module.id, "count": n}
        out.reasons.append(
            t(
                "derive.memory",
                lang,
                n=n,
                module=module.name,
                total=n * module.capacity_gib,
                need=f"{need_gib:g}",
            )
        )
    data_workload = req.workload in (Workload.TRAINING, Workload.FINE_TUNING, Workload.DATA_ANALYSIS)
    storage = pick_storage(chassis, req.dataset_gb, data_workload, catalog)
    out.changes["server.storage"] = storage
    if storage:
        out.reasons.append(t("derive.storage", lang, dataset=f"{req.dataset_gb:g}"))
    nic = pick_nic(req.nodes, training, policy, catalog)
    if req.nodes == 1 and req.deployment != "datacenter":
        out.changes["server.nics"] = []  # office/lab: the board's own network port serves one machine
    elif nic is None:
        out.missing.append(t("derive.no_nic", lang))
        out.changes["server.nics"] = []
    else:
        out.changes["server.nics"] = [{"part": nic.id, "count": 1}]
        out.reasons.append(t("derive.nic", lang, nic=nic.name, speed=f"{nic.speed_gbps:g}", nodes=req.nodes))
    if req.deployment == "datacenter" and plan.server.psu.redundancy == "none":
        # a data-centre server keeps running when one PSU fails: N+1 unless the buyer chose otherwise
        out.changes["server.psu.redundancy"] = "n+1"
        out.reasons.append(t("derive.redundancy", lang))
    try:
        draft = apply_defaults(plan, out)
    except PlanError:  # pragma: no cover - every value above comes from validated catalog parts
        return out
    psu = pick_psu(draft, chassis, catalog, policy)
    if psu is None:
        out.missing.append(t("derive.no_psu", lang, bays=chassis.psu_bays or "?"))
    else:
        unit, n = psu
        draw = power_budget(draft, catalog, policy).draw_w
        out.changes["server.psu.part"] = unit.id
        out.changes["server.psu.count"] = n
        out.reasons.append(
            t(
                "derive.psu",
                lang,
                n=n,
                psu=unit.name,
                draw=f"{draw:,.0f}",
                headroom=f"{policy.psu_headroom_pct:g}",
                need=f"{draw * (1 + policy.psu_headroom_pct / 100):,.0f}",
            )
        )
    return out


def apply_defaults(plan: Plan, derived: DerivedDefaults) -> Plan:
    """A new Plan with every derived value set."""
    data = plan.model_dump(mode="json")
    for path, value in derived.changes.items():
        node = data
        keys = path.split(".")
        for key in keys[:-1]:
            if node.get(key) is None:
                node[key] = {}
            node = node[key]
        node[keys[-1]] = value
    try:
        return Plan.model_validate(data)
    except ValueError as exc:
        raise PlanError(str(exc)) from None


_ = with_value  # re-exported helper for callers that apply one change at a time

register(
    {
        "derive.no_gpu": {"zh": "请先选择 GPU 型号。", "en": "Choose a GPU model first."},
        "derive.count": {
            "zh": "按显存估算 {need} GB，每节点 {n} 个 GPU。",
            "en": "{n} GPUs per node for the {need} GB VRAM estimate.",
        },
        "derive.no_chassis": {
            "zh": "目录中没有能容纳 {n} 个 {gpu} 的平台。",
            "en": "No catalog platform holds {n} × {gpu}.",
        },
        "derive.chassis": {
            "zh": "平台 {chassis}：{slots} 个 GPU 位，可容纳 {n} 个 GPU。",
            "en": "Platform {chassis}: {slots} GPU positions for {n} GPUs.",
        },
        "derive.no_cpu": {
            "zh": "目录中没有 {socket} 插槽的 CPU。",
            "en": "No catalog CPU for socket {socket}.",
        },
        "derive.cpu": {
            "zh": "CPU {sockets} × {cpu}：共 {cores} 核（建议 ≥ {need} 核）。",
            "en": "CPU {sockets} × {cpu}: {cores} cores (≥ {need} advised).",
        },
        "derive.no_memory": {
            "zh": "目录中没有合适的 {type} 内存。",
            "en": "No suitable {type} memory in the catalog.",
        },
        "derive.memory": {
            "zh": "内存 {n} × {module} = {total} GiB（建议 ≥ {need} GiB）。",
            "en": "Memory {n} × {module} = {total} GiB (≥ {need} GiB advised).",
        },
        "derive.storage": {
            "zh": "NVMe 系统盘，数据盘按数据集 {dataset} GB 配置。",
            "en": "NVMe system drive; data drives sized for the {dataset} GB dataset.",
        },
        "derive.no_nic": {"zh": "目录中没有满足要求的网卡。", "en": "No NIC in the catalog meets the need."},
        "derive.nic": {
            "zh": "网卡 {nic}（{speed} Gb/s，{nodes} 节点）。",
            "en": "NIC {nic} ({speed} Gb/s for {nodes} node(s)).",
        },
        "derive.no_psu": {
            "zh": "没有电源型号能在 {bays} 个电源位内满足功耗。",
            "en": "No PSU model carries the load within {bays} PSU bays.",
        },
        "derive.psu": {
            "zh": "电源 {n} × {psu}：估算功耗 {draw} W，加 {headroom}% 余量需 {need} W。",
            "en": "PSUs {n} × {psu}: estimated draw {draw} W, {need} W with {headroom} % headroom.",
        },
        "derive.open_air": {
            "zh": "{n} 张开放式风扇的 {gpu} 超过单机箱上限 {limit} 张（会过热降频）：请改用涡轮或被动散热的卡，"
                  "或每台最多 {limit} 张。",
            "en": "{n} open-air {gpu} cards exceed the {limit} one chassis can cool (they throttle): use blower "
            "or passive cards, or at most {limit} per server.",
        },
        "derive.redundancy": {
            "zh": "数据中心部署：电源按 N+1 冗余配置。",
            "en": "Data-centre deployment: PSUs with N+1 redundancy.",
        },
    }
)

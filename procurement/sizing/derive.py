"""Derived defaults for a chosen GPU and count: chassis, CPU and sockets, memory, storage, NIC and PSUs.

The configuration rules (policy choices, docs/sources.md §S, thresholds in the policy): CPU cores ≥ 2 × GPUs, RAM ≥ 2 ×
total GPU memory (DIMMs in multiples of the memory channels), NVMe data capacity ≥ the dataset, single
node 10 GbE, multi-node ≥ 100 Gb/s InfiniBand/RoCE, PSUs for the estimated draw plus headroom, a chassis
that holds the GPUs. Among parts that qualify the cheapest is taken (unpriced ones last). The result is a
dict of plan paths → values for an "auto-configure" button, and ``apply_defaults`` makes the new Plan.
"""

from __future__ import annotations

import math
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from catalog.loader import Catalog
from catalog.models import (
    DRIVE_FITS_BAY,
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
from procurement.budgets.cost import plan_cost, yuan
from procurement.budgets.power import power_budget, psu_unit_w, psus_needed
from procurement.messages import Lang, plural, register, t
from procurement.plan import AUTO_PARTS, AutoPart, Plan, PlanError, Workload, with_value
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


def over_budget(part: Part, qty: int, nodes: int, budget_cny: float | None, policy: Policy | None) -> bool:
    """The part's known price alone (× quantity × servers, VAT included unless the price includes it) exceeds
    the budget: ranked after every part not known to exceed it. An unpriced part is never called over."""
    if budget_cny is None or part.price_cny is None:
        return False
    gross = part.price_cny * qty * nodes
    if not part.price_includes_vat:
        gross *= 1 + (policy.vat_rate_pct if policy is not None else 13.0) / 100
    return gross > budget_cny


def chassis_candidates(
    gpu: Gpu, count: int, catalog: Catalog, deployment: str = "datacenter", policy: Policy | None = None,
    budget_cny: float | None = None, nodes: int = 1,
) -> list[Chassis]:
    """Every platform that holds ``count`` of ``gpu`` and cools them, best first: the deployment's form (a tower
    for an office or lab, a rack server for a data centre), not known to exceed the budget, the fewest GPU
    positions that hold the GPUs (not the largest), then the known price, cheapest first."""
    if policy is not None and open_air_over(gpu, count, policy):
        return []
    ok = [ch for ch in catalog.all(Chassis) if why_not(ch, gpu, count) is None]
    want_form = "rack" if deployment == "datacenter" else "tower"
    ok.sort(key=lambda c: (c.form != want_form, over_budget(c, 1, nodes, budget_cny, policy), c.gpu_slots,
                           *_price_key(c)))
    return ok


def pick_chassis(
    gpu: Gpu, count: int, catalog: Catalog, deployment: str = "datacenter", policy: Policy | None = None,
    budget_cny: float | None = None, nodes: int = 1,
) -> Chassis | None:
    """The best platform of ``chassis_candidates``; None when none holds and cools the GPUs (more open-air cards
    than ``policy.max_open_air_gpus`` are cooled by no chassis, the COOLING-OPEN-AIR rule)."""
    found = chassis_candidates(gpu, count, catalog, deployment, policy, budget_cny, nodes)
    return found[0] if found else None


def why_not(ch: Chassis, gpu: Gpu, count: int) -> tuple[str, dict[str, Any]] | None:
    """Why ``ch`` cannot hold and cool ``count`` of ``gpu`` (a message key under 'derive.why.' and its fields),
    or None when it can."""
    if ch.gpu_form_factor != gpu.form_factor:
        return "form_factor", {"has": ch.gpu_form_factor.value.upper(), "needs": gpu.form_factor.value.upper()}
    if ch.gpus_supported and gpu.id not in ch.gpus_supported:
        return "not_supported", {"gpu": gpu.name}
    if gpu.tdp_w is not None and ch.max_gpu_tdp_w is not None and gpu.tdp_w > ch.max_gpu_tdp_w:
        return "tdp", {"limit": f"{ch.max_gpu_tdp_w:g}", "tdp": f"{gpu.tdp_w:g}", "gpu": gpu.name}
    max_width = ch.max_gpu_slot_width
    if gpu.form_factor == GpuFormFactor.PCIE and max_width and (gpu.slot_width or 2) > max_width:
        return "width", {"max": max_width, "width": gpu.slot_width or 2, "gpu": gpu.name}
    if gpu.cooling == GpuCooling.PASSIVE and not ch.passive_gpu_ready:
        return "passive", {"gpu": gpu.name}
    if _positions(gpu, count) > ch.gpu_slots:
        return "positions", {"n": count, "gpu": gpu.name, "need": _positions(gpu, count), "slots": ch.gpu_slots}
    return None


def gpu_positions(gpu: Gpu, count: int) -> int:
    """GPU positions (double-width slots) ``count`` of ``gpu`` take."""
    return _positions(gpu, count)


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


_BAY_RANK = {"m2": 0, "u2": 0, "sata_2.5": 1, "sata_3.5": 1, "e1s": 2, "e3s": 2}
"""Where a chassis' bay kinds are not known: the common 2.5-inch U.2 form before the EDSFF rulers, which only
servers built for them take."""


def _nvme(catalog: Catalog, m2: bool, chassis: Chassis | None = None) -> list[Storage]:
    """NVMe drives, M.2 or not; not M.2: only those the chassis' bays are known to take, where it says."""
    kinds = chassis.drive_bay_kinds if chassis is not None else None
    return [
        s
        for s in catalog.all(Storage)
        if s.storage_kind == StorageKind.NVME and (s.bay == "m2") == m2
        and (m2 or kinds is None or any(kinds.get(k, 0) for k in DRIVE_FITS_BAY.get(s.bay, ())))  # type: ignore[call-overload]
    ]


def pick_storage(
    chassis: Chassis, dataset_gb: float, data_workload: bool, catalog: Catalog
) -> list[dict[str, Any]]:
    """A system NVMe drive and, for data workloads, NVMe data drives holding the dataset: in bays the chassis
    takes (a board with SATA ports and M.2 slots only gets M.2 drives)."""
    out: list[dict[str, Any]] = []
    m2_slots = chassis.m2_slots or 0  # an unknown M.2 count plans no M.2 drives
    use_m2 = m2_slots > 0 and bool(_nvme(catalog, True))
    system = _nvme(catalog, use_m2, chassis) or _nvme(catalog, not use_m2, chassis)
    if system:
        drive = min(system, key=lambda s: (s.capacity_gb, _BAY_RANK.get(s.bay, 3), *_price_key(s)))
        out.append({"role": "system", "part": drive.id, "count": 1})
    if data_workload:  # BALANCE-NVME-DATA wants an NVMe data drive even before the dataset size is known
        no_bays = chassis.drive_bays == 0 or not _nvme(catalog, False, chassis)
        data_m2 = no_bays and m2_slots > 0
        pool = _nvme(catalog, data_m2, chassis) or _nvme(catalog, not data_m2, chassis)
        if data_m2:
            limit = max(m2_slots - (1 if use_m2 else 0), 1)
        else:  # unknown bay count: no cap (PCIE-DRIVE-BAYS-UNKNOWN asks the vendor)
            limit = max(chassis.drive_bays, 1) if chassis.drive_bays is not None else 10_000
        best = None
        for s in pool:
            n = max(1, math.ceil(dataset_gb / s.capacity_gb))
            if n > limit:
                continue
            cost = (s.price_cny or 0) * n
            key = (s.price_cny is None, cost, n, _BAY_RANK.get(s.bay, 3), s.id)
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
    needing the fewest units within the bays (never another system's own module: Psu.systems)."""
    draw = power_budget(plan, catalog, policy).draw_w
    red = plan.server.psu.redundancy
    band = plan.server.input_voltage
    options = [catalog.typed(Psu, chassis.psu_included)] if chassis.psu_included else catalog.all(Psu)
    best = None
    form = psu_form_for(chassis)
    for psu in options:
        if psu is None or (psu.id != chassis.psu_included and psu.form not in (form, None)):
            continue
        if psu.systems and chassis.id not in psu.systems:  # another system's own module (POWER-PSU-FORM)
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


def _derive_memory(out: DerivedDefaults, plan: Plan, catalog: Catalog, policy: Policy, lang: Lang,
                   keep: Collection[str], chosen: tuple[Gpu, int, Chassis, Cpu, int, bool]) -> None:
    """The memory modules for the GPUs, the chassis and the CPUs chosen (kept when the buyer chose them)."""
    gpu, count, chassis, cpu, sockets, training = chosen
    srv = plan.server
    need_gib = ram_needed_gib(gpu.memory_gib, count, policy)
    if "memory" in keep and srv.memory is not None:
        out.reasons.append(t("derive.kept", lang, what=t("derive.part.memory", lang),
                             name=_part_name(catalog, MemoryModule, srv.memory.part)))
    else:
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


def _derive_storage(out: DerivedDefaults, plan: Plan, catalog: Catalog, lang: Lang, keep: Collection[str],
                    chassis: Chassis) -> None:
    """The drives for the dataset and the workload (kept when the buyer chose them)."""
    req, srv = plan.requirements, plan.server
    data_workload = req.workload in (Workload.TRAINING, Workload.FINE_TUNING, Workload.DATA_ANALYSIS)
    if "storage" in keep and srv.storage:
        out.reasons.append(t("derive.kept", lang, what=t("derive.part.storage", lang),
                             name=", ".join(_part_name(catalog, Storage, s.part) for s in srv.storage)))
    else:
        storage = pick_storage(chassis, req.dataset_gb, data_workload, catalog)
        out.changes["server.storage"] = storage
        if storage:
            out.reasons.append(t("derive.storage", lang, dataset=f"{req.dataset_gb:g}"))


def _derive_nics(out: DerivedDefaults, plan: Plan, catalog: Catalog, policy: Policy, lang: Lang,
                 keep: Collection[str], training: bool) -> None:
    """The network cards for the nodes and the deployment (kept when the buyer chose them)."""
    req, srv = plan.requirements, plan.server
    if "nics" in keep and srv.nics:
        out.reasons.append(t("derive.kept", lang, what=t("derive.part.nics", lang),
                             name=", ".join(_part_name(catalog, Nic, n.part) for n in srv.nics)))
    else:
        nic = pick_nic(req.nodes, training, policy, catalog)
        if req.nodes == 1 and req.deployment != "datacenter":
            out.changes["server.nics"] = []  # office/lab: the board's own network port serves one machine
            out.reasons.append(t("derive.nic.onboard", lang))
        elif nic is None:
            out.missing.append(t("derive.no_nic", lang))
            out.changes["server.nics"] = []
        else:
            out.changes["server.nics"] = [{"part": nic.id, "count": 1}]
            out.reasons.append(t("derive.nic", lang, nic=nic.name, speed=f"{nic.speed_gbps:g}", nodes=req.nodes))


def derive_defaults(
    plan: Plan,
    catalog: Catalog,
    policy: Policy,
    gpu_id: str | None = None,
    count: int | None = None,
    lang: Lang = "zh",
    keep: Collection[str] = (),
) -> DerivedDefaults:
    """Server parts for ``gpu_id`` × ``count`` (defaults: the plan's GPU choice, or what the VRAM estimate
    needs per node), following the reference rules, the deployment and the budget. The parts named in ``keep``
    (``AUTO_PARTS`` keys: the buyer's own choices) stay as they are and the rest is chosen around them."""
    out = DerivedDefaults()
    req = plan.requirements
    srv = plan.server
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
    budget = req.budget_cny
    kept_chassis = catalog.typed(Chassis, srv.chassis) if "chassis" in keep else None
    if kept_chassis is not None:
        chassis = kept_chassis
        out.reasons.append(t("derive.kept", lang, what=t("derive.part.chassis", lang), name=chassis.name))
    else:
        found = chassis_candidates(gpu, count, catalog, req.deployment, policy, budget, req.nodes)
        if not found:
            if open_air_over(gpu, count, policy):
                out.missing.append(t("derive.open_air", lang, n=count, gpu=gpu.name, limit=policy.max_open_air_gpus))
            else:
                out.missing.append(t("derive.no_chassis", lang, n=count, gpu=gpu.name))
            return out
        chassis = found[0]
        out.changes["server.chassis"] = chassis.id
        out.reasons.append(_chassis_reason(chassis, gpu, count, req.deployment, catalog, lang))
    cpu_pick: tuple[Cpu, int] | None = None
    kept_cpu = catalog.typed(Cpu, srv.cpu) if "cpu" in keep else None
    if kept_cpu is not None:
        cpu_pick = (kept_cpu, max(srv.cpu_count, 1))
        out.reasons.append(t("derive.kept", lang, what=t("derive.part.cpu", lang), name=kept_cpu.name))
    else:
        cpu_pick = pick_cpu(chassis, gpu, count, policy, catalog, training)
        if cpu_pick is None:
            out.missing.append(t("derive.no_cpu", lang, socket=chassis.cpu_socket))
            return out
        out.changes["server.cpu"] = cpu_pick[0].id
        out.changes["server.cpu_count"] = cpu_pick[1]
        out.reasons.append(
            t(
                "derive.cpu",
                lang,
                cpu=cpu_pick[0].name,
                sockets=cpu_pick[1],
                cores=cpu_pick[0].cores * cpu_pick[1],
                need=f"{cores_needed(count, policy):g}",
            )
        )
    cpu, sockets = cpu_pick
    _derive_memory(out, plan, catalog, policy, lang, keep, (gpu, count, chassis, cpu, sockets, training))
    _derive_storage(out, plan, catalog, lang, keep, chassis)
    _derive_nics(out, plan, catalog, policy, lang, keep, training)
    keep_psu = "psu" in keep and srv.psu.part is not None
    if keep_psu:
        out.reasons.append(t("derive.kept", lang, what=t("derive.part.psu", lang),
                             name=_part_name(catalog, Psu, srv.psu.part)))
    elif req.deployment == "datacenter" and srv.psu.redundancy == "none":
        # a data-centre server keeps running when one PSU fails: N+1 unless the buyer chose otherwise
        out.changes["server.psu.redundancy"] = "n+1"
        out.reasons.append(t("derive.redundancy", lang))
    try:
        draft = apply_defaults(plan, out)
    except PlanError:  # pragma: no cover - every value above comes from validated catalog parts
        return out
    if not keep_psu:
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
        draft = apply_defaults(plan, out)
    if budget is not None:
        out.reasons.append(_budget_reason(draft, catalog, policy, lang))
    return out


def _part_name(catalog: Catalog, kind: type[Part], part_id: str | None) -> str:
    part = catalog.typed(kind, part_id)
    return part.name if part is not None else str(part_id)


def _chassis_reason(chassis: Chassis, gpu: Gpu, count: int, deployment: str, catalog: Catalog, lang: Lang) -> str:
    """One line: the platform, why this size, and — for an office or lab given a rack server — why no tower."""
    form = t(f"derive.form.{chassis.form}", lang)
    line = t("derive.chassis", lang, chassis=chassis.name, slots=chassis.gpu_slots, n=count, form=form,
             where=t(f"derive.where.{deployment}", lang))
    if deployment != "datacenter" and chassis.form != "tower":
        towers = [c for c in catalog.all(Chassis) if c.form == "tower"]
        if towers:
            most = max(towers, key=lambda c: c.gpu_slots)
            why = why_not(most, gpu, count)
            if why is not None:
                line += " " + t("derive.no_tower", lang, tower=most.name, why=t(f"derive.why.{why[0]}", lang, **why[1]))
        else:
            line += " " + t("derive.no_tower_in_catalog", lang)
    return line


def _budget_reason(draft: Plan, catalog: Catalog, policy: Policy, lang: Lang) -> str:
    """The configuration against the budget: within / over / unknown, as the budget verdict says it."""
    verdict = plan_cost(draft, catalog).verdict(policy)
    figures = {"cost": yuan(verdict.gross_cny), "budget": yuan(verdict.budget_cny or 0), "n": len(verdict.unpriced)}
    return t(f"derive.budget.{verdict.status}", lang, **figures)


def _server_part(plan: Plan, key: AutoPart) -> Any:
    srv = plan.server
    if key == "cpu":
        return (srv.cpu, srv.cpu_count)
    value = getattr(srv, key)
    return value.model_dump(mode="json") if hasattr(value, "model_dump") else \
        [v.model_dump(mode="json") for v in value] if isinstance(value, list) else value


def _is_set(plan: Plan, key: AutoPart) -> bool:
    srv = plan.server
    return bool({"chassis": srv.chassis, "cpu": srv.cpu, "memory": srv.memory, "storage": srv.storage,
                 "nics": srv.nics, "psu": srv.psu.part}[key])


def hand_chosen(plan: Plan) -> list[AutoPart]:
    """The server parts that are set and were not chosen by Auto-configure (by hand, or in an older file)."""
    return [k for k in AUTO_PARTS if _is_set(plan, k) and k not in plan.server.auto_chosen]


def would_replace(plan: Plan, derived: DerivedDefaults) -> list[AutoPart]:
    """The hand-chosen parts that applying ``derived`` would change: Auto-configure asks before replacing them."""
    after = apply_defaults(plan, derived)
    return [k for k in hand_chosen(plan) if _server_part(after, k) != _server_part(plan, k)]


def part_text(plan: Plan, key: AutoPart, catalog: Catalog) -> str:
    """The server part ``key`` as a person reads it: '2 × AMD EPYC 7543', '16 × Samsung 32GB …', '—' if none."""
    srv = plan.server
    if key == "chassis":
        return _part_name(catalog, Chassis, srv.chassis) if srv.chassis else "—"
    if key == "cpu":
        return f"{srv.cpu_count} × {_part_name(catalog, Cpu, srv.cpu)}" if srv.cpu else "—"
    if key == "memory":
        return f"{srv.memory.count} × {_part_name(catalog, MemoryModule, srv.memory.part)}" if srv.memory else "—"
    if key == "storage":
        return ", ".join(f"{x.count} × {_part_name(catalog, Storage, x.part)}" for x in srv.storage) or "—"
    if key == "nics":
        return ", ".join(f"{x.count} × {_part_name(catalog, Nic, x.part)}" for x in srv.nics) or "—"
    return f"{srv.psu.count} × {_part_name(catalog, Psu, srv.psu.part)} ({srv.psu.redundancy.value.upper()})" \
        if srv.psu.part else "—"


def describe_replacements(plan: Plan, derived: DerivedDefaults, catalog: Catalog, lang: Lang) -> list[str]:
    """One line per hand-chosen part ``derived`` would replace: 'Chassis: yours → proposed'."""
    after = apply_defaults(plan, derived)
    return [t("derive.replace", lang, what=t(f"derive.part.{k}", lang), old=part_text(plan, k, catalog),
              new=part_text(after, k, catalog)) for k in would_replace(plan, derived)]


def auto_part_of(path: str) -> AutoPart | None:
    """The ``AUTO_PARTS`` key a plan path edits ('server.memory.count' -> 'memory'; 'server.cpu_count' -> 'cpu')."""
    if not path.startswith("server."):
        return None
    head = path.split(".")[1].split("[")[0]
    head = "cpu" if head == "cpu_count" else head
    return head if head in AUTO_PARTS else None


def hand_edit(plan: Plan, path: str, value: Any) -> Plan:
    """``with_value`` for an edit made by hand: the part it touches no longer counts as Auto-configure's."""
    after = with_value(plan, path, value)
    key = auto_part_of(path)
    if key is not None and key in after.server.auto_chosen:
        after = with_value(after, "server.auto_chosen", [k for k in after.server.auto_chosen if k != key])
    return after


def apply_defaults(plan: Plan, derived: DerivedDefaults) -> Plan:
    """A new Plan with every derived value set; the parts it sets are recorded as Auto-configure's."""
    data = plan.model_dump(mode="json")
    for path, value in derived.changes.items():
        node = data
        keys = path.split(".")
        for key in keys[:-1]:
            if node.get(key) is None:
                node[key] = {}
            node = node[key]
        node[keys[-1]] = value
    chosen = set(plan.server.auto_chosen) | {k for path in derived.changes if (k := auto_part_of(path))}
    data["server"]["auto_chosen"] = [k for k in AUTO_PARTS if k in chosen]
    try:
        return Plan.model_validate(data)
    except ValueError as exc:
        raise PlanError(str(exc)) from None


_ = with_value  # re-exported helper for callers that apply one change at a time

register(
    {
        "derive.no_gpu": "Choose a GPU model first.",
        "derive.kept": "{what}: your choice, {name}, kept.",
        "derive.replace": "{what}: {old} → {new}",
        "derive.part.chassis": "Chassis",
        "derive.part.cpu": "CPU",
        "derive.part.memory": "Memory",
        "derive.part.storage": "Storage",
        "derive.part.nics": "Network",
        "derive.part.psu": "PSUs",
        "derive.form.tower": "tower",
        "derive.form.rack": "rack server",
        "derive.where.lab": "a lab",
        "derive.where.office": "an office",
        "derive.where.datacenter": "a data centre",
        "derive.no_tower": (
            "No tower will do: the largest tower in the catalog, {tower}, {why}; a rack server needs a server room "
            "(noise, power, cooling)."
        ),
        "derive.why.form_factor": plural("takes {has} card, not {needs}", "takes {has} cards, not {needs}", "has"),
        "derive.why.not_supported": "is not validated for the {gpu}",
        "derive.why.tdp": "cools at most {limit} W per GPU and the {gpu} draws {tdp} W",
        "derive.why.width": plural(
            "takes cards up to {max} slot wide and the {gpu} is {#width} wide",
            "takes cards up to {max} slots wide and the {gpu} is {#width} wide",
            "max",
        ),
        "derive.why.width#width": plural("{width} slot", "{width} slots", "width"),
        "derive.why.passive": "cannot cool passive (fan-less) cards such as the {gpu}",
        "derive.why.positions": plural(
            "has {slots} GPU position and {n} × {gpu} take {need}",
            "has {slots} GPU positions and {n} × {gpu} take {need}",
            "slots",
        ),
        "derive.no_tower_in_catalog": (
            "The catalog has no tower; a rack server needs a server room (noise, power, cooling)."
        ),
        "derive.nic.onboard": "Network: one machine outside a data centre uses the board's own port; no NIC added.",
        "derive.budget.within": (
            "Budget: this configuration costs {cost} incl. VAT, within the {budget} budget (every line priced)."
        ),
        "derive.budget.over": (
            "Budget: the priced parts alone come to {cost} incl. VAT, over the {budget} budget; choose fewer or "
            "cheaper GPUs."
        ),
        "derive.budget.unknown": plural(
            (
                "Budget: whether it fits {budget} is unknown — {n} part have no price; the priced parts, {cost} incl. "
                "VAT, are a lower bound."
            ),
            (
                "Budget: whether it fits {budget} is unknown — {n} parts have no price; the priced parts, {cost} incl. "
                "VAT, are a lower bound."
            ),
            "n",
        ),
        "derive.count": plural(
            "{n} GPU per node for the {need} GB VRAM estimate.",
            "{n} GPUs per node for the {need} GB VRAM estimate.",
            "n",
        ),
        "derive.no_chassis": "No catalog platform holds {n} × {gpu}.",
        "derive.chassis": plural(
            (
                "Platform {chassis} ({form}, for {where}): {slots} GPU position for {#n} — the fewest positions that "
                "hold them."
            ),
            (
                "Platform {chassis} ({form}, for {where}): {slots} GPU positions for {#n} — the fewest positions that "
                "hold them."
            ),
            "slots",
        ),
        "derive.chassis#n": plural("{n} GPU", "{n} GPUs", "n"),
        "derive.no_cpu": "No catalog CPU for socket {socket}.",
        "derive.cpu": plural(
            "CPU {sockets} × {cpu}: {cores} core (≥ {need} advised).",
            "CPU {sockets} × {cpu}: {cores} cores (≥ {need} advised).",
            "cores",
        ),
        "derive.no_memory": "No suitable {type} memory in the catalog.",
        "derive.memory": "Memory {n} × {module} = {total} GiB (≥ {need} GiB advised).",
        "derive.storage": "NVMe system drive; data drives sized for the {dataset} GB dataset.",
        "derive.no_nic": "No NIC in the catalog meets the need.",
        "derive.nic": plural(
            "NIC {nic} ({speed} Gb/s for {nodes} node).",
            "NIC {nic} ({speed} Gb/s for {nodes} nodes).",
            "nodes",
        ),
        "derive.no_psu": "No PSU model carries the load within {bays} PSU bays.",
        "derive.psu": "PSUs {n} × {psu}: estimated draw {draw} W, {need} W with {headroom}% headroom.",
        "derive.open_air": plural(
            (
                "{n} open-air {gpu} card exceed the {limit} one chassis can cool (they throttle): use blower or "
                "passive cards, or at most {limit} per server."
            ),
            (
                "{n} open-air {gpu} cards exceed the {limit} one chassis can cool (they throttle): use blower or "
                "passive cards, or at most {limit} per server."
            ),
            "gpu",
        ),
        "derive.redundancy": "Data-centre deployment: PSUs with N+1 redundancy.",
    }
)

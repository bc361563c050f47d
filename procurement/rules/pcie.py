"""PCIe and platform-fit rules: lane budget (who drops to x8/x4), slots, generations, SXM, sockets, bays.

Lane needs come from the catalog: each GPU's ``pcie_lanes`` (x16), each NVMe drive's ``pcie_lanes`` (x4),
each NIC's ``pcie_lanes`` (x8/x16; docs/sources.md §D3: ConnectX-7 Gen5 x16). Lanes available: the CPU's usable
lanes per socket × sockets, or, for GPUs behind PCIe switches, the chassis' switch lanes. On HGX platforms
the SXM modules and up to ``switch_nic_slots`` NICs sit behind the platform's PCIe switches (Supermicro's
smc_lspci tool for the SYS-821GE-TNHR maps each H100 and ConnectX-7 to a Broadcom switch; NVIDIA's DGX H100
user guide puts one ConnectX-7 per GPU on the interposer between CPUs and GPU tray): they take no CPU lanes
and, with no sourced switch lane count, are not budgeted. A PCIe
generation step halves the per-lane rate (each PCIe generation doubles it), so a Gen5 card on a Gen4
platform runs at half its host bandwidth.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from catalog.loader import Catalog
from catalog.models import DRIVE_FITS_BAY, GpuFormFactor
from procurement.budgets.lanes import LaneBudget as LaneBudget  # re-exported: procurement.budgets is its home
from procurement.budgets.lanes import LaneDevice, lane_budget
from procurement.coded import coded, names
from procurement.findings import Family, Finding, Severity
from procurement.messages import plural, register
from procurement.plan import Plan
from procurement.policy import Policy
from procurement.rules.base import join_names, make, resolve
from procurement.rules.registry import rule

FAMILY: Family = "pcie"


def _summary(devices: tuple[LaneDevice, ...]) -> str:
    groups: dict[tuple[str, int, int], int] = {}
    for d in devices:
        name = d.label.split(" (", 1)[1][:-1] if d.kind == "gpu" else d.label
        key = (name, d.wanted, d.granted)
        groups[key] = groups.get(key, 0) + d.count
    return ", ".join(f"{n} × {name} x{w}→x{g}" for (name, w, g), n in groups.items())


FORM_FACTOR_LABEL = {GpuFormFactor.PCIE: "PCIe", GpuFormFactor.SXM: "SXM"}
"""As the datasheets write them (the enum's upper case printed "PCIE")."""

@rule(FAMILY, "PCIE-LANES", "PCIE-LANES-REDUCED", step=3, item="gpu_model_count")
def lanes(plan: Plan, catalog: Catalog, policy: Policy) -> list[Finding]:
    """PCIE-LANES (not enough lanes even at x4) and PCIE-LANES-REDUCED (devices drop to x8/x4)."""
    b = lane_budget(plan, catalog, policy)
    if not b.devices:
        return []
    fields = tuple(dict.fromkeys(["server.cpu", "server.cpu_count", *(d.path for d in b.reduced)]))
    kw = dict(
        cpu_need=b.cpu_needed,
        cpu_have=b.cpu_lanes if b.cpu_lanes is not None else "?",
        sw_need=b.switch_needed,
        sw_have=b.switch_lanes,
        reduced=_summary(b.reduced),
    )
    # no PCIe switch on the platform: no "switch side 0 / 0" in the text
    variant = "cpu_only" if not b.switch_lanes and not b.switch_needed else None
    if b.shortfall:
        return [make("PCIE-LANES", Severity.ERROR, fields, variant=variant,
                     missing=b.shortfall, **kw)]
    if b.reduced:
        return [make("PCIE-LANES-REDUCED", Severity.WARNING, fields, variant=variant, **kw)]
    return []


@rule(FAMILY, "PCIE-LANES-UNKNOWN", step=3, item="cpu_cores")
def lanes_unknown(plan: Plan, catalog: Catalog, policy: Policy) -> list[Finding]:
    """PCIE-LANES-UNKNOWN: the CPU's lane count is not in the catalog, so the lane budget is not checked."""
    p = resolve(plan, catalog)
    if p.cpu is None or p.cpu.pcie_lanes is not None:
        return []
    if not any(d.pool == "cpu" for d in lane_budget(plan, catalog, policy).devices):
        return []
    return [make("PCIE-LANES-UNKNOWN", Severity.INFO, ("server.cpu",), cpu=p.cpu.name)]


@rule(FAMILY, "PCIE-SLOT-WIDTH", "PCIE-GPU-SLOTS", step=3, item="gpu_model_count")
def gpu_slots(plan: Plan, catalog: Catalog, policy: Policy) -> list[Finding]:
    """PCIE-GPU-SLOTS (too many GPUs for the positions; a 3-slot card takes two double-width positions)
    and PCIE-SLOT-WIDTH (the card is wider than the chassis allows)."""
    p = resolve(plan, catalog)
    if p.gpu is None or p.chassis is None or p.gpu_count == 0:
        return []
    out = []
    width = p.gpu.slot_width
    max_width = p.chassis.max_gpu_slot_width
    if width and max_width and p.gpu.form_factor == GpuFormFactor.PCIE and width > max_width:
        out.append(
            make(
                "PCIE-SLOT-WIDTH",
                Severity.ERROR,
                ("gpu.model", "server.chassis"),
                gpu=p.gpu.name,
                width=width,
                chassis=p.chassis.name,
                max=max_width,
            )
        )
    per_card = math.ceil(width / 2) if width and width > 2 and p.gpu.form_factor == GpuFormFactor.PCIE else 1
    positions = p.gpu_count * per_card
    if positions > p.chassis.gpu_slots:
        out.append(
            make(
                "PCIE-GPU-SLOTS",
                Severity.ERROR,
                ("gpu.count", "server.chassis"),
                variant="wide" if per_card > 1 else None,
                count=p.gpu_count,
                positions=positions,
                slots=p.chassis.gpu_slots,
                chassis=p.chassis.name,
                fit=p.chassis.gpu_slots // per_card,
                gpu=p.gpu.name,
                width=width,
                per=per_card,
            )
        )
    return out


@rule(FAMILY, "PCIE-GEN", step=3, item="gpu_model_count")
def generation(plan: Plan, catalog: Catalog, policy: Policy) -> list[Finding]:
    """PCIE-GEN: a newer PCIe generation on an older platform runs at the platform's (half per step) rate."""
    p = resolve(plan, catalog)
    if p.cpu is None:
        return []
    platform = p.cpu.pcie_gen
    slower: list[str] = []
    paths: list[str] = []
    if (
        p.gpu is not None
        and p.gpu_count
        and p.gpu.form_factor == GpuFormFactor.PCIE
        and p.gpu.pcie_gen > platform
    ):
        slower.append(f"{p.gpu.name} Gen{p.gpu.pcie_gen}")
        paths.append("gpu.model")
    for n in p.nics:
        if n.count and n.part.pcie_gen > platform:
            slower.append(f"{n.part.name} Gen{n.part.pcie_gen}")
            paths.append(f"server.nics[{n.index}].part")
    if not slower:
        return []
    return [
        make(
            "PCIE-GEN",
            Severity.INFO,
            (*paths, "server.cpu"),
            devices=join_names(slower),
            gen=platform,
            cpu=p.cpu.name,
        )
    ]


@rule(FAMILY, "PCIE-FORM-FACTOR", "PCIE-GPU-UNSUPPORTED", step=3, item="gpu_model_count")
def form_factor(plan: Plan, catalog: Catalog, policy: Policy) -> list[Finding]:
    """PCIE-FORM-FACTOR (SXM modules need an SXM/HGX platform; PCIe cards do not fit one) and
    PCIE-GPU-UNSUPPORTED (a platform built for specific GPU modules)."""
    p = resolve(plan, catalog)
    if p.gpu is None or p.chassis is None:
        return []
    fields = ("gpu.model", "server.chassis")
    if p.gpu.form_factor != p.chassis.gpu_form_factor:
        return [
            make(
                "PCIE-FORM-FACTOR",
                Severity.ERROR,
                fields,
                gpu=p.gpu.name,
                gpu_ff=FORM_FACTOR_LABEL[p.gpu.form_factor],
                chassis=p.chassis.name,
                chassis_ff=FORM_FACTOR_LABEL[p.chassis.gpu_form_factor],
            )
        ]
    if p.chassis.gpus_supported and p.gpu.id not in p.chassis.gpus_supported:
        return [
            make(
                "PCIE-GPU-UNSUPPORTED",
                Severity.ERROR,
                fields,
                gpu=p.gpu.name,
                chassis=p.chassis.name,
                supported=join_names(g.name if (g := catalog.gpu(i)) else i for i in p.chassis.gpus_supported),
            )
        ]
    return []


@rule(FAMILY, "PCIE-GPU-RACK-SCALE", step=2, item="gpu_model_count")
def rack_scale(plan: Plan, catalog: Catalog, policy: Policy) -> list[Finding]:
    """PCIE-GPU-RACK-SCALE: a GPU sold only inside a rack-scale system (GB200/GB300 NVL72, the catalog's
    ``rack_scale``). The app builds servers part by part; eight of these in a "server" would be given power,
    cooling and lane figures of a machine that does not exist, so the plan is answered with the rack's own
    facts instead: racks for the GPUs asked for, and about how much they draw (a range where the sources
    disagree on a rack's power)."""
    p = resolve(plan, catalog)
    if p.gpu is None or p.gpu.rack_scale is None or plan.gpu.count <= 0:
        return []
    rs = p.gpu.rack_scale
    total = plan.gpu.count * plan.requirements.nodes
    racks = math.ceil(total / rs.gpus_per_rack)
    return [
        make(
            "PCIE-GPU-RACK-SCALE",
            Severity.ERROR,
            ("gpu.model", "gpu.count"),
            gpu=p.gpu.name,
            system=rs.system,
            gpus=rs.gpus_per_rack,
            cpus=rs.cpus_per_rack,
            kw=f"{rs.rack_kw:,.0f}" if rs.rack_kw_max is None else f"{rs.rack_kw:,.0f}–{rs.rack_kw_max:,.0f}",
            total=total,
            racks=racks,
            total_kw=(f"{racks * rs.rack_kw:,.0f}" if rs.rack_kw_max is None
                      else f"{racks * rs.rack_kw:,.0f}–{racks * rs.rack_kw_max:,.0f}"),
        )
    ]


@rule(FAMILY, "PCIE-CPU-SOCKET", "PCIE-CPU-COUNT", "PCIE-CPU-SOCKETS-UNKNOWN", step=3, item="cpu_cores")
def cpu_socket(plan: Plan, catalog: Catalog, policy: Policy) -> list[Finding]:
    """PCIE-CPU-SOCKET (CPU socket ≠ board socket) and PCIE-CPU-COUNT (more CPUs than sockets or than
    the CPU supports); PCIE-CPU-SOCKETS-UNKNOWN (more than one CPU of a SKU whose socket limit no source gives:
    a warning, never assumed to work)."""
    p = resolve(plan, catalog)
    if p.cpu is None:
        return []
    out = []
    if p.chassis is not None and p.cpu.socket != p.chassis.cpu_socket:
        out.append(
            make(
                "PCIE-CPU-SOCKET",
                Severity.ERROR,
                ("server.cpu", "server.chassis"),
                cpu=p.cpu.name,
                socket=p.cpu.socket,
                chassis=p.chassis.name,
                board=p.chassis.cpu_socket,
            )
        )
    board = p.chassis.cpu_sockets if p.chassis else None
    if p.cpu.max_sockets is None:
        if 1 < p.cpu_count <= (board or p.cpu_count):
            out.append(make("PCIE-CPU-SOCKETS-UNKNOWN", Severity.WARNING, ("server.cpu_count",),
                            count=p.cpu_count, cpu=p.cpu.name))
    limit = min(p.cpu.max_sockets or p.cpu_count or 1, board if board is not None else p.cpu.max_sockets or 1)
    if p.cpu_count > limit or p.cpu_count == 0:
        out.append(
            make(
                "PCIE-CPU-COUNT",
                Severity.ERROR,
                ("server.cpu_count",),
                count=p.cpu_count,
                limit=limit,
                cpu=p.cpu.name,
            )
        )
    return out


@rule(FAMILY, "PCIE-DRIVE-BAYS", step=3, item="storage_nvme")
def drive_bays(plan: Plan, catalog: Catalog, policy: Policy) -> list[Finding]:
    """PCIE-DRIVE-BAYS: more M.2 drives than M.2 slots, or more other drives than drive bays (each side
    checked only where the chassis' count is known; PCIE-DRIVE-BAYS-UNKNOWN says where it is not)."""
    p = resolve(plan, catalog)
    if p.chassis is None or not p.storage:
        return []
    m2, other = _m2_and_other(p.storage)
    bays, slots = p.chassis.drive_bays, p.chassis.m2_slots
    m2_ok = slots is None or m2 <= slots  # an unknown count is not guessed
    other_ok = bays is None or other <= bays
    if m2_ok and other_ok:
        return []
    return [
        make(
            "PCIE-DRIVE-BAYS",
            Severity.ERROR,
            ("server.storage", "server.chassis"),
            m2=m2,
            m2_slots=slots if slots is not None else "?",
            bays_used=other,
            bays=bays if bays is not None else "?",
            chassis=p.chassis.name,
        )
    ]


def _m2_and_other(storage: Sequence[Any]) -> tuple[int, int]:
    m2 = sum(s.item.count for s in storage if s.part.bay == "m2")
    return m2, sum(s.item.count for s in storage) - m2


@rule(FAMILY, "PCIE-DRIVE-BAYS-UNKNOWN", step=3, item="storage_nvme")
def drive_bays_unknown(plan: Plan, catalog: Catalog, policy: Policy) -> list[Finding]:
    """PCIE-DRIVE-BAYS-UNKNOWN: drives are planned where the chassis' M.2 slots or drive bays are not in the
    catalog, so whether they fit was not checked (a warning: unknown is never a pass)."""
    p = resolve(plan, catalog)
    if p.chassis is None or not p.storage:
        return []
    m2, other = _m2_and_other(p.storage)
    unknown: list[Any] = []
    if m2 and p.chassis.m2_slots is None:
        unknown.append(coded("PCIE-DRIVE-BAYS-UNKNOWN.m2", n=m2))
    if other and p.chassis.drive_bays is None:
        unknown.append(coded("PCIE-DRIVE-BAYS-UNKNOWN.bays", n=other))
    if not unknown:
        return []
    return [
        make(
            "PCIE-DRIVE-BAYS-UNKNOWN",
            Severity.WARNING,
            ("server.storage", "server.chassis"),
            chassis=p.chassis.name,
            what=unknown[0] if len(unknown) == 1 else coded("PCIE-DRIVE-BAYS-UNKNOWN.both", m2=unknown[0],
                                                            bays=unknown[1]),
        )
    ]


@rule(FAMILY, "PCIE-DRIVE-FORM", step=3, item="storage_nvme")
def drive_form(plan: Plan, catalog: Catalog, policy: Policy) -> list[Finding]:
    """PCIE-DRIVE-FORM: a drive whose form or interface (U.2 NVMe, EDSFF, 2.5- or 3.5-inch SATA/SAS) the
    chassis' bays do not take, or more of one kind than it has bays for (error; checked only where the bays'
    kinds are known: catalog/models.py DRIVE_FITS_BAY says what goes where)."""
    p = resolve(plan, catalog)
    ch = p.chassis
    if ch is None or not p.storage or ch.drive_bay_kinds is None:
        return []
    kinds = ch.drive_bay_kinds
    need: dict[str, tuple[int, str, str]] = {}
    for s in p.storage:
        bay = s.part.bay
        if bay in ("m2", ""):
            continue
        n, name, form = need.get(bay, (0, s.part.name, s.part.form))
        need[bay] = (n + s.item.count, name, form)
    takes = names(coded("PCIE-DRIVE-FORM.bay", n=n, kind=coded(f"drive.bay.{k}")) for k, n in kinds.items() if n)
    out: list[Finding] = []
    for bay, (n, name, form) in need.items():
        room = sum(kinds.get(k, 0) for k in DRIVE_FITS_BAY[bay])  # type: ignore[call-overload]
        if n <= room:
            continue
        out.append(
            make(
                "PCIE-DRIVE-FORM",
                Severity.ERROR,
                ("server.storage", "server.chassis"),
                variant="count" if room else None,
                chassis=ch.name,
                takes=takes if kinds and any(kinds.values()) else coded("drive.bay.none"),
                count=n,
                drive=name,
                form=form,
                needs=coded(f"drive.bay.{bay}"),
                room=room,
            )
        )
    return out



register(
    {
        "PCIE-LANES.message": (
            "Not enough PCIe lanes: CPU side needs {cpu_need}, has {cpu_have}; PCIe-switch side needs {sw_need}, has "
            "{sw_have}; even at x4 {missing} lanes are missing."
        ),
        "PCIE-LANES.message.cpu_only": (
            "Not enough PCIe lanes: the CPU needs {cpu_need}, has {cpu_have} (the platform has no PCIe switch); even "
            "at x4 {missing} lanes are missing."
        ),
        "PCIE-LANES-REDUCED.message.cpu_only": (
            "Not enough PCIe lanes for every device at full width (the CPU needs {cpu_need}, has {cpu_have}; the "
            "platform has no PCIe switch): {reduced}."
        ),
        "PCIE-LANES.fix": (
            "Choose a CPU with more lanes, a second socket or a platform with PCIe switches, or fewer devices."
        ),
        "PCIE-LANES-REDUCED.message": (
            "Not enough PCIe lanes for every device at full width (CPU side {cpu_need} needed / {cpu_have} available, "
            "switch side {sw_need} / {sw_have}): {reduced}."
        ),
        "PCIE-LANES-REDUCED.fix": (
            "Choose a CPU with more lanes or a platform with PCIe switches; narrower links cut host-to-GPU/NIC "
            "bandwidth."
        ),
        "PCIE-LANES-UNKNOWN.message": "The catalog has no PCIe lane count for {cpu}; the lane budget is not checked.",
        "PCIE-LANES-UNKNOWN.fix": "Confirm the board's PCIe lane layout with the vendor.",
        "PCIE-SLOT-WIDTH.message": plural(
            "{gpu} is {width} slot wide; {chassis} takes GPUs up to {#max} wide.",
            "{gpu} is {width} slots wide; {chassis} takes GPUs up to {#max} wide.",
            "width",
        ),
        "PCIE-SLOT-WIDTH.message#max": plural("{max} slot", "{max} slots", "max"),
        "PCIE-SLOT-WIDTH.fix": "Choose a narrower GPU (blower/passive version) or a larger chassis.",
        "PCIE-GPU-SLOTS.message": plural(
            "{count} GPU need {#positions}; {chassis} has {slots}.",
            "{count} GPUs need {#positions}; {chassis} has {slots}.",
            "count",
        ),
        "PCIE-GPU-SLOTS.message#positions": plural(
            "{positions} GPU position", "{positions} GPU positions", "positions"
        ),
        "PCIE-GPU-SLOTS.message.wide": plural(
            (
                "{gpu} is a {width}-slot card that takes {per} double-width GPU positions: {count} of them need "
                "{positions} position; {chassis} has {slots}."
            ),
            (
                "{gpu} is a {width}-slot card that takes {per} double-width GPU positions: {count} of them need "
                "{positions} positions; {chassis} has {slots}."
            ),
            "positions",
        ),
        "PCIE-GPU-SLOTS.fix.wide": plural(
            (
                "Its {slots} position hold at most {fit} of these {width}-slot cards; use fewer GPUs, a dual-slot "
                "version or another chassis."
            ),
            (
                "Its {slots} positions hold at most {fit} of these {width}-slot cards; use fewer GPUs, a dual-slot "
                "version or another chassis."
            ),
            "slots",
        ),
        "PCIE-GPU-SLOTS.fix": "This chassis holds at most {fit} of these GPUs; use fewer GPUs or another chassis.",
        "PCIE-GEN.message": (
            "{devices} run at PCIe Gen{gen} on the {cpu} platform; each generation step halves the bandwidth."
        ),
        "PCIE-GEN.fix": "For full bandwidth, choose a CPU platform with the newer PCIe generation.",
        "PCIE-FORM-FACTOR.message": plural(
            "{gpu} is an {gpu_ff} part; {chassis} takes {chassis_ff} GPU only.",
            "{gpu} is an {gpu_ff} part; {chassis} takes {chassis_ff} GPUs only.",
            "chassis_ff",
        ),
        "PCIE-FORM-FACTOR.fix": "SXM GPUs need an SXM/HGX platform; PCIe cards need a PCIe GPU server.",
        "PCIE-GPU-UNSUPPORTED.message": "{chassis} is built for {supported} only, not {gpu}.",
        "PCIE-GPU-UNSUPPORTED.fix": "Choose a GPU the platform supports, or another platform.",
        "PCIE-GPU-RACK-SCALE.message": plural(
            (
                "{gpu} is sold only inside the {system} rack ({gpus} GPUs and {cpus} Grace CPUs, liquid-cooled, "
                "about {kw} kW per rack), not in a server this app configures part by part: the power, cooling "
                "and PCIe figures of such a server would be wrong. {total} GPUs take {racks} rack, about "
                "{total_kw} kW."
            ),
            (
                "{gpu} is sold only inside the {system} rack ({gpus} GPUs and {cpus} Grace CPUs, liquid-cooled, "
                "about {kw} kW per rack), not in a server this app configures part by part: the power, cooling "
                "and PCIe figures of such a server would be wrong. {total} GPUs take {racks} racks, about "
                "{total_kw} kW."
            ),
            "racks",
        ),
        "PCIE-GPU-RACK-SCALE.fix": (
            "Plan the racks from the vendor's rack specification (power per rack, the coolant supply), or choose "
            "an HGX server GPU (B200, B300) that this app configures."
        ),
        "PCIE-CPU-SOCKET.message": "{cpu} uses socket {socket}; {chassis} has {board}.",
        "PCIE-CPU-SOCKET.fix": "Choose a CPU for the board's socket.",
        "PCIE-CPU-COUNT.message": plural(
            "{count} CPU is not possible: {cpu} runs 1 to {limit} per server on this platform.",
            "{count} CPUs is not possible: {cpu} runs 1 to {limit} per server on this platform.",
            "count",
        ),
        "PCIE-CPU-COUNT.fix": "Set the CPU count between 1 and {limit}.",
        "PCIE-CPU-SOCKETS-UNKNOWN.message": (
            "{count}× {cpu}: no source says whether this SKU runs in a multi-socket server, so that cannot be "
            "confirmed."
        ),
        "PCIE-CPU-SOCKETS-UNKNOWN.fix": (
            "Have the vendor confirm in writing that this SKU runs {count} per server, or choose a SKU known to."
        ),
        "PCIE-DRIVE-BAYS.message": plural(
            (
                "{chassis}: {m2} M.2 drives for {m2_slots} M.2 slots and {bays_used} other drives for {bays} bay do "
                "not fit."
            ),
            (
                "{chassis}: {m2} M.2 drives for {m2_slots} M.2 slots and {bays_used} other drives for {bays} bays do "
                "not fit."
            ),
            "bays",
        ),
        "PCIE-DRIVE-BAYS.fix": "Use larger drives so fewer are needed, or another chassis.",
        "PCIE-DRIVE-BAYS-UNKNOWN.message": (
            "{chassis}: its {what} are not in the catalog, so whether the planned drives fit is unknown."
        ),
        "PCIE-DRIVE-BAYS-UNKNOWN.m2": plural("M.2 slots (for {n} M.2 drive)", "M.2 slots (for {n} M.2 drives)", "n"),
        "PCIE-DRIVE-BAYS-UNKNOWN.bays": plural("drive bays (for {n} drive)", "drive bays (for {n} drives)", "n"),
        "PCIE-DRIVE-BAYS-UNKNOWN.both": "{m2} and {bays}",
        "PCIE-DRIVE-BAYS-UNKNOWN.fix": (
            "Have the vendor confirm in writing the drive bays and M.2 slots (how many, which size and interface), "
            "or choose a chassis whose bays are known."
        ),
        "PCIE-DRIVE-FORM.message": plural(
            "{chassis} takes {takes}: {count} × {drive} ({form}) needs a {needs} bay.",
            "{chassis} takes {takes}: {count} × {drive} ({form}) need {needs} bays.",
            "count",
        ),
        "PCIE-DRIVE-FORM.message.count": plural(
            "{chassis} takes {takes}: {count} × {drive} ({form}) is more than its {room} {needs} bays.",
            "{chassis} takes {takes}: {count} × {drive} ({form}) are more than its {room} {needs} bays.",
            "count",
        ),
        "PCIE-DRIVE-FORM.fix": (
            "Choose drives of a form the chassis takes (an M.2 drive where it has M.2 slots), fewer larger drives, "
            "or a chassis with {needs} bays."
        ),
        "PCIE-DRIVE-FORM.bay": "{n} × {kind}",
        "drive.bay.u2": "2.5-inch NVMe (U.2/U.3)",
        "drive.bay.e1s": "E1.S NVMe",
        "drive.bay.e3s": "E3.S NVMe",
        "drive.bay.sata": "SATA/SAS",
        "drive.bay.sata_2.5": "2.5-inch SATA/SAS",
        "drive.bay.sata_3.5": "3.5-inch SATA/SAS",
        "drive.bay.none": "no drive bays",
    }
)

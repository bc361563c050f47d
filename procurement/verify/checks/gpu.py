"""GPU inventory and configuration checks (nvidia-smi's per-GPU report against the plan and the catalog)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import cast

from catalog.loader import Catalog
from catalog.models import (
    Gpu,
)
from procurement import verification_texts  # noqa: F401  (registers the messages)
from procurement.verify.checks.registry import (
    CheckFn,
    Ctx,
    Facts,
    _ecc_required,
    _gpus_label,
    _label,
    _labels,
    _memory_ok,
    _missing,
    check,
)
from procurement.verify.host import HostInfo
from procurement.verify.parse.lspci import lspci_gpus
from procurement.verify.parse.smi_xml import FIELD_PATHS, SmiGpu, SmiReport
from procurement.verify.report import CheckStatus, Coded, GpuRecord

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


@check("GPU-VISIBLE", "gpu", needs_smi=True, item="gpu_model_count")
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


@check("GPU-MODEL", "gpu", needs_smi=True, item="gpu_model_count")
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


def repeated_uuids(uuids: Iterable[str | None]) -> list[str]:
    """The GPU UUIDs listed more than once, sorted: one GPU counted twice (GPU-COUNT fails on it; a judged
    report whose GPU-COUNT passed over such a list is refused, procurement/probe/nodes.py)."""
    counts = Counter(u for u in uuids if u)
    return sorted(u for u, k in counts.items() if k > 1)


@check("GPU-COUNT", "gpu", needs_smi=True, item="gpu_model_count")
def _gpu_count(c: Ctx) -> None:
    n = len(c.gpus)
    uuids = [g.uuid for g in c.gpus if g.uuid]
    repeated = repeated_uuids(uuids)
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


@check("GPU-MEMORY", "gpu", needs_smi=True, item="gpu_vram")
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


@check("PCIE-WIDTH", "gpu", needs_smi=True, item="gpu_model_count")
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


@check("PCIE-GEN", "gpu", needs_smi=True, item="gpu_model_count")
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


@check("PERSISTENCE", "gpu", needs_smi=True, item="os_driver")
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


@check("ECC", "gpu", needs_smi=True, item="gpu_vram")
def _ecc(c: Ctx) -> None:
    gpus, planned = c.gpus, c.planned
    if c.plan is not None and c.plan.operations.host.ecc == "off":
        c.add("ECC", "skip", "ecc.plan_off")  # asked for: TUNE-ECC judges it against the plan
        return
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


@check("POWER-LIMIT", "gpu", needs_smi=True, item="psu_power")
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


@check("MIG", "gpu", needs_smi=True, item="gpu_model_count")
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


# ---------------------------------------------------------------- per-GPU verdicts (step 5's table, the cluster PDF)

# The checks a single GPU's report fields decide, judged by the same functions as the node report.
_PER_GPU: tuple[tuple[str, CheckFn], ...] = (
    ("GPU-READINGS", _gpu_readings),
    ("PCIE-WIDTH", _pcie_width),
    ("PCIE-GEN", _pcie_gen),
    ("PERSISTENCE", _persistence),
    ("ECC", _ecc),
    ("GPU-MEMORY", _gpu_memory),
)


def _as_smi_gpu(g: GpuRecord) -> SmiGpu:
    """A stored GPU record as the parsed nvidia-smi GPU the checks read (the fields a record keeps)."""
    faults = [tuple(f.split(": ", 1)) if ": " in f else (f, "") for f in g.faults]
    paths = {p for p, _ in faults}
    return SmiGpu(
        index=g.index,
        bus_id=g.bus_id,
        name=g.name,
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
        vbios_version=g.vbios_version,
        board_part_number=g.board_part_number,
        faults=[(p, v) for p, v in faults],
        unreadable={name for name, where in FIELD_PATHS.items() if paths.intersection(where)},
    )


def gpu_verdicts(g: SmiGpu | GpuRecord, part: Gpu | None) -> dict[str, CheckStatus]:
    """Per-GPU pass/fail/warn/unknown of the checks one GPU's report fields decide, by running those checks on
    that GPU alone (against its own catalog part; no plan). A check with nothing to judge (skip) is left out,
    and so is a clean GPU-READINGS: readable values say nothing about the GPU by themselves, so a GPU whose
    report holds no readings at all has no verdict rather than a pass."""
    gpu = _as_smi_gpu(g) if isinstance(g, GpuRecord) else g
    facts = Facts(smi=SmiReport(None, None, 1, [gpu]), host=HostInfo(), parts={gpu.index: part})
    # No plan: no check below reads the catalog (Ctx.planned is None without a plan).
    ctx = Ctx(facts, None, cast(Catalog, None), "en")
    out: dict[str, CheckStatus] = {}
    for check_id, fn in _PER_GPU:
        ctx.checks.clear()
        fn(ctx)
        status = ctx.checks[-1].status if ctx.checks else "skip"
        if status != "skip" and not (check_id == "GPU-READINGS" and status == "pass"):
            out[check_id] = status
    return out


"""Compares what the probes found with the plan (or, without a plan, runs the health checks alone)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from catalog.loader import Catalog
from catalog.models import (
    ContainerImage,
    Cpu,
    DriverBranch,
    Framework,
    Gpu,
    GpuFormFactor,
    MemoryModule,
    Nic,
    OperatingSystem,
    Segment,
    Storage,
    StorageKind,
    parse_version,
)
from procurement.messages import Lang, t
from procurement.plan import Plan
from procurement.verify import texts  # noqa: F401  (registers the messages)
from procurement.verify.host import HostInfo
from procurement.verify.report import CheckRecord, CheckStatus, GpuRecord, make_check
from procurement.verify.smi_xml import SmiGpu, SmiReport
from procurement.verify.topo import Topology

GB = 1_000_000_000
MIB = 1024 * 1024


@dataclass
class Facts:
    """Everything the probes found on one machine."""

    smi: SmiReport | None
    host: HostInfo
    topo: Topology | None = None
    benchmark: dict[str, object] | None = None
    benchmark_skip: str | None = None
    parts: dict[int, Gpu | None] = field(default_factory=dict)
    """GPU index -> matched catalog part."""


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
    )


def _gpus_label(indexes: Iterable[int]) -> str:
    return ", ".join(f"GPU{i}" for i in indexes)


class _Out:
    def __init__(self, lang: Lang) -> None:
        self.lang = lang
        self.checks: list[CheckRecord] = []

    def v(self, key: str, **fields: object) -> str:
        """A value for the Expected/Actual columns in the report's language ('Enabled' / '已启用')."""
        return t(f"verify.val.{key}", self.lang, **fields)

    def cores(self, cores: int, sockets: int | None) -> str:
        """'112 cores / 2 sockets', '2 cores / 1 socket', '112 核 / 2 路'."""
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
        self.checks.append(make_check(check_id, status, t(f"verify.{key}", self.lang, **fields), expected, actual))


# ---------------------------------------------------------------- per-GPU verdicts (also used by the GUI)


def gpu_verdicts(g: SmiGpu | GpuRecord, part: Gpu | None) -> dict[str, CheckStatus]:
    """Per-GPU pass/fail/warn for the checks that can be judged from one GPU's report fields."""
    out: dict[str, CheckStatus] = {}
    if g.pcie_width_current is not None and g.pcie_width_max is not None:
        short = g.pcie_width_current < g.pcie_width_max or (
            part is not None and g.pcie_width_max < part.pcie_lanes
        )
        out["PCIE-WIDTH"] = "fail" if short else "pass"
    if g.pcie_gen_current is not None and g.pcie_gen_max is not None:
        if part is not None and g.pcie_gen_max < part.pcie_gen:
            out["PCIE-GEN"] = "fail"
        else:
            out["PCIE-GEN"] = "warn" if g.pcie_gen_current < g.pcie_gen_max else "pass"
    if g.persistence_mode is not None:
        out["PERSISTENCE"] = "pass" if g.persistence_mode else "warn"
    if g.ecc_enabled is not None:
        required = _ecc_required(part)
        out["ECC"] = "pass" if g.ecc_enabled else ("fail" if required else "warn")
    if part is not None and g.memory_total_mib is not None:
        out["GPU-MEMORY"] = "pass" if g.memory_total_mib * MIB >= part.memory_gib * GB else "fail"
    return out


def _ecc_required(part: Gpu | None) -> bool:
    """ECC off fails on data-centre GPUs (ECC is their default); elsewhere it is a warning."""
    return part is not None and part.segment == Segment.DATACENTER


def _memory_ok(mib: int, part: Gpu) -> bool:
    # Datasheets give decimal GB (T4 "16 GB" shows as 15360 MiB = 16.1e9 bytes); nvidia-smi shows MiB
    # after the driver's reservation. Comparing bytes against decimal GB tolerates both and still catches a
    # 40 GB card delivered for an 80 GB one.
    return mib * MIB >= part.memory_gib * GB


# ---------------------------------------------------------------- the checks


def evaluate(facts: Facts, plan: Plan | None, catalog: Catalog, lang: Lang = "zh") -> list[CheckRecord]:
    """All checks for one machine; GPU checks only when nvidia-smi produced a report."""
    out = _Out(lang)
    smi = facts.smi
    if smi is not None:
        _gpu_checks(out, smi, facts, plan, catalog)
        _topology_check(out, facts, plan, catalog)
    _host_checks(out, facts.host, plan, catalog)
    _software_checks(out, smi, facts.host, plan, catalog)
    _benchmark_check(out, facts, catalog)
    return out.checks


def _part_id(part: Gpu | None) -> str | None:
    return part.id if part is not None else None


def _planned_gpu(plan: Plan | None, catalog: Catalog) -> Gpu | None:
    return catalog.gpu(plan.gpu.model) if plan and plan.gpu.model else None


def _gpu_checks(out: _Out, smi: SmiReport, facts: Facts, plan: Plan | None, catalog: Catalog) -> None:
    gpus = smi.gpus
    parts = facts.parts
    n = len(gpus)
    if smi.attached_gpus is not None and smi.attached_gpus > n:
        out.add(
            "GPU-VISIBLE", "fail", "gpu_visible.fail", smi.attached_gpus, n, attached=smi.attached_gpus, n=n
        )
    else:
        out.add("GPU-VISIBLE", "pass", "gpu_visible.pass", smi.attached_gpus, n, n=n)
    names = Counter(g.name or "?" for g in gpus)
    actual_names = ", ".join(f"{c}× {name}" for name, c in names.items()) or "-"
    planned = _planned_gpu(plan, catalog)

    # GPU-MODEL
    if plan is not None and plan.gpu.model:
        expected = planned.name if planned else plan.gpu.model
        if planned is not None and not planned.smi_names:
            out.add("GPU-MODEL", "warn", "gpu_model.no_names", expected, actual_names, part=expected)
        else:
            wrong = [g.index for g in gpus if _part_id(parts.get(g.index)) != plan.gpu.model]
            if not gpus:
                out.add("GPU-MODEL", "fail", "gpu_model.none", expected, actual_names)
            elif wrong:
                out.add(
                    "GPU-MODEL",
                    "fail",
                    "gpu_model.fail",
                    expected,
                    actual_names,
                    gpus=_gpus_label(wrong),
                    part=expected,
                )
            else:
                out.add("GPU-MODEL", "pass", "gpu_model.pass", expected, actual_names, part=expected)
    else:
        unknown = [g.index for g in gpus if parts.get(g.index) is None]
        if unknown:
            out.add("GPU-MODEL", "warn", "gpu_model.unknown", None, actual_names, gpus=_gpus_label(unknown))
        elif len(names) > 1:
            out.add("GPU-MODEL", "warn", "gpu_model.mixed", None, actual_names)
        else:
            out.add("GPU-MODEL", "pass", "gpu_model.inventory", None, actual_names)

    # GPU-COUNT
    if plan is not None and plan.gpu.count > 0:
        want = plan.gpu.count
        if n == want:
            out.add("GPU-COUNT", "pass", "gpu_count.pass", want, n, n=n)
        elif n < want:
            out.add("GPU-COUNT", "fail", "gpu_count.fewer", want, n, n=n, want=want)
        else:
            out.add("GPU-COUNT", "warn", "gpu_count.more", want, n, n=n, want=want)
    else:
        out.add("GPU-COUNT", "skip", "gpu_count.no_plan", None, n, n=n)

    # GPU-MEMORY: against the planned part, else each GPU's own catalog entry
    short, judged = [], 0
    for g in gpus:
        ref = planned or parts.get(g.index)
        if ref is None or g.memory_total_mib is None:
            continue
        judged += 1
        if not _memory_ok(g.memory_total_mib, ref):
            short.append(g.index)
    mem_actual = ", ".join(sorted({f"{g.memory_total_mib} MiB" for g in gpus if g.memory_total_mib})) or None
    ref_part = planned or next((p for p in parts.values() if p is not None), None)
    expected_mem = f"≥ {ref_part.memory_gib:g} GB" if ref_part else None
    if short:
        out.add("GPU-MEMORY", "fail", "gpu_memory.fail", expected_mem, mem_actual, gpus=_gpus_label(short))
    elif judged:
        out.add("GPU-MEMORY", "pass", "gpu_memory.pass", expected_mem, mem_actual)
    else:
        out.add("GPU-MEMORY", "skip", "gpu_memory.skip", None, mem_actual)

    _pcie_checks(out, gpus, parts, planned)
    _config_checks(out, gpus, parts, planned, plan)


def _pcie_checks(out: _Out, gpus: list[SmiGpu], parts: dict[int, Gpu | None], planned: Gpu | None) -> None:
    known = [g for g in gpus if g.pcie_width_current is not None and g.pcie_width_max is not None]
    if not known:
        out.add("PCIE-WIDTH", "skip", "pcie.skip")
    else:
        bad = []
        for g in known:
            part = parts.get(g.index) or planned  # the card actually in the slot: its own link width
            assert g.pcie_width_current is not None and g.pcie_width_max is not None
            if g.pcie_width_current < g.pcie_width_max:
                bad.append(f"GPU{g.index} x{g.pcie_width_current} (max x{g.pcie_width_max})")
            elif part is not None and g.pcie_width_max < part.pcie_lanes:
                bad.append(f"GPU{g.index} x{g.pcie_width_max} ({part.name}: x{part.pcie_lanes})")
        widths = sorted({g.pcie_width_max for g in known if g.pcie_width_max})
        rated = sorted({p.pcie_lanes for g in known if (p := parts.get(g.index) or planned) is not None})
        expected = "/".join(f"x{w}" for w in (rated or widths))
        if bad:
            out.add("PCIE-WIDTH", "fail", "pcie_width.fail", expected, "; ".join(bad), which="; ".join(bad))
        else:
            out.add("PCIE-WIDTH", "pass", "pcie_width.pass", expected, expected, n=len(known))
    known = [g for g in gpus if g.pcie_gen_current is not None and g.pcie_gen_max is not None]
    if not known:
        out.add("PCIE-GEN", "skip", "pcie.skip")
        return
    capped, idle = [], []
    for g in known:
        # The detected card's own catalog entry: a wrong card delivered (GPU-MODEL fails) is not the slot's
        # fault, so its link is judged against what that card itself supports.
        part = parts.get(g.index) or planned
        assert g.pcie_gen_current is not None and g.pcie_gen_max is not None
        if part is not None and g.pcie_gen_max < part.pcie_gen:
            capped.append(f"GPU{g.index} Gen{g.pcie_gen_max} ({part.name}: Gen{part.pcie_gen})")
        elif g.pcie_gen_current < g.pcie_gen_max:
            idle.append(f"GPU{g.index} Gen{g.pcie_gen_current} (max Gen{g.pcie_gen_max})")
    gens = sorted({g.pcie_gen_max for g in known if g.pcie_gen_max})
    rated_gens = sorted({p.pcie_gen for g in known if (p := parts.get(g.index) or planned) is not None})
    expected = "/".join(f"Gen{x}" for x in (rated_gens or gens))
    if capped:
        out.add("PCIE-GEN", "fail", "pcie_gen.fail", expected, "; ".join(capped), which="; ".join(capped))
    elif idle:
        out.add("PCIE-GEN", "warn", "pcie_gen.idle", expected, "; ".join(idle), which="; ".join(idle))
    else:
        out.add("PCIE-GEN", "pass", "pcie_gen.pass", expected, expected, n=len(known))


def _config_checks(
    out: _Out, gpus: list[SmiGpu], parts: dict[int, Gpu | None], planned: Gpu | None, plan: Plan | None
) -> None:
    # PERSISTENCE
    off = [g.index for g in gpus if g.persistence_mode is False]
    if all(g.persistence_mode is None for g in gpus):
        out.add("PERSISTENCE", "skip", "persistence.skip")
    elif off:
        out.add(
            "PERSISTENCE",
            "warn",
            "persistence.off",
            out.v("enabled"),
            out.v("disabled_on", gpus=_gpus_label(off)),
            gpus=_gpus_label(off),
        )
    else:
        out.add("PERSISTENCE", "pass", "persistence.pass", out.v("enabled"), out.v("enabled"))

    # ECC
    if all(g.ecc_enabled is None for g in gpus):
        out.add("ECC", "skip", "ecc.skip")
    else:
        required_off: list[int] = []
        optional_off: list[int] = []
        pending_ecc: list[int] = []
        for g in gpus:
            part = planned or parts.get(g.index)
            required = _ecc_required(part)
            if g.ecc_enabled is False:
                (required_off if required else optional_off).append(g.index)
            if g.ecc_pending is not None and g.ecc_enabled is not None and g.ecc_pending != g.ecc_enabled:
                pending_ecc.append(g.index)
        if required_off:
            out.add(
                "ECC",
                "fail",
                "ecc.fail",
                out.v("enabled"),
                out.v("disabled_on", gpus=_gpus_label(required_off)),
                gpus=_gpus_label(required_off),
            )
        elif optional_off or pending_ecc:
            idx = sorted(set(optional_off + pending_ecc))
            out.add(
                "ECC",
                "warn",
                "ecc.warn",
                out.v("enabled"),
                out.v("disabled_pending_on", gpus=_gpus_label(idx)),
                gpus=_gpus_label(idx),
            )
        else:
            out.add("ECC", "pass", "ecc.pass", out.v("enabled"), out.v("enabled"))

    # POWER-LIMIT
    known = [g for g in gpus if g.power_limit_w is not None and g.default_power_limit_w is not None]
    if not known:
        out.add("POWER-LIMIT", "skip", "power.skip")
    else:
        low = [g for g in known if g.power_limit_w < g.default_power_limit_w]  # type: ignore[operator]
        defaults = "/".join(sorted({f"{g.default_power_limit_w:g} W" for g in known}))
        if low:
            which = "; ".join(
                f"GPU{g.index} {g.power_limit_w:g} W ({out.v('default_w', w=f'{g.default_power_limit_w:g}')})"
                for g in low
            )
            out.add(
                "POWER-LIMIT",
                "fail",
                "power.fail",
                f"≥ {defaults}",
                which,
                which=which,
                watts=f"{low[0].default_power_limit_w:g}",
            )
        else:
            limits = "/".join(sorted({f"{g.power_limit_w:g} W" for g in known}))
            out.add("POWER-LIMIT", "pass", "power.pass", f"≥ {defaults}", limits)

    # MEMORY-RETIRED
    remap_pending = [g.index for g in gpus if g.retired_pending or g.remapped_pending]
    failed = [g.index for g in gpus if g.remapped_failure]
    retired = [g.index for g in gpus if (g.retired_pages or 0) > 0]
    judged = [g for g in gpus if g.retired_pending is not None or g.remapped_pending is not None]
    if failed:
        out.add(
            "MEMORY-RETIRED",
            "fail",
            "retired.failure",
            out.v("no"),
            out.v("remap_failure", gpus=_gpus_label(failed)),
            gpus=_gpus_label(failed),
        )
    elif remap_pending:
        out.add(
            "MEMORY-RETIRED",
            "fail",
            "retired.pending",
            out.v("no"),
            out.v("pending", gpus=_gpus_label(remap_pending)),
            gpus=_gpus_label(remap_pending),
        )
    elif retired:
        out.add(
            "MEMORY-RETIRED",
            "warn",
            "retired.some",
            "0",
            out.v("retired_pages", gpus=_gpus_label(retired)),
            gpus=_gpus_label(retired),
        )
    elif judged:
        out.add("MEMORY-RETIRED", "pass", "retired.pass", out.v("no"), out.v("no"))
    else:
        out.add("MEMORY-RETIRED", "skip", "retired.skip")

    # ECC-ERRORS (lifetime uncorrectable count)
    counted = [g for g in gpus if g.ecc_uncorrectable_aggregate is not None]
    bad = [g for g in counted if (g.ecc_uncorrectable_aggregate or 0) > 0]
    if bad:
        which = "; ".join(f"GPU{g.index}: {g.ecc_uncorrectable_aggregate}" for g in bad)
        out.add("ECC-ERRORS", "warn", "ecc_errors.warn", "0", which, which=which)
    elif counted:
        out.add("ECC-ERRORS", "pass", "ecc_errors.pass", "0", "0")
    else:
        out.add("ECC-ERRORS", "skip", "ecc_errors.skip")

    # MIG
    needs_mig = plan is not None and plan.requirements.needs_mig
    enabled = [g for g in gpus if g.mig_mode]
    if needs_mig:
        unsupported = [g.index for g in gpus if g.mig_mode is None]
        if unsupported:
            out.add(
                "MIG",
                "fail",
                "mig.unsupported",
                "MIG",
                f"N/A: {_gpus_label(unsupported)}",
                gpus=_gpus_label(unsupported),
            )
        else:
            out.add("MIG", "pass", "mig.supported", "MIG", _mig_actual(gpus, out))
    elif enabled:
        status: CheckStatus = "warn" if plan is not None else "pass"
        first = enabled[0].index
        out.add(
            "MIG",
            status,
            "mig.enabled",
            None,
            _mig_actual(gpus, out),
            gpus=_gpus_label(g.index for g in enabled),
            first=first,
        )
    elif any(g.mig_mode is False for g in gpus):
        out.add("MIG", "pass", "mig.off", None, out.v("disabled"))
    else:
        out.add("MIG", "skip", "mig.skip")


def _mig_actual(gpus: list[SmiGpu], out: _Out) -> str:
    parts = []
    for g in gpus:
        if g.mig_mode:
            parts.append(f"GPU{g.index}: {out.v('enabled')} ({len(g.mig_devices)} MIG)")
        elif g.mig_mode is False:
            parts.append(f"GPU{g.index}: {out.v('disabled')}")
    return "; ".join(parts) or "N/A"


def _topology_check(out: _Out, facts: Facts, plan: Plan | None, catalog: Catalog) -> None:
    planned = _planned_gpu(plan, catalog)
    # SXM modules are always NVLinked on their baseboard; PCIe cards only with bridges the buyer may not
    # have ordered, so for them NVLink is expected only when the plan asks for it.
    wanted = plan is not None and (
        plan.requirements.needs_nvlink
        or (planned is not None and planned.form_factor == GpuFormFactor.SXM and plan.gpu.count > 1)
    )
    topo = facts.topo
    if topo is None or len(topo.gpus) < 2:
        out.add("NVLINK", "skip", "nvlink.skip", "NVLink" if wanted else None, None)
        return
    missing = topo.gpu_pairs_without_nvlink()
    summary = topo.nvlink_summary()
    actual = summary or (f"{len(missing)} GPU pairs without NVLink" if missing else "NVLink")
    if not missing:
        out.add("NVLINK", "pass", "nvlink.pass", "NVLink" if wanted else None, actual, kind=summary or "NV")
    elif wanted:
        pairs = ", ".join(f"{a}-{b}" for a, b in missing[:6]) + (" …" if len(missing) > 6 else "")
        out.add("NVLINK", "fail", "nvlink.fail", "NVLink", actual, pairs=pairs)
    else:
        out.add("NVLINK", "pass", "nvlink.pcie", None, actual)


# ---------------------------------------------------------------- host


def _model_tokens(name: str) -> list[str]:
    return [tok for tok in re.split(r"[\s()]+", name) if any(ch.isdigit() for ch in tok)]


def _host_checks(out: _Out, host: HostInfo, plan: Plan | None, catalog: Catalog) -> None:
    cpu = catalog.typed(Cpu, plan.server.cpu) if plan and plan.server.cpu else None
    # CPU-MODEL
    if cpu is not None and plan is not None:
        tokens = _model_tokens(cpu.name)
        have = (host.cpu_model or "").casefold()
        if host.cpu_model is None:
            out.add("CPU-MODEL", "skip", "cpu_model.unknown", cpu.name, None)
        elif tokens and all(tok.casefold() in have for tok in tokens):
            out.add("CPU-MODEL", "pass", "cpu_model.pass", cpu.name, host.cpu_model)
        else:
            out.add("CPU-MODEL", "fail", "cpu_model.fail", cpu.name, host.cpu_model, part=cpu.name)
    else:
        status: CheckStatus = "skip"  # no plan: the value is recorded, nothing is compared
        out.add(
            "CPU-MODEL",
            status,
            "cpu_model.inventory" if host.cpu_model else "cpu_model.unknown",
            None,
            host.cpu_model,
        )
    # CPU-CORES
    actual = out.cores(host.cpu_cores, host.cpu_sockets) if host.cpu_cores is not None else None
    if cpu is not None and plan is not None and plan.server.cpu_count > 0:
        want = cpu.cores * plan.server.cpu_count
        expected = out.cores(want, plan.server.cpu_count)
        if host.cpu_cores is None:
            out.add("CPU-CORES", "skip", "cpu_cores.unknown", expected, None)
        elif host.cpu_cores >= want:
            out.add("CPU-CORES", "pass", "cpu_cores.pass", expected, actual)
        else:
            out.add("CPU-CORES", "fail", "cpu_cores.fail", expected, actual, have=host.cpu_cores, want=want)
    else:
        out.add(
            "CPU-CORES",
            "skip",  # no plan: recorded, not judged
            "cpu_cores.inventory" if actual else "cpu_cores.unknown",
            None,
            actual,
        )
    # RAM
    module = catalog.typed(MemoryModule, plan.server.memory.part) if plan and plan.server.memory else None
    mem_actual = f"{host.memory_gib:g} GiB" if host.memory_gib is not None else None
    if (
        module is not None
        and plan is not None
        and plan.server.memory is not None
        and plan.server.memory.count
    ):
        count = plan.server.memory.count
        want = module.capacity_gib * count
        expected = f"{want} GiB ({count}× {module.capacity_gib} GiB)"
        if host.memory_gib is None:
            out.add("RAM", "skip", "ram.unknown", expected, None)
        # MemTotal sits below the installed size by what firmware and kernel reserve; only a whole module
        # (or more) missing is a definite shortfall.
        elif host.memory_gib > want - module.capacity_gib:
            out.add("RAM", "pass", "ram.pass", expected, mem_actual)
        else:
            out.add(
                "RAM",
                "fail",
                "ram.fail",
                expected,
                mem_actual,
                have=f"{host.memory_gib:g}",
                want=want,
                module=module.capacity_gib,
            )
    else:
        out.add(
            "RAM",
            "skip",  # no plan: recorded, not judged
            "ram.inventory" if mem_actual else "ram.unknown",
            None,
            mem_actual,
        )
    # NVME
    nvme = [d for d in host.disks if d.is_nvme]
    nvme_actual = (
        ", ".join(f"{d.name} {d.size_bytes / 1e12:.2f} TB" if d.size_bytes else d.name for d in nvme) or "0"
    )
    planned_nvme = 0
    if plan is not None:
        for item in plan.server.storage:
            part = catalog.typed(Storage, item.part)
            if part is not None and part.storage_kind == StorageKind.NVME:
                planned_nvme += item.count
    if planned_nvme:
        if len(nvme) >= planned_nvme:
            out.add("NVME", "pass", "nvme.pass", planned_nvme, nvme_actual, n=len(nvme))
        else:
            out.add("NVME", "fail", "nvme.fail", planned_nvme, nvme_actual, n=len(nvme), want=planned_nvme)
    elif nvme:
        out.add("NVME", "skip", "nvme.inventory", None, nvme_actual, n=len(nvme))  # no plan: recorded
    else:
        out.add("NVME", "warn", "nvme.none", None, nvme_actual)
    # NET-SPEED
    speeds = [ln for ln in host.net if ln.speed_mbps]
    net_actual = ", ".join(f"{ln.name} {(ln.speed_mbps or 0) / 1000:g} Gb/s" for ln in speeds) or None
    want_gbps = 0.0
    if plan is not None:
        for pc in plan.server.nics:
            nic = catalog.typed(Nic, pc.part)
            if nic is not None:
                want_gbps = max(want_gbps, nic.speed_gbps)
    if want_gbps:
        best = max((ln.speed_mbps or 0 for ln in host.net), default=0) / 1000
        down = [ln.name for ln in host.net if not ln.speed_mbps]
        if best >= want_gbps:
            out.add("NET-SPEED", "pass", "net.pass", f"{want_gbps:g} Gb/s", net_actual)
        else:
            out.add(
                "NET-SPEED",
                "fail",
                "net.fail",
                f"{want_gbps:g} Gb/s",
                net_actual or "-",
                want=f"{want_gbps:g}",
                down=", ".join(down) or "-",
            )
    elif speeds:
        out.add("NET-SPEED", "skip", "net.inventory", None, net_actual)  # no plan: recorded
    else:
        out.add("NET-SPEED", "skip", "net.unknown", None, None)
    # OS
    os_part = catalog.typed(OperatingSystem, plan.software.os) if plan and plan.software.os else None
    if os_part is not None:
        expected = f"{os_part.family} {os_part.version}"
        ver = host.os_version_id or ""
        same_family = (host.os_id or "").casefold() == os_part.family
        same_version = ver == os_part.version or ver.startswith(os_part.version + ".")
        if host.os_id is None:
            out.add("OS", "skip", "os.unknown", expected, None)
        elif same_family and same_version:
            out.add("OS", "pass", "os.pass", expected, host.os_name)
        else:
            out.add(
                "OS", "fail", "os.fail", expected, host.os_name or f"{host.os_id} {ver}", part=os_part.name
            )
    else:
        out.add(
            "OS",
            "skip",  # no plan: recorded, not judged
            "os.inventory" if host.os_name else "os.unknown",
            None,
            host.os_name,
        )


# ---------------------------------------------------------------- driver, CUDA, containers, frameworks


def _ver(text: str | None) -> tuple[int, ...] | None:
    if not text:
        return None
    try:
        return parse_version(text)
    except ValueError:
        return None


def _software_checks(
    out: _Out, smi: SmiReport | None, host: HostInfo, plan: Plan | None, catalog: Catalog
) -> None:
    driver = smi.driver_version if smi else None
    cuda_max = smi.cuda_version if smi else None
    cuda = catalog.cuda(plan.software.cuda) if plan and plan.software.cuda else None
    # DRIVER-MIN
    if smi is not None:
        if cuda is None:
            out.add("DRIVER-MIN", "skip", "driver_min.no_plan", None, driver)
        elif _ver(driver) is None:
            out.add("DRIVER-MIN", "skip", "driver_min.unknown", f"≥ {cuda.min_driver_linux}", driver)
        elif _ver(driver) >= parse_version(cuda.min_driver_linux):  # type: ignore[operator]
            out.add(
                "DRIVER-MIN",
                "pass",
                "driver_min.pass",
                f"≥ {cuda.min_driver_linux}",
                driver,
                cuda=cuda.version,
            )
        else:
            out.add(
                "DRIVER-MIN",
                "fail",
                "driver_min.fail",
                f"≥ {cuda.min_driver_linux}",
                driver,
                cuda=cuda.version,
                need=cuda.min_driver_linux,
            )
        branch = catalog.typed(DriverBranch, plan.software.driver) if plan and plan.software.driver else None
        if branch is not None:
            have, want = _ver(driver), parse_version(branch.version)
            if have is not None and have[0] == want[0]:
                out.add("DRIVER-BRANCH", "pass", "driver_branch.pass", branch.version, driver)
            else:
                out.add(
                    "DRIVER-BRANCH",
                    "warn",
                    "driver_branch.warn",
                    branch.version,
                    driver,
                    branch=branch.branch,
                )
        # CUDA-VERSION: the newest CUDA the installed driver can run
        if cuda is not None:
            want_cuda = parse_version(cuda.version)[:2]
            have_cuda = _ver(cuda_max)
            if have_cuda is None:
                out.add("CUDA-VERSION", "skip", "cuda.unknown", f"≥ {cuda.version}", cuda_max)
            elif have_cuda[:2] >= want_cuda:
                out.add("CUDA-VERSION", "pass", "cuda.pass", f"≥ {cuda.version}", cuda_max)
            else:
                out.add("CUDA-VERSION", "fail", "cuda.fail", f"≥ {cuda.version}", cuda_max, cuda=cuda.version)
        else:
            out.add("CUDA-VERSION", "skip", "cuda.inventory", None, cuda_max)  # no plan: recorded
    # CUDA-TOOLKIT (nvcc on the host is optional: containers bring their own)
    if host.nvcc_version is None:
        out.add("CUDA-TOOLKIT", "skip", "toolkit.none", cuda.version if cuda else None, None)
    elif cuda is not None and parse_version(cuda.version)[:2] != _ver(host.nvcc_version)[:2]:  # type: ignore[index]
        out.add("CUDA-TOOLKIT", "warn", "toolkit.other", cuda.version, host.nvcc_version, cuda=cuda.version)
    else:
        out.add("CUDA-TOOLKIT", "pass", "toolkit.pass", cuda.version if cuda else None, host.nvcc_version)
    # CONTAINER-RUNTIME and IMAGE
    image = catalog.typed(ContainerImage, plan.software.image) if plan and plan.software.image else None
    docker = f"docker {host.docker_version}" if host.docker_version else None
    toolkit = host.docker_nvidia_runtime or host.nvidia_ctk_version is not None
    rt_actual = (
        ", ".join(
            x
            for x in (docker, f"nvidia-ctk {host.nvidia_ctk_version}" if host.nvidia_ctk_version else None)
            if x
        )
        or None
    )
    if docker and toolkit:
        out.add(
            "CONTAINER-RUNTIME",
            "pass",
            "runtime.pass",
            "docker + NVIDIA Container Toolkit" if image else None,
            rt_actual,
        )
    elif image is not None:
        key = "runtime.no_toolkit" if docker else "runtime.none"
        out.add("CONTAINER-RUNTIME", "fail", key, "docker + NVIDIA Container Toolkit", rt_actual)
    else:
        out.add(
            "CONTAINER-RUNTIME",
            "skip" if not docker else "warn",
            "runtime.optional" if not docker else "runtime.no_toolkit",
            None,
            rt_actual,
        )
    if image is not None:
        present = host.images.get(image.reference)
        if present:
            out.add("IMAGE", "pass", "image.pass", image.reference, image.reference)
        elif docker is None:
            out.add("IMAGE", "skip", "image.no_docker", image.reference, None)
        else:
            out.add("IMAGE", "warn", "image.missing", image.reference, None, ref=image.reference)
    # FRAMEWORK
    fw = catalog.typed(Framework, plan.software.framework) if plan and plan.software.framework else None
    found = host.frameworks
    summary = (
        ", ".join(
            f"{k} {v.get('version', '?')}" + (" (CUDA)" if v.get("cuda_available") else "")
            for k, v in found.items()
        )
        or None
    )
    if fw is not None:
        installed = found.get("torch" if fw.framework == "pytorch" else fw.framework)
        expected = f"{fw.framework} {fw.version}"
        if not installed:
            out.add("FRAMEWORK", "skip", "framework.absent", expected, None, name=fw.framework)
        elif not str(installed.get("version", "")).startswith(fw.version):
            out.add("FRAMEWORK", "warn", "framework.other", expected, summary, name=fw.framework)
        elif smi is not None and smi.gpus and not installed.get("cuda_available"):
            out.add("FRAMEWORK", "warn", "framework.no_cuda", expected, summary, name=fw.framework)
        else:
            out.add("FRAMEWORK", "pass", "framework.pass", expected, summary)
    elif found:
        no_cuda = [k for k, v in found.items() if not v.get("cuda_available")]
        if smi is not None and smi.gpus and no_cuda:
            out.add("FRAMEWORK", "warn", "framework.no_cuda", None, summary, name=", ".join(no_cuda))
        else:
            out.add("FRAMEWORK", "pass", "framework.inventory", None, summary)
    else:
        out.add("FRAMEWORK", "skip", "framework.none", None, host.frameworks_error)


def _benchmark_check(out: _Out, facts: Facts, catalog: Catalog) -> None:
    if facts.benchmark is None:
        if facts.benchmark_skip:
            out.add("BENCHMARK", "skip", "bench.skip", None, None, reason=facts.benchmark_skip)
        return
    per_gpu = facts.benchmark.get("gpus")
    if not isinstance(per_gpu, list) or not per_gpu:
        out.add("BENCHMARK", "skip", "bench.skip", None, None, reason=str(facts.benchmark.get("skip", "-")))
        return
    errors, lines, expected = [], [], []
    for item in per_gpu:
        if not isinstance(item, dict):
            continue
        idx = item.get("index")
        if item.get("error"):
            errors.append(f"GPU{idx}: {item['error']}")
            continue
        part = facts.parts.get(int(idx)) if isinstance(idx, int) else None
        tflops, gbs = item.get("matmul_tflops"), item.get("bandwidth_gbs")
        text = f"GPU{idx}: {_num(tflops)} TFLOPS, {_num(gbs)} GB/s"
        if part is not None:
            pct = []
            if isinstance(tflops, int | float) and part.fp16_tensor_tflops:
                pct.append(f"{100 * tflops / part.fp16_tensor_tflops:.0f}% FP16")
            if isinstance(gbs, int | float) and part.memory_bandwidth_gbs:
                pct.append(f"{100 * gbs / part.memory_bandwidth_gbs:.0f}% BW")
            if pct:
                text += f" ({', '.join(pct)})"
            expected.append(
                f"GPU{idx}: {_num(part.fp16_tensor_tflops)} TFLOPS, {_num(part.memory_bandwidth_gbs)} GB/s"
            )
        lines.append(text)
    if errors:
        out.add("BENCHMARK", "fail", "bench.fail", None, "; ".join(errors), which="; ".join(errors))
    else:
        out.add("BENCHMARK", "pass", "bench.pass", "; ".join(expected) or None, "; ".join(lines))


def _num(x: object) -> str:
    if isinstance(x, int | float):
        return f"{x:.0f}" if x >= 100 else f"{x:.1f}"
    return "?"


StatusFn = Callable[[str], CheckStatus]

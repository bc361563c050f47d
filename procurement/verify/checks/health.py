"""Health checks: retired memory, ECC errors, throttling, temperature, PCIe/Xid errors, Fabric Manager,
NVLink and the GPU-NIC affinity (declared in this order, the report's)."""

from __future__ import annotations

from collections import Counter

from catalog.models import (
    GpuFormFactor,
)
from procurement import verification_texts  # noqa: F401  (registers the messages)
from procurement.messages import t
from procurement.verify.checks.registry import (
    Ctx,
    _gpus_label,
    _label,
    _planned_ports,
    check,
)
from procurement.verify.collect.runner import CommandResult
from procurement.verify.report import CheckStatus, Coded

# ---------------------------------------------------------------- health


@check("MEMORY-RETIRED", "health", needs_smi=True, item="gpu_vram")
def _memory_retired(c: Ctx) -> None:
    gpus = c.gpus
    pending = [g.index for g in gpus if g.retired_pending or g.remapped_pending]
    failed = [g.index for g in gpus if g.remapped_failure]
    retired = [g.index for g in gpus if (g.retired_pages or 0) > 0 or (g.remapped_uncorrectable or 0) > 0]
    judged = [g for g in gpus if g.retired_pending is not None or g.remapped_pending is not None]
    if failed:
        c.add("MEMORY-RETIRED", "fail", "retired.failure", c.v("no"), c.v("remap_failure", gpus=_gpus_label(failed)),
              gpus=_gpus_label(failed))
    elif pending:
        c.add("MEMORY-RETIRED", "fail", "retired.pending", c.v("no"), c.v("pending", gpus=_gpus_label(pending)),
              gpus=_gpus_label(pending))
    elif retired:
        c.add("MEMORY-RETIRED", "warn", "retired.some", "0", c.v("retired_pages", gpus=_gpus_label(retired)),
              gpus=_gpus_label(retired))
    elif judged and len(judged) < len(gpus):
        c.unread("MEMORY-RETIRED", [g for g in gpus if g not in judged], c.v("no"))
    elif judged:
        c.add("MEMORY-RETIRED", "pass", "retired.pass", c.v("no"), c.v("no"))
    else:
        c.add("MEMORY-RETIRED", "skip", "retired.skip")


@check("ECC-ERRORS", "health", needs_smi=True, item="gpu_vram")
def _ecc_errors(c: Ctx) -> None:
    """Uncorrectable ECC errors since the driver loaded fail a new machine; lifetime ones are a warning."""
    gpus = c.gpus
    volatile = [g for g in gpus if (g.ecc_uncorrectable_volatile or 0) > 0]
    lifetime = [g for g in gpus if (g.ecc_uncorrectable_aggregate or 0) > 0]
    counted = [g for g in gpus if g.ecc_uncorrectable_aggregate is not None or g.ecc_uncorrectable_volatile is not None]
    if volatile:
        which = "; ".join(f"{_label(g)}: {g.ecc_uncorrectable_volatile}" for g in volatile)
        c.add("ECC-ERRORS", "fail", "ecc_errors.volatile", "0", which, which=which)
    elif lifetime:
        which = "; ".join(f"{_label(g)}: {g.ecc_uncorrectable_aggregate}" for g in lifetime)
        c.add("ECC-ERRORS", "warn", "ecc_errors.warn", "0", which, which=which)
    elif counted and len(counted) < len(gpus):
        c.unread("ECC-ERRORS", [g for g in gpus if g not in counted], "0")
    elif counted:
        c.add("ECC-ERRORS", "pass", "ecc_errors.pass", "0", "0")
    else:
        c.add("ECC-ERRORS", "skip", "ecc_errors.skip")


# Clock event reasons that mean the hardware protected itself (fail) or software cooled it (warn); the rest
# (idle, application clocks, software power cap, sync boost) are normal operation.
_THROTTLE_FAIL = ("hw_thermal_slowdown", "hw_slowdown", "hw_power_brake_slowdown")
_THROTTLE_WARN = ("sw_thermal_slowdown",)


@check("THROTTLE", "health", needs_smi=True)
def _throttle(c: Ctx) -> None:
    gpus = c.gpus
    hard = [(g, [r for r in _THROTTLE_FAIL if g.throttle.get(r)]) for g in gpus]
    hard = [(g, rs) for g, rs in hard if rs]
    soft = [(g, [r for r in _THROTTLE_WARN if g.throttle.get(r)]) for g in gpus]
    soft = [(g, rs) for g, rs in soft if rs]
    known = [g for g in gpus if g.throttle]
    if hard:
        which = "; ".join(f"{_label(g)}: {', '.join(rs)}" + (f" {g.temperature_c} °C" if g.temperature_c else "")
                          for g, rs in hard)
        c.add("THROTTLE", "fail", "throttle.fail", c.v("none"), which, which=which)
    elif soft:
        which = "; ".join(f"{_label(g)}: {', '.join(rs)}" for g, rs in soft)
        c.add("THROTTLE", "warn", "throttle.warn", c.v("none"), which, which=which)
    elif known and len(known) < len(gpus):
        c.unread("THROTTLE", [g for g in gpus if not g.throttle], c.v("none"))
    elif known:
        c.add("THROTTLE", "pass", "throttle.pass", c.v("none"), c.v("none"))
    else:
        c.add("THROTTLE", "skip", "throttle.skip")


@check("GPU-TEMP", "health", needs_smi=True)
def _gpu_temp(c: Ctx) -> None:
    """Temperature against the GPU's own slowdown and shutdown thresholds (nvidia-smi reports them)."""
    gpus = c.gpus
    hot: list[Coded] = []
    judged = []
    for g in gpus:
        if g.temperature_c is not None and g.temp_slowdown_c is not None:
            judged.append(g)
            if g.temp_shutdown_c is not None and g.temperature_c >= g.temp_shutdown_c:
                hot.append(c.v("temp_over", gpu=_label(g), t=g.temperature_c, limit=g.temp_shutdown_c,
                               kind=c.v("shutdown")))
            elif g.temperature_c >= g.temp_slowdown_c:
                hot.append(c.v("temp_over", gpu=_label(g), t=g.temperature_c, limit=g.temp_slowdown_c,
                               kind=c.v("slowdown")))
        elif g.tlimit_margin_c is not None and g.tlimit_slowdown_c is not None:
            # H100 and newer: T.Limit is the headroom to the GPU's own limit; slowdown starts when it
            # falls to the (negative) slowdown margin.
            judged.append(g)
            if g.tlimit_margin_c <= g.tlimit_slowdown_c:
                hot.append(c.v("tlimit_under", gpu=_label(g), t=g.tlimit_margin_c, limit=g.tlimit_slowdown_c))
    unread = [g for g in gpus if g.temperature_c is None and g.tlimit_margin_c is None
              and ("temperature_c" in g.unreadable or judged)]
    temps = ", ".join(f"GPU{g.index} {g.temperature_c} °C" for g in gpus if g.temperature_c is not None) or None
    if hot:
        c.add("GPU-TEMP", "fail", "temp.fail", c.v("below_slowdown"), c.v("list", items=hot),
              which=c.v("list", items=hot))
    elif unread:
        c.unread("GPU-TEMP", unread, c.v("below_slowdown"), temps)
    elif judged:
        c.add("GPU-TEMP", "pass", "temp.pass", c.v("below_slowdown"), temps, n=len(judged))
    else:
        c.add("GPU-TEMP", "skip", "temp.skip", None, temps)


@check("PCIE-ERRORS", "health", needs_smi=True)
def _pcie_errors(c: Ctx) -> None:
    """PCIe AER counters (sysfs) and the replay counter (nvidia-smi) of each GPU since boot."""
    from procurement.verify.collect.raw import sysfs_bus_id

    fatal, soft = [], []
    read = 0
    for g in c.gpus:
        aer = c.facts.aer.get(sysfs_bus_id(g.bus_id)) if g.bus_id else None
        if aer:
            read += 1
            if (aer.get("fatal") or 0) > 0 or (aer.get("nonfatal") or 0) > 0:
                fatal.append(f"{_label(g)} AER fatal {aer.get('fatal')}, non-fatal {aer.get('nonfatal')}")
            elif (aer.get("correctable") or 0) > 0:
                soft.append(f"{_label(g)} AER correctable {aer.get('correctable')}")
        if g.replay_counter:
            soft.append(f"{_label(g)} replays {g.replay_counter}")
    if fatal:
        c.add("PCIE-ERRORS", "fail", "pcie_errors.fail", "0", "; ".join(fatal), which="; ".join(fatal))
    elif soft:
        c.add("PCIE-ERRORS", "warn", "pcie_errors.warn", "0", "; ".join(soft), which="; ".join(soft))
    elif read or any(g.replay_counter is not None for g in c.gpus):
        c.add("PCIE-ERRORS", "pass", "pcie_errors.pass", "0", "0")
    else:
        c.add("PCIE-ERRORS", "skip", "pcie_errors.skip")


@check("XID", "health", needs_smi=True)
def _xid(c: Ctx) -> None:
    """Xid events in the kernel log, each with NVIDIA's meaning and the action it calls for."""
    from procurement.verify.parse.kernel_log import xid_info

    events = c.facts.xid
    if events is None:
        c.add("XID", "unknown", "xid.unknown", c.v("none"), None, why=c.facts.kernel_log_error or "-")
        return
    faults = c.facts.kernel_faults
    if not events and not faults:
        c.add("XID", "pass", "xid.pass", c.v("none"), c.v("none"))
        return
    groups: dict[tuple[str, int], int] = Counter((e.bus, e.code) for e in events)
    lines, worst = [], "warn"
    for (bus, kind), n in sorted(Counter((f.bus, f.kind) for f in faults).items()):
        # the driver's own words for a GPU it lost or could not start, with or without an Xid line
        worst = "fail"
        text = next(f.text for f in faults if f.bus == bus and f.kind == kind)
        action = t("verify.xid.action.driver" if kind == "init" else "verify.xid.action.reseat", c.lang)
        lines.append(f"{bus} ×{n}: {text} → {action}")
    for (bus, code), n in sorted(groups.items()):
        info = xid_info(code)
        if info.severity == "fail":
            worst = "fail"
        action = t(f"verify.xid.action.{info.action}", c.lang)
        lines.append(f"{bus} Xid {code} ×{n}: {info.meaning} → {action}")
    which = "; ".join(lines)
    key = "xid.nvrm" if faults else f"xid.{worst}"  # the driver's fault lines carry no Xid number: said so
    c.add("XID", "fail" if worst == "fail" else "warn", key, c.v("none"), which, which=which,
          n=len(events) + len(faults))


@check("FABRIC-MANAGER", "health", needs_smi=True)
def _fabric_manager(c: Ctx) -> None:
    """HGX/NVSwitch systems need nvidia-fabricmanager; without it CUDA cannot start on any GPU."""
    gpus = c.gpus
    states = [(g, g.fabric_state) for g in gpus if g.fabric_state is not None]
    service = c.facts.fabricmanager
    planned = c.planned
    expected = "Completed"
    if states:
        bad = [(g, s) for g, s in states if s.casefold() != "completed"]
        bad_status = [(g, g.fabric_status) for g, s in states
                      if s.casefold() == "completed" and g.fabric_status and g.fabric_status.casefold() != "success"]
        if bad or bad_status:
            which = "; ".join(f"{_label(g)}: {s}" for g, s in bad + bad_status)
            c.add("FABRIC-MANAGER", "fail", "fabric.fail", expected, which, which=which,
                  service=service or "-")
        elif service == "failed":
            # systemd says the daemon died: the fabric the GPUs report was trained before it did, and nothing
            # now handles NVSwitch errors or a GPU reset; the GPUs' state does not outrank the service's
            c.add("FABRIC-MANAGER", "fail", "fabric.service_failed", "active", service, n=len(states))
        elif _fm_log(c, expected, only="fail"):
            pass
        elif service is not None and service not in ("active", "unknown"):
            c.add("FABRIC-MANAGER", "warn", "fabric.service_down", "active", service, service=service, n=len(states))
        elif not _fm_log(c, expected):
            c.add("FABRIC-MANAGER", "pass", "fabric.pass", expected, f"{expected} ({len(states)})")
        return
    needs = planned is not None and planned.form_factor == GpuFormFactor.SXM and c.plan is not None \
        and c.plan.gpu.count >= 8
    if service in ("failed", "inactive") and (needs or any(g.name and "SXM" in g.name for g in gpus)):
        c.add("FABRIC-MANAGER", "fail", "fabric.service", "active", service, service=service)
    elif needs and _fm_log(c, "active", only="fail"):
        pass
    elif needs and service == "active":
        if not _fm_log(c, "active"):
            c.add("FABRIC-MANAGER", "pass", "fabric.active", "active", service)
    elif needs:
        c.add("FABRIC-MANAGER", "unknown", "fabric.unknown", "active", service, service=service or "-")
    else:
        c.add("FABRIC-MANAGER", "skip", "fabric.skip", None, service)


def _fm_log(c: Ctx, expected: str, only: str | None = None) -> bool:
    """Judge Fabric Manager's log on a system that needs Fabric Manager; True once that recorded the check.
    fail: an NVSwitch fatal error, or [ERROR]/[CRITICAL] lines of this boot (of its latest run, or of a run it
    restarted after); unknown: the log was not read; warn: it restarted in this boot without errors, or earlier
    boots' runs logged errors. ``only="fail"`` records failures alone.
    Raw facts without the log's record (a collector before 1.3) record nothing: judged as before."""
    from procurement.verify.parse.fabricmanager import message_of

    log = c.facts.fm_log
    if log is None:
        if c.facts.fm_log_error is None or only == "fail":
            return False
        c.add("FABRIC-MANAGER", "unknown", "fabric.log_unknown", expected, c.v("not_read"),
              why=c.facts.fm_log_error)
        return True
    if log.fatal:
        c.add("FABRIC-MANAGER", "fail", "fabric.log_fatal", expected, f"fatal error ×{len(log.fatal)}",
              n=len(log.fatal), path=log.path, first=message_of(log.fatal[-1]))
        return True
    if log.errors:
        c.add("FABRIC-MANAGER", "fail", "fabric.log_errors", expected, f"[ERROR] ×{len(log.errors)}",
              n=len(log.errors), path=log.path, first=message_of(log.errors[-1]))
        return True
    if log.earlier_errors:
        # errors of this boot that Fabric Manager restarted after: the fault happened on the delivered machine,
        # whether or not the run since is clean (NVSwitch non-fatal 12028 then two restarts: gpud's HGX H100 log)
        c.add("FABRIC-MANAGER", "fail", "fabric.log_errors_restarted", expected, f"[ERROR] ×{log.earlier_errors}",
              n=log.earlier_errors, starts=log.starts, path=log.path, first=message_of(log.earlier_last))
        return True
    if only == "fail":
        return False
    if log.starts > 1 or log.older_errors:
        c.add("FABRIC-MANAGER", "warn", "fabric.log_restarts", expected, c.v("fm_starts", n=log.starts),
              starts=log.starts, earlier=log.older_errors, path=log.path)
        return True
    return False


def _nvlink_wanted(c: Ctx) -> bool:
    # SXM modules are always NVLinked on their baseboard; PCIe cards only with bridges the buyer may not
    # have ordered, so for them NVLink is expected only when the plan asks for it.
    planned, plan = c.planned, c.plan
    return plan is not None and (
        plan.requirements.needs_nvlink
        or (planned is not None and planned.form_factor == GpuFormFactor.SXM and plan.gpu.count > 1)
    )


@check("NVLINK", "gpu", needs_smi=True, item="gpu_model_count")
def _nvlink(c: Ctx) -> None:
    wanted = _nvlink_wanted(c)
    expected = "NVLink" if wanted else None
    topo = c.facts.topo
    if topo is None or len(topo.gpus) < 2:
        if wanted and len(c.gpus) > 1:
            c.add("NVLINK", "unknown", "nvlink.unknown", expected, None, why=c.facts.topo_error or "-")
        else:
            c.add("NVLINK", "skip", "nvlink.skip", expected, None)
        return
    missing = topo.gpu_pairs_without_nvlink()
    summary = topo.nvlink_summary()
    actual: Coded | str = summary or (c.v("pairs_without_nvlink", n=len(missing)) if missing else "NVLink")
    if not missing:
        c.add("NVLINK", "pass", "nvlink.pass", expected, actual, kind=summary or "NV")
    elif wanted:
        pairs = ", ".join(f"{a}-{b}" for a, b in missing[:6]) + (" …" if len(missing) > 6 else "")
        c.add("NVLINK", "fail", "nvlink.fail", "NVLink", actual, pairs=pairs)
    else:
        c.add("NVLINK", "pass", "nvlink.pcie", None, actual)


def _nvlink_output(c: Ctx, check_id: str, key: str, res: CommandResult | None) -> str | None:
    """The output of an `nvidia-smi nvlink` read, or None once the check is recorded as skipped (not read) or
    unknown (it failed where the plan wants NVLink)."""
    if res is None:
        c.add(check_id, "skip", f"{key}.skip")
        return None
    if not res.ok or (not res.stdout.strip() and _nvlink_wanted(c)):
        # failed, or printed nothing where the plan has NVLink: nothing was read, so nothing is confirmed
        status: CheckStatus = "unknown" if _nvlink_wanted(c) else "skip"
        why = (res.stderr.strip() or res.stdout.strip() or (f"exit {res.returncode}" if not res.ok else
               f"`{' '.join(res.argv) or 'nvidia-smi nvlink'}` exited 0 but printed nothing"))
        c.add(check_id, status, f"{key}.unknown", None, None, why=why[:200])
        return None
    return res.stdout


def _nvlink_unread(c: Ctx, listed: set[int]) -> str | None:
    """The GPUs of `nvidia-smi -q -x` that an `nvidia-smi nvlink` listing left out ('GPU1, GPU2'), or None when
    it listed every one: a listing of some GPUs says nothing of the others."""
    missing = [f"GPU{g.index}" for g in c.gpus if g.index not in listed]
    if not missing:
        return None
    return ", ".join(missing[:8]) + (" …" if len(missing) > 8 else "")


@check("NVLINK-LINKS", "gpu", needs_smi=True)
def _nvlink_links(c: Ctx) -> None:
    """`nvidia-smi nvlink -s`: every GPU's links up, as many and as fast as on the other GPUs."""
    from procurement.verify.parse.nvlink import NvlinkGpu, parse_nvlink_status

    out = _nvlink_output(c, "NVLINK-LINKS", "nvlink_links", c.facts.nvlink)
    if out is None:
        return
    gpus = parse_nvlink_status(out)
    if not gpus or all(not g.links and not g.all_inactive for g in gpus):
        if _nvlink_wanted(c):  # the plan has NVLink: no link listed confirms nothing
            c.add("NVLINK-LINKS", "unknown", "nvlink_links.unknown", None, None,
                  why=f"nvidia-smi nvlink -s listed {len(gpus)} GPUs and no link")
        else:
            c.add("NVLINK-LINKS", "skip", "nvlink_links.none")
        return
    dead = [f"GPU{g.index}" for g in gpus if g.all_inactive]
    down = [f"GPU{g.index} link {n}" for g in gpus for n, v in g.links.items() if v is None]
    def shape(g: NvlinkGpu) -> tuple[int, float]:  # links and the slowest link's speed
        return len(g.links), min((v for v in g.links.values() if v), default=0)

    shapes = Counter(shape(g) for g in gpus if not g.all_inactive)
    common = shapes.most_common(1)[0][0] if shapes else (0, 0)
    odd = [f"GPU{g.index} {shape(g)[0]}× {shape(g)[1]:g} GB/s"
           for g in gpus if not g.all_inactive and shape(g) != common]
    actual = f"{common[0]}× {common[1]:g} GB/s" if common[0] else None
    unread = _nvlink_unread(c, {g.index for g in gpus})
    if dead or down:
        which = "; ".join(dead + down)
        c.add("NVLINK-LINKS", "fail", "nvlink_links.fail", actual, which, which=which)
    elif unread:
        c.add("NVLINK-LINKS", "unknown", "nvlink_links.partial", actual, c.v("gpus_not_read", gpus=unread),
              read=len(gpus), n=len(c.gpus), gpus=unread)
    elif odd:
        c.add("NVLINK-LINKS", "warn", "nvlink_links.odd", actual, "; ".join(odd), which="; ".join(odd))
    else:
        c.add("NVLINK-LINKS", "pass", "nvlink_links.pass", actual, actual, n=len(gpus))


@check("NVLINK-ERRORS", "health", needs_smi=True)
def _nvlink_errors(c: Ctx) -> None:
    """`nvidia-smi nvlink -e`: Replay, Recovery and CRC error counts per link against the policy's limits
    (a degrading link retransmits, retrains and corrupts before it goes down)."""
    from procurement.policy import default_policy
    from procurement.verify.parse.nvlink import NVLINK_COUNTERS, parse_nvlink_errors

    out = _nvlink_output(c, "NVLINK-ERRORS", "nvlink_errors", c.facts.nvlink_errors)
    if out is None:
        return
    listed = parse_nvlink_errors(out)
    gpus = [g for g in listed if g.links]
    if not gpus:
        c.add("NVLINK-ERRORS", "skip", "nvlink_errors.none")
        return
    policy = c.policy or default_policy()
    limits = {"replay": policy.nvlink_replay_errors_max, "recovery": policy.nvlink_recovery_errors_max,
              "crc": policy.nvlink_crc_errors_max}
    over = [f"GPU{g.index} link {n} {key} {v[key]}" for g in gpus for n, v in sorted(g.links.items())
            for key in NVLINK_COUNTERS if key in v and v[key] > limits[key]]
    expected = ", ".join(f"{key} ≤ {limits[key]}" for key in NVLINK_COUNTERS)
    links = sum(len(g.links) for g in gpus)
    if over:
        which = "; ".join(over[:8]) + (" …" if len(over) > 8 else "")
        c.add("NVLINK-ERRORS", "fail", "nvlink_errors.fail", expected, which, which=which, n=len(over))
    elif unread := _nvlink_unread(c, {g.index for g in listed}):
        c.add("NVLINK-ERRORS", "unknown", "nvlink_errors.partial", expected, c.v("gpus_not_read", gpus=unread),
              read=len(listed), n=len(c.gpus), gpus=unread)
    else:
        c.add("NVLINK-ERRORS", "pass", "nvlink_errors.pass", expected, "0", n=links, gpus=len(gpus))


_LINK_RANK = {"PIX": 0, "PXB": 1, "PHB": 2, "NODE": 3, "SYS": 4}
"""Closeness of a PCIe path in `topo -m`'s legend, nearest first (PIX: at most one PCIe bridge; SYS: across
the SMP interconnect between NUMA nodes)."""


@check("GPU-NIC-AFFINITY", "network", needs_smi=True)
def _gpu_nic_affinity(c: Ctx) -> None:
    """Each GPU's nearest NIC in `topo -m`. With a NIC port per GPU planned (one rail per GPU for GPUDirect
    RDMA), every GPU should reach its NIC without crossing the CPU's host bridge (PIX or PXB)."""
    topo = c.facts.topo
    ports = len(_planned_ports(c))
    gpus = len(c.gpus)
    rails = ports >= gpus > 1
    nics = [d for d in topo.devices if not d.startswith("GPU")] if topo is not None else []
    if topo is None or not nics:
        if rails:
            why = c.facts.topo_error or c.v("topo_no_nic")
            c.add("GPU-NIC-AFFINITY", "unknown", "affinity.unknown", "PIX/PXB", None, why=why)
        else:
            c.add("GPU-NIC-AFFINITY", "skip", "affinity.skip")
        return
    nearest: dict[str, tuple[str, str]] = {}
    for g in topo.gpus:
        links = [(topo.links.get((g, n)) or topo.links.get((n, g)) or "SYS", n) for n in nics]
        link, nic = min(links, key=lambda x: _LINK_RANK.get(x[0], 9))
        nearest[g] = (link, topo.nic_names.get(nic, nic))
    summary = ", ".join(f"{n}× {link}" for link, n in sorted(
        Counter(link for link, _ in nearest.values()).items(), key=lambda x: _LINK_RANK.get(x[0], 9)))
    far = [f"{g}→{nic} {link}" for g, (link, nic) in nearest.items() if _LINK_RANK.get(link, 9) > _LINK_RANK["PXB"]]
    if not rails:
        c.add("GPU-NIC-AFFINITY", "skip", "affinity.inventory", None, summary)
    elif far:
        c.add("GPU-NIC-AFFINITY", "warn", "affinity.warn", "PIX/PXB", summary, which="; ".join(far))
    else:
        c.add("GPU-NIC-AFFINITY", "pass", "affinity.pass", "PIX/PXB", summary, n=len(nearest))

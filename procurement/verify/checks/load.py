"""The acceptance load-run checks (only when a load run was asked for): DCGM, nvbandwidth, NCCL, gpu_burn,
the sampled throttle/power/PSU, the state after the load and CUDA's P2P test. The outputs are parsed by
procurement.verify.parse.load."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from catalog.models import Gpu
from procurement.verify.checks.health import _nvlink_wanted
from procurement.verify.checks.registry import Ctx, check
from procurement.verify.parse.load import (
    DCGM_EXIT,
    HW_SLOWDOWN_BITS,
    INSTALL,
    P2P_MATRICES,
    PSU_FAULTS,
    SW_THERMAL_BIT,
    LoadFacts,
    NcclResult,
    _out,
    corruption_line,
    dcgm_diag_gaps,
    dcgm_level,
    error_line,
    exit_text,
    gpu_burn_faults,
    nccl_hosts,
    nvbandwidth_matrix,
    p2p_shape,
    parse_all_reduce,
    parse_dcgm_diag,
    parse_dcmi_power,
    parse_gpu_burn,
    parse_nvbandwidth,
    parse_p2p,
    parse_psu_sensors,
    parse_samples,
    parse_torch_burn,
)

# ---------------------------------------------------------------- checks (only when a load run was asked for)


def _tool(c: Ctx, name: str) -> tuple[dict[str, Any] | None, str | None]:
    """(the tool's record, None) when it ran to its end; (None, why) when it did not run or was cut short by
    the run's deadline (unknown). A tool that hung past its own limit has a record: `_ended_badly` fails it."""
    load = c.facts.load
    assert load is not None
    res = load.tools.get(name)
    if not isinstance(res, dict):
        return None, "not run"
    if res.get("missing"):
        return None, f"{res.get('argv', [name])[0]} is not installed — {INSTALL[name]}"
    if res.get("timed_out") and res.get("deadline"):
        deadline = c.facts.deadline_s
        return None, (f"the run's deadline ({deadline:g} s) was reached" if isinstance(deadline, int | float)
                      else "the run's deadline was reached") + (
            " before it started" if not res.get("seconds") else f" after {res.get('seconds')} s; it was stopped")
    if res.get("error") and not res.get("timed_out"):
        return None, str(res["error"])
    return res, None


def _ended_badly(c: Ctx, check_id: str, tool: str, res: dict[str, Any]) -> bool:
    """Fail ``check_id`` when the tool hung past its limit or did not exit 0 (it died, crashed or reported an
    error through its exit status): a load tool that does not finish cleanly is a failed run, never a pass or
    an unknown, whatever part of a table it printed before. True when recorded."""
    if res.get("timed_out"):
        limit = res.get("limit_s", res.get("seconds"))
        limit_text = f"{limit:g}" if isinstance(limit, int | float) else "?"
        c.add(check_id, "fail", "load.hung", None, f"> {limit_text} s", tool=tool, seconds=limit_text)
        return True
    how = exit_text(res.get("returncode"))
    if how is None:
        return False
    meaning = DCGM_EXIT.get(res.get("returncode")) if tool.startswith("dcgmi") else None  # type: ignore[arg-type]
    c.add(check_id, "fail", "load.died", None, how, tool=tool, how=how + (f", {meaning}" if meaning else ""),
          line=error_line(_out(res)))
    return True


def _clean_bandwidth_run(c: Ctx, check_id: str, key: str, tool: str) -> dict[str, Any] | None:
    """A bandwidth test's output when it ran, printed no data mismatch and ended cleanly; otherwise ``check_id``
    is recorded (not run: unknown; a mismatch or ASSERT: corruption, a fail; a hang or crash: a fail) and None
    comes back."""
    res, why = _tool(c, key)
    if res is None:
        c.add(check_id, "unknown", "load.not_run", None, None, tool=tool, why=why)
        return None
    bad = corruption_line(_out(res))
    if bad is not None:
        c.add(check_id, "fail", "load.corrupt", None, bad, tool=tool, line=bad)
        return None
    if _ended_badly(c, check_id, tool, res):
        return None
    return res


def _expected(c: Ctx) -> Gpu | None:
    return c.planned or next((p for p in c.facts.parts.values() if p is not None), None)


def _floor_pct(c: Ctx) -> float:
    from procurement.policy import default_policy

    return (c.policy or default_policy()).nccl_busbw_floor_pct


@check("LOAD-DCGM", "load")
def _load_dcgm(c: Ctx) -> None:
    if c.facts.load is None:
        return
    res, why = _tool(c, "dcgmi_diag")
    if res is None:
        c.add("LOAD-DCGM", "unknown", "load.not_run", "Pass", None, tool="dcgmi diag", why=why)
        return
    rows = parse_dcgm_diag(_out(res))
    failed = [f"{t}: {r}" for t, r in rows if r.startswith("Fail")]
    if failed:
        c.add("LOAD-DCGM", "fail", "load.dcgm.fail", "Pass", "; ".join(failed), which="; ".join(failed))
    elif _ended_badly(c, "LOAD-DCGM", "dcgmi diag", res):
        return  # an all-Pass table with exit 226 is DCGM saying the diagnostic found an error
    elif not rows and not dcgm_diag_gaps(_out(res), None).json_cut:
        c.add("LOAD-DCGM", "unknown", "load.empty", "Pass", None, tool="dcgmi diag", line=error_line(_out(res)))
    elif gaps := _dcgm_gaps(c, res):
        # the output ended before the table did: the level's tests not printed may have failed
        c.add("LOAD-DCGM", "unknown", "load.dcgm.incomplete", "Pass", None, what=gaps, level=_dcgm_run_level(c, res))
    elif warned := [f"{t}: {r}" for t, r in rows if r.startswith("Warn")]:
        # DCGM's own "Warn": the test ran and found something short of a failure, never a pass
        c.add("LOAD-DCGM", "warn", "load.dcgm.warn", "Pass", "; ".join(warned), which="; ".join(warned))
    else:
        passed = sum(1 for _, r in rows if r.startswith("Pass"))
        c.add("LOAD-DCGM", "pass", "load.dcgm.pass", "Pass", f"{passed}/{len(rows)} Pass", n=passed)


def _dcgm_run_level(c: Ctx, res: dict[str, Any]) -> int:
    """The level `dcgmi diag` ran at: its -r argument, else the load level's (quick 1, full 3)."""
    assert c.facts.load is not None
    return dcgm_level(res.get("argv")) or (3 if c.facts.load.level == "full" else 1)


def _dcgm_gaps(c: Ctx, res: dict[str, Any]) -> list[Any]:
    """What the output lacks of a complete result of its level, as values for the message (empty: complete)."""
    gaps = dcgm_diag_gaps(_out(res), _dcgm_run_level(c, res))
    out: list[Any] = []
    if gaps.json_cut:
        out.append(c.v("json_cut"))
    if gaps.no_footer:
        out.append(c.v("dcgm_no_footer"))
    if gaps.missing_sections:
        out.append(c.v("missing", names=", ".join(gaps.missing_sections)))
    return out


@check("LOAD-NVBANDWIDTH", "load")
def _load_nvbandwidth(c: Ctx) -> None:
    if c.facts.load is None:
        return
    res = _clean_bandwidth_run(c, "LOAD-NVBANDWIDTH", "nvbandwidth", "nvbandwidth")
    if res is None:
        return
    values = parse_nvbandwidth(_out(res))
    part = _expected(c)
    want = part.acceptance.nvbandwidth_d2d_min_gbs if part is not None and part.acceptance else None
    if not values:
        c.add("LOAD-NVBANDWIDTH", "unknown", "load.empty", None, None, tool="nvbandwidth", line=error_line(_out(res)))
    elif gaps := _nvbandwidth_gaps(c, res):
        # not every pair of the node's GPUs was measured: the slowest pair may be among those not read
        c.add("LOAD-NVBANDWIDTH", "unknown", "load.incomplete", None, c.v("min_gbs", gbs=f"{min(values):g}"),
              tool="nvbandwidth", what=gaps)
    elif want is None:
        c.add("LOAD-NVBANDWIDTH", "unknown", "load.no_expected", None, c.v("min_gbs", gbs=f"{min(values):g}"),
              tool="nvbandwidth", part=part.name if part else "?")
    elif min(values) < want:
        c.add("LOAD-NVBANDWIDTH", "fail", "load.nvbandwidth.fail", f"≥ {want:g} GB/s",
              c.v("min_gbs", gbs=f"{min(values):g}"),
              have=f"{min(values):g}", want=f"{want:g}")
    else:
        c.add("LOAD-NVBANDWIDTH", "pass", "load.nvbandwidth.pass", f"≥ {want:g} GB/s",
              c.v("min_gbs", gbs=f"{min(values):g}"))


def _nvbandwidth_gaps(c: Ctx, res: dict[str, Any]) -> list[Any]:
    """What nvbandwidth's matrix lacks of an N×N matrix over the node's N GPUs and its SUM line (empty: none)."""
    m = nvbandwidth_matrix(_out(res))
    if m is None:
        return []
    n = max(m.columns, len(c.gpus))
    out: list[Any] = []
    if m.columns < n:
        out.append(c.v("gpus_seen", seen=m.columns, gpus=n))
    if m.pairs < n * (n - 1):
        out.append(c.v("pairs_read", read=m.pairs, pairs=n * (n - 1)))
    if not m.summed:
        out.append(c.v("no_line", line="SUM"))
    return out


def _nccl_broken(c: Ctx, check_id: str, res: dict[str, Any], r: NcclResult) -> bool:
    """Fail on a test failure, wrong results or a run that did not end cleanly; True when recorded."""
    if r.failure or r.wrong or r.out_of_bounds:
        why = r.failure or (f"#wrong {r.wrong}" if r.wrong else f"{r.out_of_bounds} out-of-bounds values")
        c.add(check_id, "fail", "load.nccl.fail", None, why, why=why)
        return True
    return _ended_badly(c, check_id, "all_reduce_perf", res)


@check("LOAD-NCCL", "load")
def _load_nccl(c: Ctx) -> None:
    if c.facts.load is None:
        return
    res, why = _tool(c, "all_reduce_perf")
    if res is None:
        c.add("LOAD-NCCL", "unknown", "load.not_run", None, None, tool="all_reduce_perf", why=why)
        return
    r = parse_all_reduce(_out(res))
    part = _expected(c)
    want = part.acceptance.nccl_allreduce_busbw_gbs if part is not None and part.acceptance else None
    actual = c.v("nccl", peak=f"{r.peak_busbw_gbs:g}", avg=f"{r.avg_busbw_gbs:g}") if r.peak_busbw_gbs and \
        r.avg_busbw_gbs else None
    if _nccl_broken(c, "LOAD-NCCL", res, r):
        return
    if r.peak_busbw_gbs is None:
        c.add("LOAD-NCCL", "unknown", "load.empty", None, None, tool="all_reduce_perf", line=error_line(_out(res)))
    elif not r.summarised:
        c.add("LOAD-NCCL", "unknown", "load.nccl.incomplete", None, None, tool="all_reduce_perf", n=r.sizes,
              peak=f"{r.peak_busbw_gbs:g}")
    elif want is None:
        c.add("LOAD-NCCL", "unknown", "load.no_expected", None, actual, tool="all_reduce_perf",
              part=part.name if part else "?")
    elif r.peak_busbw_gbs < want * _floor_pct(c) / 100:
        c.add("LOAD-NCCL", "fail", "load.nccl.below_floor", f"≈ {want:g} GB/s", actual,
              pct=f"{100 * r.peak_busbw_gbs / want:.0f}", want=f"{want:g}", have=f"{r.peak_busbw_gbs:g}",
              floor=f"{_floor_pct(c):g}")
    elif r.peak_busbw_gbs < want:
        # Below the published figure but above the policy's floor: a warning with the percentage.
        c.add("LOAD-NCCL", "warn", "load.nccl.low", f"≈ {want:g} GB/s", actual,
              pct=f"{100 * r.peak_busbw_gbs / want:.0f}", want=f"{want:g}")
    else:
        c.add("LOAD-NCCL", "pass", "load.nccl.pass", f"≈ {want:g} GB/s", actual)


def expected_cross_node(c: Ctx) -> tuple[float | None, str]:
    """The bus bandwidth one node's planned NICs carry between nodes: the sum over their ports of the catalog's
    per-port figure (ports without one are left out, so the figure is a lower bound); None without any."""
    from catalog.models import Nic

    total, parts = 0.0, []
    if c.plan is not None:
        for pc in c.plan.server.nics:
            nic = c.catalog.typed(Nic, pc.part)
            if nic is not None and nic.acceptance is not None and pc.count > 0:
                ports = pc.count * max(1, nic.ports)
                total += ports * nic.acceptance.nccl_busbw_per_port_gbs
                parts.append(f"{ports}× {nic.acceptance.nccl_busbw_per_port_gbs:g}")
    return (total or None), " + ".join(parts)


@check("LOAD-NCCL-NODES", "load")
def _load_nccl_nodes(c: Ctx) -> None:
    """NCCL all_reduce_perf across the nodes (srun in a Slurm allocation, or mpirun with --hostfile), against
    what the planned NICs carry (catalog, per port, sourced)."""
    load = c.facts.load
    if load is None:
        return
    res = load.tools.get("all_reduce_perf_nodes")
    planned_nodes = c.plan.requirements.nodes if c.plan is not None else 1
    if not isinstance(res, dict):
        if planned_nodes > 1:
            c.add("LOAD-NCCL-NODES", "skip", "load.nccl_nodes.not_here", None, None, nodes=planned_nodes)
        return
    if res.get("missing"):
        name = (res.get("argv") or ["?"])[0]
        hint = INSTALL["all_reduce_perf"] if name == "all_reduce_perf" else (
            "install Open MPI (mpirun) or run inside a Slurm allocation" if name == "mpirun" else "run inside Slurm")
        c.add("LOAD-NCCL-NODES", "unknown", "load.not_run", None, None, tool=name,
              why=f"{name} is not installed — {hint}")
        return
    if res.get("timed_out") and res.get("deadline"):
        _, why = _tool(c, "all_reduce_perf_nodes")
        c.add("LOAD-NCCL-NODES", "unknown", "load.not_run", None, None, tool="all_reduce_perf", why=why)
        return
    r = parse_all_reduce(_out(res))
    hosts = nccl_hosts(_out(res))
    want, how = expected_cross_node(c)
    actual = (c.v("nccl_nodes", n=len(hosts), peak=f"{r.peak_busbw_gbs:g}", avg=f"{r.avg_busbw_gbs:g}")
              if r.peak_busbw_gbs is not None and r.avg_busbw_gbs is not None else None)
    nodes = max(int(res.get("nodes") or 0), len(hosts))
    launcher = str(res.get("launcher") or (res.get("argv") or ["?"])[0])
    if not r.started and r.peak_busbw_gbs is None and not r.failure:
        # the launcher failed before nccl-tests started (Open MPI's "not enough slots", srun's own errors):
        # the network was not tested, so it is unknown, with the launcher's words
        c.add("LOAD-NCCL-NODES", "unknown", "load.not_run", None, None, tool=launcher,
              why=f"{exit_text(res.get('returncode')) or 'exit 0'}: {error_line(_out(res))}")
        return
    if _nccl_broken(c, "LOAD-NCCL-NODES", res, r):
        return
    if r.peak_busbw_gbs is None:
        c.add("LOAD-NCCL-NODES", "unknown", "load.empty", None, None, tool="all_reduce_perf",
              line=error_line(_out(res)))
    elif not r.summarised:
        c.add("LOAD-NCCL-NODES", "unknown", "load.nccl.incomplete", None, None, tool="all_reduce_perf", n=r.sizes,
              peak=f"{r.peak_busbw_gbs:g}")
    elif len(hosts) < 2 or (planned_nodes > 1 and nodes < planned_nodes):
        c.add("LOAD-NCCL-NODES", "unknown", "load.nccl_nodes.partial", None, actual, n=len(hosts),
              want=max(planned_nodes, 2))
    elif want is None:
        c.add("LOAD-NCCL-NODES", "unknown", "load.nccl_nodes.no_expected", None, actual)
    elif r.peak_busbw_gbs < want * _floor_pct(c) / 100:
        c.add("LOAD-NCCL-NODES", "fail", "load.nccl_nodes.below_floor", f"≈ {want:g} GB/s ({how})", actual,
              pct=f"{100 * r.peak_busbw_gbs / want:.0f}", want=f"{want:g}", have=f"{r.peak_busbw_gbs:g}",
              floor=f"{_floor_pct(c):g}")
    elif r.peak_busbw_gbs < want:
        c.add("LOAD-NCCL-NODES", "warn", "load.nccl_nodes.low", f"≈ {want:g} GB/s ({how})", actual,
              pct=f"{100 * r.peak_busbw_gbs / want:.0f}", want=f"{want:g}")
    else:
        c.add("LOAD-NCCL-NODES", "pass", "load.nccl_nodes.pass", f"≈ {want:g} GB/s ({how})", actual,
              n=len(hosts))


@check("LOAD-BURN", "load")
def _load_burn(c: Ctx) -> None:
    if c.facts.load is None:
        return
    res, why = _tool(c, "gpu_burn")
    if res is None and isinstance(c.facts.load.tools.get("torch_burn"), dict):
        _torch_burn(c)
        return
    if res is None:
        c.add("LOAD-BURN", "unknown", "load.not_run", None, None, tool="gpu_burn", why=why)
        return
    text = _out(res)
    verdicts = parse_gpu_burn(text)
    faulty = sorted(i for i, v in verdicts.items() if v != "OK")
    deaths = gpu_burn_faults(text)
    n = len(c.gpus)
    if faulty:
        c.add("LOAD-BURN", "fail", "load.burn.fail", "OK", ", ".join(f"GPU{i}" for i in faulty),
              gpus=", ".join(f"GPU{i}" for i in faulty))
    elif deaths.died or deaths.aborted or deaths.init_errors:
        # gpu_burn prints OK for a GPU whose worker never started, and exits 0 after some deaths: the
        # progress lines and standard error say which workers died
        gpus = ", ".join(f"GPU{i}" for i in deaths.died) or (
            ", ".join(f"GPU{g.index}" for g in c.gpus) if deaths.aborted else "a GPU")
        line = deaths.init_errors[0] if deaths.init_errors else (
            "No clients are alive!  Aborting" if deaths.aborted else "(DIED!)")
        c.add("LOAD-BURN", "fail", "load.burn.died", "OK", gpus, gpus=gpus, line=line)
    elif _ended_badly(c, "LOAD-BURN", "gpu_burn", res):
        return
    elif not verdicts or (n and len(verdicts) < n):
        c.add("LOAD-BURN", "unknown", "load.not_run", "OK", f"{len(verdicts)}/{n}", tool="gpu_burn",
              why=f"exit {res.get('returncode')}: {len(verdicts)} of {n} GPUs reported")
    else:
        c.add("LOAD-BURN", "pass", "load.burn.pass", "OK", f"{len(verdicts)} OK", n=len(verdicts),
              seconds=res.get("seconds", "?"))


def _torch_burn(c: Ctx) -> None:
    res, why = _tool(c, "torch_burn")
    if res is None:
        c.add("LOAD-BURN", "unknown", "load.not_run", None, None, tool="PyTorch burn",
              why=f"{why}; gpu_burn is not installed — {INSTALL['gpu_burn']}")
        return
    gpus = parse_torch_burn(str(res.get("stdout") or ""))
    if gpus is None:
        last = (str(res.get("stderr") or "").strip().splitlines() or ["no result"])[-1][:200]
        c.add("LOAD-BURN", "unknown", "load.not_run", "OK", None, tool="PyTorch burn",
              why=f"exit {res.get('returncode')}: {last}; gpu_burn is not installed — {INSTALL['gpu_burn']}")
        return
    bad = [f"GPU{g.get('index')}" for g in gpus if g.get("error") or g.get("errors")]
    n = len(c.gpus)
    if bad:
        c.add("LOAD-BURN", "fail", "load.burn.fail", "OK", ", ".join(bad), gpus=", ".join(bad))
    elif _ended_badly(c, "LOAD-BURN", "PyTorch burn", res):
        return
    elif n and len(gpus) < n:
        c.add("LOAD-BURN", "unknown", "load.not_run", "OK", f"{len(gpus)}/{n}", tool="PyTorch burn",
              why=f"PyTorch saw {len(gpus)} of {n} GPUs")
    else:
        rate = ", ".join(f"GPU{g.get('index')} {g.get('tflops', '?')} TFLOPS" for g in gpus)
        c.add("LOAD-BURN", "pass", "load.burn.pass", "OK", rate, n=len(gpus), seconds=res.get("seconds", "?"))


@check("LOAD-THROTTLE", "load")
def _load_throttle(c: Ctx) -> None:
    """During the burn: no hardware slowdown, temperatures below each GPU's slowdown threshold."""
    load = c.facts.load
    if load is None:
        return
    samples = parse_samples(load.tools.get("_samples") or [])
    if not samples:
        c.add("LOAD-THROTTLE", "unknown", "load.not_run", None, None, tool="nvidia-smi --query-gpu",
              why="no samples during the burn")
        return
    hw = sorted({s.index for s in samples if s.reasons is not None and s.reasons & HW_SLOWDOWN_BITS})
    sw = sorted({s.index for s in samples if s.reasons is not None and s.reasons & SW_THERMAL_BIT})
    peak_t = max((s.temp_c for s in samples if s.temp_c is not None), default=None)
    peak_p = sum(max((s.power_w or 0) for s in samples if s.index == i) for i in {s.index for s in samples})
    actual = c.v("burn_peaks", t=f"{peak_t:g}", w=f"{peak_p:.0f}") if peak_t is not None else None
    if hw:
        c.add("LOAD-THROTTLE", "fail", "load.throttle.fail", None, actual, gpus=", ".join(f"GPU{i}" for i in hw))
    elif sw:
        c.add("LOAD-THROTTLE", "warn", "load.throttle.warn", None, actual, gpus=", ".join(f"GPU{i}" for i in sw))
    else:
        c.add("LOAD-THROTTLE", "pass", "load.throttle.pass", None, actual, n=len(samples))


@check("LOAD-POWER", "load")
def _load_power(c: Ctx) -> None:
    """The PSUs at the draw measured under the burn: the GPUs' sampled peak plus the plan's rest of the
    system, against the usable capacity without the redundant units (so redundancy still holds)."""
    load = c.facts.load
    if load is None:
        return
    samples = parse_samples(load.tools.get("_samples") or [])
    per_gpu: dict[int, float] = {}
    for s in samples:
        if s.power_w is not None:
            per_gpu[s.index] = max(per_gpu.get(s.index, 0.0), s.power_w)
    if c.plan is None or not c.plan.server.psu:
        c.add("LOAD-POWER", "skip", "load.power.no_plan", None, f"{sum(per_gpu.values()):.0f} W" if per_gpu else None)
        return
    if not per_gpu or (c.gpus and len(per_gpu) < len(c.gpus)):
        c.add("LOAD-POWER", "unknown", "load.not_run", None, None, tool="nvidia-smi --query-gpu",
              why=f"power sampled on {len(per_gpu)} of {len(c.gpus)} GPUs during the burn")
        return
    from procurement.budgets.power import power_budget
    from procurement.policy import default_policy

    budget = power_budget(c.plan, c.catalog, c.policy or default_policy())
    gpu_w = sum(per_gpu.values())
    rest_w = budget.draw_w - budget.gpu_w
    draw = gpu_w + rest_w
    capacity = budget.capacity_bound_w
    expected = f"≤ {capacity:.0f} W"
    bmc_w = _bmc_peak(load)
    actual = c.v("draw", draw=f"{draw:.0f}", gpus=f"{gpu_w:.0f}", rest=f"{rest_w:.0f}")
    if bmc_w is not None:
        actual = c.v("draw_bmc", draw=actual, bmc=f"{bmc_w:.0f}")
    if budget.unknown or capacity <= 0:
        c.add("LOAD-POWER", "unknown", "load.power.unknown", expected, actual,
              parts=", ".join(i.label for i in budget.unknown) or "PSU")
    elif bmc_w is not None and bmc_w > capacity and draw <= capacity:
        # The BMC's reading is the input side of the PSUs, above their output by the conversion losses: over
        # the capacity it may still fit, and it may not. Said as it is, never passed.
        c.add("LOAD-POWER", "warn", "load.power.bmc_over", expected, actual, bmc=f"{bmc_w:.0f}",
              draw=f"{draw:.0f}", capacity=f"{capacity:.0f}")
    elif draw > capacity:
        c.add("LOAD-POWER", "fail", "load.power.fail", expected, actual, draw=f"{draw:.0f}",
              capacity=f"{capacity:.0f}", redundant=budget.redundant_units)
    elif draw * (1 + budget.headroom_pct / 100) > capacity:
        c.add("LOAD-POWER", "warn", "load.power.headroom", expected, actual, draw=f"{draw:.0f}",
              capacity=f"{capacity:.0f}", pct=f"{budget.headroom_pct:g}")
    else:
        c.add("LOAD-POWER", "pass", "load.power.pass", expected, actual, draw=f"{draw:.0f}",
              capacity=f"{capacity:.0f}", redundant=budget.redundant_units)


def _bmc_peak(load: LoadFacts) -> float | None:
    """The highest valid BMC power reading taken during the burn (None: none taken or none valid)."""
    readings = [parse_dcmi_power(str((b.get("power") or {}).get("stdout") or "")).watts
                for b in load.tools.get("_bmc") or []]
    valid = [w for w in readings if w is not None and w > 0]
    return max(valid) if valid else None


@check("LOAD-PSU", "load")
def _load_psu(c: Ctx) -> None:
    """The power supplies as the BMC sees them while every GPU burns: each present, none failed or lost its
    input, redundancy kept; as many present as planned."""
    load = c.facts.load
    if load is None:
        return
    bmc = load.tools.get("_bmc")
    missing = load.tools.get("ipmitool")
    if isinstance(missing, dict) and missing.get("missing"):
        c.add("LOAD-PSU", "unknown", "load.not_run", None, None, tool="ipmitool",
              why=f"ipmitool is not installed — {INSTALL['ipmitool']}")
        return
    if not bmc:
        c.add("LOAD-PSU", "unknown", "load.not_run", None, None, tool="ipmitool",
              why="the BMC was not read during the burn")
        return
    readable = [b for b in bmc if (b.get("psu") or {}).get("returncode") == 0]
    if not readable:
        psu = bmc[-1].get("psu") or {}
        first = (str(psu.get("stderr") or psu.get("stdout") or psu.get("error") or "").strip().splitlines()
                 or [f"exit {psu.get('returncode')}"])[0][:200]
        c.add("LOAD-PSU", "unknown", "load.not_run", None, None, tool="ipmitool sdr",
              why=f"{first} — {INSTALL['ipmitool']}")
        return
    faults: dict[str, str] = {}
    present = 0
    for b in readable:
        sensors = parse_psu_sensors(str(b["psu"].get("stdout") or ""))
        present = max(present, sum(1 for s in sensors if "presence detected" in s.reading.lower()))
        for s in sensors:
            if any(f in s.reading.lower() for f in PSU_FAULTS) or s.status.lower() in ("cr", "nr", "lcr", "ucr"):
                faults.setdefault(s.name, f"{s.name}: {s.reading or s.status}")
    planned = c.plan.server.psu.count if c.plan is not None and c.plan.server.psu.part else None
    expected = f"{planned}" if planned else None
    actual = "; ".join(faults.values()) if faults else f"{present}"
    if faults:
        c.add("LOAD-PSU", "fail", "load.psu.fail", expected, actual, which="; ".join(faults.values()))
    elif not present:
        c.add("LOAD-PSU", "unknown", "load.not_run", expected, None, tool="ipmitool sdr",
              why="the BMC lists no power-supply presence sensor")
    elif planned and present < planned:
        c.add("LOAD-PSU", "fail", "load.psu.missing", expected, actual, n=present, want=planned)
    else:
        c.add("LOAD-PSU", "pass", "load.psu.pass", expected, actual, n=present, samples=len(readable))


@check("LOAD-AFTER", "load")
def _load_after(c: Ctx) -> None:
    """The health counters read again after the load against those read before it: an Xid or a GPU fallen off
    the bus that the load provoked, new uncorrectable ECC errors or pending retirements, AER errors, NVLink
    errors beyond the policy's limits, a GPU gone. Before the load they were clean; this is where a marginal
    GPU shows."""
    load = c.facts.load
    if load is None:
        return
    after = load.after
    if after is None:
        c.add("LOAD-AFTER", "unknown", "load.after.not_read", c.v("none"), None)
        return
    found = _AfterFound()
    for reader in (_after_smi, _after_kernel, _after_aer, _after_nvlink):
        reader(c, after, found)
    items = found.fails + found.warns
    which = "; ".join(items[:8]) + (" …" if len(items) > 8 else "")
    if found.fails:
        c.add("LOAD-AFTER", "fail", "load.after.fail", c.v("none"), which, which=which, n=len(items))
    elif found.unread:
        c.add("LOAD-AFTER", "unknown", "load.after.unread", c.v("none"), which or None,
              what="; ".join(found.unread))
    elif found.warns:
        c.add("LOAD-AFTER", "warn", "load.after.warn", c.v("none"), which, which=which, n=len(items))
    else:
        c.add("LOAD-AFTER", "pass", "load.after.pass", c.v("none"), c.v("none"))


@dataclass
class _AfterFound:
    """What the re-read after the load found, in words: failures, things worth a look, what it could not read."""

    fails: list[str] = field(default_factory=list)
    warns: list[str] = field(default_factory=list)
    unread: list[str] = field(default_factory=list)


_GPU_AFTER_FAILS: tuple[tuple[str, tuple[str, ...], str], ...] = (
    ("grown", ("ecc_uncorrectable_volatile",), "uncorrectable ECC errors"),
    ("new", ("retired_pending", "remapped_pending"), "page retirement / row remapping pending"),
    ("new", ("remapped_failure",), "row remapping failed"),
    ("grown", ("retired_pages",), "retired pages"),
)
"""What fails a GPU after the load, in this order: (how, the SmiGpu fields, the words). grown: the count is higher
than before ('uncorrectable ECC errors 0 → 2'); new: a flag set now that was not before (or the GPU is new)."""
_HW_SLOWDOWNS = ("hw_slowdown", "hw_thermal_slowdown", "hw_power_brake_slowdown")


def _gpu_after(label: str, g: Any, b: Any, found: _AfterFound) -> None:
    """One GPU after the load (``g``) against itself before it (``b``; None: not seen before)."""
    for how, fields, words in _GPU_AFTER_FAILS:
        if how == "grown":
            was, now = ((getattr(b, fields[0]) or 0) if b else 0), getattr(g, fields[0])
            if (now or 0) > was:
                found.fails.append(f"{label}: {words} {was} → {now}")
        elif any(getattr(g, f) for f in fields) and not (b and any(getattr(b, f) for f in fields)):
            found.fails.append(f"{label}: {words}")
    new_faults = [f for f in g.faults if not b or f not in b.faults]
    if new_faults:
        found.fails.append(f"{label}: " + ", ".join(f"{p} = {v}" for p, v in new_faults[:3]))
    # still slowed down in hardware once the load is over, or PCIe replays the load added: worth a look
    # (LOAD-THROTTLE judges the samples taken during the burn)
    slow = [r for r in _HW_SLOWDOWNS if g.throttle.get(r) and not (b and b.throttle.get(r))]
    if slow:
        found.warns.append(f"{label}: {', '.join(slow)} after the load")
    if b is not None and b.replay_counter is not None and (g.replay_counter or 0) > b.replay_counter:
        found.warns.append(f"{label}: PCIe replays {b.replay_counter} → {g.replay_counter}")


def _after_smi(c: Ctx, after: Any, found: _AfterFound) -> None:
    """nvidia-smi -q -x after the load: a GPU gone, and each GPU against itself before the load."""
    if after.smi is None:
        if after.smi_deadline:
            found.unread.append("nvidia-smi -q -x (the run's deadline)")
        else:
            found.fails.append(after.smi_error or "nvidia-smi -q -x gave no report")
        return
    before = {(g.bus_id or str(g.index)).lower(): g for g in c.gpus}
    now = {(g.bus_id or str(g.index)).lower(): g for g in after.smi.gpus}
    gone = [b for b in before if b not in now]
    if gone:
        found.fails.append("GPUs gone after the load: " + ", ".join(_lbl(before[b]) for b in gone))
    for bus, g in now.items():
        _gpu_after(_lbl(g), g, before.get(bus), found)


def _after_kernel(c: Ctx, after: Any, found: _AfterFound) -> None:
    """The kernel-log lines the run added: an Xid (fail or warn by its meaning), a GPU fallen off the bus."""
    from procurement.verify.parse.kernel_log import parse_kernel_faults, parse_xid, xid_info

    if after.kernel_new is None:
        found.unread.append(f"kernel log ({after.kernel_error})")
        return
    for e in parse_xid(after.kernel_new):
        info = xid_info(e.code)
        (found.fails if info.severity == "fail" else found.warns).append(f"{e.bus} Xid {e.code}: {info.meaning}")
    for f in parse_kernel_faults(after.kernel_new):
        found.fails.append(f"{f.bus}: {f.text}")


def _after_aer(c: Ctx, after: Any, found: _AfterFound) -> None:
    """AER counters that grew during the load (a correctable one is worth a look, the others fail)."""
    for bus, counts in after.aer.items():
        old = c.facts.aer.get(bus)
        if old is None:
            continue  # not readable before the load: nothing to compare with
        for kind in ("fatal", "nonfatal", "correctable"):
            if old.get(kind) is not None and (counts.get(kind) or 0) > (old.get(kind) or 0):
                (found.warns if kind == "correctable" else found.fails).append(
                    f"{bus} AER {kind} {old.get(kind) or 0} → {counts.get(kind)}")


def _after_nvlink(c: Ctx, after: Any, found: _AfterFound) -> None:
    """NVLink error counters that grew during the load beyond the policy's limits (nothing read before the load:
    nothing to compare with, no claim)."""
    from procurement.policy import default_policy
    from procurement.verify.parse.nvlink import NVLINK_COUNTERS, parse_nvlink_errors

    if after.nvlink_errors is None:
        return
    policy = c.policy or default_policy()
    limits = {"replay": policy.nvlink_replay_errors_max, "recovery": policy.nvlink_recovery_errors_max,
              "crc": policy.nvlink_crc_errors_max}
    prior = {g.index: g.links for g in parse_nvlink_errors(c.facts.nvlink_errors.stdout)} if (
        c.facts.nvlink_errors is not None and c.facts.nvlink_errors.ok) else {}
    for g in parse_nvlink_errors(after.nvlink_errors) if prior else []:
        for link, counters in sorted(g.links.items()):
            for key in NVLINK_COUNTERS:
                grown = counters.get(key, 0) - prior.get(g.index, {}).get(link, {}).get(key, 0)
                if key in counters and grown > limits[key]:
                    found.fails.append(f"GPU{g.index} link {link} {key} +{grown}")


def _lbl(g: Any) -> str:
    return f"GPU{g.index} ({g.bus_id})" if getattr(g, "bus_id", None) else f"GPU{g.index}"


@check("LOAD-P2P", "load")
def _load_p2p(c: Ctx) -> None:
    """(`--load full`) CUDA's p2pBandwidthLatencyTest: every GPU pair reaches its peer directly (where the plan
    has NVLink), the test ends cleanly; the slowest P2P-enabled pair's bandwidth is recorded."""
    load = c.facts.load
    if load is None or (load.level != "full" and "p2p_bandwidth" not in load.tools):
        return
    res = _clean_bandwidth_run(c, "LOAD-P2P", "p2p_bandwidth", "p2pBandwidthLatencyTest")
    if res is None:
        return
    cannot, values = parse_p2p(_out(res))
    if not values:
        c.add("LOAD-P2P", "unknown", "load.empty", None, None, tool="p2pBandwidthLatencyTest",
              line=error_line(_out(res)))
    elif cannot and _nvlink_wanted(c):
        pairs = ", ".join(f"GPU{a}→GPU{b}" for a, b in cannot[:8]) + (" …" if len(cannot) > 8 else "")
        c.add("LOAD-P2P", "fail", "load.p2p.no_peer", None, pairs, pairs=pairs)
    elif gaps := _p2p_gaps(c, res, len(values)):
        c.add("LOAD-P2P", "unknown", "load.incomplete", None, c.v("min_gbs", gbs=f"{min(values):g}"),
              tool="p2pBandwidthLatencyTest", what=gaps)
    else:
        c.add("LOAD-P2P", "pass", "load.p2p.pass", None, c.v("min_gbs", gbs=f"{min(values):g}"),
              n=len(values), gbs=f"{min(values):g}")


def _p2p_gaps(c: Ctx, res: dict[str, Any], pairs: int) -> list[Any]:
    """What p2pBandwidthLatencyTest's output lacks of its complete form: every matrix with a row per GPU of the
    node, every GPU pair in the P2P=Enabled one (``pairs`` read), its closing NOTE line (empty: none)."""
    shape = p2p_shape(_out(res))
    n = max(shape.devices, len(c.gpus))
    out: list[Any] = []
    if shape.devices < n:
        out.append(c.v("gpus_seen", seen=shape.devices, gpus=n))
    if pairs < n * (n - 1):
        out.append(c.v("pairs_read", read=pairs, pairs=n * (n - 1)))
    short = [name for name, tables in P2P_MATRICES if shape.rows.get(name, 0) < tables * n]
    if short:
        out.append(c.v("missing", names=", ".join(short)))
    if not shape.ended:
        out.append(c.v("no_line", line="NOTE: The CUDA Samples are not meant for performance measurements…"))
    return out

"""`verify --load`: the acceptance tools replayed from real outputs through fake executables, then judged."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from catalog.loader import Catalog, load_catalog
from procurement.verify.collect.raw import load_plan
from procurement.verify.collect.runner import CommandResult
from procurement.verify.parse.load import parse_all_reduce, parse_dcgm_diag, parse_gpu_burn, parse_nvbandwidth
from procurement.verify.probe import ProbeOptions, run_probe
from tests.procurement.verify.conftest import (
    ACCEPT,
    H100_TOPO,
    H100_XML,
    HOST_OUTPUTS,
    h100_plan,
    head,
    host_runner_healthy,
    make_host_root,
    write_exe,
)

NCCL_H100 = ACCEPT / "nccl/all_reduce_perf-g8-8xh100-single-node-pass-nccl-tests-290.txt"
NCCL_FAIL = ACCEPT / "nccl/all_reduce_perf-g8-8xh100-fail-system-not-yet-initialized.txt"
NVBW_H100 = ACCEPT / "nvbandwidth/nvbandwidth-v0.10-d2d-read-ce-8xh100-pass.txt"
DCGM_PASS = ACCEPT / "dcgm/dcgmi-diag-r3-text-8xh200-pass.txt"
DCGM_FAIL = ACCEPT / "dcgm/dcgmi-diag-r3-text-8xh100-fail-cuinit-no-fabricmanager.txt"
BURN_PASS = ACCEPT / "gpuburn/gpu_burn-8xa100-sxm4-80gb-tc-doubles-pass.log"
BURN_FAULTY = ACCEPT / "gpuburn/gpu_burn-16gpu-supermicro-all-faulty-injected.txt"
NVLINK_S = ACCEPT / "nvsmi/nvidia-smi-nvlink-status-a100-8gpu.txt"
NVLINK_E = ACCEPT / "nvsmi/nvidia-smi-nvlink-e-h100-ml-engineering.txt"


def nvlink_e_every_gpu(gpus: int = 8) -> str:
    """The real `nvidia-smi nvlink -e` capture (GPU 0 of an 8-GPU H100 node only) with its GPU block repeated
    for GPUs 1 … gpus-1, as the command prints every GPU of the node: a listing of one GPU of eight is not
    a reading of the node's links."""
    text = NVLINK_E.read_text()
    block = text[text.index("GPU 0:"):]
    return text + "".join(block.replace("GPU 0:", f"GPU {i}:", 1) for i in range(1, gpus))


# index, power.draw, temperature.gpu, clocks.current.sm, clocks_event_reasons.active of the real H100 query
# capture (tests/fixtures/nvidia-smi/utkuozdemir_h100-80gb-hbm3_590.48.01_query-gpu.csv), one row per GPU.
SAMPLE = "{i}, 69.85 W, 41, 345 MHz, {reasons}"


def test_parsers_read_the_real_outputs() -> None:
    r = parse_all_reduce(NCCL_H100.read_text())
    assert (r.avg_busbw_gbs, r.peak_busbw_gbs, r.wrong, r.failure) == (439.369, 476.53, 0, None)
    old = parse_all_reduce((ACCEPT / "nccl/all_reduce_perf-g8-8xa100-sxm4-40gb-1B-8G-old-format-pass.txt").read_text())
    assert old.peak_busbw_gbs == pytest.approx(235.26) and old.avg_busbw_gbs == pytest.approx(68.4048)
    assert "system not yet initialized" in (parse_all_reduce(NCCL_FAIL.read_text()).failure or "")
    values = parse_nvbandwidth(NVBW_H100.read_text())
    assert len(values) == 56 and min(values) == pytest.approx(395.05)
    assert ("GPU Memory", "Fail - All") in parse_dcgm_diag(DCGM_FAIL.read_text())
    assert all(r.startswith(("Pass", "Skip")) for _, r in parse_dcgm_diag(DCGM_PASS.read_text()))
    assert parse_gpu_burn(BURN_PASS.read_text()) == dict.fromkeys(range(8), "OK")
    assert set(parse_gpu_burn(BURN_FAULTY.read_text()).values()) == {"FAULTY"}


def fake_tools(bin_dir: Path, dcgm: Path | None = DCGM_PASS, nvbw: Path | None = NVBW_H100,
               nccl: Path | None = NCCL_H100, burn: Path | None = BURN_PASS, reasons: str = "0x0000000000000001",
               calls: Path | None = None) -> None:
    """Executables that replay the captures (None: the tool is not installed)."""
    log = f"echo \"$0 $*\" >> {shlex.quote(str(calls))}\n" if calls else ""
    for name, capture in (("dcgmi", dcgm), ("nvbandwidth", nvbw), ("all_reduce_perf", nccl), ("gpu_burn", burn)):
        if capture is not None:
            write_exe(bin_dir, name, f"{log}cat {shlex.quote(str(capture))}\n")
    rows = "\\n".join(SAMPLE.format(i=i, reasons=reasons) for i in range(8))
    bin_dir.mkdir(parents=True, exist_ok=True)
    nvlink_e = bin_dir / "nvlink-e-every-gpu.txt"
    nvlink_e.write_text(nvlink_e_every_gpu())
    # nvlink -s / -e replay real captures (the 8-GPU status one is an A100's 12 links: the checks compare the
    # GPUs with each other, not with a model's link count)
    write_exe(
        bin_dir,
        "nvidia-smi",
        f'{log}case "$1" in topo) cat {shlex.quote(str(H100_TOPO))};;\n'
        f'  --query-gpu=*) printf "{rows}\\n";;\n'
        f'  nvlink) if [ "$2" = "-e" ]; then cat {shlex.quote(str(nvlink_e))}; '
        f"else cat {shlex.quote(str(NVLINK_S))}; fi;;\n"
        f"  *) cat {shlex.quote(str(H100_XML))};;\nesac\n",
    )


def _run(tmp_path: Path, catalog: Catalog, level: str = "quick", duration: float | None = 1):  # type: ignore[no-untyped-def]
    root = make_host_root(tmp_path / "root")
    options = ProbeOptions(root=root, runner=host_runner_healthy(H100_XML), timeout=5, load=level,
                           duration=duration)
    return run_probe(h100_plan(), catalog, options, "en")


@pytest.fixture(scope="module")
def shipped() -> Catalog:
    return load_catalog()


def test_quick_load_run_passes_on_a_healthy_h100_node(tmp_path: Path, fake_path: Path, shipped: Catalog) -> None:
    calls = tmp_path / "calls.log"
    fake_tools(fake_path, calls=calls)
    rep = _run(tmp_path, shipped)
    for cid in ("LOAD-DCGM", "LOAD-NVBANDWIDTH", "LOAD-NCCL", "LOAD-BURN", "LOAD-THROTTLE"):
        assert rep.check(cid).status == "pass", rep.check(cid)  # type: ignore[union-attr]
    assert rep.check("LOAD-NVBANDWIDTH").expected == "≥ 335 GB/s"  # type: ignore[union-attr]  # catalog, sourced
    assert rep.check("LOAD-NCCL").actual == "peak 476.53 GB/s, avg 439.369 GB/s"  # type: ignore[union-attr]
    ran = calls.read_text()
    assert "dcgmi diag -r 1" in ran and "all_reduce_perf -b 8M -e 1G -f 2 -g 8" in ran and "gpu_burn 1" in ran
    assert "--query-gpu=index,power.draw" in ran  # sampled while burning


def test_failures_of_the_real_tools_fail_the_load_checks(tmp_path: Path, fake_path: Path, shipped: Catalog) -> None:
    fake_tools(fake_path, dcgm=DCGM_FAIL, nccl=NCCL_FAIL, burn=BURN_FAULTY, reasons="0x0000000000000040")
    rep = _run(tmp_path, shipped)
    assert rep.check("LOAD-DCGM").status == "fail"  # type: ignore[union-attr]
    assert "GPU Memory: Fail - All" in rep.check("LOAD-DCGM").message  # type: ignore[union-attr]
    assert rep.check("LOAD-NCCL").status == "fail"  # type: ignore[union-attr]
    assert rep.check("LOAD-BURN").status == "fail"  # type: ignore[union-attr]
    assert rep.check("LOAD-THROTTLE").status == "fail"  # type: ignore[union-attr]  # HW thermal slowdown bit
    assert rep.exit_code() == 1


def test_missing_tools_are_unknown_with_how_to_install(tmp_path: Path, fake_path: Path, shipped: Catalog) -> None:
    fake_tools(fake_path, dcgm=None, nvbw=None, nccl=None, burn=None)
    rep = _run(tmp_path, shipped)
    for cid, hint in (("LOAD-DCGM", "datacenter-gpu-manager"), ("LOAD-NVBANDWIDTH", "NVIDIA/nvbandwidth"),
                      ("LOAD-NCCL", "nccl-tests"), ("LOAD-BURN", "gpu-burn")):
        c = rep.check(cid)
        assert c is not None and c.status == "unknown" and hint in c.message, c
    assert rep.exit_code() in (1, 3) and rep.overall() != "pass"


def test_without_an_expected_value_the_result_is_not_judged(tmp_path: Path, fake_path: Path) -> None:
    """The test catalog's H100 has no acceptance figures: bandwidths are recorded, never passed."""
    from tests.procurement.verify.conftest import make_catalog

    fake_tools(fake_path)
    rep = _run(tmp_path, make_catalog())
    assert rep.check("LOAD-NCCL").status == "unknown"  # type: ignore[union-attr]
    assert "no expected value" in rep.check("LOAD-NCCL").message  # type: ignore[union-attr]


def test_load_plan_levels_and_duration() -> None:
    quick = {t["name"]: t for t in load_plan("quick", 8)}
    full = {t["name"]: t for t in load_plan("full", 8, 600)}
    assert quick["gpu_burn"]["argv"] == ["gpu_burn", "300"] and full["gpu_burn"]["argv"] == ["gpu_burn", "600"]
    assert quick["dcgmi_diag"]["argv"][-1] == "1" and full["dcgmi_diag"]["argv"][-1] == "3"
    # a quick run fits in 15 minutes per node: the burn plus the other tools' typical run times
    assert quick["gpu_burn"]["timeout"] <= 600


DCGM_JSON = ACCEPT / "dcgm/dcgmi-diag-j-dcgm-3.1.0-8gpu-pass-dcgm-unit-test.json.txt"


def test_dcgm_json_output_is_read_too() -> None:
    """`dcgmi diag -j` (the standalone probe asks for JSON): NVIDIA's own captured example, with the warning
    line DCGM printed before it and the null entries between tests."""
    rows = parse_dcgm_diag(DCGM_JSON.read_text())
    assert ("Denylist", "Pass - 1/1") in rows and ("software", "Pass - 8/8") in rows and len(rows) == 10
    head, _, tail = DCGM_JSON.read_text().rpartition('"status" : "PASS"')  # GPU 7 of the software test
    failed = head + '"status" : "FAIL"' + tail
    assert ("software", "Fail - 1/8") in parse_dcgm_diag(failed)


def test_the_standalone_probes_load_format_is_judged(vcat: Catalog, shipped: Catalog) -> None:
    """procurement/probe writes load.commands and one `nvidia-smi --query-gpu -l N` record as samples."""
    from procurement.verify.collect.raw import new_raw, result
    from procurement.verify.judge import judge

    doc = new_raw()
    doc["commands"]["nvidia_smi_q"] = result(["nvidia-smi", "-q", "-x"], 0, H100_XML.read_text())
    doc["commands"]["nvidia_smi_topo"] = result(["nvidia-smi", "topo", "-m"], 0, H100_TOPO.read_text())
    rows = "".join(f"{i}, 2026/12/01 10:00:00.000, 690.5, 71, 1980, 0x0000000000000000, 100\n" for i in range(8))
    doc["load"] = {
        "level": "quick", "burn_s": 300, "gpus": 8, "burn_seconds": 301.2,
        "commands": {
            "dcgmi_diag": result(["dcgmi", "diag", "-r", "1", "-j"], 0, DCGM_JSON.read_text()),
            "nvbandwidth": result(["nvbandwidth"], 0, NVBW_H100.read_text()),
            "all_reduce_perf": result(["all_reduce_perf"], 0, NCCL_H100.read_text()),
            "gpu_burn": result(["gpu_burn", "300"], 0, BURN_PASS.read_text()),
        },
        "samples": result(["nvidia-smi", "--query-gpu=..."], -9, rows),
    }
    rep = judge(doc, h100_plan(), shipped, None, "en")
    for cid in ("LOAD-DCGM", "LOAD-NVBANDWIDTH", "LOAD-NCCL", "LOAD-BURN", "LOAD-THROTTLE"):
        assert rep.check(cid).status == "pass", rep.check(cid)  # type: ignore[union-attr]
    assert "301.2 s" in rep.check("LOAD-BURN").message  # type: ignore[union-attr]
    assert rep.check("LOAD-THROTTLE").actual == "max 71 °C, peak 5524 W total"  # type: ignore[union-attr]


def test_psu_headroom_at_the_measured_draw() -> None:
    """LOAD-POWER: the GPUs' sampled peak plus the plan's rest of the system against the PSUs left when the
    redundant ones are set aside (the llm-cluster-node example: 6 PSUs, N+1)."""
    from procurement.budgets.power import power_budget
    from procurement.plan import load_plan
    from procurement.policy import default_policy
    from procurement.verify.collect.raw import new_raw, result
    from procurement.verify.judge import judge
    from tests.conftest import EXAMPLES

    catalog = load_catalog()
    plan = load_plan(EXAMPLES / "llm-cluster-node.gpuplan.yaml", catalog)
    budget = power_budget(plan, catalog, default_policy())
    rest = budget.draw_w - budget.gpu_w

    def judged(watts: float, plan=plan):  # type: ignore[no-untyped-def]
        doc = new_raw()
        doc["commands"]["nvidia_smi_q"] = result(["nvidia-smi", "-q", "-x"], 0, H100_XML.read_text())
        rows = "".join(f"{i}, 2026/12/01 10:00:00.000, {watts}, 71, 1980, 0x0000000000000000, 100\n" for i in range(8))
        doc["load"] = {"level": "quick", "commands": {}, "samples": result(["nvidia-smi"], -9, rows)}
        return judge(doc, plan, catalog, None, "en").check("LOAD-POWER")

    # the real capture's 69.85 W idle draw: far within the capacity
    idle = judged(69.85)
    assert idle is not None and idle.status == "pass"
    assert idle.actual == f"{8 * 69.85 + rest:.0f} W ({8 * 69.85:.0f} W GPUs measured + {rest:.0f} W rest planned)"
    # GPUs drawing what the usable PSUs hold, minus the rest of the system: over the capacity fails
    over = (budget.capacity_bound_w - rest) / 8 + 10
    bad = judged(over)
    assert bad is not None and bad.status == "fail" and "redundancy does not hold" in bad.message
    # the same draw on a plan with one more PSU fits, with or without the policy's headroom
    roomier = plan.model_copy(update={"server": plan.server.model_copy(update={
        "psu": plan.server.psu.model_copy(update={"count": plan.server.psu.count + 2})})})  # type: ignore[union-attr]
    assert judged(over, roomier).status in ("pass", "warn")  # type: ignore[union-attr]


def test_a_pytorch_burn_stands_in_for_a_missing_gpu_burn(tmp_path: Path, fake_path: Path, shipped: Catalog) -> None:
    """No gpu_burn, PyTorch with CUDA on the host: every GPU burns at once through PyTorch, and the per-GPU
    results (iterations, errors against the first product) are judged; one mismatch fails that GPU."""
    from procurement.verify.collect.raw import TORCH_BURN_SCRIPT

    assert "threading.Thread" in TORCH_BURN_SCRIPT and "errors += 1" in TORCH_BURN_SCRIPT
    compile(TORCH_BURN_SCRIPT, "torch_burn", "exec")  # the child script is valid Python
    fake_tools(fake_path, burn=None)
    for errors, status in ((0, "pass"), (1, "fail")):
        gpus = [{"index": i, "name": "NVIDIA H100 80GB HBM3", "iterations": 4200, "seconds": 1.0,
                 "tflops": 620.3, "errors": errors if i == 5 else 0} for i in range(8)]
        outputs = dict(HOST_OUTPUTS)
        frameworks = outputs["python"]
        root = make_host_root(tmp_path / f"root{errors}")

        def runner(argv, timeout, frameworks=frameworks, gpus=gpus):  # type: ignore[no-untyped-def]
            if len(argv) > 2 and argv[2] == TORCH_BURN_SCRIPT:
                assert argv[3] == "1"  # --duration 1
                return CommandResult(tuple(argv), returncode=0, stdout=json.dumps({"torch": "2.4.0", "gpus": gpus}))
            return host_runner_healthy(H100_XML)(argv, timeout)

        options = ProbeOptions(root=root, runner=runner, timeout=5, load="quick", duration=1)
        rep = run_probe(h100_plan(), shipped, options, "en")
        burn = rep.check("LOAD-BURN")
        assert burn is not None and burn.status == status, burn
        if status == "fail":
            assert burn.actual == "GPU5"
        else:
            assert "GPU0 620.3 TFLOPS" in (burn.actual or "")


IPMI = ACCEPT / "ipmi"
DCMI_215 = IPMI / "ipmitool-dcmi-power-reading-215w-activated.txt"
DCMI_OFF = IPMI / "ipmitool-dcmi-power-reading-0w-deactivated-openbmc.txt"
SDR_OK = IPMI / "ipmitool-sdr-type-power-supply-c-redundant.txt"
SDR_HP = IPMI / "ipmitool-sdr-elist-full-hp-proliant-psu1-failure.txt"
IPMI_NODEV = IPMI / "ipmitool-error-could-not-open-device.txt"


def _hp_psu_lines() -> str:
    """The HP ProLiant's power-supply sensors, as `ipmitool sdr type "Power Supply"` prints them."""
    return "".join(line + "\n" for line in SDR_HP.read_text().splitlines() if line.startswith("Power Supp"))


def test_bmc_parsers_read_the_real_outputs() -> None:
    from procurement.verify.parse.load import PSU_FAULTS, parse_dcmi_power, parse_psu_sensors

    assert parse_dcmi_power(DCMI_215.read_text()).watts == 215
    assert parse_dcmi_power((IPMI / "ipmitool-dcmi-power-reading-197w-activated.txt").read_text()).watts == 197
    off = parse_dcmi_power(DCMI_OFF.read_text())  # OpenBMC without a power sensor: 0 W, deactivated
    assert off.watts is None and off.state == "deactivated"
    ok = parse_psu_sensors(SDR_OK.read_text())
    assert [s.reading for s in ok] == ["Fully Redundant", "Presence detected", "Presence detected"]
    hp = parse_psu_sensors(_hp_psu_lines())
    assert [s.name for s in hp] == ["Power Supply 1", "Power Supply 2", "Power Supplies"]
    bad = [s.name for s in hp if any(f in s.reading.lower() for f in PSU_FAULTS)]
    assert bad == ["Power Supply 1", "Power Supplies"]


def fake_ipmitool(bin_dir: Path, power: Path | None, psu: str | None, fail: Path | None = None) -> None:
    if fail is not None:
        write_exe(bin_dir, "ipmitool", f"cat {shlex.quote(str(fail))} >&2\nexit 1\n")
        return
    psu_file = bin_dir / "psu.txt"
    psu_file.write_text(psu or "")
    write_exe(bin_dir, "ipmitool",
              f'case "$1" in dcmi) cat {shlex.quote(str(power))};;\n'
              f'  sdr) cat {shlex.quote(str(psu_file))};;\nesac\n')


def test_the_bmc_is_read_during_the_burn(tmp_path: Path, fake_path: Path, shipped: Catalog) -> None:
    """ipmitool: the PSU sensors as the BMC sees them at full draw; a failed PSU fails LOAD-PSU, a missing
    ipmitool or an unreachable BMC is unknown with how to set it up, never pass."""
    fake_tools(fake_path)
    rep = _run(tmp_path / "none", shipped)
    psu = rep.check("LOAD-PSU")
    assert psu is not None and psu.status == "unknown" and "apt install ipmitool" in psu.message
    fake_ipmitool(fake_path, DCMI_215, SDR_OK.read_text())
    rep = _run(tmp_path / "ok", shipped)
    psu = rep.check("LOAD-PSU")
    assert psu is not None and psu.status == "pass" and "2 power supplies" in psu.message, psu
    fake_ipmitool(fake_path, DCMI_215, _hp_psu_lines())
    psu = _run(tmp_path / "hp", shipped).check("LOAD-PSU")
    assert psu is not None and psu.status == "fail"
    assert "Power Supply 1: 0 Watts, Presence detected, Failure detected" in psu.message
    assert "Power Supplies: Non-Redundant: Sufficient from Redundant" in psu.message
    fake_ipmitool(fake_path, None, None, fail=IPMI_NODEV)
    psu = _run(tmp_path / "nodev", shipped).check("LOAD-PSU")
    assert psu is not None and psu.status == "unknown" and "/dev/ipmi0" in psu.message


def test_psu_headroom_with_the_bmc_reading() -> None:
    """LOAD-POWER with the BMC's reading: within the capacity it is shown beside the estimate; above the
    capacity while the estimate fits, a warning (input power is above the PSUs' output), never a pass; a
    deactivated reading is no reading; fewer PSUs present than planned fails LOAD-PSU."""
    from procurement.budgets.power import power_budget
    from procurement.plan import load_plan
    from procurement.policy import default_policy
    from procurement.verify.collect.raw import new_raw, result
    from procurement.verify.judge import judge
    from tests.conftest import EXAMPLES

    catalog = load_catalog()
    plan = load_plan(EXAMPLES / "llm-cluster-node.gpuplan.yaml", catalog)
    budget = power_budget(plan, catalog, default_policy())

    def judged(power_text: str, psu_text: str):  # type: ignore[no-untyped-def]
        doc = new_raw()
        doc["commands"]["nvidia_smi_q"] = result(["nvidia-smi", "-q", "-x"], 0, H100_XML.read_text())
        rows = "".join(f"{i}, 2026/12/01 10:00:00.000, 69.85, 71, 1980, 0x0000000000000000, 100\n" for i in range(8))
        bmc = {"t": 0, "power": {"returncode": 0, "stdout": power_text}, "psu": {"returncode": 0, "stdout": psu_text}}
        doc["load"] = {"level": "quick", "commands": {}, "samples": result(["nvidia-smi"], -9, rows),
                       "bmc_samples": [bmc]}
        rep = judge(doc, plan, catalog, None, "en")
        return rep.check("LOAD-POWER"), rep.check("LOAD-PSU")

    power, psu = judged(DCMI_215.read_text(), SDR_OK.read_text())
    assert power is not None and power.status == "pass" and (power.actual or "").endswith("; BMC 215 W")
    # two PSUs present, the plan has more: one is missing or unseated
    assert psu is not None and psu.status == "fail" and plan.server.psu.count > 2
    assert f"the plan has {plan.server.psu.count}" in psu.message
    over = DCMI_215.read_text().replace("215 Watts", f"{budget.capacity_bound_w + 50:.0f} Watts", 1)
    power, _ = judged(over, SDR_OK.read_text())
    assert power is not None and power.status == "warn" and "input" in power.message
    power, _ = judged(DCMI_OFF.read_text(), SDR_OK.read_text())
    assert power is not None and "BMC" not in (power.actual or "")


NCCL_2NODE_H100 = ACCEPT / "nccl/all_reduce_perf-2node-16xh100-oci-roce-pass.txt"
NCCL_2NODE_A100 = ACCEPT / "nccl/all_reduce_perf-2node-16xa100-sxm4-80gb-pass.txt"
MPI_SLOTS = ACCEPT / "nccl/mpirun-all_reduce_perf-not-enough-slots-fail.txt"


def test_cross_node_launch_under_slurm_or_a_hostfile(tmp_path: Path) -> None:
    from procurement.verify.collect.raw import cross_node_plan

    slurm = {"SLURM_JOB_NUM_NODES": "2", "SLURM_NODEID": "0"}
    srun = cross_node_plan("quick", 8, slurm)
    assert srun is not None and srun["nodes"] == 2
    assert srun["argv"] == ["srun", "--overlap", "-N", "2", "--ntasks-per-node", "8", "all_reduce_perf", "-b", "8M",
                            "-e", "1G", "-f", "2", "-g", "1"]
    assert cross_node_plan("quick", 8, {**slurm, "SLURM_NODEID": "1"}) is None  # node 0 launches it, once
    assert cross_node_plan("quick", 8, {"SLURM_JOB_NUM_NODES": "1"}) is None and cross_node_plan("full", 8, {}) is None
    hosts = tmp_path / "hosts"
    hosts.write_text("# the nodes\nnode01 slots=8\nnode02 slots=8\n\n")
    mpi = cross_node_plan("full", 8, {}, str(hosts))
    assert mpi is not None and mpi["nodes"] == 2 and mpi["argv"][:7] == [
        "mpirun", "--hostfile", str(hosts), "-np", "16", "--map-by", "ppr:8:node"]
    assert mpi["argv"][7:] == ["all_reduce_perf", "-b", "8", "-e", "8G", "-f", "2", "-g", "1"]


def _two_node_plan():  # type: ignore[no-untyped-def]
    from procurement.plan import PartCount

    plan = h100_plan()
    return plan.model_copy(update={
        "requirements": plan.requirements.model_copy(update={"nodes": 2}),
        "server": plan.server.model_copy(update={"nics": [PartCount(part="connectx-7-ndr-400g", count=8)]})})


def test_nccl_across_nodes_against_the_planned_nics(tmp_path: Path, fake_path: Path, shipped: Catalog,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Under a 2-node Slurm allocation the first node runs all_reduce_perf over both through srun (a fake
    replaying real 2-node outputs); 8 NDR ports are expected to carry 8 × 48 GB/s (catalog, NCCL maintainers)."""
    monkeypatch.setenv("SLURM_JOB_NUM_NODES", "2")
    monkeypatch.setenv("SLURM_NODEID", "0")
    fake_tools(fake_path)

    def run(capture: Path | None, name: str):  # type: ignore[no-untyped-def]
        if capture is not None:
            write_exe(fake_path, "srun", f'echo "$*" > {shlex.quote(str(tmp_path / "srun.args"))}\n'
                      f"cat {shlex.quote(str(capture))}\n")
        root = make_host_root(tmp_path / name)
        options = ProbeOptions(root=root, runner=host_runner_healthy(H100_XML), timeout=5, load="quick", duration=1)
        return run_probe(_two_node_plan(), shipped, options, "en").check("LOAD-NCCL-NODES")

    with monkeypatch.context() as env:  # no srun on PATH (make test installs Slurm for tests/deploy)
        env.setenv("PATH", str(fake_path))
        missing = run(None, "missing")
    assert missing is not None and missing.status == "unknown" and "srun is not installed" in missing.message
    ok = run(NCCL_2NODE_H100, "h100")
    assert ok is not None and ok.status == "pass", ok
    assert ok.expected == "≈ 384 GB/s (8× 48)" and ok.actual == "2 nodes: peak 464.79 GB/s, avg 458.452 GB/s"
    assert (tmp_path / "srun.args").read_text().startswith("--overlap -N 2 --ntasks-per-node 8 all_reduce_perf")
    low = run(NCCL_2NODE_A100, "a100")  # the A100 pair's 182.8 GB/s on a plan of 8 NDR ports
    # 48 % is below the policy's 80 % floor: a failure with the measured and expected figures, not a warning
    assert low is not None and low.status == "fail" and "48%" in low.message, low
    assert "182.8 GB/s" in low.message and "384 GB/s" in low.message and "80% floor" in low.message
    slots = run(MPI_SLOTS, "slots")
    assert slots is not None and slots.status == "unknown" and "not enough slots" in slots.message


def test_a_node_that_did_not_run_across_nodes_says_so(tmp_path: Path, fake_path: Path, shipped: Catalog,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SLURM_JOB_NUM_NODES", raising=False)
    monkeypatch.delenv("SLURM_NNODES", raising=False)
    fake_tools(fake_path)
    root = make_host_root(tmp_path / "root")
    options = ProbeOptions(root=root, runner=host_runner_healthy(H100_XML), timeout=5, load="quick", duration=1)
    c = run_probe(_two_node_plan(), shipped, options, "en").check("LOAD-NCCL-NODES")
    assert c is not None and c.status == "skip" and "first node of a Slurm allocation" in c.message
    assert run_probe(h100_plan(), shipped, options, "en").check("LOAD-NCCL-NODES") is None  # one node planned


def test_the_cluster_takes_its_network_result_from_the_node_that_ran_across(
        tmp_path: Path, fake_path: Path, shipped: Catalog, monkeypatch: pytest.MonkeyPatch) -> None:
    """Merging: NODE-NCCL carries the first node's LOAD-NCCL-NODES; load runs where no node ran across the
    nodes leave the network untested (unknown), never a pass."""
    from procurement.verify.merge import merge_reports

    monkeypatch.setenv("SLURM_JOB_NUM_NODES", "2")
    fake_tools(fake_path)
    write_exe(fake_path, "srun", f"cat {shlex.quote(str(NCCL_2NODE_H100))}\n")

    def node(nodeid: str):  # type: ignore[no-untyped-def]
        monkeypatch.setenv("SLURM_NODEID", nodeid)
        options = ProbeOptions(root=make_host_root(tmp_path / f"n{nodeid}"), runner=host_runner_healthy(H100_XML),
                               timeout=5, load="quick", duration=1)
        return run_probe(_two_node_plan(), shipped, options, "en")

    first, second = node("0"), node("1")
    assert second.check("LOAD-NCCL-NODES").status == "skip"  # type: ignore[union-attr]
    nccl = next(c for c in merge_reports([first, second], _two_node_plan(), "zh").checks if c.id == "NODE-NCCL")
    assert nccl is not None and nccl.status == "pass"
    assert nccl.actual == "2 个节点：峰值 464.79 GB/s，平均 458.452 GB/s"  # rendered in the merge's language
    untested = next(c for c in merge_reports([second, second], _two_node_plan(), "en").checks if c.id == "NODE-NCCL")
    assert untested is not None and untested.status == "unknown" and "untested" in untested.message


# ---------------------------------------------------------------- outputs cut off part-way


NVBW_AZURE = ACCEPT / "nvbandwidth/nvbandwidth-d2d-read-ce-8xh100-azure-ndv5-pass.txt"


def _judged_load(shipped: Catalog, tool: str, argv: list[str], text: str, level: str = "quick"):  # type: ignore[no-untyped-def]
    """The check of one load tool whose output was ``text`` (exit 0), on the 8x H100 node of the captures."""
    from procurement.verify.collect.raw import new_raw, result
    from procurement.verify.judge import judge

    doc = new_raw()
    doc["commands"]["nvidia_smi_q"] = result(["nvidia-smi", "-q", "-x"], 0, H100_XML.read_text())
    doc["commands"]["nvidia_smi_topo"] = result(["nvidia-smi", "topo", "-m"], 0, H100_TOPO.read_text())
    doc["load"] = {"level": level, "commands": {tool: result(argv, 0, text)}}
    return judge(doc, h100_plan(), shipped, None, "en")


DCGM_R3 = ["dcgmi", "diag", "-r", "3"]


@pytest.mark.parametrize("lines", [11, 17, 19, 23, 26, 27, 28])
def test_a_dcgm_table_cut_off_is_unknown(shipped: Catalog, lines: int) -> None:
    """`dcgmi diag` prints its table's closing border (DIAG_FOOTER) after the last section; a level-3 run has the
    Integration, Hardware and Stress sections. An output that ended before them is not a pass of the tests it
    never showed."""
    dcgm = _judged_load(shipped, "dcgmi_diag", DCGM_R3, head(DCGM_PASS, lines)).check("LOAD-DCGM")
    assert dcgm is not None and dcgm.status == "unknown", (lines, dcgm)
    assert "no closing border" in dcgm.message and "level-3" in dcgm.message, dcgm.message
    if lines == 11:
        assert "missing: Integration, Hardware, Stress" in dcgm.message, dcgm.message


def test_dcgm_complete_tables_keep_their_verdicts_and_a_cut_failure_still_fails(shipped: Catalog) -> None:
    for capture, argv, status in ((DCGM_PASS, DCGM_R3, "pass"), (DCGM_PASS, ["dcgmi", "diag", "-r", "1"], "pass"),
                                  (DCGM_FAIL, DCGM_R3, "fail")):
        dcgm = _judged_load(shipped, "dcgmi_diag", argv, capture.read_text()).check("LOAD-DCGM")
        assert dcgm is not None and dcgm.status == status, dcgm
    # the failing row was printed before the cut: still a failure
    cut = _judged_load(shipped, "dcgmi_diag", DCGM_R3, head(DCGM_FAIL, 40)).check("LOAD-DCGM")
    assert cut is not None and cut.status == "fail" and "GPU Memory: Fail - All" in cut.message, cut
    # the level-1 part of the table is complete, but a level-3 run has more sections than the Deployment one
    r1_only = head(DCGM_PASS, 18) + DCGM_PASS.read_text().splitlines(keepends=True)[-1]
    dcgm = _judged_load(shipped, "dcgmi_diag", DCGM_R3, r1_only).check("LOAD-DCGM")
    assert dcgm is not None and dcgm.status == "unknown" and "missing: Integration, Hardware, Stress" in dcgm.message
    assert _judged_load(shipped, "dcgmi_diag", ["dcgmi", "diag", "-r", "1"], r1_only).check(  # type: ignore[union-attr]
        "LOAD-DCGM").status == "pass"


def test_a_dcgm_json_cut_off_is_unknown(shipped: Catalog) -> None:
    text = DCGM_JSON.read_text()
    cut = text[: text.index('"category" : "Custom"')]
    dcgm = _judged_load(shipped, "dcgmi_diag", ["dcgmi", "diag", "-r", "1", "-j"], cut).check("LOAD-DCGM")
    assert dcgm is not None and dcgm.status == "unknown" and "JSON" in dcgm.message, dcgm


@pytest.mark.parametrize(("capture", "lines", "read"), [(NVBW_H100, 14, 28), (NVBW_H100, 18, 56),
                                                        (NVBW_AZURE, 25, 21), (NVBW_AZURE, 31, 56)])
def test_an_nvbandwidth_matrix_cut_off_is_unknown(shipped: Catalog, capture: Path, lines: int, read: int) -> None:
    """nvbandwidth prints an N×N matrix for the node's N GPUs, then its SUM line: a matrix that stops part-way
    has not measured every pair, and the slowest pair may be among those it did not."""
    nvbw = _judged_load(shipped, "nvbandwidth", ["nvbandwidth"], head(capture, lines)).check("LOAD-NVBANDWIDTH")
    assert nvbw is not None and nvbw.status == "unknown", (lines, nvbw)
    assert 'no "SUM" line' in nvbw.message, nvbw.message
    assert (f"{read} of 56 GPU pairs read" in nvbw.message) == (read < 56), nvbw.message


def test_nvbandwidth_complete_matrices_pass_and_fewer_gpus_than_the_node_is_unknown(shipped: Catalog) -> None:
    for capture in (NVBW_H100, NVBW_AZURE):
        nvbw = _judged_load(shipped, "nvbandwidth", ["nvbandwidth"], capture.read_text()).check("LOAD-NVBANDWIDTH")
        assert nvbw is not None and nvbw.status == "pass", nvbw
    # a whole 4-GPU matrix (the capture's first four GPUs) on the 8-GPU node: half the GPUs were never measured
    rows = NVBW_H100.read_text().splitlines()
    four = "\n".join([*rows[:9], "  ".join(rows[9].split()[:4]), *(" ".join(r.split()[:5]) for r in rows[10:14]),
                      "", *rows[18:]])
    nvbw = _judged_load(shipped, "nvbandwidth", ["nvbandwidth"], four).check("LOAD-NVBANDWIDTH")
    assert nvbw is not None and nvbw.status == "unknown" and "4 of the node's 8 GPUs" in nvbw.message, nvbw


@pytest.mark.parametrize("lines", [16, 19, 21, 22])
def test_nccl_output_without_its_summary_is_unknown(shipped: Catalog, lines: int) -> None:
    """nccl-tests prints '# Out of bounds values' and '# Avg bus bandwidth' once every size has run
    (src/common.cu): without them the run ended early, and its peak so far is no verdict."""
    nccl = _judged_load(shipped, "all_reduce_perf", ["all_reduce_perf"], head(NCCL_H100, lines)).check("LOAD-NCCL")
    assert nccl is not None and nccl.status == "unknown", (lines, nccl)
    assert f"after {min(lines - 15, 6)} message sizes" in nccl.message, nccl.message
    assert "# Avg bus bandwidth" in nccl.message, nccl.message


def test_nccl_complete_outputs_keep_their_verdicts(shipped: Catalog) -> None:
    whole = _judged_load(shipped, "all_reduce_perf", ["all_reduce_perf"], NCCL_H100.read_text()).check("LOAD-NCCL")
    assert whole is not None and whole.status == "pass", whole
    failed = _judged_load(shipped, "all_reduce_perf", ["all_reduce_perf"], NCCL_FAIL.read_text()).check("LOAD-NCCL")
    assert failed is not None and failed.status == "fail", failed  # its failure line, though it has no summary
    # a wrong result seen before the cut still fails
    rows = head(NCCL_H100, 18).splitlines(keepends=True)
    rows[-1] = rows[-1][: rows[-1].rindex("0")] + "3\n"
    wrong = _judged_load(shipped, "all_reduce_perf", ["all_reduce_perf"], "".join(rows)).check("LOAD-NCCL")
    assert wrong is not None and wrong.status == "fail" and "#wrong 3" in wrong.message, wrong

"""Each defect of the acceptance issue, replayed through the judge: unknown is never pass.

The nvidia-smi captures are real (tests/fixtures/nvidia-smi); the failure states are edited into them the
way nvidia-smi prints them (tests/fixtures/acceptance/README.md, "Derived test inputs").
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from catalog.loader import Catalog
from catalog.models import Nic
from procurement.commands.cli import build_parser
from procurement.commands.verify import run_verify
from procurement.plan import GpuChoice, PartCount, Plan, save_plan
from procurement.verify.host import HostInfo
from procurement.verify.merge import merge_reports
from procurement.verify.probe import ProbeOptions, report_from_outputs, run_probe
from procurement.verify.report import ReportError, VerificationReport, load_report, write_report
from tests.procurement.verify.checks.test_load import nvlink_e_every_gpu
from tests.procurement.verify.conftest import (
    ACCEPT,
    H100_TOPO,
    H100_XML,
    h100_plan,
    healthy,
    host_runner_healthy,
    make_catalog,
    make_host_root,
    smi_replay,
    write_exe,
)

XML = H100_XML.read_text()


def edit_gpu(xml: str, index: int, pattern: str, replacement: str) -> str:
    """``xml`` with ``pattern`` replaced inside the ``index``-th <gpu> block only (exactly once)."""
    starts = [m.start() for m in re.finditer(r"<gpu id=", xml)]
    start = starts[index]
    end = xml.index("</gpu>", start)
    block, n = re.subn(pattern, replacement, xml[start:end], count=1)
    assert n == 1, pattern
    return xml[:start] + block + xml[end:]


def judged(xml: str, plan=None, cat: Catalog | None = None, **kw: object) -> VerificationReport:  # type: ignore[no-untyped-def]
    return report_from_outputs(xml, cat or make_catalog(), plan, "en", kw.pop("host", None),  # type: ignore[arg-type]
                               kw.pop("topo", H100_TOPO.read_text()), kw.pop("health", healthy(xml)))  # type: ignore[arg-type]


def status(rep: VerificationReport, check_id: str) -> str:
    c = rep.check(check_id)
    assert c is not None, check_id
    return c.status


def test_the_unedited_capture_is_clean_for_the_edited_checks() -> None:
    """The baseline the edits below start from: these checks pass on the real capture."""
    rep = judged(XML, h100_plan())
    for cid in ("GPU-READINGS", "GPU-MEMORY", "PCIE-WIDTH", "POWER-LIMIT", "GPU-MODEL", "FABRIC-MANAGER",
                "THROTTLE", "GPU-TEMP", "ECC-ERRORS", "MIG", "NVLINK", "XID", "GPU-PCI-COUNT"):
        assert status(rep, cid) == "pass", (cid, rep.check(cid))


def test_unknown_error_readings_are_never_passed() -> None:
    """A GPU reading [Unknown Error] / ERR! was left out: 'Every GPU has its rated memory', exit 0."""
    xml = edit_gpu(XML, 3, r"(<fb_memory_usage>\s*<total>)81559 MiB", r"\1[Unknown Error]")
    xml = edit_gpu(xml, 3, r"<current_link_width>16x", "<current_link_width>[Unknown Error]")
    xml = edit_gpu(xml, 3, r"<current_power_limit>700.00 W", "<current_power_limit>ERR!")
    xml = edit_gpu(xml, 3, r"<current_ecc>Enabled", "<current_ecc>[Unknown Error]")
    rep = judged(xml, h100_plan())
    readings = rep.check("GPU-READINGS")
    assert readings is not None and readings.status == "fail"
    assert "GPU3 (00000000:86:00.0)" in readings.message
    assert "fb_memory_usage/total = [Unknown Error]" in readings.message
    for cid in ("GPU-MEMORY", "PCIE-WIDTH", "POWER-LIMIT", "ECC"):
        c = rep.check(cid)
        assert c is not None and c.status == "unknown", (cid, c)
        assert "GPU3 (00000000:86:00.0)" in c.message and "Every GPU" not in c.message
    assert rep.gpus[3].faults and rep.exit_code() == 1
    # without the fault check's failure the unread GPU still keeps the report from passing
    assert rep.overall() == "fail"


def test_unreadable_name_is_unknown_not_the_wrong_model() -> None:
    xml = edit_gpu(XML, 3, r"<product_name>NVIDIA H100 80GB HBM3", "<product_name>[Unknown Error]")
    rep = judged(xml, h100_plan())
    model = rep.check("GPU-MODEL")
    assert model is not None and model.status == "unknown"
    assert "not the planned" not in model.message and "Could not be read on GPU3 (00000000:86:00.0)" in model.message


def _nic_catalog() -> Catalog:
    cat = make_catalog()
    nic = Nic(id="cx7-400g", name="ConnectX-7 400G", vendor="NVIDIA", source="docs/sources.md §D7", speed_gbps=400,
              ports=1, fabric="infiniband", pcie_gen=5, pcie_lanes=16, power_w=25)
    cat.parts[nic.kind][nic.id] = nic
    return cat


def _ib(active: int, total: int = 8) -> list[dict[str, str]]:
    return [
        {"device": f"mlx5_{i}", "port": "1", "fw_ver": "28.39.1002",
         "state": "4: ACTIVE" if i < active else "1: DOWN", "phys_state": "5: LinkUp" if i < active else "3: Disabled",
         "rate": "400 Gb/sec (4X NDR)" if i < active else "10 Gb/sec (4X SDR)", "link_layer": "InfiniBand"}
        for i in range(total)
    ]


def test_net_speed_needs_every_planned_link_not_one() -> None:
    """8× 400G planned, 1 of 8 links up: NET-SPEED passed. Now each planned port needs its own link."""
    cat = _nic_catalog()
    plan = h100_plan(server__nics=[PartCount(part="cx7-400g", count=8)])
    health = healthy(XML) | {"infiniband": _ib(active=1)}
    rep = judged(XML, plan, cat, health=health)
    net = rep.check("NET-SPEED")
    assert net is not None and net.status == "fail" and net.expected == "8× 400 Gb/s"
    assert "7 of the 8 planned ports" in net.message and "mlx5_7/1" in net.message
    assert status(rep, "NIC-PORTS") == "pass"  # 8 ports are there, 7 are down
    health = healthy(XML) | {"infiniband": _ib(active=6, total=6)}
    rep = judged(XML, plan, cat, health=health)
    assert status(rep, "NIC-PORTS") == "fail" and rep.check("NIC-PORTS").actual == "6"  # type: ignore[union-attr]
    health = healthy(XML) | {"infiniband": _ib(active=8)}
    assert status(judged(XML, plan, cat, health=health), "NET-SPEED") == "pass"


def test_failing_topology_on_an_nvlink_plan_is_unknown(tmp_path: Path, fake_path: Path, vcat: Catalog) -> None:
    """On an SXM/NVLink plan a failing `nvidia-smi topo -m` was a silent skip."""
    smi_replay(fake_path, H100_XML, topo=None)  # topo -m prints an error and exits 3
    root = make_host_root(tmp_path / "root")
    rep = run_probe(h100_plan(), vcat, ProbeOptions(root=root, runner=host_runner_healthy(H100_XML), timeout=5),
                    "en")
    nv = rep.check("NVLINK")
    assert nv is not None and nv.status == "unknown"
    assert "topo -m: exit 3" in nv.message and "topo not captured" in nv.message
    assert rep.exit_code() != 0


def test_fabric_manager_not_started_fails() -> None:
    xml = XML
    for i in range(8):
        xml = edit_gpu(xml, i, r"<state>Completed</state>", "<state>Not Started</state>")
        xml = edit_gpu(xml, i, r"<status>Success</status>", "<status>N/A</status>")
    health = healthy(xml)
    health["commands"]["fabricmanager"] = {"argv": ["systemctl"], "returncode": 3, "stdout": "inactive\n",  # type: ignore[index]
                                           "stderr": "", "missing": False, "timed_out": False, "cancelled": False,
                                           "error": None}
    rep = judged(xml, h100_plan(), health=health)
    fm = rep.check("FABRIC-MANAGER")
    assert fm is not None and fm.status == "fail"
    assert "GPU0 (00000000:53:00.0): Not Started" in fm.message and "nvidia-fabricmanager: inactive" in fm.message


def test_hw_thermal_slowdown_at_91_c_fails() -> None:
    xml = edit_gpu(XML, 5, r"<clocks_event_reason_hw_thermal_slowdown>Not Active",
                   "<clocks_event_reason_hw_thermal_slowdown>Active")
    xml = edit_gpu(xml, 5, r"<gpu_temp>\d+ C", "<gpu_temp>91 C")
    rep = judged(xml, h100_plan())
    th = rep.check("THROTTLE")
    assert th is not None and th.status == "fail"
    assert "GPU5 (00000000:A8:00.0): hw_thermal_slowdown 91 °C" in th.message


def test_temperature_at_the_gpus_own_slowdown_threshold_fails() -> None:
    """H100 reports T.Limit headroom: at or below its slowdown margin the GPU is slowing down."""
    xml = edit_gpu(XML, 2, r"<gpu_temp_tlimit>\d+ C", "<gpu_temp_tlimit>-3 C")
    rep = judged(xml, h100_plan())
    assert status(rep, "GPU-TEMP") == "fail"
    assert "GPU2 (00000000:75:00.0) T.Limit -3 °C ≤ slowdown -2 °C" in rep.check("GPU-TEMP").message  # type: ignore[union-attr]


def test_inforom_warning_on_stderr_fails(tmp_path: Path, fake_path: Path, vcat: Catalog) -> None:
    write_exe(fake_path, "nvidia-smi",
              f'if [ "$1" = "topo" ]; then cat {H100_TOPO}; exit 0; fi\n'
              f"echo 'WARNING: infoROM is corrupted at gpu 0000:53:00.0' >&2\ncat {H100_XML}\n")
    root = make_host_root(tmp_path / "root")
    rep = run_probe(h100_plan(), vcat, ProbeOptions(root=root, runner=host_runner_healthy(H100_XML), timeout=5),
                    "en")
    smi = rep.check("NVIDIA-SMI")
    assert smi is not None and smi.status == "fail"
    assert "infoROM is corrupted at gpu 0000:53:00.0" in smi.message and "RMA" in smi.message


def test_volatile_uncorrectable_ecc_fails() -> None:
    xml = edit_gpu(XML, 1, r"(?s)(<volatile>.*?<dram_uncorrectable>)0<", r"\g<1>2<")
    rep = judged(xml, h100_plan())
    ecc = rep.check("ECC-ERRORS")
    assert ecc is not None and ecc.status == "fail" and "GPU1 (00000000:64:00.0): 2" in ecc.message


def test_pending_mig_change_is_remarked() -> None:
    xml = edit_gpu(XML, 0, r"<pending_mig>Disabled", "<pending_mig>Enabled")
    rep = judged(xml, h100_plan())
    mig = rep.check("MIG")
    assert mig is not None and mig.status == "warn" and "pending MIG mode change" in mig.message
    assert "GPU0: Disabled → Enabled" in (mig.actual or "")


@pytest.mark.parametrize("code", [15, 0])
def test_classic_per_gpu_error_line_is_recognised(
    tmp_path: Path, fake_path: Path, vcat: Catalog, code: int
) -> None:
    """`GPU0000:B5:00.0: Unknown Error` (exit 15) was not recognised; with exit 0 NVIDIA-SMI passed."""
    body = "echo 'GPU0000:B5:00.0: Unknown Error'\n"
    if code == 0:
        body += f"cat {H100_XML}\n"
    write_exe(fake_path, "nvidia-smi", f'if [ "$1" = "topo" ]; then cat {H100_TOPO}; exit 0; fi\n{body}exit {code}\n')
    root = make_host_root(tmp_path / "root")
    rep = run_probe(h100_plan(), vcat, ProbeOptions(root=root, runner=host_runner_healthy(H100_XML), timeout=5),
                    "en")
    smi = rep.check("NVIDIA-SMI")
    assert smi is not None and smi.status == "fail"
    assert "GPU0000:B5:00.0: Unknown Error" in smi.message and "GPU 0000:B5:00.0" in smi.message
    assert rep.exit_code() == 1  # a failed check is 1 whether or not anything else could be verified


def test_xid_events_from_the_kernel_log_name_meaning_and_action() -> None:
    lines = (ACCEPT / "xid/dmesg-xid48-dbe-63-rowremap-94-contained.log").read_text().splitlines()
    rep = judged(XML, h100_plan(), health=healthy(XML, lines))
    xid = rep.check("XID")
    assert xid is not None and xid.status == "fail"
    assert "0000:19:00 Xid 48" in xid.message and "double-bit ECC" in xid.message and "reset the GPU" in xid.message
    assert "Xid 94" in xid.message and "check the application" in xid.message
    lines = (ACCEPT / "xid/dmesg-xid119-gsp-timeout-dell-xe9680-h100.log").read_text().splitlines()
    rep = judged(XML, h100_plan(), health=healthy(XML, lines))
    assert status(rep, "XID") == "fail" and "Xid 119" in rep.check("XID").message  # type: ignore[union-attr]
    rep = judged(XML, None, health={})  # nothing could read the kernel log
    xid = rep.check("XID")
    assert xid is not None and xid.status == "unknown" and rep.exit_code() == 3


def test_gpu_on_the_bus_but_not_driven_fails() -> None:
    health = healthy(XML)
    lspci = health["commands"]["lspci"]  # type: ignore[index]
    lspci["stdout"] += ("0000:db:00.0 3D controller [0302]: NVIDIA Corporation GH100 [H100 SXM5 80GB] "
                        "[10de:2330] (rev a1)\n")
    rep = judged(XML, h100_plan(), health=health)
    c = rep.check("GPU-PCI-COUNT")
    assert c is not None and c.status == "fail" and "0000:db:00.0" in c.message


# ---------------------------------------------------------------- merging


def _node(hostname: str, machine_id: str | None) -> VerificationReport:
    gpu_only = Plan(gpu=GpuChoice(model="h100-sxm5-80gb", count=8))  # the host facts are empty here
    rep = judged(XML, gpu_only, host=HostInfo(hostname=hostname, machine_id=machine_id))
    gpus = [g.model_copy(update={"serial": f"{machine_id}-{g.serial}", "uuid": f"{machine_id}-{g.uuid}"})
            for g in rep.gpus]
    return rep.model_copy(update={"gpus": gpus})


def test_nodes_are_told_apart_by_machine_identity_not_hostname() -> None:
    """Four fresh installs all named `ubuntu` collapsed into one node."""
    nodes = [_node("ubuntu", f"{i:032x}") for i in range(4)]
    merged = merge_reports(nodes, h100_plan(requirements__nodes=4), "en")
    by_id = {c.id: c for c in merged.checks}
    assert by_id["NODE-COUNT"].status == "pass" and by_id["NODE-COUNT"].actual == "4"
    assert by_id["NODE-UNIQUE"].status == "pass"
    same = [_node("ubuntu", "a" * 32), _node("ubuntu", "a" * 32)]
    by_id = {c.id: c for c in merge_reports(same, None, "en").checks}
    assert by_id["NODE-UNIQUE"].status == "warn" and by_id["NODE-COUNT"].actual == "1"


def test_a_merged_report_is_refused_as_node_input(tmp_path: Path, vcat: Catalog,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """A merged report fed back into --merge was read as a node with 0 GPUs and made NODE-COUNT pass."""
    paths = []
    for i in range(2):
        p = tmp_path / f"n{i}.json"
        write_report(_node(f"gpu0{i}", f"{i:032x}"), p)
        paths.append(str(p))
    plan = tmp_path / "p.gpuplan.yaml"
    save_plan(h100_plan(requirements__nodes=3), plan)
    cluster = tmp_path / "cluster.json"
    argv = ["verify", "--lang", "en", "--plan", str(plan), "--merge", *paths, "--json", str(cluster)]
    run_verify(build_parser().parse_args(argv), vcat)
    with pytest.raises(ReportError, match="merged cluster report"):
        load_report(cluster)
    argv = ["verify", "--lang", "en", "--plan", str(plan), "--merge", *paths, str(cluster)]
    code = run_verify(build_parser().parse_args(argv), vcat)
    out = capsys.readouterr()
    assert "merged cluster report" in out.err
    assert code == 1 and "NODE-COUNT" in out.out  # 2 of 3 nodes: the merged file is not a third


def test_node_results_lists_every_failed_and_unknown_node() -> None:
    """NODE-RESULTS left a failed node out when another node errored."""
    ok = _node("gpu01", "1" * 32)
    failed = _node("gpu02", "2" * 32)
    failed = failed.model_copy(update={"checks": [c.model_copy(update={"status": "fail"}) if c.id == "GPU-COUNT"
                                                  else c for c in failed.checks]})
    errored = _node("gpu03", "3" * 32).model_copy(update={"error": "nvidia-smi was not found (PATH)", "gpus": []})
    unknown = _node("gpu04", "4" * 32)
    unknown = unknown.model_copy(update={"checks": [c.model_copy(update={"status": "unknown"}) if c.id == "XID"
                                                    else c for c in unknown.checks]})
    res = {c.id: c for c in merge_reports([ok, failed, errored, unknown], None, "en").checks}["NODE-RESULTS"]
    assert res.status == "fail"
    assert "gpu02" in res.message and "gpu03" in res.message and "gpu04" in res.message
    assert "gpu01" not in res.message


def test_node_results_is_unknown_when_no_node_failed_but_one_is_unknown() -> None:
    """Nothing failed, one node has an unknown: NODE-RESULTS is unknown (never a pass) and names that node."""
    ok = _node("gpu01", "1" * 32)
    unknown = _node("gpu02", "2" * 32)
    unknown = unknown.model_copy(update={"checks": [c.model_copy(update={"status": "unknown"}) if c.id == "XID"
                                                    else c for c in unknown.checks]})
    res = {c.id: c for c in merge_reports([ok, unknown], None, "en").checks}["NODE-RESULTS"]
    assert res.status == "unknown" and res.actual == "gpu02"
    assert "gpu02" in res.message and "gpu01" not in res.message


def test_json_is_written_when_the_plan_is_unreadable(tmp_path: Path, vcat: Catalog) -> None:
    bad = tmp_path / "bad.gpuplan.yaml"
    bad.write_text("schema_version: 1\ngpu:\n  count: -3\n")
    out = tmp_path / "r.json"
    code = run_verify(build_parser().parse_args(["verify", "--lang", "en", "--plan", str(bad), "--json",
                                                 str(out)]), vcat)
    assert code == 2
    data = json.loads(out.read_text())
    assert data["status"] == "unknown" and "bad.gpuplan.yaml:3" in data["error"]
    assert load_report(out).exit_code() == 3  # the report itself: nothing could be verified


def test_exit_status_is_0_only_when_every_check_passed() -> None:
    rep = judged(XML, h100_plan(server__nics=[], server__storage=[], software__image=None),
                 health=healthy(XML))
    assert {c.status for c in rep.checks} <= {"pass", "warn", "skip", "unknown"}
    unknown = [c.id for c in rep.checks if c.status == "unknown"]
    assert rep.exit_code() == (3 if unknown else 0)
    one_unknown = rep.model_copy(update={"checks": [*rep.checks[:1], rep.checks[1].model_copy(
        update={"status": "unknown"}), *rep.checks[2:]]})
    assert one_unknown.exit_code() == 3 and one_unknown.overall() == "unknown"


def test_gpu_nic_affinity_from_topology() -> None:
    """A NIC per GPU planned: each GPU's nearest NIC in `topo -m` should share its PCIe switch."""
    from tests.procurement.verify.conftest import FIX

    cat = _nic_catalog()
    rails = h100_plan(server__nics=[PartCount(part="cx7-400g", count=8)])
    good = judged(XML, rails, cat, topo=(FIX / "topo-m_dgx-a100-8x-NV12-mlx5x12_tabs.txt").read_text())
    aff = good.check("GPU-NIC-AFFINITY")
    assert aff is not None and aff.status == "pass" and aff.actual == "8× PXB"  # DGX A100: a NIC pair per GPU pair
    # a real 8-GPU node with 4 NICs all on the first socket: GPU4-7 reach them only across the CPUs
    half = judged(XML, rails, cat, topo=(FIX / "topo-m_8x-a100-NV12-NIC0-3_tabs.txt").read_text())
    aff = half.check("GPU-NIC-AFFINITY")
    assert aff is not None and aff.status == "warn" and aff.actual == "4× PXB, 4× SYS"
    assert "GPU4→mlx5_0 SYS" in aff.message
    far = judged(XML, rails, cat, topo=(FIX / "topo-m_6x-h100-NV18-with-NICs_spaces.txt").read_text())
    aff = far.check("GPU-NIC-AFFINITY")
    assert aff is not None and aff.status == "warn"
    assert aff.actual == "3× NODE, 3× SYS" and "GPU3→mlx5_0 SYS" in aff.message
    # one NIC for eight GPUs is not a rail design: the paths are recorded, not judged
    one = judged(XML, h100_plan(), cat, topo=(FIX / "topo-m_6x-h100-NV18-with-NICs_spaces.txt").read_text())
    assert one.check("GPU-NIC-AFFINITY").status == "skip"  # type: ignore[union-attr]


def test_nic_firmware_consistency_from_ibstat() -> None:
    """The real ibstat of an H100 node: ConnectX-7 (MT4129) and ConnectX-6 Dx (MT4125) each on one firmware."""
    for name, fw_text in (("ib/ibstat-h100-roce-some-down-polling.txt", "MT4129: 28.39.1002"),
                          ("ib/ibstat-h100-8x400-ib-all-active.txt", "MT4129: 28.41.1000")):
        text = (ACCEPT / name).read_text()
        health = healthy(XML)
        health["commands"]["ibstat"] = {"argv": ["ibstat"], "returncode": 0, "stdout": text, "stderr": "",  # type: ignore[index]
                                        "missing": False, "timed_out": False, "cancelled": False, "error": None}
        rep = judged(XML, h100_plan(), health=health)
        fw = rep.check("NIC-FIRMWARE")
        assert fw is not None and fw.status == "pass", fw
        assert fw_text in (fw.actual or "")
    # one ConnectX-7 left on an older firmware
    text = (ACCEPT / "ib/ibstat-h100-8x400-ib-all-active.txt").read_text().replace("28.41.1000", "28.36.1010", 1)
    health = healthy(XML)
    health["commands"]["ibstat"] = {"argv": ["ibstat"], "returncode": 0, "stdout": text, "stderr": "",  # type: ignore[index]
                                    "missing": False, "timed_out": False, "cancelled": False, "error": None}
    fw = judged(XML, h100_plan(), health=health).check("NIC-FIRMWARE")
    assert fw is not None and fw.status == "warn" and "28.36.1010 (mlx5_0)" in fw.message


def _nvlink_health(text: str, rc: int = 0) -> dict[str, object]:
    health = healthy(XML)
    health["commands"]["nvidia_smi_nvlink"] = {  # type: ignore[index]
        "argv": ["nvidia-smi", "nvlink", "-s"], "returncode": rc, "stdout": text, "stderr": "",
        "missing": False, "timed_out": False, "cancelled": False, "error": None}
    return health


def test_nvlink_links_from_nvidia_smi_nvlink_status() -> None:
    """Real `nvidia-smi nvlink -s` outputs (Azure NHC and gpud test data): all up, one GPU all inactive."""
    ok = (ACCEPT / "nvsmi/nvidia-smi-nvlink-status-a100-8gpu.txt").read_text()
    rep = judged(XML, h100_plan(), health=_nvlink_health(ok))
    links = rep.check("NVLINK-LINKS")
    assert links is not None and links.status == "pass" and links.actual == "12× 25 GB/s"
    # GPU 6's block replaced by the real output of a GPU 6 whose links are all down
    start, end = ok.index("GPU 6:"), ok.index("GPU 7:")
    inactive = (ACCEPT / "nvsmi/nvidia-smi-nvlink-status-a100-all-links-inactive.txt").read_text()
    dead = ok[:start] + inactive.rstrip("\n") + "\n" + ok[end:]
    rep = judged(XML, h100_plan(), health=_nvlink_health(dead))
    links = rep.check("NVLINK-LINKS")
    assert links is not None and links.status == "fail" and "GPU6" in links.message
    failed = judged(XML, h100_plan(), health=_nvlink_health("", rc=3)).check("NVLINK-LINKS")
    assert failed is not None and failed.status == "unknown"  # an NVLink plan, and the state unreadable


def test_nvlink_links_of_one_gpu_of_eight_are_not_every_gpus_links() -> None:
    """The real `nvidia-smi nvlink -s` of one healthy GPU (GPU 7, Azure NHC's good_nvlink_status) on an 8-GPU
    node: the other seven GPUs' links were not read, so the check is unknown naming them, never a pass."""
    one = (ACCEPT / "nvsmi/nvidia-smi-nvlink-status-a100-one-gpu-ok.txt").read_text()
    links = judged(XML, h100_plan(), health=_nvlink_health(one)).check("NVLINK-LINKS")
    assert links is not None and links.status == "unknown", links
    assert "listed 1 of the 8 GPUs" in links.message and "GPU0, GPU1, GPU2, GPU3, GPU4, GPU5, GPU6" in links.message
    assert "GPU7" not in links.message and links.actual == "not read: GPU0, GPU1, GPU2, GPU3, GPU4, GPU5, GPU6"
    # a GPU read with its links down still fails, whatever was not read
    inactive = (ACCEPT / "nvsmi/nvidia-smi-nvlink-status-a100-all-links-inactive.txt").read_text()
    dead = judged(XML, h100_plan(), health=_nvlink_health(inactive)).check("NVLINK-LINKS")
    assert dead is not None and dead.status == "fail" and "GPU6" in dead.message


NVLINK_E = ACCEPT / "nvsmi/nvidia-smi-nvlink-e-h100-ml-engineering.txt"


def _nvlink_errors_health(text: str, rc: int = 0) -> dict[str, object]:
    health = healthy(XML)
    health["commands"]["nvidia_smi_nvlink_errors"] = {  # type: ignore[index]
        "argv": ["nvidia-smi", "nvlink", "-e"], "returncode": rc, "stdout": text, "stderr": "",
        "missing": False, "timed_out": False, "cancelled": False, "error": None}
    return health


def test_nvlink_error_counters_against_the_policy() -> None:
    """`nvidia-smi nvlink -e` (a real H100 capture): all zero passes; a link that retransmits fails with the
    GPU and link named; the limits are the policy's (a user file may allow some); unreadable is unknown."""
    text = nvlink_e_every_gpu()
    ok = judged(XML, h100_plan(), health=_nvlink_errors_health(text)).check("NVLINK-ERRORS")
    assert ok is not None and ok.status == "pass", ok
    assert ok.expected == "replay ≤ 0, recovery ≤ 0, crc ≤ 0" and "24 NVLink links of 8 GPUs" in ok.message
    # link 1 of GPU 0 as a degrading link prints it
    bad_text = text.replace("Link 1: CRC Errors: 0", "Link 1: CRC Errors: 12", 1).replace(
        "Link 1: Replay Errors: 0", "Link 1: Replay Errors: 3", 1)
    bad = judged(XML, h100_plan(), health=_nvlink_errors_health(bad_text)).check("NVLINK-ERRORS")
    assert bad is not None and bad.status == "fail"
    assert bad.actual == "GPU0 link 1 replay 3; GPU0 link 1 crc 12"
    # the user's policy allows some CRC and replay errors: now within it
    from procurement.policy import default_policy
    from procurement.verify.collect.raw import new_raw, result
    from procurement.verify.judge import judge

    lenient = default_policy().model_copy(update={"nvlink_crc_errors_max": 20, "nvlink_replay_errors_max": 5})
    doc = new_raw()
    doc["commands"]["nvidia_smi_q"] = result(["nvidia-smi", "-q", "-x"], 0, XML)
    doc["commands"]["nvidia_smi_nvlink_errors"] = result(["nvidia-smi", "nvlink", "-e"], 0, bad_text)
    assert judge(doc, h100_plan(), make_catalog(), lenient, "en").check("NVLINK-ERRORS").status == "pass"  # type: ignore[union-attr]
    assert judge(doc, h100_plan(), make_catalog(), None, "en").check("NVLINK-ERRORS").status == "fail"  # type: ignore[union-attr]
    # an NVLink plan whose counters cannot be read: unknown, never pass
    failed = judged(XML, h100_plan(), health=_nvlink_errors_health("", rc=3)).check("NVLINK-ERRORS")
    assert failed is not None and failed.status == "unknown"


def test_nvlink_error_counters_of_one_gpu_of_eight_are_unknown() -> None:
    """The real, abridged `nvidia-smi nvlink -e` capture lists GPU 0 only: on an 8-GPU node the counters of
    GPUs 1-7 were not read, so all-zero counts of one GPU are no pass for the node."""
    part = judged(XML, h100_plan(), health=_nvlink_errors_health(NVLINK_E.read_text())).check("NVLINK-ERRORS")
    assert part is not None and part.status == "unknown", part
    assert "listed 1 of the 8 GPUs" in part.message and "GPU1, GPU2, GPU3, GPU4, GPU5, GPU6, GPU7" in part.message

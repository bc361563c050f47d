"""Checks against example plans: 8x H100 passes, the T4 at x8 fails PCIE-WIDTH, faults name the GPU."""

from __future__ import annotations

from pathlib import Path

import pytest

from catalog.loader import Catalog
from procurement.plan import Plan
from procurement.verify.checks import Facts, evaluate, gpu_verdicts, match_gpu
from procurement.verify.host import HostInfo, probe_host
from procurement.verify.parse.smi_xml import parse_smi_xml
from procurement.verify.parse.topo import parse_topo
from procurement.verify.probe import report_from_outputs
from procurement.verify.report import VerificationReport
from tests.procurement.verify.conftest import (
    A100_MIG_XML,
    FIX,
    H100_TOPO,
    H100_XML,
    P4_VGPU_XML,
    T4_XML,
    h100_plan,
    healthy,
    host_runner,
    make_catalog,
    make_host_root,
)


def host_info(root: Path, outputs: dict[str, str] | None = None, image: str | None = None) -> HostInfo:
    return probe_host(root, host_runner(outputs), timeout=5, image=image)


def report(
    xml: str,
    cat: Catalog,
    plan: Plan | None,
    host: HostInfo | None = None,
    topo: str | None = None,
    lang: str = "en",
) -> VerificationReport:
    return report_from_outputs(xml, cat, plan, lang, host, topo, healthy(xml))  # type: ignore[arg-type]


def status(rep: VerificationReport, check_id: str) -> str:
    check = rep.check(check_id)
    assert check is not None, check_id
    return check.status


def test_8x_h100_plan_passes_on_the_8x_h100_capture(tmp_path: Path, vcat: Catalog) -> None:
    host = host_info(make_host_root(tmp_path), image="nvcr.io/nvidia/pytorch:24.05-py3")
    rep = report(H100_XML.read_text(), vcat, h100_plan(), host, H100_TOPO.read_text())
    for cid in (
        "GPU-VISIBLE",
        "GPU-MODEL",
        "GPU-COUNT",
        "GPU-MEMORY",
        "PCIE-WIDTH",
        "PCIE-GEN",
        "PERSISTENCE",
        "ECC",
        "POWER-LIMIT",
        "MEMORY-RETIRED",
        "ECC-ERRORS",
        "MIG",
        "NVLINK",
        "CPU-MODEL",
        "CPU-CORES",
        "RAM",
        "NVME",
        "NET-SPEED",
        "OS",
        "DRIVER-MIN",
        "CUDA-VERSION",
        "CUDA-TOOLKIT",
        "CONTAINER-RUNTIME",
        "IMAGE",
    ):
        assert status(rep, cid) == "pass", (cid, rep.check(cid))
    assert rep.check("GPU-COUNT").expected == "8" and rep.check("GPU-COUNT").actual == "8"  # type: ignore[union-attr]
    assert rep.check("GPU-MODEL").actual == "8× NVIDIA H100 80GB HBM3"  # type: ignore[union-attr]
    assert rep.check("DRIVER-MIN").expected == "≥ 550.54.14"  # type: ignore[union-attr]  # CUDA 12.4 (specs C1)
    assert rep.check("NVLINK").actual == "NV18"  # type: ignore[union-attr]
    # the host's torch is 2.4.0+cu124 with CUDA, as planned
    assert status(rep, "FRAMEWORK") == "pass"
    assert rep.exit_code() == 0


def test_wrong_model_and_fewer_gpus_fail(vcat: Catalog) -> None:
    rep = report(H100_XML.read_text(), vcat, h100_plan(gpu__model="a100-sxm4-80gb"))
    assert status(rep, "GPU-MODEL") == "fail"
    assert "GPU0 (00000000:53:00.0), GPU1 (00000000:64:00.0)" in rep.check("GPU-MODEL").message  # type: ignore[union-attr]
    rep = report(H100_XML.read_text(), vcat, h100_plan(gpu__count=16))
    assert status(rep, "GPU-COUNT") == "fail"
    assert rep.check("GPU-COUNT").message.startswith("Only 8 of the 16")  # type: ignore[union-attr]
    assert status(report(H100_XML.read_text(), vcat, h100_plan(gpu__count=4)), "GPU-COUNT") == "warn"


def test_wrong_card_delivered_is_not_blamed_on_the_slot(vcat: Catalog) -> None:
    # Plan: H100 SXM (catalog Gen5); delivered: a Tesla T4, a Gen3 card running at Gen3 of its Gen3 maximum.
    # GPU-MODEL fails; the link is judged against the T4's own entry (Gen3), so PCIE-GEN passes
    rep = report(T4_XML.read_text(), vcat, h100_plan(gpu__count=1))
    assert status(rep, "GPU-MODEL") == "fail"
    gen = rep.check("PCIE-GEN")
    assert gen is not None and gen.status == "pass" and gen.expected == "Gen3"
    # the T4 runs x8 of its x16 (its own entry: 16 lanes): still a width failure, with x16 expected
    width = rep.check("PCIE-WIDTH")
    assert width is not None and width.status == "fail" and width.expected == "x16"


def test_t4_at_x8_fails_pcie_width_and_old_driver_fails_cuda(vcat: Catalog) -> None:
    plan = h100_plan(gpu__model="t4", gpu__count=1, software__cuda="cuda-12.2")
    rep = report(T4_XML.read_text(), vcat, plan)
    width = rep.check("PCIE-WIDTH")
    assert width is not None and width.status == "fail"
    assert width.actual == "GPU0 (00000000:00:1E.0) x8 (max x16)" and width.expected == "x16"
    assert "nvidia-smi -q -d PCIE" in width.message and "dmon -s t" in width.message
    assert status(rep, "PCIE-GEN") == "pass"  # Gen3 of Gen3, as the T4 is built
    assert status(rep, "GPU-MODEL") == "pass"
    assert status(rep, "GPU-MEMORY") == "pass"  # 15360 MiB = 16.1e9 bytes ≥ "16 GB"
    driver = rep.check("DRIVER-MIN")
    assert driver is not None and driver.status == "fail"  # 515.105.01 < 535.54.03 (CUDA 12.2, specs C1)
    assert (driver.expected, driver.actual) == ("≥ 535.54.03", "515.105.01")
    assert status(rep, "CUDA-VERSION") == "fail"  # the driver runs CUDA ≤ 11.7
    assert status(rep, "PERSISTENCE") == "warn"
    assert status(rep, "NVLINK") == "skip"  # needs_nvlink but one GPU has no pairs
    assert rep.exit_code() == 1


def test_idle_link_below_max_is_a_warning_explaining_power_saving(vcat: Catalog) -> None:
    xml = H100_XML.read_text().replace(
        "<current_link_gen>5</current_link_gen>", "<current_link_gen>1</current_link_gen>", 1
    )
    rep = report(xml, vcat, h100_plan())
    gen = rep.check("PCIE-GEN")
    assert gen is not None and gen.status == "warn"
    assert gen.actual == "GPU0 (00000000:53:00.0) Gen1 (max Gen5)"
    assert "save power" in gen.message and "nvidia-smi dmon -s t" in gen.message
    zh = report(xml, vcat, h100_plan(), lang="zh").check("PCIE-GEN")
    assert zh is not None and "节能" in zh.message


def test_slot_below_the_gpus_generation_fails(vcat: Catalog) -> None:
    xml = H100_XML.read_text().replace(
        "<max_link_gen>5</max_link_gen>\n\t\t\t\t\t<current_link_gen>5",
        "<max_link_gen>4</max_link_gen>\n\t\t\t\t\t<current_link_gen>4",
        1,
    )
    rep = report(xml, vcat, h100_plan())
    assert status(rep, "PCIE-GEN") == "fail"
    assert rep.check("PCIE-GEN").actual == "GPU0 (00000000:53:00.0) Gen4 (NVIDIA H100 SXM5 80GB: Gen5)"  # type: ignore[union-attr]


def test_power_cap_pending_remap_and_ecc_off_name_the_gpu(vcat: Catalog) -> None:
    xml = H100_XML.read_text()
    gpu2 = xml.index('<gpu id="00000000:75:00.0">')
    head, tail = xml[:gpu2], xml[gpu2:]
    tail = (
        tail.replace(
            "<current_power_limit>700.00 W</current_power_limit>",
            "<current_power_limit>450.00 W</current_power_limit>",
            1,
        )
        .replace(
            "<remapped_row_pending>No</remapped_row_pending>",
            "<remapped_row_pending>Yes</remapped_row_pending>",
            1,
        )
        .replace("<current_ecc>Enabled</current_ecc>", "<current_ecc>Disabled</current_ecc>", 1)
        .replace(
            "<persistence_mode>Enabled</persistence_mode>", "<persistence_mode>Disabled</persistence_mode>", 1
        )
    )
    rep = report(head + tail, vcat, h100_plan())
    power = rep.check("POWER-LIMIT")
    assert power is not None and power.status == "fail"
    assert power.actual == "GPU2 (00000000:75:00.0) 450 W (default 700 W)"
    assert "nvidia-smi -pl 700" in power.message
    assert status(rep, "MEMORY-RETIRED") == "fail" and "GPU2" in rep.check("MEMORY-RETIRED").message  # type: ignore
    assert status(rep, "ECC") == "fail" and rep.check("ECC").actual == "Disabled: GPU2"  # type: ignore[union-attr]
    assert status(rep, "PERSISTENCE") == "warn" and "GPU2" in rep.check("PERSISTENCE").message  # type: ignore


def test_a100_mig_capture(vcat: Catalog) -> None:
    xml = A100_MIG_XML.read_text()
    inventory = report(xml, vcat, None)
    assert status(inventory, "GPU-VISIBLE") == "fail"  # 4 attached, one reported
    assert "4 GPUs attached but reports only 1" in inventory.check("GPU-VISIBLE").message  # type: ignore
    assert status(inventory, "MIG") == "pass"
    assert inventory.check("MIG").actual == "GPU0: Enabled (4 MIG)"  # type: ignore[union-attr]
    plan = h100_plan(gpu__model="a100-sxm4-80gb", gpu__count=1)
    assert status(report(xml, vcat, plan), "MIG") == "warn"  # enabled, but the plan wants whole GPUs
    assert (
        status(report(xml, vcat, h100_plan(gpu__model="a100-sxm4-80gb", requirements__needs_mig=True)), "MIG")
        == "pass"
    )
    assert status(report(T4_XML.read_text(), vcat, h100_plan(requirements__needs_mig=True)), "MIG") == "fail"


def test_vgpu_capture_skips_what_it_cannot_know(vcat: Catalog) -> None:
    rep = report(P4_VGPU_XML.read_text(), vcat, None)
    for cid in ("PCIE-WIDTH", "PCIE-GEN", "PERSISTENCE", "ECC", "POWER-LIMIT", "MIG"):
        assert status(rep, cid) == "skip", cid
    assert status(rep, "GPU-MODEL") == "warn"  # GRID P4-1Q is not a catalog part
    assert rep.gpus[0].catalog_id is None


def test_host_shortfalls(tmp_path: Path, vcat: Catalog) -> None:
    # 20 of 24 DIMMs seen, 48-core CPUs, a 25 GbE link, Rocky instead of Ubuntu, one NVMe, no docker
    root = make_host_root(
        tmp_path,
        mem_kb=20 * 64 * 1024 * 1024 - 8 * 1024 * 1024,
        net_speed="25000",
        os_id="rocky",
        os_version="9.3",
        cores=48,
    )
    outputs = {
        "lsblk": '{"blockdevices": [{"name": "nvme0n1", "type": "disk", "size": 3840755982336, '
        '"tran": "nvme", "rota": false}]}'
    }
    rep = report(H100_XML.read_text(), vcat, h100_plan(), host_info(root, outputs))
    ram = rep.check("RAM")
    assert ram is not None and ram.status == "fail"
    assert ram.expected == "1536 GiB (24× 64 GiB)" and ram.actual == "1272 GiB"
    cores = rep.check("CPU-CORES")
    assert (
        cores is not None and cores.status == "fail" and "Only 96 physical cores where 192" in cores.message
    )
    assert status(rep, "CPU-MODEL") == "pass"
    assert status(rep, "NET-SPEED") == "fail" and rep.check("NET-SPEED").actual == "eth0 25 Gb/s, eth1 25 Gb/s"  # type: ignore
    assert status(rep, "OS") == "fail"
    assert status(rep, "NVME") == "fail" and rep.check("NVME").expected == "2"  # type: ignore[union-attr]
    assert status(rep, "CONTAINER-RUNTIME") == "fail"  # the plan uses an image, no docker
    assert status(rep, "IMAGE") == "unknown"  # planned, but no docker to ask
    assert status(rep, "CUDA-TOOLKIT") == "skip"  # nvcc absent is fine
    assert status(rep, "FRAMEWORK") == "skip"  # torch only inside the container


def test_ram_within_one_module_of_the_plan_passes(tmp_path: Path, vcat: Catalog) -> None:
    # 1536 GiB installed, MemTotal 1511.5 GiB: firmware/kernel reservations, not a missing DIMM
    rep = report(H100_XML.read_text(), vcat, h100_plan(), host_info(make_host_root(tmp_path)))
    assert status(rep, "RAM") == "pass"
    assert rep.check("RAM").actual == "1511.5 GiB"  # type: ignore[union-attr]


def test_no_plan_inventory_and_health_only(vcat: Catalog) -> None:
    rep = report(H100_XML.read_text(), vcat, None)
    assert status(rep, "GPU-COUNT") == "skip"
    assert status(rep, "DRIVER-MIN") == "skip"
    assert status(rep, "GPU-MODEL") == "pass"
    assert status(rep, "GPU-MEMORY") == "pass"
    assert status(rep, "PCIE-WIDTH") == "pass"
    assert rep.exit_code() == 0


def test_nvlink_missing_when_planned(vcat: Catalog) -> None:
    rep = report(
        H100_XML.read_text(), vcat, h100_plan(), topo=(FIX / "topo-m_8gpu-pcie-SYS-only_tabs.txt").read_text()
    )
    nv = rep.check("NVLINK")
    assert nv is not None and nv.status == "fail"
    assert nv.actual == "28 GPU pairs without NVLink" and "GPU0-GPU1" in nv.message


def test_gpu_matching_and_per_gpu_verdicts(vcat: Catalog) -> None:
    assert match_gpu("NVIDIA  H100 80GB HBM3", vcat).id == "h100-sxm5-80gb"  # type: ignore[union-attr]
    assert match_gpu("tesla t4", vcat).id == "t4"  # type: ignore[union-attr]
    assert match_gpu("GRID P4-1Q", vcat) is None and match_gpu(None, vcat) is None
    t4 = parse_smi_xml(T4_XML.read_text()).gpus[0]
    assert gpu_verdicts(t4, vcat.gpu("t4")) == {
        "PCIE-WIDTH": "fail",
        "PCIE-GEN": "pass",
        "PERSISTENCE": "warn",
        "ECC": "pass",
        "GPU-MEMORY": "pass",
    }
    rep = report(T4_XML.read_text(), vcat, None)
    assert gpu_verdicts(rep.gpus[0], vcat.gpu(rep.gpus[0].catalog_id))["PCIE-WIDTH"] == "fail"


def test_every_check_has_zh_and_en_messages(vcat: Catalog) -> None:
    facts = Facts(
        smi=parse_smi_xml(H100_XML.read_text()), host=HostInfo(), topo=parse_topo(H100_TOPO.read_text())
    )
    facts.parts = {g.index: match_gpu(g.name, vcat) for g in facts.smi.gpus}  # type: ignore[union-attr]
    zh = evaluate(facts, h100_plan(), vcat, "zh")
    en = evaluate(facts, h100_plan(), vcat, "en")
    assert [c.id for c in zh] == [c.id for c in en]
    assert all(c.message and c.message != e.message for c, e in zip(zh, en, strict=True))


@pytest.mark.parametrize("xml", [H100_XML, A100_MIG_XML, T4_XML, P4_VGPU_XML])
def test_check_ids_are_unique_per_report(vcat: Catalog, xml: Path) -> None:
    ids = [c.id for c in report(xml.read_text(), vcat, h100_plan()).checks]
    assert len(ids) == len(set(ids))


def test_ecc_off_fails_only_on_data_centre_gpus(vcat: Catalog) -> None:
    t4 = parse_smi_xml(T4_XML.read_text().replace("<current_ecc>Enabled", "<current_ecc>Disabled")).gpus[0]
    part = vcat.gpu("t4")
    assert part is not None
    assert gpu_verdicts(t4, part)["ECC"] == "fail"
    workstation = part.model_copy(update={"segment": "workstation", "ecc": True})
    assert gpu_verdicts(t4, workstation)["ECC"] == "warn"


def test_pcie_cards_need_nvlink_only_when_the_plan_asks(vcat: Catalog) -> None:
    cat = make_catalog()
    h100 = cat.gpu("h100-sxm5-80gb")
    assert h100 is not None
    cat.parts["gpu"]["h100-sxm5-80gb"] = h100.model_copy(update={"form_factor": "pcie"})  # bridges optional
    sys_only = (FIX / "topo-m_8gpu-pcie-SYS-only_tabs.txt").read_text()
    plan = h100_plan(requirements__needs_nvlink=False)
    assert status(report(H100_XML.read_text(), cat, plan, topo=sys_only), "NVLINK") == "pass"
    assert status(report(H100_XML.read_text(), vcat, plan, topo=sys_only), "NVLINK") == "fail"  # SXM: always


def test_zh_tables_say_the_values_in_chinese(vcat: Catalog) -> None:
    # 2 sockets × 96 cores = 192 planned (EPYC 9654); the host has 2 cores on 1 socket
    host = HostInfo(hostname="vm", cpu_model="AMD EPYC 9654 96-Core Processor", cpu_sockets=1, cpu_cores=2)
    zh = report(H100_XML.read_text(), vcat, h100_plan(), host=host, lang="zh")
    assert (zh.check("PERSISTENCE").expected, zh.check("PERSISTENCE").actual) == ("已启用", "已启用")  # type: ignore[union-attr]
    assert zh.check("ECC").actual == "已启用"  # type: ignore[union-attr]
    assert zh.check("MEMORY-RETIRED").expected == "无"  # type: ignore[union-attr]
    assert zh.check("MIG").actual == "已禁用"  # type: ignore[union-attr]
    cores = zh.check("CPU-CORES")
    assert cores is not None and (cores.expected, cores.actual) == ("192 核 / 2 路", "2 核 / 1 路")
    en = report(H100_XML.read_text(), vcat, h100_plan(), host=host, lang="en")
    cores_en = en.check("CPU-CORES")
    assert cores_en is not None
    assert (cores_en.expected, cores_en.actual) == ("192 cores / 2 sockets", "2 cores / 1 socket")
    assert en.check("PERSISTENCE").actual == "Enabled"  # type: ignore[union-attr]


def test_inventory_only_host_values_are_recorded_not_passed(vcat: Catalog) -> None:
    # no plan: a 2-core VM with 23.5 GiB and Debian has nothing to be compared with, so nothing "passes"
    host = HostInfo(hostname="vm", cpu_model="AMD EPYC", cpu_sockets=1, cpu_cores=2, memory_gib=23.5,
                    os_name="Debian GNU/Linux 12 (bookworm)", os_id="debian", os_version_id="12")
    rep = report(H100_XML.read_text(), vcat, None, host=host)
    for check_id, actual in (("CPU-MODEL", "AMD EPYC"), ("CPU-CORES", "2 cores / 1 socket"),
                             ("OS", "Debian GNU/Linux 12 (bookworm)"), ("CUDA-VERSION", "13.0")):
        check = rep.check(check_id)
        assert check is not None and check.status == "skip" and check.actual == actual, check_id
        assert "no plan to compare with" in check.message
    assert status(rep, "RAM") == "skip" and "23.5" in (rep.check("RAM").actual or "")  # type: ignore[union-attr]
    # the GPUs' own health is still judged without a plan
    assert status(rep, "PERSISTENCE") == "pass" and status(rep, "ECC") == "pass"
    assert rep.exit_code() == 0


def test_gpu_table_link_column_never_says_gen_dash() -> None:
    from procurement.verify.render import _pcie
    from procurement.verify.report import GpuRecord

    assert _pcie(GpuRecord(index=0, name="x", pcie_gen_current=5, pcie_width_current=16, pcie_gen_max=5,
                           pcie_width_max=16)) == "Gen5 x16 / Gen5 x16"
    assert _pcie(GpuRecord(index=0, name="x")) == "-"  # vGPU / WSL: nothing known
    assert _pcie(GpuRecord(index=0, name="x", pcie_gen_max=4, pcie_width_max=16)) == "- / Gen4 x16"


def test_checks_use_the_shared_units_and_version_parser() -> None:
    """One GB constant (catalog.units) and one version parser (catalog.models): verify keeps no copies."""
    import importlib
    import inspect
    import pkgutil

    from catalog import units
    from procurement.verify import checks
    from procurement.verify.checks import registry, software

    for info in pkgutil.iter_modules(checks.__path__):
        module = importlib.import_module(f"{checks.__name__}.{info.name}")
        src = inspect.getsource(module)
        assert "1_000_000_000" not in src and "1024 * 1024" not in src, info.name
        assert not hasattr(module, "GB") and not hasattr(module, "_ver"), info.name
    assert registry.BYTES_PER_GB is units.BYTES_PER_GB
    # a driver string that is not a version is unknown, never compared as 0
    assert software.version_or_none("580.105.08") == (580, 105, 8)
    assert software.version_or_none("N/A") is None


# gpu_verdicts runs the node report's own check functions on one GPU (issue 25). Before, it re-implemented six
# of them and disagreed with the report on these GPUs; each case shows the per-GPU verdict and the check agree.
_FB_TOTAL = "<total>15360 MiB</total>"


@pytest.mark.parametrize(
    ("edit", "check_id", "want"),
    [
        # a pending ECC change: the report warns (the mode after the next reset differs); the table said pass
        (("<pending_ecc>Enabled", "<pending_ecc>Disabled"), "ECC", "warn"),
        # an unreadable link width: the report says unknown; the table left the check out
        (("<current_link_width>8x", "<current_link_width>[Unknown Error]"), "PCIE-WIDTH", "unknown"),
        # unreadable persistence mode and ECC mode: unknown, never silently absent
        (("<persistence_mode>Disabled", "<persistence_mode>[Unknown Error]"), "PERSISTENCE", "unknown"),
        (("<current_ecc>Enabled", "<current_ecc>[Unknown Error]"), "ECC", "unknown"),
        # no memory size at all (no fault marker): against a known part that is unknown; the table left it out
        ((_FB_TOTAL, ""), "GPU-MEMORY", "unknown"),
    ],
)
def test_per_gpu_verdicts_agree_with_the_node_checks(
    vcat: Catalog, edit: tuple[str, str], check_id: str, want: str
) -> None:
    text = T4_XML.read_text()
    assert edit[0] in text
    xml = text.replace(edit[0], edit[1], 1)
    rep = report(xml, vcat, None)
    part = vcat.gpu("t4")
    assert status(rep, check_id) == want
    assert gpu_verdicts(parse_smi_xml(xml).gpus[0], part).get(check_id) == want
    if check_id != "ECC" or want != "warn":  # a stored GPU record keeps no pending ECC mode
        assert gpu_verdicts(rep.gpus[0], part).get(check_id) == want

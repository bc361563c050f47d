"""A small catalog built in code for the rule tests, so they do not depend on shipped prices or data.

Numbers follow docs/sources.md where it has them (GPU TDPs and memory, CPU cores/lanes,
CUDA minimum drivers, the Supermicro 2000 W PSU's 1000/1800 W ratings); chassis and prices are test
fixtures, not product facts.
"""

from __future__ import annotations

from typing import Any

from catalog.loader import Catalog
from catalog.models import (
    Chassis,
    ContainerImage,
    Cpu,
    CudaRelease,
    DriverBranch,
    Framework,
    Gpu,
    MemoryModule,
    Nic,
    OperatingSystem,
    Part,
    Psu,
    Storage,
)
from procurement.findings import Finding
from procurement.plan import Plan

SRC = {"vendor": "test", "source": "docs/sources.md (test fixture)"}


def part(cls: type[Part], **kw: Any) -> Any:
    kw.setdefault("name", kw["id"])
    if cls is Gpu:  # BF16 from compute capability 8.0, as the shipped catalog has it (docs/sources.md §A3)
        kw.setdefault("bf16", tuple(int(x) for x in str(kw["compute_capability"]).split(".")) >= (8, 0))
    return cls.model_validate({**SRC, **kw})


PARTS: list[Part] = [
    part(
        Gpu,
        id="rtx-4090",
        segment="consumer",
        architecture="Ada",
        compute_capability="8.9",
        memory_gib=24,
        memory_type="GDDR6X",
        fp16_tensor_tflops=165.2,
        fp32_tflops=82.6,
        fp64_tflops=1.29,
        tdp_w=450,
        pcie_gen=4,
        form_factor="pcie",
        slot_width=3,
        cooling="active",
        price_cny=15_000,
        mig_max=0,
        export_note="banned for China Oct-2023 (TPP 5286 > 4800)",
        export_note_zh="2023 年 10 月起禁止向中国出口（TPP 5286 > 4800）",
    ),
    part(
        Gpu,
        id="rtx-4090-d",
        segment="consumer",
        architecture="Ada",
        compute_capability="8.9",
        memory_gib=24,
        memory_type="GDDR6X",
        tdp_w=425,
        pcie_gen=4,
        form_factor="pcie",
        slot_width=3,
        cooling="active",
        market="china",
    ),
    part(
        Gpu,
        id="a100-40gb-pcie",
        segment="datacenter",
        architecture="Ampere",
        compute_capability="8.0",
        memory_gib=40,
        memory_type="HBM2",
        fp16_tensor_tflops=312,
        fp32_tflops=19.5,
        fp64_tflops=9.7,
        tdp_w=250,
        pcie_gen=4,
        form_factor="pcie",
        slot_width=2,
        cooling="passive",
        nvlink_gbs=600,
        mig_max=7,
        ecc=True,
        price_cny=70_000,
    ),
    part(
        Gpu,
        id="l40s",
        segment="datacenter",
        architecture="Ada",
        compute_capability="8.9",
        memory_gib=48,
        memory_type="GDDR6",
        fp16_tensor_tflops=362,
        tdp_w=350,
        pcie_gen=4,
        form_factor="pcie",
        slot_width=2,
        cooling="passive",
        ecc=True,
        price_cny=60_000,
    ),
    part(
        Gpu,
        id="h100-sxm5-80gb",
        segment="datacenter",
        architecture="Hopper",
        compute_capability="9.0",
        memory_gib=80,
        memory_type="HBM3",
        fp16_tensor_tflops=989,
        fp32_tflops=67,
        fp64_tflops=34,
        tdp_w=700,
        pcie_gen=5,
        form_factor="sxm",
        cooling="baseboard",
        nvlink_gbs=900,
        mig_max=7,
        ecc=True,
        export_note="blocked for China",
        export_note_zh="禁止向中国出口",
    ),
    part(
        Gpu,
        id="h100-pcie-80gb",
        segment="datacenter",
        architecture="Hopper",
        compute_capability="9.0",
        memory_gib=80,
        memory_type="HBM2e",
        tdp_w=350,
        pcie_gen=5,
        form_factor="pcie",
        slot_width=2,
        cooling="passive",
        nvlink_gbs=600,
        mig_max=7,
        ecc=True,
        price_cny=230_000,
    ),
    part(
        Gpu,
        id="p100-pcie-16gb",
        segment="datacenter",
        architecture="Pascal",
        compute_capability="6.0",
        memory_gib=16,
        memory_type="HBM2",
        tdp_w=250,
        pcie_gen=3,
        form_factor="pcie",
        slot_width=2,
        cooling="passive",
        ecc=True,
    ),
    part(
        Gpu,
        id="rtx-5090",
        segment="consumer",
        architecture="Blackwell",
        compute_capability="12.0",
        memory_gib=32,
        memory_type="GDDR7",
        tdp_w=575,
        pcie_gen=5,
        form_factor="pcie",
        slot_width=2,
        cooling="active",
    ),
    part(
        Cpu,
        id="i9-13900k",
        segment="consumer",
        socket="LGA1700",
        cores=24,
        threads=32,
        base_ghz=3.0,
        boost_ghz=5.8,
        tdp_w=253,
        pcie_gen=5,
        memory_channels=2,
        memory_type="DDR5/DDR4",
        ecc=False,
        price_cny=4_000,
    ),
    part(
        Cpu,
        id="i9-14900k",
        segment="consumer",
        socket="LGA1700",
        cores=24,
        threads=32,
        base_ghz=3.2,
        boost_ghz=6.0,
        tdp_w=253,
        pcie_gen=5,
        memory_channels=2,
        memory_type="DDR5/DDR4",
        ecc=False,
    ),
    part(
        Cpu,
        id="ryzen-7950x",
        segment="consumer",
        socket="AM5",
        cores=16,
        threads=32,
        boost_ghz=5.7,
        tdp_w=170,
        pcie_lanes=28,
        pcie_gen=5,
        memory_channels=2,
        memory_type="DDR5",
        ecc=False,
        price_cny=3_500,
    ),
    part(
        Cpu,
        id="epyc-7543",
        segment="datacenter",
        socket="SP3",
        cores=32,
        threads=64,
        base_ghz=2.8,
        boost_ghz=3.7,
        tdp_w=225,
        pcie_lanes=128,
        pcie_gen=4,
        memory_channels=8,
        memory_type="DDR4",
        max_sockets=2,
        ecc=True,
        price_cny=20_000,
    ),
    part(
        Cpu,
        id="xeon-8480p",
        segment="datacenter",
        socket="LGA4677",
        cores=56,
        threads=112,
        base_ghz=2.0,
        tdp_w=350,
        pcie_lanes=80,
        pcie_gen=5,
        memory_channels=8,
        memory_type="DDR5",
        max_sockets=2,
        ecc=True,
    ),
    part(
        MemoryModule,
        id="ddr5-32g-udimm",
        memory_type="DDR5",
        capacity_gib=32,
        speed_mts=5600,
        ecc=False,
        registered=False,
        power_w=5,
        price_cny=800,
    ),
    part(
        MemoryModule,
        id="ddr4-64g-rdimm",
        memory_type="DDR4",
        capacity_gib=64,
        speed_mts=3200,
        ecc=True,
        registered=True,
        power_w=5,
        price_cny=2_000,
    ),
    part(
        MemoryModule,
        id="ddr5-64g-rdimm",
        memory_type="DDR5",
        capacity_gib=64,
        speed_mts=4800,
        ecc=True,
        registered=True,
        power_w=8,
        price_cny=3_000,
    ),
    part(
        Storage,
        id="nvme-m2-1tb",
        storage_kind="nvme",
        capacity_gb=1000,
        interface="PCIe 4.0 x4",
        form="M.2 2280",
        pcie_lanes=4,
        power_w=8,
        price_cny=600,
    ),
    part(
        Storage,
        id="nvme-u2-4tb",
        storage_kind="nvme",
        capacity_gb=3840,
        interface="PCIe 4.0 x4",
        form="U.2",
        pcie_lanes=4,
        power_w=15,
        price_cny=4_000,
    ),
    part(
        Storage,
        id="hdd-20tb",
        storage_kind="hdd",
        capacity_gb=20_000,
        interface="SATA",
        form="3.5in",
        power_w=10,
        price_cny=3_000,
    ),
    part(
        Nic,
        id="nic-25g",
        speed_gbps=25,
        ports=2,
        fabric="ethernet",
        pcie_gen=4,
        pcie_lanes=8,
        power_w=15,
        price_cny=2_000,
    ),
    part(
        Nic,
        id="cx7-400g",
        speed_gbps=400,
        ports=1,
        fabric="infiniband",
        pcie_gen=5,
        pcie_lanes=16,
        power_w=25,
        price_cny=15_000,
    ),
    part(
        Psu,
        id="atx-1600",
        form="atx",
        rated_w_high_line=1600,
        rated_w_low_line=1600,
        efficiency="80 PLUS Titanium",
        price_cny=3_000,
    ),
    part(
        Psu,
        id="sm-2000-ti",
        form="server",
        rated_w_high_line=1800,
        rated_w_low_line=1000,
        efficiency="80 PLUS Titanium",
        price_cny=2_500,
    ),
    part(Psu, id="ti-2400-hl", form="server", rated_w_high_line=2400, low_line="unsupported",
         efficiency="80 PLUS Titanium"),
    part(Psu, id="sm-3000-ti", form="server", rated_w_high_line=3000, low_line="unknown",
         efficiency="80 PLUS Titanium"),
    part(
        Chassis,
        id="tower-ws",
        form="tower",
        cpu_socket="LGA1700",
        cpu_sockets=1,
        gpu_form_factor="pcie",
        gpu_slots=4,
        max_gpu_slot_width=3,
        max_gpu_tdp_w=450,
        passive_gpu_ready=False,
        cooling="air",
        psu_bays=2,
        psu_form="atx",
        drive_bays=4,
        m2_slots=3,
        dimm_slots=4,
        memory_type="DDR5",
        price_cny=5_000,
    ),
    part(
        Chassis,
        id="rack-4u-8gpu",
        form="rack",
        rack_units=4,
        cpu_socket="SP3",
        cpu_sockets=2,
        gpu_form_factor="pcie",
        gpu_slots=8,
        max_gpu_slot_width=2,
        max_gpu_tdp_w=350,
        passive_gpu_ready=True,
        cooling="air",
        airflow_cfm=1000,
        fan_redundancy=True,
        psu_bays=4,
        psu_form="server",
        drive_bays=8,
        m2_slots=2,
        dimm_slots=32,
        memory_type="DDR4",
        price_cny=40_000,
    ),
    part(
        Chassis,
        id="hgx-h100-8",
        form="rack",
        rack_units=8,
        cpu_socket="LGA4677",
        cpu_sockets=2,
        gpu_form_factor="sxm",
        gpu_slots=8,
        max_gpu_slot_width=1,
        max_gpu_tdp_w=700,
        passive_gpu_ready=True,
        cooling="air",
        airflow_cfm=2000,
        fan_redundancy=True,
        psu_bays=6,
        psu_included="sm-3000-ti",
        psu_included_count=6,
        psu_form="server",
        drive_bays=8,
        m2_slots=2,
        pcie_switch_lanes=128,
        dimm_slots=32,
        memory_type="DDR5",
        gpus_supported=["h100-sxm5-80gb"],
    ),
    part(OperatingSystem, id="ubuntu-22.04", family="ubuntu", version="22.04"),
    part(
        OperatingSystem,
        id="ubuntu-20.04",
        family="ubuntu",
        version="20.04",
        driver_supported=False,
        max_cuda="12.9",
    ),
    part(DriverBranch, id="driver-525", branch="R525", version="525.60.13"),
    part(DriverBranch, id="driver-535", branch="R535", version="535.54.03"),
    part(
        DriverBranch, id="driver-535-dc", branch="R535 data centre", version="535.54.03", datacenter_only=True
    ),
    part(DriverBranch, id="driver-580", branch="R580", version="580.65.06"),
    part(
        CudaRelease, id="cuda-11.8", version="11.8", min_driver_linux="520.61.05", min_cc="3.5", max_cc="9.0"
    ),
    part(
        CudaRelease, id="cuda-12.1", version="12.1", min_driver_linux="530.30.02", min_cc="5.0", max_cc="9.0"
    ),
    part(
        CudaRelease, id="cuda-12.2", version="12.2", min_driver_linux="535.54.03", min_cc="5.0", max_cc="9.0"
    ),
    part(
        CudaRelease, id="cuda-12.4", version="12.4", min_driver_linux="550.54.14", min_cc="5.0", max_cc="9.0"
    ),
    part(CudaRelease, id="cuda-12.8", version="12.8", min_driver_linux="570.26", min_cc="5.0", max_cc="12.0"),
    part(
        CudaRelease, id="cuda-13.0", version="13.0", min_driver_linux="580.65.06", min_cc="7.5", max_cc="12.0"
    ),
    part(
        Framework,
        id="pytorch-2.1",
        framework="pytorch",
        version="2.1",
        cuda_versions=["11.8", "12.1"],
        python="3.8-3.11",
    ),
    part(
        ContainerImage,
        id="ngc-pytorch-24.05",
        reference="nvcr.io/nvidia/pytorch:24.05-py3",
        publisher="NVIDIA",
        trusted=True,
        cuda="12.4",
        min_driver_linux="545.23.06",
    ),
    part(
        ContainerImage,
        id="ngc-pytorch-23.07",
        reference="nvcr.io/nvidia/pytorch:23.07-py3",
        publisher="NVIDIA",
        trusted=True,
        cuda="12.1",
    ),
]


def make_catalog(*extra: Part) -> Catalog:
    cat = Catalog()
    for part in (*PARTS, *extra):
        cat.parts[part.kind][part.id] = part
    return cat


CAT = make_catalog()


def plan_of(**sections: Any) -> Plan:
    """A Plan from nested dicts, e.g. plan_of(gpu={'model': 'rtx-4090', 'count': 4})."""
    return Plan.model_validate(sections)


def workstation_4090(**server: Any) -> Plan:
    """The issue's worked example: 4 × RTX 4090 + i9-13900K on one 1600 W PSU (tower, office)."""
    srv: dict[str, Any] = {
        "chassis": "tower-ws",
        "cpu": "i9-13900k",
        "memory": {"part": "ddr5-32g-udimm", "count": 2},
        "psu": {"part": "atx-1600", "count": 1},
    }
    srv.update(server)
    return plan_of(
        requirements={"workload": "inference", "deployment": "office"},
        gpu={"model": "rtx-4090", "count": 4},
        server=srv,
    )


def hgx_node(**over: Any) -> Plan:
    data: dict[str, Any] = {
        "requirements": {
            "workload": "training",
            "nodes": 8,
            "model_params_b": 70,
            "deployment": "datacenter",
        },
        "gpu": {"model": "h100-sxm5-80gb", "count": 8},
        "server": {
            "chassis": "hgx-h100-8",
            "cpu": "xeon-8480p",
            "cpu_count": 2,
            "memory": {"part": "ddr5-64g-rdimm", "count": 32},
            "storage": [
                {"role": "system", "part": "nvme-m2-1tb", "count": 1},
                {"role": "data", "part": "nvme-u2-4tb", "count": 4},
            ],
            "nics": [{"part": "cx7-400g", "count": 4}],
        },
        "software": {"os": "ubuntu-22.04", "driver": "driver-535", "cuda": "cuda-12.2"},
    }
    for k, v in over.items():
        data[k] = {**data.get(k, {}), **v}
    return Plan.model_validate(data)


def ids(findings: list[Finding]) -> set[str]:
    return {f.rule for f in findings}


def one(findings: list[Finding], rule: str) -> Finding:
    found = [f for f in findings if f.rule == rule]
    assert len(found) == 1, f"{rule}: {[f.rule for f in findings]}"
    return found[0]


def test_fixture_catalog_is_consistent() -> None:
    """Every id the fixture plans use exists in the fixture catalog."""
    from procurement.plan import unknown_references

    assert unknown_references(workstation_4090(), CAT) == []
    assert unknown_references(hgx_node(), CAT) == []
    assert len(CAT) == len(PARTS)

"""Balance rules on fixture parts: cores and RAM per GPU, ECC, NVMe data, fabric, memory population."""

from __future__ import annotations

import re

from procurement.findings import Severity
from procurement.policy import default_policy
from procurement.rules import balance, evaluate_family
from tests.procurement.rules.test_rules_parts import CAT, hgx_node, ids, one, plan_of, workstation_4090

POLICY = default_policy()


def run(plan):  # type: ignore[no-untyped-def]
    return evaluate_family(balance, plan, CAT, POLICY, "en")


def test_cpu_cores_per_gpu() -> None:
    # Ryzen 9 7950X: 16 cores; 10 GPUs need 2 × 10 = 20, 8 GPUs need 16
    ten = plan_of(gpu={"model": "l40s", "count": 10}, server={"cpu": "ryzen-7950x"})
    f = one(run(ten), "BALANCE-CPU-CORES")
    assert (
        f.severity == Severity.WARNING
        and "16 CPU cores for 10 GPUs" in f.message
        and "at least 20" in f.message
    )
    eight = plan_of(gpu={"model": "l40s", "count": 8}, server={"cpu": "ryzen-7950x"})
    assert "BALANCE-CPU-CORES" not in ids(run(eight))


def test_ram_twice_the_vram() -> None:
    # 4 × 24 GiB = 96 GiB of VRAM → 192 GiB advised; 2 × 32 GiB = 64 GiB
    f = one(run(workstation_4090()), "BALANCE-RAM")
    assert "64 GiB" in f.message and "192 GiB" in f.message
    two = plan_of(
        gpu={"model": "rtx-4090", "count": 2}, server={"memory": {"part": "ddr5-32g-udimm", "count": 4}}
    )
    assert "BALANCE-RAM" not in ids(run(two))  # 128 GiB ≥ 2 × 48 GiB


def test_ecc_for_training() -> None:
    plan = workstation_4090().model_copy(update={"requirements": hgx_node().requirements})
    f = one(run(plan), "BALANCE-ECC")
    assert "ddr5-32g-udimm" in f.message and "i9-13900k" in f.message
    assert "BALANCE-ECC" not in ids(run(workstation_4090()))  # inference
    assert "BALANCE-ECC" not in ids(run(hgx_node()))


def test_nvme_for_data_and_capacity() -> None:
    plan = hgx_node(
        requirements={"dataset_gb": 20_000},
        server={
            "storage": [
                {"role": "system", "part": "nvme-m2-1tb", "count": 1},
                {"role": "data", "part": "hdd-20tb", "count": 1},
            ]
        },
    )
    assert one(run(plan), "BALANCE-NVME-DATA").severity == Severity.WARNING
    # 4 × 3840 GB = 15,360 GB of NVMe data drives < 20,000 GB
    small = hgx_node(requirements={"dataset_gb": 20_000})
    assert "15360 GB" in one(run(small), "BALANCE-DATA-CAPACITY").message
    assert not ids(run(hgx_node(requirements={"dataset_gb": 15_000}))) & {
        "BALANCE-NVME-DATA",
        "BALANCE-DATA-CAPACITY",
    }


def test_multi_node_training_needs_a_fabric() -> None:
    plan = hgx_node(server={"nics": [{"part": "nic-25g", "count": 1}]})
    f = one(run(plan), "BALANCE-FABRIC")
    assert f.severity == Severity.ERROR and "8 nodes" in f.message and "25 Gb/s" in f.message
    assert "BALANCE-FABRIC" not in ids(run(hgx_node()))


def test_single_node_nic() -> None:
    plan = plan_of(requirements={"deployment": "datacenter"}, gpu={"model": "l40s", "count": 1})
    assert one(run(plan), "BALANCE-NIC").severity == Severity.INFO
    with_nic = plan_of(
        requirements={"deployment": "datacenter"},
        gpu={"model": "l40s", "count": 1},
        server={"nics": [{"part": "nic-25g", "count": 1}]},
    )
    assert "BALANCE-NIC" not in ids(run(with_nic))


def test_memory_type_slots_and_channels() -> None:
    wrong = hgx_node(server={"memory": {"part": "ddr4-64g-rdimm", "count": 32}})
    assert "DDR4" in one(run(wrong), "BALANCE-MEMORY-TYPE").message
    too_many = hgx_node(server={"memory": {"part": "ddr5-64g-rdimm", "count": 40}})
    assert "40 DIMMs" in one(run(too_many), "BALANCE-DIMM-SLOTS").message
    # 2 sockets × 8 channels = 16: 12 DIMMs is uneven, 32 is even
    uneven = hgx_node(server={"memory": {"part": "ddr5-64g-rdimm", "count": 12}})
    assert one(run(uneven), "BALANCE-MEMORY-CHANNELS").severity == Severity.INFO
    assert not ids(run(hgx_node())) & {"BALANCE-MEMORY-TYPE", "BALANCE-DIMM-SLOTS", "BALANCE-MEMORY-CHANNELS"}


def test_single_thread_hint() -> None:
    plan = workstation_4090().model_copy(update={"requirements": hgx_node().requirements})
    f = one(run(plan), "BALANCE-SINGLE-THREAD")
    assert "5.8 GHz" in f.message and "6 GHz" in f.message and "i9-14900k" in f.message
    assert "BALANCE-SINGLE-THREAD" not in ids(run(hgx_node()))  # no faster LGA4677 part in the fixtures


def test_single_thread_skips_oem_only_parts_and_conflicting_clocks() -> None:
    from catalog.models import Cpu
    from tests.procurement.rules.test_rules_parts import make_catalog, part

    def lga1700(pid: str, boost: float, **kw: object) -> Cpu:
        return part(Cpu, id=pid, segment="consumer", socket="LGA1700", cores=24, boost_ghz=boost, tdp_w=125,
                    pcie_gen=5, memory_channels=2, memory_type="DDR5", ecc=False, **kw)

    plan = workstation_4090().model_copy(update={"requirements": hgx_node().requirements})
    # i9-13900k boosts to 5.8 GHz; an OEM-only 6.5 GHz part and a 6.4 GHz value the sources disagree on are
    # not suggested, the i9-14900k's 6.0 GHz is
    cat = make_catalog(lga1700("oem-6.5", 6.5, oem_only=True), lga1700("disputed-6.4", 6.4, conflicting=["boost_ghz"]))
    f = one(evaluate_family(balance, plan, cat, POLICY, "en"), "BALANCE-SINGLE-THREAD")
    assert "i9-14900k" in f.message and "6 GHz" in f.message and "oem" not in f.message
    # the chosen CPU's own boost clock in dispute: no comparison at all
    disputed = make_catalog(lga1700("i9-13900k", 5.8, conflicting=["boost_ghz"]))
    assert "BALANCE-SINGLE-THREAD" not in ids(evaluate_family(balance, plan, disputed, POLICY, "en"))


def test_real_catalog_does_not_suggest_the_dgx_only_8480c(catalog) -> None:  # type: ignore[no-untyped-def]
    # the Xeon 8480+ (3.8 GHz boost per Intel, no longer the seed file's 3.4) next to the DGX's 8480C (3.8 GHz)
    assert catalog.get("cpu", "xeon-platinum-8480c").oem_only
    assert catalog.get("cpu", "xeon-platinum-8480plus").boost_ghz == 3.8
    assert not catalog.get("cpu", "xeon-platinum-8480plus").conflicting
    plan = hgx_node(server={"cpu": "xeon-platinum-8480plus"})
    # the retail Xeon Platinum 8570 (56 cores, 4.0 GHz, Intel ARK) on the same socket is a fair suggestion
    found = [f for f in evaluate_family(balance, plan, catalog, POLICY, "en") if f.rule == "BALANCE-SINGLE-THREAD"]
    assert [dict(f.params)["other"] for f in found] == ["Intel Xeon Platinum 8570"]


def test_unset_parts_are_not_chosen_yet_not_zero() -> None:
    from procurement.rules import evaluate

    # GPU-first plan: 8 × H100 SXM (80 GiB) over 2 nodes of training, a 500 GB dataset, nothing else chosen
    gpu_only = plan_of(requirements={"workload": "training", "nodes": 2, "dataset_gb": 500,
                                     "deployment": "datacenter"},
                       gpu={"model": "h100-sxm5-80gb", "count": 8})
    found = {f.rule: f for f in evaluate(gpu_only, CAT, POLICY, "en")}
    ram = found["BALANCE-RAM"]  # 2 × 8 × 80 = 1280 GiB advised
    assert ram.severity == Severity.INFO and ram.message.startswith("No system memory chosen yet")
    assert "1280 GiB" in ram.message
    fab = found["BALANCE-FABRIC"]
    assert fab.severity == Severity.INFO and fab.message.startswith("No NIC chosen yet")
    assert found["BALANCE-DATA-CAPACITY"].message == "No data drives chosen yet for the 500 GB dataset."
    psu = found["POWER-PSU-MISSING"]
    assert psu.severity == Severity.INFO and psu.message == "No power supply chosen yet (nor a chassis)."
    assert not any(re.search(r"(?<![\d,.])0 (GiB|Gb/s|GB)", f.message) for f in found.values())
    # once a chassis is chosen the server is being configured: missing memory and fabric count again
    started = gpu_only.model_copy(update={"server": gpu_only.server.model_copy(update={"chassis": "hgx-h100-8"})})
    again = {f.rule: f for f in evaluate(started, CAT, POLICY, "en")}
    assert again["BALANCE-RAM"].severity == Severity.WARNING
    assert again["BALANCE-FABRIC"].severity == Severity.ERROR
    zh = {f.rule: f for f in evaluate(gpu_only, CAT, POLICY, "zh")}
    assert zh["BALANCE-RAM"].message.startswith("尚未选择系统内存")

"""Software rules on fixture parts: driver vs CUDA, architecture, image, OS, framework, MIG/NVLink."""

from __future__ import annotations

from procurement.findings import Severity
from procurement.policy import default_policy
from procurement.rules import evaluate_family, software
from tests.procurement.rules.test_rules_parts import CAT, ids, one, plan_of

POLICY = default_policy()


def run(plan):  # type: ignore[no-untyped-def]
    return evaluate_family(software, plan, CAT, POLICY, "en")


def sw(gpu: str = "a100-40gb-pcie", **software: str):  # type: ignore[no-untyped-def]
    return plan_of(gpu={"model": gpu, "count": 1}, software=software)


def test_driver_below_cuda_minimum() -> None:
    # CUDA 12.1 needs ≥ 530.30.02 (release notes Table 3); 525.60.13 is older
    f = one(run(sw(driver="driver-525", cuda="cuda-12.1")), "SW-DRIVER-CUDA")
    assert f.severity == Severity.ERROR and f.step == 4 and "530.30.02" in f.message
    assert "SW-DRIVER-CUDA" not in ids(run(sw(driver="driver-535", cuda="cuda-12.1")))


def test_cuda_and_architecture() -> None:
    # RTX 5090 is CC 12.0; CUDA 12.1 compiles up to 9.0, CUDA 12.8 up to 12.0
    assert "12.0" in one(run(sw("rtx-5090", cuda="cuda-12.1")), "SW-CUDA-ARCH-NEW").message
    assert not ids(run(sw("rtx-5090", cuda="cuda-12.8"))) & {"SW-CUDA-ARCH-NEW", "SW-CUDA-ARCH-OLD"}
    # P100 is CC 6.0; CUDA 13.0 starts at 7.5
    assert "7.5" in one(run(sw("p100-pcie-16gb", cuda="cuda-13.0")), "SW-CUDA-ARCH-OLD").message
    # the image's CUDA is checked too
    assert "SW-CUDA-ARCH-NEW" in ids(run(sw("rtx-5090", cuda="cuda-12.8", image="ngc-pytorch-24.05")))


def test_image_needs_a_newer_driver() -> None:
    f = one(run(sw(driver="driver-535", image="ngc-pytorch-24.05")), "SW-IMAGE-DRIVER")
    assert "545.23.06" in f.message and "535.54.03" in f.message
    assert "SW-IMAGE-DRIVER" not in ids(run(sw(driver="driver-580", image="ngc-pytorch-24.05")))
    # no explicit minimum: derived from the image's CUDA 12.1 (≥ 530.30.02)
    assert (
        "530.30.02" in one(run(sw(driver="driver-525", image="ngc-pytorch-23.07")), "SW-IMAGE-DRIVER").message
    )


def test_image_cuda_differs_from_chosen_cuda() -> None:
    f = one(run(sw(driver="driver-580", cuda="cuda-12.2", image="ngc-pytorch-24.05")), "SW-IMAGE-CUDA")
    assert f.severity == Severity.INFO
    assert "SW-IMAGE-CUDA" not in ids(
        run(sw(driver="driver-580", cuda="cuda-12.4", image="ngc-pytorch-24.05"))
    )


def test_os_support() -> None:
    assert one(run(sw(os="ubuntu-20.04", driver="driver-535")), "SW-OS-DRIVER").severity == Severity.WARNING
    assert "12.9" in one(run(sw(os="ubuntu-20.04", cuda="cuda-13.0")), "SW-OS-CUDA").message
    assert not ids(run(sw(os="ubuntu-22.04", cuda="cuda-13.0"))) & {"SW-OS-DRIVER", "SW-OS-CUDA"}


def test_framework_build_for_cuda() -> None:
    f = one(run(sw(framework="pytorch-2.1", cuda="cuda-12.2")), "SW-FRAMEWORK-CUDA")
    assert "11.8, 12.1" in f.message
    assert "SW-FRAMEWORK-CUDA" not in ids(run(sw(framework="pytorch-2.1", cuda="cuda-12.1")))


def test_mig_and_nvlink_on_gpus_without_them() -> None:
    plan = plan_of(
        requirements={"needs_mig": True, "needs_nvlink": True}, gpu={"model": "rtx-4090", "count": 1}
    )
    assert {"SW-MIG", "SW-NVLINK"} <= ids(run(plan))
    ok = plan_of(
        requirements={"needs_mig": True, "needs_nvlink": True}, gpu={"model": "a100-40gb-pcie", "count": 1}
    )
    assert not ids(run(ok)) & {"SW-MIG", "SW-NVLINK"}


def test_mig_unknown_is_an_info_not_an_error() -> None:
    from catalog.models import Gpu
    from tests.procurement.rules.test_rules_parts import make_catalog

    a100 = CAT.get("gpu", "a100-40gb-pcie")
    assert isinstance(a100, Gpu)
    cat = make_catalog(a100.model_copy(update={"id": "a800-like", "mig_max": None}))
    plan = plan_of(requirements={"needs_mig": True}, gpu={"model": "a800-like", "count": 1})
    found = evaluate_family(software, plan, cat, POLICY, "en")
    f = one(found, "SW-MIG-UNKNOWN")
    assert f.severity == Severity.INFO and "SW-MIG" not in ids(found)


def test_datacenter_driver_with_geforce() -> None:
    assert "SW-DRIVER-DATACENTER" in ids(run(sw("rtx-4090", driver="driver-535-dc")))
    assert "SW-DRIVER-DATACENTER" not in ids(run(sw("a100-40gb-pcie", driver="driver-535-dc")))


def test_incomplete_software() -> None:
    assert one(run(sw()), "SW-INCOMPLETE").fields == ("software.driver", "software.cuda")
    assert "SW-INCOMPLETE" not in ids(run(sw(driver="driver-535", cuda="cuda-12.2")))


def test_blackwell_on_r535_cuda_12_1_pytorch_2_1_names_the_versions_it_needs(catalog) -> None:  # type: ignore[no-untyped-def]
    # Real catalog: RTX 5090 is compute capability 12.0 (Blackwell). docs/sources.md §C2: the first CUDA for 12.0 is
    # 12.8; C1: CUDA 12.8 GA needs Linux driver ≥ 570.26; C3: PyTorch 2.7 is the first with CUDA 12.8 wheels.
    from procurement.rules.software import first_cuda_for, first_framework_for

    gpu, fw = catalog.get("gpu", "rtx-5090"), catalog.get("framework", "pytorch-2.1")
    assert first_cuda_for(gpu, catalog).version == "12.8"
    assert first_framework_for(fw, gpu, catalog).version == "2.7"
    plan = plan_of(gpu={"model": "rtx-5090", "count": 1},
                   software={"driver": "r535", "cuda": "cuda-12.1", "framework": "pytorch-2.1"})
    found = evaluate_family(software, plan, catalog, POLICY, "en")
    want = "CUDA ≥ 12.8, driver ≥ 570.26, PyTorch ≥ 2.7"
    drv = one(found, "SW-DRIVER-ARCH")  # 535.104.05 < 570.26
    assert drv.severity == Severity.ERROR and "535.104.05" in drv.message and "570.26" in drv.message
    assert want in drv.fix
    fwf = one(found, "SW-FRAMEWORK-ARCH")  # PyTorch 2.1 builds: CUDA 11.8 and 12.1, both up to CC 9.0
    assert fwf.severity == Severity.ERROR and "(11.8, 12.1)" in fwf.message and want in fwf.fix
    assert want in one(found, "SW-CUDA-ARCH-NEW").fix
    zh = evaluate_family(software, plan, catalog, POLICY, "zh")
    assert "CUDA ≥ 12.8、驱动 ≥ 570.26、PyTorch ≥ 2.7" in one(zh, "SW-DRIVER-ARCH").fix
    # R570 + CUDA 12.8 + PyTorch 2.7: none of the three
    ok = plan_of(gpu={"model": "rtx-5090", "count": 1},
                 software={"driver": "r570", "cuda": "cuda-12.8", "framework": "pytorch-2.7"})
    assert not ids(evaluate_family(software, ok, catalog, POLICY, "en")) & {
        "SW-DRIVER-ARCH", "SW-FRAMEWORK-ARCH", "SW-CUDA-ARCH-NEW"}
    # an Ada card (CC 8.9, first CUDA 11.8 → driver ≥ 520.61.05) on R535 with PyTorch 2.1 is fine
    ada = plan_of(gpu={"model": "rtx-4090", "count": 1}, software={"driver": "r535", "framework": "pytorch-2.1"})
    assert not ids(evaluate_family(software, ada, catalog, POLICY, "en")) & {"SW-DRIVER-ARCH", "SW-FRAMEWORK-ARCH"}

"""procurement/verify by stage: every module imports on its own, no import cycle inside the package, and each
check declares its checklist item once (the checklist reads the map from the registry)."""

from __future__ import annotations

import pkgutil
import subprocess
import sys
from pathlib import Path

import procurement.verify
from procurement import checklist
from procurement.checklist_items import ITEM_IDS
from procurement.verify.checks import CHECKS

REPO = Path(__file__).resolve().parents[3]


def _modules() -> list[str]:
    return sorted(
        m.name for m in pkgutil.walk_packages(procurement.verify.__path__, "procurement.verify.")
    )


def test_every_verify_module_imports_alone_in_a_fresh_interpreter() -> None:
    """One interpreter per module: a cycle that only bites when a module is the first one imported shows."""
    for name in _modules():
        run = subprocess.run([sys.executable, "-c", f"import {name}"], cwd=REPO, capture_output=True, text=True)
        assert run.returncode == 0, f"{name}: {run.stderr[-2000:]}"


def test_no_import_cycle_inside_procurement_verify() -> None:
    import grimp

    graph = grimp.build_graph("procurement", "catalog")
    modules = [m for m in graph.modules if m == "procurement.verify" or m.startswith("procurement.verify.")]
    cycles = []
    for a in modules:
        for b in graph.find_modules_directly_imported_by(a):
            if b.startswith("procurement.verify.") and b != a and graph.chain_exists(b, a):
                cycles.append((a, b))
    assert cycles == []


# The map the checklist held as its own table until the checks declared their items (issue 25): unchanged.
_ITEMS_BEFORE = {
    "GPU-MODEL": "gpu_model_count", "GPU-COUNT": "gpu_model_count", "GPU-VISIBLE": "gpu_model_count",
    "PCIE-WIDTH": "gpu_model_count", "PCIE-GEN": "gpu_model_count", "MIG": "gpu_model_count",
    "NVLINK": "gpu_model_count", "BENCHMARK": "gpu_model_count", "GPU-MEMORY": "gpu_vram", "ECC": "gpu_vram",
    "ECC-ERRORS": "gpu_vram", "MEMORY-RETIRED": "gpu_vram", "CPU-CORES": "cpu_cores", "CPU-MODEL": "cpu_cores",
    "RAM": "ram", "NVME": "storage_nvme", "NET-SPEED": "network", "POWER-LIMIT": "psu_power", "OS": "os_driver",
    "DRIVER-BRANCH": "os_driver", "PERSISTENCE": "os_driver", "DRIVER-MIN": "cuda_gpu",
    "CUDA-VERSION": "cuda_gpu", "CUDA-TOOLKIT": "cuda_gpu", "FRAMEWORK": "framework_installed",
    "IMAGE": "preinstalled_software", "CONTAINER-RUNTIME": "preinstalled_software",
}


def test_the_checklist_reads_each_checks_item_from_the_registry() -> None:
    assert checklist.verify_check_items() == _ITEMS_BEFORE
    for spec in CHECKS.values():
        assert spec.item is None or spec.item in ITEM_IDS, spec.id
        if spec.item is not None:
            assert checklist.item_for_check(spec.id) == spec.item


def test_every_check_is_declared_once_with_its_family() -> None:
    assert {spec.family for spec in CHECKS.values()} == {"gpu", "health", "host", "network", "software", "load"}
    assert all(spec.fn.__module__.startswith("procurement.verify.checks.") for spec in CHECKS.values())

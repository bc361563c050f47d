"""The three reference configurations as plan files: they load, round-trip, and match the reference."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from catalog.loader import Catalog
from catalog.models import Chassis, Cpu, Gpu, MemoryModule, Nic, Storage
from procurement.plan import (
    PLAN_FILE_END,
    PLAN_FILE_START,
    SCHEMA_VERSION,
    Plan,
    PlanError,
    dump_plan,
    load_plan,
    save_plan,
    unknown_references,
)
from tests.conftest import EXAMPLES, unprivileged

NAMES = ["mid-size-training", "personal-research", "llm-cluster-node", "dl-training-platform",
         "realtime-inference-cluster"]
UNKNOWN_DATA = {"COOLING-AIRFLOW-UNKNOWN", "COOLING-FAN-REDUNDANCY-UNKNOWN", "PCIE-DRIVE-BAYS-UNKNOWN"}
"""Warnings that say a chassis figure is not in the catalog's sources (the notes need not explain them)."""


def _example(name: str) -> Path:
    return EXAMPLES / f"{name}.gpuplan.yaml"


@pytest.mark.parametrize("name", NAMES)
def test_example_loads_and_is_canonical(name: str, catalog: Catalog, tmp_path: Path) -> None:
    path = _example(name)
    plan = load_plan(path, catalog)
    assert unknown_references(plan, catalog) == []
    assert dump_plan(plan) == path.read_text(encoding="utf-8")
    # save -> load -> save is byte-identical
    first = tmp_path / "a.gpuplan.yaml"
    second = tmp_path / "b.gpuplan.yaml"
    save_plan(plan, first)
    save_plan(load_plan(first, catalog), second)
    assert first.read_bytes() == second.read_bytes()
    # the example is the saved file's YAML, without the file's start and end lines (procurement.plan)
    assert first.read_text(encoding="utf-8") == PLAN_FILE_START + path.read_text(encoding="utf-8") + PLAN_FILE_END


def _parts(plan: Plan, catalog: Catalog) -> tuple[Gpu, Chassis, Cpu, MemoryModule]:
    gpu = catalog.typed(Gpu, plan.gpu.model)
    chassis = catalog.typed(Chassis, plan.server.chassis)
    cpu = catalog.typed(Cpu, plan.server.cpu)
    assert plan.server.memory is not None
    mem = catalog.typed(MemoryModule, plan.server.memory.part)
    assert gpu and chassis and cpu and mem
    return gpu, chassis, cpu, mem


@pytest.mark.parametrize("name", NAMES)
def test_example_hardware_fits_together(name: str, catalog: Catalog) -> None:
    plan = load_plan(_example(name), catalog)
    gpu, chassis, cpu, mem = _parts(plan, catalog)
    assert plan.server.memory is not None
    assert gpu.form_factor is chassis.gpu_form_factor
    assert plan.gpu.count <= chassis.gpu_slots
    if chassis.gpus_supported:
        assert gpu.id in chassis.gpus_supported
    assert cpu.socket == chassis.cpu_socket and plan.server.cpu_count <= chassis.cpu_sockets
    # the DIMM generation must be what both the board and the CPU take
    assert mem.memory_type == chassis.memory_type
    assert mem.memory_type in cpu.memory_type
    if chassis.dimm_slots is not None:
        assert plan.server.memory.count <= chassis.dimm_slots
    # registered ECC DIMMs in the rack servers, unbuffered ones in the tower
    assert mem.registered == (chassis.form == "rack") == mem.ecc
    # one DIMM per channel on every populated socket
    assert plan.server.memory.count % (cpu.memory_channels * plan.server.cpu_count) == 0


def test_mid_size_training_server_matches_the_reference(catalog: Catalog) -> None:
    plan = load_plan(_example("mid-size-training"), catalog)
    gpu, chassis, cpu, mem = _parts(plan, catalog)
    assert (gpu.name, plan.gpu.count) == ("NVIDIA A100 40GB PCIe", 4)
    assert cpu.name == "AMD EPYC 7543" and chassis.passive_gpu_ready and chassis.form == "rack"
    assert plan.server.memory is not None
    assert plan.server.memory.count * mem.capacity_gib == 512 and mem.memory_type == "DDR4" and mem.ecc
    storage = {s.role.value: (catalog.typed(Storage, s.part), s.count) for s in plan.server.storage}
    system, data, backup = storage["system"], storage["data"], storage["backup"]
    # 500 GB NVMe system disk: the smallest data-centre U.2 NVMe, since the front bays are 2.5 inch
    assert system[0] and system[0].storage_kind.value == "nvme" and system[0].capacity_gb >= 500
    assert system[0].form.startswith("U.2")
    assert data[0] and data[0].storage_kind.value == "nvme" and data[0].capacity_gb == 3840  # the 4 TB class
    assert backup[0] and backup[0].storage_kind.value == "hdd" and backup[0].capacity_gb * backup[1] == 20000
    (nic,) = plan.server.nics
    assert catalog.typed(Nic, nic.part).speed_gbps == 25  # type: ignore[union-attr]
    sw = plan.software
    assert (sw.os, sw.cuda, sw.framework, sw.image) == (
        "ubuntu-22.04", "cuda-12.1", "pytorch-2.1", "ngc-pytorch-23.05")
    assert catalog.get("image", sw.image).reference == "nvcr.io/nvidia/pytorch:23.05-py3"  # type: ignore[union-attr]
    assert plan.requirements.nodes == 1 and plan.quote.buyer.name and plan.quote.vendor.name and plan.title


def test_personal_research_server_matches_the_reference(catalog: Catalog) -> None:
    plan = load_plan(_example("personal-research"), catalog)
    gpu, chassis, cpu, mem = _parts(plan, catalog)
    assert (gpu.id, plan.gpu.count, cpu.id, chassis.form) == ("rtx-4090", 1, "core-i9-13900k", "tower")
    assert plan.server.memory is not None
    assert plan.server.memory.count * mem.capacity_gib == 64 and mem.memory_type == "DDR5"
    sizes = sorted(catalog.typed(Storage, s.part).capacity_gb for s in plan.server.storage)  # type: ignore[union-attr]
    assert sizes == [1000, 2000]
    assert (plan.software.os, plan.software.cuda) == ("ubuntu-22.04", "cuda-12.1")


def test_llm_cluster_node_matches_the_reference(catalog: Catalog) -> None:
    plan = load_plan(_example("llm-cluster-node"), catalog)
    gpu, chassis, cpu, mem = _parts(plan, catalog)
    assert (gpu.id, plan.gpu.count, cpu.name) == ("h100-sxm5-80gb", 8, "Intel Xeon Platinum 8480+")
    assert chassis.gpu_form_factor.value == "sxm"
    assert plan.server.memory is not None
    assert plan.server.memory.count * mem.capacity_gib == 2048 and mem.memory_type == "DDR5" and mem.ecc
    nics = [catalog.typed(Nic, n.part) for n in plan.server.nics]
    assert all(n is not None and n.fabric == "infiniband" and n.speed_gbps == 400 for n in nics)
    assert plan.software.cuda == "cuda-12.2" and plan.requirements.nodes == 8


# ---------------------------------------------------------------- errors a user sees

def _write_variant(tmp_path: Path, old: str, new: str) -> tuple[Path, int]:
    text = _example("mid-size-training").read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    text = text.replace(old, new)
    path = tmp_path / "broken.gpuplan.yaml"
    path.write_text(text, encoding="utf-8")
    return path, text.splitlines().index(new.rstrip("\n").splitlines()[-1]) + 1


def test_deep_learning_training_platform_matches_the_reference(catalog: Catalog) -> None:
    """4× A100 80GB, 2× EPYC 7B13, 1 TB DDR4, 8× 7.68 TB NVMe (the guide's training-platform configuration)."""
    from procurement.evaluation import evaluate

    plan = load_plan(_example("dl-training-platform"), catalog)
    gpu, _chassis, cpu, mem = _parts(plan, catalog)
    assert "A100 80GB" in gpu.name and plan.gpu.count == 4
    assert cpu.id == "epyc-7b13" and plan.server.cpu_count == 2
    assert plan.server.memory is not None
    assert plan.server.memory.count * mem.capacity_gib == 1024  # 1 TB (binary, as DIMMs are sold)
    drives = [(catalog.typed(Storage, s.part), s.count) for s in plan.server.storage]
    assert [(d.capacity_gb, n) for d, n in drives if d] == [(7680, 8)]
    ev = evaluate(plan, catalog, lang="en")
    rules = {f.rule for f in ev.findings}
    # every finding the notes explain is the one the rules raise, and no error is left unexplained
    assert not [f for f in ev.findings if f.severity.value == "error"]
    for rule_id in rules - UNKNOWN_DATA:
        assert rule_id in plan.notes, rule_id
    assert "Kubeflow" in plan.notes and "Kubernetes" in plan.notes


def test_real_time_inference_cluster_matches_the_reference(catalog: Catalog) -> None:
    """10 servers with T4 and Xeon Silver 4310T; TensorRT + Triton (the guide's inference-cluster configuration)."""
    from catalog.models import ContainerImage
    from procurement.evaluation import evaluate

    plan = load_plan(_example("realtime-inference-cluster"), catalog)
    gpu, _chassis, cpu, _mem = _parts(plan, catalog)
    assert gpu.id == "t4" and cpu.id == "xeon-silver-4310t" and plan.requirements.nodes == 10
    image = catalog.typed(ContainerImage, plan.software.image)
    assert image is not None and "tritonserver" in image.reference
    ev = evaluate(plan, catalog, lang="en")
    assert not [f for f in ev.findings if f.severity.value == "error"]
    for rule_id in {f.rule for f in ev.findings} - UNKNOWN_DATA:
        assert rule_id in plan.notes, rule_id
    # the PSU is left to the vendor on purpose (no citable R750xa PSU data): the plan says so and check does too
    assert plan.server.psu.part is None and "POWER-PSU-MISSING" in plan.notes


def test_a_broken_value_names_file_line_and_field(tmp_path: Path, catalog: Catalog) -> None:
    path, line = _write_variant(tmp_path, "  model: a100-pcie-40gb\n  count: 4\n",
                                "  model: a100-pcie-40gb\n  count: -4\n")
    with pytest.raises(PlanError) as err:
        load_plan(path, catalog)
    assert str(err.value) == f"{path}:{line}: gpu.count: Input should be greater than or equal to 0"


def test_a_wrong_type_in_a_list_names_the_item(tmp_path: Path) -> None:
    path, line = _write_variant(tmp_path, "  - role: backup\n", "  - role: archive\n")
    with pytest.raises(PlanError) as err:
        load_plan(path)
    assert str(err.value) == (f"{path}:{line}: server.storage[2].role: Input should be 'system', 'data', "
                              f"'backup' or 'scratch'")


def test_an_unknown_part_id_is_named_with_its_line(tmp_path: Path, catalog: Catalog) -> None:
    path, line = _write_variant(tmp_path, "  cpu: epyc-7543\n", "  cpu: epyc-7534\n")
    with pytest.raises(PlanError) as err:
        load_plan(path, catalog)
    assert str(err.value) == f"{path}:{line}: server.cpu: unknown cpu 'epyc-7534' (not in the catalog)"
    # without a catalog the file itself is valid
    assert load_plan(path).server.cpu == "epyc-7534"


def test_an_unknown_field_is_named(tmp_path: Path) -> None:
    path, line = _write_variant(tmp_path, "  cpu_count: 2\n", "  cpu_count: 2\n  cpu_sockets: 2\n")
    with pytest.raises(PlanError) as err:
        load_plan(path)
    assert str(err.value) == f"{path}:{line}: server.cpu_sockets: unknown field"


def test_a_future_schema_version_is_refused(tmp_path: Path) -> None:
    from procurement.migrations import CURRENT, FIRST

    path, line = _write_variant(tmp_path, f"schema_version: {CURRENT}\n", f"schema_version: {CURRENT + 1}\n")
    with pytest.raises(PlanError) as err:
        load_plan(path)
    reads = str(CURRENT) if FIRST == CURRENT else f"{FIRST}-{CURRENT}"
    assert str(err.value) == (f"{path}:{line}: schema_version: {CURRENT + 1} is not supported "
                              f"(this version reads {reads})")


# ---------------------------------------------------------------- atomic save

def test_a_failing_rename_leaves_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              catalog: Catalog) -> None:
    target = tmp_path / "plan.gpuplan.yaml"
    old = load_plan(_example("personal-research"), catalog)
    save_plan(old, target)
    before = target.read_bytes()

    def refuse(src: object, dst: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", refuse)
    new = load_plan(_example("llm-cluster-node"), catalog)
    with pytest.raises(OSError, match="No space left"):
        save_plan(new, target)
    assert target.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["plan.gpuplan.yaml"], "the temporary file is removed"


def test_a_read_only_directory_leaves_the_old_file(open_tmp: Path, catalog: Catalog) -> None:
    target = open_tmp / "plan.gpuplan.yaml"
    save_plan(load_plan(_example("personal-research"), catalog), target)
    before = target.read_bytes()
    new = load_plan(_example("mid-size-training"), catalog)
    open_tmp.chmod(0o555)
    try:
        with unprivileged(), pytest.raises(OSError, match="Permission denied") as raised:  # root: no permissions
            save_plan(new, target)
        assert raised.value.errno == errno.EACCES and raised.value.filename == str(target)
        assert target.read_bytes() == before
        assert [p.name for p in open_tmp.iterdir()] == ["plan.gpuplan.yaml"]
    finally:
        open_tmp.chmod(0o755)


def test_a_directory_refusing_new_files_leaves_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                            catalog: Catalog) -> None:
    # what a read-only directory does even to root-run tests: the temporary file cannot be created
    target = tmp_path / "plan.gpuplan.yaml"
    save_plan(load_plan(_example("personal-research"), catalog), target)
    before = target.read_bytes()
    real_open = os.open

    def refuse(path: str, flags: int, *args: object, **kwargs: object) -> int:
        if flags & os.O_CREAT:
            raise PermissionError(13, "Permission denied")
        return real_open(path, flags, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "open", refuse)
    with pytest.raises(OSError, match="Permission denied") as raised:
        save_plan(load_plan(_example("mid-size-training"), catalog), target)
    assert raised.value.filename == str(target), "the error names the plan, not a temporary file"
    assert target.read_bytes() == before


def test_a_failing_flush_to_disk_leaves_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                     catalog: Catalog) -> None:
    target = tmp_path / "plan.gpuplan.yaml"
    save_plan(load_plan(_example("personal-research"), catalog), target)
    before = target.read_bytes()

    def broken_fsync(fd: int) -> None:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, "fsync", broken_fsync)
    with pytest.raises(OSError, match="Input/output error"):
        save_plan(load_plan(_example("mid-size-training"), catalog), target)
    assert target.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["plan.gpuplan.yaml"]


def test_an_impossible_date_in_a_plan_is_located(tmp_path: Path) -> None:
    path, line = _write_variant(tmp_path, "signoffs: {}\n",
                                "signoffs:\n  hardware:\n    name: 张三\n    date: 2024-02-30\n"
                                "    digest: " + "0" * 64 + "\n")
    line -= 1  # the date is the line before the digest
    with pytest.raises(PlanError) as err:
        load_plan(path)
    assert str(err.value) == (f"{path}:{line}: not valid YAML: '2024-02-30' is not a valid date or time "
                              f"(day is out of range for month)")


def test_plan_errors_in_chinese_and_a_missing_schema_version(tmp_path: Path, catalog: Catalog) -> None:
    path, line = _write_variant(tmp_path, "  cpu: epyc-7543\n", "  cpu: epyc-7534\n")
    with pytest.raises(PlanError) as err:
        load_plan(path, catalog, "zh")
    assert str(err.value) == f"{path}:{line}: server.cpu: 未知 CPU 'epyc-7534'（目录中没有）"
    path, line = _write_variant(tmp_path, "  cpu_count: 2\n", "  cpu_count: 2\n  cpu_sockets: 2\n")
    with pytest.raises(PlanError) as err:
        load_plan(path, None, "zh")
    assert str(err.value) == f"{path}:{line}: server.cpu_sockets: 未知字段（拼写错误？）"
    path = tmp_path / "old.gpuplan.yaml"
    text = _example("mid-size-training").read_text(encoding="utf-8")
    path.write_text(text.replace(f"schema_version: {SCHEMA_VERSION}\n", ""), encoding="utf-8")
    with pytest.raises(PlanError) as err:
        load_plan(path)
    assert str(err.value) == (f"{path}:1: schema_version is missing: add 'schema_version: {SCHEMA_VERSION}' as the "
                              "first line")


def test_value_errors_in_chinese(tmp_path: Path) -> None:
    path, line = _write_variant(tmp_path, "  model: a100-pcie-40gb\n  count: 4\n",
                                "  model: a100-pcie-40gb\n  count: -4\n")
    with pytest.raises(PlanError) as err:
        load_plan(path, None, "zh")
    assert str(err.value) == f"{path}:{line}: gpu.count: 应大于或等于 0"
    path, line = _write_variant(tmp_path, "  - role: backup\n", "  - role: archive\n")
    with pytest.raises(PlanError) as err:
        load_plan(path, None, "zh")
    assert str(err.value) == (f"{path}:{line}: server.storage[2].role: "
                              "应为以下之一：'system', 'data', 'backup' 或 'scratch'")

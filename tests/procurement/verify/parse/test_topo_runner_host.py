"""`topo -m` in both layouts, the no-shell runner with its process-group timeout, and the host parsers."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from procurement.verify.collect.runner import run_command
from procurement.verify.host import (
    parse_cpuinfo,
    parse_lsblk,
    parse_lscpu,
    parse_meminfo,
    parse_os_release,
    probe_host,
)
from procurement.verify.parse.topo import TopoParseError, parse_topo
from tests.procurement.verify.conftest import FIX, LSBLK, cpuinfo, host_runner, make_host_root, write_exe


@pytest.mark.parametrize(
    ("name", "gpus", "devices", "summary", "pcie_pairs"),
    [
        ("topo-m_8x-h100-NV18_spaces.txt", 8, 8, "NV18", 0),
        ("topo-m_6x-h100-NV18-with-NICs_spaces.txt", 6, 8, "NV18", 0),
        ("topo-m_8x-a100-NV12-NIC0-3_tabs.txt", 8, 12, "NV12", 0),
        ("topo-m_dgx-a100-8x-NV12-mlx5x12_tabs.txt", 8, 20, "NV12", 0),
        ("topo-m_8gpu-pcie-SYS-only_tabs.txt", 8, 8, None, 28),  # 8·7/2 pairs, none over NVLink
    ],
)
def test_topo_fixtures(name: str, gpus: int, devices: int, summary: str | None, pcie_pairs: int) -> None:
    topo = parse_topo((FIX / name).read_text())
    assert len(topo.gpus) == gpus
    assert len(topo.devices) == devices
    assert len(topo.links) == devices * (devices - 1)  # full matrix without the X diagonal
    assert topo.nvlink_summary() == summary
    assert len(topo.gpu_pairs_without_nvlink()) == pcie_pairs


def test_topo_affinity_nics_and_the_report_excerpt() -> None:
    topo = parse_topo((FIX / "topo-m_6x-h100-NV18-with-NICs_spaces.txt").read_text())
    assert topo.cpu_affinity["GPU3"] == "48-95,144-191"
    assert topo.numa_affinity["GPU3"] == "1"
    assert topo.nic_names == {"NIC0": "mlx5_0", "NIC1": "mlx5_1"}
    assert topo.links[("NIC0", "NIC1")] == "PIX"
    assert topo.links[("GPU3", "NIC0")] == "SYS"
    dgx = parse_topo((FIX / "topo-m_dgx-a100-8x-NV12-mlx5x12_tabs.txt").read_text())
    assert dgx.links[("GPU4", "mlx5_6")] == "PXB"
    assert dgx.numa_affinity["GPU0"] == "3"
    text = (FIX / "report_4x-a100-sxm4-80gb_580.105.08_csv-topo-nvlink.txt").read_text()
    rep = parse_topo(text.split("--- topology")[1].split("--- nvlink")[0])
    assert rep.gpus == ["GPU0", "GPU1", "GPU2", "GPU3"]
    assert rep.nvlink_summary() == "NV12"
    assert rep.nic_names == {"NIC0": "rocep49s0"}


def test_topo_garbage() -> None:
    with pytest.raises(TopoParseError):
        parse_topo("No devices were found\n")


def test_topo_blank_lines_before_the_first_row_are_skipped() -> None:
    """A pasted copy with an empty line under the header still gives the whole matrix; an empty line
    after the rows ends it."""
    lines = (FIX / "topo-m_8x-h100-NV18_spaces.txt").read_text().splitlines()
    topo = parse_topo("\n".join([lines[0], "", "   ", *lines[1:]]))
    assert len(topo.links) == 8 * 7 and topo.nvlink_summary() == "NV18"


def test_topo_header_without_rows() -> None:
    """The header alone (output cut after its first line) is not a matrix."""
    header = (FIX / "topo-m_8x-h100-NV18_spaces.txt").read_text().splitlines()[0]
    with pytest.raises(TopoParseError, match="no rows"):
        parse_topo(header + "\n\n")


# ---------------------------------------------------------------- runner


def test_hang_is_killed_with_its_children(tmp_path: Path) -> None:
    marker = tmp_path / "child-survived"
    exe = write_exe(tmp_path, "hang", f"(sleep 1.2; touch {marker}) &\nsleep 30\n")
    start = time.monotonic()
    res = run_command([str(exe)], timeout=0.5)
    elapsed = time.monotonic() - start
    assert res.timed_out and not res.ok
    assert elapsed < 2.0
    time.sleep(max(0.0, 1.6 - elapsed))  # the background child would have written its marker by now
    assert not marker.exists()


def test_cancel_stops_a_running_program(tmp_path: Path) -> None:
    exe = write_exe(tmp_path, "hang", "sleep 30\n")
    cancel = threading.Event()
    threading.Timer(0.2, cancel.set).start()
    start = time.monotonic()
    res = run_command([str(exe)], timeout=20, cancel=cancel)
    assert res.cancelled and not res.timed_out
    assert time.monotonic() - start < 2


def test_missing_and_not_executable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    assert run_command(["nvidia-smi", "-q"], 1).missing
    plain = tmp_path / "plain"
    plain.write_text("#!/bin/sh\necho hi\n")
    res = run_command([str(plain)], 1)
    assert res.missing and res.error and "not executable" in res.error


def test_no_shell_arguments_pass_through_verbatim(tmp_path: Path) -> None:
    exe = write_exe(tmp_path, "echoargs", 'for a in "$@"; do echo "[$a]"; done\n')
    res = run_command([str(exe), "a b", "$(touch x)", ";rm -rf /"], 5)
    assert res.ok
    assert res.stdout.splitlines() == ["[a b]", "[$(touch x)]", "[;rm -rf /]"]
    assert not (tmp_path / "x").exists()


# ---------------------------------------------------------------- host parsers


def test_cpuinfo_counts_sockets_physical_cores_threads() -> None:
    model, sockets, cores, threads = parse_cpuinfo(cpuinfo("AMD EPYC 9654 96-Core Processor", 2, 96))
    assert (model, sockets, cores, threads) == ("AMD EPYC 9654 96-Core Processor", 2, 192, 384)
    assert parse_cpuinfo("") == (None, None, None, None)


def test_lscpu_meminfo_os_release_lsblk() -> None:
    lscpu = (
        "Architecture:            x86_64\nCPU(s):                  112\nModel name:              "
        "Intel(R) Xeon(R) Platinum 8480+\nThread(s) per core:      2\nCore(s) per socket:      28\n"
        "Socket(s):               2\n"
    )
    assert parse_lscpu(lscpu) == ("Intel(R) Xeon(R) Platinum 8480+", 2, 56, 112)
    assert parse_meminfo("MemTotal:       1584926720 kB\n") == pytest.approx(1511.5, abs=0.05)
    assert parse_meminfo("nothing") is None
    osr = parse_os_release('NAME="Rocky Linux"\nVERSION_ID="9.3"\nID="rocky"\n# comment\n')
    assert (osr["ID"], osr["VERSION_ID"]) == ("rocky", "9.3")
    disks = parse_lsblk(LSBLK)
    assert [d.name for d in disks if d.is_nvme] == ["nvme0n1", "nvme1n1"]
    assert disks[0].size_bytes == 3840755982336
    assert parse_lsblk("not json") == []


def test_host_probe_on_a_fake_tree(tmp_path: Path) -> None:
    root = make_host_root(tmp_path / "root")
    info = probe_host(root, host_runner(), timeout=5, image="nvcr.io/nvidia/pytorch:24.05-py3")
    assert (info.hostname, info.kernel, info.os_name) == (
        "node01",
        "5.15.0-105-generic",
        "Ubuntu 22.04.4 LTS",
    )
    assert (info.os_id, info.os_version_id) == ("ubuntu", "22.04")
    assert (info.cpu_sockets, info.cpu_cores, info.cpu_threads) == (2, 192, 384)
    assert info.memory_gib == pytest.approx(1511.5, abs=0.05)
    assert [(n.name, n.speed_mbps, n.operstate) for n in info.net] == [
        ("eth0", 100000, "up"),
        ("eth1", 100000, "up"),
    ]  # lo has no device
    assert len([d for d in info.disks if d.is_nvme]) == 2
    assert info.nvcc_version == "12.4"
    assert (info.docker_version, info.docker_nvidia_runtime, info.nvidia_ctk_version) == (
        "24.0.7",
        True,
        "1.14.6",
    )
    assert info.images == {"nvcr.io/nvidia/pytorch:24.05-py3": True}
    assert info.frameworks["torch"]["cuda_available"] is True


def test_framework_probe_survives_a_hanging_import(tmp_path: Path) -> None:
    slow_python = write_exe(tmp_path, "python-hangs", "sleep 30\n")
    start = time.monotonic()
    info = probe_host(tmp_path, lambda argv, t: run_command(argv, t), timeout=1, python=str(slow_python))
    assert time.monotonic() - start < 2.5
    assert info.frameworks == {}
    assert info.frameworks_error and "1 s" in info.frameworks_error


def test_real_framework_probe_runs_without_torch() -> None:
    info = probe_host("/", timeout=60)
    assert info.frameworks_error is None
    assert set(info.frameworks) <= {"torch", "tensorflow"}


def test_frozen_app_runs_children_with_the_system_python(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    from procurement.verify.host import default_python

    assert default_python() == sys.executable
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    assert default_python().endswith("python3")  # gpu-procure itself cannot run `-c`

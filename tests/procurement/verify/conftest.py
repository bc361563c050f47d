"""Fakes for verification tests: nvidia-smi executables on PATH, a host file tree, a small catalog, plans."""

from __future__ import annotations

import json
import os
import shlex
import stat
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from catalog.loader import Catalog
from catalog.models import (
    ContainerImage,
    Cpu,
    CudaRelease,
    Framework,
    Gpu,
    MemoryModule,
    Nic,
    OperatingSystem,
    Storage,
)
from procurement.plan import (
    GpuChoice,
    PartCount,
    Plan,
    Requirements,
    ServerConfig,
    SoftwareChoice,
    StorageItem,
)
from procurement.verify.collect.runner import CommandResult, run_command
from tests.conftest import NVIDIA_SMI_FIXTURES

FIX = NVIDIA_SMI_FIXTURES
ACCEPT = NVIDIA_SMI_FIXTURES.parent / "acceptance"
H100_XML = FIX / "k8s-test-infra_8x-h100-80gb-hbm3_580.105.08_v13.xml"
A100_MIG_XML = FIX / "telegraf_a100-sxm4-80gb-mig_535.54.03_v12.xml"
T4_XML = FIX / "telegraf_tesla-t4_515.105.01_v11.xml"
P4_VGPU_XML = FIX / "telegraf_grid-p4-1q-vgpu-windows_513.46_v11.xml"
H100_TOPO = FIX / "topo-m_8x-h100-NV18_spaces.txt"
TUNED = FIX.parent / "host" / "tuned"
"""A host as the handover's host-tuning.sh leaves it (tests/fixtures/host/README.md)."""
TUNED_CPUS = 4


def tuned_files(cpus: int = TUNED_CPUS) -> dict[str, str | None]:
    """The raw facts' files of a tuned host, as the collector (1.2 on) records them: what TUNE-* read."""
    files: dict[str, str | None] = {
        "/proc/meminfo": "MemTotal:       1584926720 kB\nSwapTotal:             0 kB\nHugePages_Total:       0\n"
                         "Hugepagesize:       2048 kB\n",
        "/proc/swaps": (TUNED / "proc_swaps").read_text(),
        "/proc/mounts": (TUNED / "proc_mounts").read_text(),
        "/proc/self/limits": (TUNED / "proc_self_limits").read_text(),
        "/sys/kernel/mm/transparent_hugepage/enabled": (TUNED / "thp_enabled").read_text(),
    }
    files.update({f"/sys/devices/system/cpu/cpu{n}/cpufreq/scaling_governor": "performance\n" for n in range(cpus)})
    return files


# ---------------------------------------------------------------- fake executables


def head(capture: Path, lines: int) -> str:
    """The first ``lines`` lines of a real capture, as `head -n LINES` gives them: a tool's output cut off
    part-way (a full disk, a killed pipe, a copy that stopped)."""
    return "".join(capture.read_text().splitlines(keepends=True)[:lines])


def write_exe(directory: Path, name: str, body: str) -> Path:
    """A POSIX shell script ``name`` in ``directory`` (what a real nvidia-smi would be on PATH)."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / name
    path.write_text("#!/bin/sh\n" + body, encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return path


def smi_replay(directory: Path, xml: Path, topo: Path | None = None) -> Path:
    """nvidia-smi that prints a real capture: the XML for -q -x, the topology for topo -m."""
    topo_cmd = f"cat {shlex.quote(str(topo))}" if topo else "echo 'topo not captured' >&2; exit 3"
    return write_exe(
        directory,
        "nvidia-smi",
        f'if [ "$1" = "topo" ]; then {topo_cmd}; exit 0; fi\ncat {shlex.quote(str(xml))}\n',
    )


def smi_error(directory: Path, capture: Path, code: int, first_line_to_stderr: bool = False) -> Path:
    """nvidia-smi that prints a real error capture and exits with ``code``."""
    q = shlex.quote(str(capture))
    if first_line_to_stderr:
        body = f"head -n 1 {q} >&2\ntail -n +2 {q}\nexit {code}\n"
    else:
        body = f"cat {q}\nexit {code}\n"
    return write_exe(directory, "nvidia-smi", body)


@pytest.fixture
def fake_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A bin directory put first on PATH (nothing else of the real PATH is reachable for nvidia-smi)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")
    return bin_dir


# ---------------------------------------------------------------- fake host


def cpuinfo(model: str, sockets: int, cores: int, threads_per_core: int = 2) -> str:
    blocks = []
    n = 0
    for t in range(threads_per_core):
        for s in range(sockets):
            for c in range(cores):
                blocks.append(
                    f"processor\t: {n}\nmodel name\t: {model}\nphysical id\t: {s}\ncore id\t\t: {c}\n"
                    f"siblings\t: {cores * threads_per_core}\ncpu cores\t: {cores}\n"
                )
                n += 1
        del t
    return "\n".join(blocks) + "\n"


FM_LOG_HGX = ACCEPT / "fabricmanager/fabricmanager-hgx-h100-535.161.08-startup-and-nvswitch-nonfatal-12028.log"
FM_LOG_ONE_ERROR = ACCEPT / "fabricmanager/fabricmanager-8gpu-multicast-one-nvswitch-nonfatal.log"


def _fm_log_latest_run() -> str:
    """The real HGX H100 Fabric Manager log from its latest start on: a clean run (its startup sequence and
    the multicast teams of the jobs after it, no error)."""
    text = FM_LOG_HGX.read_text()
    return text[text.rindex("Fabric Manager Log initializing at:"):]


FM_LOG_CLEAN = _fm_log_latest_run()


def make_host_root(
    root: Path,
    *,
    mem_kb: int = 1_584_926_720,
    net_speed: str = "100000",
    os_id: str = "ubuntu",
    os_version: str = "22.04",
    cores: int = 96,
    tuned: bool = True,
    fm_log: bool = True,
) -> Path:
    (root / "proc/sys/kernel").mkdir(parents=True, exist_ok=True)
    (root / "proc/sys/kernel/hostname").write_text("node01\n")
    (root / "proc/sys/kernel/osrelease").write_text("5.15.0-105-generic\n")
    (root / "proc/cpuinfo").write_text(cpuinfo("AMD EPYC 9654 96-Core Processor", 2, cores))
    (root / "proc/meminfo").write_text(f"MemTotal:       {mem_kb} kB\nMemFree:        1000 kB\n")
    if tuned:  # as the handover's host-tuning.sh leaves it: what TUNE-* read
        for path, text in tuned_files().items():
            if path == "/proc/meminfo":
                text = f"MemTotal:       {mem_kb} kB\nMemFree:        1000 kB\n" + (text or "").split("\n", 1)[1]
            (root / path.lstrip("/")).parent.mkdir(parents=True, exist_ok=True)
            (root / path.lstrip("/")).write_text(text or "")
    (root / "etc").mkdir(parents=True, exist_ok=True)
    (root / "etc/os-release").write_text(
        f'NAME="Ubuntu"\nVERSION_ID="{os_version}"\nID={os_id}\nPRETTY_NAME="Ubuntu {os_version}.4 LTS"\n'
    )
    if fm_log:  # Fabric Manager's log as a healthy HGX H100 leaves it: one start, no errors
        (root / "var/log").mkdir(parents=True, exist_ok=True)
        (root / "var/log/fabricmanager.log").write_text(FM_LOG_CLEAN)
    net = root / "sys/class/net"
    for port in ("eth0", "eth1"):  # the planned NIC is dual-port
        (net / port / "device").mkdir(parents=True, exist_ok=True)
        (net / port / "speed").write_text(net_speed + "\n")
        (net / port / "type").write_text("1\n")
        (net / port / "operstate").write_text("up\n")
    (net / "lo").mkdir(parents=True, exist_ok=True)
    (net / "lo/speed").write_text("-1\n")
    return root


LSBLK = json.dumps(
    {
        "blockdevices": [
            {
                "name": "nvme0n1",
                "type": "disk",
                "size": 3840755982336,
                "model": "SAMSUNG MZQL23T8HCLS",
                "tran": "nvme",
                "rota": False,
            },
            {
                "name": "nvme1n1",
                "type": "disk",
                "size": 3840755982336,
                "model": "SAMSUNG MZQL23T8HCLS",
                "tran": "nvme",
                "rota": False,
            },
            {
                "name": "sda",
                "type": "disk",
                "size": 480103981056,
                "model": "INTEL SSDSC2KB48",
                "tran": "sata",
                "rota": False,
            },
        ]
    }
)

HOST_OUTPUTS: dict[str, str] = {
    "lsblk": LSBLK,
    "nvcc": "nvcc: NVIDIA (R) Cuda compiler driver\nCuda compilation tools, release 12.4, V12.4.131\n",
    "docker version": "24.0.7\n",
    "docker info": '{"io.containerd.runc.v2":{"path":"runc"},"nvidia":{"path":"nvidia-container-runtime"}}\n',
    "docker image": "[]\n",
    "nvidia-ctk": "NVIDIA Container Toolkit CLI version 1.14.6\ncommit: 5605d191\n",
    "python": json.dumps(
        {"torch": {"version": "2.4.0+cu124", "cuda": "12.4", "cuda_available": True, "device_count": 8}}
    )
    + "\n",
}


REAL_PROGRAMS = frozenset({"nvidia-smi", "dcgmi", "nvbandwidth", "all_reduce_perf", "gpu_burn", "ipmitool", "srun",
                           "mpirun", "p2pBandwidthLatencyTest"})
"""Run for real (the fakes on PATH replay captures); the host's other programs get canned answers."""


def host_runner(
    outputs: dict[str, str] | None = None, calls: list[tuple[str, ...]] | None = None
) -> Callable[[Sequence[str], float], CommandResult]:
    """Real runner for nvidia-smi (the fake on PATH), canned answers for the host's other programs."""
    table = HOST_OUTPUTS if outputs is None else outputs

    def run(argv: Sequence[str], timeout: float) -> CommandResult:
        args = tuple(argv)
        if calls is not None:
            calls.append(args)
        if Path(args[0]).name in REAL_PROGRAMS:
            return run_command(args, timeout)
        prog = "python" if "python" in Path(args[0]).name else Path(args[0]).name
        key = f"{prog} {args[1]}" if prog == "docker" and len(args) > 1 else prog
        if key not in table:
            return CommandResult(args, missing=True)
        return CommandResult(args, returncode=0, stdout=table[key])

    return run


# ---------------------------------------------------------------- catalog and plans


def make_catalog() -> Catalog:
    cat = Catalog()
    parts = [
        Gpu(
            id="h100-sxm5-80gb",
            name="NVIDIA H100 SXM5 80GB",
            vendor="NVIDIA",
            source="docs/sources.md §G1",
            segment="datacenter",
            architecture="Hopper",
            compute_capability="9.0",
            memory_gib=80,
            memory_type="HBM3",
            memory_bandwidth_gbs=3350,
            fp16_tensor_tflops=989,
            tdp_w=700,
            pcie_gen=5,
            form_factor="sxm",
            nvlink_gbs=900,
            mig_max=7,
            ecc=True,
            smi_names=["NVIDIA H100 80GB HBM3"],
        ),
        Gpu(
            id="a100-sxm4-80gb",
            name="NVIDIA A100 SXM4 80GB",
            vendor="NVIDIA",
            source="docs/sources.md §G5, G7",
            segment="datacenter",
            architecture="Ampere",
            compute_capability="8.0",
            memory_gib=80,
            memory_type="HBM2e",
            memory_bandwidth_gbs=2039,
            fp16_tensor_tflops=312,
            tdp_w=400,
            pcie_gen=4,
            form_factor="sxm",
            nvlink_gbs=600,
            mig_max=7,
            ecc=True,
            smi_names=["NVIDIA A100-SXM4-80GB"],
        ),
        Gpu(
            id="t4",
            name="NVIDIA T4",
            vendor="NVIDIA",
            source="docs/sources.md §G5, G17",
            segment="datacenter",
            architecture="Turing",
            compute_capability="7.5",
            memory_gib=16,
            memory_type="GDDR6",
            memory_bandwidth_gbs=320,
            fp16_tensor_tflops=65,
            tdp_w=70,
            pcie_gen=3,
            form_factor="pcie",
            smi_names=["Tesla T4"],
        ),
        CudaRelease(
            id="cuda-12.2",
            name="CUDA 12.2",
            vendor="NVIDIA",
            source="docs/sources.md §C1",
            version="12.2",
            min_driver_linux="535.54.03",
            min_cc="5.0",
            max_cc="9.0",
        ),
        CudaRelease(
            id="cuda-12.4",
            name="CUDA 12.4",
            vendor="NVIDIA",
            source="docs/sources.md §C1",
            version="12.4",
            min_driver_linux="550.54.14",
            min_cc="5.0",
            max_cc="9.0",
        ),
        Cpu(
            id="epyc-9654",
            name="AMD EPYC 9654",
            vendor="AMD",
            source="docs/sources.md §B2, B3",
            segment="datacenter",
            socket="SP5",
            cores=96,
            threads=192,
            pcie_gen=5,
            pcie_lanes=128,
            memory_channels=12,
            memory_type="DDR5",
            max_sockets=2,
            ecc=True,
        ),
        MemoryModule(
            id="ddr5-64g-4800",
            name="64 GB DDR5-4800 RDIMM",
            vendor="generic",
            source="docs/sources.md §D7",
            memory_type="DDR5",
            capacity_gib=64,
            speed_mts=4800,
            ecc=True,
            registered=True,
            power_w=2.5,
        ),
        Storage(
            id="nvme-3.84tb",
            name="3.84 TB NVMe U.2",
            vendor="generic",
            source="docs/sources.md §D7",
            storage_kind="nvme",
            capacity_gb=3840,
            interface="PCIe",
            form="U.2",
            pcie_lanes=4,
            power_w=15,
        ),
        Nic(
            id="nic-100g",
            name="100GbE dual-port",
            vendor="generic",
            source="docs/sources.md §D7",
            speed_gbps=100,
            ports=2,
            fabric="ethernet",
            pcie_gen=4,
            pcie_lanes=16,
            power_w=40,
        ),
        OperatingSystem(
            id="ubuntu-22.04",
            name="Ubuntu 22.04 LTS",
            vendor="Canonical",
            source="docs/sources.md §C12",
            family="ubuntu",
            version="22.04",
        ),
        Framework(
            id="pytorch-2.4",
            name="PyTorch 2.4",
            vendor="PyTorch",
            source="docs/sources.md §C3",
            framework="pytorch",
            version="2.4",
            cuda_versions=["11.8", "12.1"],
            python="3.8-3.12",
        ),
        ContainerImage(
            id="ngc-pytorch-24.05",
            name="NGC PyTorch 24.05",
            vendor="NVIDIA",
            source="docs/sources.md §C4",
            reference="nvcr.io/nvidia/pytorch:24.05-py3",
            publisher="NVIDIA",
            trusted=True,
            cuda="12.4.1",
        ),
    ]
    for p in parts:
        cat.parts[p.kind][p.id] = p
    return cat


@pytest.fixture(scope="session")
def vcat() -> Catalog:
    return make_catalog()


def h100_plan(**changes: object) -> Plan:
    """8x H100 SXM, 2x EPYC 9654, 24x 64 GB, 2 NVMe, 100 GbE, Ubuntu 22.04, CUDA 12.4, NGC PyTorch."""
    plan = Plan(
        requirements=Requirements(nodes=1, needs_nvlink=True),
        gpu=GpuChoice(model="h100-sxm5-80gb", count=8),
        server=ServerConfig(
            cpu="epyc-9654",
            cpu_count=2,
            memory=PartCount(part="ddr5-64g-4800", count=24),
            storage=[StorageItem(role="data", part="nvme-3.84tb", count=2)],
            nics=[PartCount(part="nic-100g", count=1)],
        ),
        software=SoftwareChoice(
            os="ubuntu-22.04", cuda="cuda-12.4", framework="pytorch-2.4", image="ngc-pytorch-24.05"
        ),
    )
    for path, value in changes.items():
        from procurement.plan import with_value

        plan = with_value(plan, path.replace("__", "."), value)
    return plan


# ---------------------------------------------------------------- healthy raw facts around a capture

# The real `lspci -nn -D` line format (tests/fixtures/acceptance/lspci/lspci-nn-azure-a100-sxm4-8gpu.txt).
_LSPCI_LINE = "{bus} 3D controller [0302]: NVIDIA Corporation GH100 [H100 SXM5 80GB] [10de:2330] (rev a1)"


def lspci_for(xml: str) -> str:
    """`lspci -nn -D` listing exactly the GPUs of an nvidia-smi capture (by their bus ids)."""
    import re

    from procurement.verify.collect.raw import sysfs_bus_id

    buses = re.findall(r'<gpu id="([^"]+)"', xml)
    return "".join(_LSPCI_LINE.format(bus=sysfs_bus_id(b)) + "\n" for b in buses)


def healthy(xml: str, kernel_lines: list[str] | None = None) -> dict[str, object]:
    """Raw-facts health keys of a machine whose kernel log is readable and clean and whose bus shows the
    capture's GPUs (procurement.verify.probe.report_from_outputs ``health``)."""
    return {
        "kernel_log": {"source": "dmesg", "lines": kernel_lines or [], "truncated": False, "error": None},
        "files": tuned_files(),
        "commands": {"lspci": {"argv": ["lspci", "-nn", "-D"], "returncode": 0, "stdout": lspci_for(xml),
                               "stderr": "", "missing": False, "timed_out": False, "cancelled": False,
                               "error": None}},
    }


def host_runner_healthy(xml: Path, outputs: dict[str, str] | None = None, **kw: object) -> Callable[
        [Sequence[str], float], CommandResult]:
    """host_runner that also answers dmesg (clean) and lspci (the capture's GPUs)."""
    table = dict(HOST_OUTPUTS if outputs is None else outputs)
    table.setdefault("dmesg", "[    0.000000] Linux version 5.15.0\n")
    table.setdefault("lspci", lspci_for(xml.read_text()))
    return host_runner(table, **kw)  # type: ignore[arg-type]

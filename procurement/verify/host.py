"""Host probes: CPU, memory, disks, network, OS, CUDA toolkit, containers and frameworks (all injectable)."""

from __future__ import annotations

import json
import re
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path

from procurement.verify.runner import CommandResult, Runner, run_command

# Run in a child interpreter so that a broken torch/tensorflow install (hanging CUDA init, segfault) can
# only cost the timeout, never hang or crash the verification itself.
_FRAMEWORK_SCRIPT = r"""
import importlib.util, json
out = {}
if importlib.util.find_spec("torch") is not None:
    try:
        import torch
        d = {"version": torch.__version__, "cuda": getattr(torch.version, "cuda", None)}
        try:
            d["cuda_available"] = bool(torch.cuda.is_available())
            d["device_count"] = torch.cuda.device_count() if d["cuda_available"] else 0
        except Exception as exc:
            d["cuda_available"] = False
            d["error"] = str(exc)[:300]
        out["torch"] = d
    except Exception as exc:
        out["torch"] = {"error": str(exc)[:300]}
if importlib.util.find_spec("tensorflow") is not None:
    try:
        import tensorflow as tf
        gpus = tf.config.list_physical_devices("GPU")
        out["tensorflow"] = {"version": tf.__version__, "cuda_available": bool(gpus),
                             "device_count": len(gpus)}
    except Exception as exc:
        out["tensorflow"] = {"error": str(exc)[:300]}
print(json.dumps(out))
"""


@dataclass
class Disk:
    name: str
    model: str | None
    size_bytes: int | None
    transport: str | None
    rotational: bool | None

    @property
    def is_nvme(self) -> bool:
        return self.transport == "nvme" or self.name.startswith("nvme")


@dataclass
class NetLink:
    name: str
    speed_mbps: int | None
    """None when the link is down or the driver does not say."""
    kind: str
    """'ethernet' or 'infiniband' (from /sys/class/net/X/type)."""


@dataclass
class HostInfo:
    hostname: str | None = None
    os_name: str | None = None
    os_id: str | None = None
    os_version_id: str | None = None
    kernel: str | None = None
    cpu_model: str | None = None
    cpu_sockets: int | None = None
    cpu_cores: int | None = None
    cpu_threads: int | None = None
    memory_gib: float | None = None
    memory_ecc: str | None = None
    """EDAC view of memory ECC where the kernel exposes it ('enabled'), else None."""
    disks: list[Disk] = field(default_factory=list)
    net: list[NetLink] = field(default_factory=list)
    nvcc_version: str | None = None
    docker_version: str | None = None
    docker_nvidia_runtime: bool | None = None
    nvidia_ctk_version: str | None = None
    frameworks: dict[str, dict[str, object]] = field(default_factory=dict)
    frameworks_error: str | None = None
    images: dict[str, bool] = field(default_factory=dict)
    """Container image reference -> present locally (only asked for the plan's image)."""


def default_python() -> str:
    """The interpreter for the framework and benchmark children.

    In the frozen app sys.executable is gpu-procure itself, which cannot run `-c`; there the system's
    python3 (where a server's PyTorch lives) is used instead.
    """
    if getattr(sys, "frozen", False):
        return shutil.which("python3") or "python3"
    return sys.executable


class HostProbe:
    """Reads host facts below ``root`` and runs helper programs through ``runner`` (both fakeable)."""

    def __init__(
        self,
        root: Path | str = "/",
        runner: Runner | None = None,
        timeout: float = 30.0,
        python: str | None = None,
    ) -> None:
        self.root = Path(root)
        self.runner: Runner = runner or (lambda argv, t: run_command(argv, t))
        self.timeout = timeout
        self.python = python or default_python()

    # ------------------------------------------------------------ helpers
    def _read(self, rel: str) -> str | None:
        try:
            return (self.root / rel.lstrip("/")).read_text(encoding="utf-8", errors="replace")
        except OSError:
            return None

    def _run(self, *argv: str) -> CommandResult:
        try:
            return self.runner(argv, self.timeout)
        except Exception as exc:  # a probe must never take the verification down with it
            return CommandResult(tuple(argv), error=str(exc))

    # ------------------------------------------------------------ probes
    def identity(self, info: HostInfo) -> None:
        info.hostname = (
            self._read("proc/sys/kernel/hostname") or self._read("etc/hostname") or ""
        ).strip() or None
        info.kernel = (self._read("proc/sys/kernel/osrelease") or "").strip() or None
        osr = parse_os_release(self._read("etc/os-release") or self._read("usr/lib/os-release") or "")
        info.os_name = (
            osr.get("PRETTY_NAME") or " ".join(x for x in (osr.get("NAME"), osr.get("VERSION")) if x) or None
        )
        info.os_id = osr.get("ID")
        info.os_version_id = osr.get("VERSION_ID")

    def cpu(self, info: HostInfo) -> None:
        parsed = parse_cpuinfo(self._read("proc/cpuinfo") or "")
        info.cpu_model, info.cpu_sockets, info.cpu_cores, info.cpu_threads = parsed
        if info.cpu_sockets is None or info.cpu_cores is None or info.cpu_model is None:
            res = self._run("lscpu")
            if res.ok:
                model, sockets, cores, threads = parse_lscpu(res.stdout)
                info.cpu_model = info.cpu_model or model
                info.cpu_sockets = info.cpu_sockets or sockets
                info.cpu_cores = info.cpu_cores or cores
                info.cpu_threads = info.cpu_threads or threads

    def memory(self, info: HostInfo) -> None:
        info.memory_gib = parse_meminfo(self._read("proc/meminfo") or "")
        mc = self.root / "sys/devices/system/edac/mc"
        try:
            if any(p.name.startswith("mc") for p in mc.iterdir()):
                info.memory_ecc = "enabled"
        except OSError:
            pass

    def disks(self, info: HostInfo) -> None:
        res = self._run("lsblk", "--json", "--bytes", "--nodeps", "-o", "NAME,TYPE,SIZE,MODEL,TRAN,ROTA")
        if res.ok:
            info.disks = parse_lsblk(res.stdout)

    def network(self, info: HostInfo) -> None:
        base = self.root / "sys/class/net"
        try:
            names = sorted(p.name for p in base.iterdir())
        except OSError:
            return
        for name in names:
            if not (base / name / "device").exists():
                continue  # lo, bridges, veths, bonds: no hardware behind them
            speed = _int((self._read(f"sys/class/net/{name}/speed") or "").strip())
            kind = (
                "infiniband"
                if (self._read(f"sys/class/net/{name}/type") or "").strip() == "32"
                else "ethernet"
            )
            info.net.append(NetLink(name, speed if speed and speed > 0 else None, kind))

    def toolkit(self, info: HostInfo) -> None:
        res = self._run("nvcc", "--version")
        if res.ok:
            m = re.search(r"release (\d+\.\d+)", res.stdout)
            info.nvcc_version = m.group(1) if m else None

    def containers(self, info: HostInfo, image: str | None = None) -> None:
        res = self._run("docker", "version", "--format", "{{.Server.Version}}")
        if res.ok and res.stdout.strip():
            info.docker_version = res.stdout.strip().splitlines()[0]
            rt = self._run("docker", "info", "--format", "{{json .Runtimes}}")
            if rt.ok:
                info.docker_nvidia_runtime = "nvidia" in rt.stdout
            if image:
                info.images[image] = self._run("docker", "image", "inspect", image).ok
        ctk = self._run("nvidia-ctk", "--version")
        if ctk.ok:
            m = re.search(r"(\d+\.\d+\.\d+)", ctk.stdout)
            info.nvidia_ctk_version = m.group(1) if m else ctk.stdout.strip()[:40] or None

    def frameworks(self, info: HostInfo) -> None:
        res = self._run(self.python, "-c", _FRAMEWORK_SCRIPT)
        if res.timed_out:
            info.frameworks_error = f"importing the frameworks took longer than {self.timeout:g} s"
            return
        if not res.ok:
            last = (res.stderr.strip().splitlines() or [res.error or ""])[-1]
            info.frameworks_error = last[:300] or None
            return
        try:
            data = json.loads(res.stdout.strip().splitlines()[-1])
        except (ValueError, IndexError):
            info.frameworks_error = "unreadable framework probe output"
            return
        if isinstance(data, dict):
            info.frameworks = {k: v for k, v in data.items() if isinstance(v, dict)}


# ---------------------------------------------------------------- pure parsers


def _int(text: str | None) -> int | None:
    try:
        return int(str(text).strip())
    except (TypeError, ValueError):
        return None


def parse_os_release(text: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for line in text.splitlines():
        key, sep, value = line.partition("=")
        if sep and key.strip() and not key.startswith("#"):
            out[key.strip()] = value.strip().strip('"').strip("'")
    return out


def parse_cpuinfo(text: str) -> tuple[str | None, int | None, int | None, int | None]:
    """(model, sockets, physical cores, threads) from /proc/cpuinfo (x86 layout; None where absent)."""
    model = None
    sockets: set[str] = set()
    cores: set[tuple[str, str]] = set()
    threads = 0
    phys = core = None
    for line in [*text.splitlines(), ""]:
        if not line.strip():
            if phys is not None and core is not None:
                cores.add((phys, core))
            phys = core = None
            continue
        key, _, value = line.partition(":")
        key, value = key.strip(), value.strip()
        if key == "processor":
            threads += 1
        elif key == "model name" and model is None:
            model = " ".join(value.split())
        elif key == "physical id":
            phys = value
            sockets.add(value)
        elif key == "core id":
            core = value
    return (model, len(sockets) or None, len(cores) or None, threads or None)


def parse_lscpu(text: str) -> tuple[str | None, int | None, int | None, int | None]:
    fields: dict[str, str] = {}
    for line in text.splitlines():
        key, sep, value = line.partition(":")
        if sep:
            fields.setdefault(key.strip(), value.strip())
    sockets = _int(fields.get("Socket(s)"))
    per_socket = _int(fields.get("Core(s) per socket"))
    cores = sockets * per_socket if sockets and per_socket else None
    return fields.get("Model name"), sockets, cores, _int(fields.get("CPU(s)"))


def parse_meminfo(text: str) -> float | None:
    m = re.search(r"^MemTotal:\s+(\d+)\s*kB", text, re.MULTILINE)
    return round(int(m.group(1)) / 1024 / 1024, 1) if m else None


def parse_lsblk(text: str) -> list[Disk]:
    try:
        data = json.loads(text)
    except ValueError:
        return []
    devices = data.get("blockdevices") if isinstance(data, dict) else None
    out = []
    for dev in devices if isinstance(devices, list) else []:
        if not isinstance(dev, dict) or dev.get("type") != "disk":
            continue
        rota = dev.get("rota")
        out.append(
            Disk(
                name=str(dev.get("name", "")),
                model=(str(dev["model"]).strip() or None) if dev.get("model") else None,
                size_bytes=_int(dev.get("size")),
                transport=dev.get("tran"),
                rotational=rota in (True, "1", 1) if rota is not None else None,
            )
        )
    return out

"""Host probes: CPU, memory, disks, network, OS, CUDA toolkit, containers and frameworks (all injectable)."""

from __future__ import annotations

import json
import re
import shutil
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from procurement.verify.collect import raw
from procurement.verify.collect.runner import CommandResult, Runner, run_command


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
    operstate: str | None = None
    """'up', 'down', … from /sys/class/net/X/operstate (None: not read)."""


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
    machine_id: str | None = None
    """/etc/machine-id: identifies the installed OS (a re-install changes it)."""
    dmi_serial: str | None = None
    """DMI system serial number (root-readable only on most systems)."""
    dmi_uuid: str | None = None
    board_serial: str | None = None
    vendor: str | None = None
    product: str | None = None


def default_python() -> str:
    """The interpreter for the framework and benchmark children.

    In the frozen app sys.executable is gpu-procure itself, which cannot run `-c`; there the system's
    python3 (where a server's PyTorch lives) is used instead.
    """
    if getattr(sys, "frozen", False):
        return shutil.which("python3") or "python3"
    return sys.executable


def probe_host(
    root: Path | str = "/",
    runner: Runner | None = None,
    timeout: float = 30.0,
    python: str | None = None,
    image: str | None = None,
) -> HostInfo:
    """Collect the host's raw facts (procurement.verify.collect.raw) and parse them: the same path as `verify`."""
    coll = raw.Collector(str(root), raw_run(runner or (lambda argv, t: run_command(argv, t))), timeout,
                         python=python or default_python())
    facts = raw.new_raw()
    facts["timeout_s"] = timeout
    coll.host(facts)
    coll.software(facts, image)
    return host_from_raw(facts)


def raw_run(runner: Runner) -> raw.Run:
    """The app's runner (CommandResult) as the raw collector's (a JSON-ready dict)."""

    def run(argv: Sequence[str], timeout: float) -> dict[str, Any]:
        res = runner(argv, timeout)
        out = raw.result(res.argv, res.returncode, res.stdout, res.stderr, res.missing, res.timed_out,
                         res.cancelled, res.error)
        if getattr(res, "dropped_bytes", 0):
            out["dropped_bytes"] = res.dropped_bytes
        if getattr(res, "left_running", False):
            out["left_running"] = True
        return out

    return run


def command_result(res: dict[str, Any] | None, argv: Sequence[str] = ()) -> CommandResult:
    """A raw command record as a CommandResult (a record that is absent reads as 'not run')."""
    if not isinstance(res, dict):
        return CommandResult(tuple(argv), missing=True, error="not collected")
    rc = res.get("returncode")

    def text(key: str) -> str:
        v = res.get(key)
        return v if isinstance(v, str) else ""

    return CommandResult(
        tuple(str(a) for a in res.get("argv") or argv),
        returncode=rc if isinstance(rc, int) else None,
        stdout=text("stdout"),
        stderr=text("stderr"),
        missing=bool(res.get("missing")),
        timed_out=bool(res.get("timed_out")),
        cancelled=bool(res.get("cancelled")),
        error=res.get("error") if isinstance(res.get("error"), str) else None,
        left_running=res.get("left_running") is True,
    )


# ---------------------------------------------------------------- from raw facts (the judge's side)


def _cmd(doc: dict[str, Any], name: str) -> dict[str, Any] | None:
    cmds = doc.get("commands")
    value = cmds.get(name) if isinstance(cmds, dict) else None
    return value if isinstance(value, dict) else None


def _ok(res: dict[str, Any] | None) -> bool:
    return res is not None and res.get("returncode") == 0 and not (
        res.get("missing") or res.get("timed_out") or res.get("cancelled") or res.get("error")
    )


def _stdout(res: dict[str, Any] | None) -> str:
    out = res.get("stdout") if res else None
    return out if isinstance(out, str) else ""


def _file(doc: dict[str, Any], path: str) -> str | None:
    files = doc.get("files")
    value = files.get(path) if isinstance(files, dict) else None
    return value if isinstance(value, str) else None


def host_from_raw(doc: dict[str, Any]) -> HostInfo:
    """The host facts of a doc-facts document (procurement.verify.doc), parsed; absent values stay None."""
    info = HostInfo()
    _os_from(info, doc)
    _cpu_from(info, doc)
    info.memory_gib = parse_meminfo(_file(doc, "/proc/meminfo") or "")
    if doc.get("edac_mc"):
        info.memory_ecc = "enabled"
    lsblk = _cmd(doc, "lsblk")
    if _ok(lsblk):
        info.disks = parse_lsblk(_stdout(lsblk))
    info.net = _net_from(doc)
    _toolkit_from(info, doc)
    _docker_from(info, doc)
    t = doc.get("timeout_s")
    _frameworks_from(info, _cmd(doc, "frameworks"), float(t) if isinstance(t, int | float) else 30.0)
    _identity_from(info, doc)
    return info


def _os_from(info: HostInfo, doc: dict[str, Any]) -> None:
    """Host name, kernel and /etc/os-release."""
    info.hostname = ((_file(doc, "/proc/sys/kernel/hostname") or _file(doc, "/etc/hostname") or "").strip()
                     or None)
    info.kernel = (_file(doc, "/proc/sys/kernel/osrelease") or "").strip() or None
    osr = parse_os_release(_file(doc, "/etc/os-release") or _file(doc, "/usr/lib/os-release") or "")
    info.os_name = (
        osr.get("PRETTY_NAME") or " ".join(x for x in (osr.get("NAME"), osr.get("VERSION")) if x) or None
    )
    info.os_id = osr.get("ID")
    info.os_version_id = osr.get("VERSION_ID")


def _cpu_from(info: HostInfo, doc: dict[str, Any]) -> None:
    """The CPU from /proc/cpuinfo; lscpu fills in what it leaves out (ARM servers, containers)."""
    info.cpu_model, info.cpu_sockets, info.cpu_cores, info.cpu_threads = parse_cpuinfo(
        _file(doc, "/proc/cpuinfo") or ""
    )
    lscpu = _cmd(doc, "lscpu")
    if _ok(lscpu) and (info.cpu_sockets is None or info.cpu_cores is None or info.cpu_model is None):
        model, sockets, cores, threads = parse_lscpu(_stdout(lscpu))
        info.cpu_model = info.cpu_model or model
        info.cpu_sockets = info.cpu_sockets or sockets
        info.cpu_cores = info.cpu_cores or cores
        info.cpu_threads = info.cpu_threads or threads


def _net_from(doc: dict[str, Any]) -> list[NetLink]:
    """The network interfaces (sysfs /sys/class/net, as the collector read them)."""
    out = []
    for entry in doc.get("net") or []:
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
            continue
        speed = _int(entry.get("speed"))
        kind = "infiniband" if str(entry.get("type") or "").strip() == "32" else "ethernet"
        state = entry.get("operstate")
        out.append(NetLink(entry["name"], speed if speed and speed > 0 else None, kind,
                           state if isinstance(state, str) else None))
    return out


def _toolkit_from(info: HostInfo, doc: dict[str, Any]) -> None:
    """The CUDA toolkit (nvcc) and the NVIDIA Container Toolkit (nvidia-ctk) versions."""
    nvcc = _cmd(doc, "nvcc")
    if _ok(nvcc):
        m = re.search(r"release (\d+\.\d+)", _stdout(nvcc))
        info.nvcc_version = m.group(1) if m else None
    ctk = _cmd(doc, "nvidia_ctk")
    if _ok(ctk):
        m = re.search(r"(\d+\.\d+\.\d+)", _stdout(ctk))
        info.nvidia_ctk_version = m.group(1) if m else _stdout(ctk).strip()[:40] or None


def _docker_from(info: HostInfo, doc: dict[str, Any]) -> None:
    """Docker's version, whether it has the nvidia runtime, and whether the planned image is present."""
    docker = _cmd(doc, "docker_version")
    if not (_ok(docker) and _stdout(docker).strip()):
        return
    info.docker_version = _stdout(docker).strip().splitlines()[0]
    rt = _cmd(doc, "docker_runtimes")
    if _ok(rt):
        info.docker_nvidia_runtime = "nvidia" in _stdout(rt)
    image = doc.get("image")
    if isinstance(image, str) and image:
        info.images[image] = _ok(_cmd(doc, "docker_image"))


def _identity_from(info: HostInfo, doc: dict[str, Any]) -> None:
    """The machine id and the DMI serials, vendor and product (firmware placeholders are None)."""
    info.machine_id = (_file(doc, "/etc/machine-id") or "").strip() or None
    for key, path in (("dmi_serial", "/sys/class/dmi/id/product_serial"),
                      ("dmi_uuid", "/sys/class/dmi/id/product_uuid"),
                      ("board_serial", "/sys/class/dmi/id/board_serial"),
                      ("vendor", "/sys/class/dmi/id/sys_vendor"),
                      ("product", "/sys/class/dmi/id/product_name")):
        value = (_file(doc, path) or "").strip()
        setattr(info, key, value if value and value.casefold() not in _DMI_PLACEHOLDERS else None)


# Values firmware leaves in DMI fields that identify nothing.
_DMI_PLACEHOLDERS = frozenset({
    "to be filled by o.e.m.", "default string", "system serial number", "not specified", "0", "none",
    "0123456789", "03000200-0400-0500-0006-000700080009", "not applicable",
})


def _frameworks_from(info: HostInfo, res: dict[str, Any] | None, timeout: float) -> None:
    if res is None:
        return
    if res.get("timed_out"):
        info.frameworks_error = f"importing the frameworks took longer than {timeout:g} s"
        return
    if not _ok(res):
        err = res.get("stderr") if isinstance(res.get("stderr"), str) else ""
        last = (str(err).strip().splitlines() or [str(res.get("error") or "")])[-1]
        info.frameworks_error = last[:300] or None
        return
    try:
        data = json.loads(_stdout(res).strip().splitlines()[-1])
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

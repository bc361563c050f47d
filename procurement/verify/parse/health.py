"""Health facts read from raw outputs: kernel-log Xid events (with NVIDIA's meaning and action), PCIe AER
counters, InfiniBand ports (sysfs or `ibstat`) and GPUs on the PCI bus (`lspci`)."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Literal

# ---------------------------------------------------------------- Xid

XidAction = Literal["application", "reset", "reseat", "rma", "driver", "fabric", "investigate"]


@dataclass(frozen=True)
class XidInfo:
    meaning: str
    action: XidAction
    severity: Literal["fail", "warn"]
    """fail: points at the hardware or its setup (a new machine must not show it); warn: usually an
    application's fault, worth a look but not the machine's."""


# Abridged from NVIDIA's Xid catalogue ("Xid Errors", docs.nvidia.com/deploy/xid-errors, the Xid catalog
# for Ampere and newer and the older table; and "Dynamic Page Retirement", docs.nvidia.com/deploy/
# dynamic-page-retirement): the mnemonic's meaning and the catalogue's resolution bucket, named in the
# buyer's words. tests/fixtures/acceptance/README.md and docs/verify.md ("Sources") record the citation; an
# Xid not listed here is shown
# with its number and "investigate" (never as harmless).
XID_CATALOGUE: dict[int, XidInfo] = {
    8: XidInfo("GPU stopped processing (channel idle timeout)", "application", "warn"),
    13: XidInfo("Graphics engine exception (usually an application fault)", "application", "warn"),
    31: XidInfo("GPU memory page fault (usually an application fault)", "application", "warn"),
    32: XidInfo("Invalid or corrupted push buffer stream", "application", "warn"),
    43: XidInfo("GPU stopped processing (reset channel verification error)", "application", "warn"),
    45: XidInfo("Preemptive cleanup after an earlier error", "application", "warn"),
    48: XidInfo("Uncorrectable double-bit ECC error (DBE) in GPU memory", "reset", "fail"),
    61: XidInfo("Internal micro-controller breakpoint/warning", "reset", "fail"),
    62: XidInfo("Internal micro-controller halt", "reset", "fail"),
    63: XidInfo("ECC page retirement or row remapping recorded (reset the GPU to activate)", "reset", "fail"),
    64: XidInfo("ECC page retirement or row remapping failed", "rma", "fail"),
    69: XidInfo("Graphics engine class error", "application", "warn"),
    74: XidInfo("NVLink error", "reseat", "fail"),
    79: XidInfo("GPU has fallen off the bus", "reseat", "fail"),
    92: XidInfo("High single-bit ECC error rate", "rma", "fail"),
    94: XidInfo("Contained ECC error (the application using that memory was stopped)", "application", "warn"),
    95: XidInfo("Uncontained ECC error (every application on the GPU is affected)", "reset", "fail"),
    109: XidInfo("Context switch timeout", "application", "warn"),
    119: XidInfo("GSP RPC timeout (the GPU's system processor stopped answering)", "reset", "fail"),
    120: XidInfo("GSP error", "reset", "fail"),
    121: XidInfo("C2C (chip-to-chip) link error", "reset", "fail"),
    140: XidInfo("Unrecovered ECC error", "reset", "fail"),
    143: XidInfo("GPU initialisation failure", "driver", "fail"),
    145: XidInfo("NVLink RLW error", "reset", "fail"),
    149: XidInfo("NVLink NETIR error", "reset", "fail"),
    154: XidInfo("GPU recovery action changed (the message names the reset or reboot needed)", "reset", "fail"),
}


def xid_info(code: int) -> XidInfo:
    return XID_CATALOGUE.get(code, XidInfo(f"Xid {code} (not in gpu-procure's abridged table)", "investigate", "fail"))


@dataclass(frozen=True)
class XidEvent:
    bus: str
    """As the driver prints it: '0000:9b:00'."""
    code: int
    text: str


_XID = re.compile(r"NVRM: Xid \((?:PCI:)?([0-9A-Fa-f:.]+)\): (\d+)")


def parse_xid(lines: list[str]) -> list[XidEvent]:
    out = []
    for line in lines:
        m = _XID.search(line)
        if m:
            out.append(XidEvent(m.group(1).lower(), int(m.group(2)), line.strip()[:300]))
    return out


@dataclass(frozen=True)
class KernelFault:
    """A fatal NVRM line without an Xid number (the driver says so in words)."""

    bus: str
    """'0000:b3:00' as in Xid lines ('?' when the message names no bus)."""
    kind: Literal["bus", "init", "lost"]
    """bus: the GPU fell off the bus; init: the driver could not initialise it; lost: the GPU is lost."""
    text: str


# Fatal NVRM messages that come without an `NVRM: Xid` line (NVIDIA/NVSentinel issue 155: a GPU fallen off the
# bus at probe time; the older one-line form "NVRM: GPU at 0000:01:00.0 has fallen off the bus." in
# Bumblebee-Project/Bumblebee issue 554; "RmInitAdapter failed!" in Cyridd/cmpunlocker issue 4). The first
# form spans three lines, each prefixed "NVRM:", the bus on the first and the words on the third.
_FAULT_WORDS: tuple[tuple[re.Pattern[str], Literal["bus", "init", "lost"]], ...] = (
    (re.compile(r"fallen off the bus", re.I), "bus"),
    (re.compile(r"RmInitAdapter failed|rm_init_adapter failed|GPU initialization failed|"
                r"The NVIDIA probe routine failed", re.I), "init"),
    (re.compile(r"GPU is lost|GPU has been lost|lost from the bus", re.I), "lost"),
)
_NVRM_BUS = re.compile(
    r"NVRM:.*?(?:GPU(?: at)?(?: PCI:)?|NVIDIA GPU)\s+([0-9A-Fa-f]{4,8}:[0-9A-Fa-f]{2}:[0-9A-Fa-f]{2})")


def parse_kernel_faults(lines: list[str]) -> list[KernelFault]:
    """Fatal NVRM lines that carry no Xid (an Xid line is parse_xid's), with the bus they name or, for a
    message continued over several lines, the bus named up to two lines before."""
    out = []
    for i, line in enumerate(lines):
        if "NVRM" not in line or _XID.search(line):
            continue
        for pattern, kind in _FAULT_WORDS:
            if pattern.search(line):
                bus = "?"
                for back in (line, *reversed(lines[max(0, i - 2):i])):
                    m = _NVRM_BUS.search(back)
                    if m:
                        bus = m.group(1).lower()
                        break
                out.append(KernelFault(bus[-12:] if bus != "?" else bus, kind, line.strip()[:300]))
                break
    return out


def new_lines(before: list[str], after: list[str]) -> list[str]:
    """The lines of ``after`` that ``before`` did not have (both read from the same log; a line may repeat)."""
    seen = Counter(before)
    out = []
    for line in after:
        if seen[line] > 0:
            seen[line] -= 1
        else:
            out.append(line)
    return out


# ---------------------------------------------------------------- AER


def parse_aer(text: str | None) -> int | None:
    """The total of a sysfs aer_dev_* file ('TOTAL_ERR_COR 3' / 'TOTAL_ERR_FATAL 0'); None if unreadable."""
    if not text:
        return None
    m = re.search(r"^TOTAL_ERR_\w+\s+(\d+)", text, re.MULTILINE)
    if m:
        return int(m.group(1))
    nums = [int(x) for x in re.findall(r"^\S+\s+(\d+)\s*$", text, re.MULTILINE)]
    return sum(nums) if nums else None


# ---------------------------------------------------------------- InfiniBand / RoCE ports


@dataclass
class IbPort:
    device: str
    port: str
    state: str
    """'ACTIVE', 'DOWN', 'INIT', …"""
    rate_gbps: float | None
    link_layer: str
    """'InfiniBand' or 'Ethernet' (RoCE)."""
    firmware: str | None = None
    ca_type: str | None = None
    """'MT4129' (ConnectX-7): cards of one type should run one firmware."""

    @property
    def active(self) -> bool:
        return self.state.upper() == "ACTIVE"


def ib_ports_from_sysfs(entries: list[Any]) -> list[IbPort]:
    out = []
    for e in entries:
        if not isinstance(e, dict):
            continue
        state = str(e.get("state") or "")
        rate = re.match(r"\s*(\d+(?:\.\d+)?)", str(e.get("rate") or ""))
        out.append(
            IbPort(
                device=str(e.get("device") or "?"),
                port=str(e.get("port") or "?"),
                state=state.split(":", 1)[-1].strip() or "?",  # '4: ACTIVE'
                rate_gbps=float(rate.group(1)) if rate else None,
                link_layer=str(e.get("link_layer") or "InfiniBand"),
                firmware=e.get("fw_ver") if isinstance(e.get("fw_ver"), str) else None,
                ca_type=e.get("hca_type") if isinstance(e.get("hca_type"), str) else None,
            )
        )
    return out


def parse_ibstat(text: str) -> list[IbPort]:
    """`ibstat` output: one IbPort per "CA 'mlx5_N'" / "Port N:" block."""
    out: list[IbPort] = []
    device, firmware, ca_type = "?", None, None
    current: IbPort | None = None
    for raw_line in text.splitlines():
        line = raw_line.strip()
        m = re.match(r"^CA '([^']+)'", line)
        if m:
            device, firmware, ca_type, current = m.group(1), None, None, None
            continue
        m = re.match(r"^Firmware version:\s*(\S+)", line)
        if m:
            firmware = m.group(1)
            continue
        m = re.match(r"^CA type:\s*(\S+)", line)
        if m:
            ca_type = m.group(1)
            continue
        m = re.match(r"^Port (\d+):", line)
        if m:
            current = IbPort(device, m.group(1), "?", None, "InfiniBand", firmware, ca_type)
            out.append(current)
            continue
        if current is None:
            continue
        key, _, value = line.partition(":")
        value = value.strip()
        if key == "State":
            current.state = value.upper()
        elif key == "Rate":
            rate = re.match(r"(\d+(?:\.\d+)?)", value)
            current.rate_gbps = float(rate.group(1)) if rate else None
        elif key == "Link layer":
            current.link_layer = value
    return out


def parse_ibv_devinfo(text: str) -> list[IbPort]:
    """`ibv_devinfo`: one IbPort per "hca_id: mlx5_N" / "port: N" block, its state ('PORT_ACTIVE (4)' ->
    'ACTIVE') and link layer; the default output has no rate (None)."""
    out: list[IbPort] = []
    device, firmware, current = "?", None, None
    for raw_line in text.splitlines():
        line = raw_line.strip()
        key, _, value = line.partition(":")
        value = value.strip()
        if key == "hca_id":
            device, firmware, current = value, None, None
        elif key == "fw_ver":
            firmware = value
        elif key == "port" and value.isdigit():
            current = IbPort(device, value, "?", None, "InfiniBand", firmware, None)
            out.append(current)
        elif current is not None and key == "state":
            current.state = re.sub(r"^PORT_|\s*\(\d+\)$", "", value).upper()
        elif current is not None and key == "link_layer":
            current.link_layer = value
    return out


# ---------------------------------------------------------------- lspci


_LSPCI_GPU = re.compile(r"^(\S+)\s+(?:3D|VGA compatible) controller \[030[02]\]:.*\[10de:[0-9a-f]{4}\]", re.I)


def lspci_gpus(text: str) -> list[str]:
    """Bus ids of NVIDIA display/3D controllers in `lspci -nn -D` output."""
    return [m.group(1) for line in text.splitlines() if (m := _LSPCI_GPU.match(line.strip()))]


# ---------------------------------------------------------------- NVLink


@dataclass
class NvlinkGpu:
    index: int
    links: dict[int, float | None] = field(default_factory=dict)
    """Link number -> GB/s (None: the link is listed but inactive)."""
    all_inactive: bool = False
    """nvidia-smi said 'Unable to retrieve NVLink information as all links are inactive'."""


def parse_nvlink_status(text: str) -> list[NvlinkGpu]:
    """`nvidia-smi nvlink -s`: per GPU its links and their speed ('Link 3: 25 GB/s', 'Link 3: <inactive>')."""
    out: list[NvlinkGpu] = []
    for line in text.splitlines():
        m = re.match(r"^GPU (\d+):", line.strip())
        if m:
            out.append(NvlinkGpu(int(m.group(1))))
            continue
        if not out:
            continue
        if "all links are inactive" in line:
            out[-1].all_inactive = True
            continue
        m = re.match(r"^Link (\d+):\s*(.*)$", line.strip())
        if m:
            speed = re.match(r"([\d.]+)\s*GB/s", m.group(2))
            out[-1].links[int(m.group(1))] = float(speed.group(1)) if speed else None
    return out


NVLINK_COUNTERS = ("replay", "recovery", "crc")
"""The error counters `nvidia-smi nvlink -e` prints per link (Replay, Recovery, CRC Errors)."""


@dataclass
class NvlinkErrors:
    index: int
    links: dict[int, dict[str, int]] = field(default_factory=dict)
    """link -> {'replay': n, 'recovery': n, 'crc': n} (a counter printed N/A is left out)."""


def parse_nvlink_errors(text: str) -> list[NvlinkErrors]:
    """`nvidia-smi nvlink -e`: per GPU and link the Replay, Recovery and CRC error counts
    ('Link 3: CRC Errors: 0'; older drivers split CRC into 'CRC FLIT' and 'CRC Data', summed here)."""
    out: list[NvlinkErrors] = []
    for line in text.splitlines():
        m = re.match(r"^GPU (\d+):", line.strip())
        if m:
            out.append(NvlinkErrors(int(m.group(1))))
            continue
        m = re.match(r"^Link (\d+):\s*(Replay|Recovery|CRC)[A-Za-z ]*?Errors?\s*:\s*(\d+)\s*$", line.strip())
        if m and out:
            counters = out[-1].links.setdefault(int(m.group(1)), {})
            key = m.group(2).lower()
            counters[key] = counters.get(key, 0) + int(m.group(3))
    return out


# ---------------------------------------------------------------- load run


@dataclass
class AfterLoad:
    """The health counters read again after the load (raw `load.after`), parsed by the judge."""

    smi: Any = None
    """SmiReport of `nvidia-smi -q -x` after the load (None: it gave none, see ``smi_error``)."""
    smi_error: str | None = None
    smi_deadline: bool = False
    """nvidia-smi was not run or was stopped because the run's deadline had come."""
    kernel_new: list[str] | None = None
    """Kernel-log lines that appeared during the run (None: the log could not be read after the load)."""
    kernel_error: str | None = None
    aer: dict[str, dict[str, int | None]] = field(default_factory=dict)
    nvlink_errors: str | None = None
    """`nvidia-smi nvlink -e` output after the load (None: not read)."""


@dataclass
class LoadFacts:
    """What a load run produced (procurement.verify.parse.load fills it from the raw facts)."""

    level: str
    tools: dict[str, Any] = field(default_factory=dict)
    after: AfterLoad | None = None
    """The re-read after the load (None: the raw facts have none, e.g. an older collector's)."""

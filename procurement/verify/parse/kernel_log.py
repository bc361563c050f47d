"""The kernel log (`dmesg` / `journalctl -k`): Xid events with NVIDIA's meaning and action, fatal NVRM
lines without an Xid, and the lines a run added."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Literal

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

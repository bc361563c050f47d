"""`nvidia-smi nvlink` output: link status and speed (`-s`) and the error counters (`-e`)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field


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

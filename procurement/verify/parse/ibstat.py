"""`ibstat` output: InfiniBand / RoCE ports."""

from __future__ import annotations

import re

from procurement.verify.parse.infiniband import IbPort


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

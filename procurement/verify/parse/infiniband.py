"""InfiniBand / RoCE ports as `/sys/class/infiniband` lists them (the port type `ibstat` and `ibv_devinfo`
are read into too)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any


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

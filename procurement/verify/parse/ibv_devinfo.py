"""`ibv_devinfo` output: InfiniBand / RoCE ports (the fallback where `ibstat` is not installed)."""

from __future__ import annotations

import re

from procurement.verify.parse.infiniband import IbPort


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

"""`lspci -nn -D` output: the NVIDIA GPUs on the PCI bus."""

from __future__ import annotations

import re

_LSPCI_GPU = re.compile(r"^(\S+)\s+(?:3D|VGA compatible) controller \[030[02]\]:.*\[10de:[0-9a-f]{4}\]", re.I)


def lspci_gpus(text: str) -> list[str]:
    """Bus ids of NVIDIA display/3D controllers in `lspci -nn -D` output."""
    return [m.group(1) for line in text.splitlines() if (m := _LSPCI_GPU.match(line.strip()))]

"""Units of memory and the one place their conversions live.

GPU memory in the catalog is ``memory_gib``: binary gibibytes, how vendors size HBM/GDDR (an "80 GB" H100
has 80 GiB of HBM3). The memory estimate (procurement/sizing) works in decimal GB like the reference
formula, and nvidia-smi reports MiB of which the driver reserves a little (an H100 80 GB shows 81,559 MiB,
not 81,920), so a comparison with a measured figure needs a tolerance (procurement/verify).
"""

from __future__ import annotations

from typing import Final

BYTES_PER_GB: Final = 1_000_000_000
BYTES_PER_GIB: Final = 1024**3
BYTES_PER_MIB: Final = 1024**2

GIB_TO_GB: Final = BYTES_PER_GIB / BYTES_PER_GB
"""1 GiB = 1.073741824 GB."""


def gib_to_gb(gib: float) -> float:
    return gib * GIB_TO_GB


def gb_to_gib(gb: float) -> float:
    return gb / GIB_TO_GB


def mib_to_gib(mib: float) -> float:
    return mib * BYTES_PER_MIB / BYTES_PER_GIB

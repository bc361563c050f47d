"""PCIe AER counters: the sysfs `aer_dev_correctable` / `aer_dev_fatal` / `aer_dev_nonfatal` files."""

from __future__ import annotations

import re


def parse_aer(text: str | None) -> int | None:
    """The total of a sysfs aer_dev_* file ('TOTAL_ERR_COR 3' / 'TOTAL_ERR_FATAL 0'); None if unreadable."""
    if not text:
        return None
    m = re.search(r"^TOTAL_ERR_\w+\s+(\d+)", text, re.MULTILINE)
    if m:
        return int(m.group(1))
    nums = [int(x) for x in re.findall(r"^\S+\s+(\d+)\s*$", text, re.MULTILINE)]
    return sum(nums) if nums else None

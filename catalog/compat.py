"""A Python 3.10 stand-in for ``enum.StrEnum`` (3.11+), so that the core runs on Ubuntu 22.04's system Python."""

from __future__ import annotations

from enum import Enum


class StrEnum(str, Enum):
    """``enum.StrEnum`` (3.11+): members are strings, and ``str()``/``format()`` give the value."""

    def __str__(self) -> str:
        return str(self.value)

    def __format__(self, spec: str) -> str:
        return format(str(self.value), spec)

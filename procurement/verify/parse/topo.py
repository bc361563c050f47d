"""Parses `nvidia-smi topo -m` (TAB-separated or space-aligned) into GPU-to-GPU link types."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_LINK = re.compile(r"^(X|SYS|NODE|PHB|PXB|PIX|NV\d+|NVB|NA|N/A)$")
_TRAILING = ("CPU Affinity", "NUMA Affinity", "GPU NUMA ID")


@dataclass
class Topology:
    devices: list[str]
    """Column names in order: GPU0…, NIC0… or mlx5_N."""
    links: dict[tuple[str, str], str] = field(default_factory=dict)
    """(row device, column device) -> 'NV18', 'SYS', 'PIX', … ('X' on the diagonal is left out)."""
    cpu_affinity: dict[str, str] = field(default_factory=dict)
    numa_affinity: dict[str, str] = field(default_factory=dict)
    nic_names: dict[str, str] = field(default_factory=dict)
    """NIC Legend: 'NIC0' -> 'mlx5_0'."""

    @property
    def gpus(self) -> list[str]:
        return [d for d in self.devices if re.fullmatch(r"GPU\d+", d)]

    def gpu_pairs_without_nvlink(self) -> list[tuple[str, str]]:
        """GPU pairs whose path does not use NVLink (empty: every pair talks over NVLink)."""
        gpus = self.gpus
        out = []
        for i, a in enumerate(gpus):
            for b in gpus[i + 1 :]:
                link = self.links.get((a, b)) or self.links.get((b, a)) or ""
                if not link.startswith("NV"):
                    out.append((a, b))
        return out

    def nvlink_summary(self) -> str | None:
        """'NV18' when every GPU pair shares one NVLink bond type, else None."""
        kinds = {self.links.get((a, b)) for i, a in enumerate(self.gpus) for b in self.gpus[i + 1 :]}
        if len(kinds) == 1:
            kind = next(iter(kinds))
            if kind and kind.startswith("NV"):
                return kind
        return None


class TopoParseError(ValueError):
    """Not a `topo -m` matrix."""


def parse_topo(text: str) -> Topology:
    """Parse the matrix of `nvidia-smi topo -m`; every cell but the header is one word, so splitting on
    whitespace works for both the TAB output and copies where TABs were expanded to spaces."""
    lines = [ln.rstrip("\r") for ln in text.splitlines()]
    header_at = _header_index(lines)
    topo = Topology(devices=_header_devices(lines[header_at]))
    _read_matrix(topo, lines[header_at + 1 :])
    topo.nic_names.update(_nic_legend(lines))
    if not topo.links:
        raise TopoParseError("the matrix has no rows")
    return topo


def _header_index(lines: list[str]) -> int:
    """The header names the columns; a matrix row has 'X' on its diagonal."""
    header_at = next(
        (i for i, ln in enumerate(lines) if re.search(r"\bGPU0\b", ln) and "X" not in ln.split()), None
    )
    if header_at is None:
        raise TopoParseError("no 'GPU0 GPU1 …' header line")
    return header_at


def _header_devices(header: str) -> list[str]:
    """The column names: the header up to its first trailing label (CPU Affinity, …), split on whitespace."""
    cut = len(header)
    for label in _TRAILING:
        pos = header.find(label)
        if pos >= 0:
            cut = min(cut, pos)
    return header[:cut].split()


def _read_matrix(topo: Topology, rows: list[str]) -> None:
    """The matrix rows under the header, up to the first line that is not one (blank lines before the
    first row are skipped; a blank line after it ends the matrix)."""
    for ln in rows:
        cells = ln.split()
        if not cells:
            if topo.links:
                break
            continue
        if cells[0] not in topo.devices:
            break
        _read_row(topo, cells[0], cells[1:])


def _read_row(topo: Topology, row: str, rest: list[str]) -> None:
    """One matrix row: its link cells up to the first that is not a link type, then its affinities."""
    devices = topo.devices
    for col, cell in zip(devices, rest, strict=False):
        if not _LINK.match(cell):
            break
        if cell != "X":
            topo.links[(row, col)] = cell
    extra = rest[len(devices) :]
    if extra:
        topo.cpu_affinity[row] = extra[0]
    if len(extra) > 1:
        topo.numa_affinity[row] = extra[1]


def _nic_legend(lines: list[str]) -> dict[str, str]:
    """The NIC Legend: 'NIC0: mlx5_0' lines anywhere in the text."""
    names: dict[str, str] = {}
    for ln in lines:
        m = re.match(r"^\s*(NIC\d+):\s*(\S+)\s*$", ln)
        if m:
            names[m.group(1)] = m.group(2)
    return names

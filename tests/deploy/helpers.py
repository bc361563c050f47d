"""A plan of the shipped catalog for the cluster tests: the 8× H100 SXM example node, N of them."""

from __future__ import annotations

import re
import socket
from pathlib import Path

from tests.conftest import EXAMPLES


def cluster_plan(directory: Path, nodes: int) -> Path:
    text = (EXAMPLES / "llm-cluster-node.gpuplan.yaml").read_text(encoding="utf-8")
    text, n = re.subn(r"(?m)^  nodes: \d+$", f"  nodes: {nodes}", text)
    assert n == 1
    path = directory / "cluster.gpuplan.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def free_ports(n: int) -> list[int]:
    """``n`` loopback ports free at the moment (the engines' daemons bind them next)."""
    socks = [socket.socket() for _ in range(n)]
    for s in socks:
        s.bind(("127.0.0.1", 0))
    ports = [s.getsockname()[1] for s in socks]
    for s in socks:
        s.close()
    return ports

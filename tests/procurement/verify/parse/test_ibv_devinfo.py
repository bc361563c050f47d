"""procurement/verify/parse/ibv_devinfo.py on a real `ibv_devinfo`
(tests/fixtures/acceptance/ib, sources in its README)."""

from __future__ import annotations

from procurement.verify.parse.ibv_devinfo import parse_ibv_devinfo
from tests.procurement.verify.conftest import ACCEPT


def test_ibv_devinfo_port_states_are_read() -> None:
    ports = parse_ibv_devinfo((ACCEPT / "ib/ibv_devinfo-cx6dx-roce-port-down-deepep-60.txt").read_text())
    assert [(p.device, p.port, p.state, p.link_layer, p.firmware) for p in ports] == [
        ("mlx5_12", "1", "DOWN", "Ethernet", "22.38.1900")]
    assert not ports[0].active

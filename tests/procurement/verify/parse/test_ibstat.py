"""procurement/verify/parse/ibstat.py on real `ibstat` outputs (tests/fixtures/acceptance/ib, sources in its README)."""

from __future__ import annotations

from procurement.verify.parse.ibstat import parse_ibstat
from tests.procurement.verify.conftest import ACCEPT


def test_roce_ports_down_are_read() -> None:
    """The real ibstat of an H100 node with RoCE ports down (gpud test data), read when sysfs is absent."""
    ports = parse_ibstat((ACCEPT / "ib/ibstat-h100-roce-some-down-polling.txt").read_text())
    down = [p.device for p in ports if not p.active]
    assert sorted(down) == ["mlx5_11", "mlx5_5"] and all(p.link_layer == "Ethernet" for p in ports)


def test_every_port_of_an_ib_node_with_its_rate() -> None:
    ib_ok = parse_ibstat((ACCEPT / "ib/ibstat-h100-8x400-ib-all-active.txt").read_text())
    assert sum(1 for p in ib_ok if p.active and p.rate_gbps == 400 and p.link_layer == "InfiniBand") == 8


def test_each_port_carries_its_card_type_and_firmware() -> None:
    """What NIC-FIRMWARE compares: cards of one type (ConnectX-7 is MT4129) should run one firmware."""
    ports = parse_ibstat((ACCEPT / "ib/ibstat-h100-roce-some-down-polling.txt").read_text())
    assert sorted({(p.ca_type, p.firmware) for p in ports}) == [("MT4125", "22.39.1002"), ("MT4129", "28.39.1002")]
    ib = parse_ibstat((ACCEPT / "ib/ibstat-h100-8x400-ib-all-active.txt").read_text())
    assert ("MT4129", "28.41.1000") in {(p.ca_type, p.firmware) for p in ib}

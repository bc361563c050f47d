"""procurement/verify/parse/infiniband.py: ports as /sys/class/infiniband lists them (collected as entries)."""

from __future__ import annotations

from procurement.verify.parse.infiniband import ib_ports_from_sysfs


def test_sysfs_entries_become_ports() -> None:
    entries = [{"device": "mlx5_0", "port": "1", "state": "4: ACTIVE", "rate": "400 Gb/sec (4X NDR)",
                "link_layer": "InfiniBand", "fw_ver": "28.39.1002", "hca_type": "MT4129"},
               {"device": "mlx5_1", "port": "1", "state": "1: DOWN", "rate": "", "link_layer": "Ethernet"},
               "not an entry"]
    up, down = ib_ports_from_sysfs(entries)
    assert (up.device, up.state, up.rate_gbps, up.firmware, up.ca_type, up.active) == (
        "mlx5_0", "ACTIVE", 400.0, "28.39.1002", "MT4129", True)
    assert (down.state, down.rate_gbps, down.link_layer, down.firmware, down.active) == (
        "DOWN", None, "Ethernet", None, False)


def test_missing_fields_read_as_unknown_not_as_up() -> None:
    (port,) = ib_ports_from_sysfs([{}])
    assert (port.device, port.port, port.state, port.link_layer, port.active) == ("?", "?", "?", "InfiniBand", False)

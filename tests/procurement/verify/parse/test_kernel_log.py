"""procurement/verify/parse/kernel_log.py on real kernel logs (tests/fixtures/acceptance/xid, sources in its README)."""

from __future__ import annotations

from procurement.verify.parse.kernel_log import new_lines, parse_kernel_faults, parse_xid, xid_info
from tests.procurement.verify.conftest import ACCEPT

XID = ACCEPT / "xid"


def _lines(name: str) -> list[str]:
    return (XID / name).read_text().splitlines()


def test_xid_events_name_the_bus_and_the_code() -> None:
    dbe = parse_xid(_lines("dmesg-xid48-dbe-63-rowremap-94-contained.log"))
    assert {e.bus for e in dbe} == {"0000:19:00"}
    assert [e.code for e in dbe[:3]] == [48, 63, 94] and len(dbe) == 11
    gsp = parse_xid(_lines("dmesg-xid119-gsp-timeout-dell-xe9680-h100.log"))
    assert [(e.bus, e.code) for e in gsp] == [("0000:9b:00", 119)] * 5
    assert gsp[0].text.startswith("[Sun Feb 23 16:24:18 2025] NVRM: Xid (PCI:0000:9b:00): 119")


def test_fatal_nvrm_lines_without_an_xid() -> None:
    """A GPU fallen off the bus over three lines (the bus on the first) and the probe routine failing."""
    faults = parse_kernel_faults(_lines("dmesg-nvrm-fallen-off-the-bus-without-xid-nvsentinel-155.log"))
    assert [(f.bus, f.kind) for f in faults] == [("0000:b3:00", "bus"), ("?", "init")]
    one_line = parse_kernel_faults(_lines("dmesg-nvrm-gpu-at-has-fallen-off-the-bus-bumblebee-554.log"))
    assert [(f.bus, f.kind) for f in one_line] == [("0000:01:00", "bus")] * 2
    assert parse_kernel_faults(_lines("dmesg-xid119-gsp-timeout-dell-xe9680-h100.log")) == []  # Xid lines: parse_xid's


def test_xid_meaning_and_unknown_codes_are_never_harmless() -> None:
    assert xid_info(48).action == "reset" and xid_info(48).severity == "fail"
    assert xid_info(13).severity == "warn"
    unknown = xid_info(9999)
    assert (unknown.action, unknown.severity) == ("investigate", "fail") and "9999" in unknown.meaning


def test_new_lines_counts_repeated_lines() -> None:
    before = ["a", "b", "b"]
    assert new_lines(before, ["a", "b", "b", "b", "c"]) == ["b", "c"]
    assert new_lines(before, before) == []

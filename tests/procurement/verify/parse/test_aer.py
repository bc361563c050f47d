"""procurement/verify/parse/aer.py: the sysfs aer_dev_* counter files."""

from __future__ import annotations

from procurement.verify.parse.aer import parse_aer


def test_the_total_line_is_read() -> None:
    text = ("RxErr 0\nBadTLP 2\nBadDLLP 1\nRollover 0\nTimeout 0\nNonFatalErr 0\nCorrIntErr 0\nHeaderOF 0\n"
            "TOTAL_ERR_COR 3\n")
    assert parse_aer(text) == 3
    assert parse_aer("TOTAL_ERR_FATAL 0\n") == 0


def test_without_a_total_the_counters_are_summed() -> None:
    """A file without a TOTAL_ERR_ line: its counters are summed."""
    assert parse_aer("Undefined 0\nDLP 1\nSDES 0\nTLP 2\n") == 3


def test_unreadable_is_none_not_zero() -> None:
    assert parse_aer(None) is None
    assert parse_aer("") is None
    assert parse_aer("permission denied") is None

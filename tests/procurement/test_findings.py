"""Findings helpers: how attached verification reports rate for step 5's mark."""

from __future__ import annotations

from procurement.findings import Severity, verification_severity


def test_verification_severity_of_attached_reports() -> None:
    ok = {"checks": [{"status": "pass"}, {"status": "skip"}], "error": None}
    warn = {"checks": [{"status": "warn"}], "error": None}
    fail = {"checks": [{"status": "fail"}, {"status": "fail"}, {"status": "warn"}], "error": None}
    broken = {"checks": [], "error": "nvidia-smi was not found"}
    assert verification_severity([]) == (None, 0)
    assert verification_severity([ok]) == (None, 0)
    assert verification_severity([ok, warn]) == (Severity.WARNING, 0)
    assert verification_severity([warn, fail]) == (Severity.ERROR, 2)
    assert verification_severity([broken]) == (Severity.ERROR, 0)
    assert verification_severity([{"checks": "garbage"}, {"checks": [None, 3]}]) == (None, 0)

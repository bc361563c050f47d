"""Findings helpers: how attached verification reports rate for step 5's mark."""

from __future__ import annotations

import pytest

from procurement.findings import Severity, verification_severity
from procurement.plan import Plan, PlanError, with_value
from procurement.verification_report import VerificationReport


def _report(statuses: list[str], error: str | None = None) -> VerificationReport:
    return VerificationReport.model_validate(
        {"checks": [{"id": f"C{i}", "status": s} for i, s in enumerate(statuses)], "error": error})


def test_verification_severity_of_attached_reports() -> None:
    ok = _report(["pass", "skip"])
    warn = _report(["warn"])
    fail = _report(["fail", "fail", "warn"])
    broken = _report([], "nvidia-smi was not found")
    assert verification_severity([]) == (None, 0)
    assert verification_severity([ok]) == (None, 0)
    assert verification_severity([ok, warn]) == (Severity.WARNING, 0)
    assert verification_severity([warn, fail]) == (Severity.ERROR, 2)
    assert verification_severity([broken]) == (Severity.ERROR, 0)
    assert verification_severity([ok, _report(["unknown"])]) == (Severity.WARNING, 0)  # unknown is not a pass
    # every check skipped: nothing was verified (overall() unknown, exit 3), so step 5's mark is not "ok"
    assert verification_severity([ok, _report(["skip", "skip"])]) == (Severity.WARNING, 0)


def test_a_plans_reports_are_typed_and_checked_as_they_are_read() -> None:
    """Plan.verification holds VerificationReports: garbage, merged cluster reports and raw facts are refused
    with the report's position; an older report version is brought up to the current one."""
    plan = with_value(Plan(), "verification", [{"schema_version": 1, "checks": [{"id": "GPU-COUNT",
                                                                                  "status": "pass"}]}])
    assert isinstance(plan.verification[0], VerificationReport) and plan.verification[0].schema_version == 3
    assert plan.verification_data()[0]["checks"][0]["id"] == "GPU-COUNT"
    for bad, words in (({"schema_version": 3, "checks": "garbage"}, "checks"),
                       ({"schema_version": 3, "kind": "gpu-procure-merged-report", "nodes": []}, "merged"),
                       ({"kind": "gpu-procure-raw"}, "raw facts"), ({"schema_version": 9}, "schema_version")):
        with pytest.raises(PlanError, match=words):
            with_value(Plan(), "verification", [bad])

"""One order of verdicts, worst first, for every place that keeps the worse of two."""

from __future__ import annotations

from itertools import combinations

from procurement.checklist import Status, worse
from procurement.findings import (
    SEVERITY_OF_VERDICT,
    SEVERITY_ORDER,
    VERDICTS_WORST_FIRST,
    Severity,
    verification_severity,
    worst_verdict,
)
from procurement.verify.report import VerificationReport, make_check


def test_checklist_keeps_unknown_over_attention_as_verify_does() -> None:
    # a warning is a decided pass with a caveat; an unknown may hide a failure (the checklist had it the
    # other way round, so one item read 'attention' where the verify report said 'unknown')
    assert worse(Status.UNKNOWN, Status.ATTENTION) == Status.UNKNOWN
    assert worse(Status.ATTENTION, Status.UNKNOWN) == Status.UNKNOWN
    assert worse(Status.FAIL, Status.UNKNOWN) == Status.FAIL
    assert worse(Status.CONFIRMED, Status.PASS) == Status.CONFIRMED
    assert worse(Status.ATTENTION, Status.CONFIRMED) == Status.ATTENTION


def _report(*statuses: str, error: str | None = None) -> VerificationReport:
    return VerificationReport(checks=[make_check(f"C-{i}", s, "") for i, s in enumerate(statuses)],  # type: ignore[arg-type]
                              error=error)


def test_an_unknown_check_marks_step_five() -> None:
    assert verification_severity([_report("pass", "unknown")]) == (Severity.WARNING, 0)
    assert verification_severity([_report("skip", "pass")]) == (None, 0)
    assert verification_severity([_report("warn", "fail")]) == (Severity.ERROR, 1)
    assert verification_severity([_report(error="nvidia-smi missing")]) == (Severity.ERROR, 0)


def test_every_ordering_agrees_with_the_one_order() -> None:
    for n in range(1, 4):
        for combo in combinations(VERDICTS_WORST_FIRST, n):
            report = VerificationReport(checks=[make_check("GPU-COUNT", s, "") for s in combo])  # type: ignore[arg-type]
            expected = worst_verdict(combo)
            assert report.overall() == ("unknown" if expected == "skip" else expected), combo
    assert sorted(SEVERITY_ORDER, key=SEVERITY_ORDER.__getitem__) == [
        SEVERITY_OF_VERDICT[v] for v in ("fail", "warn", "pass")]

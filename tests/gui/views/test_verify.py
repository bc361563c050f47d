"""Step 5's presenter: node rows, their verdicts, marks and problems, decided once and without Qt."""

from __future__ import annotations

from gui.views.verify import MARKS, missing_row, node_row
from procurement.verification_report import HostRecord, VerificationReport, make_check


def _report(*statuses: str, error: str | None = None, host: str | None = "gpu01") -> VerificationReport:
    return VerificationReport(host=HostRecord(hostname=host, os="Ubuntu 24.04"), driver_version="580.105.08",
                              checks=[make_check(f"C-{i}", s, "") for i, s in enumerate(statuses)],  # type: ignore[arg-type]
                              error=error)


def test_a_report_whose_every_check_was_skipped_is_unknown_never_a_tick() -> None:
    """The page decided this itself and showed ✔: nothing was verified (overall() unknown, exit status 3)."""
    report = _report("skip", "skip")
    row = node_row(0, report)
    assert report.overall() == "unknown" and report.exit_code() == 3
    assert row.verdict == "unknown" and row.mark == MARKS["unknown"] == "?"
    assert row.problem == "nothing_verified" and row.counts == (0, 0, 0)
    assert node_row(0, _report()).verdict == "unknown"  # no checks at all: nothing verified either


def test_the_verdict_is_the_reports_own() -> None:
    for statuses in (("pass",), ("pass", "skip"), ("pass", "warn"), ("warn", "unknown"), ("fail", "unknown"),
                     ("skip", "fail")):
        report = _report(*statuses)
        assert node_row(3, report).verdict == report.overall(), statuses


def test_the_problem_names_what_keeps_the_node_from_passing() -> None:
    failing = node_row(1, _report("pass", "fail", "warn", "fail"))
    assert (failing.verdict, failing.problem, failing.detail) == ("fail", "checks", "C-1, C-3")
    assert failing.counts == (1, 2, 1) and failing.index == 1 and failing.node == "gpu01"
    undecided = node_row(0, _report("pass", "unknown", "skip"))
    assert (undecided.verdict, undecided.detail) == ("unknown", "C-1, C-2")
    warned = node_row(0, _report("pass", "warn"))
    assert (warned.verdict, warned.detail, warned.mark) == ("warn", "C-1", "⚠")
    passed = node_row(0, _report("pass", "skip"))
    assert (passed.verdict, passed.problem, passed.detail, passed.mark) == ("pass", "", "", "✔")
    broken = node_row(0, _report("pass", error="nvidia-smi not found"))
    assert (broken.verdict, broken.problem, broken.detail) == ("unknown", "error", "nvidia-smi not found")
    assert node_row(0, _report("pass", host=None)).node is None  # the page says "(unknown host)"


def test_a_planned_node_without_a_report() -> None:
    row = missing_row("gpu07")
    assert (row.index, row.node, row.verdict, row.problem, row.mark) == (None, "gpu07", "missing", "missing", "…")

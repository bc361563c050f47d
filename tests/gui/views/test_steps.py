"""The step list's marks: the core's step status, and which evaluation stands for the plan on screen."""

from __future__ import annotations

from gui.views.steps import step_marks
from procurement.evaluation import evaluate
from procurement.plan import load_plan, with_value
from procurement.verification_report import HostRecord, VerificationReport, make_check
from tests.conftest import EXAMPLES


def _with_report(plan, *statuses: str):
    report = VerificationReport(host=HostRecord(hostname="gpu01"),
                                checks=[make_check(f"C-{i}", s, "") for i, s in enumerate(statuses)])  # type: ignore[arg-type]
    return with_value(plan, "verification", [report.model_dump(mode="json")])


def test_step_5_is_not_ok_when_the_report_verified_nothing(catalog, policy) -> None:
    plan = load_plan(EXAMPLES / "mid-size-training.gpuplan.yaml", catalog)
    passed = _with_report(plan, "pass", "skip")
    skipped = _with_report(plan, "skip", "skip")
    failed = _with_report(plan, "pass", "fail", "fail")
    base = step_marks(passed, evaluate(passed, catalog, policy, "en"), ())[5]
    assert step_marks(skipped, evaluate(skipped, catalog, policy, "en"), ())[5].state == "warning"
    mark = step_marks(failed, evaluate(failed, catalog, policy, "en"), ())[5]
    assert mark.state == "error" and mark.failed_checks == 2
    assert (base.state, base.failed_checks) == ("ok", None)  # a report that passed gives no failed-check count


def test_a_plan_edited_since_the_evaluation_is_marked_from_its_own_status(catalog, policy) -> None:
    plan = load_plan(EXAMPLES / "mid-size-training.gpuplan.yaml", catalog)
    evaluation = evaluate(plan, catalog, policy, "en")
    assert {s: m.state for s, m in step_marks(plan, evaluation, ()).items()} == {
        s: st.state for s, st in evaluation.steps.items()}
    edited = _with_report(plan, "pass", "fail")
    marks = step_marks(edited, evaluation, evaluation.findings)  # the old evaluation is not of this plan
    assert marks[5].state == "error" and marks[5].failed_checks == 1

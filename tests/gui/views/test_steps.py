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


def test_step_4_is_not_ok_for_an_image_whose_contents_are_unknown(catalog, policy) -> None:
    """PyTorch 2.1 on NGC 23.05 had step 4's ✓ although the catalog records neither the image's CUDA, its driver
    floor nor the PyTorch inside; an image with recorded contents gets it."""
    plan = load_plan(EXAMPLES / "mid-size-training.gpuplan.yaml", catalog)
    mark = step_marks(plan, evaluate(plan, catalog, policy, "en"), ())[4]
    assert mark.state == "warning" and mark.findings >= 1
    known = with_value(plan, "software.image", "pytorch-2.1.0-cuda12.1-runtime")
    assert step_marks(known, evaluate(known, catalog, policy, "en"), ())[4].state == "ok"

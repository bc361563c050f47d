"""LIC-EXPORT-TPP: a GPU without an export note whose total processing performance is at least ECCN 3A090.a's
4800 (bounded below by dense FP16 TFLOPS × 16) needs a US licence for China, and step 2 does not rank it first."""

from __future__ import annotations

import pytest

from catalog.loader import load_catalog
from catalog.models import Gpu
from procurement.findings import Severity
from procurement.policy import default_policy
from procurement.rules import evaluate_family, licensing
from procurement.rules.licensing import TPP_LICENCE, tpp_lower_bound
from tests.procurement.rules.test_rules_parts import plan_of

CAT = load_catalog()


def _found(gpu: str, lang: str = "en") -> dict[str, str]:
    plan = plan_of(requirements={"deployment": "lab"}, gpu={"model": gpu, "count": 1})
    return {f.rule: f.message for f in evaluate_family(licensing, plan, CAT, default_policy(), lang)}


@pytest.mark.parametrize("gpu", ["h200-sxm-141gb", "h200-nvl-141gb", "b200", "b300"])
def test_a_model_without_a_note_above_the_limit_needs_a_licence(gpu: str) -> None:
    found = _found(gpu)
    assert set(found) == {"LIC-EXPORT-TPP"}
    g = CAT.gpu(gpu)
    assert g is not None and g.fp16_tensor_tflops is not None
    tpp = int(g.fp16_tensor_tflops * 16)
    assert f"{tpp} or more" in found["LIC-EXPORT-TPP"] and "3A090.a" in found["LIC-EXPORT-TPP"]
    assert "美国出口许可证" in _found(gpu, "zh")["LIC-EXPORT-TPP"]


def test_the_h200_sxm_bound_is_its_dense_fp16_rate_times_16() -> None:
    h200 = CAT.gpu("h200-sxm-141gb")
    assert h200 is not None and tpp_lower_bound(h200) == 989 * 16 == 15_824  # NVIDIA: 989 dense FP16 TFLOPS


@pytest.mark.parametrize("gpu", ["l20", "h20-96gb", "rtx-4080-16gb", "l4"])
def test_models_below_the_bound_get_no_tpp_finding(gpu: str) -> None:
    assert "LIC-EXPORT-TPP" not in _found(gpu)


def test_the_bound_agrees_with_every_note_in_the_catalog() -> None:
    """Where the catalog states the export status, the bound never contradicts it: a China-market model sold
    there is below 4800, and every model at or above 4800 with a note is one the note says is blocked."""
    for g in CAT.all(Gpu):
        tpp = tpp_lower_bound(g)
        if tpp is None:
            continue
        if g.market == "china" and g.blocked_for_china is not True:
            assert tpp < TPP_LICENCE, g.id
        if tpp >= TPP_LICENCE and (g.export_note or g.export_note_zh):
            assert g.blocked_for_china is True, g.id


def test_a_user_catalog_model_with_no_fp16_rate_is_not_judged() -> None:
    from tests.procurement.rules.test_rules_parts import make_catalog

    h200 = CAT.gpu("h200-sxm-141gb")
    assert h200 is not None
    unknown = h200.model_copy(update={"id": "h200-site", "fp16_tensor_tflops": None})
    plan = plan_of(requirements={"deployment": "lab"}, gpu={"model": "h200-site", "count": 1})
    found = evaluate_family(licensing, plan, make_catalog(unknown), default_policy(), "en")
    assert [f.rule for f in found] == []


def test_the_finding_is_a_warning_that_step_2_treats_as_excluding() -> None:
    from procurement.choices import _excludes

    plan = plan_of(requirements={"deployment": "lab"}, gpu={"model": "b200", "count": 1})
    (finding,) = evaluate_family(licensing, plan, CAT, default_policy(), "en")
    b200 = CAT.gpu("b200")
    assert finding.severity == Severity.WARNING and b200 is not None and _excludes(finding, b200)

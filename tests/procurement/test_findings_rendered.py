"""Findings store codes: one evaluation, rendered later in each language, says exactly what the evaluation
in that language says (the snapshot's cases), and the text does not depend on the evaluation's language."""

from __future__ import annotations

import pytest

from procurement.rules import evaluate
from tests.procurement.test_findings_snapshot import CASES


@pytest.mark.parametrize("name", sorted(CASES))
def test_one_evaluation_renders_in_every_language(name: str) -> None:
    plan, catalog = CASES[name]()
    once = evaluate(plan, catalog)
    for lang in ("zh", "en"):
        direct = evaluate(plan, catalog, None, lang)
        assert [f.model_dump(mode="json") for f in direct] == [f.shown(lang).model_dump(mode="json") for f in once]
        assert [(f.message_text(lang), f.fix_text(lang)) for f in once] == [(f.message, f.fix) for f in direct]
        assert [f.params for f in direct] == [f.params for f in once]  # what waivers compare: one value


def test_a_finding_made_from_text_reads_the_same_in_every_language() -> None:
    from procurement.findings import Finding, Severity

    f = Finding.of_text("x 1", "y", rule="PCIE-GEN", family="pcie", severity=Severity.INFO, step=3)
    assert (f.message_text("zh"), f.fix_text("en"), f.model_dump()["message"]) == ("x 1", "y", "x 1")
    assert hash(f) == hash(f.model_copy())  # the GUI counts equal findings once

"""A plan file cut off in the middle is refused with the line where it ends, never opened with defaults."""

from __future__ import annotations

from pathlib import Path

import pytest

from procurement.plan import PLAN_FILE_END, PlanError, load_plan, save_plan
from tests.conftest import EXAMPLES


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_plan_cut_after_any_line_is_refused(tmp_path: Path, catalog, lang: str) -> None:
    plan = load_plan(EXAMPLES / "mid-size-training.gpuplan.yaml", catalog)
    whole = tmp_path / "whole.gpuplan.yaml"
    save_plan(plan, whole)
    lines = whole.read_text(encoding="utf-8").splitlines(keepends=True)
    assert load_plan(whole, catalog) == plan
    cut = tmp_path / "cut.gpuplan.yaml"
    # cut after every tenth complete line (a copy that stopped there): each one parses as YAML
    for n in range(2, len(lines) - 1, 10):
        cut.write_text("".join(lines[:n]), encoding="utf-8")
        with pytest.raises(PlanError) as err:
            load_plan(cut, catalog, lang)
        assert f"cut.gpuplan.yaml:{n}:" in str(err.value)
        assert PLAN_FILE_END.strip() in str(err.value)
    # cut inside a line too
    cut.write_text("".join(lines)[: len("".join(lines)) // 2], encoding="utf-8")
    with pytest.raises(PlanError, match="cut off" if lang == "en" else "不完整"):
        load_plan(cut, catalog, lang)


def test_hand_written_plans_need_no_end_line(tmp_path: Path, catalog) -> None:
    handmade = tmp_path / "hand.gpuplan.yaml"
    handmade.write_text("schema_version: 9\nrequirements:\n  nodes: 2\n", encoding="utf-8")
    assert load_plan(handmade, catalog).requirements.nodes == 2

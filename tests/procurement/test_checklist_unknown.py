"""A checklist item never passes over an unknown it rests on (checklist, its PDF, in both languages)."""

from __future__ import annotations

import io
import re

import pytest
from pypdf import PdfReader

from catalog.loader import Catalog
from procurement.checklist import Status, build_checklists, confirm, states_unknown
from procurement.evaluation import evaluate
from procurement.plan import Plan, load_plan
from procurement.rules.registry import items_for_finding
from tests.conftest import EXAMPLES

EXAMPLE_NAMES = sorted(p.name for p in EXAMPLES.glob("*.gpuplan.yaml"))


def _unknown_items(plan: Plan, catalog: Catalog, lang: str) -> dict[str, list[str]]:
    """item id -> the rules of `check` that say something it rests on is unknown."""
    out: dict[str, list[str]] = {}
    for f in evaluate(plan, catalog, lang=lang).findings:
        if states_unknown(f) and f.waived is None:
            for item in items_for_finding(f):
                out.setdefault(item, []).append(f.rule)
    return out


@pytest.mark.parametrize("example", EXAMPLE_NAMES)
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_no_item_passes_over_an_unknown_that_check_reports(example: str, lang: str, catalog: Catalog) -> None:
    plan = load_plan(EXAMPLES / example, catalog)
    unknown = _unknown_items(plan, catalog, lang)
    items = {i.id: i for cl in build_checklists(plan, catalog, lang=lang).values() for i in cl.items}
    for item_id, rules in unknown.items():
        assert items[item_id].status in (Status.UNKNOWN, Status.FAIL), (item_id, rules, items[item_id].status)


def test_the_cases_of_the_report(catalog: Catalog) -> None:
    """The cluster example printed 散热方案合理 通过 with airflow and fan redundancy unknown; dl-training printed
    power 通过 with the CPUs' wattage unknown and left out of the sum."""
    cluster = load_plan(EXAMPLES / "llm-cluster-node.gpuplan.yaml", catalog)
    cooling = next(i for i in build_checklists(cluster, catalog, lang="zh")["hardware"].items if i.id == "cooling")
    assert cooling.status == Status.UNKNOWN
    assert "未知" in cooling.reason and "风量" in cooling.reason
    dl = load_plan(EXAMPLES / "dl-training-platform.gpuplan.yaml", catalog)
    power = next(i for i in build_checklists(dl, catalog, lang="en")["hardware"].items if i.id == "psu_power")
    assert power.status == Status.UNKNOWN
    assert "AMD EPYC 7B13" in power.reason and "not counted" in power.reason


def test_a_named_confirmation_lifts_an_unknown_to_confirmed_never_to_pass(catalog: Catalog) -> None:
    cluster = load_plan(EXAMPLES / "llm-cluster-node.gpuplan.yaml", catalog)
    confirmed = confirm(cluster, "cooling", "Li Wei", "vendor letter: 4,500 CFM, N+1 fans", "en")
    cooling = next(i for i in build_checklists(confirmed, catalog, lang="en")["hardware"].items if i.id == "cooling")
    assert cooling.status == Status.CONFIRMED
    assert "confirmed by Li Wei: vendor letter" in cooling.reason


def _rows(pdf: bytes) -> str:
    return "\n".join(page.extract_text() or "" for page in PdfReader(io.BytesIO(pdf)).pages)


@pytest.mark.parametrize("example", EXAMPLE_NAMES)
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_checklist_pdf_prints_no_pass_beside_an_unknown(example: str, lang: str, catalog: Catalog) -> None:
    from procurement.messages import t
    from procurement.reports.checklist_pdf import render_checklist_pdf

    plan = load_plan(EXAMPLES / example, catalog)
    unknown = _unknown_items(plan, catalog, lang)
    items = {i.id: i for cl in build_checklists(plan, catalog, lang=lang).values() for i in cl.items}
    text = re.sub(r"\s+", "", _rows(render_checklist_pdf(plan, catalog, lang=lang)))
    passed, unknown_word = t("checklist.status.pass", lang), t("checklist.status.unknown", lang)
    for item_id in unknown:
        label = re.sub(r"\s+", "", items[item_id].label)
        at = text.find(label)
        assert at >= 0, label
        after = text[at + len(label): at + len(label) + 40]
        if items[item_id].person:  # the label's "(person's judgement)" line comes before the status
            after = after.removeprefix(re.sub(r"\s+", "", t("clpdf.person", lang)))
        assert not after.startswith(passed), (item_id, after)
        assert after.startswith(unknown_word) or after.startswith(t("checklist.status.fail", lang)), (item_id, after)


@pytest.mark.parametrize("example", EXAMPLE_NAMES)
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_acceptance_sheet_lists_every_unknown_item_as_unknown(example: str, lang: str,
                                                                  catalog: Catalog) -> None:
    from procurement.messages import t
    from procurement.reports.acceptance_pdf import render_acceptance_pdf

    plan = load_plan(EXAMPLES / example, catalog)
    unknown = _unknown_items(plan, catalog, lang)
    items = {i.id: i for cl in build_checklists(plan, catalog, lang=lang).values() for i in cl.items}
    text = re.sub(r"\s+", "", _rows(render_acceptance_pdf(plan, catalog, lang=lang)))
    manual = text.split(re.sub(r"\s+", "", t("acc.manual", lang)), 1)[1]
    for item_id in unknown:
        label = re.sub(r"\s+", "", items[item_id].label)
        at = manual.find(label)
        assert at >= 0, (item_id, label)
        after = manual[at + len(label): at + len(label) + 12]
        assert not after.startswith(t("checklist.status.pass", lang)), (item_id, after)

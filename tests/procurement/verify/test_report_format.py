"""The report format: its JSON Schema in the repo, old versions migrated, codes rendered in the reader's
language, and the declared check registry matching docs/verify.md."""

from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema
import pytest

from catalog.loader import Catalog
from procurement.plan import Plan
from procurement.verify.checks import CHECKS
from procurement.verify.probe import report_from_outputs
from procurement.verify.render import check_message, render_report
from procurement.verify.report import (
    SCHEMA_VERSION,
    VerificationReport,
    load_report,
    migrate_report,
    parse_report,
    report_to_dict,
)
from tests.conftest import REPO
from tests.procurement.verify.conftest import H100_TOPO, H100_XML, T4_XML, h100_plan, healthy, make_catalog

SCHEMA = REPO / "docs" / "schemas" / "verification-report.schema.json"
V1 = REPO / "tests" / "fixtures" / "verify" / "report-v1-8x-h100.json"
DOC = REPO / "docs" / "verify.md"


def _schema() -> dict:
    return json.loads(SCHEMA.read_text(encoding="utf-8"))


def test_the_shipped_schema_is_the_models_schema() -> None:
    """docs/schemas/verification-report.schema.json is what the model validates (regenerate it with
    `python -c "from procurement.verify.report import schema_text; print(schema_text(), end='')"`)."""
    from procurement.verify.report import schema_text

    assert SCHEMA.read_text(encoding="utf-8") == schema_text()


@pytest.mark.parametrize(("xml", "plan"), [(H100_XML, h100_plan()), (T4_XML, None)])
def test_reports_validate_against_the_schema(vcat: Catalog, xml: Path, plan: Plan | None) -> None:
    text = xml.read_text()
    rep = report_from_outputs(text, vcat, plan, "en", None, H100_TOPO.read_text(), healthy(text))
    data = json.loads(json.dumps(report_to_dict(rep)))
    jsonschema.validate(data, _schema())
    assert data["status"] == rep.overall() and data["schema_version"] == SCHEMA_VERSION
    broken = dict(data, checks=[dict(data["checks"][0], status="maybe")])
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(broken, _schema())


def test_a_version_1_report_still_opens_and_is_migrated() -> None:
    raw = json.loads(V1.read_text())
    assert raw["schema_version"] == 1 and "kind" not in raw
    rep = load_report(V1)
    assert rep.schema_version == 3 and rep.kind == "gpu-procure-report"
    assert rep.host.hostname == "node01" and len(rep.gpus) == 8
    assert rep.check("GPU-COUNT") is not None and rep.check("GPU-COUNT").code is None  # type: ignore[union-attr]
    # a check without a code keeps the text it was written with
    c = rep.check("PCIE-WIDTH")
    assert c is not None and check_message(c, "zh") == c.message
    jsonschema.validate(json.loads(rep.model_dump_json()), _schema())
    assert migrate_report(raw) is not raw and raw["schema_version"] == 1  # the input is left alone


def test_messages_are_stored_as_codes_and_rendered_in_the_readers_language(vcat: Catalog) -> None:
    text = T4_XML.read_text()
    rep = report_from_outputs(text, vcat, h100_plan(gpu__model="t4", gpu__count=1), "en", None, None, healthy(text))
    width = rep.check("PCIE-WIDTH")
    assert width is not None and width.code == "verify.pcie_width.fail" and "which" in width.params
    again = parse_report(json.loads(json.dumps(report_to_dict(rep))))
    zh = check_message(again.check("PCIE-WIDTH"), "zh")  # type: ignore[arg-type]
    assert zh != width.message and "GPU0 (00000000:00:1E.0) x8 (max x16)" in zh
    assert re.search(r"[\u4e00-\u9fff]", zh)
    assert "[失败] PCIE-WIDTH" in render_report(again, "zh")


def _doc_check_ids() -> list[str]:
    """The ids in the first column of docs/verify.md's check tables (`A-B`, `C`, …)."""
    text = DOC.read_text(encoding="utf-8")
    section = text[text.index("## Checks"):text.index("## The JSON report")]
    ids: list[str] = []
    for line in section.splitlines():
        if line.startswith("| `"):
            first = line.split("|")[1]
            ids += re.findall(r"`([A-Z0-9]+(?:-[A-Z0-9]+)*)`", first)
    return ids


def test_docs_table_lists_exactly_the_declared_checks() -> None:
    documented = _doc_check_ids()
    assert len(documented) == len(set(documented)), "a check documented twice"
    assert set(documented) == set(CHECKS), (set(documented) ^ set(CHECKS))
    assert documented == list(CHECKS)  # the table is in report order


def test_every_declared_check_reports_once(vcat: Catalog) -> None:
    """One record per declared check (or none where the plan does not ask for it), never an undeclared id."""
    text = H100_XML.read_text()
    rep: VerificationReport = report_from_outputs(text, vcat, h100_plan(), "en", None, H100_TOPO.read_text(),
                                                  healthy(text))
    ids = [c.id for c in rep.checks]
    assert len(ids) == len(set(ids))
    assert set(ids) <= set(CHECKS)
    not_asked = {"DRIVER-BRANCH", "BENCHMARK"} | {k for k, spec in CHECKS.items() if spec.family == "load"}
    assert set(CHECKS) - set(ids) == not_asked  # not planned / not asked for


def test_expected_and_actual_values_are_rendered_in_the_readers_language(tmp_path: Path) -> None:
    """A report written in English is read in Chinese: its Expected/Actual values come from their codes
    ('Enabled' → '已启用'), in the terminal table, the checklist and the step-5 rows alike; values that are the
    same in every language (numbers, versions) stay plain text without a code."""
    from procurement.checklist import build_checklists
    from procurement.verify.render import render_report, values_of
    from procurement.verify.report import write_report

    xml = H100_XML.read_text().replace("<persistence_mode>Enabled</persistence_mode>",
                                       "<persistence_mode>Disabled</persistence_mode>", 1)
    rep = report_from_outputs(xml, make_catalog(), h100_plan(), "en", topo_text=H100_TOPO.read_text())
    out = tmp_path / "node.json"
    write_report(rep, out)
    stored = json.loads(out.read_text(encoding="utf-8"))
    persist = next(c for c in stored["checks"] if c["id"] == "PERSISTENCE")
    assert persist["expected"] == "Enabled" and persist["expected_code"] == "verify.val.enabled"
    assert persist["actual"] == "Disabled: GPU0" and persist["actual_params"] == {"gpus": "GPU0"}
    count = next(c for c in stored["checks"] if c["id"] == "GPU-COUNT")
    assert count["expected_code"] is None and count["expected"] == "8"  # a number needs no code
    loaded = load_report(out)
    assert values_of(loaded.check("PERSISTENCE"), "zh") == ("已启用", "已禁用：GPU0")
    assert "已禁用：GPU0" in render_report(loaded, "zh")
    assert values_of(persist, "zh") == ("已启用", "已禁用：GPU0")  # as stored in a plan (a JSON object)
    # the checklist of a plan holding the English report shows the machine's values in Chinese
    from procurement.plan import with_value

    plan = with_value(h100_plan(), "verification", [stored])
    lists = build_checklists(plan, make_catalog(), lang="zh")
    texts = " ".join(str(i.verified) for cl in lists.values() for i in cl.items)
    assert "已禁用：GPU0" in texts and "Disabled: GPU0" not in texts
    # a version-2 report (values stored as text only) is shown as written
    old = dict(persist, expected_code=None, actual_code=None)
    assert values_of(old, "zh") == ("Enabled", "Disabled: GPU0")

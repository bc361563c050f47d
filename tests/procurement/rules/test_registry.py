"""The rule registry: each id declared once with step, item and doc section, and the code, docs and
checklist agree with it."""

from __future__ import annotations

import inspect
import json
import re
from pathlib import Path

import pytest

import procurement.rules  # noqa: F401  (registers every rule)
from procurement import checklist
from procurement.findings import Finding
from procurement.messages import MESSAGES
from procurement.rules.registry import RULE_FUNCTIONS, RULES_BY_ID, items_for_finding

REPO = Path(__file__).resolve().parents[3]
DOC = (REPO / "docs" / "rules.md").read_text(encoding="utf-8")
SNAPSHOT = Path(__file__).parents[1] / "data" / "findings_snapshot.json"


def doc_sections() -> dict[str, set[str]]:
    """Anchor → the rule ids in the tables of its section."""
    out: dict[str, set[str]] = {}
    for chunk in re.split(r'^<a id="', DOC, flags=re.M)[1:]:
        anchor, _, body = chunk.partition('"')
        body = body.split("\n## ", 2)
        text = "\n## ".join(body[:2])
        out[anchor] = set(re.findall(r"^\| ([A-Z0-9]+(?:-[A-Z0-9]+)+) \|", text, flags=re.M))
    return out


def test_every_rule_function_is_declared_and_every_declaration_runs() -> None:
    declared = {spec.function for spec in RULES_BY_ID.values()}
    runs = {f"{r.function.__module__}.{r.function.__name__}" for r in RULE_FUNCTIONS}
    assert declared == runs
    assert len(runs) == len(RULE_FUNCTIONS)  # each function once, however many @rule it has
    assert {i for r in RULE_FUNCTIONS for i in r.ids} == set(RULES_BY_ID)


def test_no_rule_knows_the_language() -> None:
    """Rules are (plan, catalog, policy): a finding stores codes and is rendered in a language when shown."""
    import inspect

    for registered in RULE_FUNCTIONS:
        params = list(inspect.signature(registered.function).parameters)
        assert params == ["plan", "catalog", "policy"], f"{registered.function.__qualname__}: {params}"


def test_every_rule_with_a_message_is_declared() -> None:
    with_message = {k.removesuffix(".message") for k in MESSAGES if k.endswith(".message") and k[:1].isupper()}
    assert with_message == set(RULES_BY_ID)


def test_ids_appear_in_the_function_that_declares_them() -> None:
    for spec in RULES_BY_ID.values():
        module, _, name = spec.function.rpartition(".")
        source = inspect.getsource(getattr(__import__(module, fromlist=[name]), name))
        assert f'"{spec.id}"' in source.split("\ndef ", 1)[1], spec.id


def test_docs_describe_each_rule_in_its_declared_section() -> None:
    sections = doc_sections()
    for spec in RULES_BY_ID.values():
        path, _, anchor = spec.doc.partition("#")
        assert path == "docs/rules.md" and anchor in sections, spec.doc
        assert spec.id in sections[anchor], f"{spec.id} is not in the section {spec.doc}"
    documented = set().union(*sections.values())
    assert documented == set(RULES_BY_ID)


def test_items_are_checklist_items_and_every_checklist_rule_item_has_a_rule() -> None:
    items = {spec.item for spec in RULES_BY_ID.values() if spec.item}
    items |= {i for spec in RULES_BY_ID.values() for i in spec.item_by_field.values()}
    assert items <= set(checklist.ITEM_IDS)
    # the trusted-image item used to wait for a finding no rule produced ("TRUST" in the id)
    assert "image_trusted" in items


@pytest.mark.parametrize("name", sorted(json.loads(SNAPSHOT.read_text(encoding="utf-8"))))
def test_findings_carry_their_declared_step_and_family(name: str) -> None:
    for data in json.loads(SNAPSHOT.read_text(encoding="utf-8"))[name]["en"]:
        f = Finding.of_text(**data)  # the serialised form: rule, family, severity, step, fields and texts
        spec = RULES_BY_ID[f.rule]
        assert (f.step, f.family) == (spec.step, spec.family), f.rule
        assert items_for_finding(f) == spec.items(f)


def test_an_untrusted_image_gets_its_finding_on_the_trusted_image_item() -> None:
    from catalog.loader import load_catalog
    from procurement.plan import load_plan
    from procurement.rules import evaluate

    data = Path(__file__).parents[1] / "data"
    cat = load_catalog(data_dir=data / "reports_catalog")
    plan = load_plan(data / "reports_plan.gpuplan.yaml", cat)
    assert "SW-IMAGE-UNTRUSTED" not in {f.rule for f in evaluate(plan, cat, None, "en")}
    plan = plan.model_copy(update={"software": plan.software.model_copy(update={"image": "random-pytorch"})})
    found = [f for f in evaluate(plan, cat, None, "en") if f.rule == "SW-IMAGE-UNTRUSTED"]
    assert len(found) == 1 and found[0].severity == "warning" and found[0].step == 4
    assert "someone on Docker Hub" in found[0].message
    assert items_for_finding(found[0]) == {"image_trusted"}
    marks = {i.id: i for i in checklist.build_checklists(plan, cat, found, None, "en")["software"].items}
    assert "SW-IMAGE-UNTRUSTED" in marks["image_trusted"].rules


def test_a_rule_names_its_step_once_in_its_declaration() -> None:
    """make() takes the family and the step from @rule: the rule modules no longer repeat them."""
    import ast
    import inspect

    from procurement.findings import Severity
    from procurement.rules.base import make

    f = make("POWER-PSU-REDUNDANCY", Severity.ERROR, ("server.psu.count",), **_psu_count_fields())
    assert (f.step, f.family) == (RULES_BY_ID["POWER-PSU-REDUNDANCY"].step, "power")
    with pytest.raises(KeyError):
        make("POWER-NOT-DECLARED", Severity.ERROR, ())
    from procurement.rules import balance, budget, cooling, licensing, pcie, power, software, vram

    for module in (balance, budget, cooling, licensing, pcie, power, software, vram):
        for node in ast.walk(ast.parse(inspect.getsource(module))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "make":
                assert len(node.args) == 3, f"{module.__name__}:{node.lineno}: make(rule, severity, fields)"


def _psu_count_fields() -> dict[str, object]:
    from procurement.messages import MESSAGES, english, fields_of

    source = english("POWER-PSU-REDUNDANCY.message")
    text = source if isinstance(source, str) else source.other
    assert "POWER-PSU-REDUNDANCY.message" in MESSAGES
    return {name: 2 for name in fields_of(text) | (fields_of(str(english("POWER-PSU-REDUNDANCY.fix")))
                                                  if "POWER-PSU-REDUNDANCY.fix" in MESSAGES else set())}

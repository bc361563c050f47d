"""Every field a sign-off can mention has a label in every language, so the void reason is always printable."""

from __future__ import annotations

import datetime as dt
import shutil
import subprocess
import sys
import time
import types
import typing
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from catalog.loader import Catalog
from procurement.messages import MESSAGES, languages, t, translated
from procurement.plan import EnteredPrice, Plan, load_plan
from procurement.signoff import (
    SignoffState,
    current_content,
    diff_in_words,
    field_label,
    model_field_path,
    sign,
    signoff_findings,
    signoff_status,
)
from tests.conftest import EXAMPLES

REPO = Path(__file__).resolve().parents[2]
NOT_SIGNED = {
    "schema_version": "the file format, not a decision",
    "signoffs": "a sign-off does not sign itself",
    "verification": "a report is signed whole, by its digest (field.report)",
}
"""Fields of the plan that no sign-off content ever lists field by field, and why."""


def _unwrap(annotation: Any) -> Any:
    while True:
        origin = typing.get_origin(annotation)
        if origin is typing.Annotated:
            annotation = typing.get_args(annotation)[0]
        elif origin in (typing.Union, types.UnionType):
            args = [a for a in typing.get_args(annotation) if a is not type(None)]
            if len(args) != 1:
                return annotation
            annotation = args[0]
        else:
            return annotation


def _is_model(a: Any) -> bool:
    return isinstance(a, type) and issubclass(a, BaseModel)


def walk(model: type[BaseModel], schema: str = "", content: str = "", depth: int = 0) -> list[tuple[str, str]]:
    """(path in the model, a content path for it with sample dict keys and list positions) for every field."""
    out: list[tuple[str, str]] = []
    for name, info in model.model_fields.items():
        if not schema and name in NOT_SIGNED:
            continue
        s, c = f"{schema}.{name}" if schema else name, f"{content}.{name}" if content else name
        out.append((s, c))
        a = _unwrap(info.annotation)
        origin = typing.get_origin(a)
        if _is_model(a):
            out += walk(a, s, c, depth)
        elif origin is list and _is_model(item := _unwrap(typing.get_args(a)[0])):
            out += walk(item, s, f"{c}[{depth + 2}]", depth + 1)
        elif origin is dict and _is_model(value := _unwrap(typing.get_args(a)[1])):
            out += walk(value, s, f"{c}.some.part-{depth}", depth)
        elif origin is dict:
            out.append((s, f"{c}.somekey"))
    return out


FIELDS = walk(Plan)


def test_the_walk_sees_the_fields_that_crashed() -> None:
    schema = {s for s, _ in FIELDS}
    assert {"prices.date", "prices.kind", "vendor_quotes.lines.unit_price_cny", "waivers.reason",
            "acceptance.conclusion", "quote.buyer.bank_account", "requirements.sequence_length"} <= schema
    assert len(schema) > 120


@pytest.mark.parametrize("schema", sorted({s for s, _ in FIELDS}))
def test_every_field_of_the_plan_has_a_label_in_every_language(schema: str) -> None:
    key = f"field.{schema}"
    assert key in MESSAGES, f"register a label {key!r} in procurement/signoff.py"
    for lang in languages():
        assert translated(key, lang), f"{key} has no translation in {lang}"


@pytest.mark.parametrize(("schema", "content"), FIELDS)
def test_every_content_path_resolves_to_its_label(schema: str, content: str, catalog: Catalog) -> None:
    found = model_field_path(content)
    assert found is not None and found[0] == schema
    for lang in languages():
        label = field_label(content, lang, catalog)
        assert label and label != t("field.unknown", lang, path=content)
        assert content not in label or "." not in content
        if lang == "zh":
            assert "_" not in label and "[" not in label, label


def test_a_part_id_with_dots_is_one_key() -> None:
    assert model_field_path("prices.a100.x-40gb.date") == ("prices.date", {"part": "a100.x-40gb"})
    assert model_field_path("vendor_quotes[0].lines[11].quantity") == (
        "vendor_quotes.lines.quantity", {"n": "1", "m": "12"})


@pytest.mark.parametrize("path", ["", ".", "nonsense", "prices", "prices.x", "prices.x.nope", "server.storage[x]",
                                  "server.storage[0]", "checklist.unknown_item.checked", "offer.new_field",
                                  "quote.buyer.new", "requirements.hf_config.num_layers", "a.b[3].c", "[0]"])
def test_a_path_no_label_covers_is_shown_never_raises(path: str, catalog: Catalog) -> None:
    for lang in languages():
        assert field_label(path, lang, catalog)


def _content_of_every_kind(plan: Plan, catalog: Catalog) -> dict[str, str]:
    """Sign-off content of a plan with prices, a chosen vendor's offer, waivers and acceptance details filled."""
    part = plan.gpu.model or "a100-pcie-40gb"
    data = plan.model_dump(mode="json")
    data["prices"] = {part: {"price_cny": 56999.5, "with_vat": True, "kind": "vendor_quote",
                             "date": "2026-11-01", "source": "ACME"}}
    data["vendor_quotes"] = [{"vendor": "ACME", "number": "Q-1", "date": "2026-11-01", "lines": [
        {"text": "GPU", "for_part": part, "quantity": 2, "unit_price_cny": 56999.5, "with_vat": True}]}]
    data["chosen_vendor"] = "ACME"
    data["waivers"] = [{"rule": "POWER-PSU-CAPACITY", "reason": "r", "by": "Li", "date": "2026-11-02"}]
    data["acceptance"] = {"contract_number": "C-1", "delivery_date": "2026-11-03", "conclusion": "pass",
                          "reasons": "ok"}
    data["requirements"]["hf_config"] = {"num_hidden_layers": 32}
    filled = Plan.model_validate(data)
    return {**current_content(filled, "approval", catalog), **current_content(filled, "acceptance", catalog)}


@pytest.mark.parametrize("example", sorted(p.name for p in EXAMPLES.glob("*.gpuplan.yaml")))
def test_every_signed_field_of_every_example_has_a_real_label(example: str, catalog: Catalog) -> None:
    plan = load_plan(EXAMPLES / example, catalog)
    content = _content_of_every_kind(plan, catalog)
    for lang in languages():
        for path in content:
            label = field_label(path, lang, catalog)
            assert label != t("field.unknown", lang, path=path), path
        lines = diff_in_words({}, content, lang, catalog)  # every field changed at once
        assert len(lines) == len([v for v in content.values() if v])


def test_sign_then_price_then_checklist_50_times(catalog: Catalog) -> None:
    """The blocker: signing, then entering any price, raised KeyError in every refresh of the sign-off box."""
    from procurement.checklist import build_checklists
    from procurement.evaluation import evaluate
    from procurement.reports.checklist_pdf import render_checklist_pdf

    base = load_plan(EXAMPLES / "mid-size-training.gpuplan.yaml", catalog)
    kinds: tuple[typing.Literal["entered", "vendor_quote", "company"], ...] = ("entered", "vendor_quote", "company")
    parts = [p for p in (base.gpu.model, base.server.cpu, base.server.chassis, base.server.psu.part) if p]
    start = time.monotonic()
    for round_ in range(50):
        plan = sign(base, "approval", "Zhang", "", catalog, dt.date(2026, 12, 1))
        part = parts[round_ % len(parts)]
        price = EnteredPrice(price_cny=1000 + round_ + 0.5, kind=kinds[round_ % 3],
                             date=dt.date(2026, 11, 1 + round_ % 28), source=f"quote {round_}",
                             with_vat=(True, False, None)[round_ % 3])
        plan = plan.model_copy(update={"prices": {**plan.prices, part: price}})
        for lang in ("zh", "en"):
            status = signoff_status(plan, "approval", catalog, lang=lang)
            assert status.state == SignoffState.VOID and status.changes
            findings = [f for f in signoff_findings(plan, catalog, lang) if f.rule == "SIGNOFF-VOID"]
            assert findings
            ev = evaluate(plan, catalog, lang=lang)
            build_checklists(plan, catalog, ev.findings, lang=lang)
        if round_ % 10 == 0:  # the PDF, a few times (it is the slow part)
            assert render_checklist_pdf(plan, catalog, lang="zh").startswith(b"%PDF")
    assert time.monotonic() - start < 300


def test_cli_sign_then_price_then_check_says_void_and_why(tmp_path: Path) -> None:
    """The CLI case of the report: copy the example, sign, add a price, `check` — no traceback, the void named."""
    path = tmp_path / "plan.gpuplan.yaml"
    shutil.copy(EXAMPLES / "mid-size-training.gpuplan.yaml", path)

    def cli(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "gui.launch", *args], capture_output=True, text=True,
                              timeout=120, check=False, cwd=REPO,
                              env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "PYTHONPATH": str(REPO)})

    signed = cli("sign", str(path), "--kind", "approval", "--name", "Zhang", "--lang", "en")
    assert signed.returncode == 0, signed.stderr
    text = path.read_text(encoding="utf-8")
    assert "prices: {}\n" in text
    path.write_text(text.replace("prices: {}\n", "prices:\n  a100-pcie-40gb:\n    price_cny: 56999.5\n"
                                 "    kind: vendor_quote\n    date: 2026-11-01\n    source: ACME quote\n"),
                    encoding="utf-8")
    for lang, void, field in (("en", "Plan approval is void", "date of entered price"),
                              ("zh", "方案审批已失效", "录入价格日期")):
        run = cli("check", str(path), "--lang", lang)
        assert "Traceback" not in run.stderr and "KeyError" not in run.stderr, run.stderr
        assert run.returncode in (0, 1, 3), run.stderr
        assert void in run.stdout and field in run.stdout, run.stdout
        assert "SIGNOFF-VOID" in run.stdout

"""Every list and mapping of the plan has a stated cap (docs/plan-format.md): one entry over it is refused as
one located message naming the file, the line and the field, in English and Chinese, and the plan at the cap
still opens. Before, waivers, checklist marks, signers, signed fields, reports and a waiver's numbers had
none: only the file's 150,000-value limit stopped them, with a message that named no field."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from pydantic import ValidationError

from catalog.yamlsource import MAX_YAML_VALUES
from procurement.plan import (
    MAX_CHECKLIST_MARKS,
    MAX_OFFER_LINES,
    MAX_REPORTS_IN_PLAN,
    MAX_SIGNED_FIELDS,
    MAX_SIGNERS,
    MAX_WAIVERS,
    Plan,
    PlanError,
    PlanTooLargeError,
    SignOff,
    load_plan,
    parse_plan,
    save_plan,
)
from tests.conftest import EXAMPLES, REPO

EXAMPLE = EXAMPLES / "llm-cluster-node.gpuplan.yaml"
WAIVER = {"rule": "POWER-PSU", "reason": "accepted", "by": "a buyer", "date": "2026-01-02"}
SIGNER = {"name": "a signer", "date": "2026-01-02"}


def _data() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))
    return data


def _refused(data: dict[str, Any], lang: str = "en") -> tuple[str, str]:
    text = yaml.safe_dump(data, allow_unicode=True, sort_keys=False)
    with pytest.raises(PlanError) as raised:
        parse_plan(text, "big.gpuplan", lang=lang)
    return str(raised.value), text


def _line_of(text: str, key: str, after: str | None = None) -> int:
    lines = text.splitlines()
    start = next(i for i, row in enumerate(lines) if row.strip() == after) if after else 0
    return next(i for i, row in enumerate(lines[start:], start + 1) if row.strip().startswith(key))


def _waivers(n: int) -> list[dict[str, str]]:
    return [{**WAIVER, "rule": f"RULE-{i}"} for i in range(n)]


def _marks(n: int) -> dict[str, dict[str, bool]]:
    return {f"item-{i}": {"checked": True} for i in range(n)}


@pytest.mark.parametrize(("field", "cap", "fill"), [
    ("waivers", MAX_WAIVERS, lambda data, n: data.__setitem__("waivers", _waivers(n))),
    ("checklist", MAX_CHECKLIST_MARKS, lambda data, n: data.__setitem__("checklist", _marks(n))),
])
def test_one_entry_over_the_cap_is_one_located_message(field: str, cap: int, fill: Any) -> None:
    data = _data()
    fill(data, cap + 1)
    said, text = _refused(data)
    line = _line_of(text, f"{field}:")
    assert said == f"big.gpuplan:{line}: {field}: {cap + 1} entries, more than the {cap} this list may hold", said
    zh, _ = _refused(data, "zh")
    assert zh == f"big.gpuplan:{line}: {field}: 共 {cap + 1} 项，超过此列表最多可容纳的 {cap} 项", zh


def test_a_plan_at_the_waiver_cap_opens() -> None:
    data = _data()
    data["waivers"] = _waivers(MAX_WAIVERS)
    plan = parse_plan(yaml.safe_dump(data, sort_keys=False), "big.gpuplan")
    assert len(plan.waivers) == MAX_WAIVERS


def test_signers_a_waivers_numbers_and_the_choice_lists_are_capped() -> None:
    data = _data()
    digest = "0" * 64
    data["signoffs"] = {"approval": {"digest": digest, "signers": [
        {**SIGNER, "name": f"signer {i}"} for i in range(MAX_SIGNERS + 1)]}}
    data["waivers"] = [{**WAIVER, "numbers": [str(i) for i in range(201)]}]
    data["requirements"]["lora_targets"] = ["q_proj"] * 8
    data["server"]["auto_chosen"] = ["cpu"] * 7
    said, text = _refused(data)
    for field, n, cap in (("signoffs.approval.signers", MAX_SIGNERS + 1, MAX_SIGNERS), ("waivers[0].numbers", 201, 200),
                          ("requirements.lora_targets", 8, 7), ("server.auto_chosen", 7, 6)):
        assert f": {field}: {n} entries, more than the {cap} this list may hold" in said, (field, said)
    assert said.count("\n") == 3, said  # one line each
    assert f"big.gpuplan:{_line_of(text, 'signers:')}: signoffs.approval.signers:" in said


def test_the_signed_content_is_capped_at_what_a_plan_file_can_hold() -> None:
    """Reached through the model (a plan file stops at its 150,000 values first: each field is two)."""
    content = {f"f{i}": "" for i in range(MAX_SIGNED_FIELDS + 1)}
    with pytest.raises(ValidationError) as raised:
        SignOff.model_validate({"digest": "0" * 64, "content": content, "signers": [SIGNER]})
    assert raised.value.errors()[0]["loc"] == ("content",)
    assert raised.value.errors()[0]["type"] == "too_long"
    SignOff.model_validate({"digest": "0" * 64, "content": dict(list(content.items())[:-1]), "signers": [SIGNER]})


def test_too_many_reports_are_refused_before_each_is_read() -> None:
    data = _data()
    data["verification"] = [{}] * (MAX_REPORTS_IN_PLAN + 1)
    said, text = _refused(data)
    assert said == (f"big.gpuplan:{_line_of(text, 'verification:')}: verification: {MAX_REPORTS_IN_PLAN + 1} "
                    f"entries, more than the {MAX_REPORTS_IN_PLAN} this list may hold"), said


def test_a_part_id_longer_than_any_catalog_id_is_refused_at_its_field() -> None:
    data = _data()
    data["server"]["cpu"] = "x" * 81
    data["server"]["storage"][0]["part"] = "y" * 81
    data["checklist"] = {"z" * 81: {"checked": True}}
    said, text = _refused(data)
    assert f"big.gpuplan:{_line_of(text, 'cpu:')}: server.cpu: String should have at most 80 characters" in said
    assert "server.storage[0].part: String should have at most 80 characters" in said
    assert "checklist." + "z" * 81 in said


def test_a_pasted_model_config_over_1_mib_is_refused_at_its_field() -> None:
    data = _data()
    data["requirements"]["hf_config"] = {"num_hidden_layers": 32, "pad": "x" * (1 << 20)}
    said, text = _refused(data)
    line = _line_of(text, "hf_config:")
    assert said == f"big.gpuplan:{line}: requirements.hf_config: larger than 1 MiB as JSON: not a model configuration"
    zh, _ = _refused(data, "zh")
    assert zh == f"big.gpuplan:{line}: requirements.hf_config: 按 JSON 计超过 1 MiB：不是模型配置", zh
    data["requirements"]["hf_config"] = {"num_hidden_layers": 32, "pad": "x" * 1000}
    parse_plan(yaml.safe_dump(data, sort_keys=False), "ok.gpuplan")


def test_every_list_and_mapping_of_the_plan_has_a_cap() -> None:
    """Walks the model: a list or dict field without max_length (or the one validator that bounds it) fails,
    so a field added later comes with its cap."""
    import typing

    from pydantic import BaseModel

    from procurement.verification_report import VerificationReport

    bounded_otherwise = {"Requirements.hf_config", "Requirements.deepspeed_config"}  # 1 MiB as JSON
    missing: list[str] = []
    seen: set[type] = set()
    todo: list[type[BaseModel]] = [Plan]
    while todo:
        model = todo.pop()
        if model in seen or model is VerificationReport:  # reports: their own reader's caps and the value cap
            continue
        seen.add(model)
        for name, info in model.model_fields.items():
            stack = [info.annotation]
            kinds = set()
            while stack:
                ann = stack.pop()
                origin = typing.get_origin(ann)
                if isinstance(ann, type) and issubclass(ann, BaseModel):
                    todo.append(ann)
                if origin in (list, dict):
                    kinds.add(origin)
                stack.extend(typing.get_args(ann))
            capped = any(getattr(m, "max_length", None) for m in info.metadata)
            if kinds and not capped and f"{model.__name__}.{name}" not in bounded_otherwise:
                if not (model is Plan and name == "signoffs"):  # keyed by two kinds only
                    missing.append(f"{model.__name__}.{name}")
    assert missing == []
    assert len(seen) > 15


def test_the_caps_are_documented() -> None:
    doc = (REPO / "docs" / "plan-format.md").read_text(encoding="utf-8")
    for words in (f"at most {MAX_WAIVERS:,}", f"at most {MAX_CHECKLIST_MARKS:,}", f"at most {MAX_SIGNERS}",
                  f"at most {MAX_SIGNED_FIELDS:,}", f"at most {MAX_REPORTS_IN_PLAN:,}", "1 MiB"):
        assert words in doc, words



def _quote(n: int) -> list[dict[str, Any]]:
    return [{"vendor": "A", "lines": [{"text": f"line {i}", "unit_price_cny": i} for i in range(n)]}]


def test_a_quote_at_the_line_cap_saved_by_the_app_opens_again(tmp_path: Path) -> None:
    """10,000 lines, the earlier cap, were read, and the plan the app then wrote (each line with its 8 fields,
    170,000 values) did not open again."""
    data = _data()
    data["vendor_quotes"] = _quote(MAX_OFFER_LINES)
    plan = parse_plan(yaml.safe_dump(data, sort_keys=False), "big.gpuplan")
    save_plan(plan, tmp_path / "big.gpuplan")
    assert len(load_plan(tmp_path / "big.gpuplan").vendor_quotes[0].lines) == MAX_OFFER_LINES
    data["vendor_quotes"] = _quote(MAX_OFFER_LINES + 1)
    said, _ = _refused(data)
    assert f"vendor_quotes[0].lines: {MAX_OFFER_LINES + 1} entries, more than the {MAX_OFFER_LINES}" in said


def test_a_plan_that_would_not_open_again_is_not_saved(tmp_path: Path) -> None:
    """Each list within its cap, together past the file's values: the save is refused naming the file and why,
    and the file on disk is left as it was (sign says so and exits 2)."""
    data = _data()
    data["prices"] = {f"part-{i}": {"price_cny": i} for i in range(10_000)}  # 120,000 values once written
    data["vendor_quotes"] = _quote(2_000)  # 34,000
    text = yaml.safe_dump(data, sort_keys=False)
    plan = parse_plan(text, "big.gpuplan")  # read: the file itself is compact
    path = tmp_path / "big.gpuplan"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(PlanTooLargeError) as raised:
        save_plan(plan, path)
    assert raised.value.filename == str(path)
    assert f"more than {MAX_YAML_VALUES:,} values" in str(raised.value.strerror) and "would not open" in str(
        raised.value.strerror)
    assert path.read_text(encoding="utf-8") == text
    import contextlib
    import io

    from procurement.commands.cli import main

    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        rc = main(["sign", "--kind", "approval", "--name", "x", str(path), "--lang", "en"])
    assert rc == 2 and "would not open again" in err.getvalue() and "Traceback" not in err.getvalue()
    assert path.read_text(encoding="utf-8") == text


def test_importing_a_quote_longer_than_the_plan_keeps_is_a_located_error(tmp_path: Path) -> None:
    """`quote import` of a 6,000-line file was a pydantic traceback once the lines reached VendorQuote."""
    import contextlib
    import io

    from procurement.commands.cli import main

    plan = tmp_path / "p.gpuplan"
    plan.write_text(EXAMPLE.read_text(encoding="utf-8"), encoding="utf-8")
    sheet = tmp_path / "q.csv"
    sheet.write_text("型号,单价\n" + "".join(f"part {i},{100 + i}\n" for i in range(MAX_OFFER_LINES + 1)),
                     encoding="utf-8")
    for lang, words in (("en", "q.csv: more than 5,000 lines"), ("zh", "q.csv: 超过 5,000 行")):
        err = io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            rc = main(["quote", "import", "--vendor", "V", str(plan), str(sheet), "--lang", lang])
        assert rc == 2 and words in err.getvalue() and "Traceback" not in err.getvalue(), err.getvalue()
    assert plan.read_text(encoding="utf-8") == EXAMPLE.read_text(encoding="utf-8")

"""Waivers (procurement/waivers.py) and a person's confirmation of an item the app cannot decide."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from catalog.loader import Catalog
from procurement.checklist import Status, build_checklists, confirm
from procurement.findings import Finding, Severity
from procurement.plan import Plan, load_plan, save_plan, with_value
from procurement.rules import evaluate
from procurement.waivers import apply_waivers, unwaive, waive
from tests.conftest import EXAMPLES

TODAY = dt.date(2026, 3, 2)


def _f(rule: str, message: str, severity: Severity = Severity.WARNING) -> Finding:
    return Finding.of_text(rule=rule, family="balance", severity=severity, step=3, message=message)


@pytest.fixture(scope="module")
def plan(catalog: Catalog) -> Plan:
    return load_plan(EXAMPLES / "llm-cluster-node.gpuplan.yaml", catalog)


def test_waived_shown_not_hidden_and_stale_when_numbers_change(plan: Plan) -> None:
    finding = _f("NET-FABRIC-SLOW", "fastest NIC 25 Gb/s, 100 Gb/s advised")
    waived = waive(plan, finding, "25 GbE is enough for the pilot", "李娜", TODAY)
    [shown] = apply_waivers(waived, [finding])
    assert shown.waived is not None and shown.waived.by == "李娜"
    assert "waived: 25 GbE is enough for the pilot — 李娜, 2026-03-02" in shown.message_text("en")
    assert "已豁免：25 GbE is enough for the pilot——李娜，2026-03-02" in shown.message_text("zh")
    # the same rule now fires with other numbers: not waived, and the waiver is flagged stale
    other = _f("NET-FABRIC-SLOW", "fastest NIC 10 Gb/s, 100 Gb/s advised")
    out = apply_waivers(waived, [other])
    assert out[0].waived is None
    assert [f.rule for f in out] == ["NET-FABRIC-SLOW", "WAIVER-STALE"] and "other numbers" in out[1].message_text("en")
    # the finding no longer fires: the waiver is stale
    gone = apply_waivers(waived, [])
    assert [f.rule for f in gone] == ["WAIVER-STALE"] and "已不再出现" in gone[0].message_text("zh")
    assert apply_waivers(unwaive(waived, "NET-FABRIC-SLOW"), []) == []
    with pytest.raises(ValueError):
        waive(plan, finding, " ", "李娜")


def test_check_and_the_app_honour_waivers_identically(plan: Plan, catalog: Catalog, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    from procurement.commands.cli import main

    plan = with_value(plan, "gpu.count", 64)  # more GPUs than the chassis holds: an error to waive
    errors = [f for f in evaluate(plan, catalog, lang="en") if f.severity == Severity.ERROR]
    assert errors
    path = tmp_path / "p.gpuplan.yaml"
    save_plan(plan, path)
    before = main(["check", str(path), "--json", "--lang", "en"])
    capsys.readouterr()
    waived = plan
    for f in errors:
        waived = waive(waived, f, "accepted for the pilot", "张伟", TODAY)
    save_plan(waived, path)
    after = main(["check", str(path), "--json", "--lang", "en"])
    data = json.loads(capsys.readouterr().out)
    assert before == 1 and after != 1  # the exit status ignores waived findings
    shown = [f for f in data if f["rule"] in {e.rule for e in errors}]
    assert shown and all(f["waived"]["by"] == "张伟" for f in shown)  # listed, marked waived
    app = evaluate(waived, catalog, lang="en")  # what the GUI shows: the same findings, the same marks
    assert {(f.rule, f.waived is not None) for f in app} >= {(f["rule"], True) for f in shown}


def test_unknown_automatic_item_confirmed_only_with_a_note(catalog: Catalog, plan: Plan) -> None:
    # the chassis' per-slot cooling limit unknown: the app cannot decide "cooling is sound"
    chassis = catalog.parts["chassis"][plan.server.chassis or ""]
    catalog = Catalog(parts={k: dict(v) for k, v in catalog.parts.items()})
    catalog.parts["chassis"][chassis.id] = chassis.model_copy(update={"max_gpu_tdp_w": None})
    lists = build_checklists(plan, catalog, [], lang="en")
    unknown = [i for cl in lists.values() for i in cl.items if i.status == Status.UNKNOWN and not i.person]
    assert [i.id for i in unknown] == ["cooling"]
    item = unknown[0]
    with pytest.raises(ValueError, match="note"):
        confirm(plan, item.id, "王工", "  ", "en")
    done = confirm(plan, item.id, "王工", "checked the vendor sheet: 350 W per slot")
    after = {i.id: i for cl in build_checklists(done, catalog, [], lang="en").values() for i in cl.items}[item.id]
    assert after.status == Status.CONFIRMED and after.status != Status.PASS
    assert "confirmed by 王工: checked the vendor sheet" in after.reason


def _stored(version: int, catalog: Catalog) -> Plan:
    return load_plan(Path(__file__).parent / "data" / "plans" / f"v{version}.gpuplan.yaml", catalog)


def test_a_waiver_made_in_one_language_holds_in_the_other(catalog: Catalog) -> None:
    # LIC-EXPORT's message says "2022 年 10 月" in Chinese and "Oct 2022" in English: comparing the message's
    # numbers called the waiver stale as soon as the reader's language changed
    plan = _stored(8, catalog)
    plan = plan.model_copy(update={"waivers": []})
    [lic] = [f for f in evaluate(plan, catalog, lang="zh") if f.rule == "LIC-EXPORT"]
    waived = waive(plan, lic, "试点第一年接受", "王芳", TODAY)
    assert waived.waivers[0].params == {"gpu": "100 40"}
    for lang in ("zh", "en"):
        out = evaluate(waived, catalog, lang=lang)
        assert "WAIVER-STALE" not in {f.rule for f in out}, lang
        assert next(f for f in out if f.rule == "LIC-EXPORT").waived is not None


def test_a_waiver_goes_stale_when_a_parameter_changes(catalog: Catalog) -> None:
    plan = _stored(8, catalog)
    plan = plan.model_copy(update={"waivers": []})
    [shard] = [f for f in evaluate(plan, catalog, lang="en") if f.rule == "VRAM-SHARDING"]
    waived = waive(plan, shard, "sharding is planned", "王芳", TODAY)
    assert waived.waivers[0].params["gpus"] == "4"
    assert "WAIVER-STALE" not in {f.rule for f in evaluate(waived, catalog, lang="zh")}
    # eight GPUs: the same rule fires, with another GPU count and per-GPU share
    fewer = with_value(waived, "gpu.count", 8)
    out = evaluate(fewer, catalog, lang="en")
    [stale] = [f for f in out if f.rule == "WAIVER-STALE"]
    assert next(f for f in out if f.rule == "VRAM-SHARDING").waived is None
    assert "gpus=4" in stale.message and "gpus=8" in stale.message
    # a parameter that is not a number of the finding (the prose of a catalog note) does not count
    from procurement.rules.base import PROSE_PARAMS

    assert "note" in PROSE_PARAMS


def test_a_version_5_waiver_still_compares_the_message_numbers(catalog: Catalog) -> None:
    plan = _stored(5, catalog)
    [w] = plan.waivers
    assert w.params == {} and w.numbers == ["100", "2022", "40"]
    en = evaluate(plan, catalog, lang="en")
    assert next(f for f in en if f.rule == "LIC-EXPORT").waived is not None


def _decisions(findings: list[Finding]) -> list[tuple[str, object, str]]:
    return [(f.rule, f.waived, f.message_text("en")) for f in findings]


@pytest.mark.parametrize("made_in", ["en", "zh"])
def test_a_version_5_waiver_holds_whatever_the_language_it_was_made_in(catalog: Catalog, made_in: str) -> None:
    """A format-5 waiver stored the numbers of the message as it was shown: '2022 年 10 月' in Chinese, 'Oct 2022'
    in English. It holds, and goes stale, the same for every reader, whichever language it was made in."""
    from procurement.waivers import finding_numbers

    stored = _stored(5, catalog)
    unwaived = stored.model_copy(update={"waivers": []})
    [lic] = [f for f in evaluate(unwaived, catalog, lang="zh") if f.rule == "LIC-EXPORT"]
    numbers = finding_numbers(lic, made_in)  # type: ignore[arg-type]
    assert finding_numbers(lic, "zh") != finding_numbers(lic, "en"), "the two languages state other numbers"
    plan = stored.model_copy(update={"waivers": [stored.waivers[0].model_copy(update={"numbers": numbers})]})
    if made_in == "en":
        assert plan.waivers == stored.waivers  # the stored file's waiver as it is
    zh, en = evaluate(plan, catalog, lang="zh"), evaluate(plan, catalog, lang="en")
    for out in (zh, en):
        assert "WAIVER-STALE" not in {f.rule for f in out}
        assert next(f for f in out if f.rule == "LIC-EXPORT").waived is not None
    assert _decisions(zh) == _decisions(en)
    # another number than was waived: stale for every reader, saying the same numbers
    other = plan.model_copy(update={"waivers": [plan.waivers[0].model_copy(update={"numbers": [*numbers, "7"]})]})
    zh, en = evaluate(other, catalog, lang="zh"), evaluate(other, catalog, lang="en")
    assert _decisions(zh) == _decisions(en)
    [stale] = [f for f in en if f.rule == "WAIVER-STALE"]
    assert next(f for f in en if f.rule == "LIC-EXPORT").waived is None
    assert f"waived at {' '.join([*numbers, '7'])}, now {' '.join(numbers)}" in stale.message_text("en")


def test_every_finding_has_the_same_parameters_in_both_languages(catalog: Catalog) -> None:
    """What a waiver compares reads the same in Chinese and English, for every finding of varied plans."""
    from procurement.waivers import finding_params

    seen = 0
    for path in sorted(EXAMPLES.glob("*.gpuplan.yaml")):
        base = load_plan(path, catalog)
        variants = [base, with_value(base, "gpu.count", 64), with_value(base, "server.psu.count", 1),
                    with_value(base, "gpu.count", 1)]
        for plan in variants:
            zh = {f.rule: f for f in evaluate(plan, catalog, lang="zh")}
            en = {f.rule: f for f in evaluate(plan, catalog, lang="en")}
            assert zh.keys() == en.keys()
            for rule in zh:
                assert finding_params(zh[rule]) == finding_params(en[rule]), rule
                seen += 1
    assert seen > 60

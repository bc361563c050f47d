"""evaluate(): order, stable ids, plan paths that exist, both languages, and no rule ever raises."""

from __future__ import annotations

import types
import typing
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from procurement.findings import SEVERITY_ORDER, Finding, Severity
from procurement.messages import MESSAGES, languages, translated
from procurement.plan import Plan
from procurement.policy import default_policy
from procurement.rules import evaluate, registry
from tests.procurement.rules.test_rules_parts import CAT, hgx_node, workstation_4090

POLICY = default_policy()


def _inner(annotation: Any) -> Any:
    """Strip Optional/Annotated/list to the model or type inside."""
    while True:
        origin = typing.get_origin(annotation)
        if origin is typing.Annotated:
            annotation = typing.get_args(annotation)[0]
        elif origin in (typing.Union, types.UnionType):
            annotation = next(a for a in typing.get_args(annotation) if a is not type(None))
        else:
            return annotation


def path_exists(path: str) -> bool:
    """Whether a dotted path like 'server.storage[0].part' names a field of the Plan model."""
    model: Any = Plan
    for chunk in path.split("."):
        name = chunk.split("[", 1)[0]
        if not (isinstance(model, type) and issubclass(model, BaseModel)) or name not in model.model_fields:
            return False
        model = _inner(model.model_fields[name].annotation)
        if "[" in chunk:
            if typing.get_origin(model) is not list:
                return False
            model = _inner(typing.get_args(model)[0])
        elif typing.get_origin(model) is list:
            model = None
    return True


def test_path_checker() -> None:
    assert path_exists("server.psu.count") and path_exists("server.storage[0].part")
    assert path_exists("server.storage") and path_exists("requirements.budget_cny")
    assert not path_exists("server.psu.watts") and not path_exists("server.storage.part")


def check_findings(findings: list[Finding]) -> None:
    for f in findings:
        assert f.fields, f.rule
        for p in f.fields:
            assert path_exists(p), (f.rule, p)
        assert not f.rule.endswith("-INTERNAL"), f.message
    keys = [(SEVERITY_ORDER[f.severity], f.step, f.rule) for f in findings]
    assert keys == sorted(keys)


def test_evaluate_sorts_and_points_at_real_fields() -> None:
    found = evaluate(workstation_4090(), CAT, POLICY, "en")
    check_findings(found)
    assert found[0].severity == Severity.ERROR
    assert {"POWER-PSU-CAPACITY", "PCIE-GPU-SLOTS", "COOLING-OPEN-AIR", "BALANCE-RAM"} <= {
        f.rule for f in found
    }
    check_findings(evaluate(hgx_node(), CAT, POLICY, "zh"))


def test_both_languages_for_every_message() -> None:
    en = evaluate(workstation_4090(), CAT, POLICY, "en")
    zh = evaluate(workstation_4090(), CAT, POLICY, "zh")
    assert [f.rule for f in en] == [f.rule for f in zh]
    assert all(a.message != b.message for a, b in zip(en, zh, strict=True))
    assert "zh" in languages()
    for key in MESSAGES:
        assert all(translated(key, lang) for lang in languages()), key


def test_default_policy_is_used() -> None:
    assert evaluate(workstation_4090(), CAT) == evaluate(workstation_4090(), CAT, POLICY, "zh")


def test_a_broken_rule_becomes_an_info_finding(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    def boom(plan, catalog, policy):  # type: ignore[no-untyped-def]
        raise ZeroDivisionError("x")

    others = [r for r in registry.RULE_FUNCTIONS if r.family != "power"]
    monkeypatch.setattr(registry, "RULE_FUNCTIONS", [*others, registry.RuleFunction("power", boom, ())])
    found = [f for f in evaluate(workstation_4090(), CAT, POLICY, "en") if f.family == "power"]
    assert [(f.rule, f.severity, f.step) for f in found] == [("POWER-INTERNAL", Severity.INFO, 3)]
    assert "boom" in found[0].message_text("en")


def test_every_family_has_rules() -> None:
    assert sorted(registry.families()) == sorted(
        ["power", "cooling", "pcie", "balance", "software", "budget", "vram", "licensing"])
    assert all(registry.rules_of(family) for family in registry.families())


def _ids(kind: str) -> list[str]:
    return sorted(CAT.parts[kind])


def _opt(kind: str) -> st.SearchStrategy[str | None]:
    return st.one_of(st.none(), st.sampled_from(_ids(kind)))


def plans() -> st.SearchStrategy[Plan]:
    item = st.fixed_dictionaries(
        {
            "part": st.sampled_from(_ids("storage")),
            "role": st.sampled_from(["system", "data", "backup", "scratch"]),
            "count": st.integers(0, 30),
        }
    )
    nic = st.fixed_dictionaries({"part": st.sampled_from(_ids("nic")), "count": st.integers(0, 10)})
    req = st.fixed_dictionaries(
        {
            "workload": st.sampled_from(
                ["training", "fine_tuning", "inference", "rendering", "scientific", "data_analysis"]
            ),
            "mode": st.sampled_from([None, "full_training", "full_finetune", "lora", "inference"]),
            "model_preset": st.sampled_from([None, "llama-2-7b", "llama-2-70b", "nope"]),
            "model_params_b": st.one_of(st.none(), st.floats(0, 2000)),
            "layers": st.one_of(st.none(), st.integers(1, 200)),
            "hidden_size": st.one_of(st.none(), st.integers(1, 20000)),
            "kv_heads": st.one_of(st.none(), st.integers(1, 128)),
            "head_dim": st.one_of(st.none(), st.integers(1, 256)),
            "precision": st.sampled_from(["fp32", "mixed", "bf16", "fp8", "int8", "int4"]),
            "optimizer": st.sampled_from(["adamw", "sgd_momentum", "adam_8bit"]),
            "batch_size": st.integers(1, 512),
            "dataset_gb": st.floats(0, 1e6),
            "budget_cny": st.one_of(st.none(), st.floats(0, 1e9)),
            "nodes": st.integers(1, 64),
            "usage": st.sampled_from(["occasional", "continuous"]),
            "data_sensitivity": st.sampled_from(["low", "high"]),
            "deployment": st.sampled_from(["datacenter", "office", "lab"]),
            "needs_mig": st.booleans(),
            "needs_nvlink": st.booleans(),
        }
    )
    server = st.fixed_dictionaries(
        {
            "chassis": _opt("chassis"),
            "cpu": _opt("cpu"),
            "cpu_count": st.integers(0, 4),
            "memory": st.one_of(
                st.none(),
                st.fixed_dictionaries({"part": st.sampled_from(_ids("memory")), "count": st.integers(0, 64)}),
            ),
            "storage": st.lists(item, max_size=4),
            "nics": st.lists(nic, max_size=3),
            "psu": st.fixed_dictionaries(
                {
                    "part": _opt("psu"),
                    "count": st.integers(0, 8),
                    "redundancy": st.sampled_from(["none", "n+1", "n+n"]),
                }
            ),
            "input_voltage": st.sampled_from(["100-127", "200-208", "220", "230", "240", "200-240"]),
            "rack_power_limit_kw": st.one_of(st.none(), st.floats(0.1, 100)),
            "servers_per_rack": st.integers(1, 20),
        }
    )
    software = st.fixed_dictionaries(
        {
            k: _opt(kind)
            for k, kind in (
                ("os", "os"),
                ("driver", "driver"),
                ("cuda", "cuda"),
                ("framework", "framework"),
                ("image", "image"),
            )
        }
    )
    gpu = st.fixed_dictionaries({"model": _opt("gpu"), "count": st.integers(0, 16)})
    return st.builds(
        lambda r, g, s, sw: Plan.model_validate({"requirements": r, "gpu": g, "server": s, "software": sw}),
        req,
        gpu,
        server,
        software,
    )


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(plan=plans(), lang=st.sampled_from(["zh", "en"]))
def test_no_rule_raises_on_random_plans(plan: Plan, lang: str) -> None:
    check_findings(evaluate(plan, CAT, POLICY, lang))  # type: ignore[arg-type]

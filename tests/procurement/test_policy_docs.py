"""Policy thresholds each have a value and a source, users override them, and docs/rules.md lists every rule."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from procurement.messages import MESSAGES
from procurement.policy import Policy, PolicyError, default_policy, load_policy

REPO = Path(__file__).resolve().parents[2]


def test_every_threshold_has_a_value_and_a_source() -> None:
    data = yaml.safe_load((REPO / "resources" / "policy" / "default.yaml").read_text(encoding="utf-8"))
    assert set(data) == set(Policy.model_fields)
    for key, entry in data.items():
        assert set(entry) == {"value", "source"}, key
        assert len(entry["source"]) > 20, key
    p = default_policy()
    assert (p.psu_headroom_pct, p.liquid_cooling_rack_kw, p.airflow_cfm_per_gpu) == (20, 40, 500)
    assert p.memory_tiers_gb == (16, 32, 80) and p.budget_tiers_cny == (50_000, 200_000)


def test_user_policy_overrides_some_values(tmp_path: Path) -> None:
    f = tmp_path / "company.yaml"
    f.write_text("psu_headroom_pct: 30\nairflow_basis: {value: per_gpu, source: our DC}\n", encoding="utf-8")
    p = load_policy(f)
    assert p.psu_headroom_pct == 30 and p.airflow_basis == "per_gpu"
    assert p.liquid_cooling_rack_kw == 40  # untouched


@pytest.mark.parametrize(("text", "error"), [
    ("psu_headroom_pct: -5\n", ":1: psu_headroom_pct: Input should be greater than or equal to 0"),
    ("airflow_basis: wind\n", ":1: airflow_basis: Input should be 'heat' or 'per_gpu'"),
    ("- 1\n", ":1: expected a mapping of policy thresholds"),
])
def test_bad_user_policy_is_located(tmp_path: Path, text: str, error: str) -> None:
    f = tmp_path / "bad.yaml"
    f.write_text(text, encoding="utf-8")
    with pytest.raises(PolicyError) as exc:
        load_policy(f)
    assert str(exc.value) == f"{f}{error}"


def test_docs_list_every_rule_id() -> None:
    import procurement.rules  # noqa: F401 - registers every rule's messages

    doc = (REPO / "docs" / "rules.md").read_text(encoding="utf-8")
    rules = {k.removesuffix(".message") for k in MESSAGES if k.endswith(".message") and k[:1].isupper()}
    documented = set(re.findall(r"^\| ([A-Z0-9]+(?:-[A-Z0-9]+)+) \|", doc, flags=re.M))
    assert rules == documented
    for key in Policy.model_fields:
        assert f"`{key}`" in doc, key

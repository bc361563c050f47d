"""Format 12: a budget range and the training options; an older plan's single budget is the range's maximum."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from catalog.loader import Catalog, load_catalog
from procurement.migrations import migrate
from procurement.plan import Plan, PlanError, canonical_digest, dump_plan, load_plan, parse_plan
from procurement.signoff import SignoffState, sign, signoff_status

PLANS = Path(__file__).parent / "data" / "plans"


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog()


def test_a_v11_budget_is_the_maximum_of_the_range() -> None:
    data = migrate({"schema_version": 11, "requirements": {"budget_cny": 200_000}})
    assert data["schema_version"] == 12
    req = Plan.model_validate(data).requirements
    assert (req.budget_min_cny, req.budget_cny) == (None, 200_000)
    assert (req.attention, req.loss_chunks, req.offload_params, req.offload_activations,
            req.sequence_parallel, req.deepspeed_config) == ("flash", 1, False, False, False, None)


def test_a_v5_approval_stays_valid_through_format_12(catalog: Catalog) -> None:
    """The new fields at their defaults are not in what an approval signed (test_migrations checks the digest)."""
    plan = load_plan(PLANS / "v5.gpuplan.yaml", catalog)
    assert signoff_status(plan, "approval", catalog).state == SignoffState.VALID


def test_a_training_option_set_is_a_decision(catalog: Catalog) -> None:
    plan = sign(load_plan(PLANS / "v11.gpuplan.yaml", catalog), "approval", "Zhang", "", catalog)
    assert signoff_status(plan, "approval", catalog).state == SignoffState.VALID
    changed = plan.model_copy(update={"requirements": plan.requirements.model_copy(update={"attention": "eager"})})
    assert canonical_digest(changed) != canonical_digest(plan)
    status = signoff_status(changed, "approval", catalog, lang="en")
    assert status.state == SignoffState.VOID
    assert any("attention kernel" in c for c in status.changes), status.changes


def test_the_v12_file_holds_the_range_and_the_options(catalog: Catalog) -> None:
    plan = load_plan(PLANS / "v12.gpuplan.yaml", catalog)
    req = plan.requirements
    assert (req.budget_min_cny, req.budget_cny) == (600_000, 900_000)
    assert (req.attention, req.loss_chunks, req.offload_activations) == ("sdpa", 8, True)
    assert req.deepspeed_config == {"zero_optimization": {"stage": 3, "overlap_comm": True,
                                                          "stage3_prefetch_bucket_size": "auto"}}
    assert yaml.safe_load(dump_plan(plan))["requirements"]["loss_chunks"] == 8


@pytest.mark.parametrize(("field", "value"), [("attention", "math"), ("loss_chunks", 0), ("loss_chunks", True),
                                              ("budget_min_cny", -1), ("deepspeed_config", [1, 2])])
def test_bad_values_are_refused_with_their_field(field: str, value: object) -> None:
    text = yaml.safe_dump({"schema_version": 12, "requirements": {field: value}})
    with pytest.raises(PlanError, match=f"requirements.{field}"):
        parse_plan(text, "p.gpuplan")


def test_offloading_activations_needs_checkpointing() -> None:
    text = yaml.safe_dump({"schema_version": 12, "requirements": {"offload_activations": True,
                                                                   "gradient_checkpointing": False}})
    with pytest.raises(PlanError, match="gradient_checkpointing"):
        parse_plan(text, "p.gpuplan")

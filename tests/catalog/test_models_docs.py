"""docs/plan-format.md and docs/catalog.md stay in step with the models and the shipped example."""

from __future__ import annotations

import re

from pydantic import BaseModel

from catalog.models import PART_TYPES
from procurement import plan as plan_module
from tests.conftest import EXAMPLES, REPO

DOCS = REPO / "docs"


def _fields(model: type[BaseModel]) -> set[str]:
    return set(model.model_fields)


def test_the_plan_format_example_is_the_shipped_file() -> None:
    text = (DOCS / "plan-format.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```yaml\n(.*?)```", text, re.S)
    shipped = (EXAMPLES / "mid-size-training.gpuplan.yaml").read_text(encoding="utf-8")
    assert shipped in blocks


def test_every_plan_field_is_documented() -> None:
    text = (DOCS / "plan-format.md").read_text(encoding="utf-8")
    models: list[type[BaseModel]] = [
        plan_module.Plan, plan_module.Requirements, plan_module.GpuChoice, plan_module.ServerConfig,
        plan_module.SoftwareChoice, plan_module.ChecklistMark, plan_module.SignOff, plan_module.Signer,
        plan_module.Waiver, plan_module.AcceptanceInfo, plan_module.QuoteInfo,
        plan_module.StorageItem, plan_module.PsuChoice, plan_module.PartCount, plan_module.Party,
        plan_module.VendorQuote, plan_module.OfferLine]
    missing = {f"{m.__name__}.{f}" for m in models for f in _fields(m) if f"`{f}`" not in text and f not in text}
    assert missing == set()


def test_every_catalog_field_is_documented() -> None:
    text = (DOCS / "catalog.md").read_text(encoding="utf-8")
    missing = {f"{t.__name__}.{f}" for t in PART_TYPES for f in _fields(t) if f"`{f}`" not in text}
    assert missing == set()

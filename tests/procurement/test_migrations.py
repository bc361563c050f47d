"""Plan migrations: every stored old format opens, the chain has no gap, the newest stored file is canonical."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from catalog.loader import Catalog, load_catalog
from procurement import migrations
from procurement.migrations import CURRENT, FIRST, STEPS, MigrationError, migrate
from procurement.plan import SCHEMA_VERSION, PlanError, dump_plan, load_plan, parse_plan

PLANS = Path(__file__).parent / "data" / "plans"


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog()


def stored(version: int) -> Path:
    return PLANS / f"v{version}.gpuplan.yaml"


def test_the_plan_writes_the_current_version() -> None:
    assert SCHEMA_VERSION == CURRENT


def test_the_chain_has_one_step_per_version() -> None:
    assert sorted(STEPS) == list(range(FIRST, CURRENT)), "every version below CURRENT needs its step"


def test_a_stored_file_for_every_version() -> None:
    versions = sorted(int(m.group(1)) for p in PLANS.glob("v*.gpuplan.yaml")
                      if (m := re.fullmatch(r"v(\d+)\.gpuplan\.yaml", p.name)))
    assert versions == list(range(FIRST, CURRENT + 1)), "save a plan of the new format as vN.gpuplan.yaml"


@pytest.mark.parametrize("version", range(FIRST, CURRENT + 1))
def test_every_stored_version_opens_as_the_current_one(version: int, catalog: Catalog) -> None:
    path = stored(version)
    assert re.search(rf"^schema_version: {version}$", path.read_text(encoding="utf-8"), re.M)
    plan = load_plan(path, catalog)
    assert plan.schema_version == CURRENT
    # the whole document came through, not just what has defaults
    assert plan.gpu.model and plan.server.chassis and plan.software.os
    assert plan.checklist and plan.signoffs and plan.verification and plan.quote.number


def test_the_newest_stored_file_is_what_this_release_writes(catalog: Catalog) -> None:
    text = stored(CURRENT).read_text(encoding="utf-8")
    body = "".join(line for line in text.splitlines(keepends=True) if not line.startswith("#"))
    assert dump_plan(load_plan(stored(CURRENT), catalog)) == body


def test_steps_run_in_order_and_stamp_each_version(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[int] = []

    def step(frm: int) -> Any:
        def run(data: dict[str, Any]) -> dict[str, Any]:
            seen.append(data["schema_version"])
            data.setdefault("trail", []).append(frm)
            return data
        return run

    monkeypatch.setattr(migrations, "CURRENT", FIRST + 2)
    monkeypatch.setattr(migrations, "STEPS", {FIRST: step(FIRST), FIRST + 1: step(FIRST + 1)})
    old = {"schema_version": FIRST, "title": "x"}
    new = migrate(old)
    assert new == {"schema_version": FIRST + 2, "title": "x", "trail": [FIRST, FIRST + 1]}
    assert seen == [FIRST, FIRST + 1]
    assert old == {"schema_version": FIRST, "title": "x"}, "the parsed file is not changed in place"


@pytest.mark.parametrize("version", [CURRENT + 1, FIRST - 1, "1", True, None, 1.5])
def test_versions_outside_the_chain_are_refused(version: object) -> None:
    with pytest.raises(MigrationError):
        migrate({"schema_version": version})


def test_a_future_file_is_refused_with_its_line() -> None:
    text = f"title: from a later release\nschema_version: {CURRENT + 1}\n"
    with pytest.raises(PlanError) as err:
        parse_plan(text, "new.gpuplan.yaml")
    assert str(err.value).startswith(f"new.gpuplan.yaml:2: schema_version: {CURRENT + 1} is not supported")


def test_a_v5_approval_and_digest_survive_the_v6_fields(catalog: Catalog) -> None:
    """v6 added optional quote terms, cost-of-ownership inputs and Auto-configure's record: left empty they are
    not part of what an approval signed, nor of the configuration digest that verification reports recorded."""
    from procurement.plan import canonical_digest
    from procurement.signoff import SignoffState, signoff_status

    plan = load_plan(stored(5), catalog)
    assert signoff_status(plan, "approval", catalog).state == SignoffState.VALID
    assert plan.server.auto_chosen == [] and plan.tco.pue is None and plan.quote.issued is None
    filled = plan.model_copy(update={"tco": plan.tco.model_copy(update={"pue": 1.3})})
    assert canonical_digest(filled) == canonical_digest(plan), "cost inputs are not the configuration"
    termed = plan.model_copy(update={"quote": plan.quote.model_copy(update={"delivery": "30 日"})})
    assert signoff_status(termed, "approval", catalog).state == SignoffState.VOID, "a term given is signed"

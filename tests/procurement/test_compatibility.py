"""What step 3 offers: the parts that fit the plan's choices, judged by the rules that guard each fit (issue 26)."""

from __future__ import annotations

from typing import Any

import pytest

from catalog.loader import Catalog
from catalog.models import Chassis, GpuFormFactor, Psu, Storage
from procurement.compatibility import CHECKS, KINDS, Kind, fit, offer
from procurement.plan import Plan
from procurement.rules import evaluate
from procurement.rules.power import psu_form

SP3_DDR4 = "supermicro-as-4124gs-tnr"  # SP3 sockets, DDR4 DIMMs, PCIe GPUs, hot-swap server PSUs


def plan_of(**sections: Any) -> Plan:
    return Plan.model_validate(sections)


def _offered(plan: Plan, catalog: Catalog, kind: Kind) -> dict[str, str]:
    """part id → why it does not fit ('' when it fits), in English."""
    return {f.part.id: f.reason("en") for f in offer(plan, catalog, kind)}


def _copy_with(catalog: Catalog, *parts: Any) -> Catalog:
    """The catalog with ``parts`` added or replaced (a user catalog's overlay)."""
    out = Catalog(parts={k: dict(v) for k, v in catalog.parts.items()})
    for part in parts:
        out.parts[part.kind][part.id] = part
    return out


def test_an_sp3_ddr4_board_excludes_lga1700_cpus_and_ddr5_udimms(catalog):
    plan = plan_of(server={"chassis": SP3_DDR4})
    cpus = _offered(plan, catalog, "cpu")
    assert cpus["core-i9-13900k"] == "socket LGA1700; the chassis has SP3"
    assert cpus["core-i9-14900k"] == "socket LGA1700; the chassis has SP3"
    assert cpus["epyc-7543"] == "", "an SP3 EPYC fits"
    assert {i for i, why in cpus.items() if not why} == {c.id for c in catalog.all(KINDS["cpu"])
                                                        if c.socket == "SP3"}  # type: ignore[attr-defined]
    memory = _offered(plan, catalog, "memory")
    assert memory["kingston-fury-beast-ddr5-5600-32gb"] == "DDR5; the platform takes DDR4"
    assert memory["samsung-ddr4-3200-rdimm-32gb"] == ""
    zh = {f.part.id: f.reason("zh") for f in offer(plan, catalog, "cpu")}
    assert zh["core-i9-13900k"] == "插槽 LGA1700，机箱为 SP3"
    psus = _offered(plan, catalog, "psu")
    assert psus["corsair-hx1500i"] == "an ATX desktop unit; the chassis takes a hot-swap server module"
    assert psus["supermicro-2000w-titanium"] == ""


def test_pcie_gpus_exclude_sxm_only_chassis_and_cards_too_wide(catalog):
    plan = plan_of(gpu={"model": "rtx-4090", "count": 4})  # a 3-slot PCIe card
    chassis = _offered(plan, catalog, "chassis")
    sxm = {c.id for c in catalog.all(Chassis) if c.gpu_form_factor is GpuFormFactor.SXM}
    assert sxm and all(chassis[i] == "takes SXM GPUs only; the GPU is PCIe" for i in sxm)
    # the R750xa takes cards up to 2 slots wide
    assert chassis["dell-poweredge-r750xa"] == "takes GPUs up to 2 slots wide; the GPU is 3"
    # the AS-4124GS-TNR's maximum width is not in the catalog: unknown is not incompatible
    assert chassis[SP3_DDR4] == "" and catalog.typed(Chassis, SP3_DDR4).max_gpu_slot_width is None
    assert chassis["tower-z790-workstation"] == ""
    # a GPU count of 4 in a 2-position tower is a count for the rules (PCIE-GPU-SLOTS), not incompatibility
    # an SXM module: only its baseboard's platforms
    h100 = _offered(plan_of(gpu={"model": "h100-sxm5-80gb", "count": 8}), catalog, "chassis")
    assert h100[SP3_DDR4] == "takes PCIe GPUs only; the GPU is SXM"
    assert h100["nvidia-dgx-h100"] == "" and h100["dell-poweredge-xe9680"] == ""
    assert h100["nvidia-dgx-b200"].startswith("built for NVIDIA B200")


def test_unknown_facts_keep_the_part(catalog):
    # no chassis chosen: nothing to fit, everything offered
    blank = plan_of()
    for kind in KINDS:
        assert all(f.fits for f in offer(blank, catalog, kind)), kind
    # the R750xa's PSU form is not in the catalog: an ATX unit is not hidden for it
    r750 = catalog.typed(Chassis, "dell-poweredge-r750xa")
    assert r750 is not None and r750.psu_form is None
    assert _offered(plan_of(server={"chassis": r750.id}), catalog, "psu")["corsair-hx1500i"] == ""
    # a PSU of a user catalog whose form is not given fits every chassis (POWER-PSU-FORM said it did not)
    formless = catalog.typed(Psu, "corsair-hx1500i").model_copy(update={"id": "company-psu", "form": None})
    cat = _copy_with(catalog, formless)
    assert _offered(plan_of(server={"chassis": SP3_DDR4}), cat, "psu")["company-psu"] == ""
    # drive bays and M.2 slots not in the catalog: every drive fits
    assert catalog.typed(Chassis, SP3_DDR4).drive_bays is None
    assert all(f.fits for f in offer(plan_of(server={"chassis": SP3_DDR4}), catalog, "storage"))


def test_the_psu_form_rule_does_not_call_an_unknown_form_a_mismatch(catalog, policy):
    """POWER-PSU-FORM checks 'only where both are known', but an unknown PSU form read as not the chassis' form."""
    formless = catalog.typed(Psu, "corsair-hx1500i").model_copy(update={"id": "company-psu", "form": None})
    cat = _copy_with(catalog, formless)
    plan = plan_of(server={"chassis": SP3_DDR4, "psu": {"part": "company-psu", "count": 2}})
    assert psu_form(plan, cat, policy) == []
    known = plan_of(server={"chassis": SP3_DDR4, "psu": {"part": "corsair-hx1500i", "count": 2}})
    assert [f.rule for f in psu_form(known, catalog, policy)] == ["POWER-PSU-FORM"]


def test_a_chassis_without_m2_slots_excludes_m2_drives(catalog):
    no_m2 = catalog.typed(Chassis, "asrock-rack-4u8g-turin2").model_copy(
        update={"id": "no-m2-server", "m2_slots": 0, "drive_bays": 4})
    cat = _copy_with(catalog, no_m2)
    storage = _offered(plan_of(server={"chassis": "no-m2-server"}), cat, "storage")
    m2 = {s.id for s in cat.all(Storage) if "m.2" in s.form.lower()}
    assert m2 and all(storage[i] == "the chassis has no M.2 slot" for i in m2)
    assert storage["samsung-pm9a3-3.84tb-u2"] == ""


def test_memory_without_a_chassis_is_checked_against_the_cpu(catalog):
    memory = _offered(plan_of(server={"cpu": "epyc-7543"}), catalog, "memory")  # EPYC 7003: DDR4
    assert memory["samsung-ddr5-4800-rdimm-64gb"] == "DDR5; the platform takes DDR4"
    assert memory["samsung-ddr4-3200-rdimm-64gb"] == ""


def test_a_chassis_is_not_hidden_by_the_cpu_chosen_for_another(catalog):
    """The platform comes before its parts: from a tower with a desktop CPU the buyer can still pick a server
    (the CPU then shows its socket finding), instead of having to clear the CPU first."""
    plan = plan_of(gpu={"model": "rtx-4090", "count": 2},
                   server={"chassis": "tower-z790-workstation", "cpu": "core-i9-13900k",
                           "psu": {"part": "corsair-hx1500i", "count": 1}})
    assert _offered(plan, catalog, "chassis")[SP3_DDR4] == ""


CONTEXTS = [
    plan_of(gpu={"model": "rtx-4090", "count": 4}, server={"chassis": SP3_DDR4}),
    plan_of(gpu={"model": "h100-sxm5-80gb", "count": 8}, server={"chassis": "tower-z790-workstation"}),
    plan_of(gpu={"model": "l40s", "count": 4}, server={"cpu": "xeon-platinum-8480plus"}),
    plan_of(gpu={"model": "b200", "count": 8}, server={"chassis": "nvidia-dgx-b200", "cpu": "xeon-platinum-8570"}),
]


@pytest.mark.parametrize("plan", CONTEXTS, ids=range(len(CONTEXTS)))
def test_a_part_offered_raises_none_of_its_errors_and_a_hidden_one_shows_them(plan, catalog, policy):
    """The lists and the findings never disagree: choosing a part that does not fit brings exactly the rule
    findings its reason came from; choosing one that fits brings none of them."""
    for kind in ("chassis", "cpu", "memory", "psu", "storage"):
        guarded = set().union(*(ids for _check, ids in CHECKS[kind]))  # type: ignore[index]
        for f in offer(plan, catalog, kind):  # type: ignore[arg-type]
            chosen = _choose(plan, kind, f.part.id)
            errors = {x.rule for x in evaluate(chosen, catalog, policy, lang="en")
                      if x.severity == "error" and x.rule in guarded}
            assert errors == set(f.rules), (kind, f.part.id, f.reason("en"))


def _choose(plan: Plan, kind: str, part_id: str) -> Plan:
    data = plan.model_dump(mode="json")
    srv = data["server"]
    if kind == "memory":
        srv["memory"] = {"part": part_id, "count": 8}
    elif kind == "psu":
        srv["psu"] = {"part": part_id, "count": 2}
    elif kind == "storage":
        srv["storage"] = [{"role": "data", "part": part_id, "count": 1}]
    else:
        srv[kind] = part_id
    return Plan.model_validate(data)


def test_answers_are_kept_per_chosen_parts(catalog):
    plan = plan_of(gpu={"model": "rtx-4090", "count": 4}, server={"chassis": SP3_DDR4, "cpu": "epyc-7543"})
    first = offer(plan, catalog, "cpu")
    # an edit the CPU list does not depend on (a count, a drive, the memory) reuses the answer
    edited = _choose(plan, "memory", "samsung-ddr4-3200-rdimm-32gb").model_copy()
    assert offer(edited, catalog, "cpu") is first
    # another chassis: answered again
    other = offer(_choose(plan, "chassis", "tower-z790-workstation"), catalog, "cpu")
    assert other is not first
    assert {f.part.id for f in other if f.fits} == {"core-i9-13900k", "core-i9-14900k"}
    # fit() answers one part the same way
    assert fit(plan, catalog, "cpu", other[0].part) == next(f for f in first if f.part.id == other[0].part.id)

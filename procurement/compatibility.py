"""Which catalog parts fit what a plan has already chosen: step 3 offers those, and says why the others do not.

A candidate is checked by the rules themselves: it is put into a small plan holding only what it must fit
(``DEPENDS``), and the rule function that guards that fit (``CHECKS``) runs on it; an error of one of the rule
ids named there is the incompatibility, its parameters the short reason ('socket LGA1700; the chassis has
SP3'). So the combos and the findings never disagree: a part offered is one for which that rule stays
silent, and choosing a hidden one shows that rule's finding.

A part is checked against what it goes into, the platform before its parts: the chassis against the GPU of
step 2, the CPU, the PSU and the drives against the chassis, the memory against the chassis (or the CPU while
there is none). Never the other way round: a chassis is not hidden because the CPU chosen for the previous
chassis does not fit it, so switching the platform stays one choice (the parts that then no longer fit keep
their place in the plan and show their findings). Fits that depend on quantities (GPU positions, DIMM slots,
PSU bays, CPUs per board) are not compatibility: the buyer sets the counts on the same page, the rules say
when they do not fit. A fact the catalog does not have (None) never hides a part: the rules check only what
is known, so unknown stays offered.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from catalog.loader import Catalog
from catalog.models import Chassis, Cpu, MemoryModule, Nic, Part, Psu, Storage
from procurement.coded import Coded, coded, render_text
from procurement.findings import Finding, Severity
from procurement.messages import Lang, Source, plural, register
from procurement.plan import GpuChoice, PartCount, Plan, StorageItem, StorageRole
from procurement.policy import Policy
from procurement.rules import balance, pcie, policy_or_default, power
from procurement.rules.registry import Rule

Kind = Literal["chassis", "cpu", "memory", "psu", "storage", "nic"]
"""The part kinds step 3 chooses (the catalog has no separate motherboard: the chassis is the platform)."""

KINDS: Mapping[Kind, type[Part]] = {
    "chassis": Chassis, "cpu": Cpu, "memory": MemoryModule, "psu": Psu, "storage": Storage, "nic": Nic,
}

Depends = Literal["gpu", "chassis", "cpu"]
DEPENDS: Mapping[Kind, tuple[Depends, ...]] = {
    "chassis": ("gpu",),
    "cpu": ("chassis",),
    "memory": ("chassis", "cpu"),
    "psu": ("chassis",),
    "storage": ("chassis",),
    "nic": (),
}
"""What a candidate of each kind must fit: the choices its check reads, and so the key its answers are kept by."""

CHECKS: Mapping[Kind, tuple[tuple[Rule, frozenset[str]], ...]] = {
    "chassis": (
        (pcie.form_factor, frozenset({"PCIE-FORM-FACTOR", "PCIE-GPU-UNSUPPORTED"})),
        (pcie.gpu_slots, frozenset({"PCIE-SLOT-WIDTH"})),
    ),
    "cpu": ((pcie.cpu_socket, frozenset({"PCIE-CPU-SOCKET"})),),
    "memory": ((balance.memory_fit, frozenset({"BALANCE-MEMORY-TYPE"})),),
    "psu": ((power.psu_form, frozenset({"POWER-PSU-FORM"})),),
    "storage": (
        (pcie.drive_bays, frozenset({"PCIE-DRIVE-BAYS"})),
        (pcie.drive_form, frozenset({"PCIE-DRIVE-FORM"})),
    ),
    "nic": (),
}
"""The rule functions that guard each kind's fit, and which of their rule ids mean 'does not fit' (the others
they report, counts and limits, are left to the findings)."""


@dataclass(frozen=True)
class Fit:
    """Whether one catalog part fits what the plan has chosen, and if not, why (coded, in no language)."""

    part: Part
    reasons: tuple[Coded, ...] = ()
    rules: tuple[str, ...] = ()
    """The rule ids whose errors make it incompatible (their findings appear when it is chosen)."""

    @property
    def fits(self) -> bool:
        return not self.reasons

    def reason(self, lang: Lang) -> str:
        """Why it does not fit, short, in ``lang`` ('' when it fits)."""
        return ("；" if lang == "zh" else "; ").join(render_text(r, lang) for r in self.reasons)


def _context_key(plan: Plan, kind: Kind) -> tuple[Any, ...]:
    out: list[Any] = []
    for dep in DEPENDS[kind]:
        if dep == "gpu":
            out.append((plan.gpu.model, plan.gpu.count > 0))
        elif dep == "chassis":
            out.append(plan.server.chassis)
        else:
            out.append(plan.server.cpu)
    return tuple(out)


def _context(plan: Plan, kind: Kind) -> Plan:
    """A plan holding only what a candidate of ``kind`` must fit (the rest at its defaults)."""
    blank = Plan()
    server: dict[str, Any] = {}
    gpu = blank.gpu
    for dep in DEPENDS[kind]:
        if dep == "gpu":
            gpu = GpuChoice(model=plan.gpu.model, count=1 if plan.gpu.count > 0 else 0)
        elif dep == "chassis":
            server["chassis"] = plan.server.chassis
        else:
            server["cpu"] = plan.server.cpu
    return blank.model_copy(update={"gpu": gpu, "server": blank.server.model_copy(update=server)})


def _with(context: Plan, kind: Kind, part_id: str) -> Plan:
    """``context`` with one ``part_id`` of ``kind`` chosen (one of it: counts are not what is checked)."""
    value: Any
    field: str = kind
    if kind == "memory":
        value = PartCount(part=part_id, count=1)
    elif kind == "psu":
        value = context.server.psu.model_copy(update={"part": part_id, "count": 1})
    elif kind == "storage":
        value = [StorageItem(role=StorageRole.DATA, part=part_id, count=1)]
    elif kind == "nic":
        field, value = "nics", [PartCount(part=part_id, count=1)]
    else:
        value = part_id
    return context.model_copy(update={"server": context.server.model_copy(update={field: value})})


def _reason(kind: Kind, finding: Finding) -> Coded:
    params = dict(finding.coded_message.params) if finding.coded_message is not None else {}
    code = f"compat.{kind}.{finding.rule}"
    if finding.rule == "PCIE-DRIVE-BAYS":
        code += ".m2" if params.get("m2") else ".bay"
    elif finding.rule == "POWER-PSU-FORM" and "systems" in params:
        code += ".system"
    return coded(code, **params) if code in _TEXTS else finding.coded_message or coded(finding.rule)


def fit(plan: Plan, catalog: Catalog, kind: Kind, part: Part, policy: Policy | None = None) -> Fit:
    """Whether ``part`` (of ``kind``) fits what ``plan`` has chosen (DEPENDS), by the rules that guard it."""
    return _fit(_context(plan, kind), catalog, kind, part, policy_or_default(policy))


def _fit(context: Plan, catalog: Catalog, kind: Kind, part: Part, policy: Policy) -> Fit:
    trial = _with(context, kind, part.id)
    reasons: list[Coded] = []
    rules: list[str] = []
    for check, ids in CHECKS[kind]:
        for finding in check(trial, catalog, policy):
            if finding.rule in ids and finding.severity == Severity.ERROR:
                reasons.append(_reason(kind, finding))
                rules.append(finding.rule)
    return Fit(part, tuple(reasons), tuple(rules))


_CACHE: OrderedDict[tuple[Any, ...], tuple[Catalog, Policy, tuple[Fit, ...]]] = OrderedDict()
_CACHE_SIZE = 64


def offer(plan: Plan, catalog: Catalog, kind: Kind, policy: Policy | None = None) -> tuple[Fit, ...]:
    """Every catalog part of ``kind`` with whether it fits ``plan``'s choices, in the catalog's order.

    Kept per catalog, kind and the choices it depends on (DEPENDS): an edit of a count, a storage line or
    anything else step 3 shows reuses the answer (a 500-line plan checks nothing again per edit)."""
    pol = policy_or_default(policy)
    cls = KINDS[kind]
    key = (id(catalog), id(pol), kind, _context_key(plan, kind), len(catalog.parts.get(cls.kind, {})))
    hit = _CACHE.get(key)
    if hit is not None and hit[0] is catalog and hit[1] is pol:
        _CACHE.move_to_end(key)
        return hit[2]
    context = _context(plan, kind)
    fits = tuple(_fit(context, catalog, kind, part, pol) for part in catalog.all(cls))
    _CACHE[key] = (catalog, pol, fits)
    while len(_CACHE) > _CACHE_SIZE:
        _CACHE.popitem(last=False)
    return fits


_TEXTS: dict[str, Source] = {
    "compat.cpu.PCIE-CPU-SOCKET": "socket {socket}; the chassis has {board}",
    "compat.chassis.PCIE-FORM-FACTOR": "takes {chassis_ff} GPUs only; the GPU is {gpu_ff}",
    "compat.chassis.PCIE-GPU-UNSUPPORTED": "built for {supported} only",
    "compat.chassis.PCIE-SLOT-WIDTH": plural(
        "takes GPUs up to {max} slot wide; the GPU is {width}",
        "takes GPUs up to {max} slots wide; the GPU is {width}",
        "max",
    ),
    "compat.memory.BALANCE-MEMORY-TYPE": "{type}; the platform takes {other_type}",
    "compat.psu.POWER-PSU-FORM": "{form}; the chassis takes {takes}",
    "compat.psu.POWER-PSU-FORM.system": "the power supply of {systems} only",
    "compat.storage.PCIE-DRIVE-BAYS.m2": "the chassis has no M.2 slot",
    "compat.storage.PCIE-DRIVE-BAYS.bay": "the chassis has no drive bay",
    "compat.storage.PCIE-DRIVE-FORM": "needs a {needs} bay; the chassis takes {takes}",
}
register(_TEXTS)

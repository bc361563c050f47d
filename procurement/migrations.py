"""Plan file migrations: one function per schema_version step N -> N+1, applied on load before validation.

Old files keep opening: a plan written by any earlier release is brought up to ``CURRENT`` step by step,
as plain data, before pydantic sees it. A step works on the raw mapping (never on the current ``Plan``
model, which will have changed again by the time the step runs on an old file).

To change the plan format (three lines, plus the stored file):

1. bump ``CURRENT`` below by one;
2. add a step from the previous version, next to the others::

       @step(1)
       def _v1_to_v2(data: Data) -> Data:
           \"\"\"v2: <what changed and why>.\"\"\"
           data["server"]["psu"].setdefault("input_kind", "ac")
           return data

3. save a plan in the new format as ``tests/procurement/data/plans/v2.gpuplan.yaml`` (every section filled
   in; ``tests/procurement/test_migrations.py`` loads every stored version and fails when one is missing).

If another branch bumped the version first, rebase and take the next number: the chain must stay 1, 2, 3, …
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any, Final

Data = dict[str, Any]
Step = Callable[[Data], Data]

CURRENT: Final = 12
"""The schema_version this release writes (procurement.plan.SCHEMA_VERSION is this number)."""
FIRST: Final = 1
"""The oldest schema_version that still opens."""

STEPS: dict[int, Step] = {}
"""from_version -> the function turning a plan of that version into one of from_version + 1."""


class MigrationError(ValueError):
    """A schema_version that cannot be brought up to CURRENT (from the future, or not a version at all)."""


def step(from_version: int) -> Callable[[Step], Step]:
    """Register ``function`` as the step from ``from_version`` to ``from_version + 1``."""

    def register(function: Step) -> Step:
        if from_version in STEPS:
            raise ValueError(f"two migration steps from schema_version {from_version}")
        STEPS[from_version] = function
        return function

    return register


def migrate(data: Data) -> Data:
    """``data`` (a parsed plan file) brought up to ``CURRENT``; the input is not changed.

    Raises MigrationError for a version that is not an integer from FIRST to CURRENT.
    """
    version = data.get("schema_version")
    if isinstance(version, bool) or not isinstance(version, int) or not FIRST <= version <= CURRENT:
        raise MigrationError(f"schema_version {version!r} is not one of {FIRST}..{CURRENT}")
    if version == CURRENT:
        return data
    out = copy.deepcopy(data)
    while version < CURRENT:
        out = STEPS[version](out)
        version += 1
        out["schema_version"] = version
    return out


# ---------------------------------------------------------------- the steps, oldest first


@step(1)
def _v1_to_v2(data: Data) -> Data:
    """v2: the input voltage as the buyer states it (100-127, 200-208, 220, 230, 240 V, or 200-240 V). Version 1
    had only 'high' (meaning any of 200-240 V) and 'low' (100-127 V); they keep exactly that meaning."""
    server = data.get("server")
    if isinstance(server, dict):
        old = server.get("input_voltage")
        if old == "high":
            server["input_voltage"] = "200-240"
        elif old == "low":
            server["input_voltage"] = "100-127"
    return data


@step(2)
def _v2_to_v3(data: Data) -> Data:
    """v3: requirements gain the model's full shape (attention_heads, vocab_size, a Hugging Face config), the
    parallelism plan (scheme, tensor/pipeline parallel), the recipe (gradient checkpointing, LoRA rank and
    targets, KV-cache precision, optimizer offload) and serving (concurrent users, network speed). An older
    plan asked for none of them: each starts as "decide for me" (None) or its old implicit value."""
    req = data.get("requirements")
    if isinstance(req, dict):
        for key in ("attention_heads", "vocab_size", "hf_config", "scheme", "tensor_parallel",
                    "pipeline_parallel", "gradient_checkpointing", "lora_rank", "lora_targets", "network_gbps",
                    "concurrent_users"):
            req.setdefault(key, None)
        req.setdefault("kv_precision", "bf16")
        req.setdefault("offload_optimizer", False)
    return data


@step(3)
def _v3_to_v4(data: Data) -> Data:
    """v4: the plan stores the prices the buyer entered or imported (``prices``, by part id, each with VAT
    status, kind, date and source). A v3 plan had none: its money came from the catalog alone."""
    data.setdefault("prices", {})
    return data


@step(4)
def _v4_to_v5(data: Data) -> Data:
    """v5: sign-offs by what they attest (plan approval, delivery acceptance), each with several signers and
    the content it signed; waivers; the acceptance details; who confirmed a checklist item.

    A v4 sign-off (hardware / software checklist) signed a digest over the decisions only; the content it
    covered is not recorded, so it cannot be checked against v5's content. Its signers move to the plan
    approval, marked ``legacy``: shown as needing re-signing, never as valid.
    """
    old = data.get("signoffs")
    signers: list[Data] = []
    digest = None
    if isinstance(old, dict):
        for which in ("hardware", "software"):
            so = old.get(which)
            if isinstance(so, dict):
                digest = digest or so.get("digest")
                signers.append({k: so[k] for k in ("name", "role", "date") if k in so})
    data["signoffs"] = {"approval": {"digest": digest, "content": {}, "signers": signers, "legacy": True}} \
        if signers else {}
    return data


@step(5)
def _v5_to_v6(data: Data) -> Data:
    """v6: the commercial quote's terms (delivery, warranty, payment, invoice type, freight/installation), the
    parties' phone, tax id and bank, the issued quote (number, date, validity frozen); the total cost of
    ownership's inputs (``tco``, ``requirements.utilisation_pct``); which server parts Auto-configure chose
    (``server.auto_chosen``). Every new field is optional: a v5 plan had none of them, so each starts empty
    (unknown), and every part a v5 plan holds counts as chosen by hand (Auto-configure asks before replacing it).
    """
    return data


@step(6)
def _v6_to_v7(data: Data) -> Data:
    """v7: vendors' quotes attached to the plan (``vendor_quotes``: vendor, number, date, delivery, warranty,
    payment terms and the lines with their prices and substitutions) and the offer the buyer chose
    (``chosen_vendor``). A v6 plan had none."""
    data.setdefault("vendor_quotes", [])
    data.setdefault("chosen_vendor", None)
    return data


@step(7)
def _v7_to_v8(data: Data) -> Data:
    """v8: a waiver records the numbers of each of its finding's parameters (``params``), compared in place of
    the numbers of the message (which change with the language's number format and word order). An older
    waiver keeps its message ``numbers`` and is compared as before."""
    for waiver in data.get("waivers") or []:
        if isinstance(waiver, dict):
            waiver.setdefault("params", {})
    return data


@step(8)
def _v8_to_v9(data: Data) -> Data:
    """v9: the attached verification reports are typed (procurement.verification_report): each is checked as a
    node report when the plan is read, and reports of an older report version are brought to the current one
    (v1 and v2 reports keep their text, without codes for their values).

    A delivery acceptance signed over such a report signed the old text, which is no longer what the plan
    holds: it is marked ``legacy`` (needs re-signing), never shown as valid or as a silent change.
    """
    reports = data.get("verification")
    older = [r for r in reports if isinstance(r, dict) and r.get("schema_version") != 3] \
        if isinstance(reports, list) else []
    signoffs = data.get("signoffs")
    acceptance = signoffs.get("acceptance") if isinstance(signoffs, dict) else None
    if older and isinstance(acceptance, dict):
        acceptance["legacy"] = True
    return data


@step(9)
def _v9_to_v10(data: Data) -> Data:
    """v10: PSU redundancy of any N+M shape the vendors ship: ``n+2`` (DGX H100 and SYS-821GE-TNHR, 4+2) and
    ``n+3`` join ``none``, ``n+1`` and ``n+n``. Every v9 value keeps its meaning; nothing to change."""
    return data


@step(10)
def _v10_to_v11(data: Data) -> Data:
    """v11: ``operations`` (image build choices, host tuning, MIG layout, orchestrator); every choice of an
    older plan is the default (policy defaults, no MIG layout of its own, no orchestrator, ECC and clocks kept)."""
    data.setdefault("operations", {})
    return data


@step(11)
def _v11_to_v12(data: Data) -> Data:
    """v12: the budget is a range: ``requirements.budget_min_cny`` (its bottom) joins ``budget_cny``, which keeps
    its meaning as the most that may be spent (an older plan's single budget is the range's maximum, with no
    minimum); and the training options `gpu-procure size` takes (attention kernel, chunked loss, sequence
    parallelism, parameter and activation offload, a DeepSpeed config), each at the value the sizing assumed
    before (FlashAttention, one loss chunk, no offloads, no config)."""
    req = data.get("requirements")
    if isinstance(req, dict):
        req.setdefault("budget_min_cny", None)
        for key, value in (("attention", "flash"), ("loss_chunks", 1), ("sequence_parallel", False),
                           ("offload_params", False), ("offload_activations", False), ("deepspeed_config", None)):
            req.setdefault(key, value)
    return data

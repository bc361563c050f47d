"""Sign-offs that cover exactly what they attest: the content of a plan approval and of a delivery acceptance,
its digest, a field-level diff in words of what changed since signing, and optional SSH signatures.

Two kinds:
- **plan approval (方案审批)** signs the decisions (requirements, GPU, server, software), the checklist ticks
  and notes, the plan notes, the catalog prices of the chosen parts, the chosen quote (number, parties,
  validity) and the chosen vendor's offer (procurement/pricing/compare.py), when one is chosen;
- **delivery acceptance (到货验收)** signs the approval's digest, the attached verification reports and the
  acceptance conclusion.

The digest (SHA-256 over the canonical JSON of the content) proves that a paper copy and a plan file match; it
does not prove who signed — anyone who edits the file can recompute it. An SSH signature (``ssh-keygen -Y
sign``) over the same canonical bytes does prove the key, checked against an organisation's allowed-signers
file (``ssh-keygen -Y verify``).
"""

from __future__ import annotations

import base64
import binascii
import datetime as dt
import fnmatch
import functools
import hashlib
import json
import os
import re
import shutil
import stat
import subprocess
import tempfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import NoneType, UnionType
from typing import Annotated, Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel

from catalog.compat import StrEnum
from catalog.loader import Catalog
from procurement.coded import NAMES, Coded, clauses, coded, joined, render_text, render_value, short
from procurement.findings import Finding, Severity
from procurement.messages import MESSAGES, Lang, english, fields_of, plural, register, t
from procurement.plan import TRAINING_OPTIONS, Plan, Requirements

Kind = Literal["approval", "acceptance"]
KINDS: tuple[Kind, ...] = ("approval", "acceptance")
SSH_NAMESPACE = "gpu-procure-signoff"
"""The ssh-keygen -Y namespace: a signature made for another purpose (git, e-mail) never verifies here."""

Content = dict[str, str]
"""A sign-off's content: flat field path -> value as printed (the diff compares these)."""

register(
    {
        "signoff.kind.approval": "Plan approval",
        "signoff.kind.acceptance": "Delivery acceptance",
        "signoff.covers.approval": (
            "Covers: the requirements, GPU, server and software choices, the checklist ticks and notes, the plan "
            "notes, the catalog prices of the chosen parts, the chosen quote (number, parties, validity), and the "
            "chosen vendor's offer (vendor, number, date, delivery, warranty, payment terms and every line)."
        ),
        "signoff.covers.acceptance": (
            "Covers: the digest of the plan approval it rests on, the attached verification reports, the acceptance "
            "conclusion and its reasons, and the contract / PO number and delivery date."
        ),
        "signoff.honest": (
            "The digest only proves that the paper and the plan file match; it does not prove who signed — anyone who "
            "edits the file can recompute it. A handwritten signature or an SSH signature proves the signer."
        ),
        "signoff.changed": "{field}: {old} → {new}",
        "signoff.empty": "(empty)",
        "signoff.sig.valid": "SSH signature valid: {principal} ({fingerprint})",
        "signoff.sig.invalid": "SSH signature invalid: the content was changed (key {fingerprint})",
        "signoff.sig.unknown_key": "signed by key {fingerprint}, which is not the allowed key of {principal}",
        "signoff.sig.unchecked": (
            "SSH signature matches the content; whose key it is was not checked (no allowed-signers file)"
        ),
        "signoff.sig.no_tool": "SSH signature not checked: ssh-keygen is not installed",
        "signoff.sig.no_answer": "SSH signature not checked: ssh-keygen did not answer within {error} s",
        "signoff.sig.unreadable": "SSH signature matches the content; whose key it is was not checked: {error}",
        # field labels for the diff in words
        "field.requirements": "requirements",
        "field.gpu.model": "GPU model",
        "field.gpu.count": "GPU count",
        "field.server.cpu": "CPU model",
        "field.server.cpu_count": "CPU count",
        "field.server.memory.part": "memory module",
        "field.server.memory.count": "memory modules",
        "field.server.chassis": "chassis",
        "field.server.psu.part": "PSU model",
        "field.server.psu.count": "PSU count",
        "field.server.storage": "storage",
        "field.server.nics": "NICs",
        "field.software.os": "operating system",
        "field.software.driver": "driver",
        "field.software.cuda": "CUDA release",
        "field.software.framework": "framework",
        "field.software.image": "image",
        "field.checklist.checked": "checklist item '{item}' ticked",
        "field.checklist.note": "checklist item '{item}' note",
        "field.checklist.by": "checklist item '{item}' confirmed by",
        "field.notes": "plan notes",
        "field.price": "{part} unit price (CNY)",
        "field.quote.number": "quote number",
        "field.quote.validity_days": "quote validity (days)",
        "field.quote.buyer": "buyer {what}",
        "field.quote.vendor": "vendor {what}",
        "field.party.name": "name",
        "field.party.contact": "contact",
        "field.party.address": "address",
        "field.party.phone": "phone",
        "field.party.tax_id": "tax id",
        "field.party.bank": "bank",
        "field.party.bank_account": "bank account",
        "field.quote.delivery": "delivery time",
        "field.quote.warranty": "warranty and service",
        "field.quote.payment": "payment terms",
        "field.quote.invoice": "invoice type",
        "field.quote.freight": "freight and installation",
        "field.quote.issued.number": "issued quote number",
        "field.quote.issued.date": "quote date",
        "field.quote.issued.valid_until": "quote valid until",
        "field.quote.issued.digest": "plan digest when quoted",
        "field.waiver": "waiver of '{rule}'",
        "field.offer.vendor": "chosen vendor",
        "field.offer.number": "chosen offer's number",
        "field.offer.date": "chosen offer's date",
        "field.offer.delivery": "chosen offer's delivery",
        "field.offer.warranty": "chosen offer's warranty",
        "field.offer.payment_terms": "chosen offer's payment terms",
        "field.offer.line": "chosen offer, line {n}",
        "field.approval_digest": "plan approval digest",
        "field.report": "verification report {n}",
        "field.conclusion": "acceptance conclusion",
        "field.conclusion_reasons": "reasons for the conclusion",
        "field.contract_number": "contract / PO number",
        "field.delivery_date": "delivery date",
        # every other field of the plan, by its path in the model (see field_label and its test)
        "field.unknown": "field {path}",
        "field.entry": "{label} “{key}”",
        "field.title": "plan title",
        "field.requirements.workload": "workload",
        "field.requirements.mode": "training mode",
        "field.requirements.model_preset": "model preset",
        "field.requirements.model_params_b": "model parameters (billions)",
        "field.requirements.layers": "model layers",
        "field.requirements.hidden_size": "hidden size",
        "field.requirements.kv_heads": "KV heads",
        "field.requirements.head_dim": "attention head dimension",
        "field.requirements.precision": "precision",
        "field.requirements.optimizer": "optimizer",
        "field.requirements.batch_size": "batch size",
        "field.requirements.sequence_length": "sequence length",
        "field.requirements.dataset_gb": "dataset size (GB)",
        "field.requirements.budget_cny": "budget (CNY)",
        "field.requirements.nodes": "number of nodes",
        "field.requirements.usage": "usage pattern",
        "field.requirements.data_sensitivity": "data sensitivity",
        "field.requirements.deployment": "deployment site",
        "field.requirements.needs_mig": "MIG needed",
        "field.requirements.needs_nvlink": "NVLink needed",
        "field.requirements.attention_heads": "attention heads",
        "field.requirements.vocab_size": "vocabulary size",
        "field.requirements.hf_config": "Hugging Face model config",
        "field.requirements.scheme": "parallelism scheme",
        "field.requirements.tensor_parallel": "tensor parallel degree",
        "field.requirements.pipeline_parallel": "pipeline parallel degree",
        "field.requirements.gradient_checkpointing": "gradient checkpointing",
        "field.requirements.lora_rank": "LoRA rank",
        "field.requirements.lora_targets": "LoRA target modules",
        "field.requirements.kv_precision": "KV cache precision",
        "field.requirements.offload_optimizer": "optimizer offload",
        "field.requirements.network_gbps": "network between nodes (Gb/s)",
        "field.requirements.concurrent_users": "concurrent users",
        "field.requirements.utilisation_pct": "utilisation (%)",
        "field.requirements.budget_min_cny": "budget minimum (CNY)",
        "field.requirements.attention": "attention kernel",
        "field.requirements.loss_chunks": "loss chunks",
        "field.requirements.sequence_parallel": "sequence parallelism",
        "field.requirements.offload_params": "parameter offload",
        "field.requirements.offload_activations": "activation offload",
        "field.requirements.deepspeed_config": "DeepSpeed configuration",
        "field.gpu": "GPU choice",
        "field.server": "server configuration",
        "field.server.memory": "memory",
        "field.server.storage.role": "storage {n}: role",
        "field.server.storage.part": "storage {n}: model",
        "field.server.storage.count": "storage {n}: count",
        "field.server.nics.part": "NIC {n}: model",
        "field.server.nics.count": "NIC {n}: count",
        "field.server.psu": "PSU",
        "field.server.psu.redundancy": "PSU redundancy",
        "field.server.input_voltage": "input voltage",
        "field.server.rack_power_limit_kw": "rack power limit (kW)",
        "field.server.servers_per_rack": "servers per rack",
        "field.server.auto_chosen": "parts chosen automatically",
        "field.software": "software choice",
        "field.checklist": "checklist",
        "field.waivers": "waivers",
        "field.waivers.rule": "waiver {n}: rule",
        "field.waivers.reason": "waiver {n}: reason",
        "field.waivers.by": "waiver {n}: waived by",
        "field.waivers.date": "waiver {n}: date",
        "field.waivers.params": "waiver {n}: parameters",
        "field.waivers.numbers": "waiver {n}: figures when waived",
        "field.acceptance": "acceptance details",
        "field.acceptance.contract_number": "contract / PO number",
        "field.acceptance.delivery_date": "delivery date",
        "field.acceptance.conclusion": "acceptance conclusion",
        "field.acceptance.reasons": "reasons for the conclusion",
        "field.quote": "quote details",
        "field.quote.buyer.name": "buyer name",
        "field.quote.buyer.contact": "buyer contact",
        "field.quote.buyer.address": "buyer address",
        "field.quote.buyer.phone": "buyer phone",
        "field.quote.buyer.tax_id": "buyer tax id",
        "field.quote.buyer.bank": "buyer bank",
        "field.quote.buyer.bank_account": "buyer bank account",
        "field.quote.vendor.name": "vendor name",
        "field.quote.vendor.contact": "vendor contact",
        "field.quote.vendor.address": "vendor address",
        "field.quote.vendor.phone": "vendor phone",
        "field.quote.vendor.tax_id": "vendor tax id",
        "field.quote.vendor.bank": "vendor bank",
        "field.quote.vendor.bank_account": "vendor bank account",
        "field.quote.issued": "issued quote",
        "field.operations": "operations after delivery",
        "field.operations.image_base": "image base (runtime or devel)",
        "field.operations.multi_stage": "multi-stage image build",
        "field.operations.image_date": "date in the image tag",
        "field.operations.orchestrator": "orchestrator",
        "field.operations.mig_strategy": "MIG strategy",
        "field.operations.mig_layout": "MIG layout per GPU",
        "field.operations.host": "host tuning",
        "field.operations.host.cpu_governor": "CPU frequency governor",
        "field.operations.host.swap": "swap",
        "field.operations.host.hugepages_2m": "2 MiB huge pages",
        "field.operations.host.transparent_hugepages": "transparent huge pages",
        "field.operations.host.data_mount": "data disk mount options",
        "field.operations.host.data_fs": "data disk file system",
        "field.operations.host.fd_limit": "open-file limit",
        "field.operations.host.ecc": "GPU ECC mode",
        "field.operations.host.application_clocks": "GPU application clocks",
        "field.operations.host.application_clocks.memory_mhz": "application memory clock (MHz)",
        "field.operations.host.application_clocks.graphics_mhz": "application graphics clock (MHz)",
        "field.tco": "cost of ownership inputs",
        "field.tco.electricity_cny_per_kwh": "electricity price (CNY/kWh)",
        "field.tco.electricity_source": "source of the electricity price",
        "field.tco.pue": "PUE",
        "field.tco.pue_source": "source of the PUE",
        "field.tco.service_life_years": "service life (years)",
        "field.tco.cloud_cny_per_gpu_hour": "cloud price per GPU hour (CNY)",
        "field.tco.cloud_source": "source of the cloud price",
        "field.prices": "entered prices",
        "field.prices.price_cny": "{part}: entered unit price (CNY)",
        "field.prices.with_vat": "{part}: entered price includes VAT",
        "field.prices.kind": "{part}: kind of entered price",
        "field.prices.date": "{part}: date of entered price",
        "field.prices.source": "{part}: source of entered price",
        "field.vendor_quotes": "vendor offers",
        "field.vendor_quotes.vendor": "offer {n}: vendor",
        "field.vendor_quotes.number": "offer {n}: number",
        "field.vendor_quotes.date": "offer {n}: date",
        "field.vendor_quotes.delivery": "offer {n}: delivery",
        "field.vendor_quotes.warranty": "offer {n}: warranty",
        "field.vendor_quotes.payment_terms": "offer {n}: payment terms",
        "field.vendor_quotes.document": "offer {n}: document",
        "field.vendor_quotes.lines": "offer {n}: lines",
        "field.vendor_quotes.lines.text": "offer {n}, line {m}: text",
        "field.vendor_quotes.lines.row": "offer {n}, line {m}: row in the document",
        "field.vendor_quotes.lines.for_part": "offer {n}, line {m}: for part",
        "field.vendor_quotes.lines.offered": "offer {n}, line {m}: part offered",
        "field.vendor_quotes.lines.substitute_unknown": "offer {n}, line {m}: substitute not identified",
        "field.vendor_quotes.lines.quantity": "offer {n}, line {m}: quantity",
        "field.vendor_quotes.lines.unit_price_cny": "offer {n}, line {m}: unit price (CNY)",
        "field.vendor_quotes.lines.with_vat": "offer {n}, line {m}: price includes VAT",
        "field.chosen_vendor": "chosen vendor",
    }
)


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, dict | list):
        return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return str(value)


def _flatten(prefix: str, value: Any, out: Content) -> None:
    if isinstance(value, dict):
        for key in sorted(value):
            _flatten(f"{prefix}.{key}" if prefix else str(key), value[key], out)
    elif isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        for i, item in enumerate(value):
            _flatten(f"{prefix}[{i}]", item, out)
    else:
        out[prefix] = _text(value)


_V6_OPTIONAL = ("requirements.utilisation_pct", "quote.delivery", "quote.warranty", "quote.payment", "quote.invoice",
                "quote.freight", "quote.issued", "quote.buyer.phone", "quote.buyer.tax_id", "quote.buyer.bank",
                "quote.vendor.phone", "quote.vendor.tax_id", "quote.vendor.bank")
"""Approval fields that schema_version 6 added (prefixes; ``bank`` covers ``bank_account``)."""


def _part_ids(plan: Plan) -> list[str]:
    s, sw = plan.server, plan.software
    ids = [plan.gpu.model, s.cpu, s.memory.part if s.memory else None, s.chassis, s.psu.part,
           *(x.part for x in s.storage), *(n.part for n in s.nics), sw.os, sw.driver, sw.cuda, sw.framework, sw.image]
    return [i for i in dict.fromkeys(ids) if i]


def _find(catalog: Catalog, part_id: str) -> Any:
    found = next((by_id[part_id] for by_id in catalog.parts.values() if part_id in by_id), None)
    return found if found is not None else catalog.cuda(part_id)


def approval_content(plan: Plan, catalog: Catalog, waivers: Iterable[Mapping[str, Any]] = ()) -> Content:
    """What a plan approval attests, field by field (see the module docstring)."""
    out: Content = {}
    data = plan.model_dump(mode="json")
    for section in ("requirements", "gpu", "server", "software", "quote", "prices"):  # prices: the buyer's own
        _flatten(section, data.get(section), out)
    out.pop("server.auto_chosen", None)  # who chose a part is not what is approved
    for key in [k for k in out if k == "quote.issued" or k.startswith("quote.issued.")]:
        # when the quote's paper went out (its issued number and date) is not what is approved: exporting the
        # approved quote issues it, and must not void the approval it carries
        del out[key]
    for key in [k for k, v in out.items() if v == "" and k.startswith(_V6_OPTIONAL)]:
        del out[key]  # fields new in schema_version 6, left empty: a v5 approval stays valid
    _drop_v12_defaults(out)
    from procurement.checklist import ITEM_IDS, ChecklistMark

    for item_id in sorted({*ITEM_IDS, *plan.checklist}):
        mark = plan.checklist.get(item_id) or ChecklistMark()
        out[f"checklist.{item_id}.checked"] = _text(mark.checked)
        out[f"checklist.{item_id}.note"] = mark.note
        if mark.by:
            out[f"checklist.{item_id}.by"] = mark.by
    out["notes"] = plan.notes
    for part_id in _part_ids(plan):
        part = _find(catalog, part_id)
        price = getattr(part, "price_cny", None)
        out[f"price.{part_id}"] = _text(price)
    chosen = next((q for q in plan.vendor_quotes if q.vendor == plan.chosen_vendor), None)
    if chosen is not None:  # only when one is chosen: approvals signed before offers existed stay valid
        out["offer.vendor"] = chosen.vendor
        for key in ("number", "delivery", "warranty", "payment_terms"):
            out[f"offer.{key}"] = getattr(chosen, key)
        out["offer.date"] = chosen.date.isoformat() if chosen.date else ""
        for n, line in enumerate(chosen.lines, 1):
            words: list[str] = []  # the price first: a diff in words shortens long values at their end
            if line.unit_price_cny is not None:
                words += [f"¥{line.unit_price_cny:,.2f}",
                          {True: "incl. VAT", False: "excl. VAT", None: "VAT not stated"}[line.with_vat]]
            words += [f"×{_text(line.quantity)}" if line.quantity is not None else "", line.text,
                      f"[{line.offered}]" if line.offered else "", "[?]" if line.substitute_unknown else ""]
            out[f"offer.line.{n:04d}"] = " ".join(w for w in words if w)  # padded: the diff lists lines in order
    for w in waivers:
        out[f"waiver.{w.get('rule', '')}"] = _text({k: w.get(k) for k in ("reason", "by", "date", "numbers")})
    return out


_V12_FIELDS = tuple(f"requirements.{key}" for key in ("budget_min_cny", *TRAINING_OPTIONS))


def _drop_v12_defaults(out: Content) -> None:
    """The fields new in schema_version 12 (budget minimum, training options) left at their defaults are not
    listed: an approval signed under format 11 stays valid; once set, they are decisions and are signed."""
    defaults: Content = {}
    _flatten("requirements", Requirements().model_dump(mode="json"), defaults)
    for key in [k for k in out if k in _V12_FIELDS or k.startswith(tuple(f + "." for f in _V12_FIELDS))]:
        if key in defaults and out[key] == defaults[key]:
            del out[key]


def acceptance_content(
    approval_digest: str, reports: Iterable[Mapping[str, Any]], conclusion: str, reasons: str = "",
    contract_number: str = "", delivery_date: str = "",
) -> Content:
    """What a delivery acceptance attests: the approval it rests on, the reports, the conclusion, and the contract
    and delivery date the sheet prints (each only once filled in, so an earlier acceptance without them holds)."""
    out: Content = {"approval_digest": approval_digest}
    if contract_number:
        out["contract_number"] = contract_number
    if delivery_date:
        out["delivery_date"] = delivery_date
    for n, report in enumerate(reports, 1):
        out[f"report.{n}"] = hashlib.sha256(_text(dict(report)).encode()).hexdigest()
    out["conclusion"] = conclusion
    out["conclusion_reasons"] = reasons
    return out


register(
    {
        "acceptance.warn.no_reports": (
            "accepted, but no verification report is attached: the machines were not verified"
        ),
        "acceptance.warn.failed": "accepted, but automatic checks failed: {n}",
        "acceptance.warn.other_plan": "accepted, but reports not made against this plan as it is now: {n}",
        "acceptance.warn.unknown": plural(
            "accepted, but {n} automatic check could not be decided (unknown)",
            "accepted, but {n} automatic checks could not be decided (unknown)",
            "n",
        ),
        "acceptance.warn.missing_nodes": plural(
            "accepted, but {n} of the {want} planned nodes has no verification report (reported: {names})",
            "accepted, but {n} of the {want} planned nodes have no verification report (reported: {names})",
            "n",
        ),
    }
)


def acceptance_warnings(plan: Plan, lang: Lang = "zh") -> list[str]:
    """What contradicts an acceptance conclusion of 合格 (accepted): no report, failed checks in the reports made
    against this plan, or reports made against another plan or an older version of it."""
    if plan.acceptance.conclusion != "pass":
        return []
    from procurement.plan import canonical_digest

    if not plan.verification:
        return [t("acceptance.warn.no_reports", lang)]
    digest = canonical_digest(plan)
    ours = [r for r in plan.verification if r.plan_digest == digest]
    failed = sum(1 for r in ours for c in r.checks if c.status == "fail")
    out = [t("acceptance.warn.failed", lang, n=failed)] if failed else []
    unknown = sum(1 for r in ours for c in r.checks if c.status == "unknown")
    if unknown:
        out.append(t("acceptance.warn.unknown", lang, n=unknown))
    # the nodes the plan buys that no report against it comes from (the plan names no node: counted, and
    # the ones that did report are named)
    nodes = {r.host.hostname or r.host.identity() or f"#{i}": r.host.hostname for i, r in enumerate(ours)}
    names = [name.split(".")[0] for name in nodes.values() if name]
    want = plan.requirements.nodes
    if len(nodes) < want:
        out.append(t("acceptance.warn.missing_nodes", lang, n=want - len(nodes), want=want,
                     names=("、" if lang == "zh" else ", ").join(dict.fromkeys(names)) or "—"))
    if len(ours) < len(plan.verification):
        out.append(t("acceptance.warn.other_plan", lang, n=len(plan.verification) - len(ours)))
    return out


def canonical_bytes(kind: Kind, content: Mapping[str, str]) -> bytes:
    """The bytes a digest and an SSH signature are made over (kind included: an approval never passes for an
    acceptance)."""
    return json.dumps({"kind": kind, "content": dict(content)}, ensure_ascii=False, sort_keys=True,
                      separators=(",", ":")).encode("utf-8")


def content_digest(kind: Kind, content: Mapping[str, str]) -> str:
    return hashlib.sha256(canonical_bytes(kind, content)).hexdigest()


# ---------------------------------------------------------------- diff in words


def _unwrap(annotation: Any) -> Any:
    """``Annotated[X, …]`` and ``X | None`` -> ``X``."""
    while True:
        origin = get_origin(annotation)
        if origin is Annotated:
            annotation = get_args(annotation)[0]
        elif origin in (Union, UnionType) and len(args := [a for a in get_args(annotation) if a is not NoneType]) == 1:
            annotation = args[0]
        else:
            return annotation


def _model(annotation: Any) -> type[BaseModel] | None:
    return annotation if isinstance(annotation, type) and issubclass(annotation, BaseModel) else None


_KEY_PARAM = {"prices": "part", "checklist": "item"}
"""The field a dict's key fills in the label of its entries ('{part}: date of entered price'); else 'key'."""
_INDEX_PARAMS = ("n", "m")
"""The fields a list's 1-based position fills, outermost first ('offer {n}, line {m}: quantity')."""
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_INDEX = re.compile(r"\[(\d+)\]")


def model_field_path(path: str, model: type[BaseModel] = Plan) -> tuple[str, dict[str, str]] | None:
    """A flat content path ('prices.a100-pcie-40gb.date', 'server.storage[1].part') as the path of the field in
    the plan model ('prices.date', 'server.storage.part') and what the dict keys and list positions on the way
    were ({'part': 'a100-pcie-40gb'}, {'n': '2'}); None where the path is not a field of the model."""
    names: list[str] = []
    params: dict[str, str] = {}
    rest = path
    lists = 0
    current: type[BaseModel] | None = model
    while rest:
        match = _NAME.match(rest)
        if current is None or match is None or match.group() not in current.model_fields:
            return None
        name = match.group()
        names.append(name)
        rest = rest[match.end():]
        annotation = _unwrap(current.model_fields[name].annotation)
        origin = get_origin(annotation)
        current = _model(annotation)
        if origin is list and rest.startswith("["):
            index = _INDEX.match(rest)
            item = _model(_unwrap(get_args(annotation)[0]))
            if index is None or item is None or lists >= len(_INDEX_PARAMS):
                return None
            params[_INDEX_PARAMS[lists]] = str(int(index.group(1)) + 1)
            lists += 1
            rest, current = rest[index.end():], item
        elif origin is dict and rest.startswith("."):
            value = _model(_unwrap(get_args(annotation)[1]))
            param = _KEY_PARAM.get(name, "key")
            if value is None:  # a mapping of plain values ('requirements.hf_config.num_layers'): one entry
                params["key"] = rest[1:]
                return ".".join(names), params
            # the key may itself hold dots (a part id 'x.y'): the rest after it must be a field of the value
            for cut in [i for i, ch in enumerate(rest) if ch == "."][:0:-1]:
                if model_field_path(rest[cut + 1:], value) is not None:
                    params[param] = rest[1:cut]
                    sub = model_field_path(rest[cut + 1:], value)
                    assert sub is not None
                    return ".".join([*names, sub[0]]), {**params, **sub[1]}
            return None
        if rest:
            if not rest.startswith(".") or current is None:
                return None
            rest = rest[1:]
    return ".".join(names), params


def field_label(path: str, lang: Lang, catalog: Catalog | None = None) -> str:
    """'server.memory.count' -> '内存条数'; a path no label covers is shown as 'field <path>', never an error:
    the void reason of a sign-off must always be printable (a test walks every field of the plan model)."""
    return str(render_value(coded_field_label(path, catalog), lang))


def coded_field_label(path: str, catalog: Catalog | None = None) -> Coded:
    """field_label as a code and its parameters, in no one language (part names are the catalog's)."""
    head, _, rest = path.partition(".")
    prefixed = _prefixed_label(head, rest, catalog) if rest else None
    if prefixed is not None:
        return prefixed
    if f"field.{path}" in MESSAGES and not fields_of(str(english(f"field.{path}"))):
        return coded(f"field.{path}")  # a field of its own: 'gpu.model', 'notes', 'conclusion', …
    return _model_label(path, catalog) or coded("field.unknown", path=path)


def _part_name(catalog: Catalog | None, part_id: str) -> str:
    part = _find(catalog, part_id) if catalog is not None else None
    return str(getattr(part, "name", None) or part_id)


def _prefixed_label(head: str, rest: str, catalog: Catalog | None) -> Coded | None:
    """The label of a path that is not a plan field but names one thing: 'price.<part>', 'waiver.<rule>',
    'report.<n>', 'offer.<what>'."""
    if head == "price":
        return coded("field.price", part=_part_name(catalog, rest))
    if head == "waiver":
        return coded("field.waiver", rule=rest)
    if head == "report":
        return coded("field.report", n=rest)
    if head == "offer":
        if rest.startswith("line."):
            number = rest.removeprefix("line.")
            return coded("field.offer.line", n=int(number) if number.isdigit() else number)
        if f"field.offer.{rest}" in MESSAGES:
            return coded(f"field.offer.{rest}")
    return None


def _model_label(path: str, catalog: Catalog | None) -> Coded | None:
    """The label of a field of the plan model ('server.storage[1].count', 'prices.<part>.date'), or None."""
    found = model_field_path(path)
    if found is None:
        return None
    model_path, params = found
    key = f"field.{model_path}"
    if key not in MESSAGES:
        return None
    fields: dict[str, object] = {**params}
    if "part" in fields:
        fields["part"] = _part_name(catalog, params["part"])
    if "item" in fields:
        item_key = f"checklist.item.{params['item']}"
        fields["item"] = coded(item_key) if item_key in MESSAGES else params["item"]
    if "key" in fields and "{key}" not in str(english(key)):
        return coded("field.entry", label=coded(key, **fields), key=params["key"])
    return coded(key, **fields)


register(
    {
        # values shown in the diff in words, in the reader's language (the signed content keeps the codes)
        "signoff.value.yes": "yes",
        "signoff.value.no": "no",
        "signoff.value.incl_vat": "incl. VAT",
        "signoff.value.excl_vat": "excl. VAT",
        "signoff.value.vat_unknown": "VAT not stated",
        "signoff.value.waiver": "{reason} ({by}, {date})",
        "signoff.line_removed": "{field}: line removed: {old}",
        "signoff.line_added": "{field}: line added: {new}",
        "field.offer.lines": "chosen offer",
        "signoff.value.acceptance.conclusion.pass": "Accepted",
        "signoff.value.acceptance.conclusion.fail": "Rejected",
        "signoff.value.acceptance.conclusion.rework": "Re-inspect after rework",
        "signoff.value.prices.kind.entered": "entered by the buyer",
        "signoff.value.prices.kind.vendor_quote": "vendor quote",
        "signoff.value.prices.kind.company": "company price list",
        "signoff.value.quote.invoice.special": "special VAT invoice (增值税专用发票)",
        "signoff.value.quote.invoice.ordinary": "ordinary VAT invoice (增值税普通发票)",
        "signoff.value.requirements.workload.training": "training",
        "signoff.value.requirements.workload.fine_tuning": "fine-tuning",
        "signoff.value.requirements.workload.inference": "inference",
        "signoff.value.requirements.workload.rendering": "rendering",
        "signoff.value.requirements.workload.scientific": "scientific computing",
        "signoff.value.requirements.workload.data_analysis": "data analysis",
        "signoff.value.requirements.mode.full_training": "full training",
        "signoff.value.requirements.mode.full_finetune": "full fine-tune",
        "signoff.value.requirements.mode.lora": "LoRA",
        "signoff.value.requirements.mode.inference": "inference",
        "signoff.value.requirements.usage.occasional": "occasional",
        "signoff.value.requirements.usage.continuous": "continuous",
        "signoff.value.requirements.data_sensitivity.low": "low",
        "signoff.value.requirements.data_sensitivity.high": "high",
        "signoff.value.requirements.deployment.datacenter": "data centre",
        "signoff.value.requirements.deployment.office": "office",
        "signoff.value.requirements.deployment.lab": "lab",
        "signoff.value.server.storage.role.system": "system",
        "signoff.value.server.storage.role.data": "data",
        "signoff.value.server.storage.role.backup": "backup",
        "signoff.value.server.storage.role.scratch": "scratch",
        "signoff.value.server.psu.redundancy.none": "none",
        "signoff.value.requirements.precision.mixed": "mixed precision",
        "signoff.value.requirements.scheme.dp": "data parallel",
        "signoff.value.requirements.optimizer.sgd_momentum": "SGD with momentum",
        "signoff.value.requirements.optimizer.adam_8bit": "8-bit Adam",
    }
)


def _leaf(model_path: str, model: type[BaseModel] = Plan) -> Any:
    """The annotation of a field by its path in the model ('prices.date' -> date | None), unwrapped; None if not
    a field."""
    current: Any = model
    annotation: Any = None
    for name in model_path.split("."):
        if _model(current) is None or name not in current.model_fields:
            return None
        annotation = _unwrap(current.model_fields[name].annotation)
        origin = get_origin(annotation)
        if origin is list and _model(_unwrap(get_args(annotation)[0])) is not None:
            current = _unwrap(get_args(annotation)[0])
        elif origin is dict and _model(_unwrap(get_args(annotation)[1])) is not None:
            current = _unwrap(get_args(annotation)[1])
        else:
            current = annotation
    return annotation


_ACCEPTANCE_FIELDS = {"conclusion": "acceptance.conclusion", "delivery_date": "acceptance.delivery_date",
                      "contract_number": "acceptance.contract_number", "conclusion_reasons": "acceptance.reasons"}
_VAT_WORDS = (("incl. VAT", "signoff.value.incl_vat"), ("excl. VAT", "signoff.value.excl_vat"),
              ("VAT not stated", "signoff.value.vat_unknown"))


def _number(value: float, money: bool) -> str:
    if money:
        return f"{value:,.2f}"
    return f"{round(value):,}" if abs(value - round(value)) < 1e-9 else f"{value:,.2f}".rstrip("0").rstrip(".")


def shown_value(path: str, value: str, lang: Lang) -> str:
    """A signed value as the diff in words shows it: in the reader's language where it is a yes/no or a code
    ('pass' -> '合格'), numbers grouped ('56999.5' -> '56,999.50' for money), a waiver as its reason, who and
    when; the signed content itself keeps what it signed."""
    return str(render_value(coded_value(path, value), lang))


def coded_value(path: str, value: str) -> Coded | str:
    """shown_value in no one language: a code where the value is a yes/no or a code, else the value as shown."""
    if not value:
        return coded("signoff.empty")
    head = path.partition(".")[0]
    if head == "waiver":
        try:
            data = json.loads(value)
        except ValueError:
            data = None
        if isinstance(data, dict):
            return coded("signoff.value.waiver", reason=data.get("reason") or "—", by=data.get("by") or "—",
                         date=data.get("date") or "—")
        return value
    if head == "offer" and path.startswith("offer.line."):
        return _vat_words(value)
    if head == "price":
        try:
            return _number(float(value), True)
        except ValueError:
            return value
    found = model_field_path(path)
    model_path = _ACCEPTANCE_FIELDS.get(path) or (found[0] if found else "")
    annotation = _leaf(model_path) if model_path else None
    if annotation is bool and value in ("yes", "no"):
        return coded(f"signoff.value.{value}")
    if annotation in (float, int):
        try:
            return _number(float(value), model_path.endswith("_cny"))
        except ValueError:
            return value
    key = f"signoff.value.{model_path}.{value}"
    return coded(key) if key in MESSAGES else value


def _vat_words(value: str) -> Coded | str:
    """An offer line with its VAT words ('incl. VAT') as codes, the rest as it was signed."""
    pieces: list[object] = [value]
    for english_words, key in _VAT_WORDS:
        split: list[object] = []
        for piece in pieces:
            if not isinstance(piece, str) or english_words not in piece:
                split.append(piece)
                continue
            parts = piece.split(english_words)
            for i, part in enumerate(parts):
                if i:
                    split.append(coded(key))
                split.append(part)
        pieces = split
    pieces = [p for p in pieces if p != ""]
    if len(pieces) == 1 and isinstance(pieces[0], str):
        return pieces[0]
    return joined(pieces, "")


_SHORT = 60
"""The longest old or new value a line of the diff in words shows (longer ones end in '…')."""


def _changed_line(path: str, old: str, new: str, catalog: Catalog | None) -> Coded:
    return coded("signoff.changed", field=coded_field_label(path, catalog),
                 old=short(coded_value(path, old), _SHORT), new=short(coded_value(path, new), _SHORT))


def diff_in_words(old: Mapping[str, str], new: Mapping[str, str], lang: Lang = "zh",
                  catalog: Catalog | None = None) -> list[str]:
    """One line per field that changed since signing: '内存条数 16 → 8'. The chosen offer's lines are compared
    by what they say, not by position: a line added at the top is one line added, not every line changed."""
    return [render_text(line, lang) for line in coded_diff(old, new, catalog)]


def coded_diff(old: Mapping[str, str], new: Mapping[str, str], catalog: Catalog | None = None) -> list[Coded]:
    """diff_in_words as codes and parameters, rendered in the reader's language when shown."""
    lines = [_changed_line(path, old.get(path, ""), new.get(path, ""), catalog)
             for path in sorted(set(old) | set(new))
             if not path.startswith("offer.line.") and old.get(path, "") != new.get(path, "")]
    return lines + _offer_line_changes(old, new, catalog)


def _offer_line_changes(old: Mapping[str, str], new: Mapping[str, str], catalog: Catalog | None) -> list[Coded]:
    """The chosen offer's lines compared by what they say: a line found unchanged anywhere is not a change
    (one line added at the top is not every line changed); what is left is paired by position ('line 3:
    ¥800.00 → ¥900.00'), and the rest listed as added or removed."""
    removed = _offer_lines(old)
    added = _offer_lines(new)
    for key, text in list(removed):
        match = next((x for x in added if x[1] == text), None)
        if match is not None:
            removed.remove((key, text))
            added.remove(match)
    out = []
    by_key = dict(added)
    for key, text in list(removed):
        if key in by_key:
            out.append(_changed_line(key, text, by_key.pop(key), catalog))
            removed.remove((key, text))
    label = coded("field.offer.lines")
    out += [coded("signoff.line_removed", field=label, old=short(coded_value(k, x), _SHORT)) for k, x in removed]
    out += [coded("signoff.line_added", field=label, new=short(coded_value(k, x), _SHORT))
            for k, x in added if k in by_key]
    return out


def _offer_lines(content: Mapping[str, str]) -> list[tuple[str, str]]:
    return [(k, content[k]) for k in sorted(content) if k.startswith("offer.line.")]


# ---------------------------------------------------------------- SSH signatures


class SigState(StrEnum):
    VALID = "valid"
    """Sound over this content, by the key the allowed-signers file gives the principal."""
    INVALID = "invalid"
    """Does not match the content (edited after signing) or is not an SSH signature at all."""
    UNKNOWN_KEY = "unknown_key"
    """Sound over this content, but by a key that is not the principal's key in the allowed-signers file."""
    UNCHECKED = "unchecked"
    """Sound over this content; whose key it is was not checked (no allowed-signers file)."""
    NO_TOOL = "no_tool"
    """Nothing checked: ssh-keygen is not installed."""
    UNREADABLE = "unreadable"
    """The key was not checked: the allowed-signers file cannot be used (``detail`` says why)."""
    NO_ANSWER = "no_answer"
    """Nothing checked: ssh-keygen did not answer within ``SSH_VERIFY_TIMEOUT_S`` (``detail``: the seconds)."""


@dataclass(frozen=True)
class SigCheck:
    state: SigState
    principal: str = ""
    fingerprint: str = ""
    detail: str = ""

    def message(self, lang: Lang) -> str:
        return render_text(self.coded(), lang)

    def coded(self) -> Coded:
        return coded(f"signoff.sig.{self.state.value}", principal=self.principal, fingerprint=self.fingerprint,
                     error=self.detail)


class SshError(RuntimeError):
    """ssh-keygen is missing or refused to sign; the message says why."""


class AllowedSignersError(ValueError):
    """An allowed-signers file that cannot be used: missing, not a regular file, unreadable, too big, empty or
    not in the ssh-keygen format. The message says which, in the reader's language; ``coded`` in any."""

    def __init__(self, lang: Lang, key: str, **params: object) -> None:
        self.coded = coded(key, **params)
        super().__init__(render_text(self.coded, lang))


register(
    {
        "signoff.allowed.missing": "allowed-signers file {path}: no such file",
        "signoff.allowed.not_file": "allowed-signers file {path}: not a regular file (a directory, device or pipe)",
        "signoff.allowed.unreadable": "allowed-signers file {path}: cannot be read ({error})",
        "signoff.allowed.too_big": "allowed-signers file {path}: larger than {limit} bytes",
        "signoff.allowed.empty": "allowed-signers file {path}: lists no signer",
        "signoff.allowed.bad_line": (
            "allowed-signers file {path}, line {line}: not in the form 'principals [options] key-type key'"
        ),
    }
)

ALLOWED_SIGNERS_MAX_BYTES = 1_000_000
"""An organisation's allowed-signers file is a few lines per person; anything larger is not one (/dev/zero)."""
_KEY = re.compile(r"(?:^|\s)((?:ssh|ecdsa|sk)-[A-Za-z0-9@._-]+)\s+[A-Za-z0-9+/]+={0,3}(?:\s|$)")


@dataclass(frozen=True)
class AllowedSigners:
    """An allowed-signers file read once and checked (``read_allowed_signers``): ssh-keygen gets a private copy of
    these bytes, so a file swapped for a pipe or a device after the check is never read."""

    path: Path
    data: bytes
    principals: tuple[str, ...]
    """The principal patterns of its lines ('zhang@example.cn', '*@example.cn')."""

    def lists(self, principal: str) -> bool:
        """Whether some line of the file is for ``principal`` (ssh-keygen's wildcard patterns)."""
        return bool(principal) and any(fnmatch.fnmatchcase(principal, p) for p in self.principals
                                       if not p.startswith("!"))


def read_allowed_signers(path: Path, lang: Lang = "en") -> AllowedSigners:
    """The allowed-signers file at ``path``, checked: a regular file, readable, at most
    ``ALLOWED_SIGNERS_MAX_BYTES``, every line 'principals [options] key-type key'. A pipe or a device is never
    opened for reading (it could block or never end)."""
    shown = str(path)
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise AllowedSignersError(lang, "signoff.allowed.missing", path=shown) from None
    except OSError as exc:
        raise AllowedSignersError(lang, "signoff.allowed.unreadable", path=shown,
                                  error=str(exc.strerror or exc)) from None
    if not stat.S_ISREG(st.st_mode):
        raise AllowedSignersError(lang, "signoff.allowed.not_file", path=shown)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
        with os.fdopen(fd, "rb") as fp:
            if not stat.S_ISREG(os.fstat(fp.fileno()).st_mode):  # swapped between the stat and the open
                raise AllowedSignersError(lang, "signoff.allowed.not_file", path=shown)
            data = fp.read(ALLOWED_SIGNERS_MAX_BYTES + 1)
    except OSError as exc:
        raise AllowedSignersError(lang, "signoff.allowed.unreadable", path=shown,
                                  error=str(exc.strerror or exc)) from None
    if len(data) > ALLOWED_SIGNERS_MAX_BYTES:
        raise AllowedSignersError(lang, "signoff.allowed.too_big", path=shown, limit=ALLOWED_SIGNERS_MAX_BYTES)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise AllowedSignersError(lang, "signoff.allowed.bad_line", path=shown, line=1) from None
    principals: list[str] = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if "\x00" in line or _KEY.search(line) is None or len(line.split()) < 3:
            raise AllowedSignersError(lang, "signoff.allowed.bad_line", path=shown, line=number)
        principals += [p for p in line.split()[0].split(",") if p]
    if not principals:
        raise AllowedSignersError(lang, "signoff.allowed.empty", path=shown)
    return AllowedSigners(path, data, tuple(principals))


def allowed_signers_arg(text: str) -> AllowedSigners:
    """argparse ``type=`` of ``--allowed-signers``: an unusable file is a usage error (exit status 2), never
    silently 'not checked'."""
    import argparse

    from procurement.messages import default_lang

    try:
        return read_allowed_signers(Path(text), default_lang())
    except AllowedSignersError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _allowed(allowed_signers: Path | AllowedSigners | None) -> tuple[AllowedSigners | None, Coded | None]:
    """The allowed signers to check against, or why they cannot be used (None when none were given)."""
    if allowed_signers is None or isinstance(allowed_signers, AllowedSigners):
        return allowed_signers, None
    try:
        return read_allowed_signers(allowed_signers), None
    except AllowedSignersError as exc:
        return None, exc.coded


SSH_SIGN_TIMEOUT_S = 60.0
SSH_VERIFY_TIMEOUT_S = 30.0
"""How long ssh-keygen may take to sign or check (it answers in milliseconds; a wrapper that hangs gets a clear
error or an unchecked signature, never an exception out of the window)."""


class _NoAnswer(Exception):
    """ssh-keygen did not answer in time (raised inside the cached check, so that no answer is never cached)."""


def _ssh_keygen() -> str:
    exe = shutil.which("ssh-keygen")
    if exe is None:
        raise SshError("ssh-keygen not found (Debian/Ubuntu: apt-get install openssh-client)")
    return exe


MAX_KEY_BYTES = 64 * 1024
"""An SSH key or allowed-signers line is a few kB; ssh-keygen read /dev/zero given as the key to 2.1 GB."""


def _copy_bounded(source: Path, folder: Path, name: str, limit: int = MAX_KEY_BYTES) -> Path:
    """A private copy (mode 0600) of the regular file ``source``, read with the one bounded reader, for
    ssh-keygen to read instead of the path given (a FIFO, a device or a huge file is refused here)."""
    from procurement.safe_io import InputFileError, read_bounded

    try:
        data = read_bounded(source, limit)
    except InputFileError as exc:
        raise SshError(f"{source}: {exc.strerror}") from None
    except OSError as exc:
        raise SshError(f"{source}: cannot read ({exc.strerror or exc})") from None
    copy = folder / name
    fd = os.open(copy, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as fh:
        fh.write(data)
    return copy


def ssh_sign(data: bytes, key: Path) -> str:
    """An armored SSH signature of ``data`` with the private ``key`` (ssh-keygen -Y sign), given to
    ssh-keygen as a bounded private copy (a FIFO or device is refused, never handed on)."""
    exe = _ssh_keygen()
    with tempfile.TemporaryDirectory(prefix="gpu-procure-sign-") as tmp:
        key_copy = _copy_bounded(Path(key), Path(tmp), "key")
        msg = Path(tmp) / "content"
        msg.write_bytes(data)
        try:
            run = subprocess.run([exe, "-Y", "sign", "-f", str(key_copy), "-n", SSH_NAMESPACE, str(msg)],
                                 capture_output=True, text=True, timeout=SSH_SIGN_TIMEOUT_S, check=False,
                                 env={**os.environ, "SSH_ASKPASS_REQUIRE": "never"}, stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            raise SshError(f"ssh-keygen -Y sign did not finish within {SSH_SIGN_TIMEOUT_S:g} s: "
                           "nothing was signed") from None
        except OSError as exc:
            raise SshError(f"ssh-keygen could not be started: {exc.strerror or exc}") from None
        sig = Path(str(msg) + ".sig")
        if run.returncode != 0 or not sig.is_file():
            raise SshError(f"ssh-keygen -Y sign failed: {run.stderr.strip() or run.returncode}")
        return sig.read_text(encoding="ascii")


def signature_fingerprint(signature: str) -> str:
    """'SHA256:…' of the public key inside an armored SSH signature (the SSHSIG blob names its key), or ''."""
    lines = [ln.strip() for ln in signature.strip().splitlines()]
    body = "".join(ln for ln in lines if ln and not ln.startswith("-----"))
    try:
        blob = base64.b64decode(body, validate=True)
    except (binascii.Error, ValueError):
        return ""
    if not blob.startswith(b"SSHSIG") or len(blob) < 14:
        return ""
    size = int.from_bytes(blob[10:14], "big")
    key = blob[14 : 14 + size]
    if len(key) != size:
        return ""
    return "SHA256:" + base64.b64encode(hashlib.sha256(key).digest()).decode().rstrip("=")


def ssh_verify(data: bytes, signature: str, principal: str, allowed_signers: Path | AllowedSigners | None,
               lang: Lang = "en") -> SigCheck:
    """Whether ``signature`` is sound over ``data`` (checked with or without an allowed-signers file: a stale
    signature kept beside a recomputed digest is invalid either way) and, with the file, whether it was made
    by the key the file gives ``principal``."""
    allowed, problem = _allowed(allowed_signers)
    try:
        return _verify(data, signature, principal, allowed.data if allowed is not None else None,
                       render_text(problem, lang) if problem is not None else "")
    except _NoAnswer:
        return SigCheck(SigState.NO_ANSWER, principal, signature_fingerprint(signature), f"{SSH_VERIFY_TIMEOUT_S:g}")


def _keygen_run(cmd: list[str], data: bytes) -> subprocess.CompletedProcess[bytes]:
    try:
        return subprocess.run(cmd, input=data, capture_output=True, timeout=SSH_VERIFY_TIMEOUT_S, check=False)
    except subprocess.TimeoutExpired:
        raise _NoAnswer from None


@functools.lru_cache(maxsize=256)
def _verify(data: bytes, signature: str, principal: str, allowed_data: bytes | None, problem: str) -> SigCheck:
    """ssh_verify's checks, once per content, signature and allowed-signers bytes: the checklist page asks on
    every refresh, and the answer depends on nothing else."""
    try:
        exe = _ssh_keygen()
    except SshError:
        return SigCheck(SigState.NO_TOOL, principal)
    fingerprint = signature_fingerprint(signature)
    with tempfile.TemporaryDirectory(prefix="gpu-procure-verify-") as tmp_name:
        tmp = Path(tmp_name)
        sig = tmp / "content.sig"
        try:
            sig.write_text(signature, encoding="ascii")
        except UnicodeEncodeError:
            return SigCheck(SigState.INVALID, principal, fingerprint)
        sound = _keygen_run([exe, "-Y", "check-novalidate", "-n", SSH_NAMESPACE, "-s", str(sig)], data)
        if sound.returncode != 0:
            return SigCheck(SigState.INVALID, principal, fingerprint)
        if problem:
            return SigCheck(SigState.UNREADABLE, principal, fingerprint, problem)
        if allowed_data is None:
            return SigCheck(SigState.UNCHECKED, principal, fingerprint)
        copy = tmp / "allowed_signers"
        copy.write_bytes(allowed_data)
        run = _keygen_run([exe, "-Y", "verify", "-f", str(copy), "-I", principal, "-n", SSH_NAMESPACE,
                           "-s", str(sig)], data)
        state = SigState.VALID if run.returncode == 0 else SigState.UNKNOWN_KEY
        return SigCheck(state, principal, fingerprint)


# ---------------------------------------------------------------- sign-offs in a plan


class SignoffState(StrEnum):
    VALID = "valid"
    """Signed, and the content is what was signed (and every SSH signature checked is sound)."""
    VOID = "void"
    """The content changed since signing: ``changes`` says what."""
    SIGNATURE_INVALID = "signature_invalid"
    """An SSH signature does not match the content: the file was edited and the digest recomputed."""
    SIGNATURE_MISSING = "signature_missing"
    """Checked against an allowed-signers file, a signer has no SSH signature (removed, or never made)."""
    UNKNOWN_KEY = "unknown_key"
    """An SSH signature was made by a key that is not the one the allowed-signers file gives its principal."""
    LEGACY = "legacy"
    """Signed in an older plan format whose digest covered other content: needs re-signing."""
    UNSIGNED = "unsigned"


class SignOffError(ValueError):
    """A sign-off that cannot be made (no name, an unknown kind, ssh-keygen refused)."""


register(
    {
        "signoff.state.valid": "valid ({signers})",
        "signoff.state.void": "void: the content changed after signing",
        "signoff.state.signature_invalid": (
            "signature invalid: the file was edited after signing (the digest was recomputed)"
        ),
        "signoff.state.unknown_key": "signed by a key that is not the signer's allowed key",
        "signoff.state.signature_missing": (
            "SSH signature missing: checked against the allowed signers, {names} has no SSH signature to verify"
        ),
        "signoff.state.legacy": "needs re-signing: signed in an older version whose signed content cannot be checked",
        "signoff.state.unsigned": "not signed",
        "signoff.signer": "{name}, {date}",
        "signoff.signer_role": "{name} ({role}), {date}",
        "signoff.no_name": "the signer's name must not be empty",
        "signoff.finding.void": "{kind} is void; changed since signing: {changes}",
        "signoff.finding.fix": "review the changes and sign again",
        "signoff.finding.other": "{kind}: {state}",
        "signoff.finding.key": "{kind}: {signer} — {check}",
        "signoff.finding.key_fix": "have the signer sign again with their own key, or correct the allowed-signers file",
        "signoff.finding.missing_fix": "have the signer sign again with their SSH key",
        "signoff.finding.allowed": "{kind}: {problem}",
        "signoff.finding.allowed_fix": "point --allowed-signers at the organisation's allowed-signers file",
    }
)


@dataclass(frozen=True)
class SignoffStatus:
    kind: Kind
    state: SignoffState
    changes: tuple[str, ...] = ()
    """What changed since signing, in words ('内存条数：16 → 8'), in the language asked for; also when the state is
    worse than void."""
    signatures: tuple[SigCheck, ...] = ()
    """One per signer with an SSH signature."""
    missing: tuple[str, ...] = ()
    """Signers without an SSH signature, when checked against an allowed-signers file (it may be stripped)."""
    allowed_problem: str = ""
    """Why the allowed-signers file given could not be used ('' when it could, or none was given)."""
    coded_changes: tuple[Coded, ...] = ()
    """``changes`` as codes and parameters, in no one language (the SIGNOFF-VOID finding's)."""
    coded_problem: Coded | None = None
    """``allowed_problem`` as a code and its parameters."""

    def message(self, plan: Plan, lang: Lang) -> str:
        return render_text(self.coded_message(plan), lang)

    def coded_message(self, plan: Plan) -> Coded:
        so = plan.signoffs.get(self.kind)
        return coded(f"signoff.state.{self.state.value}",
                     signers=clauses(coded_signer(s) for s in so.signers) if so else "",
                     names=coded(NAMES, items=list(self.missing)))


def signer_text(signer: Any, lang: Lang) -> str:
    return render_text(coded_signer(signer), lang)


def coded_signer(signer: Any) -> Coded:
    key = "signoff.signer_role" if signer.role else "signoff.signer"
    return coded(key, name=signer.name, role=signer.role, date=signer.date.isoformat())


def approval_digest(plan: Plan, catalog: Catalog) -> str:
    return content_digest("approval", current_content(plan, "approval", catalog))


def current_content(plan: Plan, kind: Kind, catalog: Catalog) -> Content:
    """What a sign-off of ``kind`` would sign now."""
    if kind == "approval":
        return approval_content(plan, catalog, [w.model_dump(mode="json") for w in plan.waivers])
    acc = plan.acceptance
    return acceptance_content(approval_digest(plan, catalog), plan.verification_data(), acc.conclusion or "",
                              acc.reasons, acc.contract_number,
                              acc.delivery_date.isoformat() if acc.delivery_date else "")


def signoff_status(plan: Plan, kind: Kind, catalog: Catalog, allowed_signers: Path | AllowedSigners | None = None,
                   lang: Lang = "zh") -> SignoffStatus:
    """Whether the sign-off of ``kind`` still covers the plan as it is, and if not, what changed.

    Worst first: a recorded content that no longer matches its digest or an SSH signature (edited by hand);
    a signature removed from a signer who signs with a key, or one made by another key than the signer's
    (both only decidable with an allowed-signers file); then void (the plan changed since signing)."""
    so = plan.signoffs.get(kind)
    if so is None:
        return SignoffStatus(kind, SignoffState.UNSIGNED)
    if so.legacy:
        return SignoffStatus(kind, SignoffState.LEGACY)
    allowed, problem = _allowed(allowed_signers)
    problem_text = render_text(problem, lang) if problem is not None else ""
    now = current_content(plan, kind, catalog)
    data = canonical_bytes(kind, so.content)
    checks = tuple(ssh_verify(data, s.ssh_signature, s.ssh_principal or s.name, allowed or allowed_signers, lang)
                   for s in so.signers if s.ssh_signature)
    # checked against an allowed-signers file, a signer without a signature cannot be verified: the signature may
    # have been stripped (with its principal, so nothing in the file is left to tell), and is an error
    missing = tuple(s.name for s in so.signers if not s.ssh_signature) if allowed is not None else ()
    changes = tuple(coded_diff(so.content, now, catalog)) if content_digest(kind, now) != so.digest else ()
    if any(c.state == SigState.INVALID for c in checks) or content_digest(kind, so.content) != so.digest:
        state = SignoffState.SIGNATURE_INVALID  # the recorded content no longer matches itself: edited by hand
    elif missing:
        state = SignoffState.SIGNATURE_MISSING
    elif any(c.state == SigState.UNKNOWN_KEY for c in checks):
        state = SignoffState.UNKNOWN_KEY
    elif changes:
        state = SignoffState.VOID
    else:
        state = SignoffState.VALID
    kept = changes if state != SignoffState.SIGNATURE_INVALID else ()
    return SignoffStatus(kind, state, tuple(render_text(c, lang) for c in kept), checks, missing, problem_text,
                         kept, problem)


def sign(plan: Plan, kind: Kind, name: str, role: str, catalog: Catalog, date: dt.date | None = None,
         key: Path | None = None, principal: str = "", lang: Lang = "zh") -> Plan:
    """A new Plan with ``name`` signing the ``kind`` sign-off over the content as it is now.

    Another signer of the same content is added to the sign-off; a sign-off over other content (void, or
    migrated) is replaced. With ``key``, the canonical content is also signed with that SSH key.
    """
    from procurement.plan import Signer, SignOff

    if kind not in KINDS:
        raise SignOffError(f"unknown sign-off kind {kind!r} (expected one of {', '.join(KINDS)})")
    if not name.strip():
        raise SignOffError(t("signoff.no_name", lang))
    content = current_content(plan, kind, catalog)
    digest = content_digest(kind, content)
    signature = ""
    if key is not None:
        try:
            signature = ssh_sign(canonical_bytes(kind, content), key)
        except SshError as exc:
            raise SignOffError(str(exc)) from None
    signer = Signer(name=name.strip(), role=role.strip(), date=date or dt.date.today(),
                    ssh_principal=(principal or name).strip() if signature else "", ssh_signature=signature)
    old = plan.signoffs.get(kind)
    if old is not None and not old.legacy and old.digest == digest and old.content == content:
        signers = [s for s in old.signers if s.name != signer.name] + [signer]
    else:
        signers = [signer]
    so = SignOff(digest=digest, content=content, signers=signers)
    return plan.model_copy(update={"signoffs": {**plan.signoffs, kind: so}})


def unsign(plan: Plan, kind: Kind) -> Plan:
    return plan.model_copy(update={"signoffs": {k: v for k, v in plan.signoffs.items() if k != kind}})


def signoff_findings(plan: Plan, catalog: Catalog,
                     allowed_signers: Path | AllowedSigners | None = None) -> list[Finding]:
    """A finding per thing that makes a sign-off not hold: SIGNOFF-SIGNATURE (edited after signing),
    SIGNOFF-SIGNATURE-MISSING (a key signer's signature removed), SIGNOFF-UNKNOWN-KEY (signed by another key than
    the signer's), SIGNOFF-ALLOWED-SIGNERS (the file cannot be used) — errors; SIGNOFF-VOID (with the changes in
    words) and SIGNOFF-LEGACY (needs re-signing) — warnings. They store codes: shown in the reader's language."""
    out: list[Finding] = []

    def add(rule: str, kind: Kind, severity: Severity, message: Coded, fix: str) -> None:
        out.append(Finding(rule=rule, family="signoff", severity=severity, step=5, fields=(f"signoffs.{kind}",),
                           coded_message=message, coded_fix=coded(fix)))

    for kind in KINDS:
        st = signoff_status(plan, kind, catalog, allowed_signers)
        name = coded(f"signoff.kind.{kind}")
        so = plan.signoffs.get(kind)
        if st.coded_problem is not None and so is not None:
            add("SIGNOFF-ALLOWED-SIGNERS", kind, Severity.ERROR,
                coded("signoff.finding.allowed", kind=name, problem=st.coded_problem), "signoff.finding.allowed_fix")
        if st.state in (SignoffState.SIGNATURE_INVALID, SignoffState.LEGACY):
            rule = "SIGNOFF-SIGNATURE" if st.state == SignoffState.SIGNATURE_INVALID else "SIGNOFF-LEGACY"
            sev = Severity.ERROR if st.state == SignoffState.SIGNATURE_INVALID else Severity.WARNING
            add(rule, kind, sev, coded("signoff.finding.other", kind=name, state=st.coded_message(plan)),
                "signoff.finding.fix")
            continue
        if st.missing:
            add("SIGNOFF-SIGNATURE-MISSING", kind, Severity.ERROR,
                coded("signoff.finding.other", kind=name,
                      state=coded("signoff.state.signature_missing", names=coded(NAMES, items=list(st.missing)))),
                "signoff.finding.missing_fix")
        signed = [s for s in so.signers if s.ssh_signature] if so is not None else []
        for signer, check in zip(signed, st.signatures, strict=False):
            if check.state == SigState.UNKNOWN_KEY:
                add("SIGNOFF-UNKNOWN-KEY", kind, Severity.ERROR,
                    coded("signoff.finding.key", kind=name, signer=signer.name, check=check.coded()),
                    "signoff.finding.key_fix")
        if st.coded_changes:
            add("SIGNOFF-VOID", kind, Severity.WARNING,
                coded("signoff.finding.void", kind=name, changes=clauses(st.coded_changes)), "signoff.finding.fix")
    return out

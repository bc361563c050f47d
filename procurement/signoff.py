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
import hashlib
import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from catalog.compat import StrEnum
from catalog.loader import Catalog
from procurement.findings import Finding, Severity
from procurement.messages import Lang, register, t
from procurement.plan import Plan

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
        "signoff.sig.unknown_key": "signed by an unknown key ({fingerprint}), not in the allowed signers",
        "signoff.sig.unchecked": "SSH signature not checked (no allowed-signers file, or no ssh-keygen)",
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


def field_label(path: str, lang: Lang, catalog: Catalog | None = None) -> str:
    """'server.memory.count' -> '内存条数'; an unknown path is shown as it is."""
    head, _, rest = path.partition(".")
    if head == "checklist" and rest:
        item, _, leaf = rest.rpartition(".")
        label = t(f"checklist.item.{item}", lang)
        return t(f"field.checklist.{leaf}", lang, item=label)
    if head == "price":
        part = _find(catalog, rest) if catalog is not None else None
        return t("field.price", lang, part=getattr(part, "name", rest))
    if head == "waiver":
        return t("field.waiver", lang, rule=rest)
    if head == "report":
        return t("field.report", lang, n=rest)
    if head == "offer":
        if rest.startswith("line."):
            number = rest.removeprefix("line.")
            return t("field.offer.line", lang, n=int(number) if number.isdigit() else number)
        return t(f"field.offer.{rest}", lang)
    if head == "quote" and rest.split(".")[0] in ("buyer", "vendor"):
        who, _, what = rest.partition(".")
        return t(f"field.quote.{who}", lang, what=t(f"field.party.{what}", lang))
    if head == "requirements":
        return f"{t('field.requirements', lang)} {rest}"
    base = path.split("[")[0]
    key = f"field.{base}"
    label = t(key, lang)
    if label == key:  # no label registered: the path itself
        return path
    return label + (path[len(base):] if "[" in path else "")


def _short(value: str, lang: Lang, limit: int = 60) -> str:
    if not value:
        return t("signoff.empty", lang)
    one_line = " ".join(value.split())
    return one_line if len(one_line) <= limit else one_line[: limit - 1] + "…"


def diff_in_words(old: Mapping[str, str], new: Mapping[str, str], lang: Lang = "zh",
                  catalog: Catalog | None = None) -> list[str]:
    """One line per field that changed since signing: '内存条数 16 → 8'."""
    lines = []
    for path in sorted(set(old) | set(new)):
        a, b = old.get(path, ""), new.get(path, "")
        if a != b:
            lines.append(t("signoff.changed", lang, field=field_label(path, lang, catalog),
                           old=_short(a, lang), new=_short(b, lang)))
    return lines


# ---------------------------------------------------------------- SSH signatures


class SigState(StrEnum):
    VALID = "valid"
    INVALID = "invalid"
    UNKNOWN_KEY = "unknown_key"
    UNCHECKED = "unchecked"


@dataclass(frozen=True)
class SigCheck:
    state: SigState
    principal: str = ""
    fingerprint: str = ""

    def message(self, lang: Lang) -> str:
        return t(f"signoff.sig.{self.state.value}", lang, principal=self.principal, fingerprint=self.fingerprint)


class SshError(RuntimeError):
    """ssh-keygen is missing or refused to sign; the message says why."""


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
        run = subprocess.run([exe, "-Y", "sign", "-f", str(key_copy), "-n", SSH_NAMESPACE, str(msg)],
                             capture_output=True, text=True, timeout=60, check=False,
                             env={**os.environ, "SSH_ASKPASS_REQUIRE": "never"}, stdin=subprocess.DEVNULL)
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


def ssh_verify(data: bytes, signature: str, principal: str, allowed_signers: Path | None) -> SigCheck:
    """Whether ``signature`` is ``principal``'s signature of ``data`` by the allowed-signers file."""
    try:
        exe = _ssh_keygen()
    except SshError:
        return SigCheck(SigState.UNCHECKED, principal)
    with tempfile.TemporaryDirectory(prefix="gpu-procure-verify-") as tmp_name:
        tmp = Path(tmp_name)
        fingerprint = signature_fingerprint(signature)
        if allowed_signers is None or not allowed_signers.is_file():
            return SigCheck(SigState.UNCHECKED, principal, fingerprint)
        try:
            signers = _copy_bounded(allowed_signers, tmp, "allowed_signers", 4 * 1024 * 1024)
        except SshError:
            return SigCheck(SigState.UNCHECKED, principal, fingerprint)
        sig = tmp / "content.sig"
        sig.write_text(signature, encoding="ascii")
        run = subprocess.run([exe, "-Y", "verify", "-f", str(signers), "-I", principal,
                              "-n", SSH_NAMESPACE, "-s", str(sig)], input=data, capture_output=True,
                             timeout=30, check=False)
        if run.returncode == 0:
            return SigCheck(SigState.VALID, principal, fingerprint)
        # Is the signature sound over this content at all (only the key is not allowed)?
        novalidate = subprocess.run([exe, "-Y", "check-novalidate", "-n", SSH_NAMESPACE, "-s", str(sig)],
                                    input=data, capture_output=True, timeout=30, check=False)
        state = SigState.UNKNOWN_KEY if novalidate.returncode == 0 else SigState.INVALID
        return SigCheck(state, principal, fingerprint)


# ---------------------------------------------------------------- sign-offs in a plan


class SignoffState(StrEnum):
    VALID = "valid"
    """Signed, and the content is what was signed (and every SSH signature checked is sound)."""
    VOID = "void"
    """The content changed since signing: ``changes`` says what."""
    SIGNATURE_INVALID = "signature_invalid"
    """An SSH signature does not match the content: the file was edited and the digest recomputed."""
    UNKNOWN_KEY = "unknown_key"
    """Content unchanged, but an SSH signature was made by a key not in the allowed signers."""
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
        "signoff.state.unknown_key": "content unchanged, but signed by a key not in the allowed signers",
        "signoff.state.legacy": "needs re-signing: signed in an older version whose signed content cannot be checked",
        "signoff.state.unsigned": "not signed",
        "signoff.signer": "{name}, {date}",
        "signoff.signer_role": "{name} ({role}), {date}",
        "signoff.no_name": "the signer's name must not be empty",
        "signoff.finding.void": "{kind} is void; changed since signing: {changes}",
        "signoff.finding.fix": "review the changes and sign again",
        "signoff.finding.other": "{kind}: {state}",
    }
)


@dataclass(frozen=True)
class SignoffStatus:
    kind: Kind
    state: SignoffState
    changes: tuple[str, ...] = ()
    """What changed since signing, in words ('内存条数：16 → 8')."""
    signatures: tuple[SigCheck, ...] = ()
    """One per signer with an SSH signature."""

    def message(self, plan: Plan, lang: Lang) -> str:
        so = plan.signoffs.get(self.kind)
        signers = ("；" if lang == "zh" else "; ").join(signer_text(s, lang) for s in so.signers) if so else ""
        return t(f"signoff.state.{self.state.value}", lang, signers=signers)


def signer_text(signer: Any, lang: Lang) -> str:
    key = "signoff.signer_role" if signer.role else "signoff.signer"
    return t(key, lang, name=signer.name, role=signer.role, date=signer.date.isoformat())


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


def signoff_status(plan: Plan, kind: Kind, catalog: Catalog, allowed_signers: Path | None = None,
                   lang: Lang = "zh") -> SignoffStatus:
    """Whether the sign-off of ``kind`` still covers the plan as it is, and if not, what changed."""
    so = plan.signoffs.get(kind)
    if so is None:
        return SignoffStatus(kind, SignoffState.UNSIGNED)
    if so.legacy:
        return SignoffStatus(kind, SignoffState.LEGACY)
    now = current_content(plan, kind, catalog)
    checks = tuple(ssh_verify(canonical_bytes(kind, so.content), s.ssh_signature, s.ssh_principal or s.name,
                              allowed_signers) for s in so.signers if s.ssh_signature)
    if any(c.state == SigState.INVALID for c in checks) or content_digest(kind, so.content) != so.digest:
        # the recorded content no longer matches its own digest or signature: edited by hand
        return SignoffStatus(kind, SignoffState.SIGNATURE_INVALID, signatures=checks)
    if content_digest(kind, now) != so.digest:
        return SignoffStatus(kind, SignoffState.VOID, tuple(diff_in_words(so.content, now, lang, catalog)), checks)
    if any(c.state == SigState.UNKNOWN_KEY for c in checks):
        return SignoffStatus(kind, SignoffState.UNKNOWN_KEY, signatures=checks)
    return SignoffStatus(kind, SignoffState.VALID, signatures=checks)


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


def signoff_findings(plan: Plan, catalog: Catalog, lang: Lang = "zh",
                     allowed_signers: Path | None = None) -> list[Finding]:
    """A finding per sign-off that no longer holds: SIGNOFF-VOID (with the changes in words), SIGNOFF-SIGNATURE
    (edited after signing), SIGNOFF-UNKNOWN-KEY, SIGNOFF-LEGACY (needs re-signing)."""
    out: list[Finding] = []
    for kind in KINDS:
        st = signoff_status(plan, kind, catalog, allowed_signers, lang)
        name = t(f"signoff.kind.{kind}", lang)
        if st.state == SignoffState.VOID:
            sep = "；" if lang == "zh" else "; "
            out.append(Finding(rule="SIGNOFF-VOID", family="signoff", severity=Severity.WARNING, step=5,
                               fields=(f"signoffs.{kind}",),
                               message=t("signoff.finding.void", lang, kind=name, changes=sep.join(st.changes)),
                               fix=t("signoff.finding.fix", lang)))
        elif st.state in (SignoffState.SIGNATURE_INVALID, SignoffState.UNKNOWN_KEY, SignoffState.LEGACY):
            rule = {SignoffState.SIGNATURE_INVALID: "SIGNOFF-SIGNATURE",
                    SignoffState.UNKNOWN_KEY: "SIGNOFF-UNKNOWN-KEY", SignoffState.LEGACY: "SIGNOFF-LEGACY"}[st.state]
            sev = Severity.ERROR if st.state == SignoffState.SIGNATURE_INVALID else Severity.WARNING
            out.append(Finding(rule=rule, family="signoff", severity=sev, step=5, fields=(f"signoffs.{kind}",),
                               message=t("signoff.finding.other", lang, kind=name,
                                         state=st.message(plan, lang)),
                               fix=t("signoff.finding.fix", lang)))
    return out

"""The sign-off blocks of the PDFs: what the sign-off covers, its state and what changed since signing, the
signers with roles, dates and signature boxes, a seal box, and the honest wording about the digest."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from reportlab.platypus import Flowable, KeepTogether, Spacer

from catalog.loader import Catalog
from procurement.messages import languages, register, t
from procurement.plan import Plan
from procurement.reports.common import STATUS_BG, Paper, Styles, markup, scaled, table
from procurement.signoff import AllowedSigners, Kind, SignoffState, SigState, signature_fingerprint, signoff_status

register(
    {
        "sopdf.title": "{kind} sign-off",
        "sopdf.state": "State",
        "sopdf.digest": "Digest of the signed content",
        "sopdf.changes": "Changed since signing",
        "sopdf.col.role": "Party / role",
        "sopdf.col.name": "Name",
        "sopdf.col.date": "Date",
        "sopdf.col.signature": "Signature",
        "sopdf.seal": "Seal",
        "sopdf.role.user": "User department",
        "sopdf.role.assets": "Asset management",
        "sopdf.role.vendor": "Vendor representative",
        "sopdf.conclusion": "Conclusion",
    }
)

BLANK_ROLES = ("user", "assets", "vendor")
STATE_BG = {
    SignoffState.VALID: STATUS_BG["pass"],
    SignoffState.UNSIGNED: STATUS_BG["unknown"],
    SignoffState.LEGACY: STATUS_BG["attention"],
}
"""Any other state (void, signature invalid or missing, another key) is shown as a failure."""


def _party_signed(role: str, signers: list[Any]) -> bool:
    """Whether a signer's role names the party ``role`` (its key or its label in any language): that party has
    signed, and gets no blank row."""
    names = {role, *(t(f"sopdf.role.{role}", lang) for lang in languages())}
    wanted = {" ".join(n.casefold().split()) for n in names}
    return any(" ".join(s.role.casefold().split()) in wanted for s in signers if s.role)


def signoff_block(plan: Plan, kind: Kind, catalog: Catalog, st: Styles, paper: Paper,
                  allowed_signers: Path | AllowedSigners | None = None) -> Flowable:
    """One sign-off: covers, honest note, state (with the changes in words), digest, signers and a seal box."""
    lang = st.lang
    status = signoff_status(plan, kind, catalog, allowed_signers, lang)
    so = plan.signoffs.get(kind)
    kind_name = t(f"signoff.kind.{kind}", lang)
    rows: list[list[object]] = [
        [st.p(t("sopdf.title", lang, kind=kind_name), st.cell_head), "", "", "", ""],
        [st.p(t(f"signoff.covers.{kind}", lang) + " " + t("signoff.honest", lang), st.small), "", "", "", ""],
        [st.p(t("sopdf.state", lang), st.cell), st.p(status.message(plan, lang), st.cell), "", "", ""],
    ]
    extra: list[tuple[object, ...]] = [
        ("SPAN", (0, 0), (-1, 0)), ("SPAN", (0, 1), (-1, 1)), ("SPAN", (1, 2), (-1, 2)),
        ("BACKGROUND", (1, 2), (-1, 2), STATE_BG.get(status.state, STATUS_BG["fail"])),
    ]
    if status.changes:
        r = len(rows)
        rows.append([st.p(t("sopdf.changes", lang), st.cell),
                     st.raw("<br/>".join(markup(c) for c in status.changes), st.cell), "", "", ""])
        extra.append(("SPAN", (1, r), (-1, r)))
    if so is not None:
        r = len(rows)
        rows.append([st.p(t("sopdf.digest", lang), st.cell), st.p(so.digest, st.mono), "", "", ""])
        extra.append(("SPAN", (1, r), (-1, r)))
    head = len(rows)
    rows.append([st.p(t(f"sopdf.col.{c}", lang), st.cell_head) for c in ("role", "name", "date", "signature")]
                + [st.p(t("sopdf.seal", lang), st.cell_head)])
    signers = list(so.signers) if so is not None else []
    checks = list(status.signatures)
    ssh_rows: list[int] = []
    for s in signers:
        rows.append([st.name(s.role or "—", st.cell), st.name(s.name, st.cell), st.p(s.date.isoformat(), st.cell),
                     "", ""])
        if s.ssh_signature:
            # the SSH signature's key and whether it holds, on a line of its own: a fingerprint is one token
            check = checks.pop(0) if checks else None
            fp = signature_fingerprint(s.ssh_signature) or "?"
            said = check.message(lang) if check is not None and check.state != SigState.UNCHECKED else \
                t("signoff.sig.unchecked", lang) + f" ({fp})"
            ssh_rows.append(len(rows))
            rows.append([st.p(said, st.small), "", "", "", ""])
    for role in BLANK_ROLES:  # blank lines for the parties still to sign on paper (all of them once void)
        if status.state == SignoffState.VALID and _party_signed(role, signers):
            continue
        rows.append([st.p(t(f"sopdf.role.{role}", lang), st.cell), "", "", "", ""])
    last = len(rows) - 1
    extra += [
        ("SPAN", (4, head + 1), (4, last)),  # one seal box beside the signers
        ("BACKGROUND", (0, head), (-1, head), STATUS_BG["unknown"]),
    ]
    extra += [("TOPPADDING", (0, r), (-1, r), 14) for r in range(head + 1, last + 1) if r not in ssh_rows]
    extra += [("SPAN", (0, r), (3, r)) for r in ssh_rows]
    return table(rows, scaled([20, 20, 14, 28, 18], paper), header_rows=0, font=st.font, extra=extra)


def paper_signatures(st: Styles, paper: Paper, roles: Sequence[str] = BLANK_ROLES,
                     conclusion: Sequence[str] = ()) -> Flowable:
    """A signature and date block for a document no sign-off in the plan covers (the cluster report): a row of
    conclusion tick boxes when ``conclusion`` names them (message keys), then party, name, date, signature for
    each of ``roles`` (keys of 'sopdf.role.<role>'), and one seal box."""
    lang = st.lang
    rows: list[list[object]] = []
    extra: list[tuple[object, ...]] = []
    if conclusion:
        boxes = "　".join(f"☐ {t(key, lang)}" for key in conclusion)
        rows.append([st.p(t("sopdf.conclusion", lang), st.cell), st.p(boxes, st.cell), "", "", ""])
        extra += [("SPAN", (1, 0), (-1, 0)), ("BOTTOMPADDING", (0, 0), (-1, 0), 6)]
    head = len(rows)
    rows.append([st.p(t(f"sopdf.col.{c}", lang), st.cell_head) for c in ("role", "name", "date", "signature")]
                + [st.p(t("sopdf.seal", lang), st.cell_head)])
    rows += [[st.p(t(f"sopdf.role.{role}", lang), st.cell), "", "", "", ""] for role in roles]
    last = len(rows) - 1
    extra += [("SPAN", (4, head + 1), (4, last)), ("BACKGROUND", (0, head), (-1, head), STATUS_BG["unknown"])]
    extra += [("TOPPADDING", (0, r), (-1, r), 14) for r in range(head + 1, last + 1)]
    return table(rows, scaled([20, 20, 14, 28, 18], paper), header_rows=0, font=st.font, extra=extra)


def kept(block: Flowable) -> Flowable:
    """A sign-off block that never splits across pages (unless taller than a page)."""
    return KeepTogether([Spacer(1, 8), block])

"""The checklist PDF: both checklists with status, reason and note, open findings, sign-off blocks, digest."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from pathlib import Path

from reportlab.platypus import Flowable, Spacer

from catalog.loader import Catalog
from procurement.checklist import (
    WHICH,
    Checklist,
    Status,
    build_checklists,
    item_status_text,
)
from procurement.findings import Finding, Severity
from procurement.messages import Lang, register, t
from procurement.plan import Plan, canonical_digest
from procurement.policy import Policy
from procurement.reports.common import (
    STATUS_BG,
    Paper,
    Styles,
    build_pdf,
    make_styles,
    markup,
    one_line_name,
    policy_and_findings,
    scaled,
    table,
)
from procurement.reports.quote import open_findings
from procurement.reports.quote_pdf import findings_table
from procurement.reports.signoff_pdf import kept, signoff_block
from procurement.signoff import AllowedSigners

register(
    {
        "clpdf.title": "GPU server purchase checklist",
        "clpdf.date": "Generated",
        "clpdf.summary": "pass {p} · fail {f} · attention {a} · unknown {u}",
        "clpdf.col.no": "#",
        "clpdf.col.item": "Item",
        "clpdf.col.status": "Status",
        "clpdf.col.reason": "Reason and figures",
        "clpdf.col.note": "Note",
        "clpdf.person": "(person's judgement)",
        "clpdf.ticked": "ticked",
        "clpdf.signoff": "Sign-off",
        "clpdf.signoff_of": "{which} sign-off",
        "clpdf.name": "Name",
        "clpdf.role": "Role",
        "clpdf.signed_on": "Date",
        "clpdf.state": "State",
        "clpdf.signed_digest": "Digest at signing",
        "clpdf.signature": "Signature",
        "clpdf.footer": "Plan digest {digest}",
        "clpdf.note_more": "… (full text under “Notes in full” below)",
        "clpdf.notes_full": "Notes in full",
        "clpdf.file": "checklist",
        "clpdf.verification": "Verification reports",
        "clpdf.v.host": "Host",
        "clpdf.v.created": "Created",
        "clpdf.v.gpus": "GPUs",
        "clpdf.v.versions": "Driver / CUDA",
        "clpdf.v.result": "Result",
        "clpdf.v.counts": "pass {p} · fail {f} · warn {w}",
        "clpdf.findings": "Open findings",
        "clpdf.no_findings": "No open findings.",
        "clpdf.digest_note": (
            "The plan digest covers the configuration only (requirements, GPU, server, software) and ties the paper to "
            "its plan file; each sign-off has its own digest over what it covers (see the end). Anyone can recompute a "
            "digest: it does not prove who signed."
        ),
        "clpdf.waivers": "Waived findings",
        "clpdf.w.rule": "Rule",
        "clpdf.w.reason": "Reason",
        "clpdf.w.by": "By / date",
    }
)


# A longer note is cut in its table cell and printed in full after the table, where a paragraph can run
# across pages (a table row taller than a page would otherwise be split awkwardly).
NOTE_CELL_CHARS = 400


def _checklist_table(cl: Checklist, st: Styles, paper: Paper) -> list[Flowable]:
    lang = st.lang
    long_notes: list[Flowable] = []
    rows: list[list[object]] = [
        [st.p(t(f"clpdf.col.{c}", lang), st.cell_head) for c in ("no", "item", "status", "reason", "note")]
    ]
    extra: list[tuple[object, ...]] = []
    for n, item in enumerate(cl.items, 1):
        label = markup(item.label)
        if item.person:
            label += "<br/>" + markup(t("clpdf.person", lang))
        reason = markup(item.reason)
        if item.verified:
            reason += "<br/>" + markup(item.verified)
        note = markup(item.note)
        if len(item.note) > NOTE_CELL_CHARS:
            note = markup(item.note[:NOTE_CELL_CHARS]) + markup(t("clpdf.note_more", lang))
            long_notes += [st.p(f"{n}. {item.label}", st.cell_head), st.p(item.note, st.body), Spacer(1, 3)]
        if item.person and item.checked:
            note = markup(t("clpdf.ticked", lang)) + ("<br/>" + note if note else "")
        r = len(rows)
        rows.append(
            [
                st.p(str(n), st.cell),
                st.raw(label, st.cell),
                st.p(item_status_text(item, lang), st.cell),
                st.raw(reason, st.cell),
                st.raw(note, st.cell),
            ]
        )
        extra.append(("BACKGROUND", (2, r), (2, r), STATUS_BG[item.status.value]))
    # the status column holds the longest status word whole ("Attention", "Unknown"): words are never cut
    out: list[Flowable] = [table(rows, scaled([5, 19, 11, 43, 22], paper), font=st.font, extra=extra)]
    if long_notes:
        out += [st.section(t("clpdf.notes_full", lang), long_notes[1], lead=long_notes[:1]), *long_notes[2:]]
    return out


def _verification_table(plan: Plan, st: Styles, paper: Paper) -> Flowable:
    """One row per attached `gpu-procure verify` report (each a JSON object; unknown fields shown as '—')."""
    lang = st.lang
    rows: list[list[object]] = [
        [st.p(t(f"clpdf.v.{c}", lang), st.cell_head) for c in ("host", "created", "gpus", "versions", "result")]
    ]
    for report in plan.verification_data():
        host = report.get("host") if isinstance(report.get("host"), dict) else {}
        gpus = [g for g in report.get("gpus") or [] if isinstance(g, dict)]
        names: dict[str, int] = {}
        for g in gpus:
            names[str(g.get("name") or "?")] = names.get(str(g.get("name") or "?"), 0) + 1
        checks = [c for c in report.get("checks") or [] if isinstance(c, dict)]
        count = {k: sum(1 for c in checks if c.get("status") == k) for k in ("pass", "fail", "warn")}
        rows.append(
            [
                # names and versions come from the node's report: one line each, whatever they hold (a
                # hostname 'node1\r\nFAKE: all passed' printed a row of its own)
                st.name(host.get("hostname") or "—", st.cell),  # type: ignore[union-attr]
                st.name(report.get("created") or "—", st.cell),
                st.name(", ".join(f"{n} × {name}" for name, n in names.items()) or "—", st.cell),
                st.name(f"{report.get('driver_version') or '—'} / {report.get('cuda_version') or '—'}", st.cell),
                st.p(t("clpdf.v.counts", lang, p=count["pass"], f=count["fail"], w=count["warn"]), st.cell),
            ]
        )
    return table(rows, scaled([18, 18, 28, 16, 20], paper), font=st.font)


def waivers_table(plan: Plan, st: Styles, paper: Paper) -> Flowable:
    """The plan's waivers (covered by the plan approval)."""
    lang = st.lang
    rows: list[list[object]] = [[st.p(t(f"clpdf.w.{c}", lang), st.cell_head) for c in ("rule", "reason", "by")]]
    for w in plan.waivers:
        rows.append([st.p(w.rule, st.cell), st.p(w.reason, st.cell),
                     st.name(f"{w.by}, {w.date.isoformat()}", st.cell)])
    return table(rows, scaled([25, 50, 25], paper), font=st.font)


def render_checklist_pdf(
    plan: Plan,
    catalog: Catalog,
    *,
    policy: Policy | None = None,
    findings: Sequence[Finding] | None = None,
    lang: Lang = "zh",
    paper: Paper = "a4",
    today: dt.date | None = None,
    allowed_signers: Path | AllowedSigners | None = None,
) -> bytes:
    """Both checklists, open findings and sign-off blocks as PDF bytes."""
    policy, findings = policy_and_findings(plan, catalog, policy, findings, lang)
    today = today or dt.date.today()
    checklists = build_checklists(plan, catalog, findings, policy, lang)
    digest = canonical_digest(plan)
    st = make_styles(lang)
    story: list[Flowable] = [st.p(t("clpdf.title", lang), st.title)]
    if plan.title:  # one line whatever it holds (a line break in a title printed a heading of its own)
        story.append(st.name(plan.title, st.h2))
    head = [
        [st.p(t("clpdf.date", lang), st.cell), st.p(today.isoformat(), st.cell)],
        [st.p(t("report.digest", lang), st.cell), st.p(digest, st.mono)],
    ]
    story += [
        table(head, scaled([18, 82], paper), header_rows=0, font=st.font),
        st.p(t("clpdf.digest_note", lang), st.small),
    ]
    for which in WHICH:
        cl = checklists[which]
        summary = st.p(
                t(
                    "clpdf.summary",
                    lang,
                    p=cl.count(Status.PASS),
                    f=cl.count(Status.FAIL),
                    a=cl.count(Status.ATTENTION),
                    u=cl.count(Status.UNKNOWN),
                ),
                st.small,
            )
        cl_table, *after = _checklist_table(cl, st, paper)
        story += [st.section(cl.title, cl_table, lead=[summary, Spacer(1, 3)]), *after]
    if plan.verification:
        story.append(st.section(t("clpdf.verification", lang), _verification_table(plan, st, paper)))
    shown = [f for f in open_findings(findings) if f.severity != Severity.INFO]
    story.append(st.section(t("clpdf.findings", lang),
                            findings_table(shown, st, paper) if shown else st.p(t("clpdf.no_findings", lang), st.body)))
    if plan.waivers:
        story.append(st.section(t("clpdf.waivers", lang), waivers_table(plan, st, paper)))
    # The heading stays with the first block, and each block stays whole, so signatures never split.
    approval = signoff_block(plan, "approval", catalog, st, paper, allowed_signers)
    story.append(st.section(t("clpdf.signoff", lang), approval, whole=True))
    if plan.signoffs.get("acceptance") is not None or plan.verification:
        story.append(kept(signoff_block(plan, "acceptance", catalog, st, paper, allowed_signers)))
    return build_pdf(
        story,
        paper=paper,
        lang=lang,
        title=t("clpdf.title", lang),
        footer=t("clpdf.footer", lang, digest=digest),
        subject=one_line_name(plan.title),
    )

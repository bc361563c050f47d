"""The delivery acceptance sheet (验收单): contract and quote, the delivered nodes and GPUs with serial numbers and
UUIDs from the verification reports, each automatic check with its evidence, the manual items with tick boxes,
the conclusion with its reasons, and the sign-off blocks for buyer and vendor."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reportlab.platypus import Flowable, Spacer

from catalog.loader import Catalog
from procurement.budgets.cost import plan_cost
from procurement.checklist import ITEMS, Status, build_checklists, item_status_text
from procurement.findings import Finding
from procurement.messages import Lang, register, t
from procurement.plan import Plan, canonical_digest
from procurement.policy import Policy
from procurement.reports.common import (
    STATUS_BG,
    Paper,
    Styles,
    build_pdf,
    make_styles,
    one_line_name,
    policy_and_findings,
    scaled,
    table,
)
from procurement.reports.quote import quote_number
from procurement.reports.signoff_pdf import kept, signoff_block
from procurement.signoff import AllowedSigners, acceptance_warnings
from procurement.verification_report import VerificationReport, message_of, values_of

register(
    {
        "acc.title": "Delivery acceptance sheet",
        "acc.contract": "Contract / PO number",
        "acc.quote": "Quote number",
        "acc.delivery": "Delivery date",
        "acc.plan": "Plan",
        "acc.parties": "Buyer / vendor",
        "acc.nodes": "Delivered machines",
        "acc.col.node": "Node",
        "acc.col.serial": "System serial",
        "acc.col.gpu": "GPU",
        "acc.col.gpu_serial": "GPU serial / UUID",
        "acc.col.against": "Checked against",
        "acc.against.this": "this plan",
        "acc.against.none": "no plan (inventory only) — not evidence for acceptance",
        "acc.against.other": "another plan or an older version of this one ({digest}) — not evidence for acceptance",
        "acc.checks": "Automatic checks",
        "acc.col.check": "Check",
        "acc.col.result": "Result",
        "acc.col.evidence": "Evidence (expected / measured)",
        "acc.result.pass": "pass",
        "acc.result.fail": "fail",
        "acc.result.warn": "warning",
        "acc.result.skip": "skipped",
        "acc.result.unknown": "unknown",
        "acc.goods": "Contracted goods",
        "acc.goods.from_offer": "The lines of the chosen offer ({vendor}{number}), every node together.",
        "acc.goods.from_plan": "The plan's bill of materials, every node together.",
        "acc.col.goods": "Goods",
        "acc.col.ordered": "Ordered",
        "acc.col.received": "Received",
        "acc.col.serials": "Serial numbers (from the reports)",
        "acc.goods.by_hand": "count by hand",
        "acc.goods.none": "The plan has no line to deliver.",
        "acc.manual": "Manual items",
        "acc.col.tick": "Done",
        "acc.col.item": "Item",
        "acc.col.status": "Status now",
        "acc.col.note": "Note",
        "acc.conclusion": "Acceptance conclusion",
        "acc.c.pass": "Accepted",
        "acc.c.fail": "Rejected",
        "acc.c.rework": "Re-inspect after rework",
        "acc.reasons": "Reasons",
        "acc.warning": "Note",
        "acc.no_reports": "No verification report attached: the delivered machines were not verified.",
        "acc.footer": "Acceptance · contract {contract} · plan digest {digest}",
    }
)

BOX_EMPTY, BOX_TICKED = "☐", "☑"


def _get(d: Mapping[str, Any] | None, *keys: str) -> str:
    for key in keys:
        value = d.get(key) if isinstance(d, Mapping) else None
        if value not in (None, ""):
            return str(value)
    return "—"


def report_against(report: Mapping[str, Any], plan: Plan, lang: Lang) -> tuple[bool, str]:
    """(evidence for this plan, label): a report made against another plan, an older version of this one, or
    no plan at all is marked and is not evidence for acceptance."""
    digest = report.get("plan_digest")
    if digest == canonical_digest(plan):
        return True, t("acc.against.this", lang)
    if not digest:
        return False, t("acc.against.none", lang)
    return False, t("acc.against.other", lang, digest=str(digest)[:12])


def _nodes(plan: Plan, st: Styles, paper: Paper) -> list[Flowable]:
    lang = st.lang
    cols = ("node", "serial", "gpu", "gpu_serial", "against")
    rows: list[list[object]] = [[st.p(t(f"acc.col.{c}", lang), st.cell_head) for c in cols]]
    extra: list[tuple[object, ...]] = []
    for report in plan.verification_data():
        host = report.get("host") if isinstance(report.get("host"), Mapping) else {}
        ok, against = report_against(report, plan, lang)
        gpus = [g for g in report.get("gpus") or [] if isinstance(g, Mapping)] or [{}]
        first = len(rows)
        for i, g in enumerate(gpus):
            rows.append([
                st.name(_get(host, "hostname") if i == 0 else "", st.cell),
                st.name(_get(host, "serial", "dmi_serial", "system_serial") if i == 0 else "", st.cell),
                st.name(f"{_get(g, 'index')}: {_get(g, 'name')}" if g else "—", st.cell),
                st.p(f"{one_line_name(_get(g, 'serial'))}\n{one_line_name(_get(g, 'uuid'))}",
                     st.mono),  # a UUID needs the width
                st.p(against if i == 0 else "", st.cell),
            ])
        if not ok:
            extra.append(("BACKGROUND", (4, first), (4, first), STATUS_BG["fail"]))
    return [table(rows, scaled([12, 13, 21, 36, 18], paper), font=st.font, extra=extra)]


def _checks(plan: Plan, st: Styles, paper: Paper) -> Flowable:
    lang = st.lang
    rows: list[list[object]] = [[st.p(t(f"acc.col.{c}", lang), st.cell_head)
                                 for c in ("node", "check", "result", "evidence")]]
    extra: list[tuple[object, ...]] = []
    bg = {"pass": STATUS_BG["pass"], "fail": STATUS_BG["fail"], "warn": STATUS_BG["attention"],
          "skip": STATUS_BG["unknown"], "unknown": STATUS_BG["unknown"]}
    for report in plan.verification_data():
        if not report_against(report, plan, lang)[0]:
            continue  # made against another plan (marked in the machines table): not evidence here
        host = report.get("host") if isinstance(report.get("host"), Mapping) else {}
        for c in report.get("checks") or []:
            if not isinstance(c, Mapping):
                continue
            status = str(c.get("status") or "skip")
            # the values and the message in the reader's language, from their codes (procurement.verification_report)
            expected, actual = values_of(dict(c), lang)
            # one line: the measured value comes from the node ('580\nFAKE: passed' printed a line of its own)
            evidence = one_line_name(" / ".join(x or "—" for x in (expected, actual)))
            msg = message_of(dict(c), lang)
            r = len(rows)
            rows.append([st.name(_get(host, "hostname"), st.cell), st.name(_get(c, "id"), st.cell),
                         st.name(t(f"acc.result.{status}", lang) if status in bg else status, st.cell),
                         st.p(f"{evidence}\n{msg}".strip(), st.cell)])
            extra.append(("BACKGROUND", (2, r), (2, r), bg.get(status, STATUS_BG["unknown"])))
    return table(rows, scaled([14, 22, 10, 54], paper), font=st.font, extra=extra)


@dataclass(frozen=True)
class GoodsLine:
    """One contracted line of the acceptance sheet: what was ordered and what the reports show was received."""

    text: str
    part_id: str | None
    ordered: float | None
    """The quantity ordered, every node together; None where the offer line gives none."""
    received: int | None
    """What the verification reports against this plan count (GPUs, machines, CPU sockets); None where no report
    measures it: counted by hand on the sheet, never assumed delivered."""
    serials: tuple[str, ...] = ()


def contracted_lines(plan: Plan, catalog: Catalog) -> list[GoodsLine]:
    """Every line to receive: the chosen vendor's offer line by line when one is chosen, else the plan's bill of
    materials (procurement.budgets.cost, the one the quote prints) × nodes."""
    ours = [r for r in plan.verification if r.plan_digest == canonical_digest(plan)]
    offer = next((q for q in plan.vendor_quotes if q.vendor == plan.chosen_vendor), None)
    src: list[tuple[str, str | None, float | None]]
    if offer is not None and offer.lines:
        src = []
        for line in offer.lines:
            part_id = line.offered or line.for_part
            part = _part(catalog, part_id)
            src.append((line.text or (part.name if part is not None else part_id or "—"), part_id, line.quantity))
    else:
        cost = plan_cost(plan, catalog)
        # the goods delivered: the hardware lines, and what ships inside them (the chassis' PSUs, paid with it,
        # still counted on delivery); software is checked by the software checklist, not counted as goods
        src = [(line.name, line.part_id, float(line.quantity(cost.nodes))) for line in cost.lines
               if line.category != "software"]
        src += [(inc.part.name, inc.part.id, float(inc.count * cost.nodes)) for inc in cost.included]
    return [GoodsLine(text, part_id, ordered, *_received(plan, catalog, part_id, ours)) for text, part_id, ordered
            in src]


def _part(catalog: Catalog, part_id: str | None) -> Any:
    if not part_id:
        return None
    return next((by_id[part_id] for by_id in catalog.parts.values() if part_id in by_id), None)


def _received(plan: Plan, catalog: Catalog, part_id: str | None,
              reports: Sequence[VerificationReport]) -> tuple[int | None, tuple[str, ...]]:
    if not part_id or not reports:
        return None, ()
    gpu = catalog.gpu(part_id)
    if gpu is not None:
        found = [g for r in reports for g in r.gpus
                 if g.catalog_id == part_id or (not g.catalog_id and (g.name or "").casefold() == gpu.name.casefold())]
        return len(found), tuple(g.serial or g.uuid or "?" for g in found)
    if part_id == plan.server.chassis:
        hosts = {r.host.identity() or r.host.hostname or str(i): r.host for i, r in enumerate(reports)}
        return len(hosts), tuple(h.dmi_serial or h.machine_id or h.hostname or "?" for h in hosts.values())
    if part_id == plan.server.cpu and all(r.host.cpu_sockets is not None for r in reports):
        return sum(r.host.cpu_sockets or 0 for r in reports), ()
    return None, ()


def _qty(value: float | None) -> str:
    if value is None:
        return "—"
    return f"{int(value):,}" if float(value).is_integer() else f"{value:,.2f}"


def _goods(plan: Plan, catalog: Catalog, st: Styles, paper: Paper) -> list[Flowable]:
    lang = st.lang
    lines = contracted_lines(plan, catalog)
    if not lines:
        return [st.p(t("acc.goods.none", lang), st.body)]
    offer = next((q for q in plan.vendor_quotes if q.vendor == plan.chosen_vendor), None)
    lead = (t("acc.goods.from_offer", lang, vendor=offer.vendor, number=f" {offer.number}" if offer.number else "")
            if offer is not None and offer.lines else t("acc.goods.from_plan", lang))
    rows: list[list[object]] = [[st.p(t(f"acc.col.{c}", lang), st.cell_head)
                                 for c in ("tick", "goods", "ordered", "received", "serials")]]
    extra: list[tuple[object, ...]] = []
    for n, g in enumerate(lines, 1):
        received = st.p(_qty(g.received), st.cell) if g.received is not None else \
            st.p(t("acc.goods.by_hand", lang), st.small)
        rows.append([st.p(BOX_EMPTY, st.cell), st.p(f"{n}. {g.text}", st.cell), st.p(_qty(g.ordered), st.cell),
                     received, st.p("、".join(g.serials) if lang == "zh" else ", ".join(g.serials), st.mono)])
        if g.received is not None and g.ordered is not None:
            ok = g.received >= g.ordered
            extra.append(("BACKGROUND", (3, n), (3, n), STATUS_BG["pass" if ok else "fail"]))
    return [st.p(lead, st.small), Spacer(1, 2),
            table(rows, scaled([6, 40, 10, 10, 34], paper), font=st.font, extra=extra)]


def _manual(plan: Plan, catalog: Catalog, findings: Sequence[Finding], policy: Policy, st: Styles,
            paper: Paper) -> Flowable:
    """Every item a person confirms: those only a person can judge, and automatic ones the app cannot decide."""
    lang = st.lang
    lists = build_checklists(plan, catalog, findings, policy, lang)
    person = {d.id for d in ITEMS if d.person}
    items = [i for cl in lists.values() for i in cl.items
             if i.id in person or i.status in (Status.UNKNOWN, Status.CONFIRMED)]
    rows: list[list[object]] = [[st.p(t(f"acc.col.{c}", lang), st.cell_head)
                                 for c in ("tick", "item", "status", "note")]]
    for i in items:
        box = BOX_TICKED if i.checked else BOX_EMPTY
        rows.append([st.p(box, st.cell), st.p(i.label, st.cell), st.p(item_status_text(i, lang), st.cell),
                     st.p(i.note, st.cell)])
    return table(rows, scaled([7, 35, 14, 44], paper), font=st.font)


def render_acceptance_pdf(
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
    """The acceptance sheet as PDF bytes."""
    policy, findings = policy_and_findings(plan, catalog, policy, findings, lang)
    st = make_styles(lang)
    acc = plan.acceptance
    contract = acc.contract_number or "—"
    q = plan.quote
    head = [
        [st.p(t("acc.contract", lang), st.cell), st.p(contract, st.cell),
         st.p(t("acc.quote", lang), st.cell), st.p(quote_number(plan, today), st.cell)],
        [st.p(t("acc.delivery", lang), st.cell), st.p(acc.delivery_date.isoformat() if acc.delivery_date else "—",
                                                       st.cell),
         st.p(t("acc.plan", lang), st.cell), st.name(plan.title or "—", st.cell)],
        [st.p(t("acc.parties", lang), st.cell), st.name(f"{q.buyer.name or '—'} / {q.vendor.name or '—'}", st.cell),
         "", ""],
        [st.p(t("report.digest", lang), st.cell), st.p(canonical_digest(plan), st.mono), "", ""],
    ]
    story: list[Flowable] = [
        st.p(t("acc.title", lang), st.title),
        table(head, scaled([16, 34, 14, 36], paper), header_rows=0, font=st.font,
              extra=[("SPAN", (1, 2), (-1, 2)), ("SPAN", (1, 3), (-1, 3))]),
        Spacer(1, 6),
    ]
    if plan.verification:
        nodes, *rest = _nodes(plan, st, paper)
        story += [st.section(t("acc.nodes", lang), nodes), *rest]
        story.append(st.section(t("acc.checks", lang), _checks(plan, st, paper)))
    else:
        story.append(st.section(t("acc.nodes", lang), st.p(t("acc.no_reports", lang), st.body)))
    goods, *after = _goods(plan, catalog, st, paper)
    story += [st.section(t("acc.goods", lang), goods), *after]
    story.append(st.section(t("acc.manual", lang), _manual(plan, catalog, findings, policy, st, paper)))
    options = "　".join(f"{BOX_TICKED if acc.conclusion == c else BOX_EMPTY} {t(f'acc.c.{c}', lang)}"
                       for c in ("pass", "fail", "rework"))
    rows = [[st.p(t("acc.conclusion", lang), st.cell), st.p(options, st.cell)],
            [st.p(t("acc.reasons", lang), st.cell), st.p(acc.reasons or "", st.cell)]]
    extra: list[tuple[object, ...]] = [("TOPPADDING", (0, 1), (-1, 1), 4), ("BOTTOMPADDING", (0, 1), (-1, 1), 18)]
    warnings = acceptance_warnings(plan, lang)
    if warnings:  # an accepted conclusion the evidence does not bear out is said on the sheet
        rows.append([st.p(t("acc.warning", lang), st.cell), st.p("\n".join(warnings), st.cell)])
        extra.append(("BACKGROUND", (1, 2), (1, 2), STATUS_BG["fail"]))
    conclusion = table(rows, scaled([16, 84], paper), header_rows=0, font=st.font, extra=extra)
    story.append(st.section(t("acc.conclusion", lang), conclusion))
    story.append(kept(signoff_block(plan, "approval", catalog, st, paper, allowed_signers)))
    story.append(kept(signoff_block(plan, "acceptance", catalog, st, paper, allowed_signers)))
    return build_pdf(story, paper=paper, lang=lang, title=t("acc.title", lang),
                     footer=t("acc.footer", lang, contract=contract, digest=canonical_digest(plan)[:16]),
                     subject=one_line_name(plan.title))

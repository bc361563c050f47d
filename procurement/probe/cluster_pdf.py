"""The cluster acceptance report (集群验收报告): every planned node with its result, the GPUs with serials and
UUIDs and each one's verdict, the cluster checks (node count, duplicates, same driver), and every failure,
unknown and missing node listed with what was expected and measured."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from reportlab.platypus import Flowable, Spacer

from catalog.loader import Catalog
from procurement.messages import Lang, plural, register, t
from procurement.plan import Plan, canonical_digest
from procurement.probe.cluster import ClusterProgress, NodeState, cluster_progress
from procurement.reports.common import (
    STATUS_BG,
    Paper,
    Styles,
    build_pdf,
    make_styles,
    one_line_name,
    scaled,
    table,
)
from procurement.reports.signoff_pdf import paper_signatures
from procurement.verification_report import check_actual, check_expected
from procurement.verify.checks import gpu_verdicts
from procurement.verify.merge import MergedReport
from procurement.verify.render import check_message, status_label
from procurement.verify.report import CheckRecord, GpuRecord

register(
    {
        "cluster.title": "Cluster acceptance report",
        "cluster.plan": "Plan",
        "cluster.created": "Made",
        "cluster.expected": "Nodes in the plan",
        "cluster.received": "Reports received",
        "cluster.tally": (
            "passed {passed} · warnings {warned} · failed {failed} · unknown {unknown} · missing {missing}"
        ),
        "cluster.verdict": "Verdict",
        "cluster.verdict.pass": "All {n} planned nodes reported and passed the automatic checks.",
        "cluster.verdict.not": "Not all passed: {why}. Not evidence for acceptance.",
        "cluster.why.failed": plural("{n} node failed", "{n} nodes failed", "n"),
        "cluster.why.unknown": plural("{n} node unknown", "{n} nodes unknown", "n"),
        "cluster.why.missing": plural("no report from {n} node", "no report from {n} nodes", "n"),
        "cluster.why.checks": "cluster checks not passed ({ids})",
        "cluster.why.none": "no node reported",
        "cluster.checks": "Cluster checks",
        "cluster.nodes": "Nodes",
        "cluster.gpus": "GPUs",
        "cluster.problems": "Failures and unknowns",
        "cluster.no_problems": "None: every check of the nodes received passed or warned.",
        "cluster.missing": "Nodes that have not reported",
        "cluster.missing.unnamed": plural(
            (
                "The plan has {want} node and {got} reported: {n} missing (no node names were given, so they cannot be "
                "named)."
            ),
            (
                "The plan has {want} nodes and {got} reported: {n} missing (no node names were given, so they cannot "
                "be named)."
            ),
            "want",
        ),
        "cluster.unexpected": "Reports from nodes not in the list: {names}",
        "cluster.col.node": "Node",
        "cluster.col.result": "Result",
        "cluster.col.serial": "System serial / machine-id",
        "cluster.col.gpus": "GPUs",
        "cluster.col.driver": "Driver / CUDA",
        "cluster.col.counts": "pass/fail/warn/unknown",
        "cluster.col.gpu": "GPU",
        "cluster.col.gpu_serial": "Serial / UUID",
        "cluster.col.why": "Not passed",
        "cluster.col.check": "Check",
        "cluster.col.evidence": "Expected / measured · message",
        "cluster.state.missing": "missing",
        "cluster.error": "could not be verified: {error}",
        "cluster.footer": "Cluster acceptance · plan digest {digest}",
        "cluster.file": "cluster-acceptance",
        "cluster.signatures": "Signatures",
        "cluster.signatures.lead": (
            "The acceptance team's conclusion: the verdict above is the automatic one; each party signs and dates."
        ),
        "cluster.c.pass": "Accepted",
        "cluster.c.fail": "Rejected",
        "cluster.c.rework": "Re-inspect after rework",
    }
)

_BG = {"pass": STATUS_BG["pass"], "warn": STATUS_BG["attention"], "fail": STATUS_BG["fail"],
       "unknown": STATUS_BG["unknown"], "missing": STATUS_BG["fail"], "skip": STATUS_BG["unknown"]}


def state_label(state: str, lang: Lang) -> str:
    return t("cluster.state.missing", lang) if state == "missing" else status_label(state, lang)


def verdict(progress: ClusterProgress, checks: Sequence[CheckRecord], lang: Lang) -> tuple[bool, str]:
    """(accepted, the sentence): a pass only when every planned node reported and passed and every
    cluster check passed or warned; otherwise each reason (unknown is never a pass)."""
    why = []
    for state, key in (("fail", "failed"), ("unknown", "unknown")):
        if n := progress.count(state):  # type: ignore[arg-type]
            why.append(t(f"cluster.why.{key}", lang, n=n))
    if progress.missing:
        why.append(t("cluster.why.missing", lang, n=progress.missing))
    bad = [c.id for c in checks if c.status in ("fail", "unknown")]
    if bad:
        why.append(t("cluster.why.checks", lang, ids=", ".join(bad)))
    if not progress.received:
        why.append(t("cluster.why.none", lang))
    if not why and progress.complete():
        return True, t("cluster.verdict.pass", lang, n=progress.expected)
    return False, t("cluster.verdict.not", lang, why="; ".join(why) or t("cluster.why.none", lang))


def gpu_verdict(g: GpuRecord, catalog: Catalog) -> tuple[str, str]:
    """A GPU's worst verdict and the verdicts that are not a pass ('PCIE-WIDTH: fail, ECC: warn')."""
    verdicts = gpu_verdicts(g, catalog.gpu(g.catalog_id))
    if not verdicts:
        return "unknown", ""
    order = {"fail": 4, "unknown": 3, "warn": 2, "pass": 1, "skip": 0}
    worst = max(verdicts.values(), key=lambda s: order.get(s, 0))
    return worst, ", ".join(f"{k}: {v}" for k, v in verdicts.items() if v != "pass")


def _head(plan: Plan, progress: ClusterProgress, checks: Sequence[CheckRecord], created: str, st: Styles,
          paper: Paper) -> list[Flowable]:
    lang = st.lang
    ok, sentence = verdict(progress, checks, lang)
    tally = t("cluster.tally", lang, passed=progress.count("pass"), warned=progress.count("warn"),
              failed=progress.count("fail"), unknown=progress.count("unknown"), missing=progress.missing)
    rows = [
        [st.p(t("cluster.plan", lang), st.cell), st.name(plan.title or "—", st.cell)],
        [st.p(t("report.digest", lang), st.cell), st.p(canonical_digest(plan), st.mono)],
        [st.p(t("cluster.created", lang), st.cell), st.p(created, st.cell)],
        [st.p(t("cluster.expected", lang), st.cell), st.p(str(progress.expected), st.cell)],
        [st.p(t("cluster.received", lang), st.cell), st.p(f"{progress.received} — {tally}", st.cell)],
        [st.p(t("cluster.verdict", lang), st.cell), st.p(sentence, st.cell)],
    ]
    extra = [("BACKGROUND", (1, 5), (1, 5), STATUS_BG["pass"] if ok else STATUS_BG["fail"])]
    return [table(rows, scaled([22, 78], paper), header_rows=0, font=st.font, extra=extra), Spacer(1, 6)]


def _check_rows(rows_in: Sequence[tuple[str | None, CheckRecord]], st: Styles, paper: Paper) -> Flowable:
    """Checks with their evidence; the first column names the node unless every node is None (cluster checks)."""
    lang = st.lang
    by_node = any(node is not None for node, _ in rows_in)
    cols = ("node", "check", "result", "evidence") if by_node else ("check", "result", "evidence")
    rows: list[list[object]] = [[st.p(t(f"cluster.col.{c}", lang), st.cell_head) for c in cols]]
    extra: list[tuple[object, ...]] = []
    at = 2 if by_node else 1
    for node, c in rows_in:
        # in the reader's language, and one line: a node's value (a hostname listed in NODE-RESULTS) may hold
        # a line break, and 'rogue\nFAKE: every node passed' printed a line of its own
        evidence = one_line_name(f"{check_expected(c, lang) or '—'} / {check_actual(c, lang) or '—'}")
        r = len(rows)
        cells = [st.p(c.id, st.cell), st.p(status_label(c.status, lang), st.cell),
                 st.p(f"{evidence}\n{check_message(c, lang)}", st.cell)]
        rows.append([st.name(node or "", st.cell), *cells] if by_node else cells)
        extra.append(("BACKGROUND", (at, r), (at, r), _BG.get(c.status, STATUS_BG["unknown"])))
    widths = [14, 20, 10, 56] if by_node else [22, 10, 68]
    return table(rows, scaled(widths, paper), font=st.font, extra=extra)


def _nodes(progress: ClusterProgress, st: Styles, paper: Paper) -> Flowable:
    lang = st.lang
    cols = ("node", "result", "serial", "gpus", "driver", "counts")
    rows: list[list[object]] = [[st.p(t(f"cluster.col.{c}", lang), st.cell_head) for c in cols]]
    extra: list[tuple[object, ...]] = []
    for n in progress.nodes:
        r = len(rows)
        extra.append(("BACKGROUND", (1, r), (1, r), _BG[n.state]))
        rep = n.report
        if rep is None:
            rows.append([st.name(n.name, st.cell), st.p(state_label(n.state, lang), st.cell), "", "", "", ""])
            continue
        host = rep.host
        serial = host.dmi_serial or (f"machine-id {host.machine_id[:12]}" if host.machine_id else "—")
        names: dict[str, int] = {}
        for g in rep.gpus:
            names[g.name or "?"] = names.get(g.name or "?", 0) + 1
        counts = rep.counts()
        rows.append([
            st.name(n.name, st.cell), st.p(state_label(n.state, lang), st.cell), st.name(serial, st.mono),
            st.name(", ".join(f"{c}× {nm}" for nm, c in names.items()) or "—", st.cell),
            st.name(f"{rep.driver_version or '—'} / {rep.cuda_version or '—'}", st.cell),
            st.p("/".join(str(counts[s]) for s in ("pass", "fail", "warn", "unknown")), st.cell),
        ])
    return table(rows, scaled([14, 10, 22, 26, 14, 14], paper), font=st.font, extra=extra)


def _gpus(progress: ClusterProgress, catalog: Catalog, st: Styles, paper: Paper) -> Flowable:
    lang = st.lang
    cols = ("node", "gpu", "gpu_serial", "result", "why")
    rows: list[list[object]] = [[st.p(t(f"cluster.col.{c}", lang), st.cell_head) for c in cols]]
    extra: list[tuple[object, ...]] = []
    for n in progress.nodes:
        for i, g in enumerate(n.report.gpus if n.report is not None else []):
            state, why = gpu_verdict(g, catalog)
            r = len(rows)
            extra.append(("BACKGROUND", (3, r), (3, r), _BG.get(state, STATUS_BG["unknown"])))
            rows.append([st.name(n.name if i == 0 else "", st.cell), st.name(f"{g.index}: {g.name or '—'}", st.cell),
                         st.p(f"{one_line_name(g.serial or '—')}\n{one_line_name(g.uuid or '—')}", st.mono),
                         st.p(status_label(state, lang), st.cell),
                         st.p("\n".join(one_line_name(x) for x in [why, *g.faults]).strip(), st.cell)])
    return table(rows, scaled([13, 25, 32, 10, 20], paper), font=st.font, extra=extra)


def render_cluster_pdf(
    merged: MergedReport,
    plan: Plan,
    catalog: Catalog,
    *,
    names: Sequence[str] = (),
    lang: Lang = "zh",
    paper: Paper = "a4",
) -> bytes:
    """The cluster acceptance report of ``merged`` (merge_reports against ``plan``) as PDF bytes; ``names``:
    the nodes expected (then missing ones are named)."""
    progress = cluster_progress(merged.nodes, plan, names, merged.sources)
    st = make_styles(lang)
    created = merged.created or dt.datetime.now(dt.timezone.utc).replace(microsecond=0).isoformat()
    story: list[Flowable] = [st.p(t("cluster.title", lang), st.title),
                             *_head(plan, progress, merged.checks, created, st, paper)]
    story.append(st.section(t("cluster.checks", lang),
                            _check_rows([(None, c) for c in merged.checks], st, paper)))
    story.append(st.section(t("cluster.nodes", lang), _nodes(progress, st, paper)))
    if any(n.report is not None and n.report.gpus for n in progress.nodes):
        story.append(st.section(t("cluster.gpus", lang), _gpus(progress, catalog, st, paper)))
    problems: list[tuple[str | None, CheckRecord]] = []
    errors: list[str] = []
    for n in progress.nodes:
        if n.report is not None and n.report.error:
            errors.append(f"{one_line_name(n.name)}: {t('cluster.error', lang, error=n.report.error)}")
        problems.extend((one_line_name(n.name), c) for c in n.problems)
    body: Flowable = (_check_rows(problems, st, paper) if problems
                      else st.p(t("cluster.no_problems", lang), st.body))
    lead = [st.p(e, st.body) for e in errors]
    story.append(st.section(t("cluster.problems", lang), body, lead=lead))
    if progress.missing or progress.unexpected:
        if progress.named:
            text = ", ".join(one_line_name(n) for n in progress.missing_names) or "—"
        else:
            text = t("cluster.missing.unnamed", lang, want=progress.expected, got=progress.received,
                     n=progress.missing)
        lines = [st.p(text, st.body)]
        if progress.unexpected:
            unexpected = ", ".join(one_line_name(n) for n in progress.unexpected)
            lines.append(st.p(t("cluster.unexpected", lang, names=unexpected), st.body))
        story.append(st.section(t("cluster.missing", lang), lines[0], lead=lines[1:]))
    # the acceptance team's own conclusion, signed and dated on paper beside the automatic verdict above
    story.append(st.section(t("cluster.signatures", lang),
                            paper_signatures(st, paper, conclusion=("cluster.c.pass", "cluster.c.fail",
                                                                    "cluster.c.rework")),
                            lead=[st.p(t("cluster.signatures.lead", lang), st.small)], whole=True))
    return build_pdf(story, paper=paper, lang=lang, title=t("cluster.title", lang),
                     footer=t("cluster.footer", lang, digest=canonical_digest(plan)[:16]),
                     subject=one_line_name(plan.title))


def state_counts(progress: ClusterProgress) -> dict[NodeState, int]:
    """Nodes by state (missing counted by name or by the plan's number)."""
    out: dict[NodeState, int] = {s: progress.count(s) for s in ("pass", "warn", "fail", "unknown")}
    out["missing"] = progress.missing
    return out


__all__ = ["gpu_verdict", "render_cluster_pdf", "state_counts", "state_label", "verdict"]

"""Plain-text tables of a report and of merged node reports for the terminal (CJK-width aware)."""

from __future__ import annotations

import re
import textwrap
import unicodedata
from collections.abc import Sequence

from procurement import verification_texts  # noqa: F401  (registers the messages)
from procurement.messages import Lang, t
from procurement.terminal import one_line
from procurement.verification_report import (  # noqa: F401  (check_message, message_of, values_of: re-exported)
    CheckRecord,
    GpuRecord,
    VerificationReport,
    check_actual,
    check_expected,
    check_message,
    message_of,
    values_of,
)
from procurement.verify.merge import MergedReport, gpu_summary, node_name

_MAX_CELL = 48


def width(text: str) -> int:
    """Display width: East Asian wide and full-width characters take two columns."""
    return sum(2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1 for ch in text)


def _clip(text: str, limit: int = _MAX_CELL) -> str:
    """``text`` cut to ``limit`` columns with '…'; reads at most ``limit`` characters (a 10 MB host name was
    measured whole)."""
    if len(text) * 2 <= limit:
        return text
    out: list[str] = []
    used, cut = 0, None
    for ch in text:
        w = width(ch)
        if cut is None and used + w > limit - 1:
            cut = len(out)
        if used + w > limit:
            return "".join(out[:cut]) + "…"
        out.append(ch)
        used += w
    return text



def _wrap(text: str, columns: int) -> list[str]:
    """textwrap.wrap, linear in the text: words longer than ``columns`` are cut into pieces first (textwrap
    copies the rest of a long word at each cut: a 10 MB host name in a message took 303 s)."""
    def pieces(m: re.Match[str]) -> str:
        word = m.group()
        return " ".join(word[i:i + columns] for i in range(0, len(word), columns))

    text = re.sub(rf"\S{{{columns + 1},}}", pieces, text)
    return textwrap.wrap(text, columns, break_on_hyphens=False)


def table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    cells = [[_clip(one_line(str(c))) for c in row] for row in rows]  # a cell is one line (procurement.terminal)
    widths = [max([width(h)] + [width(r[i]) for r in cells]) for i, h in enumerate(headers)]

    def line(values: Sequence[str]) -> str:
        return "  ".join(v + " " * (w - width(v)) for v, w in zip(values, widths, strict=True)).rstrip()

    sep = "  ".join("-" * w for w in widths)
    return "\n".join([line(headers), sep, *(line(r) for r in cells)])


def _fmt(value: object, unit: str = "") -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, float):
        return f"{value:g}{unit}"
    return f"{value}{unit}"


def _link(gen: int | None, width: int | None) -> str:
    """'Gen5 x16', 'Gen5', 'x16', or '-' when neither is known (never 'Gen- x-')."""
    parts = ([f"Gen{gen}"] if gen is not None else []) + ([f"x{width}"] if width is not None else [])
    return " ".join(parts) or "-"


def _pcie(g: GpuRecord) -> str:
    now = _link(g.pcie_gen_current, g.pcie_width_current)
    top = _link(g.pcie_gen_max, g.pcie_width_max)
    return "-" if now == top == "-" else f"{now} / {top}"


def status_label(status: str, lang: Lang) -> str:
    return t(f"verify.status.{status}", lang)


def render_checks(checks: Sequence[CheckRecord], lang: Lang) -> str:
    rows = [(c.id, status_label(c.status, lang), check_expected(c, lang) or "-", check_actual(c, lang) or "-")
            for c in checks]
    out = [
        table(
            [
                t("verify.col.check", lang),
                t("verify.col.status", lang),
                t("verify.col.expected", lang),
                t("verify.col.actual", lang),
            ],
            rows,
        )
    ]
    notes = [c for c in checks if c.status in ("fail", "warn", "unknown") and (c.message or c.code)]
    for c in notes:
        text = check_message(c, lang)
        wrapped = _wrap(text, 100 if lang == "en" else 50) or [""]
        out.append(f"\n[{status_label(c.status, lang)}] {c.id}: {wrapped[0]}")
        out.extend(f"    {w}" for w in wrapped[1:])
    return "\n".join(out)


def render_report(report: VerificationReport, lang: Lang) -> str:
    h = report.host
    lines = [
        t(
            "verify.header.host",
            lang,
            hostname=h.hostname or "?",
            os=h.os or "?",
            kernel=h.kernel or "?",
            cpu=h.cpu_model or "?",
            sockets=_fmt(h.cpu_sockets),
            cores=_fmt(h.cpu_cores),
            memory=_fmt(h.memory_gib),
        )
    ]
    if report.error:
        lines.append(t("verify.error", lang, error=report.error))
    else:
        lines.append(
            t(
                "verify.header.driver",
                lang,
                driver=report.driver_version or "?",
                cuda=report.cuda_version or "?",
                n=len(report.gpus),
            )
        )
    if report.gpus:
        headers = [
            t(f"verify.col.{k}", lang)
            for k in ("gpu", "name", "memory", "pcie", "power", "persist", "ecc", "temp", "mig", "catalog")
        ]
        rows = [
            (
                str(g.index),
                g.name or "-",
                _fmt(g.memory_total_mib, " MiB"),
                _pcie(g),
                _fmt(g.power_limit_w, " W"),
                _fmt(g.persistence_mode),
                _fmt(g.ecc_enabled),
                _fmt(g.temperature_c, " C"),
                _fmt(g.mig_mode),
                g.catalog_id or "-",
            )
            for g in report.gpus
        ]
        lines += ["", table(headers, rows)]
    lines += ["", render_checks(report.checks, lang), "", _summary(report.checks, lang)]
    return "\n".join(lines)


def _summary(checks: Sequence[CheckRecord], lang: Lang) -> str:
    counts = {s: sum(1 for c in checks if c.status == s) for s in ("pass", "fail", "warn", "unknown", "skip")}
    return t(
        "verify.summary",
        lang,
        passed=counts["pass"],
        failed=counts["fail"],
        warned=counts["warn"],
        unknown=counts["unknown"],
        skipped=counts["skip"],
    )


def render_merged(merged: MergedReport, lang: Lang) -> str:
    headers = [t(f"verify.col.{k}", lang) for k in ("node", "gpus", "driver", "cuda", "counts", "result")]
    rows = []
    for report, src in zip(merged.nodes, merged.sources, strict=True):
        c = report.counts()
        result = report.overall()
        rows.append(
            (
                node_name(report, src),
                gpu_summary(report),
                report.driver_version or "-",
                report.cuda_version or "-",
                f"{c['pass']}/{c['fail']}/{c['warn']}/{c['unknown']}/{c['skip']}",
                status_label(result, lang),
            )
        )
    lines = [t("verify.merge.title", lang, n=len(merged.nodes)), "", table(headers, rows), ""]
    failing = [
        (node_name(r, s), chk)
        for r, s in zip(merged.nodes, merged.sources, strict=True)
        for chk in r.checks
        if chk.status in ("fail", "unknown")
    ]
    for name, chk in failing:
        lines.append(one_line(f"  {name}: {chk.id} [{status_label(chk.status, lang)}] — "
                              f"{check_actual(chk, lang) or '-'}"))
    if failing:
        lines.append("")
    lines += [render_checks(merged.checks, lang), "", _summary(merged.checks, lang)]
    return "\n".join(lines)

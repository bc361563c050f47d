"""Benchmark: quote + checklist PDF of the largest example plan (target < 250 ms median) vs a minimal PDF."""

from __future__ import annotations

import io
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from _util import median_ms  # noqa: E402

TARGET_MS = 250.0
RUNS = 25


def _plan_and_catalog():  # type: ignore[no-untyped-def]
    """The largest shipped example plan, with the shipped catalog."""
    from catalog.loader import load_catalog
    from procurement.plan import load_plan

    path = max((ROOT / "resources" / "examples").glob("*.gpuplan.yaml"), key=lambda p: p.stat().st_size)
    cat = load_catalog()
    return path, load_plan(path, cat), cat


def main() -> int:
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.platypus import Paragraph, SimpleDocTemplate

    from procurement.policy import default_policy
    from procurement.reports import render_checklist_pdf, render_quote_pdf
    from procurement.reports.fonts import register_cjk_font
    from procurement.rules import evaluate

    path, plan, cat = _plan_and_catalog()
    policy = default_policy()
    font = register_cjk_font()

    def baseline() -> bytes:
        buf = io.BytesIO()
        style = ParagraphStyle("b", fontName=font, fontSize=10)
        SimpleDocTemplate(buf, pagesize=A4).build([Paragraph("报价单 Quotation", style)])
        return buf.getvalue()

    def reports() -> tuple[bytes, bytes]:
        findings = evaluate(plan, cat, policy, "zh")
        return (
            render_quote_pdf(plan, cat, policy=policy, findings=findings, lang="zh"),
            render_checklist_pdf(plan, cat, policy=policy, findings=findings, lang="zh"),
        )

    base = median_ms(baseline, RUNS, warmup=1)
    both = median_ms(reports, RUNS, warmup=1)
    quote_b, check_b = reports()
    print(f"plan: {path.relative_to(ROOT)}")
    print(f"baseline (one-paragraph PDF, same font): {base:7.2f} ms median of {RUNS}")
    sizes = f"{len(quote_b) // 1024} + {len(check_b) // 1024} KiB"
    print(f"quote + checklist ({sizes}): {both:7.2f} ms median of {RUNS}")
    verdict = "met" if both < TARGET_MS else "MISSED"
    print(f"ratio: {both / base:.1f}× baseline; target < {TARGET_MS:.0f} ms: {verdict}")
    return 0 if both < TARGET_MS else 1


if __name__ == "__main__":
    sys.exit(main())

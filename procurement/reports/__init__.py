"""PDF reports of a plan: the quote and the checklist (reportlab), rendered to bytes, written atomically."""

from __future__ import annotations

# For the GUI (Export…, Print… with preview) — one source for file and preview:
#   data = render_quote_pdf(plan, catalog, policy=..., findings=..., lang="zh", paper="a4")   -> bytes
#   data = render_checklist_pdf(plan, catalog, policy=..., findings=..., lang="zh", paper="a4") -> bytes
#   write_pdf(path, data, lang)           atomic; raises ExportError (message in the user's language)
#   check_target(path, lang)              the same checks before a dialog closes or a worker starts
#   suggested_filename(plan, "quote" | "checklist", lang)
# Rendering takes 20-60 ms per document and may run in a worker thread (the font registers once, under a lock);
# QPdfDocument can load the same bytes through a QBuffer for the preview. FontNotFoundError says what to install.
from typing import Literal

from procurement.messages import Lang, t
from procurement.plan import Plan, canonical_digest
from procurement.reports.checklist_pdf import render_checklist_pdf
from procurement.reports.common import ExportError, Paper, check_target, safe_filename, write_pdf
from procurement.reports.fonts import FontNotFoundError, register_cjk_font
from procurement.reports.quote import Quote, QuoteLine, build_quote, issue_quote, quote_number, render_quote_pdf

__all__ = [
    "ExportError",
    "FontNotFoundError",
    "Paper",
    "Quote",
    "QuoteLine",
    "build_quote",
    "check_target",
    "issue_quote",
    "quote_number",
    "register_cjk_font",
    "render_checklist_pdf",
    "render_quote_pdf",
    "safe_filename",
    "suggested_filename",
    "write_pdf",
]


def suggested_filename(plan: Plan, what: Literal["quote", "checklist"], lang: Lang = "zh") -> str:
    """The file name an Export… dialog proposes, e.g. '报价单-Q20260301-F25941.pdf'."""
    if what == "quote":
        return safe_filename(f"{t('quote.title', lang)}-{quote_number(plan)}")
    label = t("clpdf.file", lang)
    return safe_filename(f"{label}-{plan.title}" if plan.title.strip() else f"{label}-{canonical_digest(plan)[:8]}")

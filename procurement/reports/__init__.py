"""PDF reports of a plan: the quote and the checklist (reportlab), rendered to bytes, written atomically."""

from __future__ import annotations

from procurement.reports.checklist_pdf import render_checklist_pdf
from procurement.reports.common import ExportError, Paper, write_pdf
from procurement.reports.fonts import FontNotFoundError, register_cjk_font
from procurement.reports.quote import Quote, QuoteLine, build_quote, render_quote_pdf

__all__ = [
    "ExportError",
    "FontNotFoundError",
    "Paper",
    "Quote",
    "QuoteLine",
    "build_quote",
    "register_cjk_font",
    "render_checklist_pdf",
    "render_quote_pdf",
    "write_pdf",
]

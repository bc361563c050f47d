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
#
# The quote's figures (build_quote, Quote …) import no PDF code: the quote page shows them without reportlab
# (~230 ms of imports, issue 26). The names below that need reportlab are imported on first use (PEP 562).
import importlib
from typing import TYPE_CHECKING, Any, Literal

from procurement.messages import Lang, t
from procurement.plan import Plan, canonical_digest
from procurement.reports.quote import Quote, QuoteLine, build_quote, issue_quote, quote_number

if TYPE_CHECKING:
    from procurement.reports.checklist_pdf import render_checklist_pdf
    from procurement.reports.common import ExportError, Paper, check_target, safe_filename, write_pdf
    from procurement.reports.fonts import FontNotFoundError, register_cjk_font
    from procurement.reports.quote_pdf import render_quote_pdf

_LAZY = {
    "render_checklist_pdf": "procurement.reports.checklist_pdf",
    "ExportError": "procurement.reports.common",
    "Paper": "procurement.reports.common",
    "check_target": "procurement.reports.common",
    "safe_filename": "procurement.reports.common",
    "write_pdf": "procurement.reports.common",
    "FontNotFoundError": "procurement.reports.fonts",
    "register_cjk_font": "procurement.reports.fonts",
    "render_quote_pdf": "procurement.reports.quote_pdf",
}
"""Name → the module that defines it, imported when the name is first read."""

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


def __getattr__(name: str) -> Any:
    """A PDF name (``from procurement.reports import render_quote_pdf``), imported on first use."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # the next read is a plain attribute
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})


def suggested_filename(plan: Plan, what: Literal["quote", "checklist"], lang: Lang = "zh") -> str:
    """The file name an Export… dialog proposes, e.g. '报价单-Q20260301-F25941.pdf'."""
    from procurement.reports.common import safe_filename

    if what == "quote":
        return safe_filename(f"{t('quote.title', lang)}-{quote_number(plan)}")
    from procurement.reports import checklist_pdf  # noqa: F401  (registers 'clpdf.file')

    label = t("clpdf.file", lang)
    return safe_filename(f"{label}-{plan.title}" if plan.title.strip() else f"{label}-{canonical_digest(plan)[:8]}")

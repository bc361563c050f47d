"""The pages of the main window, in order: the five steps, then the checklist and quote views."""

from __future__ import annotations

from typing import NamedTuple

from PySide6.QtCore import QCoreApplication

from procurement.messages import Lang, t


class PageInfo(NamedTuple):
    module: str
    cls: str
    step: int
    """1-5 for the five steps; 0 for the checklist and quote views."""


# In display order; gui/main_window.py imports and builds each page the first time it is shown, so the
# window's step list (titles, step numbers) is known without importing any page.
PAGES: tuple[PageInfo, ...] = (
    PageInfo("gui.pages.step1_requirements", "RequirementsPage", 1),
    PageInfo("gui.pages.step2_gpu", "GpuPage", 2),
    PageInfo("gui.pages.step3_server", "ServerPage", 3),
    PageInfo("gui.pages.step4_image", "ImagePage", 4),
    PageInfo("gui.pages.step5_verify", "VerifyPage", 5),
    PageInfo("gui.pages.checklist_view", "ChecklistPage", 0),
    PageInfo("gui.pages.quote_view", "QuotePage", 0),
)


def page_title(cls: str, lang: Lang) -> str:
    """The page's title in ``lang``: a step's name is the core's ('step.<n>', the same words as the CLI and
    the PDFs); the checklist and quote views are named by the widget catalogue (context: the page class)."""
    step = next(p.step for p in PAGES if p.cls == cls)
    if step:
        return t(f"step.{step}", lang)
    translate = QCoreApplication.translate  # lupdate reads translate("Context", "text") calls
    titles = {
        "ChecklistPage": translate("ChecklistPage", "Checklist"),
        "QuotePage": translate("QuotePage", "Quote"),
    }
    return titles[cls]


def step_heading(step: int, lang: Lang) -> str:
    """'Step 3 · Server configuration' in ``lang``."""
    return QCoreApplication.translate("StepPage", "Step %1 · %2").replace("%1", str(step)).replace(
        "%2", t(f"step.{step}", lang))

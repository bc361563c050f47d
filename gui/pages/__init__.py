"""The pages of the main window, in order: the five steps, then the checklist and quote views."""

from __future__ import annotations

from typing import NamedTuple

from PySide6.QtCore import QCoreApplication


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


def page_title(cls: str) -> str:
    """The page's title in the current language (the context is the page class, as in its self.tr())."""
    translate = QCoreApplication.translate  # lupdate reads translate("Context", "text") calls
    titles = {
        "RequirementsPage": translate("RequirementsPage", "Requirements"),
        "GpuPage": translate("GpuPage", "GPU selection"),
        "ServerPage": translate("ServerPage", "Server configuration"),
        "ImagePage": translate("ImagePage", "Image selection"),
        "VerifyPage": translate("VerifyPage", "Verification"),
        "ChecklistPage": translate("ChecklistPage", "Checklist"),
        "QuotePage": translate("QuotePage", "Quote"),
    }
    return titles[cls]

"""The pages of the main window, in order: the five steps, then the checklist and quote views."""

from __future__ import annotations

# (module, class) in display order; gui/main_window.py builds them.
PAGES: tuple[tuple[str, str], ...] = (
    ("gui.pages.step1_requirements", "RequirementsPage"),
    ("gui.pages.step2_gpu", "GpuPage"),
    ("gui.pages.step3_server", "ServerPage"),
    ("gui.pages.step4_image", "ImagePage"),
    ("gui.pages.step5_verify", "VerifyPage"),
    ("gui.pages.checklist_view", "ChecklistPage"),
    ("gui.pages.quote_view", "QuotePage"),
)

"""Page: Checklist (placeholder until the page is built)."""

from __future__ import annotations

from gui.pages.base import StepPage


class ChecklistPage(StepPage):
    step = 0

    def title(self) -> str:
        return self.tr("Checklist")

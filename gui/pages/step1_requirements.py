"""Page: Requirements (placeholder until the page is built)."""

from __future__ import annotations

from gui.pages.base import StepPage


class RequirementsPage(StepPage):
    step = 1

    def title(self) -> str:
        return self.tr("Requirements")

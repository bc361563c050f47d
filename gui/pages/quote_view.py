"""Page: Quote (placeholder until the page is built)."""

from __future__ import annotations

from gui.pages.base import StepPage


class QuotePage(StepPage):
    step = 0

    def title(self) -> str:
        return self.tr("Quote")

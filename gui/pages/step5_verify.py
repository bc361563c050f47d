"""Page: Verification (placeholder until the page is built)."""

from __future__ import annotations

from gui.pages.base import StepPage


class VerifyPage(StepPage):
    step = 5

    def title(self) -> str:
        return self.tr("Verification")

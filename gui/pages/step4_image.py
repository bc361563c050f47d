"""Page: Image selection (placeholder until the page is built)."""

from __future__ import annotations

from gui.pages.base import StepPage


class ImagePage(StepPage):
    step = 4

    def title(self) -> str:
        return self.tr("Image selection")

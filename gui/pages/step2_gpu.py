"""Page: GPU selection (placeholder until the page is built)."""

from __future__ import annotations

from gui.pages.base import StepPage


class GpuPage(StepPage):
    step = 2

    def title(self) -> str:
        return self.tr("GPU selection")

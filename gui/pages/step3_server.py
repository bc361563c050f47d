"""Page: Server configuration (placeholder until the page is built)."""

from __future__ import annotations

from gui.pages.base import StepPage


class ServerPage(StepPage):
    step = 3

    def title(self) -> str:
        return self.tr("Server configuration")

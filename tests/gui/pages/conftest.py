"""Fixtures the page tests share."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from catalog.loader import Catalog
from gui import workers
from gui.controller import PlanController
from gui.pages.step5_verify import VerifyPage
from procurement.plan import Plan
from procurement.policy import Policy


@pytest.fixture
def verify_page(qtbot, catalog: Catalog, policy: Policy) -> Iterator[Callable[..., VerifyPage]]:
    """Makes step 5's page on an English controller holding ``plan`` (None: an empty plan), opened as from a
    file, or started as a new plan with ``new=True``. After the test each page's probe job is cancelled and
    every worker is waited for (``wait_ms``)."""
    made: list[tuple[VerifyPage, int]] = []

    def make(plan: Plan | None = None, new: bool = False, wait_ms: int = 10_000) -> VerifyPage:
        ctl = PlanController(catalog, policy, lang="en")
        if plan is not None:
            if new:
                ctl.new(plan)
            else:
                ctl.replace_plan(plan, "open")
        page = VerifyPage(ctl)
        qtbot.addWidget(page)
        made.append((page, wait_ms))
        return page

    yield make
    for page, wait_ms in made:
        if page.job is not None:
            page.job.cancel()
        assert workers.wait_for_jobs(wait_ms)

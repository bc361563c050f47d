"""Step 4 with an image whose contents the catalog does not record: marked, with the core's reason, and the
step's mark is no ✓ until an image with known contents is chosen (with the mouse, from the list)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from gui.controller import PlanController
from gui.pages.step4_image import CONFLICT_MARK, ImagePage
from gui.views.steps import step_marks
from procurement.plan import load_plan
from tests.conftest import EXAMPLES


@pytest.fixture
def page(qtbot, catalog, policy):
    ctl = PlanController(catalog, policy, lang="en")
    ctl.new(load_plan(EXAMPLES / "mid-size-training.gpuplan.yaml", catalog))
    page = ImagePage(ctl)
    qtbot.addWidget(page)
    page.show()
    qtbot.waitExposed(page)
    return page


def _click_option(qtbot, combo, part_id: str) -> None:
    """Open the list and click the option, as a person picks it."""
    target = combo.findData(part_id)
    assert target >= 0
    combo.showPopup()
    view = combo.view()
    qtbot.waitUntil(view.isVisible)
    index = view.model().index(target, 0)
    view.scrollTo(index)
    QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=view.visualRect(index).center())
    qtbot.waitUntil(lambda: combo.currentData() == part_id)


def _mark(page) -> str:
    ctl = page.controller
    ctl.reevaluate()
    return step_marks(ctl.plan, ctl.evaluation, ctl.findings)[4].state


@pytest.mark.qt_log_ignore("does not support propagateSizeHints", "does not support raise",
                           "does not support grabbing")  # the offscreen platform and a combo's popup
def test_an_image_with_unknown_contents_is_marked_and_step_4_gets_no_tick(page, qtbot) -> None:
    combo = page.combos["software.image"]
    chosen = combo.itemText(combo.currentIndex())
    assert combo.currentData() == "ngc-pytorch-23.05" and chosen.startswith(CONFLICT_MARK)
    reason = page.reason_labels["software.image"]
    assert reason.isVisibleTo(page)
    assert "does not record the CUDA version, the minimum driver, the framework release" in reason.text()
    # an image that holds no CUDA is no false alarm
    conda = combo.findData("miniconda3")
    assert not combo.itemText(conda).startswith(CONFLICT_MARK)
    assert _mark(page) == "warning"

    _click_option(qtbot, combo, "pytorch-2.1.0-cuda12.1-runtime")
    assert page.controller.plan.software.image == "pytorch-2.1.0-cuda12.1-runtime"
    qtbot.waitUntil(lambda: not page.reason_labels["software.image"].isVisibleTo(page))
    assert _mark(page) == "ok"

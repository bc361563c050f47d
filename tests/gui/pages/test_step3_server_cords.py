"""Step 3 shows the amps and VA per cord at the site voltage in its live box, as `check` and the PDFs word them.

An electrician wires a data centre by the current in each cord: the figures were in `check`, the quote, the
RFQ and the checklist, but step 3 showed them only in a tooltip. Hand calculation for a DGX H100 (NVIDIA DGX
H100/H200 User Guide: 10.2 kW maximum, six 3.3 kW PSUs in 4+2; the PSUs' 80 PLUS class is unpublished, so
the power factor is the 80 PLUS floor of 0.9, docs/sources.md §D D15):
- 230 V: 10,200 / (230 × 0.9) = 49.3 A per server → 8.2 A per cord over six cords, 12.3 A over the four left
  with two failed; 10,200 / 0.9 / 6 = 1,889 VA per cord;
- the 200-208 V band, computed at its low end (procurement.facility.BAND_LOW_VOLTS, the safe side):
  10,200 / (200 × 0.9) = 56.7 A → 9.4 A per cord, 14.2 A over four.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from gui.controller import PlanController
from gui.pages.step3_server import ServerPage
from procurement.budgets.power import power_budget
from procurement.facility_summary import cord_lines
from procurement.plan import Plan

DGX_H100 = {
    "requirements": {"workload": "training", "nodes": 2, "deployment": "datacenter"},
    "gpu": {"model": "h100-sxm5-80gb", "count": 8},
    "server": {"chassis": "nvidia-dgx-h100", "cpu": "xeon-platinum-8480c", "cpu_count": 2,
               "memory": {"part": "micron-ddr5-4800-rdimm-64gb", "count": 32},
               "psu": {"part": None, "count": 0, "redundancy": "n+2"}, "input_voltage": "230"},
}


@pytest.fixture
def page(qtbot, catalog, policy):
    ctl = PlanController(catalog, policy, lang="en")
    ctl.new(Plan.model_validate(DGX_H100))
    page = ServerPage(ctl)
    qtbot.addWidget(page)
    page.resize(1280, 800)
    page.show()
    qtbot.waitExposed(page)
    return page


def test_the_live_box_shows_amps_and_va_per_cord_and_follows_the_voltage_chosen_by_keys(page, qtbot, catalog):
    ctl = page.controller
    label = page.cord_figures
    qtbot.waitUntil(lambda: "Per cord" in label.text())
    assert label.isVisible() and page.gauge_box.isAncestorOf(label)
    assert label.text().splitlines() == [
        "Per cord (6 PSU cords sharing): 8.2 A, 1,889 VA at 230 V.",
        "With 2 redundant PSUs failed: 4 cords carry 12.3 A each.",
    ]
    # the same lines as check, the quote, the RFQ and the checklist print (one computation, never the GUI's own)
    assert label.text().splitlines() == cord_lines(power_budget(ctl.plan, catalog, ctl.policy), "en", stops=True)

    # a person picks 200-208 V from the list with the keyboard: 230 → 240 → 200-208
    page.voltage_combo.setFocus()  # tabbed to (a click opens the list, which the offscreen platform warns on)
    qtbot.keyClick(page.voltage_combo, Qt.Key.Key_Down)
    qtbot.keyClick(page.voltage_combo, Qt.Key.Key_Down)
    assert ctl.plan.server.input_voltage == "200-208"
    qtbot.waitUntil(lambda: "at 200 V" in label.text())
    assert label.text().splitlines() == [
        "Per cord (6 PSU cords sharing): 9.4 A, 1,889 VA at 200 V.",
        "With 2 redundant PSUs failed: 4 cords carry 14.2 A each.",
    ]
    # the power gauge's tooltip carries them too, under the server's line
    assert "Per cord (6 PSU cords sharing): 9.4 A" in page.power_gauge.toolTip()


def test_no_figures_before_a_gpu_or_cpu_is_chosen(qtbot, catalog, policy):
    ctl = PlanController(catalog, policy, lang="en")
    page = ServerPage(ctl)
    qtbot.addWidget(page)
    page.show()
    qtbot.waitExposed(page)
    qtbot.wait(200)
    assert page.cord_figures.text() == "" and not page.cord_figures.isVisible()


def test_the_figures_are_said_in_chinese_too(page, qtbot, catalog):
    ctl = page.controller
    qtbot.waitUntil(lambda: "Per cord" in page.cord_figures.text())
    ctl.set_lang("zh")
    zh = cord_lines(power_budget(ctl.plan, catalog, ctl.policy), "zh", stops=True)
    assert zh and "8.2 A" in zh[0] and "Per cord" not in zh[0]
    qtbot.waitUntil(lambda: page.cord_figures.text().splitlines() == zh)

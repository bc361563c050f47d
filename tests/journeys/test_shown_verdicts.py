"""What steps 3 and 5 show is the core's verdict and the core's words, driven with real clicks and keys.

Step 5 decided a node's mark in the page: a report whose every check was skipped (nothing verified, exit
status 3) showed ✔ and the step's mark said ok. Step 3 worded the wall power, the rack and the PDU in its own
strings while the PDFs and `gpu-procure check` printed the same figures in other words.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from gui import workers
from gui.pages import PAGES
from procurement.facility_summary import facility_lines
from procurement.plan import canonical_digest


def _click_step(win, cls: str) -> None:
    index = next(i for i, info in enumerate(PAGES) if info.cls == cls)
    rect = win.step_list.visualItemRect(win.step_list.item(index))
    QTest.mouseClick(win.step_list.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert win.current_index() == index


def _example(win, nodes: int = 1) -> None:
    from gui.screenshots import pick_example
    from procurement.plan import with_value

    plan = pick_example(None)
    win.controller.new(with_value(plan.model_copy(update={"verification": []}), "requirements.nodes", nodes))
    win.controller.undo_stack.setClean()
    win.controller.reevaluate()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_node_that_verified_nothing_is_shown_unknown_and_step_5_is_not_ok(qtbot, make_window, tmp_path: Path,
                                                                           monkeypatch, lang) -> None:
    win = make_window()
    win.set_language(lang)
    _example(win)
    _click_step(win, "VerifyPage")
    page = win.page("VerifyPage")
    step5 = win.pages.index(page)
    assert win.step_status(step5) != "error"
    folder = tmp_path / "reports"
    folder.mkdir()
    report = {"schema_version": 2, "created": "2026-11-30T10:00:00+00:00",
              "host": {"hostname": "gpu01", "dmi_serial": "SN-gpu01"}, "driver_version": "580.105.08",
              "cuda_version": "13.0", "gpus": [],
              "checks": [{"id": "GPU-COUNT", "status": "skip", "message": "not applicable"},
                         {"id": "NVLINK", "status": "skip", "message": "not applicable"}],
              "error": None, "plan_digest": canonical_digest(win.controller.plan)}
    (folder / "gpu01.json").write_text(json.dumps(report), encoding="utf-8")
    monkeypatch.setattr(workers, "ask_directory", lambda *args: folder)
    QTest.mouseClick(page.import_dir_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: workers.wait_for_jobs(0) and page.nodes_table.rowCount() >= 1)
    table = page.nodes_table
    row = next(r for r in range(table.rowCount()) if table.item(r, 0).text() == "gpu01")
    shown = table.item(row, 1)
    assert shown.text().startswith("? ") and "✔" not in shown.text()
    assert shown.data(Qt.ItemDataRole.UserRole) == "unknown"
    assert table.item(row, 7).text() == {"en": "every check was skipped: nothing was verified",
                                         "zh": "所有检查均被跳过：没有验证任何内容"}[lang]
    qtbot.waitUntil(lambda: win.step_status(step5) == "warning")  # never the step's ok mark


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_step_3_words_the_wall_power_and_the_rack_as_the_pdfs_do(qtbot, make_window, lang) -> None:
    win = make_window()
    win.resize(1280, 900)
    win.set_language(lang)
    _example(win, nodes=8)
    _click_step(win, "ServerPage")
    page = win.page("ServerPage")
    box = page.servers_per_rack
    page.scroll_area.ensureWidgetVisible(box)
    QTest.mouseClick(box.lineEdit(), Qt.MouseButton.LeftButton)
    QTest.keyClick(box.lineEdit(), Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    QTest.keyClicks(box.lineEdit(), "2")
    QTest.keyClick(box.lineEdit(), Qt.Key.Key_Tab)
    ctl = win.controller
    qtbot.waitUntil(lambda: ctl.plan.server.servers_per_rack == 2 and ctl.evaluation is not None
                    and ctl.evaluation.plan is ctl.plan)
    power = ctl.evaluation.budgets.power
    assert power is not None and power.rack is not None and power.rack.servers_per_rack == 2
    on_paper = facility_lines(power, lang)  # what `check` prints and the quote's facility section says
    qtbot.waitUntil(lambda: on_paper[0] in page.power_gauge.toolTip().splitlines())
    rack_tip = page.rack_gauge.toolTip().splitlines()
    assert [line for line in on_paper if line in rack_tip] == on_paper[-2:]  # the rack and its PDU, word for word
    assert {"en": "Per rack: 2 servers", "zh": "每机柜：2 台服务器"}[lang] in rack_tip[0]

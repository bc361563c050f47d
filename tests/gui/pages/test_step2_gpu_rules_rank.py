"""Step 2 ranks first what the rules accept: for a data-centre full fine-tune at 200,000 元 the RTX 4090 D × 7 the
sizing put first sits below every GPU the rules accept, with the findings that exclude it in its row; for a
50,000 元 personal box in China the export-blocked RTX 4090 does; another GPU brings its own count."""

from __future__ import annotations

from PySide6.QtCore import Qt

from gui.pages.step2_gpu import COLUMNS, GPU_ROLE
from procurement.choices import gpu_choices
from tests.procurement.test_choices import llama_2_7b


def _open_step2(win, qtbot, plan):
    win.controller.new(plan)
    win.controller.reevaluate()
    qtbot.keyClick(win, Qt.Key.Key_2, Qt.KeyboardModifier.ControlModifier)
    page = win.page("GpuPage")
    qtbot.waitUntil(lambda: page.isVisible() and page.table.rowCount() > 0)
    return page


def _shown_ids(page) -> list[str]:
    return [page.table.item(r, 0).data(GPU_ROLE) for r in range(page.table.rowCount())]


def _row(page, gpu_id: str) -> int:
    return _shown_ids(page).index(gpu_id)


def _cell(page, gpu_id: str, column: str):
    return page.table.item(_row(page, gpu_id), COLUMNS.index(column))


def _double_click(qtbot, page, gpu_id: str) -> None:
    table = page.table
    item = table.item(_row(page, gpu_id), COLUMNS.index("name"))
    table.scrollToItem(item)
    rect = table.visualItemRect(item)
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    qtbot.mouseDClick(table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())


def test_data_centre_fine_tune_ranks_the_geforce_cards_below(qtbot, make_window) -> None:
    win = make_window()
    win.resize(1280, 800)
    plan = llama_2_7b(workload="fine_tuning", mode="full_finetune", budget_cny=200_000, deployment="datacenter")
    page = _open_step2(win, qtbot, plan)
    ctl = win.controller
    core = gpu_choices(ctl.plan, ctl.catalog, ctl.policy, ctl.lang)
    assert _shown_ids(page) == [c.gpu.id for c in core]  # the table's order is the core's
    passing = [c.gpu.id for c in core if not c.excluded]
    d = _row(page, "rtx-4090-d")
    assert d >= len(passing) and all(_row(page, g) < d for g in passing)
    name = _cell(page, "rtx-4090-d", "name")
    assert name.text().startswith("✕ ")
    tip = _cell(page, "rtx-4090-d", "fits").toolTip()
    assert "LIC-GEFORCE-DATACENTER" in tip and "COOLING-OPEN-AIR" in tip
    assert "does not permit data-centre deployment" in tip and "(at most 2)" in tip
    assert _cell(page, "rtx-4090-d", "fits").text() == "7 GPUs"  # the sizing's count, shown as before
    # the first row is one the rules accept; an unpriced row says so
    top = _shown_ids(page)[0]
    assert top in passing and not _cell(page, top, "name").text().startswith("✕")
    assert _cell(page, "rtx-pro-6000-blackwell", "price").text() == "no price"
    assert "is at the top (#1)" in page.details.text()

    # the buyer clicks the excluded row: the reason is in the pane under the table
    item = page.table.item(d, COLUMNS.index("name"))
    page.table.scrollToItem(item)
    qtbot.mouseClick(page.table.viewport(), Qt.MouseButton.LeftButton, pos=page.table.visualItemRect(item).center())
    assert "is excluded by the rules for this plan" in page.details.text()
    assert "LIC-GEFORCE-DATACENTER" in page.details.text()

    # choosing it anyway gives the sizing's 7; another GPU then brings its own count, not the 7
    _double_click(qtbot, page, "rtx-4090-d")
    assert (ctl.plan.gpu.model, ctl.plan.gpu.count) == ("rtx-4090-d", 7)
    _double_click(qtbot, page, "rtx-pro-6000-blackwell")
    qtbot.waitUntil(lambda: ctl.plan.gpu.model == "rtx-pro-6000-blackwell")
    assert ctl.plan.gpu.count == 2
    qtbot.waitUntil(lambda: not any(f.rule == "COOLING-OPEN-AIR" for f in ctl.findings))
    assert page.count_spin.text() == "2 GPUs"
    assert page.rankings == 1  # choosing a GPU does not re-rank (the ranking tries every GPU with its count)


def test_personal_box_in_china_ranks_the_export_blocked_4090_below(qtbot, make_window) -> None:
    win = make_window()
    win.set_language("zh")
    plan = llama_2_7b(workload="inference", budget_cny=50_000, deployment="office")
    page = _open_step2(win, qtbot, plan)
    ids = _shown_ids(page)
    assert ids[:2] == ["rtx-4080-16gb", "rtx-4090-d"]
    ctl = win.controller
    last_passing = max(c.order for c in gpu_choices(ctl.plan, ctl.catalog, ctl.policy, ctl.lang) if not c.excluded)
    assert ids.index("rtx-4090") >= last_passing
    tip = _cell(page, "rtx-4090", "price").toolTip()
    assert "LIC-EXPORT" in tip and "禁止向中国出口" in tip
    assert _cell(page, "rtx-4090", "rank").text() == str(ids.index("rtx-4090") + 1)
    assert not _cell(page, "rtx-4090-d", "name").text().startswith("✕")


def test_ranking_waits_until_quick_changes_stop(qtbot, make_window, monkeypatch) -> None:
    """Undo pressed three times in a row on step 2: the ranking (one evaluation per GPU) runs once the changes
    stop, not once per change, and then shows the last plan's order."""
    import gui.pages.step2_gpu as step2

    monkeypatch.setattr(step2, "RANK_BUDGET_S", 0.0)  # as on a machine where ranking takes longer than 100 ms
    win = make_window()
    plan = llama_2_7b(workload="inference", budget_cny=50_000, deployment="office")
    page = _open_step2(win, qtbot, plan)
    ctl = win.controller
    for budget in ("60000", "70000", "80000"):  # three edits to undo (step 1 typed in the budget)
        ctl.set_value("requirements.budget_cny", float(budget))
    qtbot.waitUntil(lambda: not page.ranking_pending())
    before = page.rankings
    for _ in range(3):
        qtbot.keyClick(page.table, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert ctl.plan.requirements.budget_cny == 50_000
    qtbot.waitUntil(lambda: not page.ranking_pending() and page.rankings > before, timeout=5000)
    assert page.rankings - before <= 2  # at most the first change at once, then one when they stopped
    assert _shown_ids(page) == [c.gpu.id for c in gpu_choices(ctl.plan, ctl.catalog, ctl.policy, ctl.lang)]

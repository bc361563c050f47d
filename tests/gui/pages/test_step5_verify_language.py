"""A verification report made in one language reads in the other: step 5's checks, the selected check's
detail and the checklist's "measured" lines are rendered from the stored codes and parameters in the
reader's language ("找不到 nvidia-smi…" showed in the English UI, English messages in the Chinese one)."""

from __future__ import annotations

import re

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QTableWidget

from gui.screenshots import SHOWCASE_CAPTURE
from procurement.plan import load_plan, with_value
from tests.conftest import REPO

EXAMPLE = REPO / "resources" / "examples" / "mid-size-training.gpuplan.yaml"
ENGLISH = re.compile(r"\b[A-Za-z]{2,}(?:[ ,'-]+[A-Za-z]{2,}){4,}")
"""Five English words in a row: a sentence, not a product name or a unit."""
CHINESE = re.compile(r"[\u4e00-\u9fff]")


def _plan_with_report(catalog, made_in: str):
    from procurement.verify import report_from_outputs, report_to_dict

    plan = load_plan(EXAMPLE, catalog)
    report = report_from_outputs(SHOWCASE_CAPTURE.read_text(encoding="utf-8"), catalog, plan, made_in)
    return with_value(plan, "verification", [report_to_dict(report)])


def _report_texts(win, qtbot) -> list[str]:
    page = win.page("VerifyPage")
    win.show_page(4)
    qtbot.waitUntil(page.isVisible)
    page.tabs.setCurrentIndex(2)
    table = page.checks_table
    assert table.rowCount() > 5
    texts = [table.item(r, c).text() for r in range(table.rowCount()) for c in range(table.columnCount())
             if table.item(r, c) is not None]
    for r in range(table.rowCount()):  # each check's detail pane, selected as a person would
        table.setCurrentCell(r, 0)
        texts.append(page.check_detail.toPlainText())
    win.show_page(5)
    checklist = win.page("ChecklistPage")
    qtbot.waitUntil(checklist.isVisible)
    for t in checklist.findChildren(QTableWidget):
        texts += [t.item(r, c).text() for r in range(t.rowCount()) for c in range(t.columnCount())
                  if t.item(r, c) is not None and t.item(r, c).flags() & Qt.ItemFlag.ItemIsEnabled]
    return texts


def test_english_report_reads_in_chinese(qtbot, make_window, catalog) -> None:
    win = make_window()
    win.controller.new(_plan_with_report(catalog, "en"))
    win.set_language("zh")
    mixed = [t for t in _report_texts(win, qtbot) if ENGLISH.search(t)]
    assert not mixed, f"English in the Chinese UI: {[ENGLISH.search(t).group(0) for t in mixed][:5]}"
    win.set_language("en")


def test_chinese_report_reads_in_english(qtbot, make_window, catalog) -> None:
    win = make_window()
    win.controller.new(_plan_with_report(catalog, "zh"))
    win.set_language("en")
    texts = _report_texts(win, qtbot)
    mixed = [t for t in texts if CHINESE.search(t)]
    assert not mixed, f"Chinese in the English UI: {mixed[:3]}"
    assert any("nvidia-smi" in t or "GPU" in t for t in texts)


def test_qt_file_dialog_is_all_chinese_in_the_chinese_ui(qtbot, make_window) -> None:
    """Qt's own file dialog (not the platform's): every label, button, tooltip, column and menu item in
    Chinese — qtbase_zh_CN lacks "&Look in:" and "Files of &type:", which the app's catalogue supplies."""
    from PySide6.QtGui import QAction
    from PySide6.QtWidgets import QAbstractButton, QFileDialog, QLabel, QTreeView

    win = make_window()
    win.set_language("zh")
    dialog = QFileDialog(win, "打开方案", "", "GPU 方案 (*.yaml);;所有文件 (*)")
    dialog.setOption(QFileDialog.Option.DontUseNativeDialog, True)
    dialog.show()
    qtbot.waitExposed(dialog)
    try:
        texts = [w.text() for w in dialog.findChildren(QLabel) if w.isVisible()]
        texts += [t for b in dialog.findChildren(QAbstractButton) for t in (b.text(), b.toolTip())]
        texts += [a.text() for a in dialog.findChildren(QAction)]
        for view in dialog.findChildren(QTreeView):
            texts += [str(view.model().headerData(c, Qt.Orientation.Horizontal)) for c in range(view.header().count())]
        assert "查找范围(&L)：" in texts and "文件类型(&T)：" in texts
        english = [t for t in texts if re.search(r"[A-Za-z]{3,}", t)]
        assert not english, f"English in the Chinese file dialog: {english}"
    finally:
        dialog.close()
        win.set_language("en")


def test_edit_menu_names_each_step_in_the_current_language(qtbot, make_window) -> None:
    """After switching to Chinese the Edit menu said "Undo 电源数量" (Qt's prefix fixed when the action was
    made), and after switching back "Redo 电源数量": the label of the language the edit was made in."""
    from tests.journeys.test_desktop_defects import _step3

    win = make_window()
    win.set_language("zh")
    page = _step3(win, qtbot)
    page.psu_count.setFocus()
    page.psu_count.selectAll()
    qtbot.keyClicks(page.psu_count, "2")
    undo, redo = win.named_actions["undo"], win.named_actions["redo"]
    assert undo.text() == "撤销 电源数量(&U)"
    win.set_language("en")
    assert undo.text() == "&Undo PSU count"
    qtbot.keyClick(page.psu_count, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert win.controller.plan.server.psu.count != 2 and redo.text() == "&Redo PSU count"
    win.set_language("zh")
    assert redo.text() == "重做 电源数量(&R)"
    # an edit named by its action, not a field: Step 2's "Choose GPU"
    win.show_page(1)
    gpu_page = win.page("GpuPage")
    gpu_page.choose("rtx-4090")
    assert undo.text() == "撤销 选择 GPU(&U)"
    win.set_language("en")
    assert undo.text() == "&Undo Choose GPU"


def test_undo_names_of_step_4_quote_and_checklist_edits_follow_the_language(qtbot, make_window) -> None:
    """Step 4's recommendation, the quote's unit price and the checklist's confirmations were named once, in
    the language of the moment, and kept that language in the Edit menu after a switch."""
    win = make_window()
    win.controller.set_value("gpu.model", "rtx-4090")
    win.controller.set_value("gpu.count", 1)
    win.show_page(3)
    page = win.page("ImagePage")
    qtbot.waitUntil(page.isVisible)
    page.refresh_now()
    qtbot.mouseClick(page.apply_button, Qt.MouseButton.LeftButton)
    undo = win.named_actions["undo"]
    assert undo.text() == "&Undo Apply the recommended software stack"
    win.set_language("zh")
    assert undo.text() == "撤销 应用推荐的软件栈(&U)"
    combo = page.combos["software.image"]
    combo.setCurrentIndex(combo.findData("ngc-pytorch-24.05"))
    win.set_language("en")
    assert undo.text() == "&Undo Container image"

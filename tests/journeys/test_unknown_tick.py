"""A tick is a person's confirmation, never a pass over an unknown: the buyer's story of issue "A tick turns an
unknown into a pass", driven with real mouse and key events in Chinese and English.

The seed's 中型训练 plan runs PyTorch 2.1 on NGC 23.05, whose CUDA, driver floor and PyTorch the catalog does not
record. Step 4 showed ✓; ticking 预装软件满足开发需求 (evidence "CUDA 未知，框架未知") showed ✔ 通过, stored
``by: ''`` and the PDF printed 通过 with no one named.
"""

from __future__ import annotations

import argparse
import io
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml
from PySide6.QtCore import QPoint, Qt, QTimer
from PySide6.QtGui import QInputMethodEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QDialog, QDialogButtonBox, QLineEdit, QPlainTextEdit, QStyle

from gui import workers
from gui.dialogs import ask_confirmation as real_ask_confirmation  # imported before the fixture replaces it
from gui.pages import PAGES
from gui.pages.checklist_view import COL_DONE, COL_STATUS
from tests.conftest import EXAMPLES

NAME, NOTE = "王工", "checked the 23.05 release notes: PyTorch 2.1.0a0, CUDA 12.1.1, R530+"
WORDS = {"en": {"pass": "Pass", "confirmed": f"confirmed by {NAME}", "label": "Pre-installed software meets "
                "development needs"},
         "zh": {"pass": "通过", "confirmed": f"由 {NAME} 人工确认", "label": "预装软件满足开发需求"}}


def _click_step(win, cls: str) -> int:
    index = next(i for i, info in enumerate(PAGES) if info.cls == cls)
    rect = win.step_list.visualItemRect(win.step_list.item(index))
    QTest.mouseClick(win.step_list.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert win.current_index() == index
    return index


def _click_tick(table, row: int) -> None:
    """A mouse click on the check box of the Done cell (at the left of the cell, where the style draws it)."""
    table.scrollToItem(table.item(row, COL_DONE))
    rect = table.visualItemRect(table.item(row, COL_DONE))
    size = table.style().pixelMetric(QStyle.PixelMetric.PM_IndicatorWidth)
    margin = table.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin) + 1
    QTest.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(rect.left() + margin + size // 2,
                                                                               rect.center().y()))


def _keys(widget, text: str) -> None:
    """ASCII as key presses; Chinese as an input method commits it (QTest's key clicks are ASCII only)."""
    for ch in text:
        if ch.isascii():
            QTest.keyClicks(widget, ch)
        else:
            event = QInputMethodEvent("", [])
            event.setCommitString(ch)
            QApplication.sendEvent(widget, event)


def _answer_dialog(seen: dict, name: str | None, note: str | None) -> None:
    """Fill the confirmation dialog as a person does once it is up: type the name and the note, click OK (or
    Cancel when ``name`` is None); records whether OK was refused while a field was empty."""
    dialog = QApplication.activeModalWidget()
    if not isinstance(dialog, QDialog):
        QTimer.singleShot(20, lambda: _answer_dialog(seen, name, note))
        return
    buttons = dialog.findChild(QDialogButtonBox)
    ok = buttons.button(QDialogButtonBox.StandardButton.Ok)
    seen["title"] = dialog.windowTitle()
    seen["ok_when_empty"] = ok.isEnabled()
    if name is None:
        QTest.mouseClick(buttons.button(QDialogButtonBox.StandardButton.Cancel), Qt.MouseButton.LeftButton)
        return
    line = dialog.findChild(QLineEdit)
    text = dialog.findChild(QPlainTextEdit)
    QTest.mouseClick(line, Qt.MouseButton.LeftButton)
    _keys(line, name)
    seen["ok_with_name_only"] = ok.isEnabled()
    QTest.mouseClick(text.viewport(), Qt.MouseButton.LeftButton)
    _keys(text, note or "")
    QTest.mouseClick(ok, Qt.MouseButton.LeftButton)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_tick_on_unknown_evidence_asks_who_and_shows_confirmed_by_never_pass(
        qtbot, make_window, dialog_calls, monkeypatch, tmp_path: Path, lang: str) -> None:
    from gui import dialogs

    monkeypatch.setattr(dialogs, "ask_confirmation", real_ask_confirmation)  # the real dialog, typed into
    win = make_window()
    win.set_language(lang)
    saved = tmp_path / "mid.gpuplan.yaml"
    shutil.copyfile(EXAMPLES / "mid-size-training.gpuplan.yaml", saved)
    dialog_calls.answer("ask_open_path", saved)
    qtbot.keyClick(win, Qt.Key.Key_O, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: win.controller.plan.software.image == "ngc-pytorch-23.05", timeout=10_000)

    # step 4: the image's contents are unknown, so its mark is a warning, never the ok tick
    step4 = _click_step(win, "ImagePage")
    qtbot.waitUntil(lambda: win.step_status(step4) == "warning", timeout=10_000)

    _click_step(win, "ChecklistPage")
    page = win.page("ChecklistPage")
    table = page.tables["software"]
    row = page.item_row("software", "preinstalled_software")
    assert table.item(row, COL_STATUS).data(Qt.ItemDataRole.UserRole) == "unknown"

    # a tick the person then cancels: nothing stored, the tick goes back
    seen: dict = {}
    QTimer.singleShot(0, lambda: _answer_dialog(seen, None, None))
    _click_tick(table, row)
    qtbot.waitUntil(lambda: "title" in seen, timeout=10_000)
    assert "preinstalled_software" not in win.controller.plan.checklist
    row = page.item_row("software", "preinstalled_software")
    assert table.item(row, COL_DONE).checkState() == Qt.CheckState.Unchecked

    # the tick again: the dialog asks who and how; OK only once both are typed
    seen = {}
    QTimer.singleShot(0, lambda: _answer_dialog(seen, NAME, NOTE))
    _click_tick(table, row)
    qtbot.waitUntil(lambda: "preinstalled_software" in win.controller.plan.checklist, timeout=10_000)
    assert seen["ok_when_empty"] is False and seen["ok_with_name_only"] is False
    assert WORDS[lang]["label"] in seen["title"]
    mark = win.controller.plan.checklist["preinstalled_software"]
    assert (mark.checked, mark.by, mark.note) == (True, NAME, NOTE)
    row = page.item_row("software", "preinstalled_software")
    status = table.item(row, COL_STATUS)
    assert status.data(Qt.ItemDataRole.UserRole) == "confirmed"
    assert WORDS[lang]["confirmed"] in status.text() and WORDS[lang]["pass"] not in status.text()

    # the saved plan names the person
    win.activateWindow()
    qtbot.waitUntil(win.isActiveWindow)  # the dialog has gone: the shortcut reaches the window again
    qtbot.keyClick(win, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: win.controller.undo_stack.isClean(), timeout=10_000)
    stored = yaml.safe_load(saved.read_text(encoding="utf-8"))["checklist"]["preinstalled_software"]
    assert stored == {"checked": True, "note": NOTE, "by": NAME}

    # the checklist PDF: the row says confirmed by the person, never 通过 / Pass
    target = tmp_path / "checklist.pdf"
    monkeypatch.setattr(workers, "ask_export_path", lambda *_a: target)
    monkeypatch.setattr(workers, "show_error", lambda _p, title, text: pytest.fail(f"{title}: {text}"))
    with qtbot.waitSignal(page.work_done, timeout=60_000):
        QTest.mouseClick(page.export_button, Qt.MouseButton.LeftButton)
    text = subprocess.run(["pdftotext", "-layout", str(target), "-"], capture_output=True, text=True,
                          check=True).stdout
    # the row in the laid-out text: the status column, read down its lines up to the reason column
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if WORDS[lang]["label"].split()[0] in line)
    row = lines[at]
    status_col = row.index(WORDS[lang]["confirmed"].split()[0], row.index(WORDS[lang]["label"].split()[0]) + 4)
    reason_col = row.index("image" if lang == "en" else "镜像", status_col)
    status_text = "".join(line[status_col:reason_col].strip() for line in lines[at:at + 3])
    assert re.sub(r"\s+", "", WORDS[lang]["confirmed"]) in re.sub(r"\s+", "", status_text), status_text
    assert WORDS[lang]["pass"] not in status_text

    # check --json says who vouched for it
    from procurement.commands.check import run_check

    out = io.StringIO()
    run_check(argparse.Namespace(plan=saved, json=True, lang="en", policy=None), win.controller.catalog, out,
              io.StringIO())
    found = json.loads(out.getvalue())
    [confirmed] = [f for f in found if f["rule"] == "CHECKLIST-CONFIRMED"]
    assert f"confirmed by {NAME} (not an automatic pass)" in confirmed["message"]
    assert any(f["rule"] == "SW-IMAGE-UNKNOWN" and f["severity"] == "warning" for f in found)

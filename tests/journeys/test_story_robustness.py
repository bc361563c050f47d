"""Story 6: a buyer's bad day, in en and zh — work never saved when the app dies, a plan file cut off in a
download, a title pasted with line breaks, an escape sequence and a bidi override. Nothing is lost and nothing
is made up: the autosaved copy comes back (the question knows it was never saved), the cut-off file is refused
with the line where it ends and the open plan stays as it was, the pasted title is one line of text in the plan
and on the checklist PDF."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from PySide6.QtCore import Qt

from procurement.plan import load_plan, save_plan
from tests.conftest import EXAMPLES
from tests.journeys.buyer import Buyer, pdf_text

HOSTILE = "Lab box\r\nFAKE: all checks passed\u202e\x1b[2J"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_unsaved_work_survives_a_crash_a_cut_file_is_refused_and_hostile_text_stays_text(
        make_window, qtbot, dialog_calls, tmp_path: Path, catalog, lang: str) -> None:
    buyer = Buyer.start(make_window, qtbot, dialog_calls, tmp_path, lang, size=None)
    win = buyer.win
    win.autosave_timer.setInterval(0)

    # work typed into a plan never saved, autosaved; then the app dies (no save, no clean close)
    p1 = buyer.go(0)
    with qtbot.waitSignal(win.autosaved, timeout=5000):
        buyer.type(p1.budget.spin, "66000")
    typed = win.controller.plan
    win.controller.undo_stack.setClean()
    win.hide()

    asked: list[tuple[object, ...]] = []
    dialog_calls.answer("ask_restore_recovery", lambda *args: asked.append(args) or True)
    fresh = make_window()
    fresh.named_actions[f"lang_{lang}"].trigger()
    assert fresh.offer_recovery()  # what the app does at start
    assert asked and asked[-1][3] is True, "the question spoke of a saved file for a plan never saved"
    assert fresh.controller.plan.requirements.budget_cny == 66_000 == typed.requirements.budget_cny
    assert fresh.isWindowModified() and fresh.controller.path is None

    # a plan file the app wrote, cut off in a download: refused with its line, the window keeps what it has
    written = tmp_path / "colleague.gpuplan.yaml"
    save_plan(load_plan(EXAMPLES / "llm-cluster-node.gpuplan.yaml", catalog), written)
    whole = written.read_text(encoding="utf-8")
    cut = tmp_path / "download.gpuplan.yaml"
    cut.write_text(whole[: len(whole) // 2].rsplit("\n", 1)[0] + "\n", encoding="utf-8")  # at a line end: valid YAML
    shown: list[str] = []
    dialog_calls.answer("show_error", lambda _parent, title, text: shown.append(f"{title}\n{text}"))
    dialog_calls.answer("ask_open_path", cut)
    fresh.controller.undo_stack.setClean()  # (no unsaved-changes question in the way)
    buyer2 = Buyer(fresh, qtbot, dialog_calls, tmp_path)
    buyer2.key(fresh, Qt.Key.Key_O, Qt.KeyboardModifier.ControlModifier, "open")
    qtbot.waitUntil(lambda: bool(shown), timeout=5000)
    last = len(cut.read_text(encoding="utf-8").splitlines())
    assert re.search(rf"{re.escape(cut.name)}:{last}\b", shown[0]) or f"{last}" in shown[0], shown[0]
    assert fresh.controller.path != cut and fresh.controller.plan.requirements.budget_cny == 66_000

    # a title pasted with CR/LF, a right-to-left override and an escape sequence, into both PDFs
    p1 = buyer2.go(0)
    buyer2.paste(p1.title_edit, HOSTILE)
    stored = fresh.controller.plan.title
    assert "\n" not in stored and "\r" not in stored and "\x1b" not in stored, repr(stored)
    checklist = buyer2.export(buyer2.go(5).export_button, "checklist.pdf")
    assert not buyer2.go(6).export_button.isEnabled()  # nothing to quote yet: the button says so, no empty quote
    for pdf in (checklist,):
        text = pdf_text(pdf)
        assert not [line for line in text.splitlines() if line.strip().startswith("FAKE")], pdf.name
        assert "\u202e" not in text and "\x1b" not in text
    saved = buyer2.save_as("bad-day.gpuplan.yaml")
    data = yaml.safe_load(saved.read_text(encoding="utf-8"))
    assert data["title"] == stored and data["requirements"]["budget_cny"] == 66_000
    assert load_plan(saved, catalog).title == stored

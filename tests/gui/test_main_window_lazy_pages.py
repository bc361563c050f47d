"""The window starts in two stages (frame first, then the plan) and builds and refreshes pages only when seen."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings

from gui.autosave import RecoveryStore
from gui.controller import PlanController
from gui.main_window import MainWindow
from gui.pages import PAGES
from gui.settings import Settings


def test_frame_first_then_attach(qtbot, catalog, tmp_path: Path) -> None:
    settings = Settings(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    win = MainWindow(None, settings)
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)
    # the frame: the step list with every title, a loading note, nothing that needs a plan works yet
    assert [win.step_list.item(i).text() for i in range(len(PAGES))][:2] == ["1  Requirements", "2  GPU selection"]
    assert win.loading_label is not None and win.loading_label.isVisible()
    assert not win.named_actions["save"].isEnabled() and not win.step_list.isEnabled()
    assert win.named_actions["quit"].isEnabled() and win.named_actions["lang_zh"].isEnabled()
    assert win.built_pages() == [None] * len(PAGES) and not win.findings_dock.isVisible()

    with qtbot.waitSignal(win.ready):
        win.attach(PlanController(catalog, lang="en"), RecoveryStore(tmp_path / "recovery"))
    assert win.loading_label is None and win.findings_dock.isVisible()
    assert [p is not None for p in win.built_pages()] == [True] + [False] * (len(PAGES) - 1)
    assert win.named_actions["save"].isEnabled() and win.named_actions["save"].shortcut().toString() == "Ctrl+S"
    win.controller.undo_stack.setClean()


def test_hidden_pages_refresh_when_shown(qtbot, make_window) -> None:
    win = make_window()
    server = win.pages[2]  # built now, then hidden behind step 1
    win.show_page(0)
    assert not server.on_screen() and not server.stale
    win.pages[0].budget.setValue(123_000)  # an edit on step 1 reaches the plan at once ...
    assert win.controller.plan.requirements.budget_cny == 123_000
    assert server.stale  # ... but the hidden step 3 only notes that it must redraw
    win.show_page(2)
    assert not server.stale
    assert [p is not None for p in win.built_pages()] == [True, False, True, False, False, False, False]

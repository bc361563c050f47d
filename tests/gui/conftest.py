"""GUI test fixtures: an isolated window (settings, recovery dir), dialogs that fail unless a test answers."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings, QStandardPaths
from PySide6.QtWidgets import QApplication

from gui import dialogs

QStandardPaths.setTestModeEnabled(True)  # never touch the real settings or app data dirs

ASK_FUNCTIONS = ("ask_save_changes", "ask_open_path", "ask_save_path", "ask_export_path", "ask_example",
                 "ask_restore_recovery", "ask_sign_anyway", "ask_overwrite_changed", "show_error", "show_about",
                 "ask_waiver", "ask_replace_hand_chosen", "ask_confirmation", "ask_ssh_key_path",
                 "ask_allowed_signers_path", "ask_deepspeed_config_path")


class DialogCalls:
    """Records every dialog the code under test asked for; a test sets the answers it expects to give."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls: list[tuple[str, tuple[Any, ...]]] = []
        self._mp = monkeypatch
        for name in ASK_FUNCTIONS:
            monkeypatch.setattr(dialogs, name, self._unexpected(name))

    def _unexpected(self, name: str) -> Callable[..., Any]:
        def fail(*args: Any) -> Any:
            self.calls.append((name, args))
            raise AssertionError(f"unexpected dialog {name}{args[1:]}")
        return fail

    def answer(self, name: str, value: Any) -> None:
        """Answer every later call of dialog ``name`` with ``value`` (a callable is called with the args)."""
        def reply(*args: Any) -> Any:
            self.calls.append((name, args))
            return value(*args) if callable(value) else value
        self._mp.setattr(dialogs, name, reply)

    def names(self) -> list[str]:
        return [n for n, _ in self.calls]


@pytest.fixture(autouse=True)
def _no_unanswered_questions(monkeypatch: pytest.MonkeyPatch) -> None:
    """A real modal question would hang the test run: a test that expects one answers it (monkeypatch)."""
    from gui import workers

    def fail(_parent: Any, title: str, text: str) -> bool:
        raise AssertionError(f"unexpected question {title!r}: {text}")

    monkeypatch.setattr(workers, "ask_yes_no", fail)
    monkeypatch.setattr(workers, "show_missing_glyphs", fail)

    def fail_replace(_parent: Any, lines: list[str]) -> bool:
        raise AssertionError(f"unexpected question to replace hand-chosen parts: {lines}")

    monkeypatch.setattr(dialogs, "ask_replace_hand_chosen", fail_replace)


@pytest.fixture
def dialog_calls(monkeypatch: pytest.MonkeyPatch) -> DialogCalls:
    return DialogCalls(monkeypatch)


@pytest.fixture
def settings_file(tmp_path: Path) -> Path:
    return tmp_path / "settings.ini"


@pytest.fixture
def make_window(qtbot, catalog, tmp_path: Path, settings_file: Path, dialog_calls: DialogCalls
                ) -> Iterator[Callable[..., Any]]:
    """make_window() -> a shown MainWindow with its own settings file and recovery directory."""
    from gui.autosave import RecoveryStore
    from gui.controller import PlanController
    from gui.i18n import Translators
    from gui.main_window import MainWindow
    from gui.settings import Settings

    made: list[Any] = []
    translators = Translators()

    def make(**kw: Any) -> Any:
        settings = Settings(QSettings(str(settings_file), QSettings.Format.IniFormat))
        controller = PlanController(catalog, lang="en")
        win = MainWindow(controller, settings, translators, RecoveryStore(tmp_path / "recovery"),
                         examples=kw.get("examples"))
        win.show()
        win.activateWindow()
        qtbot.waitExposed(win)
        qtbot.waitUntil(win.isActiveWindow)  # shortcuts only reach the active window
        made.append(win)
        return win

    yield make
    for win in made:
        win.controller.undo_stack.setClean()  # no save prompt at teardown
        win.close()
        win.deleteLater()
    translators.install("en")
    QApplication.processEvents()
    leaked = [w for w in QApplication.topLevelWidgets() if w.isVisible()]
    assert not leaked, f"top-level widgets left open: {leaked}"


# The offscreen platform plugin warns when a window's size hints change (docks, menus); that is the test
# platform's limitation, not a defect of the app, so it alone is ignored for the GUI tests.
OFFSCREEN_NOISE = "This plugin does not support propagateSizeHints"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.qt_log_ignore(OFFSCREEN_NOISE))

"""The open document: new, open, save, save as, autosave, recovery and recent files of the window's plan.

`MainWindow` is the shell (menus, layout, steps) and delegates every file action here. The plan itself and
its dirty state are the controller's (gui/controller.py); this object decides when it is written, to which
path, and which recovery copy is kept. Dialogs sit behind gui/dialogs.py, so tests answer them; the window
lends its busy bar (``wait_for``) and its status bar (``message``). Light to import: Qt core only until used.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import shiboken6
from PySide6.QtCore import QCoreApplication, QObject, QTimer, Signal

from gui import dialogs
from gui.settings import Settings

if TYPE_CHECKING:
    from PySide6.QtWidgets import QWidget

    from gui.autosave import RecoveryStore
    from gui.controller import PlanController

_T = TypeVar("_T")
AUTOSAVE_MS = 3000
translate = QCoreApplication.translate  # lupdate reads translate("Context", "text"); the texts are the window's
WaitFor = Callable[[Callable[[Callable[[int, str], None]], _T], str], _T]


def examples_dir() -> Path:
    return Path(str(resources.files("resources") / "examples"))


class Document(QObject):
    """The window's document: its path and dirty state (through the controller), writing it, its recovery copy."""

    autosaved = Signal(object)
    """Path of the recovery file just written."""
    started = Signal()
    """A new document (new, example, opened): the window shows its first step."""
    title_changed = Signal()
    """The name or the saved state may read differently (a recovery restored)."""
    message = Signal(str, int)
    """A status line and how long to show it (ms)."""

    def __init__(self, window: QWidget, settings: Settings, wait_for: Callable[..., object],
                 is_waiting: Callable[[], bool], examples: Path | None = None) -> None:
        super().__init__(window)
        self._window = window
        self.settings = settings
        self._wait_for = wait_for
        self._is_waiting = is_waiting
        self._examples = examples  # the shipped folder is looked up on first use (importlib.resources costs ~2 ms)
        self.controller: PlanController = None  # type: ignore[assignment]  # set by attach()
        self.recovery: RecoveryStore = None  # type: ignore[assignment]  # set by attach()
        self.autosave_timer = QTimer(self)
        self.autosave_timer.setSingleShot(True)
        self.autosave_timer.setInterval(AUTOSAVE_MS)
        self.autosave_timer.timeout.connect(self.start_autosave)
        self.autosave_job: object | None = None  # a workers.Job writing the recovery copy
        self.generation = 0
        """Counts documents (new, open, save, close): an autosave that finishes for an earlier one is removed."""

    def attach(self, controller: PlanController, recovery: RecoveryStore | None = None) -> None:
        from gui.autosave import RecoveryStore

        self.controller = controller
        self.recovery = recovery or RecoveryStore()
        controller.undo_stack.indexChanged.connect(self._edited)

    def wait_for(self, fn: Callable[[Callable[[int, str], None]], _T], text: str) -> _T:
        result: _T = self._wait_for(fn, text)  # type: ignore[assignment]
        return result

    # ------------------------------------------------------------------ name and state
    def name(self) -> str:
        path = self.controller.path if self.controller is not None else None
        return path.name if path else translate("MainWindow", "Untitled plan")

    def alive(self) -> bool:
        # QUndoStack's destructor emits cleanChanged/indexChanged after its Python wrapper is gone.
        return shiboken6.isValid(self.controller.undo_stack) and shiboken6.isValid(self._window)

    def examples(self) -> Path:
        """The folder of example plans offered by File ▸ New from example."""
        if self._examples is None:
            self._examples = examples_dir()
        return self._examples

    # ------------------------------------------------------------------ new and open
    def maybe_save(self) -> bool:
        """True when it is fine to drop the current document (saved, discarded or unchanged)."""
        if self.controller is None or not self.controller.dirty:
            return True
        answer = dialogs.ask_save_changes(self._window, self.name())
        if answer == "save":
            return self.save()
        return answer == "discard"

    def _start(self) -> None:
        self.recovery.clear(None)
        self.started.emit()

    def new_blank(self) -> bool:
        if not self.maybe_save():
            return False
        self.forget_recovery()
        self.controller.new()
        self._start()
        return True

    def example_plans(self) -> list[tuple[str, Path]]:
        from procurement.plan import PlanError, load_plan

        if not self.examples().is_dir():
            return []
        out: list[tuple[str, Path]] = []
        for path in sorted(self.examples().glob("*.yaml")):
            try:
                title = load_plan(path).title or path.stem
            except PlanError:
                continue
            out.append((title, path))
        return out

    def new_from_example(self) -> bool:
        from procurement.plan import PlanError, load_plan

        path = dialogs.ask_example(self._window, self.example_plans())
        if path is None or not self.maybe_save():
            return False
        try:
            plan = load_plan(path, self.controller.catalog, self.controller.lang)
        except PlanError as exc:
            dialogs.show_error(self._window, translate("MainWindow", "Cannot open the example"), str(exc))
            return False
        self.forget_recovery()
        self.controller.new(plan)
        self._start()
        return True

    def open_dialog(self) -> bool:
        if not self.maybe_save():
            return False
        path = dialogs.ask_open_path(self._window, self.settings.last_dir)
        return self.open_path(path, ask=False) if path else False

    def open_path(self, path: Path, ask: bool = True) -> bool:
        """Open a plan file; errors (missing file, bad YAML, unknown parts) are shown, nothing changes."""
        from procurement.plan import PlanError

        if ask and not self.maybe_save():
            return False
        try:
            self.controller_open(Path(path))
        except (PlanError, OSError) as exc:
            if not Path(path).exists():
                self.settings.remove_recent(Path(path))
            dialogs.show_error(self._window, translate("MainWindow", "Cannot open the plan"), str(exc))
            return False
        return True

    def controller_open(self, path: Path) -> None:
        old = self.controller.path
        ctl = self.controller
        # reading and checking a large plan (300 node reports: 2.4 MB of YAML) takes seconds: in a worker
        read = self.wait_for(lambda _progress: ctl.read(path),
                             translate("MainWindow", "Opening %1…").replace("%1", Path(path).name))
        self.wait_for_autosave()
        ctl.adopt(*read)
        self.generation += 1
        self.recovery.clear(old)
        self.settings.add_recent(path)
        self.settings.last_dir = path.resolve().parent
        self._start()

    # ------------------------------------------------------------------ save
    def save(self) -> bool:
        if self.controller.path is None:
            return self.save_as()
        return self.save_to(self.controller.path)

    def save_as(self) -> bool:
        from procurement.plan import PLAN_SUFFIX

        suggested = self.controller.path or (self.settings.last_dir or Path.home()) / f"plan{PLAN_SUFFIX}"
        path = dialogs.ask_save_path(self._window, suggested)
        return self.save_to(path) if path else False

    def save_to(self, path: Path) -> bool:
        """Serialise and write in a worker (a plan with 300 node reports took 1.75-4 s on the GUI thread) while
        the window repaints and shows "Saving …"; clicks and keys wait until the file is written."""
        from procurement.safe_io import FileChangedError

        old = self.controller.path
        ctl = self.controller
        self.wait_for_autosave()  # one writer at a time: the recovery copy is cleared after this save
        busy = translate("MainWindow", "Saving %1…").replace("%1", path.name)
        try:
            try:
                request = ctl.save_request(path)
                stamp = self.wait_for(lambda _progress: request.write(), busy)
            except FileChangedError:
                # another window or program saved this file since it was opened here: ask, never overwrite
                if not dialogs.ask_overwrite_changed(self._window, path.name):
                    return False
                request = ctl.save_request(path, overwrite=True)
                stamp = self.wait_for(lambda _progress: request.write(), busy)
        except (OSError, ValueError) as exc:
            dialogs.show_error(self._window, translate("MainWindow", "Cannot save the plan"), str(exc))
            return False
        ctl.saved(request, stamp)
        self.generation += 1
        self.autosave_timer.stop()
        self.recovery.clear(old)
        self.recovery.clear(None)
        self.recovery.clear(path)
        if ctl.dirty:  # edited while the file was written: those edits still need their recovery copy
            self.autosave_timer.start()
        self.settings.add_recent(path)
        self.settings.last_dir = path.resolve().parent
        self.message.emit(translate("MainWindow", "Saved %1").replace("%1", str(path)), 5000)
        return True

    # ------------------------------------------------------------------ recent files
    def recent_files(self) -> list[Path]:
        return list(self.settings.recent_files)

    def clear_recent(self) -> None:
        self.settings.clear_recent()

    # ------------------------------------------------------------------ autosave and recovery
    def _edited(self) -> None:
        if not self.alive():
            return
        if self.controller.dirty:
            self.autosave_timer.start()
        else:
            self.autosave_timer.stop()
            self.recovery.clear(self.controller.path)

    def start_autosave(self) -> bool:
        """Write the recovery copy in a worker (dumping 300 node reports took seconds); True when started. Not
        while a save or an open runs (it waits for the next round) or an autosave is still writing."""
        from gui import workers

        if self.controller is None or not self.controller.dirty:
            return False
        if self._is_waiting() or self.autosave_job is not None:
            self.autosave_timer.start()
            return False
        plan, source, store = self.controller.plan, self.controller.path, self.recovery
        generation = self.generation
        job = workers.Job(lambda _progress, _cancelled: store.write(plan, source))
        self.autosave_job = job

        def written(path: object) -> None:
            if generation != self.generation or not self.alive() or not self.controller.dirty:
                store.clear(source)  # saved, closed or replaced meanwhile: the copy would offer stale edits
                return
            self.autosaved.emit(path)

        def failed(message: str) -> None:
            if shiboken6.isValid(self):
                self.message.emit(translate("MainWindow", "Autosave failed: %1").replace("%1", message), 10_000)

        def finished() -> None:
            self.autosave_job = None

        job.succeeded.connect(written)
        job.failed.connect(failed)
        job.finished.connect(finished)
        job.start()
        return True

    def autosave_now(self) -> Path | None:
        """Autosave and wait for it; the recovery file written, None when there was nothing to write or it
        failed (the status bar says why)."""
        got: list[Path] = []
        self.autosaved.connect(got.append)
        try:
            if not self.start_autosave():
                return None
            self.wait_for_autosave()
        finally:
            self.autosaved.disconnect(got.append)
        return got[0] if got else None

    def wait_for_autosave(self) -> None:
        """Let an autosave in flight finish (the event loop runs meanwhile, clicks and keys wait) before the
        recovery copy is cleared or the document changes, so that no copy of an earlier state is left behind."""
        from PySide6.QtCore import QEventLoop

        flags = (QEventLoop.ProcessEventsFlag.ExcludeUserInputEvents
                 | QEventLoop.ProcessEventsFlag.WaitForMoreEvents)
        while self.autosave_job is not None:  # cleared by the job's finished signal, delivered in this loop
            QCoreApplication.processEvents(flags)

    def forget_recovery(self) -> None:
        self.autosave_timer.stop()
        self.wait_for_autosave()
        self.generation += 1
        self.recovery.clear(self.controller.path)

    def offer_recovery(self) -> bool:
        """At start: offer the newest autosaved copy that is newer than its file; True when restored."""
        from procurement.plan import PlanError

        pending = self.recovery.pending()
        if not pending:
            return False
        entry = pending[0]
        name = entry.source.name if entry.source else translate("MainWindow", "Untitled plan")
        if not dialogs.ask_restore_recovery(self._window, name, entry.saved_at.astimezone(), entry.source is None):
            self.recovery.discard(entry)
            return False
        try:
            plan = entry.load()
            if entry.source is not None and entry.source.is_file():
                self.controller.open(entry.source)
            else:
                self.controller.new()
        except (PlanError, OSError) as exc:
            dialogs.show_error(self._window, translate("MainWindow", "Cannot restore the autosaved copy"), str(exc))
            return False
        if entry.source is not None and not entry.source.is_file():
            self.controller.path = None
        self.controller.replace_plan(plan, lambda: translate("MainWindow", "Restore autosaved changes"))
        self.title_changed.emit()
        return True

    def close(self) -> None:
        """The window closes: no recovery copy is left of a document that was saved or discarded."""
        if self.controller is not None:
            self.forget_recovery()

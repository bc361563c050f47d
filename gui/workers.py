"""Long work off the GUI thread (probing, PDF rendering) with progress and cancel; and the pages' ask-functions."""

from __future__ import annotations

import contextlib
import gc
import sys
import threading
import traceback
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, ClassVar

from PySide6.QtCore import QCoreApplication, QEventLoop, QObject, QRunnable, QThreadPool, Signal
from PySide6.QtWidgets import QDialog, QFileDialog, QMessageBox, QWidget

Progress = Callable[[int, str], None]
"""progress(percent 0-100, what is being done now)."""
Cancelled = Callable[[], bool]
JobFn = Callable[[Progress, Cancelled], Any]


GIL_SWITCH_INTERVAL_S = 0.001
"""How long a worker may keep the GIL while the GUI thread asks for it (Python's default is 5 ms): each of Qt's
calls into a Python-created widget needs it, so a layout in the GUI thread during a render waited up to 5 ms
per row (export gaps 30-69 ms at 5 ms, 18-28 ms at 1 ms; docs/reliability.md)."""


def prepare_for_workers() -> None:
    """Once the window is up, before any job runs: let the GUI thread win the GIL back from workers quickly,
    and move the start-up heap (catalog, modules, widgets) out of the collector's way: a full collection
    triggered in a render walked all of it holding the GIL, pausing the window 66-90 ms. Objects made later are
    collected as usual; a second window only freezes what was made since (a short collection).

    At the app's start the collector rests until here (gui/launch.py): that heap is frozen as it is, without a
    full collection first (40-70 ms for the ~1,000 objects of garbage a start leaves), and the collector resumes."""
    sys.setswitchinterval(GIL_SWITCH_INTERVAL_S)
    if gc.isenabled():
        gc.collect()
    gc.freeze()
    gc.enable()


_NO_FULL_GC_LOCK = threading.Lock()
_NO_FULL_GC_USERS = 0
_SAVED_THRESHOLDS: tuple[int, int, int] | None = None


@contextlib.contextmanager
def no_full_collections() -> Iterator[None]:
    """No full (generation 2) garbage collection while a job runs in a worker: reportlab makes ~250 000
    tracked objects for a 508-row quote and each full collection walked them all holding the GIL, 120-155 ms
    with the window frozen (docs/reliability.md). The young generations are still collected; the render's
    objects are freed by reference counting when it returns; the thresholds come back after the last job."""
    global _NO_FULL_GC_USERS, _SAVED_THRESHOLDS
    with _NO_FULL_GC_LOCK:
        if _NO_FULL_GC_USERS == 0:
            _SAVED_THRESHOLDS = gc.get_threshold()
            gc.set_threshold(_SAVED_THRESHOLDS[0], _SAVED_THRESHOLDS[1], 1_000_000)
        _NO_FULL_GC_USERS += 1
    try:
        yield
    finally:
        with _NO_FULL_GC_LOCK:
            _NO_FULL_GC_USERS -= 1
            if _NO_FULL_GC_USERS == 0 and _SAVED_THRESHOLDS is not None:
                gc.set_threshold(*_SAVED_THRESHOLDS)


class JobCancelled(Exception):
    """Raised by a job function that noticed the cancel request (optional: returning also works)."""


class Job(QObject):
    """Runs ``fn(progress, cancelled)`` on the global thread pool.

    Signals arrive in the GUI thread (queued): ``progress(percent, text)``, then exactly one of
    ``succeeded(result)``, ``failed(message)`` or ``cancelled()``, then ``finished()``.
    Keep a reference to the Job while it runs; it keeps itself alive until it has finished.
    """

    progress = Signal(int, str)
    succeeded = Signal(object)
    failed = Signal(str)
    cancelled = Signal()
    finished = Signal()

    _live: ClassVar[set[Job]] = set()  # jobs in flight: the Python wrapper must outlive the worker's emits

    def __init__(self, fn: JobFn, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._fn = fn
        self._cancel = threading.Event()
        self._running = False
        self.finished.connect(self._on_finished)

    def start(self) -> None:
        if self._running:
            raise RuntimeError("job already running")
        self._running = True
        self._cancel.clear()
        Job._live.add(self)
        QThreadPool.globalInstance().start(_Runnable(self))

    def cancel(self) -> None:
        """Ask the job to stop; it reports ``cancelled`` when its function notices (or returns)."""
        self._cancel.set()

    def is_running(self) -> bool:
        return self._running

    def is_cancel_requested(self) -> bool:
        return self._cancel.is_set()

    def _on_finished(self) -> None:
        self._running = False
        Job._live.discard(self)

    # runs in the worker thread
    def _run(self) -> None:
        try:
            with no_full_collections():
                result = self._fn(self._report, self._cancel.is_set)
        except JobCancelled:
            self.cancelled.emit()
        except Exception as exc:  # a fault is shown to the user, never a traceback on stderr
            # OSError/ValueError from the core carry a message written for the user (file, line, field)
            if isinstance(exc, (OSError, ValueError)) and str(exc):
                self.failed.emit(str(exc))
            else:
                self.failed.emit("".join(traceback.format_exception_only(type(exc), exc)).strip())
        else:
            if self._cancel.is_set():
                self.cancelled.emit()
            else:
                self.succeeded.emit(result)
        self.finished.emit()

    def _report(self, percent: int, text: str = "") -> None:
        self.progress.emit(max(0, min(100, int(percent))), text)


class _Runnable(QRunnable):
    def __init__(self, job: Job) -> None:
        super().__init__()
        self._job = job
        self.setAutoDelete(True)

    def run(self) -> None:
        self._job._run()


def wait_for_jobs(timeout_ms: int = 30_000) -> bool:
    """Block until every pooled job has finished (used at exit and by tests)."""
    return QThreadPool.globalInstance().waitForDone(timeout_ms)


class _Outcome:
    """What a function run by :func:`run_waiting` gave: its value, or the exception it raised."""

    def __init__(self) -> None:
        self.value: Any = None
        self.error: BaseException | None = None


def run_waiting(fn: Callable[[Progress], Any], on_progress: Callable[[int, str], None] | None = None) -> Any:
    """Run ``fn(progress)`` in a worker and wait for it with the event loop running (the window repaints,
    timers fire, progress shows); returns its value or raises its exception here, with its type, so the caller
    handles a failed save or a refused file as if it had called ``fn`` itself. Clicks and keys wait until it
    is done (Qt keeps them, ExcludeUserInputEvents), so no other command starts in the middle of a save."""
    outcome = _Outcome()
    done = threading.Event()

    def work(progress: Progress, _cancelled: Cancelled) -> None:
        try:
            outcome.value = fn(progress)
        except BaseException as exc:  # handed to the waiting caller, raised again there
            outcome.error = exc
        finally:
            done.set()

    job = Job(work)
    loop = QEventLoop()
    if on_progress is not None:
        job.progress.connect(on_progress)
    job.finished.connect(loop.quit)  # queued from the worker: delivered once loop.exec() runs
    job.start()
    loop.exec(QEventLoop.ProcessEventsFlag.ExcludeUserInputEvents)
    # the application quitting (a logout) ends every event loop, this one too: the file is still being written,
    # and the caller must not go on as if it had been
    done.wait()
    if outcome.error is not None:
        raise outcome.error
    return outcome.value


# ---------------------------------------------------------------- ask-functions (tests replace these)
# gui/dialogs.py (owned by the main-window work) holds the app's other questions; these are the ones the
# step 3-5, checklist and quote pages ask. Pages call them as ``workers.ask_…`` so a monkeypatch takes.

translate = QCoreApplication.translate  # lupdate reads translate("Context", "text") calls



def ask_export_path(parent: QWidget | None, title: str, suggested: Path, name_filter: str) -> Path | None:
    """A file to write to (PDF, Dockerfile); None when the user cancels."""
    path, _ = QFileDialog.getSaveFileName(parent, title, str(suggested), name_filter)
    return Path(path) if path else None


def ask_open_paths(parent: QWidget | None, title: str, name_filter: str) -> list[Path]:
    """Several files to read (verification reports); empty when the user cancels."""
    paths, _ = QFileDialog.getOpenFileNames(parent, title, "", name_filter)
    return [Path(p) for p in paths]


def ask_directory(parent: QWidget | None, title: str) -> Path | None:
    """A folder (to save the probe into, to import reports from); None when the user cancels."""
    path = QFileDialog.getExistingDirectory(parent, title, "")
    return Path(path) if path else None


def show_error(parent: QWidget | None, title: str, text: str) -> None:
    QMessageBox.critical(parent, title, text)


def show_missing_glyphs(parent: QWidget | None, title: str, text: str) -> None:
    """The exported PDF shows some characters as code points because no font has them: say which."""
    QMessageBox.warning(parent, title, text)


def ask_yes_no(parent: QWidget | None, title: str, text: str) -> bool:
    """A yes/no question whose safe answer (No) is the default; True only when the user chose Yes."""
    buttons = QMessageBox.StandardButton
    answer = QMessageBox.warning(parent, title, text, buttons.Yes | buttons.No, buttons.No)
    return answer == buttons.Yes


def show_print_preview(parent: QWidget | None, pdf: bytes, title: str) -> None:
    """The print preview of ``pdf`` (the exact bytes that Export writes), with a Print button."""
    from gui.pages.quote_view import PrintPreviewDialog

    dialog = PrintPreviewDialog(pdf, title, parent)
    dialog.exec()
    dialog.deleteLater()


def ask_price_import(parent: QWidget | None, result: Any) -> Any:
    """The lines of an imported price file the buyer confirms (a PriceChoice); None when cancelled."""
    from gui.widgets.price_import import PriceImportDialog

    dialog = PriceImportDialog(result, parent)
    try:
        return dialog.choice() if dialog.exec() == QDialog.DialogCode.Accepted else None
    finally:
        dialog.deleteLater()


def ask_printer(parent: QWidget | None) -> Any:
    """A configured QPrinter from the system print dialog; None when the user cancels."""
    from PySide6.QtPrintSupport import QPrintDialog, QPrinter

    printer = QPrinter(QPrinter.PrinterMode.HighResolution)
    dialog = QPrintDialog(printer, parent)
    return printer if dialog.exec() == QPrintDialog.DialogCode.Accepted else None


def export_job(parent: QWidget, render: Callable[[], bytes], target: Path, lang: str,
               on_done: Callable[[str], None]) -> Job:
    """A job (not started yet: connect, then start()) that renders a PDF and writes it atomically;
    ``on_done(message)`` runs in the GUI thread. The window stays responsive while reportlab works; a write
    error reaches the user through show_error, and characters no font has (printed as [U+XXXX]) through
    show_missing_glyphs, naming them, as `gpu-procure export` does."""
    from procurement.reports import write_pdf
    from procurement.reports.text import collect_missing

    def work(progress: Progress, cancelled: Cancelled) -> tuple[Path, list[str]]:
        progress(10, "")
        with collect_missing() as missing:  # a context variable: this worker thread's own record
            data = render()
        if cancelled():
            raise JobCancelled
        progress(90, "")
        write_pdf(target, data, lang)
        return target, list(missing)

    job = Job(work)

    def succeeded(result: tuple[Path, list[str]]) -> None:
        path, missing = result
        saved = translate("workers", "Saved %1").replace("%1", str(path))
        if missing:
            from procurement.reports.text import describe_missing

            warning = translate("workers", "No available font has these characters; the PDF shows their code "
                                "points [U+…] instead: %1").replace("%1", describe_missing(missing))
            on_done(f"{saved} — {warning}")
            show_missing_glyphs(parent, translate("workers", "Export"), f"{saved}\n\n{warning}")
            return
        on_done(saved)

    job.succeeded.connect(succeeded)

    def failed(msg: str) -> None:
        show_error(parent, translate("workers", "Export"), msg)
        on_done(msg)

    job.failed.connect(failed)
    return job


def start_export(page: QWidget, title: str, suggested: Path, render: Callable[[], bytes], lang: str,
                 status: Any, button: Any, on_finished: Any) -> Job | None:
    """Ask where to save, then render and write the PDF in a worker; ``status`` (a QLabel) says how it
    went and ``button`` is disabled meanwhile; ``on_finished`` (a signal or slot) follows the job's end.
    None when the person cancels the file dialog."""
    target = ask_export_path(page, title, suggested, translate("workers", "PDF documents (*.pdf)"))
    if target is None:
        return None
    if target.suffix.lower() != ".pdf":
        target = target.with_name(target.name + ".pdf")
    status.setText(translate("workers", "Exporting…"))
    button.setEnabled(False)

    def done(message: str) -> None:
        status.setText(message)
        button.setEnabled(True)

    job = export_job(page, render, target, lang, done)
    job.finished.connect(on_finished)
    job.start()
    return job

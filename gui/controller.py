"""PlanController: the one QObject that owns the current Plan, its file, undo stack and findings."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

from catalog.loader import Catalog
from gui.i18n import Translators
from procurement.findings import Finding
from procurement.messages import Lang
from procurement.plan import Plan, blank_plan, get_value, load_plan, save_plan, with_value
from procurement.policy import Policy, default_policy
from procurement.safe_io import FileStamp, stamp_of

if TYPE_CHECKING:
    from procurement.evaluation import Evaluation


def _evaluate(plan: Plan, catalog: Catalog, policy: Policy, lang: Lang) -> Evaluation:
    # imported on first use: the rules and the evaluation are the heaviest part of the core, and the first
    # evaluation of a started window runs in a worker (PlanController.evaluate_in_background)
    from procurement.evaluation import evaluate

    return evaluate(plan, catalog, policy, lang)


class _Delivery(QObject):
    """Brings a worker's evaluation to the GUI thread (a signal emitted from another thread is queued)."""

    done = Signal(object, object)
    """(the evaluation or None, the exception or None)."""


class _ReplacePlan(QUndoCommand):
    """Undoable change: keeps the plan before and after (plans are small, snapshots keep undo exact)."""

    def __init__(
        self, ctl: PlanController, before: Plan, after: Plan, text: str | Callable[[], str], merge_key: str | None
    ) -> None:
        # a callable text is said again in the language of the moment (relabel()): the Edit menu showed a
        # Chinese field label in the English UI after switching
        self.describe = text if callable(text) else None
        super().__init__(text() if callable(text) else text)
        self._ctl, self._before, self._after, self._key = ctl, before, after, merge_key

    def redo(self) -> None:
        self._ctl._set_plan(self._after)

    def undo(self) -> None:
        self._ctl._set_plan(self._before)

    def id(self) -> int:
        return 1 if self._key else -1

    def mergeWith(self, other: QUndoCommand) -> bool:  # typing one number = one undo step
        if isinstance(other, _ReplacePlan) and other._key == self._key and self._key is not None:
            self._after = other._after
            return True
        return False


class PlanController(QObject):
    plan_changed = Signal()
    findings_changed = Signal()
    """New findings (after an evaluation), or the same ones to show in another language (repaint_findings)."""
    path_changed = Signal()
    error = Signal(str)
    """A user edit the plan rejected (the message names the field); the window shows it."""
    allowed_signers_changed = Signal()
    """The allowed-signers file SSH signatures are checked against was chosen or cleared (app settings)."""

    def __init__(self, catalog: Catalog, policy: Policy | None = None, lang: Lang | Translators = "zh",
                 parent: QObject | None = None, evaluate_now: bool = True) -> None:
        super().__init__(parent)
        self.catalog = catalog
        self.policy = policy or default_policy()
        self.language = lang if isinstance(lang, Translators) else Translators(lang)
        """The app's one owner of the current language (the window's, once attached)."""
        self.language.listen(self.repaint_findings)
        self.plan = blank_plan()  # Plan(), without building a validator per part (procurement/plan.py)
        self.path: Path | None = None
        self.stamp: FileStamp | None = None  # the file as opened or last saved here
        self.findings: list[Finding] = []
        self.evaluation: Evaluation | None = None
        """The latest evaluation (of ``evaluation.plan``, which trails ``plan`` until the next event-loop
        turn after an edit): budgets, findings, step status; findings_changed says it is new."""
        self.undo_stack = QUndoStack(self)
        self.label_of: Callable[[str], str | None] | None = None
        """The on-screen label of a plan field ("PSU count", "电源数量") for undo texts; set by the window."""
        self.allowed_signers: Path | None = None
        """The organisation's ssh-keygen allowed-signers file (an app setting, not part of the plan)."""
        self._eval_timer = QTimer(self)
        self._eval_timer.setSingleShot(True)
        self._eval_timer.setInterval(0)  # coalesce a burst of edits into one evaluation
        self._eval_timer.timeout.connect(self.reevaluate)
        self._generation = 0
        """Counts the evaluations asked for: a worker's result is applied only if none was asked since."""
        self.evaluating = not evaluate_now
        """True until the first evaluation is applied when it is not made at construction (evaluate_now=False:
        evaluate_in_background follows), and while it runs in a worker: no findings yet."""
        self._delivery: _Delivery | None = None
        self._worker: threading.Thread | None = None
        if evaluate_now:
            self.reevaluate()

    def set_allowed_signers(self, path: Path | None) -> None:
        if path != self.allowed_signers:
            self.allowed_signers = path
            self.allowed_signers_changed.emit()

    # -- reading
    def value(self, path: str) -> Any:
        return get_value(self.plan, path)

    @property
    def dirty(self) -> bool:
        return not self.undo_stack.isClean()

    # -- editing (every edit is undoable)
    def set_value(self, path: str, value: Any, text: str | None = None, merge: bool = False) -> None:
        """Set one field; raises procurement.plan.PlanError when the value is invalid."""
        if get_value(self.plan, path) == (value.model_dump(mode="json") if hasattr(value, "model_dump")
                                           else value):
            return
        after = with_value(self.plan, path, value)
        self.replace_plan(after, text or (lambda: self.field_label(path)), merge_key=path if merge else None)

    def field_label(self, path: str) -> str:
        """What the Edit menu calls an edit of ``path``: the field's label on screen (the window installs
        ``label_of``), else the path itself."""
        if self.label_of is not None:
            label = self.label_of(path)
            if label:
                return label
        return path

    def replace_plan(self, after: Plan, text: str | Callable[[], str], merge_key: str | None = None) -> None:
        """Make ``after`` the plan through the undo stack; ``text`` names the edit in the Edit menu (a callable
        is asked again when the language changes)."""
        if after == self.plan:
            return
        self.undo_stack.push(_ReplacePlan(self, self.plan, after, text, merge_key))

    def relabel(self) -> None:
        """Say every undo step that can be said again in the current language (after a language switch)."""
        for i in range(self.undo_stack.count()):
            command = self.undo_stack.command(i)
            describe = getattr(command, "describe", None)
            if command is not None and describe is not None:
                command.setText(describe())

    def _set_plan(self, plan: Plan) -> None:
        self.plan = plan
        self.plan_changed.emit()
        self._eval_timer.start()

    def reevaluate(self) -> None:
        # the findings store codes, and every view renders them in the language of the moment
        self._generation += 1
        self.evaluating = False
        self._apply(_evaluate(self.plan, self.catalog, self.policy, self.lang))

    def _apply(self, evaluation: Evaluation) -> None:
        self.evaluation = evaluation
        self.findings = list(evaluation.findings)
        self.findings_changed.emit()

    def evaluate_in_background(self) -> None:
        """Evaluate the plan in a worker thread (the started window: importing the rules and evaluating take
        longer than the window needs to be usable). ``evaluating`` is True and ``findings_changed`` fires now
        (the views say 'evaluating…'), and again when the result is applied; the window accepts input
        meanwhile. An edit made before it ends evaluates at once, as always, and the worker's result, of a plan
        that is no longer the current one, is dropped."""
        self._generation += 1
        generation, plan, lang = self._generation, self.plan, self.lang
        delivery = self._delivery = _Delivery(self)
        delivery.done.connect(lambda ev, exc: self._delivered(generation, plan, ev, exc))
        self.evaluating = True
        self.findings_changed.emit()

        def work() -> None:
            try:
                outcome: tuple[Evaluation | None, BaseException | None] = (
                    _evaluate(plan, self.catalog, self.policy, lang), None)
            except Exception as exc:  # handed to the GUI thread, which evaluates again there
                outcome = (None, exc)
            with contextlib.suppress(RuntimeError):  # the controller was deleted meanwhile: nobody to tell
                delivery.done.emit(*outcome)

        self._worker = threading.Thread(target=work, name="first-evaluation", daemon=True)
        self._worker.start()

    def wait_for_background(self, timeout_s: float = 30.0) -> None:
        """Let a worker's evaluation end (the app does this after its event loop, before it exits)."""
        if self._worker is not None:
            self._worker.join(timeout_s)

    def _delivered(self, generation: int, plan: Plan, evaluation: Evaluation | None,
                   error: BaseException | None) -> None:
        if generation != self._generation or plan is not self.plan:
            return  # an edit was evaluated since: this result is of a plan no longer on screen
        if evaluation is None:  # the worker failed: evaluate here, where a failure is reported as usual
            self.reevaluate()
            return
        self.evaluating = False
        self._apply(evaluation)

    def repaint_findings(self) -> None:
        """After a language switch: the same findings, shown again in the new language (no evaluation)."""
        self.findings_changed.emit()

    @property
    def lang(self) -> Lang:
        """The current language, as its one owner (``language``) holds it."""
        return self.language.lang

    def set_lang(self, lang: Lang) -> None:
        """Switch the app's language (widgets and findings): the owner tells every view showing findings to
        render them again (repaint_findings), without evaluating the plan."""
        self.language.install(lang)

    def use_language(self, language: Translators) -> None:
        """Follow ``language`` (the window's owner) from now on, in the language this controller was made for."""
        if language is self.language:
            return
        lang = self.lang
        self.language = language
        language.listen(self.repaint_findings)
        if language.lang != lang:
            language.install(lang)

    # -- documents
    def new(self, plan: Plan | None = None) -> None:
        self.undo_stack.clear()
        self.path = None
        self.stamp = None
        self._set_plan(plan or Plan())
        self.path_changed.emit()

    def open(self, path: Path) -> None:
        """Load a plan; raises procurement.plan.PlanError (file:line: field: reason) and changes nothing."""
        self.adopt(*self.read(path))

    def read(self, path: Path) -> tuple[Path, Plan, FileStamp | None]:
        """Read and check a plan file without touching the document (safe to run in a worker: the catalog
        and the plan are not changed by it); raises PlanError or OSError naming the file."""
        plan = load_plan(path, self.catalog, self.lang)
        stamp = stamp_of(path)  # what the file was when opened: a later save asks if someone else wrote it
        return Path(path), plan, stamp

    def adopt(self, path: Path, plan: Plan, stamp: FileStamp | None) -> None:
        """Make a plan read by :meth:`read` the document (GUI thread)."""
        self.undo_stack.clear()
        self.path = Path(path)
        self.stamp = stamp
        self._set_plan(plan)
        self.path_changed.emit()

    def save(self, path: Path | None = None, overwrite: bool = False) -> None:
        """Save with the safe writer, keeping NAME.bak of the previous file; raises OSError and then leaves
        the document dirty and unchanged: procurement.safe_io.FileChangedError when the file changed on disk
        since it was opened or saved here (``overwrite=True`` once the person said to)."""
        request = self.save_request(path, overwrite)
        self.saved(request, request.write())

    def save_request(self, path: Path | None = None, overwrite: bool = False) -> SaveRequest:
        """What a save of the document as it is now writes (GUI thread); :meth:`SaveRequest.write` may then
        run in a worker, and :meth:`saved` takes its result back in the GUI thread."""
        target = Path(path or self.path or "")
        if not str(target):
            raise ValueError("no file name")
        same = self.path is not None and _same_file(self.path, target)
        expect = self.stamp if same and not overwrite else None
        return SaveRequest(self.plan, target, expect, self.undo_stack.index())

    def saved(self, request: SaveRequest, stamp: FileStamp) -> None:
        """The file of ``request`` was written: it is the document's file now; the document is clean unless it
        was edited while the file was being written (those edits are not in the file)."""
        self.stamp = stamp
        self.path = request.target
        if self.plan is request.plan and self.undo_stack.index() == request.index:
            self.undo_stack.setClean()
        else:  # no earlier state matches the file now: dirty until the next save
            self.undo_stack.resetClean()
        self.path_changed.emit()


class SaveRequest:
    """A snapshot of the document to write: plans are immutable, so a worker can dump it while the person
    goes on editing."""

    def __init__(self, plan: Plan, target: Path, expect: FileStamp | None, index: int) -> None:
        self.plan, self.target, self.expect, self.index = plan, target, expect, index

    def write(self) -> FileStamp:
        """Serialise and write with the safe writer (NAME.bak kept); raises OSError naming the target."""
        return save_plan(self.plan, self.target, expect=self.expect, backup=True)


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.samefile(b)
    except OSError:
        return a.absolute() == b.absolute()

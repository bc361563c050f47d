"""MainWindow: the step list, the pages, Back/Next, the findings dock, menus, files, autosave and language."""

from __future__ import annotations

import importlib
from importlib import resources
from pathlib import Path

import shiboken6
from PySide6.QtCore import QEvent, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QActionGroup, QCloseEvent, QKeySequence
from PySide6.QtWidgets import (
    QDockWidget,
    QHBoxLayout,
    QListWidget,
    QListWidgetItem,
    QMainWindow,
    QPushButton,
    QStackedWidget,
    QStyle,
    QVBoxLayout,
    QWidget,
)

from gui import dialogs
from gui.autosave import RecoveryStore
from gui.controller import PlanController
from gui.findings_panel import FindingsPanel
from gui.i18n import Translators
from gui.pages import PAGES
from gui.pages.base import StepPage
from gui.settings import Settings
from procurement.findings import SEVERITY_ORDER, Finding, Severity
from procurement.messages import Lang
from procurement.plan import PLAN_SUFFIX, PlanError, load_plan

AUTOSAVE_MS = 3000
STATUS_ROLE = Qt.ItemDataRole.UserRole + 2


def examples_dir() -> Path:
    return Path(str(resources.files("resources") / "examples"))


class MainWindow(QMainWindow):
    """The application window. It owns no plan logic: it routes user actions to the controller and pages."""

    autosaved = Signal(object)  # Path of the recovery file

    def __init__(self, controller: PlanController, settings: Settings | None = None,
                 translators: Translators | None = None, recovery: RecoveryStore | None = None,
                 examples: Path | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        self.settings = settings or Settings()
        self.translators = translators or Translators()
        self.recovery = recovery or RecoveryStore()
        self.examples = examples or examples_dir()
        self.setObjectName("mainWindow")
        self.pages: list[StepPage] = []
        self.named_actions: dict[str, QAction] = {}

        self.step_list = QListWidget(self)
        self.step_list.setObjectName("stepList")
        self.step_list.setIconSize(QSize(18, 18))
        self.step_list.setSpacing(2)
        self.step_list.setMaximumWidth(200)
        self.step_list.setMinimumWidth(150)
        self.stack = QStackedWidget(self)
        for module_name, class_name in PAGES:
            cls = getattr(importlib.import_module(module_name), class_name)
            page: StepPage = cls(controller)
            page.setObjectName(class_name)
            self.pages.append(page)
            self.stack.addWidget(page)
            self.step_list.addItem(QListWidgetItem())
        self.back_button = QPushButton(self)
        self.next_button = QPushButton(self)
        self.back_button.setObjectName("backButton")
        self.next_button.setObjectName("nextButton")

        central = QWidget(self)
        right = QVBoxLayout()
        right.addWidget(self.stack, 1)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.back_button)
        buttons.addWidget(self.next_button)
        right.addLayout(buttons)
        layout = QHBoxLayout(central)
        layout.addWidget(self.step_list)
        layout.addLayout(right, 1)
        self.setCentralWidget(central)

        self.findings_panel = FindingsPanel(controller, self)
        self.findings_dock = QDockWidget(self)
        self.findings_dock.setObjectName("findingsDock")
        self.findings_dock.setWidget(self.findings_panel)
        self.findings_dock.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetMovable
                                       | QDockWidget.DockWidgetFeature.DockWidgetClosable)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.findings_dock)
        self.resizeDocks([self.findings_dock], [290], Qt.Orientation.Horizontal)

        self.autosave_timer = QTimer(self)
        self.autosave_timer.setSingleShot(True)
        self.autosave_timer.setInterval(AUTOSAVE_MS)

        self._build_actions()
        self._build_menus()
        self._connect_signals()
        self.setTabOrder(self.step_list, self.stack)
        self.setTabOrder(self.stack, self.back_button)
        self.setTabOrder(self.back_button, self.next_button)
        self.setTabOrder(self.next_button, self.findings_panel.tree)
        self.retranslate()
        for page in self.pages:
            page.apply_findings()
        self.step_list.setCurrentRow(0)
        self._update_step_marks()
        self._update_title()
        geometry = self.settings.geometry
        if geometry is None or not self.restoreGeometry(geometry):
            self.resize(1280, 800)
        state = self.settings.window_state
        if state is not None:
            self.restoreState(state)

    # ------------------------------------------------------------------ construction
    def _action(self, key: str, shortcut: QKeySequence | QKeySequence.StandardKey | str | None = None,
                slot: object = None, checkable: bool = False) -> QAction:
        act = QAction(self)
        act.setObjectName(f"action_{key}")
        if shortcut is not None:
            act.setShortcut(QKeySequence(shortcut))
        act.setCheckable(checkable)
        if slot is not None:
            act.triggered.connect(slot)
        self.named_actions[key] = act
        self.addAction(act)
        return act

    def _build_actions(self) -> None:
        sk = QKeySequence.StandardKey
        self._action("new", sk.New, self.new_blank)
        self._action("new_example", None, self.new_from_example)
        self._action("open", sk.Open, self.open_dialog)
        self._action("save", sk.Save, self.save)
        self._action("save_as", sk.SaveAs, self.save_as)
        self._action("export_quote", None, lambda: self._page_hook("QuotePage", "export_pdf"))
        self._action("export_checklist", None, lambda: self._page_hook("ChecklistPage", "export_pdf"))
        self._action("print", sk.Print, self.print_current)
        self._action("clear_recent", None, self._clear_recent)
        self._action("quit", sk.Quit, self.close)
        undo = self.controller.undo_stack.createUndoAction(self)
        undo.setShortcut(QKeySequence(sk.Undo))
        redo = self.controller.undo_stack.createRedoAction(self)
        redo.setShortcut(QKeySequence(sk.Redo))
        self.named_actions["undo"], self.named_actions["redo"] = undo, redo
        self._action("back", "Alt+Left", self.go_back)
        self._action("next", "Alt+Right", self.go_next)
        for i in range(len(self.pages)):
            self._action(f"page_{i + 1}", f"Ctrl+{i + 1}", lambda _=False, i=i: self.show_page(i))
        self._action("show_findings", "F8", self._show_findings)
        group = QActionGroup(self)
        for lang in ("zh", "en"):
            act = self._action(f"lang_{lang}", None, lambda _=False, lang=lang: self.set_language(lang),
                               checkable=True)
            group.addAction(act)
        self.named_actions["lang_zh"].setText("中文")
        self.named_actions["lang_en"].setText("English")
        self._action("about", None, self.about)

    def _build_menus(self) -> None:
        bar = self.menuBar()
        a = self.named_actions
        self.file_menu = bar.addMenu("")
        self.file_menu.addActions([a["new"], a["new_example"], a["open"]])
        self.recent_menu = self.file_menu.addMenu("")
        self.recent_menu.setObjectName("recentMenu")
        self.file_menu.addSeparator()
        self.file_menu.addActions([a["save"], a["save_as"]])
        self.file_menu.addSeparator()
        self.file_menu.addActions([a["export_quote"], a["export_checklist"], a["print"]])
        self.file_menu.addSeparator()
        self.file_menu.addAction(a["quit"])
        self.edit_menu = bar.addMenu("")
        self.edit_menu.addActions([a["undo"], a["redo"]])
        self.view_menu = bar.addMenu("")
        self.go_menu = self.view_menu.addMenu("")
        self.go_menu.addActions([a[f"page_{i + 1}"] for i in range(len(self.pages))])
        self.go_menu.addSeparator()
        self.go_menu.addActions([a["back"], a["next"]])
        self.view_menu.addAction(a["show_findings"])
        self.lang_menu = self.view_menu.addMenu("")
        self.lang_menu.addActions([a["lang_zh"], a["lang_en"]])
        self.help_menu = bar.addMenu("")
        self.help_menu.addAction(a["about"])
        self.recent_menu.aboutToShow.connect(self._fill_recent_menu)
        self._fill_recent_menu()

    def _connect_signals(self) -> None:
        ctl = self.controller
        self.step_list.currentRowChanged.connect(self.show_page)
        self.back_button.clicked.connect(self.go_back)
        self.next_button.clicked.connect(self.go_next)
        ctl.findings_changed.connect(self._update_step_marks)
        ctl.path_changed.connect(self._update_title)
        ctl.undo_stack.cleanChanged.connect(self._update_title)
        ctl.undo_stack.indexChanged.connect(self._edited)
        ctl.error.connect(lambda msg: self.statusBar().showMessage(msg, 10_000))
        self.findings_panel.finding_activated.connect(self.go_to_finding)
        self.autosave_timer.timeout.connect(self.autosave_now)

    # ------------------------------------------------------------------ text
    def retranslate(self) -> None:
        a = self.named_actions
        self.file_menu.setTitle(self.tr("&File"))
        self.edit_menu.setTitle(self.tr("&Edit"))
        self.view_menu.setTitle(self.tr("&View"))
        self.go_menu.setTitle(self.tr("&Go to"))
        self.lang_menu.setTitle(self.tr("&Language"))
        self.help_menu.setTitle(self.tr("&Help"))
        self.recent_menu.setTitle(self.tr("Open &Recent"))
        a["new"].setText(self.tr("&New blank plan"))
        a["new_example"].setText(self.tr("New from &example…"))
        a["open"].setText(self.tr("&Open…"))
        a["save"].setText(self.tr("&Save"))
        a["save_as"].setText(self.tr("Save &As…"))
        a["export_quote"].setText(self.tr("Export &quote (PDF)…"))
        a["export_checklist"].setText(self.tr("Export &checklist (PDF)…"))
        a["print"].setText(self.tr("&Print…"))
        a["clear_recent"].setText(self.tr("Clear recent files"))
        a["quit"].setText(self.tr("&Quit"))
        a["undo"].setText(self.tr("&Undo"))
        a["redo"].setText(self.tr("&Redo"))
        a["back"].setText(self.tr("&Back"))
        a["next"].setText(self.tr("&Next"))
        a["show_findings"].setText(self.tr("Show &findings"))
        a["about"].setText(self.tr("&About gpu-procure"))
        for i in range(len(self.pages)):
            a[f"page_{i + 1}"].setText(self.page_label(i))
        self.back_button.setText(self.tr("◀ Back"))
        self.next_button.setText(self.tr("Next ▶"))
        self.back_button.setToolTip(self.tr("Previous step (Alt+Left)"))
        self.next_button.setToolTip(self.tr("Next step (Alt+Right)"))
        self.findings_dock.setWindowTitle(self.tr("Findings"))
        self.named_actions[f"lang_{self.translators.lang}"].setChecked(True)
        self._update_step_marks()
        self._update_title()
        self._fill_recent_menu()

    def page_label(self, index: int) -> str:
        page = self.pages[index]
        return f"{page.step}  {page.title()}" if page.step else page.title()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def set_language(self, lang: Lang) -> None:
        """Switch the UI and the findings to ``lang`` now and remember it."""
        self.controller.set_lang(lang)  # first: the pages then refresh with core text in the new language
        self.translators.install(lang)
        self.settings.language = lang
        self.named_actions[f"lang_{lang}"].setChecked(True)

    def about(self) -> None:
        dialogs.show_about(self, self.tr("About gpu-procure"), self.tr(
            "gpu-procure plans, checks, quotes and verifies GPU server purchases in five steps: requirements, "
            "GPU selection, server configuration, image selection and verification."))

    # ------------------------------------------------------------------ navigation
    def current_index(self) -> int:
        return self.stack.currentIndex()

    def show_page(self, index: int) -> None:
        if not 0 <= index < len(self.pages):
            return
        self.stack.setCurrentIndex(index)
        if self.step_list.currentRow() != index:
            self.step_list.setCurrentRow(index)
        self.back_button.setEnabled(index > 0)
        self.next_button.setEnabled(index < len(self.pages) - 1)

    def go_back(self) -> None:
        self.show_page(self.current_index() - 1)

    def go_next(self) -> None:
        self.show_page(self.current_index() + 1)

    def page(self, class_name: str) -> StepPage | None:
        return next((p for p in self.pages if type(p).__name__ == class_name), None)

    def go_to_finding(self, finding: Finding) -> None:
        """Show the finding's step and put the cursor into the first field it names."""
        target = next((i for i, p in enumerate(self.pages) if p.step == finding.step), None)
        if target is None:
            return
        self.show_page(target)
        for path in finding.fields:
            if self.pages[target].focus_field(path):
                return

    def _show_findings(self) -> None:
        self.findings_dock.show()
        self.findings_dock.raise_()
        self.findings_panel.tree.setFocus()

    def _update_step_marks(self) -> None:
        worst: dict[int, Severity] = {}
        counts: dict[int, int] = {}
        for f in self.controller.findings:
            counts[f.step] = counts.get(f.step, 0) + 1
            if f.step not in worst or SEVERITY_ORDER[f.severity] < SEVERITY_ORDER[worst[f.step]]:
                worst[f.step] = f.severity
        style = self.style()
        icons = {Severity.ERROR: QStyle.StandardPixmap.SP_MessageBoxCritical,
                 Severity.WARNING: QStyle.StandardPixmap.SP_MessageBoxWarning,
                 Severity.INFO: QStyle.StandardPixmap.SP_MessageBoxInformation}
        for i, page in enumerate(self.pages):
            item = self.step_list.item(i)
            item.setText(self.page_label(i))
            if not page.step:
                item.setData(STATUS_ROLE, "")
                item.setToolTip("")
                item.setIcon(style.standardIcon(QStyle.StandardPixmap.SP_FileDialogDetailedView))
                continue
            sev = worst.get(page.step)
            status = sev.value if sev else "ok"
            item.setData(STATUS_ROLE, status)
            item.setIcon(style.standardIcon(icons[sev] if sev else QStyle.StandardPixmap.SP_DialogApplyButton))
            item.setToolTip(self.tr("%n finding(s) on this step", "", counts.get(page.step, 0)) if sev
                            else self.tr("No findings on this step"))

    def step_status(self, index: int) -> str | None:
        """'ok', 'info', 'warning' or 'error' for the page at ``index`` (None for checklist and quote)."""
        value = self.step_list.item(index).data(STATUS_ROLE)
        return value if isinstance(value, str) and value else None

    # ------------------------------------------------------------------ hooks for export and print
    def _page_hook(self, class_name: str, method: str) -> bool:
        page = self.page(class_name)
        if page is None:
            return False
        self.show_page(self.pages.index(page))
        hook = getattr(page, method, None)
        if hook is None:
            self.statusBar().showMessage(self.tr("Not available yet."), 5000)
            return False
        hook()
        return True

    def print_current(self) -> bool:
        """Print the current page's document if it has one (print_document), else the quote."""
        current = self.pages[self.current_index()]
        if hasattr(current, "print_document"):
            current.print_document()
            return True
        return self._page_hook("QuotePage", "print_document")

    # ------------------------------------------------------------------ title and files
    def document_name(self) -> str:
        path = self.controller.path
        return path.name if path else self.tr("Untitled plan")

    def _stack_alive(self) -> bool:
        # QUndoStack's destructor emits cleanChanged/indexChanged after its Python wrapper is gone.
        return shiboken6.isValid(self.controller.undo_stack) and shiboken6.isValid(self)

    def _update_title(self) -> None:
        if not self._stack_alive():
            return
        self.setWindowTitle(f"{self.document_name()}[*] — gpu-procure")
        self.setWindowModified(self.controller.dirty)

    def maybe_save(self) -> bool:
        """True when it is fine to drop the current document (saved, discarded or unchanged)."""
        if not self.controller.dirty:
            return True
        answer = dialogs.ask_save_changes(self, self.document_name())
        if answer == "save":
            return self.save()
        return answer == "discard"

    def _start_document(self) -> None:
        self.recovery.clear(None)
        self.show_page(0)

    def new_blank(self) -> bool:
        if not self.maybe_save():
            return False
        self._forget_recovery()
        self.controller.new()
        self._start_document()
        return True

    def example_plans(self) -> list[tuple[str, Path]]:
        if not self.examples.is_dir():
            return []
        out: list[tuple[str, Path]] = []
        for path in sorted(self.examples.glob("*.yaml")):
            try:
                title = load_plan(path).title or path.stem
            except PlanError:
                continue
            out.append((title, path))
        return out

    def new_from_example(self) -> bool:
        path = dialogs.ask_example(self, self.example_plans())
        if path is None or not self.maybe_save():
            return False
        try:
            plan = load_plan(path, self.controller.catalog)
        except PlanError as exc:
            dialogs.show_error(self, self.tr("Cannot open the example"), str(exc))
            return False
        self._forget_recovery()
        self.controller.new(plan)
        self._start_document()
        return True

    def open_dialog(self) -> bool:
        if not self.maybe_save():
            return False
        path = dialogs.ask_open_path(self, self.settings.last_dir)
        return self.open_path(path, ask=False) if path else False

    def open_path(self, path: Path, ask: bool = True) -> bool:
        """Open a plan file; errors (missing file, bad YAML, unknown parts) are shown, nothing changes."""
        if ask and not self.maybe_save():
            return False
        try:
            self.controller_open(Path(path))
        except (PlanError, OSError) as exc:
            if not Path(path).exists():
                self.settings.remove_recent(Path(path))
            dialogs.show_error(self, self.tr("Cannot open the plan"), str(exc))
            return False
        return True

    def controller_open(self, path: Path) -> None:
        old = self.controller.path
        self.controller.open(path)
        self.recovery.clear(old)
        self.settings.add_recent(path)
        self.settings.last_dir = path.resolve().parent
        self._start_document()

    def save(self) -> bool:
        if self.controller.path is None:
            return self.save_as()
        return self._save_to(self.controller.path)

    def save_as(self) -> bool:
        suggested = self.controller.path or (self.settings.last_dir or Path.home()) / f"plan{PLAN_SUFFIX}"
        path = dialogs.ask_save_path(self, suggested)
        return self._save_to(path) if path else False

    def _save_to(self, path: Path) -> bool:
        old = self.controller.path
        try:
            self.controller.save(path)
        except (OSError, ValueError) as exc:
            dialogs.show_error(self, self.tr("Cannot save the plan"), str(exc))
            return False
        self.autosave_timer.stop()
        self.recovery.clear(old)
        self.recovery.clear(None)
        self.recovery.clear(path)
        self.settings.add_recent(path)
        self.settings.last_dir = path.resolve().parent
        self.statusBar().showMessage(self.tr("Saved %1").replace("%1", str(path)), 5000)
        return True

    def _fill_recent_menu(self) -> None:
        self.recent_menu.clear()
        files = self.settings.recent_files
        for i, path in enumerate(files):
            act = self.recent_menu.addAction(f"&{i + 1} {path.name}")
            act.setToolTip(str(path))
            act.setData(str(path))
            act.triggered.connect(lambda _=False, p=path: self.open_path(p))
        if files:
            self.recent_menu.addSeparator()
        self.recent_menu.addAction(self.named_actions["clear_recent"])
        self.named_actions["clear_recent"].setEnabled(bool(files))

    def _clear_recent(self) -> None:
        self.settings.clear_recent()
        self._fill_recent_menu()

    # ------------------------------------------------------------------ autosave and recovery
    def _edited(self) -> None:
        if not self._stack_alive():
            return
        if self.controller.dirty:
            self.autosave_timer.start()
        else:
            self.autosave_timer.stop()
            self.recovery.clear(self.controller.path)

    def autosave_now(self) -> Path | None:
        if not self.controller.dirty:
            return None
        try:
            written = self.recovery.write(self.controller.plan, self.controller.path)
        except OSError as exc:
            self.statusBar().showMessage(self.tr("Autosave failed: %1").replace("%1", str(exc)), 10_000)
            return None
        self.autosaved.emit(written)
        return written

    def _forget_recovery(self) -> None:
        self.autosave_timer.stop()
        self.recovery.clear(self.controller.path)

    def offer_recovery(self) -> bool:
        """At start: offer the newest autosaved copy that is newer than its file; True when restored."""
        pending = self.recovery.pending()
        if not pending:
            return False
        entry = pending[0]
        name = entry.source.name if entry.source else self.tr("Untitled plan")
        if not dialogs.ask_restore_recovery(self, name, entry.saved_at.astimezone()):
            self.recovery.discard(entry)
            return False
        try:
            plan = entry.load()
            if entry.source is not None and entry.source.is_file():
                self.controller.open(entry.source)
            else:
                self.controller.new()
        except (PlanError, OSError) as exc:
            dialogs.show_error(self, self.tr("Cannot restore the autosaved copy"), str(exc))
            return False
        if entry.source is not None and not entry.source.is_file():
            self.controller.path = None
        self.controller.replace_plan(plan, self.tr("Restore autosaved changes"))
        self._update_title()
        return True

    # ------------------------------------------------------------------ closing
    def closeEvent(self, event: QCloseEvent) -> None:
        if not self.maybe_save():
            event.ignore()
            return
        self._forget_recovery()
        self.settings.geometry = self.saveGeometry()
        self.settings.window_state = self.saveState()
        self.settings.sync()
        event.accept()

"""MainWindow: the step list, the pages, Back/Next, the findings dock, menus and language; files go to its Document.

It starts in two stages so that it is on screen at once: the frame (menus, step list, an empty findings
dock, a "loading" page) needs only Qt; ``attach(controller)`` — called right after the first paint by
gui/app.py, or at once when a controller is passed to the constructor — adds the plan, the findings and the
pages. Each page is imported and built the first time it is shown. Open, save, autosave, recovery and recent
files are the document's (gui/document.py); the window's File menu and the methods of the same names delegate.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar, overload

from PySide6.QtCore import QEvent, QEventLoop, QLocale, QSize, QTimer, Signal
from PySide6.QtGui import QAction, QActionGroup, QCloseEvent, QGuiApplication, QIcon, QKeySequence, QPaintEvent
from PySide6.QtWidgets import (
    QApplication,
    QDockWidget,
    QFrame,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMainWindow,
    QMenu,
    QMenuBar,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from gui import dialogs, pyside_hook  # noqa: F401  (pyside_hook: quicker imports from here on)
from gui.document import Document, examples_dir
from gui.i18n import Translators
from gui.pages import PAGES, page_title
from gui.safe_events import reported
from gui.settings import Settings
from procurement.messages import Lang, language_name
from procurement.terminal import clean_text

if TYPE_CHECKING:
    from gui.autosave import RecoveryStore
    from gui.controller import PlanController
    from gui.findings_panel import FindingsPanel
    from gui.pages.base import StepPage
    from procurement.findings import Finding

_T = TypeVar("_T")
__all__ = ["MainWindow", "PageList", "examples_dir", "field_owner"]  # examples_dir: gui/screenshots.py
# Qt.ItemDataRole.UserRole + 2, as a number: importing the Qt namespace makes PySide6 build all its ~130
# enums (~15 ms), which the window's frame does not need; attach() imports it, after the first paint.
STATUS_ROLE = 0x0100 + 2


# which page edits a plan field, by the field path's first part (see procurement/plan.py's Plan)
FIELD_OWNERS = {"requirements": "RequirementsPage", "gpu": "GpuPage", "server": "ServerPage",
                "software": "ImagePage", "verification": "VerifyPage", "checklist": "ChecklistPage",
                "signoffs": "ChecklistPage", "quote": "QuotePage"}


def field_owner(path: str) -> int | None:
    """Index of the page that edits ``path`` ('gpu.count' → the GPU page), None when no page does."""
    head = path.split(".", 1)[0].split("[", 1)[0]
    cls = FIELD_OWNERS.get(head)
    return next((i for i, info in enumerate(PAGES) if info.cls == cls), None)


class PageList(Sequence["StepPage"]):
    """The window's pages by index; reading one builds it if needed and brings it up to date."""

    def __init__(self, window: MainWindow) -> None:
        self._window = window

    def __len__(self) -> int:
        return len(PAGES)

    @overload
    def __getitem__(self, index: int) -> StepPage: ...
    @overload
    def __getitem__(self, index: slice) -> list[StepPage]: ...

    def __getitem__(self, index: int | slice) -> StepPage | list[StepPage]:
        if isinstance(index, slice):
            return [self[i] for i in range(len(PAGES))[index]]
        if not -len(PAGES) <= index < len(PAGES):
            raise IndexError(index)
        page = self._window.page_at(index % len(PAGES))
        page.ensure_fresh()
        return page

    def index(self, value: object, start: int = 0, stop: int | None = None) -> int:
        for i, page in enumerate(self._window.built_pages()[start:stop], start):
            if page is value:
                return i
        raise ValueError("not a page of this window")

    def __iter__(self) -> Iterator[StepPage]:
        return (self[i] for i in range(len(PAGES)))


class PageStack(QStackedWidget):
    """The pages, sized by the one on screen and never by a height for the width: a QStackedWidget answers for
    every page, and a scroll area takes a widget's height for its width as the least height it may have, so the
    window's scroll area gave step 3 (757 px wanted for its wrapped texts, 545 px needed) a scroll bar at 1280×800
    although the page scrolls its own form."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.currentChanged.connect(lambda _i: self.updateGeometry())

    def sizeHint(self) -> QSize:  # Qt override
        page = self.currentWidget()
        return page.sizeHint() if page is not None else super().sizeHint()

    def minimumSizeHint(self) -> QSize:  # Qt override
        page = self.currentWidget()
        return page.minimumSizeHint() if page is not None else super().minimumSizeHint()

    def hasHeightForWidth(self) -> bool:  # Qt override
        return False

    def heightForWidth(self, width: int) -> int:  # Qt override
        return -1


class MainWindow(QMainWindow):
    """The application window. It owns no plan logic: it routes user actions to the controller and pages."""

    autosaved = Signal(object)  # Path of the recovery file
    ready = Signal()
    """attach() has finished: the plan, the findings and the first page are there."""

    def __init__(self, controller: PlanController | None = None, settings: Settings | None = None,
                 translators: Translators | None = None, recovery: RecoveryStore | None = None,
                 examples: Path | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.controller: PlanController = None  # type: ignore[assignment]  # set by attach()
        self.settings = settings or Settings()
        self.translators = translators or Translators()
        self.setObjectName("mainWindow")
        self._pages: list[StepPage | None] = [None] * len(PAGES)
        self._tab_page: list[QWidget] = []
        self.named_actions: dict[str, QAction] = {}
        self._shortcuts: dict[str, QKeySequence | QKeySequence.StandardKey | str] = {}
        self._after_paint: list[Callable[[], None]] = []
        self.policy_path: Path | None = None
        """The --policy file in force (None: the shipped policy), for Help ▸ Catalog and policy."""
        self.help_window: QWidget | None = None

        self.step_list = QListWidget(self)
        self.step_list.setObjectName("stepList")
        self.step_list.setIconSize(QSize(18, 18))
        self.step_list.setSpacing(2)
        self.step_list.setMaximumWidth(200)
        self.step_list.setMinimumWidth(150)
        self.stack = PageStack(self)
        self.loading_label: QLabel | None = QLabel(self)
        self.loading_page: QWidget | None = QWidget(self)
        centred = QHBoxLayout()
        centred.addStretch(1)
        centred.addWidget(self.loading_label)
        centred.addStretch(1)
        loading_layout = QVBoxLayout(self.loading_page)
        loading_layout.addStretch(1)
        loading_layout.addLayout(centred)
        loading_layout.addStretch(2)
        for _info in PAGES:  # a placeholder per page until the page is first shown
            self.stack.addWidget(QWidget(self.stack))
            self.step_list.addItem(QListWidgetItem())
        self.stack.insertWidget(0, self.loading_page)  # shown until attach(); then removed
        self.stack.setCurrentWidget(self.loading_page)
        self.back_button = QPushButton(self)
        self.next_button = QPushButton(self)
        self.back_button.setObjectName("backButton")
        self.next_button.setObjectName("nextButton")

        central = QWidget(self)
        right = QVBoxLayout()
        # the pages scroll inside the window where it is smaller than a page wants: the GPU table or the quote
        # made the window at least 1,096 px wide, wider than a 1024×768 screen (the stack keeps its pages as
        # children, so a page still knows when it is the current one)
        self.page_scroll = QScrollArea(self)
        self.page_scroll.setObjectName("pageScroll")
        self.page_scroll.setWidgetResizable(True)
        self.page_scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.page_scroll.setWidget(self.stack)
        right.addWidget(self.page_scroll, 1)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.back_button)
        buttons.addWidget(self.next_button)
        right.addLayout(buttons)
        layout = QHBoxLayout(central)
        layout.addWidget(self.step_list)
        layout.addLayout(right, 1)
        self.setCentralWidget(central)
        # the status bar exists from the start: created by the first "Saved …" message it pushed the
        # Back/Next buttons up under the cursor
        self.statusBar().setSizeGripEnabled(True)

        self.findings_panel: FindingsPanel | None = None
        self.findings_dock = QDockWidget(self)  # docked by attach(), when there are findings to show
        self.findings_dock.setObjectName("findingsDock")
        self.findings_dock.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetMovable
                                       | QDockWidget.DockWidgetFeature.DockWidgetClosable)
        self.findings_dock.hide()

        self.document = Document(self, self.settings, self.wait_for, self.is_waiting, examples)
        """The open plan's file: open, save, autosave, recovery, recent files (the File menu's actions)."""
        self.document.autosaved.connect(self.autosaved)
        self.document.started.connect(lambda: self.show_page(0))
        self.document.title_changed.connect(self._update_title)
        self.document.message.connect(lambda text, ms: self.statusBar().showMessage(text, ms))
        self._waiting = 0  # > 0 while the window waits for a save or an open in a worker
        self._close_when_done = False
        self.busy_label = QLabel(self)
        self.busy_label.setObjectName("busyLabel")
        self.busy_bar = QProgressBar(self)
        self.busy_bar.setObjectName("busyBar")
        self.busy_bar.setRange(0, 0)  # busy: a save's progress is not measurable in steps
        self.busy_bar.setMaximumWidth(120)
        self.busy_bar.setTextVisible(False)
        self.statusBar().addPermanentWidget(self.busy_label)
        self.statusBar().addPermanentWidget(self.busy_bar)
        self.busy_label.hide()
        self.busy_bar.hide()

        self._build_actions()
        self._build_menus()
        self.step_list.currentRowChanged.connect(self.show_page)
        self.back_button.clicked.connect(self.go_back)
        self.next_button.clicked.connect(self.go_next)
        self.setTabOrder(self.step_list, self.stack)
        self.setTabOrder(self.stack, self.back_button)
        self.setTabOrder(self.back_button, self.next_button)
        self.retranslate()
        self._set_plan_actions_enabled(False)
        geometry = self.settings.geometry
        if geometry is None or not self.restoreGeometry(geometry):
            self.resize(1280, 800)
        if controller is not None:
            self.attach(controller, recovery)

    def attach(self, controller: PlanController, recovery: RecoveryStore | None = None) -> None:
        """Give the window its plan: the findings panel, undo/redo, the step marks and the first page."""
        from gui.findings_panel import FindingsPanel

        self.controller = controller
        self.document.attach(controller, recovery)  # its path, recovery copy and autosave from here on
        controller.use_language(self.translators)  # one owner of the language: the window's
        controller.label_of = self.field_label
        from PySide6.QtCore import Qt  # here, after the first paint: the Qt namespace builds ~100 enums (~15 ms)

        self.page_scroll.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # Tab goes from field to field (pages from now)
        for key, shortcut in self._shortcuts.items():
            self.named_actions[key].setShortcut(QKeySequence(shortcut))
        self.findings_panel = FindingsPanel(controller, self)
        self.findings_dock.setWidget(self.findings_panel)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.findings_dock)
        self.findings_dock.show()
        self.resizeDocks([self.findings_dock], [290], Qt.Orientation.Horizontal)
        state = self.settings.window_state
        if state is not None:
            self.restoreState(state)
        sk = QKeySequence.StandardKey
        # our own actions, not the stack's createUndoAction(): that one fixes "Undo %1" in the language of
        # the moment it is made, so after a switch to Chinese the menu still said "Undo 电源数量"
        stack = controller.undo_stack
        undo, redo = QAction(self), QAction(self)
        undo.setShortcuts(sk.Undo)  # every binding of the platform (Ctrl+Z; Ctrl+Y and Ctrl+Shift+Z for Redo)
        # Ctrl+Y too, whatever the platform says: it is what WPS and Office users press (Linux themes give
        # only Ctrl+Shift+Z)
        redo_keys = QKeySequence.keyBindings(sk.Redo)
        if QKeySequence("Ctrl+Y") not in redo_keys:
            redo_keys.append(QKeySequence("Ctrl+Y"))
        redo.setShortcuts(redo_keys)
        undo.triggered.connect(stack.undo)
        redo.triggered.connect(stack.redo)
        undo.setEnabled(stack.canUndo())
        redo.setEnabled(stack.canRedo())
        stack.canUndoChanged.connect(undo.setEnabled)
        stack.canRedoChanged.connect(redo.setEnabled)
        stack.undoTextChanged.connect(lambda _text: self._update_undo_texts())
        stack.redoTextChanged.connect(lambda _text: self._update_undo_texts())
        for key, act in (("undo", undo), ("redo", redo)):
            placeholder = self.named_actions[key]
            act.setObjectName(f"action_{key}")
            self.edit_menu.insertAction(placeholder, act)
            self.edit_menu.removeAction(placeholder)
            self.removeAction(placeholder)
            placeholder.deleteLater()
            self.addAction(act)
            self.named_actions[key] = act
        self._update_undo_texts()
        ctl = controller
        ctl.findings_changed.connect(self._update_step_marks)
        ctl.path_changed.connect(self._update_title)
        ctl.undo_stack.cleanChanged.connect(self._update_title)
        ctl.plan_changed.connect(self._update_title)  # the plan's title is in the window title
        ctl.error.connect(lambda msg: self.statusBar().showMessage(msg, 10_000))
        ctl.set_allowed_signers(self.settings.allowed_signers)  # SSH signatures are checked against it
        ctl.allowed_signers_changed.connect(self._remember_allowed_signers)
        self.findings_panel.finding_activated.connect(self.go_to_finding)
        self.setTabOrder(self.next_button, self.findings_panel.tree)
        self._set_plan_actions_enabled(True)
        current = max(self.step_list.currentRow(), 0)
        if self.loading_page is not None:
            self.stack.removeWidget(self.loading_page)
            self.loading_page.deleteLater()
            self.loading_page = self.loading_label = None
        self.stack.setCurrentIndex(current)
        self.show_page(current)
        self.step_list.setCurrentRow(current)
        self._update_step_marks()
        self._update_title()
        from gui import workers  # after the first paint: the frame needs no worker machinery

        workers.prepare_for_workers()
        self.ready.emit()

    def _remember_allowed_signers(self) -> None:
        if self.controller is not None:
            self.settings.allowed_signers = self.controller.allowed_signers

    def show_catalog_warnings(self, lines: list[str]) -> None:
        """Implausible numbers in a user catalog (catalog/plausible.py): it loaded, but the person should look. The
        status bar says how many and the first; its tooltip lists them all."""
        if not lines:
            return
        text = self.tr("Implausible values in the user catalog (%n); check them: %1", "", len(lines))
        self.statusBar().showMessage(text.replace("%1", lines[0]), 60_000)
        self.statusBar().setToolTip("\n".join(lines))

    def is_attached(self) -> bool:
        return self.controller is not None

    def after_first_paint(self, callback: Callable[[], None]) -> None:
        """Run ``callback`` from the event loop once the window has been painted for the first time (or after
        a second at the latest, should the window never be painted, e.g. started minimised)."""
        self._after_paint.append(callback)
        QTimer.singleShot(1000, self._run_after_paint)

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        if self._after_paint:
            QTimer.singleShot(0, self._run_after_paint)

    def _run_after_paint(self) -> None:
        while self._after_paint:
            self._after_paint.pop(0)()

    # ------------------------------------------------------------------ pages
    @property
    def pages(self) -> PageList:
        return PageList(self)

    def built_pages(self) -> list[StepPage | None]:
        return list(self._pages)

    def page_at(self, index: int) -> StepPage:
        """The page at ``index``, imported and built now if this is its first use."""
        page = self._pages[index]
        if page is not None:
            return page
        if self.controller is None:
            raise RuntimeError("the window has no plan yet (attach() not called)")
        info = PAGES[index]
        cls = getattr(importlib.import_module(info.module), info.cls)
        page = cls(self.controller)
        page.setObjectName(info.cls)
        placeholder = self.stack.widget(index)
        assert placeholder is not None
        was_current = self.stack.currentWidget() is placeholder
        self.stack.insertWidget(index, page)
        if was_current:
            self.stack.setCurrentWidget(page)
        self.stack.removeWidget(placeholder)
        placeholder.deleteLater()
        self._pages[index] = page
        page.apply_findings()
        return page

    # ------------------------------------------------------------------ construction
    def _action(self, key: str, shortcut: QKeySequence | QKeySequence.StandardKey | str | None = None,
                slot: object = None, checkable: bool = False) -> QAction:
        act = QAction(self)
        act.setObjectName(f"action_{key}")
        if shortcut is not None:  # set by attach(): building a QKeySequence loads the Qt namespace's enums
            self._shortcuts[key] = shortcut
        act.setCheckable(checkable)
        if slot is not None:
            act.triggered.connect(slot)
        self.named_actions[key] = act
        self.addAction(act)
        return act

    def _build_actions(self) -> None:
        sk = QKeySequence.StandardKey
        doc = self.document
        self._action("new", sk.New, doc.new_blank)
        self._action("new_example", None, doc.new_from_example)
        self._action("open", sk.Open, doc.open_dialog)
        self._action("save", sk.Save, doc.save)
        self._action("save_as", sk.SaveAs, doc.save_as)
        self._action("export_quote", None, lambda: self._page_hook("QuotePage", "export_pdf"))
        self._action("export_checklist", None, lambda: self._page_hook("ChecklistPage", "export_pdf"))
        self._action("export_acceptance", None, lambda: self._page_hook("ChecklistPage", "export_acceptance"))
        self._action("print", sk.Print, self.print_current)
        self._action("clear_recent", None, self._clear_recent)
        self._action("quit", sk.Quit, self.close)
        self._action("undo")  # placeholders: attach() puts the undo stack's own actions in their place
        self._action("redo")
        self._action("back", "Alt+Left", self.go_back)
        self._action("next", "Alt+Right", self.go_next)
        for i in range(len(PAGES)):
            self._action(f"page_{i + 1}", f"Ctrl+{i + 1}", lambda _=False, i=i: self.show_page(i))
        self._action("show_findings", "F8", self._show_findings)
        group = QActionGroup(self)
        # every language with a catalogue, each named in itself: a new language needs no code here
        for lang in self.translators.available():
            act = self._action(f"lang_{lang}", None, lambda _=False, lang=lang: self.set_language(lang),
                               checkable=True)
            act.setText(language_name(lang))
            group.addAction(act)
        self._action("help_guide", sk.HelpContents, lambda: self.show_help("guide"))
        self._action("help_shortcuts", None, lambda: self.show_help("shortcuts"))
        self._action("help_catalog", None, lambda: self.show_help("catalog"))
        self._action("about", None, self.about)
        self._action("copy_diagnostics", None, self.copy_diagnostics)

    def _add_menu(self, into: QMenuBar | QMenu) -> QMenu:
        """A menu made here and handed to ``into``: a QMenu that addMenu("") made on the C++ side had its
        wrapper invalidated by PySide while Qt still showed it (retranslate then raised "Internal C++ object
        (QMenu) already deleted" inside a language switch, which crashed the app)."""
        menu = QMenu(self)
        into.addMenu(menu)
        return menu

    def _build_menus(self) -> None:
        bar = self.menuBar()
        a = self.named_actions
        self.file_menu = self._add_menu(bar)
        self.file_menu.addActions([a["new"], a["new_example"], a["open"]])
        self.recent_menu = self._add_menu(self.file_menu)
        self.recent_menu.setObjectName("recentMenu")
        self.file_menu.addSeparator()
        self.file_menu.addActions([a["save"], a["save_as"]])
        self.file_menu.addSeparator()
        self.file_menu.addActions([a["export_quote"], a["export_checklist"], a["export_acceptance"], a["print"]])
        self.file_menu.addSeparator()
        self.file_menu.addAction(a["quit"])
        self.edit_menu = self._add_menu(bar)
        self.edit_menu.addActions([a["undo"], a["redo"]])
        self.view_menu = self._add_menu(bar)
        self.go_menu = self._add_menu(self.view_menu)
        self.go_menu.addActions([a[f"page_{i + 1}"] for i in range(len(PAGES))])
        self.go_menu.addSeparator()
        self.go_menu.addActions([a["back"], a["next"]])
        self.view_menu.addAction(a["show_findings"])
        self.lang_menu = self._add_menu(self.view_menu)
        self.lang_menu.addActions([a[f"lang_{lang}"] for lang in self.translators.available()])
        self.help_menu = self._add_menu(bar)
        self.help_menu.addActions([a["help_guide"], a["help_shortcuts"], a["help_catalog"]])
        self.help_menu.addSeparator()
        self.help_menu.addAction(a["copy_diagnostics"])
        self.help_menu.addAction(a["about"])
        self.recent_menu.aboutToShow.connect(self._fill_recent_menu)
        self._fill_recent_menu()

    PLAN_ACTIONS = ("new", "new_example", "open", "save", "save_as", "export_quote", "export_checklist",
                    "export_acceptance", "print", "undo", "redo", "back", "next", "show_findings", "help_catalog")

    def _set_plan_actions_enabled(self, enabled: bool) -> None:
        """Before attach() there is no plan: only quitting, the language and About work."""
        for key in self.PLAN_ACTIONS:
            self.named_actions[key].setEnabled(enabled)
        for i in range(len(PAGES)):
            self.named_actions[f"page_{i + 1}"].setEnabled(enabled)
        self.recent_menu.setEnabled(enabled)
        self.step_list.setEnabled(enabled)
        self.back_button.setEnabled(enabled and self.current_index() > 0)
        self.next_button.setEnabled(enabled)

    # ------------------------------------------------------------------ text
    def examples(self) -> Path:
        """The folder of example plans offered by File ▸ New from example."""
        return self.document.examples()

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
        a["export_quote"].setText(self.tr("E&xport quote (PDF)…"))
        a["export_checklist"].setText(self.tr("Export &checklist (PDF)…"))
        a["export_acceptance"].setText(self.tr("Export accep&tance sheet (验收单, PDF)…"))
        a["print"].setText(self.tr("&Print…"))
        a["clear_recent"].setText(self.tr("&Clear recent files"))
        a["quit"].setText(self.tr("&Quit"))
        self._update_undo_texts()
        a["back"].setText(self.tr("&Back"))
        a["next"].setText(self.tr("&Next"))
        a["show_findings"].setText(self.tr("Show &findings"))
        a["about"].setText(self.tr("&About gpu-procure"))
        a["help_guide"].setText(self.tr("&User guide"))
        a["help_shortcuts"].setText(self.tr("&Keyboard shortcuts"))
        a["help_catalog"].setText(self.tr("Catalog and &policy"))
        a["help_catalog"].setToolTip(self.tr("The catalog's price dates, and every threshold in force with its "
                                             "source"))
        a["copy_diagnostics"].setText(self.tr("Copy &diagnostics"))
        a["copy_diagnostics"].setToolTip(self.tr(
            "Copy the versions, the platform, the catalog and the last log lines, for a bug report"))
        for i in range(len(PAGES)):
            a[f"page_{i + 1}"].setText(self.page_label(i))
        self.back_button.setText(self.tr("◀ Back"))
        self.next_button.setText(self.tr("Next ▶"))
        self.back_button.setToolTip(self.tr("Previous step (Alt+Left)"))
        self.next_button.setToolTip(self.tr("Next step (Alt+Right)"))
        self.findings_dock.setWindowTitle(self.tr("Findings"))
        if self.loading_label is not None:
            self.loading_label.setText(self.tr("Loading the parts catalog…"))
        self.named_actions[f"lang_{self.translators.lang}"].setChecked(True)
        self._update_step_marks()
        self._update_title()
        self._fill_recent_menu()

    def _update_undo_texts(self) -> None:
        """"Undo PSU count" / "撤销 电源数量": the stack's next step, named in the current language."""
        a = self.named_actions
        if self.controller is not None and not self._stack_alive():
            return  # the stack's destructor emits its signals after its wrapper is gone
        stack = self.controller.undo_stack if self.controller is not None else None
        undo_text = stack.undoText() if stack is not None else ""
        redo_text = stack.redoText() if stack is not None else ""
        a["undo"].setText(self.tr("&Undo %1").replace("%1", undo_text) if undo_text else self.tr("&Undo"))
        a["redo"].setText(self.tr("&Redo %1").replace("%1", redo_text) if redo_text else self.tr("&Redo"))

    def page_label(self, index: int) -> str:
        info = PAGES[index]
        title = page_title(info.cls, self.translators.lang)
        return f"{info.step}  {title}" if info.step else title

    @reported
    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def set_language(self, lang: Lang) -> None:
        """Switch the UI and the findings to ``lang`` now and remember it."""
        # the owner has every view show the findings again in the new language (its listener: a repaint, no
        # evaluation) before the pages get LanguageChange
        self.translators.install(lang)
        if self.controller is not None:  # the Edit menu's steps in the new language (labels are switched now)
            self.controller.relabel()
            self._update_undo_texts()
        # widgets keep the locale that was the default when they were made (the system's, before the first
        # install): give every window the language's, so spin boxes group digits as the labels do
        for window in QApplication.topLevelWidgets():
            window.setLocale(QLocale())
        self.settings.language = self.translators.lang
        self.named_actions[f"lang_{self.translators.lang}"].setChecked(True)

    def about(self) -> None:
        from PySide6 import __version__ as pyside_version
        from PySide6.QtCore import qVersion

        from procurement import __version__

        dialogs.show_about(self, self.tr("About gpu-procure"), self.tr("gpu-procure %1").replace("%1", __version__)
            + "\n\n" + self.tr(
            "gpu-procure plans, checks, quotes and verifies GPU server purchases in five steps: requirements, "
            "GPU selection, server configuration, image selection and verification.")
            + "\n\n" + self.tr("Qt %1, PySide6 %2").replace("%1", qVersion()).replace("%2", pyside_version)
            + "\n" + self.tr("Licence: see the LICENSE file.")
            + "\n\n" + self.tr("Help → Copy diagnostics puts what a bug report needs on the clipboard."))

    def show_help(self, kind: str) -> QWidget:
        """Open (or bring forward) the Help window on ``kind``: "guide", "shortcuts" or "catalog"."""
        from gui import help as help_pages

        if self.help_window is None:
            self.help_window = help_pages.HelpWindow(self)
        window = self.help_window
        assert isinstance(window, help_pages.HelpWindow)

        def render(which: str) -> str:
            if which == "shortcuts":
                return help_pages.shortcuts_markdown(self.named_actions)
            if which == "catalog" and self.controller is not None:
                return help_pages.catalog_policy_markdown(self.controller.catalog, self.controller.policy,
                                                          self.policy_path)
            return help_pages.guide_markdown(self.translators.lang)

        window.show_kind(kind, render)
        return window

    def diagnostics_text(self) -> str:
        """Versions, platform, catalog, this plan's file and the last log lines (procurement.applog)."""
        from PySide6 import __version__ as pyside_version
        from PySide6.QtCore import qVersion

        from procurement.applog import diagnostics

        extra = {"Qt": qVersion(), "PySide6": pyside_version,
                 "platform plugin": QGuiApplication.platformName(), "language": self.translators.lang}
        if self.controller is not None:
            cat = self.controller.catalog
            dates = [d for d in (getattr(part, "price_date", None) for part in cat) if d is not None]
            extra["catalog"] = (f"{len(cat)} parts, prices dated up to {max(dates).isoformat() if dates else 'unknown'}"
                                f", {len(cat.overlays)} user director{'y' if len(cat.overlays) == 1 else 'ies'}")
            extra["plan file"] = str(self.controller.path) if self.controller.path else "not saved"
        return diagnostics(extra)

    def copy_diagnostics(self) -> None:
        QGuiApplication.clipboard().setText(self.diagnostics_text())
        self.statusBar().showMessage(self.tr("Diagnostics copied to the clipboard"), 5000)

    # ------------------------------------------------------------------ navigation
    def current_index(self) -> int:
        return self.stack.currentIndex()

    def show_page(self, index: int) -> None:
        if not 0 <= index < len(PAGES) or self.controller is None:
            return
        page = self.page_at(index)
        self.stack.setCurrentIndex(index)
        page.ensure_fresh()
        if self.step_list.currentRow() != index:
            self.step_list.setCurrentRow(index)
        self.back_button.setEnabled(index > 0)
        self.next_button.setEnabled(index < len(PAGES) - 1)

    def chain_tab_order(self, page: StepPage) -> None:
        """Remember the page's controls in the page's own order (its tab_chain() where it has one, else its
        focus chain as first built) for focusNextPrevChild."""
        chain_of = getattr(page, "tab_chain", None)
        if callable(chain_of):
            widgets = list(chain_of())
        else:
            walk = _focus_chain_inside(page)
            alive = {id(w) for w in walk}
            known: list[QWidget] = [w for w in getattr(page, "_window_tab_order", []) if id(w) in alive]
            seen = {id(w) for w in known}
            widgets = known + [w for w in walk if id(w) not in seen]
            page._window_tab_order = widgets  # type: ignore[attr-defined]
        self._tab_page = widgets

    def tab_order(self) -> list[QWidget]:
        """Tab follows the window as it reads: the step list, the current page's controls, Back, Next and
        the findings. (Pages are built lazily, after the window's own focus chain, so Qt's chain had put
        their controls after the findings, and step 3 began at its last button.)"""
        page = self.pages[self.current_index()] if self.controller is not None else None
        if page is not None:
            # taken again at every Tab: a list kept from the page's first Tab held the widgets of a storage or
            # network row removed since, or a price cell's editor, and touching them crashed the app
            self.chain_tab_order(page)
        tail: list[QWidget] = [self.back_button, self.next_button]
        if self.findings_panel is not None:
            tail.append(self.findings_panel.tree)
        order: list[QWidget] = []
        for widget in [self.step_list, *self._tab_page, *tail]:
            target = widget.focusProxy() or widget
            # one stop per control: not its inner line edit or viewport (they hand focus to it)
            if not any(t is target or t.isAncestorOf(target) for t in order):
                order.append(target)
        return order

    def focusNextPrevChild(self, next: bool) -> bool:  # Qt override
        from PySide6.QtCore import Qt

        from gui.pages.base import focus_on_screen

        order = self.tab_order()
        focus = QApplication.focusWidget()
        index = _position_in(order, focus)
        if index is None:
            return super().focusNextPrevChild(next)
        step = 1 if next else -1
        for k in range(1, len(order) + 1):
            candidate = order[(index + step * k) % len(order)]
            target = candidate.focusProxy() or candidate
            if target.isVisible() and target.isEnabled() and target.focusPolicy() & Qt.FocusPolicy.TabFocus:
                # scroll the control into view too (Qt's own Tab does that for us)
                focus_on_screen(target, Qt.FocusReason.TabFocusReason if next else Qt.FocusReason.BacktabFocusReason)
                return True
        return super().focusNextPrevChild(next)

    def go_back(self) -> None:
        self.show_page(self.current_index() - 1)

    def go_next(self) -> None:
        self.show_page(self.current_index() + 1)

    def field_label(self, path: str) -> str | None:
        """The visible label of the field that edits ``path`` ("PSU count"), for the Edit menu's undo text;
        None when no built page shows one."""
        from PySide6.QtCore import Qt

        for page in self.built_pages():
            if page is None or not page.markers.bound(path):
                continue
            widget = page.markers.widget_for(path)
            # a label's buddy sits beside it: look at the children of the widget's parents, not at every label
            # of the page (a walk of step 3 with 500 storage rows was 12 ms of each edit)
            parent = widget.parentWidget() if widget is not None else None
            while widget is not None and parent is not None:
                for label in parent.findChildren(QLabel, "", Qt.FindChildOption.FindDirectChildrenOnly):
                    if label.buddy() is widget and label.text():
                        return label.text().replace("&&", "\0").replace("&", "").replace("\0", "&").rstrip(":： ")
                if parent is page:
                    break
                parent = parent.parentWidget()
        return None

    def page(self, class_name: str) -> StepPage | None:
        index = next((i for i, info in enumerate(PAGES) if info.cls == class_name), None)
        return None if index is None else self.pages[index]

    def go_to_finding(self, finding: Finding) -> None:
        """Show the finding's step and put the cursor into the first field it names."""
        target = next((i for i, info in enumerate(PAGES) if info.step == finding.step), None)
        if target is None:
            return
        self.show_page(target)
        for path in finding.fields:
            if self.pages[target].focus_field(path):
                return
        # the finding's fields live on another page (e.g. a step 3 cooling finding about gpu.count, step 2):
        # go to the page that owns the first of them, rather than leave the cursor in the findings tree
        for path in finding.fields:
            owner = field_owner(path)
            if owner is not None and owner != target:
                self.show_page(owner)
                if self.pages[owner].focus_field(path):
                    return

    def _show_findings(self) -> None:
        self.findings_dock.show()
        self.findings_dock.raise_()
        if self.findings_panel is not None:
            self.findings_panel.tree.setFocus()

    def _update_step_marks(self) -> None:
        if self.controller is None:
            for i in range(len(PAGES)):
                self.step_list.item(i).setText(self.page_label(i))
            return
        if self.controller.evaluating:  # the first evaluation runs in a worker: no mark is known yet
            for i in range(len(PAGES)):
                item = self.step_list.item(i)
                item.setText(self.page_label(i))
                item.setData(STATUS_ROLE, "")
                item.setIcon(QIcon())
                item.setToolTip(self.tr("Checking the plan…"))
            return
        from PySide6.QtWidgets import QStyle  # its ~20 enums load here, not before the first paint

        from gui.plan_gaps import describe
        from gui.views.steps import step_marks

        marks = step_marks(self.controller.plan, self.controller.evaluation, self.controller.findings)
        style = self.style()
        icons = {"error": QStyle.StandardPixmap.SP_MessageBoxCritical,
                 "warning": QStyle.StandardPixmap.SP_MessageBoxWarning,
                 "info": QStyle.StandardPixmap.SP_MessageBoxInformation,
                 "ok": QStyle.StandardPixmap.SP_DialogApplyButton}
        for i, page in enumerate(PAGES):
            item = self.step_list.item(i)
            item.setText(self.page_label(i))
            if not page.step:
                item.setData(STATUS_ROLE, "")
                item.setToolTip("")
                item.setIcon(style.standardIcon(QStyle.StandardPixmap.SP_FileDialogDetailedView))
                continue
            mark = marks[page.step]
            item.setData(STATUS_ROLE, mark.state)
            if mark.state == "incomplete":
                # nothing wrong yet, but not done either: grey, never a green tick on a blank step
                item.setIcon(self._incomplete_icon())
                tip = self.tr("Not complete: still to choose %1").replace("%1", describe(list(mark.missing)))
                if mark.findings:
                    tip += "\n" + self.tr("%n finding(s) on this step", "", mark.findings)
                item.setToolTip(tip)
                continue
            item.setIcon(style.standardIcon(icons[mark.state]))
            tip = (self.tr("%n finding(s) on this step", "", mark.findings) if mark.findings
                   else "" if mark.state != "ok" else self.tr("No findings on this step"))
            if mark.failed_checks is not None:
                tip = "\n".join(filter(None, [tip, self.tr("%n failed check(s) in the attached verification reports",
                                                             "", mark.failed_checks)]))
            item.setToolTip(tip)

    def _incomplete_icon(self) -> QIcon:
        """A hollow grey circle: the step has required choices still missing."""
        from PySide6.QtCore import Qt
        from PySide6.QtGui import QColor, QPainter, QPen, QPixmap

        pixmap = QPixmap(18, 18)
        pixmap.fill(Qt.GlobalColor.transparent)
        painter = QPainter(pixmap)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QPen(QColor("#8a8a8a"), 2))
        painter.drawEllipse(3, 3, 12, 12)
        painter.end()
        return QIcon(pixmap)

    def step_status(self, index: int) -> str | None:
        """'ok', 'incomplete', 'info', 'warning' or 'error' for the page at ``index`` (None for checklist
        and quote); 'incomplete' when the step's required choices are missing and nothing worse is found."""
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
        # Let the page just shown lay itself out before the hook starts a worker: the quote page's first layout
        # sizes each of its (500+) table rows, and while a worker renders, each of Qt's calls into the
        # Python-created table waits for the GIL (0.3-0.5 s stalls, docs/reliability.md). User input waits.
        QApplication.processEvents(QEventLoop.ProcessEventsFlag.ExcludeUserInputEvents)
        hook()
        return True

    def print_current(self) -> bool:
        """Print the current page's document if it has one (print_document), else the quote."""
        current = self._pages[self.current_index()]
        if current is not None and hasattr(current, "print_document"):
            current.print_document()
            return True
        return self._page_hook("QuotePage", "print_document")

    # ------------------------------------------------------------------ title and the document's actions
    def document_name(self) -> str:
        return self.document.name()

    def _stack_alive(self) -> bool:
        return self.document.alive()

    def _update_title(self) -> None:
        if self.controller is None:
            self.setWindowTitle("gpu-procure")
            return
        if not self._stack_alive():
            return
        title = window_title_part(self.controller.plan.title)
        name = f"{title} — {self.document_name()}" if title else self.document_name()
        self.setWindowTitle(f"{name}[*] — gpu-procure")
        self.setWindowModified(self.controller.dirty)

    @property
    def recovery(self) -> RecoveryStore:
        return self.document.recovery

    @property
    def autosave_timer(self) -> QTimer:
        return self.document.autosave_timer

    def maybe_save(self) -> bool:
        return self.document.maybe_save()

    def new_blank(self) -> bool:
        return self.document.new_blank()

    def example_plans(self) -> list[tuple[str, Path]]:
        return self.document.example_plans()

    def new_from_example(self) -> bool:
        return self.document.new_from_example()

    def open_dialog(self) -> bool:
        return self.document.open_dialog()

    def open_path(self, path: Path, ask: bool = True) -> bool:
        return self.document.open_path(path, ask)

    def save(self) -> bool:
        return self.document.save()

    def save_as(self) -> bool:
        return self.document.save_as()

    def start_autosave(self) -> bool:
        return self.document.start_autosave()

    def autosave_now(self) -> Path | None:
        return self.document.autosave_now()

    def offer_recovery(self) -> bool:
        return self.document.offer_recovery()

    def wait_for(self, fn: Callable[[Callable[[int, str], None]], _T], text: str) -> _T:
        """Run ``fn`` in a worker while the window shows ``text`` with a busy bar and keeps painting; returns
        its value or raises its exception (gui/workers.py run_waiting)."""
        from PySide6.QtCore import Qt

        from gui import workers

        self._waiting += 1
        self.busy_label.setText(text)
        self.busy_label.show()
        self.busy_bar.show()
        QApplication.setOverrideCursor(Qt.CursorShape.BusyCursor)
        try:
            result: _T = workers.run_waiting(fn)
            return result
        finally:
            QApplication.restoreOverrideCursor()
            self._waiting -= 1
            if not self._waiting:
                self.busy_label.hide()
                self.busy_bar.hide()
                if self._close_when_done:  # closing was asked for while waiting: ask again now
                    self._close_when_done = False
                    QTimer.singleShot(0, self.close)

    def is_waiting(self) -> bool:
        """True while a save or an open runs in a worker."""
        return self._waiting > 0

    def _fill_recent_menu(self) -> None:
        self.recent_menu.clear()
        files = self.document.recent_files()
        for i, path in enumerate(files):
            act = self.recent_menu.addAction(f"&{i + 1} {path.name}")
            act.setToolTip(str(path))
            act.setData(str(path))
            act.triggered.connect(lambda _=False, p=path: self.document.open_path(p))
        if files:
            self.recent_menu.addSeparator()
        self.recent_menu.addAction(self.named_actions["clear_recent"])
        self.named_actions["clear_recent"].setEnabled(bool(files))

    def _clear_recent(self) -> None:
        self.document.clear_recent()
        self._fill_recent_menu()

    # ------------------------------------------------------------------ closing
    def closeEvent(self, event: QCloseEvent) -> None:
        if self._waiting:  # a save or an open is being written or read: close once it is done
            self._close_when_done = True
            event.ignore()
            return
        if not self.document.maybe_save():
            event.ignore()
            return
        self.document.close()
        self.settings.geometry = self.saveGeometry()
        if self.controller is not None:  # before attach() the dock is not placed yet: keep the saved state
            self.settings.window_state = self.saveState()
        self.settings.sync()
        if self.help_window is not None:
            self.help_window.close()
        event.accept()


def _focus_chain_inside(page: QWidget) -> list[QWidget]:
    """The controls of ``page`` that take Tab focus, in the order of the focus chain from the page on."""
    from PySide6.QtCore import Qt

    found: list[QWidget] = []
    seen: set[int] = set()
    widget: QWidget | None = page.nextInFocusChain()
    while widget is not None and widget is not page and id(widget) not in seen and len(seen) < 5000:
        seen.add(id(widget))
        # composites that hand focus to a child (focus proxy) too: left behind, Tab would land on them
        # a scroll area is a frame, not a control: as one Tab stop it hid every control inside it (the
        # checklist's tables and sign-off fields); the focused child scrolls itself into view
        area = widget.parentWidget()
        if isinstance(widget, QScrollArea) or (isinstance(area, QScrollArea) and widget is area.viewport()):
            pass
        elif page.isAncestorOf(widget) and (widget.focusPolicy() & Qt.FocusPolicy.TabFocus
                                            or widget.focusProxy() is not None):
            found.append(widget)
        widget = widget.nextInFocusChain()
    return found


def _position_in(order: list[QWidget], focus: QWidget | None) -> int | None:
    """Index in ``order`` of the entry that holds ``focus`` (itself, its focus proxy, or an ancestor)."""
    index = {id(w): i for i, w in enumerate(order)}
    for i, w in enumerate(order):
        proxy = w.focusProxy()
        if proxy is not None:
            index.setdefault(id(proxy), i)
    widget = focus
    while widget is not None:
        if id(widget) in index:
            return index[id(widget)]
        widget = widget.parentWidget()
    return None


TITLE_IN_WINDOW = 80
"""Characters of the plan's title the window title shows (the rest as …): the title bar and the task bar are short."""


def window_title_part(title: str) -> str:
    """The plan's title as part of the window title: printable (control characters and bidi overrides dropped, as
    on paper: procurement.terminal.clean_text), on one line, at most TITLE_IN_WINDOW characters, and isolated
    (FSI…PDI) so that a right-to-left title does not reorder the file name and the app name after it."""
    text = " ".join(clean_text(title).split())
    if len(text) > TITLE_IN_WINDOW:
        text = text[: TITLE_IN_WINDOW - 1].rstrip() + "…"
    text = text.replace("[*]", "[*][*]")  # Qt's modified-mark placeholder: doubled, it is shown as typed
    return f"\u2068{text}\u2069" if text else ""

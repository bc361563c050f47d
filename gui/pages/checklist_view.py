"""Page: the hardware and software checklists — validated items, a person's ticks and notes, sign-off, PDF."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

from PySide6.QtCore import QDate, QRect, Qt, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDateEdit,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from gui import dialogs, workers
from gui.controller import PlanController
from gui.pages.base import StepPage
from procurement.checklist import (
    WHICH,
    Checklist,
    Status,
    Which,
    build_checklists,
    status_label,
)
from procurement.messages import t
from procurement.plan import PlanError
from procurement.signoff import KINDS, Kind, SignOffError, SignoffState, sign, signoff_status

STATUS_MARKS = {Status.PASS: "✔", Status.CONFIRMED: "☑", Status.FAIL: "✘", Status.ATTENTION: "⚠",
                Status.UNKNOWN: "?"}
STATUS_COLORS = {Status.PASS: "#2e7d32", Status.CONFIRMED: "#558b2f", Status.FAIL: "#c62828",
                 Status.ATTENTION: "#ef8f00", Status.UNKNOWN: "#757575"}
COL_ITEM, COL_STATUS, COL_REASON, COL_DONE, COL_NOTE = range(5)


class _SignOffBox(QGroupBox):
    """Name, role, date → Sign one kind of sign-off (plan approval or delivery acceptance); shows its signers,
    whether it still holds, and what changed since signing."""

    def __init__(self, page: ChecklistPage, kind: Kind) -> None:
        super().__init__(page)
        self.page, self.kind = page, kind
        self.state = SignoffState.UNSIGNED
        self.name_edit = QLineEdit()
        self.role_edit = QLineEdit()
        self.date_edit = QDateEdit(QDate.currentDate())
        self.date_edit.setCalendarPopup(True)
        self.date_edit.setDisplayFormat("yyyy-MM-dd")
        self.sign_button = QPushButton()
        self.covers_label = QLabel()  # what the sign-off covers, and that the digest does not prove who signed
        self.covers_label.setWordWrap(True)
        self.covers_label.setStyleSheet("color: #555555")
        self.state_label = QLabel()
        self.state_label.setWordWrap(True)
        self.changes_label = QLabel()  # what changed since signing, in words
        self.changes_label.setWordWrap(True)
        self.counts_label = QLabel()  # how many items fail / are unknown, next to the sign-off state
        self.counts_label.setObjectName("signoffCounts")
        row = QHBoxLayout()
        self.name_label, self.role_label, self.date_label = QLabel(), QLabel(), QLabel()
        for label, w in ((self.name_label, self.name_edit), (self.role_label, self.role_edit),
                         (self.date_label, self.date_edit)):
            label.setBuddy(w)
            row.addWidget(label)
            row.addWidget(w, 1 if w is not self.date_edit else 0)
        row.addWidget(self.sign_button)
        col = QVBoxLayout(self)
        col.addWidget(self.covers_label)
        col.addLayout(row)
        state_row = QHBoxLayout()
        state_row.addWidget(self.state_label, 1)
        state_row.addWidget(self.counts_label)
        col.addLayout(state_row)
        col.addWidget(self.changes_label)
        self.sign_button.clicked.connect(self.sign)
        self.name_edit.returnPressed.connect(self.sign)

    def retranslate(self) -> None:
        self.name_label.setText(self.tr("&Name:"))
        self.role_label.setText(self.tr("Role:"))
        self.date_label.setText(self.tr("Date:"))
        self.sign_button.setText(self.tr("Sign"))
        self.name_edit.setPlaceholderText(self.tr("reviewer"))
        self.role_edit.setPlaceholderText(self.tr("e.g. IT manager"))

    def open_counts(self) -> tuple[int, int]:
        """(failing, unknown) items of both checklists as the page last built them."""
        items = [i for cl in self.page.checklists.values() for i in cl.items]
        return (sum(1 for i in items if i.status == Status.FAIL), sum(1 for i in items if i.status == Status.UNKNOWN))

    def refresh(self) -> None:
        ctl = self.page.controller
        lang = ctl.lang
        self.setTitle(t(f"signoff.kind.{self.kind}", lang))
        self.covers_label.setText(t(f"signoff.covers.{self.kind}", lang) + " " + t("signoff.honest", lang))
        status = signoff_status(ctl.plan, self.kind, ctl.catalog, lang=lang)
        self.state = status.state
        self.status = status
        self.state_label.setText(status.message(ctl.plan, lang))
        color = {SignoffState.VALID: "#2e7d32", SignoffState.UNSIGNED: "#757575",
                 SignoffState.UNKNOWN_KEY: "#ef8f00", SignoffState.LEGACY: "#ef8f00"}.get(status.state, "#c62828")
        self.state_label.setStyleSheet(f"color: {color}; font-weight: bold")
        self.changes_label.setText("\n".join(f"• {c}" for c in status.changes))
        self.changes_label.setVisible(bool(status.changes))
        failed, unknown = self.open_counts()
        self.counts_label.setText(self.tr("✘ %1 fail · ? %2 unknown").replace("%1", str(failed))
                                  .replace("%2", str(unknown)) if failed or unknown else self.tr("✔ all items pass"))
        self.counts_label.setStyleSheet(f"color: {'#c62828' if failed else '#757575' if unknown else '#2e7d32'}")
        signed_before = status.state not in (SignoffState.UNSIGNED, SignoffState.VALID)
        self.sign_button.setText(self.tr("Sign again") if signed_before else self.tr("Sign"))

    def sign(self) -> None:
        ctl = self.page.controller
        if not self.name_edit.text().strip():
            self.state_label.setText(t("signoff.no_name", ctl.lang))
            self.state_label.setStyleSheet("color: #c62828")
            return
        failed, unknown = self.open_counts()
        if (failed or unknown) and not dialogs.ask_sign_anyway(self, failed, unknown):
            return
        qd = self.date_edit.date()
        try:
            after = sign(ctl.plan, self.kind, self.name_edit.text(), self.role_edit.text(), ctl.catalog,
                         dt.date(qd.year(), qd.month(), qd.day()), lang=ctl.lang)
        except (SignOffError, ValueError) as exc:
            self.state_label.setText(str(exc))
            self.state_label.setStyleSheet("color: #c62828")
            return
        ctl.replace_plan(after, self.tr("Sign the checklist"))
        self.name_edit.clear()  # the next signer (another department) types their own name
        self.role_edit.clear()


class ChecklistPage(StepPage):
    step = 0
    follows_findings = True
    work_done = Signal()
    """An export or print job has finished (its results are shown by then)."""

    def __init__(self, controller: PlanController, parent: QWidget | None = None) -> None:
        super().__init__(controller, parent)
        self.job: workers.Job | None = None
        self.checklists: dict[Which, Checklist] = {}
        self.boxes: dict[Which, QGroupBox] = {}
        self.tables: dict[Which, QTableWidget] = {}
        self.signoffs: dict[Kind, _SignOffBox] = {}
        body = QWidget()
        col = QVBoxLayout(body)
        for which in WHICH:
            box = QGroupBox()
            table = QTableWidget(0, 5)
            table.verticalHeader().hide()
            table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
            table.setEditTriggers(QAbstractItemView.EditTrigger.DoubleClicked
                                  | QAbstractItemView.EditTrigger.EditKeyPressed
                                  | QAbstractItemView.EditTrigger.AnyKeyPressed)
            table.setWordWrap(True)
            header = table.horizontalHeader()
            header.setSectionResizeMode(COL_REASON, QHeaderView.ResizeMode.Stretch)
            for c in (COL_STATUS, COL_DONE):
                header.setSectionResizeMode(c, QHeaderView.ResizeMode.ResizeToContents)
            # the item names wrap in at most ~a quarter of the width; the reason column gets the rest
            header.setSectionResizeMode(COL_ITEM, QHeaderView.ResizeMode.Interactive)
            header.setSectionResizeMode(COL_NOTE, QHeaderView.ResizeMode.Interactive)
            header.resizeSection(COL_NOTE, 150)
            lay = QVBoxLayout(box)
            lay.addWidget(table)
            col.addWidget(box)
            self.boxes[which], self.tables[which] = box, table
            table.itemChanged.connect(lambda item, w=which: self._item_changed(w, item))
            # wrapped reasons need their row heights again whenever the columns change width
            header.sectionResized.connect(lambda *_args, t=table: _fit_rows(t))
        for kind in KINDS:  # the sign-offs follow both checklists: each covers more than one list
            self.signoffs[kind] = _SignOffBox(self, kind)
            col.addWidget(self.signoffs[kind])
        col.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(body)
        self.paper_combo = QComboBox()
        self.paper_combo.addItem("A4", "a4")
        self.paper_combo.addItem("Letter", "letter")
        self.export_button = QPushButton()
        self.print_button = QPushButton()
        self.status_label = QLabel()
        buttons = QHBoxLayout()
        buttons.addWidget(self.status_label, 1)
        buttons.addWidget(self.paper_combo)
        buttons.addWidget(self.export_button)
        buttons.addWidget(self.print_button)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        self.add_heading(outer)
        outer.addWidget(scroll, 1)
        outer.addLayout(buttons)
        self.export_button.clicked.connect(self.export_checklist)
        self.print_button.clicked.connect(self.print_checklist)
        self.retranslate()
        self.refresh_now()

    # -- language
    def retranslate(self) -> None:
        for table in self.tables.values():
            table.setHorizontalHeaderLabels([self.tr("Item"), self.tr("Status"), self.tr("Reason and numbers"),
                                             self.tr("Done"), self.tr("Note")])
        for sbox in self.signoffs.values():
            sbox.retranslate()
        self.export_button.setText(self.tr("Export checklist…"))
        self.print_button.setText(self.tr("Print…"))
        self.paper_combo.setToolTip(self.tr("Paper size"))

    # -- plan → widgets
    def refresh(self) -> None:
        ctl = self.controller
        try:
            self.checklists = build_checklists(ctl.plan, ctl.catalog, ctl.findings, ctl.policy, ctl.lang)
        except Exception as exc:  # the page says what went wrong instead of taking the window down
            self.status_label.setText(self.tr("The checklist could not be built: %1").replace("%1", str(exc)))
            return
        for which, cl in self.checklists.items():
            self.boxes[which].setTitle(cl.title)
            table = self.tables[which]
            table.setRowCount(len(cl.items))
            for row, item in enumerate(cl.items):
                label = QTableWidgetItem(item.label)
                label.setData(Qt.ItemDataRole.UserRole, item.id)
                label.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable)
                status = QTableWidgetItem(f"{STATUS_MARKS[item.status]} {status_label(item.status, ctl.lang)}")
                status.setData(Qt.ItemDataRole.UserRole, item.status.value)
                status.setForeground(QBrush(QColor(STATUS_COLORS[item.status])))
                status.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable)
                reason_text = item.reason + (f"\n{item.verified}" if item.verified else "")
                reason = QTableWidgetItem(reason_text)
                reason.setToolTip(reason_text)
                reason.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable)
                done = QTableWidgetItem()
                note = QTableWidgetItem(item.note)
                if item.person:
                    # only a person can judge these: a tick and a note, written into plan.checklist
                    done.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsUserCheckable
                                  | Qt.ItemFlag.ItemIsSelectable)
                    done.setCheckState(Qt.CheckState.Checked if item.checked else Qt.CheckState.Unchecked)
                    done.setToolTip(self.tr("Tick when you have checked this yourself"))
                    note.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsEditable
                                  | Qt.ItemFlag.ItemIsSelectable)
                    note.setToolTip(self.tr("Double-click to write a note"))
                else:
                    done.setFlags(Qt.ItemFlag.ItemIsSelectable)
                    done.setToolTip(self.tr("Decided from the plan and the findings"))
                    note.setFlags(Qt.ItemFlag.ItemIsSelectable)
                for c, cell in enumerate((label, status, reason, done, note)):
                    table.setItem(row, c, cell)
            _fit_rows(table)
        for sbox in self.signoffs.values():
            sbox.refresh()

    def item_row(self, which: Which, item_id: str) -> int:
        table = self.tables[which]
        return next(r for r in range(table.rowCount()) if _cell(table, r, COL_ITEM).data(Qt.ItemDataRole.UserRole)
                    == item_id)

    # -- widgets → plan
    def _item_changed(self, which: Which, cell: QTableWidgetItem) -> None:
        if self.refreshing or cell.column() not in (COL_DONE, COL_NOTE):
            return
        table = self.tables[which]
        row = cell.row()
        item_id = _cell(table, row, COL_ITEM).data(Qt.ItemDataRole.UserRole)
        checked = _cell(table, row, COL_DONE).checkState() == Qt.CheckState.Checked
        note = _cell(table, row, COL_NOTE).text()
        try:
            self.controller.set_value(f"checklist.{item_id}", {"checked": checked, "note": note},
                                      text=self.tr("Checklist: %1").replace("%1", _cell(table, row, COL_ITEM).text()))
        except PlanError as exc:
            self.status_label.setText(str(exc))

    def focus_field(self, path: str) -> bool:
        if not path.startswith(("checklist", "signoffs")):
            return False
        which = "software" if "software" in path else "hardware"
        if path.startswith("signoffs"):
            self.signoffs["acceptance" if "acceptance" in path else "approval"].name_edit.setFocus()
        else:
            self.tables[which].setFocus()  # type: ignore[index]
        return True

    # -- output
    def _renderer(self) -> Any:
        from procurement.reports import render_checklist_pdf

        ctl = self.controller
        plan, catalog, policy, findings, lang = ctl.plan, ctl.catalog, ctl.policy, list(ctl.findings), ctl.lang
        paper = self.paper_combo.currentData()
        return lambda: render_checklist_pdf(plan, catalog, policy=policy, findings=findings, lang=lang, paper=paper)

    def export_checklist(self) -> workers.Job | None:
        job = workers.start_export(self, self.tr("Export checklist"), Path("checklist.pdf"), self._renderer(),
                                   self.controller.lang, self.status_label, self.export_button, self.work_done)
        if job is not None:
            self.job = job
        return job

    # the main window's File menu calls these (gui/main_window.py _page_hook)
    def export_pdf(self) -> workers.Job | None:
        return self.export_checklist()

    def print_document(self) -> workers.Job:
        return self.print_checklist()

    def print_checklist(self) -> workers.Job:
        render = self._renderer()
        self.job = workers.Job(lambda _progress, _cancelled: render())
        self.job.succeeded.connect(
            lambda pdf: workers.show_print_preview(self, pdf, self.tr("Print preview — checklist")))
        self.job.failed.connect(lambda msg: workers.show_error(self, self.tr("Print"), msg))
        self.job.finished.connect(self.work_done)
        self.job.start()
        return self.job


def _cell(table: QTableWidget, row: int, col: int) -> QTableWidgetItem:
    item = table.item(row, col)
    assert item is not None  # refresh() fills every cell
    return item


def _fit_rows(table: QTableWidget) -> None:
    """Rows as tall as their wrapped text, and the table as tall as its rows (the page scrolls, not the table)."""
    header = table.horizontalHeader()
    width = max(120, min(table.sizeHintForColumn(COL_ITEM), table.viewport().width() // 4))
    if abs(header.sectionSize(COL_ITEM) - width) > 2:
        header.resizeSection(COL_ITEM, width)  # emits sectionResized, which calls this again once
        return
    table.resizeRowsToContents()
    # Qt sizes wrapped rows a few pixels too wide for what it then draws, which elides the last line of
    # some texts ("…"); measure the two wrapping columns with a little less room and take the larger height.
    fm = table.fontMetrics()
    flags = int(Qt.TextFlag.TextWordWrap)
    for row in range(table.rowCount()):
        height = table.rowHeight(row)
        for c in (COL_ITEM, COL_REASON):
            cell = table.item(row, c)
            if cell is not None and cell.text():
                box = fm.boundingRect(QRect(0, 0, max(20, table.columnWidth(c) - 12), 100_000), flags, cell.text())
                height = max(height, box.height() + 8)
        table.setRowHeight(row, height)
    table.setFixedHeight(table.horizontalHeader().height()
                           + sum(table.rowHeight(r) for r in range(table.rowCount())) + 2 * table.frameWidth())

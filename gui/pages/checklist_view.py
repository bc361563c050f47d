"""Page: the hardware and software checklists — validated items, a person's ticks and notes, sign-off, PDF."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

from PySide6.QtCore import QDate, QRect, Qt, QTimer, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
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
from gui.pages.base import StepPage, focus_on_screen
from procurement.checklist import (
    WHICH,
    Checklist,
    ChecklistItem,
    Status,
    Which,
    build_checklists,
    confirm,
    item_status_text,
)
from procurement.messages import t
from procurement.plan import PlanError
from procurement.signoff import KINDS, Kind, SignOffError, SignoffState, SigState, sign, signoff_status

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
        # optional: also sign the content with an SSH key (ssh-keygen -Y sign); the key never leaves its file
        self.ssh_check = QCheckBox()
        self.key_edit = QLineEdit()
        self.principal_edit = QLineEdit()  # the identity in the allowed-signers file (default: the name)
        self.key_button = QPushButton()
        self.signers_label = QLabel()  # each signer, with the SSH signature's fingerprint and state
        self.signers_label.setWordWrap(True)
        self.signers_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        row = QHBoxLayout()
        self.name_label, self.role_label, self.date_label = QLabel(), QLabel(), QLabel()
        for label, w in ((self.name_label, self.name_edit), (self.role_label, self.role_edit),
                         (self.date_label, self.date_edit)):
            label.setBuddy(w)
            row.addWidget(label)
            row.addWidget(w, 1 if w is not self.date_edit else 0)
        row.addWidget(self.sign_button)
        key_row = QHBoxLayout()
        key_row.addWidget(self.ssh_check)
        key_row.addWidget(self.key_edit, 1)
        key_row.addWidget(self.key_button)
        key_row.addWidget(self.principal_edit, 1)
        col = QVBoxLayout(self)
        col.addWidget(self.covers_label)
        col.addLayout(row)
        col.addLayout(key_row)
        col.addWidget(self.signers_label)
        state_row = QHBoxLayout()
        state_row.addWidget(self.state_label, 1)
        state_row.addWidget(self.counts_label)
        col.addLayout(state_row)
        col.addWidget(self.changes_label)
        self.sign_button.clicked.connect(self.sign)
        self.name_edit.returnPressed.connect(self.sign)
        self.key_button.clicked.connect(self.choose_key)
        self.ssh_check.toggled.connect(self._key_enabled)
        self._key_enabled(False)

    def _key_enabled(self, on: bool) -> None:
        self.key_edit.setEnabled(on)
        self.principal_edit.setEnabled(on)
        self.key_button.setEnabled(on)

    def choose_key(self) -> None:
        path = dialogs.ask_ssh_key_path(self)
        if path is not None:
            self.key_edit.setText(str(path))
            self.ssh_check.setChecked(True)

    def retranslate(self) -> None:
        self.name_label.setText(self.tr("&Name:"))
        self.role_label.setText(self.tr("Role:"))
        self.date_label.setText(self.tr("Date:"))
        self.sign_button.setText(self.tr("Sign"))
        self.name_edit.setPlaceholderText(self.tr("reviewer"))
        self.role_edit.setPlaceholderText(self.tr("e.g. IT manager"))
        self.ssh_check.setText(self.tr("Also sign with my SSH &key:"))
        self.ssh_check.setToolTip(self.tr("ssh-keygen -Y sign over exactly the content this sign-off covers: unlike "
                                          "the digest, it proves which key signed"))
        self.key_edit.setPlaceholderText(self.tr("~/.ssh/id_ed25519"))
        self.principal_edit.setPlaceholderText(self.tr("as in the allowed signers (default: your name)"))
        self.principal_edit.setToolTip(self.tr("The identity your key has in the organisation's allowed-signers "
                                               "file, e.g. zhang.wei@example.cn"))
        self.key_button.setText(self.tr("Choose…"))

    def open_counts(self) -> tuple[int, int]:
        """(failing, unknown) items of both checklists as the page last built them."""
        items = [i for cl in self.page.checklists.values() for i in cl.items]
        return (sum(1 for i in items if i.status == Status.FAIL), sum(1 for i in items if i.status == Status.UNKNOWN))

    def refresh(self) -> None:
        ctl = self.page.controller
        lang = ctl.lang
        self.setTitle(t(f"signoff.kind.{self.kind}", lang))
        self.covers_label.setText(t(f"signoff.covers.{self.kind}", lang) + " " + t("signoff.honest", lang))
        status = signoff_status(ctl.plan, self.kind, ctl.catalog, ctl.allowed_signers, lang=lang)
        self.state = status.state
        self.status = status
        self.state_label.setText(status.message(ctl.plan, lang))
        color = {SignoffState.VALID: "#2e7d32", SignoffState.UNSIGNED: "#757575",
                 SignoffState.LEGACY: "#ef8f00"}.get(status.state, "#c62828")
        self.state_label.setStyleSheet(f"color: {color}; font-weight: bold")
        self.changes_label.setText("\n".join(f"• {c}" for c in status.changes))
        self.changes_label.setVisible(bool(status.changes))
        self.signers_label.setText(self.signers_text(status))
        self.signers_label.setVisible(bool(self.signers_label.text()))
        failed, unknown = self.open_counts()
        self.counts_label.setText(self.tr("✘ %1 fail · ? %2 unknown").replace("%1", str(failed))
                                  .replace("%2", str(unknown)) if failed or unknown else self.tr("✔ all items pass"))
        self.counts_label.setStyleSheet(f"color: {'#c62828' if failed else '#757575' if unknown else '#2e7d32'}")
        signed_before = status.state not in (SignoffState.UNSIGNED, SignoffState.VALID)
        self.sign_button.setText(self.tr("Sign again") if signed_before else self.tr("Sign"))

    def signers_text(self, status: object) -> str:
        """One line per signer: name, role, date, and for an SSH signature its key's fingerprint and whether it
        is valid, invalid or made by a key not in the allowed signers."""
        from procurement.signoff import SigCheck, signature_fingerprint, signer_text

        ctl = self.page.controller
        so = ctl.plan.signoffs.get(self.kind)
        if so is None:
            return ""
        checks: list[SigCheck] = list(getattr(status, "signatures", ()))
        lines = []
        for s in so.signers:
            line = signer_text(s, ctl.lang)
            if s.ssh_signature:
                check = checks.pop(0) if checks else None
                if check is None or check.state == SigState.UNCHECKED:
                    text = t("signoff.sig.unchecked", ctl.lang) + f" ({signature_fingerprint(s.ssh_signature)})"
                else:
                    text = check.message(ctl.lang)
                line += " — " + text
            lines.append(line)
        problem = str(getattr(status, "allowed_problem", ""))
        if problem:  # an unusable allowed-signers file is said, never ignored
            lines.append(problem)
        return "\n".join(lines)

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
        key = None
        if self.ssh_check.isChecked():
            if not self.key_edit.text().strip():
                self.state_label.setText(self.tr("Choose the SSH key to sign with, or untick SSH signing."))
                self.state_label.setStyleSheet("color: #c62828")
                return
            key = Path(self.key_edit.text().strip()).expanduser()
        try:
            after = sign(ctl.plan, self.kind, self.name_edit.text(), self.role_edit.text(), ctl.catalog,
                         dt.date(qd.year(), qd.month(), qd.day()), key=key,
                         principal=self.principal_edit.text().strip() if key is not None else "", lang=ctl.lang)
        except (SignOffError, ValueError) as exc:
            self.state_label.setText(str(exc))
            self.state_label.setStyleSheet("color: #c62828")
            return
        ctl.replace_plan(after, lambda: self.tr("Sign the checklist"))
        self.name_edit.clear()  # the next signer (another department) types their own name
        self.role_edit.clear()


class _AcceptanceBox(QGroupBox):
    """The delivery acceptance details (到货验收): contract / PO number, delivery date, the conclusion with its
    reasons, which reports count as evidence, and Export acceptance sheet (验收单)."""

    CONCLUSIONS = (None, "pass", "fail", "rework")

    def __init__(self, page: ChecklistPage) -> None:
        super().__init__(page)
        self.page = page
        self.contract_edit = QLineEdit()
        self.quote_label = QLabel()
        self.quote_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.delivered_check = QCheckBox()
        self.delivery_edit = QDateEdit(QDate.currentDate())
        self.delivery_edit.setCalendarPopup(True)
        self.delivery_edit.setDisplayFormat("yyyy-MM-dd")
        self.conclusion_combo = QComboBox()
        for _ in self.CONCLUSIONS:
            self.conclusion_combo.addItem("")
        self.reasons_edit = QLineEdit()
        self.reports_label = QLabel()
        self.reports_label.setWordWrap(True)
        self.export_button = QPushButton()
        self.contract_label, self.quote_caption = QLabel(), QLabel()
        self.conclusion_label, self.reasons_label = QLabel(), QLabel()
        self.contract_label.setBuddy(self.contract_edit)
        self.conclusion_label.setBuddy(self.conclusion_combo)
        self.reasons_label.setBuddy(self.reasons_edit)
        top = QHBoxLayout()
        top.addWidget(self.contract_label)
        top.addWidget(self.contract_edit, 1)
        top.addWidget(self.quote_caption)
        top.addWidget(self.quote_label, 1)
        top.addWidget(self.delivered_check)
        top.addWidget(self.delivery_edit)
        middle = QHBoxLayout()
        middle.addWidget(self.conclusion_label)
        middle.addWidget(self.conclusion_combo)
        middle.addWidget(self.reasons_label)
        middle.addWidget(self.reasons_edit, 1)
        bottom = QHBoxLayout()
        bottom.addWidget(self.reports_label, 1)
        bottom.addWidget(self.export_button)
        col = QVBoxLayout(self)
        col.addLayout(top)
        col.addLayout(middle)
        col.addLayout(bottom)
        self.contract_edit.editingFinished.connect(
            lambda: self._set("acceptance.contract_number", self.contract_edit.text().strip()))
        self.reasons_edit.editingFinished.connect(
            lambda: self._set("acceptance.reasons", self.reasons_edit.text().strip()))
        self.conclusion_combo.activated.connect(
            lambda i: self._set("acceptance.conclusion", self.CONCLUSIONS[i]))
        self.delivered_check.toggled.connect(self._delivery_changed)
        self.delivery_edit.dateChanged.connect(self._delivery_changed)

    def retranslate(self) -> None:
        self.setTitle(self.tr("Delivery acceptance details (验收)"))
        self.contract_label.setText(self.tr("Contract / P&O no.:"))
        self.quote_caption.setText(self.tr("Quote no.:"))
        self.delivered_check.setText(self.tr("Delivered on:"))
        self.conclusion_label.setText(self.tr("Concl&usion:"))
        self.reasons_label.setText(self.tr("Reasons:"))
        texts = (self.tr("— not decided —"), self.tr("Accepted (合格)"), self.tr("Rejected (不合格)"),
                 self.tr("Re-inspect after rework (整改后复验)"))
        for i, text in enumerate(texts):
            self.conclusion_combo.setItemText(i, text)
        self.reasons_edit.setPlaceholderText(self.tr("why accepted or rejected; what must be reworked"))
        self.export_button.setText(self.tr("Export &acceptance sheet (验收单)…"))
        self.export_button.setToolTip(self.tr(
            "The delivery acceptance sheet: contract, quote, the delivered machines with serial numbers, each "
            "check with its evidence, the manual items, the conclusion and the signature blocks"))

    def refresh(self) -> None:
        from procurement.plan import canonical_digest

        plan = self.page.controller.plan
        acc = plan.acceptance
        self.contract_edit.setText(acc.contract_number)
        self.quote_label.setText(plan.quote.number or self.tr("(assigned on the quote page)"))
        with _blocked(self.delivered_check, self.delivery_edit, self.conclusion_combo):
            self.delivered_check.setChecked(acc.delivery_date is not None)
            self.delivery_edit.setEnabled(acc.delivery_date is not None)
            if acc.delivery_date is not None:
                d = acc.delivery_date
                self.delivery_edit.setDate(QDate(d.year, d.month, d.day))
            self.conclusion_combo.setCurrentIndex(self.CONCLUSIONS.index(acc.conclusion))
        self.reasons_edit.setText(acc.reasons)
        digest = canonical_digest(plan)
        other = sum(1 for r in plan.verification if r.plan_digest != digest)
        total = len(plan.verification)
        if not total:
            text = self.tr("No verification report attached yet (step 5): the sheet will say the machines were not "
                           "verified.")
        elif other:
            text = self.tr("%1 of %2 attached reports were made against another plan, an older version of this "
                           "one, or no plan: the sheet marks them and does not count them as evidence.") \
                .replace("%1", str(other)).replace("%2", str(total))
        else:
            text = self.tr("Attached reports: %1, all made against this plan as it is now.").replace("%1", str(total))
        from procurement.signoff import acceptance_warnings

        warnings = acceptance_warnings(plan, self.page.controller.lang)
        self.reports_label.setText("\n".join([text, *(f"⚠ {w}" for w in warnings)]))
        self.reports_label.setStyleSheet("color: #c62828" if other or warnings else "")

    def _set(self, path: str, value: object) -> None:
        if self.page.refreshing:
            return
        try:
            self.page.controller.set_value(path, value)
        except PlanError as exc:
            self.page.status_label.setText(str(exc))

    def _delivery_changed(self, *_args: object) -> None:
        on = self.delivered_check.isChecked()
        self.delivery_edit.setEnabled(on)
        qd = self.delivery_edit.date()
        self._set("acceptance.delivery_date", dt.date(qd.year(), qd.month(), qd.day()).isoformat() if on else None)


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
        self.confirm_buttons: dict[Which, QPushButton] = {}
        self.unconfirm_buttons: dict[Which, QPushButton] = {}
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
            # an automatic item the app cannot decide (unknown) can be confirmed by a person, with a note
            confirm_button, unconfirm_button = QPushButton(), QPushButton()
            actions = QHBoxLayout()
            actions.addStretch(1)
            actions.addWidget(confirm_button)
            actions.addWidget(unconfirm_button)
            lay.addLayout(actions)
            self.confirm_buttons[which], self.unconfirm_buttons[which] = confirm_button, unconfirm_button
            confirm_button.clicked.connect(lambda _=False, w=which: self.confirm_selected(w))
            unconfirm_button.clicked.connect(lambda _=False, w=which: self.unconfirm_selected(w))
            table.itemSelectionChanged.connect(lambda w=which: self._update_confirm_buttons(w))
            col.addWidget(box)
            self.boxes[which], self.tables[which] = box, table
            table.itemChanged.connect(lambda item, w=which: self._item_changed(w, item))
            # wrapped reasons need their row heights again whenever the columns change width
            header.sectionResized.connect(lambda *_args, t=table: _fit_rows(t))
        self.acceptance_box = _AcceptanceBox(self)
        col.addWidget(self.acceptance_box)
        for kind in KINDS:  # the sign-offs follow both checklists: each covers more than one list
            self.signoffs[kind] = _SignOffBox(self, kind)
            col.addWidget(self.signoffs[kind])
        # the organisation's allowed-signers file (an app setting): SSH signatures are checked against it
        self.allowed_label = QLabel()
        self.allowed_label.setWordWrap(True)
        self.allowed_button = QPushButton()
        self.allowed_clear = QPushButton()
        allowed_row = QHBoxLayout()
        allowed_row.addWidget(self.allowed_label, 1)
        allowed_row.addWidget(self.allowed_button)
        allowed_row.addWidget(self.allowed_clear)
        col.addLayout(allowed_row)
        self.allowed_button.clicked.connect(self.choose_allowed_signers)
        self.allowed_clear.clicked.connect(lambda: self.controller.set_allowed_signers(None))
        controller.allowed_signers_changed.connect(self.refresh_now)
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
        self.acceptance_box.export_button.clicked.connect(self.export_acceptance)
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
        self.acceptance_box.retranslate()
        for which in WHICH:
            self.confirm_buttons[which].setText(self.tr("Confir&m item…"))
            self.confirm_buttons[which].setToolTip(self.tr(
                "An item the app cannot decide (unknown): confirm it yourself, with your name and a note; it shows "
                "as confirmed by you, never as an automatic pass"))
            self.unconfirm_buttons[which].setText(self.tr("Remove confirmation"))
        self.allowed_button.setText(self.tr("Allowed &signers file…"))
        self.allowed_clear.setText(self.tr("Clear"))
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
                status = QTableWidgetItem(f"{STATUS_MARKS[item.status]} {item_status_text(item, ctl.lang)}")
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
                    done.setToolTip(self.tr("The app cannot decide this: ticking it asks for your name and a note")
                                    if item.needs_confirmation else self.tr("Tick when you have checked this yourself"))
                    note.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsEditable
                                  | Qt.ItemFlag.ItemIsSelectable)
                    note.setToolTip(self.tr("Double-click to write a note"))
                elif item.status == Status.CONFIRMED:
                    done.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable)
                    done.setText("☑")
                    done.setToolTip(self.tr("Confirmed by a person (the app could not decide it)"))
                    note.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable)
                else:
                    done.setFlags(Qt.ItemFlag.ItemIsSelectable)
                    done.setToolTip(self.tr("Decided from the plan and the findings") if item.status != Status.UNKNOWN
                                    else self.tr("The app cannot decide this: select it and press Confirm item…"))
                    note.setFlags(Qt.ItemFlag.ItemIsSelectable)
                for c, cell in enumerate((label, status, reason, done, note)):
                    table.setItem(row, c, cell)
            _fit_rows(table)
            self._update_confirm_buttons(which)
        self.acceptance_box.refresh()
        for sbox in self.signoffs.values():
            sbox.refresh()
        path = ctl.allowed_signers
        self.allowed_label.setText(
            self.tr("SSH signatures are checked against: %1").replace("%1", str(path)) if path is not None else
            self.tr("No allowed-signers file is set: SSH signatures are shown with their key's fingerprint but "
                    "not checked."))
        self.allowed_clear.setEnabled(path is not None)

    # -- a person's confirmation of an item the app cannot decide
    def selected_item(self, which: Which) -> ChecklistItem | None:
        table = self.tables[which]
        row = table.currentRow()
        items = self.checklists[which].items if which in self.checklists else ()
        if row < 0 or row >= len(items) or not table.selectionModel().isRowSelected(row, table.rootIndex()):
            return None
        return items[row]

    def _update_confirm_buttons(self, which: Which) -> None:
        item = self.selected_item(which)
        automatic = item is not None and not item.person
        self.confirm_buttons[which].setEnabled(automatic and item is not None and item.status == Status.UNKNOWN)
        self.unconfirm_buttons[which].setEnabled(automatic and item is not None and item.status == Status.CONFIRMED)

    def confirm_selected(self, which: Which) -> None:
        item = self.selected_item(which)
        if item is None or item.person or item.status != Status.UNKNOWN:
            return
        answer = dialogs.ask_confirmation(self, item.label, item.reason)
        if answer is None:
            return
        name, note = answer
        ctl = self.controller
        try:
            after = confirm(ctl.plan, item.id, name, note, ctl.lang)
        except ValueError as exc:
            self.status_label.setText(str(exc))
            return
        ctl.replace_plan(after, lambda: self.tr("Confirm %1").replace("%1", item.label))
        self._reselect(which, item.id)

    def unconfirm_selected(self, which: Which) -> None:
        item = self.selected_item(which)
        if item is None or item.person or item.status != Status.CONFIRMED:
            return
        ctl = self.controller
        marks = {k: v for k, v in ctl.plan.checklist.items() if k != item.id}
        ctl.replace_plan(ctl.plan.model_copy(update={"checklist": marks}),
                         lambda: self.tr("Remove the confirmation of %1").replace("%1", item.label))
        self._reselect(which, item.id)

    def _reselect(self, which: Which, item_id: str) -> None:
        self.refresh_now()
        self.tables[which].selectRow(self.item_row(which, item_id))
        self._update_confirm_buttons(which)

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
        item = next((i for i in self.checklists[which].items if i.id == item_id), None) \
            if which in self.checklists else None
        before = self.controller.plan.checklist.get(item_id)
        if cell.column() == COL_DONE and checked and item is not None and item.needs_confirmation \
                and not (before is not None and before.checked):
            # what the app knows is unknown: a tick is a person's confirmation, with their name and a note; asked
            # once the click is over (a modal dialog inside the table's own signal would rebuild the table under it)
            QTimer.singleShot(0, lambda: self._confirm_tick(which, item))
            return
        by = before.by if before is not None and checked else ""  # editing the note keeps who confirmed
        try:
            self.controller.set_value(f"checklist.{item_id}", {"checked": checked, "note": note, "by": by},
                                      text=self.tr("Checklist: %1").replace("%1", _cell(table, row, COL_ITEM).text()))
        except PlanError as exc:
            self.status_label.setText(str(exc))

    def _confirm_tick(self, which: Which, item: ChecklistItem) -> None:
        """The tick on an item whose automatic evidence is unknown: ask who confirms it and how; cancelled, the
        tick goes back."""
        ctl = self.controller
        answer = dialogs.ask_confirmation(self, item.label, item.reason)
        if answer is not None:
            try:
                after = confirm(ctl.plan, item.id, answer[0], answer[1], ctl.lang)
            except ValueError as exc:
                self.status_label.setText(str(exc))
            else:
                ctl.replace_plan(after, lambda: self.tr("Confirm %1").replace("%1", item.label))
        self._reselect(which, item.id)

    def choose_allowed_signers(self) -> None:
        path = dialogs.ask_allowed_signers_path(self)
        if path is not None:
            self.controller.set_allowed_signers(path)

    def focus_field(self, path: str) -> bool:
        if path.startswith("acceptance"):
            focus_on_screen(self.acceptance_box.contract_edit)
            return True
        if not path.startswith(("checklist", "signoffs")):
            return False
        which = "software" if "software" in path else "hardware"
        if path.startswith("signoffs"):
            focus_on_screen(self.signoffs["acceptance" if "acceptance" in path else "approval"].name_edit)
        else:
            focus_on_screen(self.tables[which])  # type: ignore[index]
        return True

    # -- output
    def _renderer(self) -> Any:
        from procurement.reports import render_checklist_pdf

        ctl = self.controller
        plan, catalog, policy, findings, lang = ctl.plan, ctl.catalog, ctl.policy, list(ctl.findings), ctl.lang
        paper, allowed = self.paper_combo.currentData(), ctl.allowed_signers
        return lambda: render_checklist_pdf(plan, catalog, policy=policy, findings=findings, lang=lang, paper=paper,
                                            allowed_signers=allowed)

    def export_checklist(self) -> workers.Job | None:
        job = workers.start_export(self, self.tr("Export checklist"), Path("checklist.pdf"), self._renderer(),
                                   self.controller.lang, self.status_label, self.export_button, self.work_done)
        if job is not None:
            self.job = job
        return job

    def _acceptance_renderer(self) -> Any:
        from procurement.reports.acceptance_pdf import render_acceptance_pdf

        ctl = self.controller
        plan, catalog, policy, findings, lang = ctl.plan, ctl.catalog, ctl.policy, list(ctl.findings), ctl.lang
        paper, allowed = self.paper_combo.currentData(), ctl.allowed_signers
        return lambda: render_acceptance_pdf(plan, catalog, policy=policy, findings=findings, lang=lang, paper=paper,
                                             allowed_signers=allowed)

    def export_acceptance(self) -> workers.Job | None:
        """Export the delivery acceptance sheet (验收单); File ▸ Export acceptance sheet calls this too."""
        name = self.tr("acceptance-sheet") if not self.controller.plan.acceptance.contract_number else \
            self.tr("acceptance-%1").replace("%1", self.controller.plan.acceptance.contract_number)
        from procurement.reports.common import safe_filename

        button = self.acceptance_box.export_button
        job = workers.start_export(self, self.tr("Export acceptance sheet"), Path(safe_filename(name)),
                                   self._acceptance_renderer(), self.controller.lang, self.status_label, button,
                                   self.work_done)
        if job is not None:
            self.job = job
        return job

    # the main window's File menu calls these (gui/main_window.py _page_hook)
    def export_pdf(self) -> workers.Job | None:
        return self.export_checklist()

    def print_document(self) -> workers.Job:
        return self.print_checklist()

    def print_checklist(self) -> workers.Job:
        from procurement.reports.text import collect_missing, describe_missing

        render = self._renderer()
        missing: list[str] = []

        def work(_progress: object, _cancelled: object) -> bytes:
            with collect_missing() as found:
                pdf = render()
            missing[:] = list(found)
            return pdf

        def preview(pdf: bytes) -> None:
            # the paper shows [U+XXXX] where no font has a character: say which before it is printed
            self.status_label.setText(self.tr("No available font has these characters; the printout shows their "
                                              "code points [U+…] instead: %1").replace("%1", describe_missing(missing))
                                      if missing else "")
            workers.show_print_preview(self, pdf, self.tr("Print preview — checklist"))

        self.job = workers.Job(work)
        self.job.succeeded.connect(preview)
        self.job.failed.connect(lambda msg: workers.show_error(self, self.tr("Print"), msg))
        self.job.finished.connect(self.work_done)
        self.job.start()
        return self.job


class _blocked:
    """Signals of the given widgets blocked inside the block (the page sets them from the plan)."""

    def __init__(self, *widgets: QWidget) -> None:
        self.widgets = widgets

    def __enter__(self) -> None:
        self.before = [w.blockSignals(True) for w in self.widgets]

    def __exit__(self, *_exc: object) -> None:
        for w, was in zip(self.widgets, self.before, strict=True):
            w.blockSignals(was)


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

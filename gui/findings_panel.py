"""The findings panel: every current finding, grouped by severity and step, live after each edit."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QModelIndex, QPersistentModelIndex, QRect, QSize, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFontMetrics, QResizeEvent
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPushButton,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTreeWidget,
    QTreeWidgetItem,
    QTreeWidgetItemIterator,
    QVBoxLayout,
    QWidget,
)

from gui.controller import PlanController
from gui.plan_gaps import describe, missing_choices
from gui.safe_events import reported
from gui.widgets.field_marker import TINTS
from procurement.findings import Finding, Severity
from procurement.messages import STEPS, t

FINDING_ROLE = Qt.ItemDataRole.UserRole + 1


class WrapDelegate(QStyledItemDelegate):
    """Row heights that fit the whole wrapped message and fix at the tree's current width."""

    def __init__(self, tree: QTreeWidget) -> None:
        super().__init__(tree)
        self.tree = tree

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> QSize:
        base = super().sizeHint(option, index)
        depth, parent = 1, index.parent()
        while parent.isValid():
            depth, parent = depth + 1, parent.parent()
        width = self.tree.viewport().width() - depth * self.tree.indentation() - 12
        text = str(index.data(Qt.ItemDataRole.DisplayRole) or "")
        rect = QFontMetrics(option.font).boundingRect(QRect(0, 0, max(width, 60), 100_000),
                                                     int(Qt.TextFlag.TextWordWrap), text)
        return QSize(base.width(), max(base.height(), rect.height() + 6))


class _Tree(QTreeWidget):
    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.scheduleDelayedItemsLayout()  # re-ask the delegate for heights at the new width


class FindingsPanel(QWidget):
    """A tree: severity → step → finding (message, and the fix under it). Activating a finding emits
    ``finding_activated``; the window then shows its step and focuses its first field."""

    finding_activated = Signal(object)  # Finding

    def __init__(self, controller: PlanController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        self.summary = QLabel(self)
        self.summary.setWordWrap(True)
        self.tree = _Tree(self)
        self.tree.setItemDelegate(WrapDelegate(self.tree))
        self.tree.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.tree.setObjectName("findingsTree")
        self.tree.setHeaderHidden(True)
        self.tree.setColumnCount(1)
        self.tree.setWordWrap(True)
        self.tree.setUniformRowHeights(False)
        self.tree.setTextElideMode(Qt.TextElideMode.ElideNone)
        self.tree.setIndentation(14)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        # A warning accepted on purpose (a GeForce card in a lab, 25 GbE for a pilot) is waived with a reason
        # and a name, stored in the plan: shown as waived, not hidden, and covered by the approval sign-off.
        self.waive_button = QPushButton(self)
        self.unwaive_button = QPushButton(self)
        row = QHBoxLayout()
        row.addWidget(self.waive_button)
        row.addWidget(self.unwaive_button)
        row.addStretch(1)
        layout.addWidget(self.summary)
        layout.addWidget(self.tree)
        layout.addLayout(row)
        self.retranslate()
        self._connect_signals()
        self.rebuild()

    def _connect_signals(self) -> None:
        self.controller.findings_changed.connect(self.rebuild)
        self.tree.itemActivated.connect(self._activated)
        self.tree.itemClicked.connect(self._activated)
        self.tree.currentItemChanged.connect(self._update_buttons)
        self.waive_button.clicked.connect(self.waive_selected)
        self.unwaive_button.clicked.connect(self.unwaive_selected)

    def retranslate(self) -> None:
        self.waive_button.setText(self.tr("Waive…"))
        self.waive_button.setToolTip(self.tr("Accept the selected warning or error on purpose, with a reason and "
                                             "your name; it stays listed as waived"))
        self.unwaive_button.setText(self.tr("Remove waiver"))

    def selected_finding(self) -> Finding | None:
        item = self.tree.currentItem()
        finding = item.data(0, FINDING_ROLE) if item is not None else None
        return finding if isinstance(finding, Finding) else None

    def _update_buttons(self, *_args: object) -> None:
        f = self.selected_finding()
        waivable = f is not None and f.severity != Severity.INFO and not f.rule.startswith(("WAIVER-", "SIGNOFF-"))
        self.waive_button.setEnabled(waivable and f is not None and f.waived is None)
        self.unwaive_button.setEnabled(f is not None and f.waived is not None)

    def waive_selected(self) -> None:
        from procurement.waivers import waive

        f = self.selected_finding()
        if f is None:
            return
        from gui import dialogs

        answer = dialogs.ask_waiver(self, f.rule, f.message_text(self.controller.lang))
        if answer is None:
            return
        reason, by = answer
        after = waive(self.controller.plan, f, reason, by, lang=self.controller.lang)
        self.controller.replace_plan(after, lambda: self.tr("Waive %1").replace("%1", f.rule))

    def unwaive_selected(self) -> None:
        from procurement.waivers import unwaive

        f = self.selected_finding()
        if f is None or f.waived is None:
            return
        self.controller.replace_plan(unwaive(self.controller.plan, f.rule),
                                     lambda: self.tr("Remove waiver of %1").replace("%1", f.rule))

    def severity_label(self, sev: Severity) -> str:
        return {Severity.ERROR: self.tr("Errors"), Severity.WARNING: self.tr("Warnings"),
                Severity.INFO: self.tr("Hints")}[sev]

    def step_label(self, step: int) -> str:
        name = t(f"step.{step}", self.controller.lang) if step in STEPS else "?"
        return self.tr("Step %1: %2").replace("%1", str(step)).replace("%2", name)

    def rebuild(self) -> None:
        if self.controller.evaluating:  # the started window's first evaluation, in a worker: nothing to say yet
            self.tree.clear()
            self._update_buttons()
            self.summary.setText(self.tr("Checking the plan against the rules…"))
            return
        findings: list[Finding] = list(self.controller.findings)
        lang = self.controller.lang  # the findings store codes: shown in the language of the moment
        self.tree.clear()
        counts = {s: sum(1 for f in findings if f.severity == s) for s in Severity}
        gaps = missing_choices(self.controller.plan)
        still = "\n".join(self.tr("Still to choose — %1: %2").replace("%1", self.step_label(step))
                          .replace("%2", describe(keys)) for step, keys in sorted(gaps.items()))
        if not findings:
            self._update_buttons()
            # never "no problems" while the plan is not complete: say what is left instead
            self.summary.setText(self.tr("No problems found so far; the plan is not complete yet.") + "\n" + still
                                 if gaps else self.tr("No problems found in this plan."))
            return
        self.summary.setText("\n".join(filter(None, [
            self.tr("Errors: %1 · warnings: %2 · hints: %3 — click one to go to its field.")
            .replace("%1", str(counts[Severity.ERROR]))
            .replace("%2", str(counts[Severity.WARNING]))
            .replace("%3", str(counts[Severity.INFO])), self._verification_line(), still])))
        for sev in Severity:
            group = [f for f in findings if f.severity == sev]
            if not group:
                continue
            top = QTreeWidgetItem([f"{self.severity_label(sev)} ({len(group)})"])
            top.setBackground(0, QBrush(QColor(TINTS[sev])))
            top.setForeground(0, QBrush(QColor("#000000")))
            font = top.font(0)
            font.setBold(True)
            top.setFont(0, font)
            top.setFlags(Qt.ItemFlag.ItemIsEnabled)
            self.tree.addTopLevelItem(top)
            for step in sorted({f.step for f in group}):
                step_item = QTreeWidgetItem(top, [self.step_label(step)])
                step_item.setFlags(Qt.ItemFlag.ItemIsEnabled)
                for f in (f for f in group if f.step == step):
                    message, fix = f.message_text(lang), f.fix_text(lang)
                    item = QTreeWidgetItem(step_item, [message + (f"\n→ {fix}" if fix else "")])
                    item.setData(0, FINDING_ROLE, f)
                    item.setToolTip(0, f"{f.rule}\n{message}\n{fix}".strip())
        self.tree.expandAll()
        self._update_buttons()

    def _verification_line(self) -> str:
        """Step 5's mark also reads the attached verification reports, which are no findings: say what they
        found, so 'Errors: 0' beside a red step 5 is explained (issue 26)."""
        evaluation = self.controller.evaluation
        step = evaluation.steps.get(5) if evaluation is not None else None
        if step is None or step.failed_checks is None or step.worst is None:
            return ""
        if step.failed_checks == 0:
            return self.tr("Step 5: the verification reports are not all passed (see step 5).")
        if step.failed_checks == 1:
            return self.tr("Step 5: 1 check failed in the verification reports (see step 5).")
        return self.tr("Step 5: %1 checks failed in the verification reports (see step 5).").replace(
            "%1", str(step.failed_checks))

    def finding_items(self) -> list[QTreeWidgetItem]:
        out: list[QTreeWidgetItem] = []
        it = QTreeWidgetItemIterator(self.tree)
        while it.value() is not None:
            item = it.value()
            if isinstance(item.data(0, FINDING_ROLE), Finding):
                out.append(item)
            it += 1
        return out

    def _activated(self, item: QTreeWidgetItem, _column: int = 0) -> None:
        finding = item.data(0, FINDING_ROLE)
        if isinstance(finding, Finding):
            self.finding_activated.emit(finding)

    @reported
    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
            self.rebuild()
        super().changeEvent(event)

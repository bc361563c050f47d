"""Page: step 5 (验证测试) — run the checks on this machine in a worker, import node reports, per-GPU table."""

from __future__ import annotations

import html
import time
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QSysInfo, Qt, QTimer, Signal
from PySide6.QtGui import QBrush, QColor, QFontDatabase, QGuiApplication
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from catalog.loader import Catalog
from gui import workers
from gui.controller import PlanController
from gui.pages.base import StepPage
from gui.views.verify import MARKS, NodeRow, gpu_status, missing_row, node_row
from gui.widgets.flow import FlowLayout
from procurement.handover.generate import NodeFacts, build_handover
from procurement.handover.write import summary as handover_summary
from procurement.handover.write import write_all as write_handover
from procurement.messages import Lang
from procurement.plan import PLAN_SUFFIXES, Plan, PlanError, save_plan, with_value
from procurement.probe.bundle import write_pyz
from procurement.probe.cluster import (
    METHODS,
    ClusterProgress,
    HostlistError,
    cluster_progress,
    expand_hostlist,
    target_commands,
)
from procurement.probe.nodes import cyclic_gc_paused, expand, read_node
from procurement.verification_report import attach_reports
from procurement.verify import (
    CheckRecord,
    ProbeOptions,
    VerificationCancelled,
    VerificationReport,
    load_report,
    merge_reports,
    parse_report,
    report_to_dict,
    run_probe,
)
from procurement.verify.render import message_of, values_of
from procurement.verify.target import NotTarget, not_target

COLORS = {"pass": QColor("#2e7d32"), "fail": QColor("#c62828"), "warn": QColor("#ef8f00"),
          "unknown": QColor("#6a1b9a"), "skip": QColor("#757575"), "missing": QColor("#c62828")}


translate = QCoreApplication.translate  # lupdate reads translate("Context", "text") calls



# ---------------------------------------------------------------- hookups into procurement.verify

class _Flag:
    """Adapts the worker's cancelled() to the is_set() flag the probe polls."""

    def __init__(self, cancelled: workers.Cancelled) -> None:
        self.is_set = cancelled


def run_local_verification(plan: Plan, catalog: Catalog, lang: Lang, progress: workers.Progress,
                           cancelled: workers.Cancelled, after_setup: bool = False) -> dict[str, Any]:
    """Probe this machine and check it against ``plan``; the report as a JSON object. Runs in a worker.
    ``after_setup``: as `verify --after-setup`, a host not tuned as planned fails (TUNE-*, MIG-LAYOUT)."""
    def step(i: int, total: int, label: str) -> None:
        progress(round(100 * i / max(total, 1)), label)

    try:
        report = run_probe(plan, catalog, ProbeOptions(after_setup=after_setup), lang, progress=step,
                           cancel=_Flag(cancelled))
    except VerificationCancelled:
        raise workers.JobCancelled from None
    return report_to_dict(report)


def load_report_file(path: Path) -> dict[str, Any]:
    """A report file as a JSON object; raises ValueError (ReportError) naming the file and the field."""
    return report_to_dict(load_report(path))


def read_node_file(path: Path, plan: Plan, catalog: Catalog, lang: Lang, after_setup: bool = False) -> dict[str, Any]:
    """A node's report from a probe's raw facts (judged now against ``plan``, ``after_setup`` as `judge
    --after-setup`) or a judged report file (its verdicts kept); raises ValueError (ReportError) naming the file."""
    return report_to_dict(read_node(path, plan, catalog, lang, after_setup=after_setup))


def with_reports(plan: Plan, new: list[dict[str, Any]]) -> Plan:
    """``plan`` with ``new`` attached, one report per machine, the newest (procurement's attach_reports).
    Raises PlanError (too many values, a report that is not one)."""
    return with_value(plan, "verification", attach_reports(plan.verification_data(), new))


def _status_word(status: str) -> str:
    words = {"pass": translate("VerifyPage", "pass"), "fail": translate("VerifyPage", "fail"),
             "warn": translate("VerifyPage", "warn"), "unknown": translate("VerifyPage", "unknown"),
             "skip": translate("VerifyPage", "skip"), "missing": translate("VerifyPage", "no report yet")}
    return words.get(status, status)


def _status_item(status: str | None) -> QTableWidgetItem:
    status = status or "skip"
    item = QTableWidgetItem(f"{MARKS.get(status, '?')} {_status_word(status)}")
    item.setData(Qt.ItemDataRole.UserRole, status)
    item.setForeground(QBrush(COLORS.get(status, QColor("#757575"))))
    return item


def _text(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return translate("VerifyPage", "on") if value else translate("VerifyPage", "off")
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


class VerifyPage(StepPage):
    step = 5
    work_done = Signal()
    """A run on this machine has finished, was cancelled or failed (the page shows which)."""
    tables_filled = Signal()
    """The Nodes, GPUs and Checks tables hold every row of the last refresh (large ones fill in steps)."""

    def __init__(self, controller: PlanController, parent: QWidget | None = None,
                 runner: Callable[..., dict[str, Any]] | None = None) -> None:
        super().__init__(controller, parent)
        self._fill_generation = 0
        self._runner = runner or run_local_verification
        self.job: workers.Job | None = None
        self.export_job: workers.Job | None = None
        self.run_button = QPushButton()
        self.cancel_button = QPushButton()
        self.cancel_button.setEnabled(False)
        self.import_button = QPushButton()
        self.import_dir_button = QPushButton()
        self.probe_button = QPushButton()
        self.handover_button = QPushButton()
        self.remove_button = QPushButton()
        self.remove_button.setEnabled(False)
        self.clear_button = QPushButton()
        self.export_button = QPushButton()
        # How the handover's host tuning is judged: before its setup a mismatch warns, after it fails (a page
        # setting, as `verify`'s and `judge`'s --after-setup: the plan stores no verify options)
        self.after_setup_box = QCheckBox()
        # What to run on the target machines (the exact lines, with this plan's path), and how far it has come.
        self.target_box = QGroupBox()
        self.nodes_label = QLabel()
        self.nodes_edit = QLineEdit()
        self.nodes_label.setBuddy(self.nodes_edit)
        self.method_label = QLabel()
        self.method_combo = QComboBox()
        for method in METHODS:
            self.method_combo.addItem("", method)
        self.method_label.setBuddy(self.method_combo)
        self.command_view = QPlainTextEdit()
        self.command_view.setReadOnly(True)
        self.command_view.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.command_view.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.command_view.setTabChangesFocus(True)
        # four lines (the longest way has four) and the horizontal scroll bar, without a vertical one
        view = self.command_view
        view.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        margin = int(view.document().documentMargin())
        view.setFixedHeight(view.fontMetrics().lineSpacing() * 4 + 2 * (view.frameWidth() + margin)
                            + view.horizontalScrollBar().sizeHint().height() + 2)
        self.copy_button = QPushButton()
        self.command_note = QLabel()
        self.command_note.setWordWrap(True)
        self.node_bar = QProgressBar()
        self.node_bar.setTextVisible(True)
        self._probe_dir: Path | None = None
        self._names: list[str] = []
        self._names_error = ""
        self.progress_state: ClusterProgress | None = None
        self.progress = QProgressBar()
        self.progress.setRange(0, 100)
        self.progress.hide()
        self.status_label = QLabel()
        self.status_label.setWordWrap(True)
        self.summary_label = QLabel()
        self.summary_label.setWordWrap(True)
        self.nodes_table = _table(8)
        self.gpus_table = _table(11)
        self.checks_table = _table(6)
        self.tabs = QTabWidget()
        for t in (self.nodes_table, self.gpus_table, self.checks_table):
            self.tabs.addTab(t, "")
        # the Checks table clips long messages: the selected check in full, with what to do, below it
        self.check_detail = QTextBrowser()
        self.check_detail.setOpenLinks(False)
        self.check_detail.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse
                                                  | Qt.TextInteractionFlag.TextSelectableByKeyboard)
        self.check_detail.setMinimumHeight(60)
        self.detail_split = QSplitter(Qt.Orientation.Vertical)
        self.detail_split.addWidget(self.tabs)
        self.detail_split.addWidget(self.check_detail)
        self.detail_split.setStretchFactor(0, 3)
        self.detail_split.setStretchFactor(1, 1)
        self.detail_split.setChildrenCollapsible(False)
        # Two groups, so the page fits the window in either language (eight buttons on one row made the window's
        # minimum 1311 px): what is done for the target machine, then this computer and the reports; each wraps
        # onto a second line where the page is narrower (1024 px beside the findings: 710 px at least before)
        target_row, local_row = FlowLayout(), FlowLayout()
        for b in (self.probe_button, self.import_button, self.import_dir_button, self.handover_button):
            target_row.addWidget(b)
        for b in (self.run_button, self.cancel_button, self.remove_button, self.clear_button):
            local_row.addWidget(b)
        local_row.addWidget(self.export_button)
        box = QVBoxLayout(self.target_box)
        choose = QFormLayout()  # the node names, then how they are run, each with its label
        choose.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        choose.addRow(self.nodes_label, self.nodes_edit)
        choose.addRow(self.method_label, self.method_combo)
        command = QHBoxLayout()
        command.addWidget(self.command_view, 1)
        command.addWidget(self.copy_button, 0, Qt.AlignmentFlag.AlignTop)
        box.addLayout(choose)
        box.addLayout(command)
        box.addWidget(self.command_note)
        box.addWidget(self.node_bar)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        self.add_heading(outer)
        outer.addLayout(target_row)
        outer.addWidget(self.after_setup_box)
        outer.addWidget(self.target_box)
        outer.addLayout(local_row)
        outer.addWidget(self.progress)
        outer.addWidget(self.status_label)
        outer.addWidget(self.summary_label)
        outer.addWidget(self.detail_split, 1)
        self._connect_signals()
        self.retranslate()
        self.refresh_now()

    def _connect_signals(self) -> None:
        self.run_button.clicked.connect(self.run_here)
        self.cancel_button.clicked.connect(self.cancel)
        self.import_button.clicked.connect(self.import_reports)
        self.import_dir_button.clicked.connect(self.import_folder)
        self.probe_button.clicked.connect(self.save_probe)
        self.handover_button.clicked.connect(self.export_handover)
        self.remove_button.clicked.connect(self.remove_selected)
        self.clear_button.clicked.connect(self.clear_reports)
        self.export_button.clicked.connect(self.export_cluster_report)
        self.copy_button.clicked.connect(self.copy_command)
        self.after_setup_box.toggled.connect(lambda _on: self.update_command())
        self.nodes_edit.textChanged.connect(self._on_nodes_changed)
        self.method_combo.currentIndexChanged.connect(lambda _i: self.update_command())
        self.controller.path_changed.connect(self.update_command)
        self.nodes_table.itemSelectionChanged.connect(self._update_remove_button)
        self.checks_table.itemSelectionChanged.connect(self.show_check_detail)
        self.tabs.currentChanged.connect(lambda _i: self.show_check_detail())

    # -- language
    def retranslate(self) -> None:
        self.run_button.setText(self.tr("Run on this machine (%1)").replace("%1", _this_host()))
        self.run_button.setToolTip(self.tr("Measures this computer (%1), not the target server: use it only when "
                                           "the app runs on the machine being delivered. For the target, save "
                                           "the probe, run it there and import its output.")
                                   .replace("%1", _this_host()))
        self.cancel_button.setText(self.tr("Cancel"))
        self.after_setup_box.setText(self.tr("&Judge as after setup (tuning mismatches fail)"))
        self.after_setup_box.setToolTip(self.tr(
            "Tick once the handover's setup (host-tuning.sh, mig-create.sh) has run on the machines: a host not "
            "tuned as the plan says then fails TUNE-* and MIG-LAYOUT instead of warning (what could not be read "
            "stays unknown). Applies to the next run on this machine, to raw facts imported from now on and to "
            "the judge line below (--after-setup). Reports already attached, and reports judged elsewhere "
            "(gpu-procure verify --json), keep the verdict they were judged with."))
        self.import_button.setText(self.tr("Import reports…"))
        self.import_button.setToolTip(self.tr("Raw facts written by the probe, or reports written by "
                                              "`gpu-procure verify --json`, one per node"))
        self.import_dir_button.setText(self.tr("Import a folder…"))
        self.import_dir_button.setToolTip(self.tr("Every .json file in a folder: raw facts from the probe "
                                                  "(judged against this plan) or node reports"))
        self.probe_button.setText(self.tr("Save the probe for the target machine…"))
        self.probe_button.setToolTip(self.tr("One file that runs with the target machine's python3 (3.6 or "
                                             "newer), nothing to install: python3 gpu-procure-probe.pyz -o "
                                             "node.json"))
        self.handover_button.setText(self.tr("Handover files…"))
        self.handover_button.setToolTip(self.tr("For the nodes that passed: setup scripts (persistence mode, nouveau "
                                                "blacklist, planned power limits, dcgm-exporter), Prometheus "
                                                "targets and alert rules"))
        self.remove_button.setText(self.tr("Remove selected report"))
        self.remove_button.setToolTip(self.tr("Detach the report selected in the Nodes table from the plan "
                                              "(Undo brings it back)"))
        self.clear_button.setText(self.tr("Remove all reports"))
        self.export_button.setText(self.tr("Export cluster report…"))
        self.export_button.setToolTip(self.tr("The cluster acceptance report (PDF): every planned node and GPU with "
                                              "serial numbers and results, the failures, unknowns and the nodes "
                                              "that have not reported"))
        self.target_box.setTitle(self.tr("On the target machines"))
        self.nodes_label.setText(self.tr("Node na&mes:"))
        self.nodes_edit.setPlaceholderText(self.tr("node names, e.g. gpu[01-16] or gpu01,gpu02"))
        self.nodes_edit.setToolTip(self.tr("The machines being delivered, as pdsh and clush take them: the command "
                                           "uses them and the nodes that have not reported are named"))
        self.method_label.setText(self.tr("&Run with:"))
        for i, label in enumerate((self.tr("one machine at a time"), self.tr("ClusterShell (clush)"),
                                   self.tr("pdsh"))):
            self.method_combo.setItemText(i, label)
        self.copy_button.setText(self.tr("&Copy"))
        self.copy_button.setToolTip(self.tr("Copy these lines to the clipboard"))
        self.update_command()  # its comments and the note are in the language too
        self.tabs.setTabText(0, self.tr("Nodes"))
        self.tabs.setTabText(1, self.tr("GPUs"))
        self.tabs.setTabText(2, self.tr("Checks"))
        self.nodes_table.setHorizontalHeaderLabels([
            self.tr("Node"), self.tr("Result"), self.tr("OS"), self.tr("Driver"), self.tr("CUDA"), self.tr("GPUs"),
            self.tr("Checks (pass/fail/warn)"), self.tr("Problem")])
        self.gpus_table.setHorizontalHeaderLabels([
            self.tr("Node"), self.tr("GPU"), self.tr("Result"), self.tr("Name"), self.tr("Memory (MiB)"),
            self.tr("PCIe gen (now/max)"), self.tr("PCIe width (now/max)"), self.tr("Power limit (W)"),
            self.tr("Persistence"), self.tr("ECC"), self.tr("Temperature (°C)")])
        self.checks_table.setHorizontalHeaderLabels([
            self.tr("Node"), self.tr("Check"), self.tr("Result"), self.tr("Expected"), self.tr("Actual"),
            self.tr("Message")])

    # -- plan → widgets
    def reports(self) -> list[dict[str, Any]]:
        return self.controller.plan.verification_data()

    def refresh(self) -> None:
        reports = list(self.controller.plan.verification)  # typed reports: no dump of every one here
        self.update_command()
        self.clear_button.setEnabled(bool(reports))
        self.export_button.setEnabled(bool(reports))
        self.handover_button.setEnabled(bool(reports))
        self._fill_generation += 1
        # a few reports fill the tables at once; a cluster's worth (120 nodes make 3,000 check rows) fills in
        # slices of SLICE_S per turn of the event loop, which took 0.5-3 s in one call before
        self._pump(self._fill_generation, self._refresh_steps(reports), synchronous=len(reports) <= 16)

    SLICE_S = 0.02
    """Longest stretch of refresh work between two turns of the event loop (tests/hardening/
    test_responsive_files.py holds every gap under 0.1 s)."""

    def _pump(self, generation: int, steps: Iterator[None], synchronous: bool = False) -> None:
        """Run ``steps`` until done, SLICE_S at a time unless ``synchronous``; a newer refresh supersedes it."""
        if generation != self._fill_generation:
            return
        deadline = time.perf_counter() + self.SLICE_S
        for _ in steps:
            if not synchronous and time.perf_counter() > deadline:
                # the page is the timer's context: a page deleted meanwhile (the window closed) cancels the slice
                QTimer.singleShot(0, self, lambda: self._pump(generation, steps))
                return
        self.tables_filled.emit()

    def _refresh_steps(self, models: list[VerificationReport]) -> Iterator[None]:
        """The refresh, yielding between small pieces of work: each report's rows are made as its turn comes
        (the plan holds typed reports; the presenter reads their verdicts, checks and GPUs from the models)."""
        parsed = models
        lang, catalog = self.controller.lang, self.controller.catalog
        node_rows: list[Callable[[], list[QTableWidgetItem]]] = []
        gpu_rows: list[Callable[[], list[QTableWidgetItem]]] = []
        check_rows: list[Callable[[], list[QTableWidgetItem]]] = []
        for index, model in enumerate(models):
            # the row and its verdict come from the presenter (the report's own overall()): a node whose every
            # check was skipped verified nothing and is unknown, never a tick
            shown = node_row(index, model)
            node = shown.node or self.tr("(unknown host)")
            node_rows.append(partial(_node_cells, shown))
            for g in model.gpus:
                gpu_rows.append(partial(_gpu_row, node, g, catalog))
            for c in model.checks:
                check_rows.append(partial(_check_cells, node, c, lang))
            yield
        progress = self.update_progress(parsed)
        yield
        for n in progress.nodes if progress is not None else []:
            if n.state == "missing":
                node_rows.append(partial(_node_cells, missing_row(n.name)))
        everyone = self.tr("(all nodes)")
        for c in self.cluster_checks(parsed):
            check_rows.append(partial(_check_cells, everyone, c, lang))
        self.summary_label.setText(self.progress_text())
        yield
        for table, rows in ((self.nodes_table, node_rows), (self.gpus_table, gpu_rows),
                            (self.checks_table, check_rows)):
            table.setSortingEnabled(False)
            # no setRowCount(0) first: deleting 18,000 old cells in one call took 80 ms; each row's cells are
            # replaced as the fill reaches it
            table.setRowCount(len(rows))
            yield
            for row, make in enumerate(rows):
                for col, item in enumerate(make()):
                    table.setItem(row, col, item)
                if row % 10 == 9:
                    yield
            table.setSortingEnabled(True)
            table.resizeColumnsToContents()
            yield
        self.show_check_detail()
        self._update_remove_button()

    def _on_nodes_changed(self, text: str) -> None:
        try:
            self._names, self._names_error = expand_hostlist(text), ""
        except HostlistError as exc:
            self._names, self._names_error = [], str(exc)
        self.refresh()

    def method(self) -> str:
        return str(self.method_combo.currentData())

    def after_setup(self) -> bool:
        """Judge as of a host the handover's setup has tuned (`--after-setup`): tuning mismatches fail."""
        return self.after_setup_box.isChecked()

    def update_command(self) -> None:
        """The lines to run for the chosen way, with this plan's file, the node list and the saved probe."""
        ctl = self.controller
        text = target_commands(self.method(), ctl.plan, ctl.catalog, ctl.path, lang=ctl.lang,  # type: ignore[arg-type]
                               nodes=self.nodes_edit.text() if not self._names_error else "",
                               probe_dir=self._probe_dir, after_setup=self.after_setup())
        if self.command_view.toPlainText() != text:
            self.command_view.setPlainText(text)
        notes = []
        if self._names_error:
            notes.append(self.tr("The node names cannot be read: %1").replace("%1", self._names_error))
        if self._probe_dir is None:
            notes.append(self.tr("First save the probe (and the plan) for the target machine."))
        if ctl.path is None:
            notes.append(self.tr("Save the plan to put its path in the judge line."))
        notes.append(self.tr("Afterwards import the .json files with “Import reports…”, or the reports folder with "
                             "“Import a folder…”: each node is judged against this plan."))
        self.command_note.setText(("" if ctl.lang == "zh" else " ").join(notes))

    def copy_command(self) -> None:
        QGuiApplication.clipboard().setText(self.command_view.toPlainText())
        self.status_label.setText(self.tr("Copied the commands to the clipboard."))

    def parsed_reports(self, reports: list[dict[str, Any]]) -> list[VerificationReport]:
        """The attached reports as models, once per refresh (a thousand nodes take a while to validate)."""
        parsed = []
        for r in reports:
            try:
                parsed.append(parse_report(r))
            except ValueError:
                continue
        return parsed

    def update_progress(self, parsed: list[VerificationReport]) -> ClusterProgress | None:
        """Planned nodes reported / passed / failed / unknown / missing, in the bar and the summary line."""
        progress = cluster_progress(parsed, self.controller.plan, self._names)
        self.progress_state = progress
        expected = max(progress.expected, len(self._names))
        self.node_bar.setRange(0, max(expected, 1))
        self.node_bar.setValue(min(progress.received, max(expected, 1)))
        self.node_bar.setFormat(self.tr("%1 of %2 planned nodes reported").replace("%1", str(progress.received))
                                .replace("%2", str(expected)))
        return progress

    def progress_text(self) -> str:
        p = self.progress_state
        if p is None or not p.received:
            return self.tr("No verification report attached yet.")
        values = {"%1": p.received, "%2": max(p.expected, len(self._names)),
                  "%3": sum(len(n.report.gpus) for n in p.nodes if n.report is not None),
                  "%4": p.count("pass"), "%5": p.count("warn"), "%6": p.count("fail"), "%7": p.count("unknown")}
        text = self.tr("%1 of %2 planned nodes reported, %3 GPUs: ✔ %4 passed, ⚠ %5 with warnings, ✘ %6 failed, "
                       "? %7 unknown.")
        for key in sorted(values, reverse=True):
            text = text.replace(key, str(values[key]))
        if p.missing:
            names = p.missing_names
            shown = ", ".join(names[:12]) + (f" (+{len(names) - 12})" if len(names) > 12 else "")
            if not names:
                text += " " + self.tr("Planned nodes without a report yet: %1.").replace("%1", str(p.missing))
            elif p.missing > len(names):  # the list names fewer nodes than the plan buys
                text += " " + (self.tr("No report yet from: %1, and %2 more planned nodes the list does not name.")
                               .replace("%1", shown).replace("%2", str(p.missing - len(names))))
            else:
                text += " " + self.tr("No report yet from: %1.").replace("%1", shown)
        if p.unexpected:
            text += " " + self.tr("Not in the node list: %1.").replace("%1", ", ".join(p.unexpected[:12]))
        if p.complete() and not p.unexpected:
            text += " " + self.tr("Every planned node reported and passed.")
        return text

    def show_check_detail(self) -> None:
        """The selected check in full: node, result, expected, actual and its message (what to do)."""
        rows = sorted({i.row() for i in self.checks_table.selectedIndexes()})
        item = self.checks_table.item(rows[0], 0) if rows else None
        detail = item.data(Qt.ItemDataRole.UserRole) if item is not None else None
        if not isinstance(detail, dict):
            self.check_detail.setPlainText(
                self.tr("Select a check in the Checks tab to read its full message, the expected and actual "
                        "values and what to do.") if self.controller.plan.verification else "")
            return
        status = detail["status"] or "skip"
        esc = html.escape
        # the labels outside the f-string: lupdate does not read self.tr() inside one, so "Message and what
        # to do" stayed English in the Chinese UI
        expected, actual, message = self.tr("Expected"), self.tr("Actual"), self.tr("Message and what to do")
        self.check_detail.setHtml(
            f"<p><b>{esc(detail['id'])}</b> · {esc(detail['node'])} · "
            f"<span style='color:{COLORS.get(status, QColor('#757575')).name()}'>"
            f"{esc(MARKS.get(status, '?'))} {esc(_status_word(status))}</span></p>"
            f"<p><b>{esc(expected)}:</b> {esc(_text(detail['expected']))}<br>"
            f"<b>{esc(actual)}:</b> {esc(_text(detail['actual']))}</p>"
            f"<p><b>{esc(message)}:</b><br>"
            f"{esc(detail['message'] or '—').replace(chr(10), '<br>')}</p>")

    def cluster_checks(self, parsed: list[VerificationReport]) -> list[CheckRecord]:
        """The verify module's cluster-level checks (node count against the plan, duplicates, consistency)."""
        if not parsed:
            return []
        return merge_reports(parsed, self.controller.plan, self.controller.lang).checks

    # -- actions
    def attach(self, new: list[dict[str, Any]], text: str) -> None:
        """Attach reports to the plan (one undo step); a report already attached is replaced."""
        try:
            self.controller.replace_plan(with_reports(self.controller.plan, new), text)
        except PlanError as exc:
            workers.show_error(self, self.tr("Verification"), str(exc))

    def run_here(self) -> None:
        if self.job is not None and self.job.is_running():
            return
        plan, catalog, lang = self.controller.plan, self.controller.catalog, self.controller.lang
        runner, after_setup = self._runner, self.after_setup()
        self.job = workers.Job(lambda progress, cancelled: runner(plan, catalog, lang, progress, cancelled,
                                                                  after_setup))
        self.job.progress.connect(self._on_progress)
        self.job.succeeded.connect(self._on_report)
        self.job.failed.connect(self._on_failed)
        self.job.cancelled.connect(self._on_cancelled)
        self.job.finished.connect(self._on_finished)
        self.run_button.setEnabled(False)
        self.cancel_button.setEnabled(True)
        self.progress.setValue(0)
        self.progress.show()
        self.status_label.setText(self.tr("Probing this machine…"))
        self.job.start()

    def cancel(self) -> None:
        if self.job is not None:
            self.job.cancel()
            self.status_label.setText(self.tr("Cancelling…"))

    def _on_progress(self, percent: int, text: str) -> None:
        self.progress.setValue(percent)
        if text:
            self.status_label.setText(text)

    def _on_report(self, report: object) -> None:
        assert isinstance(report, dict)
        host = (report.get("host") or {}).get("hostname") or _this_host()
        why = not_target(report, self.controller.plan)
        if why is not None and not workers.ask_yes_no(
                self, self.tr("Attach a report from another machine?"),
                self.tr("%1 does not look like the machine this plan buys: %2\n\nAttaching its report puts this "
                        "computer's measurements in the plan, its checklist and the signed PDF. Attach it "
                        "anyway?").replace("%1", host).replace("%2", self._why_text(why))):
            self.status_label.setText(self.tr("Not attached: the report of %1 was discarded (%2).")
                                      .replace("%1", host).replace("%2", self._why_text(why)))
            return
        self.attach([report], self.tr("Verify this machine"))
        err = report.get("error")
        self.status_label.setText(self.tr("Could not verify this machine: %1").replace("%1", err) if err
                                  else self.tr("This machine has been verified; the report is attached."))

    def _why_text(self, why: NotTarget) -> str:
        if why.kind == "no_gpus":
            return self.tr("it has no NVIDIA GPU")
        part = self.controller.catalog.gpu(why.planned)
        return (self.tr("its GPUs are %1, the plan buys %2").replace("%1", ", ".join(why.found))
                .replace("%2", part.name if part is not None else str(why.planned)))

    def _on_failed(self, message: str) -> None:
        self.status_label.setText(self.tr("Verification failed: %1").replace("%1", message))

    def _on_cancelled(self) -> None:
        self.status_label.setText(self.tr("Verification cancelled; nothing was attached."))

    def _on_finished(self) -> None:
        self.run_button.setEnabled(True)
        self.cancel_button.setEnabled(False)
        self.progress.hide()
        self.work_done.emit()

    def import_reports(self) -> None:
        paths = workers.ask_open_paths(self, self.tr("Import verification reports"),
                                       self.tr("Verification reports (*.json);;All files (*)"))
        if paths:
            self._import_paths(paths)

    def import_folder(self) -> None:
        folder = workers.ask_directory(self, self.tr("Import a folder of reports"))
        if folder is not None:
            self._import_paths(expand([folder]))

    def save_probe(self) -> None:
        folder = workers.ask_directory(self, self.tr("Save the probe for the target machine"))
        if folder is None:
            return
        plan_name = self.controller.path.name if self.controller.path is not None else f"plan{PLAN_SUFFIXES[-1]}"
        try:
            path = write_pyz(folder)
            plan_copy = folder / plan_name
            if self.controller.path is None or not _same_place(plan_copy, self.controller.path):
                save_plan(self.controller.plan, plan_copy)
        except OSError as exc:
            workers.show_error(self, self.tr("Save the probe for the target machine"),
                               f"{folder}: {exc.strerror or exc}")
            return
        self._probe_dir = folder
        self.update_command()
        self.status_label.setText(self.tr("Saved %1 (%2 KB) and the plan %3. On each target machine run: python3 "
                                          "gpu-procure-probe.pyz -o $(hostname).json — then import the files here.")
                                  .replace("%1", str(path)).replace("%2", f"{path.stat().st_size / 1024:.0f}")
                                  .replace("%3", plan_name))

    def export_cluster_report(self) -> workers.Job | None:
        """The cluster acceptance report (PDF) of the attached reports, in a worker (as `judge --pdf`)."""
        from procurement.probe.cluster_pdf import render_cluster_pdf
        from procurement.reports import safe_filename
        from procurement.terminal import clean_text
        from procurement.verify.merge import merge_reports as merge

        ctl = self.controller
        reports = []
        for r in self.reports():
            try:
                reports.append(parse_report(r))
            except ValueError:
                continue
        plan, catalog, lang, names = ctl.plan, ctl.catalog, ctl.lang, list(self._names)
        stem = self.tr("cluster-acceptance") + (f"-{clean_text(plan.title)}" if plan.title.strip() else "")

        def render() -> bytes:
            return render_cluster_pdf(merge(reports, plan, lang), plan, catalog, names=names, lang=lang)

        job = workers.start_export(self, self.tr("Export cluster report"), Path(safe_filename(stem)), render,
                                   lang, self.status_label, self.export_button, self.work_done)
        if job is not None:
            self.export_job = job
        return job

    def export_handover(self) -> None:
        """Write the handover of the attached reports' accepted nodes (as `gpu-procure handover`)."""
        title = self.tr("Handover files")
        ctl = self.controller
        nodes = []
        for i, r in enumerate(self.reports()):
            try:
                rep = parse_report(r)
            except ValueError:
                continue
            nodes.append(NodeFacts(rep, f"node{i + 1}"))
        result = build_handover(nodes, ctl.plan, ctl.catalog, ctl.policy)
        left_out = "\n".join(f"{name}: {why}" for name, why in result.rejected)
        if not result.accepted:
            workers.show_error(self, title, self.tr("No node passed acceptance against this plan:") + "\n" + left_out)
            return
        folder = workers.ask_directory(self, title)
        if folder is None:
            return
        result.files["README.txt"] = handover_summary(result, ctl.lang)
        try:
            write_handover(folder, result.files, force=False)
        except OSError as exc:
            workers.show_error(self, title, f"{folder}: {exc.strerror or exc}")
            return
        text = (self.tr("Handover for the accepted node written to %1.") if len(result.accepted) == 1 else
                self.tr("Handover for %2 accepted nodes written to %1.").replace("%2", str(len(result.accepted))))
        text = text.replace("%1", str(folder))
        if left_out:
            text += " " + self.tr("Left out:") + " " + left_out.replace("\n", "; ")
        self.status_label.setText(text)

    def _import_paths(self, paths: list[Path]) -> None:
        plan, catalog, lang = self.controller.plan, self.controller.catalog, self.controller.lang
        after_setup = self.after_setup()

        def read_all(progress: workers.Progress) -> tuple[list[dict[str, Any]], list[str], Plan | str | None]:
            good: list[dict[str, Any]] = []
            problems: list[str] = []
            with cyclic_gc_paused():  # many nodes: see procurement.probe.nodes
                for i, path in enumerate(paths):
                    progress(round(100 * i / len(paths)), path.name)
                    try:
                        good.append(read_node_file(path, plan, catalog, lang, after_setup))
                    except ValueError as exc:
                        problems.append(str(exc))
                # the plan with them attached, validated here too: 120 reports took 0.1 s on the GUI thread
                try:
                    after: Plan | str | None = with_reports(plan, good) if good else None
                except PlanError as exc:
                    after = str(exc)
            return good, problems, after

        # reading and judging hundreds of node files takes seconds: in a worker, the window painting meanwhile
        self.progress.setValue(0)
        self.progress.show()
        self.status_label.setText(self.tr("Importing %n report(s)…", "", len(paths)))
        try:
            good, problems, after = workers.run_waiting(read_all, self._on_progress)
        finally:
            self.progress.hide()
        if isinstance(after, Plan):
            self.controller.replace_plan(after, self.tr("Import %n report(s)", "", len(good)))
        elif after is not None:
            workers.show_error(self, self.tr("Verification"), after)
            good = []
        if problems:
            workers.show_error(self, self.tr("Import verification reports"),
                               self.tr("These files were not imported:") + "\n" + "\n".join(problems))
        self.status_label.setText(self.tr("Imported %n report(s).", "", len(good)))

    def selected_report_indexes(self) -> list[int]:
        rows = {i.row() for i in self.nodes_table.selectedIndexes()}
        out = []
        for row in rows:
            item = self.nodes_table.item(row, 0)
            if item is not None and isinstance(item.data(Qt.ItemDataRole.UserRole), int):
                out.append(item.data(Qt.ItemDataRole.UserRole))
        return sorted(out)

    def _update_remove_button(self) -> None:
        self.remove_button.setEnabled(bool(self.selected_report_indexes()))

    def remove_selected(self) -> None:
        """Detach the reports selected in the Nodes table (one undo step)."""
        drop = set(self.selected_report_indexes())
        if not drop:
            return
        kept = [r for i, r in enumerate(self.reports()) if i not in drop]
        self.controller.set_value("verification", kept,
                                  text=self.tr("Remove %n verification report(s)", "", len(drop)))

    def clear_reports(self) -> None:
        if self.controller.plan.verification:
            self.controller.set_value("verification", [], text=self.tr("Remove verification reports"))

    def focus_field(self, path: str) -> bool:
        if path.startswith("verification"):
            self.tabs.setFocus()
            return True
        return False


def _same_place(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve()
    except OSError:
        return False


def _this_host() -> str:
    return QSysInfo.machineHostName() or "localhost"


def _table(columns: int) -> QTableWidget:
    t = QTableWidget(0, columns)
    t.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    t.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    t.verticalHeader().hide()
    t.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
    t.horizontalHeader().setStretchLastSection(True)
    # column widths from the first 100 rows, not every row: 3,000 check rows took 0.2 s to measure
    t.horizontalHeader().setResizeContentsPrecision(100)
    return t


def _field(record: Any, name: str) -> Any:
    """A field of a check or GPU, whether a validated model or a stored dict that did not validate."""
    return record.get(name) if isinstance(record, dict) else getattr(record, name, None)


def _check_cells(node: str, check: Any, lang: Lang) -> list[QTableWidgetItem]:
    expected, actual = values_of(check, lang)  # in the reader's language
    return _check_row(node, str(_field(check, "id") or ""), _field(check, "status"), expected, actual,
                      message_of(check, lang))


def _node_cells(row: NodeRow) -> list[QTableWidgetItem]:
    """The presenter's node row as table cells; the first keeps the report's index, whatever the sort."""
    node_item = QTableWidgetItem(row.node or translate("VerifyPage", "(unknown host)"))
    if row.index is not None:
        node_item.setData(Qt.ItemDataRole.UserRole, row.index)
    if row.problem == "missing":
        return [node_item, _status_item(row.verdict), *(QTableWidgetItem("") for _ in range(5)),
                QTableWidgetItem(translate("VerifyPage", "no report from this node yet"))]
    problem = (translate("VerifyPage", "every check was skipped: nothing was verified")
               if row.problem == "nothing_verified" else row.detail)
    return [node_item, _status_item(row.verdict), QTableWidgetItem(_text(row.os)),
            QTableWidgetItem(_text(row.driver)), QTableWidgetItem(_text(row.cuda)), QTableWidgetItem(str(row.gpus)),
            QTableWidgetItem("/".join(str(n) for n in row.counts)), QTableWidgetItem(problem)]


def _gpu_row(node: str, g: Any, catalog: Catalog) -> list[QTableWidgetItem]:
    mark, why = gpu_status(g, catalog)
    status = _status_item(mark)
    status.setToolTip(why)
    return [QTableWidgetItem(node), _num_item(int(_field(g, "index") or 0)), status,
            QTableWidgetItem(_text(_field(g, "name"))), _num_item(_field(g, "memory_total_mib")),
            QTableWidgetItem(f"{_text(_field(g, 'pcie_gen_current'))}/{_text(_field(g, 'pcie_gen_max'))}"),
            QTableWidgetItem(f"x{_text(_field(g, 'pcie_width_current'))}/x{_text(_field(g, 'pcie_width_max'))}"),
            _num_item(_field(g, "power_limit_w")), QTableWidgetItem(_text(_field(g, "persistence_mode"))),
            QTableWidgetItem(_text(_field(g, "ecc_enabled"))), _num_item(_field(g, "temperature_c"))]


def _check_row(node: str, check_id: str, status: str | None, expected: Any, actual: Any,
               message: str) -> list[QTableWidgetItem]:
    """A row of the Checks table; cells that may be cut off carry their full text as a tooltip and the
    row's first cell the whole check for the detail pane."""
    first = QTableWidgetItem(node)
    first.setData(Qt.ItemDataRole.UserRole, {"node": node, "id": check_id, "status": status,
                                             "expected": expected, "actual": actual, "message": message})
    cells = [first, QTableWidgetItem(check_id), _status_item(status), QTableWidgetItem(_text(expected)),
             QTableWidgetItem(_text(actual)), QTableWidgetItem(message)]
    for cell in (cells[3], cells[4], cells[5]):
        cell.setToolTip(cell.text())
    return cells


def _num_item(value: Any) -> QTableWidgetItem:
    item = QTableWidgetItem()
    if value is None:
        item.setText("—")
    else:
        item.setData(Qt.ItemDataRole.DisplayRole, value)  # sorts as a number
    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
    return item


def _append(table: QTableWidget, items: list[QTableWidgetItem]) -> None:
    row = table.rowCount()
    table.insertRow(row)
    for col, item in enumerate(items):
        table.setItem(row, col, item)

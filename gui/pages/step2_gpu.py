"""Step 2 GPU选型: the ranked, filterable, sortable GPU table with the reasons of each rank; pick a model and a
count; compare two or three side by side."""

from __future__ import annotations

import html
import time
from typing import Any

from PySide6.QtCore import QItemSelectionModel, Qt, QTimer
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from catalog.models import Gpu
from gui.controller import PlanController
from gui.numbers import integer, number
from gui.pages import step_heading
from gui.pages.base import StepPage
from gui.sizing_bridge import GpuRow, gpu_rows
from gui.widgets.money import short_amount
from gui.widgets.spin import SpinBox, show_suffix, show_value
from procurement.mig import mig_summary
from procurement.plan import with_value

GPU_ROLE = Qt.ItemDataRole.UserRole + 1
COLUMNS = ("rank", "name", "memory", "fp16", "fp64", "tdp", "price", "per_gib", "per_tflops", "fits")
# widest each column may get (pixels), so that at 1280 × 800 with the findings dock every column shows
# without a sideways scroll bar; the reasons of a row are in full in the pane under the table
COLUMN_MAX_W = {"rank": 46, "name": 132, "memory": 56, "fp16": 62, "fp64": 56, "tdp": 50, "price": 72,
                "per_gib": 62, "per_tflops": 70, "fits": 86}
ALL_FORMS = ""
"""The form-factor filter's "all" entry."""
SORTS = (("rank", Qt.SortOrder.AscendingOrder), ("price", Qt.SortOrder.AscendingOrder),
         ("per_gib", Qt.SortOrder.AscendingOrder), ("per_tflops", Qt.SortOrder.AscendingOrder),
         ("memory", Qt.SortOrder.DescendingOrder), ("fp16", Qt.SortOrder.DescendingOrder),
         ("tdp", Qt.SortOrder.AscendingOrder))
"""The "Sort by" choices (column, order): the keyboard's way to what a click on a column heading does."""
RANK_BUDGET_S = 0.1
"""A ranking that took longer than this (it evaluates the plan once per GPU) is not redone on every change that
follows another within ``TYPING_GAP_MS``: it waits until the changes stop."""
TYPING_GAP_MS = 300
EXCLUDED_COLOUR = "#9e9e9e"


def cost_per(price: float | None, amount: float | None) -> float | None:
    """CNY per unit of ``amount`` (GiB of memory, FP16 TFLOPS); unknown when either is unknown or zero —
    an unpriced card is never "free"."""
    if price is None or not amount:
        return None
    return price / amount


class SortItem(QTableWidgetItem):
    """A cell that sorts by a number while showing formatted text; unknown values sort last in either
    direction (an unpriced GPU never sorts as the cheapest, nor as the dearest)."""

    def __init__(self, text: str, key: float | None) -> None:
        super().__init__(text)
        self.key = key

    def __lt__(self, other: QTableWidgetItem) -> bool:
        if not isinstance(other, SortItem):
            return super().__lt__(other)
        table = self.tableWidget()
        descending = table is not None and \
            table.horizontalHeader().sortIndicatorOrder() == Qt.SortOrder.DescendingOrder
        if self.key is None or other.key is None:
            # Qt shows a descending sort by reversing "<": flip the unknown's answer so it stays at the bottom
            last = self.key is None and other.key is not None
            first = other.key is None and self.key is not None
            return last if descending else first
        return self.key < other.key


class GpuPage(StepPage):
    step = 2

    def __init__(self, controller: PlanController, parent: QWidget | None = None) -> None:
        super().__init__(controller, parent)
        self.rows: list[GpuRow] = []
        self._table_key: object = None
        self._rows_key: object = None
        """The plan without its GPU choice and the language the rows were ranked for (the ranking tries every
        GPU with its own count, so choosing a GPU or typing its count never re-ranks)."""
        self._rank_cost_s = 0.0
        self._ranked_at = -1e9
        self.rankings = 0
        """How many times the table was ranked (the debounce's test reads it)."""
        self.rank_timer = QTimer(self)
        self.rank_timer.setSingleShot(True)
        self.rank_timer.setInterval(TYPING_GAP_MS)
        self.heading = QLabel(self)
        self.choice_box = QGroupBox(self)
        self.model_label = QLabel(self)
        self.model_combo = QComboBox(self)
        self.model_combo.setObjectName("gpuModel")
        self.model_combo.setMinimumContentsLength(24)
        self.model_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.model_label.setBuddy(self.model_combo)
        self.count_label = QLabel(self)
        self.count_spin = SpinBox(self)
        self.count_spin.setObjectName("gpuCount")
        self.count_spin.setRange(0, 10_000)
        self.count_label.setBuddy(self.count_spin)
        self.summary = QLabel(self)
        self.summary.setObjectName("gpuSummary")
        self.summary.setWordWrap(True)
        cl = QHBoxLayout()
        cl.addWidget(self.model_label)
        cl.addWidget(self.model_combo, 2)
        cl.addWidget(self.count_label)
        cl.addWidget(self.count_spin)
        box_layout = QVBoxLayout(self.choice_box)
        box_layout.addLayout(cl)
        box_layout.addWidget(self.summary)
        self.bind_field("gpu.model", self.model_combo)
        self.bind_field("gpu.count", self.count_spin)

        # filters: they hide rows, never re-rank them
        self.priced_only = QCheckBox(self)
        self.priced_only.setObjectName("gpuPricedOnly")
        self.form_label = QLabel(self)
        self.form_combo = QComboBox(self)
        self.form_combo.setObjectName("gpuFormFactor")
        self.form_label.setBuddy(self.form_combo)
        self.within_budget = QCheckBox(self)
        self.within_budget.setObjectName("gpuWithinBudget")
        self.shown_label = QLabel(self)
        self.shown_label.setObjectName("gpuShown")
        self.sort_label = QLabel(self)
        self.sort_combo = QComboBox(self)
        self.sort_combo.setObjectName("gpuSort")
        self.sort_label.setBuddy(self.sort_combo)
        # two rows: the filters, then the order and the count shown; in one row they made the page 715 px wide
        # at least, past the window at 1024 × 768 with the findings beside it
        filters = QHBoxLayout()
        filters.addWidget(self.priced_only)
        filters.addSpacing(12)
        filters.addWidget(self.form_label)
        filters.addWidget(self.form_combo)
        filters.addSpacing(12)
        filters.addWidget(self.within_budget)
        filters.addStretch(1)
        order = QHBoxLayout()
        order.addWidget(self.sort_label)
        order.addWidget(self.sort_combo)
        order.addStretch(1)
        order.addWidget(self.shown_label)
        fl = QVBoxLayout()
        fl.addLayout(filters)
        fl.addLayout(order)

        self.table = QTableWidget(0, len(COLUMNS), self)
        self.table.setObjectName("gpuTable")
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSortingEnabled(True)
        self.table.verticalHeader().setVisible(False)
        self.table.setWordWrap(True)  # names wrap in two-line rows; the tooltip has it all
        self.table.verticalHeader().setDefaultSectionSize(2 * self.fontMetrics().lineSpacing() + 8)
        header = self.table.horizontalHeader()
        # sized once per fill (resizeColumnToContents): ResizeToContents would re-measure every cell per change
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        header.setMinimumSectionSize(36)
        header.setSortIndicator(0, Qt.SortOrder.AscendingOrder)  # best-ranked first
        self.rank_rule = QLabel(self)
        self.rank_rule.setObjectName("gpuRankRule")
        self.rank_rule.setWordWrap(True)
        self.use_button = QPushButton(self)
        self.use_button.setObjectName("useGpu")
        self.details = QLabel(self)
        self.details.setObjectName("gpuReasons")
        self.details.setWordWrap(True)
        self.details.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.hint = QLabel(self)
        self.hint.setWordWrap(True)
        self.compare = QTableWidget(0, 0, self)
        self.compare.setObjectName("gpuCompare")
        self.compare.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.compare.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.compare.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)

        # the ranking and the comparison each get the page's whole height, one tab each: at 1280 × 800 the
        # old splitter left the comparison two rows high unless the buyer dragged it
        ranking = QWidget(self)
        tl = QVBoxLayout(ranking)
        tl.addWidget(self.table, 1)
        bl = QHBoxLayout()
        bl.addWidget(self.details, 1)
        bl.addWidget(self.use_button, 0, Qt.AlignmentFlag.AlignTop)
        tl.addLayout(bl)
        tl.addWidget(self.rank_rule)
        comparing = QWidget(self)
        cbl = QVBoxLayout(comparing)
        cbl.addWidget(self.hint)
        cbl.addWidget(self.compare, 1)
        self.tabs = QTabWidget(self)
        self.tabs.setObjectName("gpuTabs")
        self.tabs.addTab(ranking, "")
        self.tabs.addTab(comparing, "")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.heading)
        layout.addWidget(self.choice_box)
        layout.addLayout(fl)
        layout.addWidget(self.tabs, 1)
        self._connect_signals()
        self.retranslate()
        self.refresh_now()

    def _connect_signals(self) -> None:
        self.model_combo.currentIndexChanged.connect(self._model_chosen)
        self.count_spin.valueChanged.connect(lambda v: self.edit("gpu.count", v, merge=True))
        self.table.itemSelectionChanged.connect(self._selection_changed)
        self.table.itemDoubleClicked.connect(lambda _item: self.use_selected())
        self.use_button.clicked.connect(self.use_selected)
        self.priced_only.toggled.connect(self.apply_filters)
        self.form_combo.currentIndexChanged.connect(self.apply_filters)
        self.within_budget.toggled.connect(self.apply_filters)
        self.table.horizontalHeader().sortIndicatorChanged.connect(self._sorted)
        self.sort_combo.currentIndexChanged.connect(self._sort_chosen)
        self.controller.findings_changed.connect(self.when_on_screen(self._fill_summary))
        self.rank_timer.timeout.connect(self._rank_when_typing_stopped)

    # ------------------------------------------------------------------ text
    def headers(self) -> list[str]:
        # two-line headers keep the numeric columns narrow enough for every column at 1280 px
        return [
            self.tr("Rank"),
            self.tr("GPU"),
            self.tr("Memory\n(GiB)"),
            self.tr("FP16\nTFLOPS"),
            self.tr("FP64\nTFLOPS"),
            self.tr("TDP\n(W)"),
            self.tr("Price\n(CNY)"),
            self.tr("CNY per\nGiB"),
            self.tr("CNY per\nTFLOPS"),
            self.tr("Fits\nwith"),
        ]

    def ranking_rule(self) -> str:
        """How procurement.sizing.recommend orders the table (its sort key, in words)."""
        return self.tr("Ranked by: holds the memory estimate → known to be within the budget → suits the "
                       "usage → suits the budget class → most FP16 TFLOPS per 10,000 CNY → fewest GPUs. "
                       "GPUs the rules exclude for this plan (✕: an error, the GeForce licence in a data centre, "
                       "export control, too many open-air cards) come after the others. "
                       "Click a column to sort by it; unknown values sort last.")

    def retranslate(self) -> None:
        self.heading.setText(f"<h2>{step_heading(2, self.controller.lang)}</h2>")
        self.choice_box.setTitle(self.tr("Your choice"))
        self.model_label.setText(self.tr("&GPU model:"))
        self.count_label.setText(self.tr("&Count:"))
        self.count_spin.setSuffix(self.tr(" GPUs"))
        self.use_button.setText(self.tr("&Use the selected GPU"))
        self.use_button.setToolTip(self.tr("Or double-click a row, or press Enter on it"))
        self.priced_only.setText(self.tr("&Priced only"))
        self.priced_only.setToolTip(self.tr("Hide GPUs without a reference price (on request)"))
        self.form_label.setText(self.tr("Form fac&tor:"))
        self.within_budget.setText(self.tr("Within &budget"))
        self.sort_label.setText(self.tr("S&ort by:"))
        self.sort_combo.setToolTip(self.tr("↑ lowest first, ↓ highest first (or click a column heading); unknown "
                                           "values sort last"))
        names = {"rank": self.tr("Rank"), "price": self.tr("Price ↑"), "per_gib": self.tr("CNY per GiB ↑"),
                 "per_tflops": self.tr("CNY per TFLOPS ↑"), "memory": self.tr("Memory ↓"),
                 "fp16": self.tr("FP16 TFLOPS ↓"), "tdp": self.tr("TDP ↑")}
        blocked = self.sort_combo.blockSignals(True)
        index = self.sort_combo.currentIndex()
        self.sort_combo.clear()
        for column, _order in SORTS:
            self.sort_combo.addItem(names[column], column)
        self.sort_combo.setCurrentIndex(max(index, 0))
        self.sort_combo.blockSignals(blocked)
        self.tabs.setTabText(0, self.tr("Ranking"))
        self.hint.setText(self.tr("Select two or three rows in the Ranking tab (Ctrl+click, or Shift+arrows) to "
                                  "compare them side by side here."))
        self.rank_rule.setText(self.ranking_rule())
        self.table.setHorizontalHeaderLabels(self.headers())
        tips = {"rank": self.ranking_rule(),
                "fp16": self.tr("Dense FP16/BF16 tensor TFLOPS"),
                "per_gib": self.tr("Reference price per GiB of GPU memory (CNY, excl. VAT); unpriced GPUs sort "
                                   "last"),
                "per_tflops": self.tr("Reference price per dense FP16 tensor TFLOPS (CNY, excl. VAT); unpriced "
                                      "GPUs sort last"),
                "fits": self.tr("GPUs of this model the memory estimate needs for the whole plan; per server when "
                                "the plan has several servers")}
        for key, tip in tips.items():
            head = self.table.horizontalHeaderItem(COLUMNS.index(key))
            if head is not None:
                head.setToolTip(tip)
        self._fill_forms()
        self._update_filter_state()
        self._update_compare_tab()

    # ------------------------------------------------------------------ plan → widgets
    def _ranking_key(self) -> object:
        plan = self.controller.plan
        return (plan.model_copy(update={"gpu": plan.gpu.model_copy(update={"model": None, "count": 0})}),
                self.controller.lang)

    def _rank(self) -> None:
        """Rank every GPU for the plan (procurement.choices through the sizing bridge)."""
        started = time.monotonic()
        self.rows = gpu_rows(self.controller.plan, self.controller.catalog, self.controller.policy,
                             self.controller.lang)
        self._ranked_at = time.monotonic()
        self._rank_cost_s = self._ranked_at - started
        self._rows_key = self._ranking_key()
        self.rankings += 1

    def ranking_pending(self) -> bool:
        """The table shows the ranking of an earlier plan until the changes stop (see RANK_BUDGET_S)."""
        return self.rank_timer.isActive()

    def _rank_when_typing_stopped(self) -> None:
        if self._rows_key != self._ranking_key():
            self._rank()
        self.refresh_now()

    def refresh(self) -> None:
        plan = self.controller.plan
        if self._rows_key != self._ranking_key():
            typing = (time.monotonic() - self._ranked_at) * 1000 < TYPING_GAP_MS
            if self.rows and self._rank_cost_s > RANK_BUDGET_S and (typing or self.rank_timer.isActive()):
                self.rank_timer.start()  # another change follows the last: rank once they stop
            else:
                self.rank_timer.stop()
                self._rank()
        self.model_combo.clear()
        self.model_combo.addItem(self.tr("(none chosen)"), "")
        for row in self.rows:
            self.model_combo.addItem(row.gpu.name, row.gpu.id)
        index = self.model_combo.findData(plan.gpu.model or "")
        self.model_combo.setCurrentIndex(max(index, 0))
        show_value(self.count_spin, plan.gpu.count)
        show_suffix(self.count_spin, self.tr(" GPUs per server") if plan.requirements.nodes > 1
                    else self.tr(" GPUs"))
        self._fill_forms()
        self._fill_table()
        self._update_filter_state()
        self._fill_summary()

    def _fill_forms(self) -> None:
        forms = sorted({g.form_factor.value for g in self.controller.catalog.all(Gpu)})
        current = self.form_combo.currentData() or ALL_FORMS
        blocked = self.form_combo.blockSignals(True)
        self.form_combo.clear()
        self.form_combo.addItem(self.tr("All"), ALL_FORMS)
        for form in forms:
            self.form_combo.addItem(form.upper(), form)
        self.form_combo.setCurrentIndex(max(self.form_combo.findData(current), 0))
        self.form_combo.blockSignals(blocked)

    def _update_filter_state(self) -> None:
        has_budget = self.controller.plan.requirements.budget_cny is not None
        self.within_budget.setEnabled(has_budget)
        self.within_budget.setToolTip(
            self.tr("Only GPUs whose count for this plan is known to cost no more than the budget (GPUs alone, "
                    "incl. VAT); unpriced GPUs are not known to be within it") if has_budget else
            self.tr("Set a budget in step 1 to filter by it"))
        if not has_budget and self.within_budget.isChecked():
            self.within_budget.setChecked(False)  # toggled → apply_filters

    def _fill_table(self) -> None:
        chosen = self.controller.plan.gpu.model
        nodes = self.controller.plan.requirements.nodes
        key = (chosen, self.tr("no price"), nodes,
               tuple((r.gpu, r.rank, r.fits_count, r.within_budget, tuple(r.reasons), r.exclusion, r.priced)
                     for r in self.rows))
        if key == self._table_key:  # most edits do not change the ranking: keep the table (and its selection)
            return
        self._table_key = key
        selected = set(self.selected_ids())
        self.table.setUpdatesEnabled(False)
        self.table.setSortingEnabled(False)
        self.table.setRowCount(len(self.rows))
        no_price = self.tr("no price")
        excluded_lead = self.tr("Excluded by the rules for this plan:")
        grey = QBrush(QColor(EXCLUDED_COLOUR))
        for r, row in enumerate(self.rows):
            g = row.gpu
            per_gib = cost_per(g.price_cny, g.memory_gib)
            per_tflops = cost_per(g.price_cny, g.fp16_tensor_tflops)
            mark = "✕ " if row.excluded_by else ""
            cells: list[tuple[str, float | None]] = [
                (integer(row.rank), row.rank),
                (mark + g.name + ("  ✔" if g.id == chosen else ""), None),
                (number(g.memory_gib), g.memory_gib),
                (number(g.fp16_tensor_tflops, 1), g.fp16_tensor_tflops),
                (number(g.fp64_tflops, 2), g.fp64_tflops),
                (number(g.tdp_w), g.tdp_w),
                (number(g.price_cny) if g.price_cny is not None else no_price, g.price_cny),
                (number(per_gib), per_gib),
                (number(per_tflops), per_tflops),
                (self._fits_text(row.fits_count, nodes), row.fits_count),
            ]
            for c, (text, sort_key) in enumerate(cells):
                item = SortItem(text, sort_key) if c != 1 else QTableWidgetItem(text)
                item.setData(GPU_ROLE, g.id)
                if c != 1:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                if c == 1:
                    item.setToolTip((f"{excluded_lead}\n{row.exclusion}\n\n" if row.excluded_by else "")
                                    + f"{g.vendor} · {g.architecture} · {g.memory_type}\n{g.source}\n\n"
                                    + "\n".join(row.reasons))
                elif row.excluded_by:
                    item.setToolTip(f"{excluded_lead}\n{row.exclusion}")
                if row.excluded_by:
                    item.setForeground(grey)
                self.table.setItem(r, c, item)
        self.table.setSortingEnabled(True)
        self._fit_columns()
        if selected:
            self.table.blockSignals(True)
            model, sel = self.table.model(), self.table.selectionModel()
            flags = QItemSelectionModel.SelectionFlag.Select | QItemSelectionModel.SelectionFlag.Rows
            for r in range(self.table.rowCount()):
                cell = self.table.item(r, 0)
                if cell is not None and cell.data(GPU_ROLE) in selected:
                    sel.select(model.index(r, 0), flags)
            self.table.blockSignals(False)
        self.table.setUpdatesEnabled(True)
        self.apply_filters()

    def _sort_chosen(self, index: int) -> None:
        if 0 <= index < len(SORTS):
            column, order = SORTS[index]
            self.table.sortByColumn(COLUMNS.index(column), order)

    def _sorted(self, column: int, order: Qt.SortOrder) -> None:
        """A click on a heading shows in "Sort by" when it is one of its choices (blank otherwise)."""
        match = next((i for i, (name, o) in enumerate(SORTS) if COLUMNS.index(name) == column and o == order), -1)
        blocked = self.sort_combo.blockSignals(True)
        self.sort_combo.setCurrentIndex(match)
        self.sort_combo.blockSignals(blocked)
        self._show_reasons()

    def _row_of(self, gpu_id: str) -> GpuRow | None:
        return next((r for r in self.rows if r.gpu.id == gpu_id), None)

    def passes_filters(self, row: GpuRow) -> bool:
        if self.priced_only.isChecked() and row.gpu.price_cny is None:
            return False
        form = self.form_combo.currentData() or ALL_FORMS
        if form and row.gpu.form_factor.value != form:
            return False
        # unknown is never good: only a GPU known to be within the budget passes
        return not (self.within_budget.isChecked() and self.within_budget.isEnabled() and row.within_budget is not True)

    def apply_filters(self) -> None:
        """Hide the rows the filters leave out (the ranks stay those of the whole catalog)."""
        shown = 0
        for r in range(self.table.rowCount()):
            cell = self.table.item(r, 0)
            row = self._row_of(cell.data(GPU_ROLE)) if cell is not None else None
            hide = row is None or not self.passes_filters(row)
            self.table.setRowHidden(r, hide)
            if hide:
                for c in range(self.table.columnCount()):
                    item = self.table.item(r, c)
                    if item is not None and item.isSelected():
                        item.setSelected(False)
            shown += not hide
        self.shown_label.setText(self.tr("%1 of %2 GPUs shown").replace("%1", integer(shown))
                                 .replace("%2", integer(self.table.rowCount())))
        self._selection_changed()

    def visible_ids(self) -> list[str]:
        """GPU ids of the rows shown, top to bottom."""
        out = []
        for r in range(self.table.rowCount()):
            cell = self.table.item(r, 0)
            if cell is not None and not self.table.isRowHidden(r):
                out.append(cell.data(GPU_ROLE))
        return out

    def _fits_text(self, total: int | None, nodes: int) -> str:
        """'17 GPUs' on one server; '17 (3/server)' when the plan has several (gpu.count is per
        server, the estimate's count is for all of them)."""
        if not total:
            return "—"
        if nodes <= 1:
            # one English form each: without an English catalogue Qt's %n plural printed "1 GPU(s)"
            return (self.tr("1 GPU") if total == 1 else self.tr("%1 GPUs").replace("%1", integer(total)))
        per = -(-total // nodes)
        return self.tr("%1 (%2/server)").replace("%1", integer(total)).replace("%2", integer(per))

    def _fit_columns(self) -> None:
        """Numbers and names sized to their contents but capped, so every column shows at 1280 × 800; the
        last takes what is left."""
        for c in range(len(COLUMNS) - 1):
            self.table.resizeColumnToContents(c)
            self.table.setColumnWidth(c, min(self.table.columnWidth(c), COLUMN_MAX_W[COLUMNS[c]]))
        self.table.horizontalHeader().setMinimumSectionSize(36)

    def resizeEvent(self, event: Any) -> None:
        super().resizeEvent(event)
        if self.table.rowCount():
            self._fit_columns()

    def _fill_summary(self) -> None:
        plan = self.controller.plan
        gpu = self.controller.catalog.gpu(plan.gpu.model)
        if gpu is None:
            self.summary.setText(self.tr("No GPU chosen yet: pick one in the table or the list."))
            return
        n = plan.gpu.count
        parts = [
            self.tr("%1 × %2 = %3 GiB of GPU memory")
            .replace("%1", integer(n))
            .replace("%2", gpu.name)
            .replace("%3", number(n * gpu.memory_gib))
        ]
        if gpu.tdp_w is not None:
            parts.append(self.tr("%1 W for the GPUs").replace("%1", number(n * gpu.tdp_w)))
        if gpu.price_cny is not None:
            total = n * gpu.price_cny
            parts.append(self.tr("%1 CNY (%2)").replace("%1", number(total)).replace("%2", short_amount(total)))
        parts += [m for m in [mig_summary(plan, self.controller.lang)] if m]  # the MIG layout (procurement/mig.py)
        self.summary.setText(" · ".join(parts))

    # ------------------------------------------------------------------ selection and compare
    def selected_ids(self) -> list[str]:
        rows = sorted({i.row() for i in self.table.selectedIndexes() if not self.table.isRowHidden(i.row())})
        cells = [self.table.item(r, 0) for r in rows]
        return [c.data(GPU_ROLE) for c in cells if c is not None]

    def _show_reasons(self) -> None:
        """The selected row's reasons in full; with nothing selected, why the top row is first."""
        ids = self.selected_ids()
        top = self.visible_ids()[:1]
        row = self._row_of(ids[0]) if len(ids) == 1 else (self._row_of(top[0]) if not ids and top else None)
        if row is None:
            self.details.setText(self.tr("Select a row to see why it ranks where it does."))
            return
        if row.excluded_by:
            lead = self.tr("%1 (#%2) is excluded by the rules for this plan:")
        elif ids:
            lead = self.tr("Why %1 ranks #%2:") if row.rank else self.tr("%1 is not ranked:")
        else:
            lead = self.tr("Why %1 is at the top (#%2):") if row.rank else self.tr("%1 is not ranked:")
        lead = lead.replace("%1", row.gpu.name).replace("%2", integer(row.rank))
        reasons = row.reasons or [self.tr("no estimate yet: enter the model size in step 1")]
        excluded = (html.escape(row.exclusion).replace("\n", "<br>") + "<br>") if row.excluded_by else ""
        self.details.setText("<b>" + html.escape(lead) + "</b> " + excluded + html.escape("; ".join(reasons)))

    def _selection_changed(self) -> None:
        ids = self.selected_ids()
        self.use_button.setEnabled(len(ids) == 1)
        self._show_reasons()
        self._update_compare_tab()

    def _update_compare_tab(self) -> None:
        ids = self.selected_ids()
        gpus = [g for g in (self.controller.catalog.gpu(i) for i in ids[:3]) if g is not None]
        self.tabs.setTabText(1, self.tr("Compare (%1)").replace("%1", integer(len(gpus))) if len(gpus) >= 2
                             else self.tr("Compare"))
        self.hint.setVisible(len(gpus) < 2)
        self.compare.setVisible(len(gpus) >= 2)
        if len(gpus) < 2:
            return
        self.compare.clear()
        attrs = self._compare_rows()
        self.compare.setRowCount(len(attrs))
        self.compare.setColumnCount(len(gpus))
        self.compare.setHorizontalHeaderLabels([g.name for g in gpus])
        self.compare.setVerticalHeaderLabels([label for label, _ in attrs])
        for c, g in enumerate(gpus):
            for r, (_label, getter) in enumerate(attrs):
                item = QTableWidgetItem(getter(g))
                item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
                self.compare.setItem(r, c, item)

    def _compare_rows(self) -> list[tuple[str, Any]]:
        yes, no, unknown = self.tr("yes"), self.tr("no"), self.tr("unknown")
        on_request = self.tr("on request")
        return [
            (self.tr("Architecture"), lambda g: f"{g.architecture} (CC {g.compute_capability})"),
            (self.tr("Memory"), lambda g: f"{number(g.memory_gib)} GiB {g.memory_type}"),
            (self.tr("Bandwidth (GB/s)"), lambda g: number(g.memory_bandwidth_gbs)),
            (self.tr("FP16/BF16 TFLOPS"), lambda g: number(g.fp16_tensor_tflops, 1)),
            (self.tr("FP32 TFLOPS"), lambda g: number(g.fp32_tflops, 1)),
            (self.tr("FP64 TFLOPS"), lambda g: number(g.fp64_tflops, 2)),
            (self.tr("TDP (W)"), lambda g: number(g.tdp_w)),
            (self.tr("Form factor"), lambda g: f"{g.form_factor.value.upper()} Gen{g.pcie_gen}"),
            (self.tr("NVLink (GB/s)"), lambda g: number(g.nvlink_gbs) if g.nvlink_gbs else no),
            (self.tr("MIG"), lambda g: unknown if g.mig_max is None else (integer(g.mig_max) if g.mig_max else no)),
            (self.tr("ECC"), lambda g: unknown if g.ecc is None else (yes if g.ecc else no)),
            (self.tr("Price (CNY)"), lambda g: number(g.price_cny) if g.price_cny is not None else on_request),
            (self.tr("CNY per GiB"), lambda g: number(cost_per(g.price_cny, g.memory_gib))),
            (self.tr("CNY per TFLOPS"), lambda g: number(cost_per(g.price_cny, g.fp16_tensor_tflops))),
        ]

    # ------------------------------------------------------------------ widgets → plan
    def _model_chosen(self) -> None:
        if self.refreshing:
            return
        self.choose(self.model_combo.currentData() or None)

    def use_selected(self) -> None:
        ids = self.selected_ids()
        if len(ids) == 1:
            self.choose(ids[0])

    def keyPressEvent(self, event: Any) -> None:
        # Enter on a row uses it, as a double-click does (the table itself ignores Enter when not editing)
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and self.table.hasFocus():
            row = self.table.currentRow()
            if not self.selected_ids() and row >= 0 and not self.table.isRowHidden(row):
                # Tab into the table puts the cursor on a row without selecting it: Enter uses that row
                self.table.selectRow(row)
            self.use_selected()
            return
        super().keyPressEvent(event)

    def choose(self, gpu_id: str | None) -> None:
        """Write gpu.model; another GPU also gets the count the sizing gives it (per server), not the count of
        the GPU chosen before (7 × RTX 4090 D are not 7 × RTX PRO 6000); without an estimate the count stays
        (1 for a first choice)."""
        before = self.controller.plan
        plan = with_value(before, "gpu.model", gpu_id)
        row = self._row_of(gpu_id) if gpu_id is not None else None
        if gpu_id is not None and gpu_id != before.gpu.model:
            if row is not None and row.fits_count:
                plan = with_value(plan, "gpu.count", row.per_server)
            elif plan.gpu.count == 0:
                plan = with_value(plan, "gpu.count", 1)
        self.controller.replace_plan(plan, lambda: self.tr("Choose GPU"))

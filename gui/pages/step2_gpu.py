"""Step 2 GPU选型: the ranked, sortable GPU table; pick a model and a count; compare two or three side by side."""

from __future__ import annotations

import html
from typing import Any

from PySide6.QtCore import QItemSelectionModel, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSpinBox,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from gui.controller import PlanController
from gui.pages.base import StepPage
from gui.sizing_bridge import GpuRow, gpu_rows
from gui.widgets.money import short_amount
from procurement.plan import with_value

GPU_ROLE = Qt.ItemDataRole.UserRole + 1
COLUMNS = ("rank", "name", "memory", "fp16", "fp64", "tdp", "price", "fits", "reasons")
# widest each column may get (pixels), so that at 1280 × 800 with the findings dock "Why" keeps its room
COLUMN_MAX_W = {"rank": 46, "name": 140, "memory": 62, "fp16": 62, "fp64": 58, "tdp": 56, "price": 72,
                "fits": 86}
REASONS_MIN_W = 160
"""The "Why" column never gets narrower than this (pixels); the others are capped to leave it the room."""


class SortItem(QTableWidgetItem):
    """A cell that sorts by a number (unknown values last) while showing formatted text."""

    def __init__(self, text: str, key: float | None) -> None:
        super().__init__(text)
        self.key = key

    def __lt__(self, other: QTableWidgetItem) -> bool:
        if isinstance(other, SortItem):
            a = self.key if self.key is not None else float("inf")
            b = other.key if other.key is not None else float("inf")
            return a < b
        return super().__lt__(other)


def _num(value: float | None, fmt: str = "{:,.0f}") -> str:
    return "—" if value is None else fmt.format(value)


class GpuPage(StepPage):
    step = 2

    def __init__(self, controller: PlanController, parent: QWidget | None = None) -> None:
        super().__init__(controller, parent)
        self.rows: list[GpuRow] = []
        self._table_key: object = None
        self.heading = QLabel(self)
        self.choice_box = QGroupBox(self)
        self.model_label = QLabel(self)
        self.model_combo = QComboBox(self)
        self.model_combo.setObjectName("gpuModel")
        self.model_combo.setMinimumContentsLength(24)
        self.model_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.model_label.setBuddy(self.model_combo)
        self.count_label = QLabel(self)
        self.count_spin = QSpinBox(self)
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

        self.table = QTableWidget(0, len(COLUMNS), self)
        self.table.setObjectName("gpuTable")
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSortingEnabled(True)
        self.table.verticalHeader().setVisible(False)
        self.table.setWordWrap(True)  # names and reasons wrap in two-line rows; the tooltip has it all
        self.table.verticalHeader().setDefaultSectionSize(2 * self.fontMetrics().lineSpacing() + 8)
        header = self.table.horizontalHeader()
        # sized once per fill (resizeColumnToContents): ResizeToContents would re-measure every cell per change
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)  # "Why" takes what the capped columns leave (at least REASONS_MIN_W)
        header.setMinimumSectionSize(36)
        header.setSortIndicator(0, Qt.SortOrder.AscendingOrder)  # best-ranked first
        self.use_button = QPushButton(self)
        self.use_button.setObjectName("useGpu")
        self.hint = QLabel(self)
        self.hint.setWordWrap(True)
        self.compare = QTableWidget(0, 0, self)
        self.compare.setObjectName("gpuCompare")
        self.compare.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.compare.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.compare.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.compare_box = QGroupBox(self)
        cbl = QVBoxLayout(self.compare_box)
        cbl.addWidget(self.hint)
        cbl.addWidget(self.compare)

        top = QWidget(self)
        tl = QVBoxLayout(top)
        tl.setContentsMargins(0, 0, 0, 0)
        tl.addWidget(self.table)
        bl = QHBoxLayout()
        self.details = QLabel(self)
        self.details.setObjectName("gpuReasons")
        self.details.setWordWrap(True)
        self.details.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        bl.addWidget(self.details, 1)
        bl.addWidget(self.use_button, 0, Qt.AlignmentFlag.AlignTop)
        tl.addLayout(bl)
        splitter = QSplitter(Qt.Orientation.Vertical, self)
        splitter.addWidget(top)
        splitter.addWidget(self.compare_box)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.heading)
        layout.addWidget(self.choice_box)
        layout.addWidget(splitter, 1)
        self._connect_signals()
        self.retranslate()
        self.refresh_now()

    def _connect_signals(self) -> None:
        self.model_combo.currentIndexChanged.connect(self._model_chosen)
        self.count_spin.valueChanged.connect(lambda v: self.edit("gpu.count", v, merge=True))
        self.table.itemSelectionChanged.connect(self._selection_changed)
        self.table.itemDoubleClicked.connect(lambda _item: self.use_selected())
        self.use_button.clicked.connect(self.use_selected)
        self.controller.findings_changed.connect(self.when_on_screen(self._fill_summary))

    # ------------------------------------------------------------------ text
    def headers(self) -> list[str]:
        # two-line headers keep the numeric columns narrow enough for the reasons column at 1280 px
        return [
            self.tr("Rank"),
            self.tr("GPU"),
            self.tr("Memory\n(GiB)"),
            self.tr("FP16\nTFLOPS"),
            self.tr("FP64\nTFLOPS"),
            self.tr("TDP\n(W)"),
            self.tr("Price\n(CNY)"),
            self.tr("Fits\nwith"),
            self.tr("Why"),
        ]

    def retranslate(self) -> None:
        self.heading.setText("<h2>" + self.tr("Step 2 · GPU selection") + "</h2>")
        self.choice_box.setTitle(self.tr("Your choice"))
        self.model_label.setText(self.tr("&GPU model:"))
        self.count_label.setText(self.tr("&Count:"))
        self.count_spin.setSuffix(self.tr(" GPUs"))
        self.use_button.setText(self.tr("&Use the selected GPU"))
        self.use_button.setToolTip(self.tr("Or double-click a row"))
        self.compare_box.setTitle(self.tr("Compare"))
        self.hint.setText(self.tr("Select two or three rows (Ctrl+click) to compare them side by side."))
        self.table.setHorizontalHeaderLabels(self.headers())
        tips = {"fp16": self.tr("Dense FP16/BF16 tensor TFLOPS"),
                "fits": self.tr("GPUs of this model the memory estimate needs for the whole plan; per server when "
                                "the plan has several servers")}
        for key, tip in tips.items():
            head = self.table.horizontalHeaderItem(COLUMNS.index(key))
            if head is not None:
                head.setToolTip(tip)

    # ------------------------------------------------------------------ plan → widgets
    def refresh(self) -> None:
        plan = self.controller.plan
        self.rows = gpu_rows(plan, self.controller.catalog, self.controller.policy, self.controller.lang)
        self.model_combo.clear()
        self.model_combo.addItem(self.tr("(none chosen)"), "")
        for row in self.rows:
            self.model_combo.addItem(row.gpu.name, row.gpu.id)
        index = self.model_combo.findData(plan.gpu.model or "")
        self.model_combo.setCurrentIndex(max(index, 0))
        self.count_spin.setValue(plan.gpu.count)
        self.count_spin.setSuffix(self.tr(" GPUs per server") if plan.requirements.nodes > 1 else self.tr(" GPUs"))
        self._fill_table()
        self._fill_summary()

    def _fill_table(self) -> None:
        chosen = self.controller.plan.gpu.model
        nodes = self.controller.plan.requirements.nodes
        key = (chosen, self.tr("on request"), nodes,
               tuple((r.gpu, r.rank, r.fits_count, tuple(r.reasons)) for r in self.rows))
        if key == self._table_key:  # most edits do not change the ranking: keep the table (and its selection)
            return
        self._table_key = key
        selected = set(self.selected_ids())
        self.table.setUpdatesEnabled(False)
        self.table.setSortingEnabled(False)
        self.table.setRowCount(len(self.rows))
        for r, row in enumerate(self.rows):
            g = row.gpu
            fits = self._fits_text(row.fits_count, nodes)
            cells: list[tuple[str, float | None]] = [
                (str(row.rank) if row.rank else "—", row.rank),
                (g.name + ("  ✔" if g.id == chosen else ""), None),
                (_num(g.memory_gib), g.memory_gib),
                (_num(g.fp16_tensor_tflops, "{:,.1f}"), g.fp16_tensor_tflops),
                (_num(g.fp64_tflops, "{:,.2f}"), g.fp64_tflops),
                (_num(g.tdp_w), g.tdp_w),
                (_num(g.price_cny) if g.price_cny is not None else self.tr("on request"), g.price_cny),
                (fits, row.fits_count),
                ("; ".join(row.reasons), None),
            ]
            for c, (text, sort_key) in enumerate(cells):
                item = SortItem(text, sort_key) if sort_key is not None or c not in (1, 8) else QTableWidgetItem(text)
                item.setData(GPU_ROLE, g.id)
                if c in (0, 2, 3, 4, 5, 6, 7):
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                if c == 8:
                    item.setToolTip("\n".join(row.reasons))
                if c == 1:
                    item.setToolTip(f"{g.vendor} · {g.architecture} · {g.memory_type}\n{g.source}")
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
        self._selection_changed()

    def _fits_text(self, total: int | None, nodes: int) -> str:
        """'17 GPUs' on one server; '17 (3/server)' when the plan has several (gpu.count is per
        server, the estimate's count is for all of them)."""
        if not total:
            return "—"
        if nodes <= 1:
            return self.tr("%n GPU(s)", "", total)
        per = -(-total // nodes)
        return self.tr("%1 (%2/server)").replace("%1", str(total)).replace("%2", str(per))

    def _fit_columns(self) -> None:
        """Numbers and names sized to their contents but capped, so the "Why" column keeps at least
        REASONS_MIN_W pixels; the table scrolls sideways only when even that does not fit."""
        for c in range(len(COLUMNS) - 1):
            self.table.resizeColumnToContents(c)
            self.table.setColumnWidth(c, min(self.table.columnWidth(c), COLUMN_MAX_W[COLUMNS[c]]))
        header = self.table.horizontalHeader()
        header.setMinimumSectionSize(36)
        last = len(COLUMNS) - 1
        room = self.table.viewport().width() - sum(self.table.columnWidth(c) for c in range(last))
        self.table.setColumnWidth(last, max(room, REASONS_MIN_W))

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
            .replace("%1", str(n))
            .replace("%2", gpu.name)
            .replace("%3", f"{n * gpu.memory_gib:,.0f}")
        ]
        if gpu.tdp_w is not None:
            parts.append(self.tr("%1 W for the GPUs").replace("%1", f"{n * gpu.tdp_w:,.0f}"))
        if gpu.price_cny is not None:
            total = n * gpu.price_cny
            parts.append(self.tr("%1 CNY (%2)").replace("%1", f"{total:,.0f}").replace("%2", short_amount(total)))
        self.summary.setText(" · ".join(parts))

    # ------------------------------------------------------------------ selection and compare
    def selected_ids(self) -> list[str]:
        rows = sorted({i.row() for i in self.table.selectedIndexes()})
        cells = [self.table.item(r, 0) for r in rows]
        return [c.data(GPU_ROLE) for c in cells if c is not None]

    def _selection_changed(self) -> None:
        ids = self.selected_ids()
        self.use_button.setEnabled(len(ids) == 1)
        row = next((r for r in self.rows if ids and r.gpu.id == ids[0]), None)
        if row is None:
            self.details.setText(self.tr("Select a row to see why it ranks where it does."))
        else:
            self.details.setText(
                "<b>" + html.escape(row.gpu.name) + "</b>: " + html.escape("; ".join(row.reasons) or "—")
            )
        gpus = [g for g in (self.controller.catalog.gpu(i) for i in ids[:3]) if g is not None]
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
        return [
            (self.tr("Architecture"), lambda g: f"{g.architecture} (CC {g.compute_capability})"),
            (self.tr("Memory"), lambda g: f"{g.memory_gib:,.0f} GiB {g.memory_type}"),
            (self.tr("Bandwidth (GB/s)"), lambda g: _num(g.memory_bandwidth_gbs)),
            (self.tr("FP16/BF16 TFLOPS"), lambda g: _num(g.fp16_tensor_tflops, "{:,.1f}")),
            (self.tr("FP32 TFLOPS"), lambda g: _num(g.fp32_tflops, "{:,.1f}")),
            (self.tr("FP64 TFLOPS"), lambda g: _num(g.fp64_tflops, "{:,.2f}")),
            (self.tr("TDP (W)"), lambda g: _num(g.tdp_w)),
            (self.tr("Form factor"), lambda g: f"{g.form_factor.value.upper()} Gen{g.pcie_gen}"),
            (self.tr("NVLink (GB/s)"), lambda g: _num(g.nvlink_gbs) if g.nvlink_gbs else no),
            (self.tr("MIG"), lambda g: unknown if g.mig_max is None else (str(g.mig_max) if g.mig_max else no)),
            (self.tr("ECC"), lambda g: unknown if g.ecc is None else (yes if g.ecc else no)),
            (
                self.tr("Price (CNY)"),
                lambda g: _num(g.price_cny) if g.price_cny is not None else self.tr("on request"),
            ),
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

    def choose(self, gpu_id: str | None) -> None:
        """Write gpu.model; a first choice also sets the count the sizing says fits (or 1)."""
        plan = with_value(self.controller.plan, "gpu.model", gpu_id)
        if gpu_id is not None and plan.gpu.count == 0:
            fits = next((r.fits_count for r in self.rows if r.gpu.id == gpu_id), None)
            plan = with_value(plan, "gpu.count", fits or 1)
        self.controller.replace_plan(plan, self.tr("Choose GPU"))

"""Page: step 3 (服务器配置) — CPU, memory, storage tiers, NICs, chassis, PSUs, and three live gauges."""

from __future__ import annotations

import html
from collections.abc import Callable, Collection
from decimal import Decimal
from itertools import pairwise
from typing import Any
from weakref import WeakKeyDictionary

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from catalog.models import Chassis, MemoryModule
from gui.controller import PlanController
from gui.pages.base import StepPage, focus_on_screen
from gui.views.server import GaugeReading, PartChoice, cord_figures, gauge_readings, gauge_states, part_choices
from gui.widgets.gauge import Gauge
from gui.widgets.spin import DoubleSpinBox, SpinBox, show_value
from gui.widgets.undo_keys import route_spin
from procurement.compatibility import Fit, Kind, offer
from procurement.messages import Lang
from procurement.plan import Plan, PlanError, Redundancy, StorageRole
from procurement.pricing.running_total import RunningTotal, running_total
from procurement.sizing import DerivedDefaults, apply_defaults, derive_defaults
from procurement.sizing.derive import auto_part_of, describe_replacements, hand_edit, would_replace

translate = QCoreApplication.translate  # lupdate reads translate("Context", "text") calls



_VOLTAGE_ORDER: tuple[str, ...] = ("200-240", "220", "230", "240", "200-208", "100-127")
"""The input-voltage choices in the order shown (procurement.facility.VOLTAGE_BANDS)."""


def fill_part_combo(combo: QComboBox, choices: tuple[PartChoice, ...], current: str | None, none_text: str) -> None:
    """Part choices as items (data = part id, text and tooltip from the presenter; one that does not fit the
    plan is greyed), a first 'none' item, and ``current`` selected. A current id the catalog does not know
    stays visible (marked) instead of silently vanishing."""
    combo.clear()
    combo.addItem(none_text, None)
    for choice in choices:
        combo.addItem(choice.text, choice.id)
        combo.setItemData(combo.count() - 1, choice.tooltip, Qt.ItemDataRole.ToolTipRole)
        if not choice.fits:
            combo.setItemData(combo.count() - 1, QColor("#757575"), Qt.ItemDataRole.ForegroundRole)
    if current is not None and combo.findData(current) < 0:
        combo.addItem(translate("ServerPage", "%1 (not in the catalog)").replace("%1", current), current)
    combo.setCurrentIndex(max(0, combo.findData(current)))
    _SHOWN[combo] = (choices, current, none_text)


_SHOWN: WeakKeyDictionary[QComboBox, tuple[tuple[PartChoice, ...], str | None, str]] = WeakKeyDictionary()
"""What each part combo was last filled with, so that a refresh that would show the same leaves it alone (a
refresh of 500 storage rows compares 500 of these: the same items are the same tuple, compared by identity)."""


def refill_part_combo(combo: QComboBox, choices: tuple[PartChoice, ...], current: str | None, none_text: str) -> None:
    """fill_part_combo, unless the combo already shows exactly these choices with ``current`` selected."""
    if _SHOWN.get(combo) != (choices, current, none_text) or combo.currentData() != current:
        fill_part_combo(combo, choices, current, none_text)


def select_data(combo: QComboBox, value: Any) -> None:
    idx = combo.findData(value)
    if idx >= 0:
        combo.setCurrentIndex(idx)


def yuan_fen(value: Decimal) -> str:
    """¥12,999.00: to the fen, as the quote page prints it."""
    return f"¥{value:,.2f}"


# ---------------------------------------------------------------- rows of storage / NICs

class _PartRows(QWidget):
    """Editable rows of (role?, part, count, remove) for a list in the plan (server.storage / server.nics)."""

    def __init__(self, page: ServerPage, path: str, kind: Kind, with_role: bool) -> None:
        super().__init__(page)
        self._page, self._path, self._kind, self._with_role = page, path, kind, with_role
        self._grid = QGridLayout(self)
        self._grid.setContentsMargins(0, 0, 0, 0)
        self.rows: list[tuple[QComboBox | None, QComboBox, QSpinBox, QToolButton]] = []
        self.add_button = QPushButton(self)
        self.add_button.clicked.connect(self.add_row)
        self._grid.addWidget(self.add_button, 0, 0)

    def items(self) -> list[dict[str, Any]]:
        return list(self._page.controller.value(self._path) or [])

    def refresh(self) -> None:
        items = self.items()
        while len(self.rows) > len(items):
            for w in self.rows.pop():
                if w is not None:
                    self._grid.removeWidget(w)
                    w.hide()  # until deleteLater runs it sat, squashed and clickable, over the list
                    w.deleteLater()
            gone = len(self.rows)
            for key in ("role", "part", "count"):  # findings about a removed row point at the list's button
                self._page.bind(f"{self._path}[{gone}].{key}", self.add_button)
        while len(self.rows) < len(items):
            self._make_row(len(self.rows))
        # Only widgets that show something else than the plan are set: an edit of one of 500 storage lines
        # re-set all 500 rows (and re-translated their 2 000 role items), ~90 ms on the GUI thread per edit.
        # The list's items are built once per refresh (per row only where the row's part does not fit).
        base = self._page.choices(self._kind, None)
        offered = {c.id for c in base}
        none_text = translate("ServerPage", "— choose —")
        for (role, combo, count, _remove), item in zip(self.rows, items, strict=True):
            if role is not None and role.currentData() != item.get("role"):
                select_data(role, item.get("role"))
            part = item["part"]
            choices = base if part in offered else self._page.choices(self._kind, part)
            refill_part_combo(combo, choices, part, none_text)
            wanted = int(item.get("count", 1))
            show_value(count, wanted)
        self._grid.addWidget(self.add_button, len(self.rows), 0)
        self._retranslate_button()

    def retranslate(self) -> None:
        """Every row's texts in the current language (the page calls this when the language changes)."""
        self._retranslate_button()
        for row in self.rows:
            self._retranslate_row(row)

    def _retranslate_button(self) -> None:
        self.add_button.setText(translate("ServerPage", "Add storage") if self._with_role
                                else translate("ServerPage", "Add network card"))

    @staticmethod
    def _retranslate_row(row: tuple[QComboBox | None, QComboBox, QSpinBox, QToolButton]) -> None:
        role, _combo, count, remove = row
        if role is not None:
            for i, r in enumerate(StorageRole):
                role.setItemText(i, _role_text(r))
        count.setPrefix("× ")
        remove.setToolTip(translate("ServerPage", "Remove this row"))
        remove.setAccessibleName(translate("ServerPage", "Remove"))

    def _make_row(self, index: int) -> None:
        role: QComboBox | None = None
        col = 0
        if self._with_role:
            role = QComboBox(self)
            for r in StorageRole:
                role.addItem(_role_text(r), r.value)
            self._grid.addWidget(role, index, col)
            role.currentIndexChanged.connect(lambda _i, w=role: self._edit_cell(w, "role", w.currentData()))
            col += 1
        combo = QComboBox(self)
        combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        combo.setMinimumContentsLength(12)
        combo.currentIndexChanged.connect(lambda _i, w=combo: self._edit_cell(w, "part", w.currentData()))
        count = SpinBox(self)
        count.setRange(0, 64)
        count.valueChanged.connect(lambda v, w=count: self._edit_cell(w, "count", v, merge=True))
        route_spin(count)  # Undo/Redo keys go to the plan (the page routes only the widgets it was built with)
        remove = QToolButton(self)
        remove.setText("✕")
        remove.clicked.connect(lambda _c=False, w=remove: self._remove(w))
        self._grid.addWidget(combo, index, col)
        self._grid.addWidget(count, index, col + 1)
        self._grid.addWidget(remove, index, col + 2)
        self._grid.setColumnStretch(col, 1)
        self.rows.append((role, combo, count, remove))
        self._retranslate_row(self.rows[-1])
        if role is not None:
            self._page.bind(f"{self._path}[{index}].role", role)
        self._page.bind(f"{self._path}[{index}].part", combo)
        self._page.bind(f"{self._path}[{index}].count", count)

    def _row_of(self, widget: QWidget) -> int:
        return next(i for i, row in enumerate(self.rows) if widget in row)

    def _edit_cell(self, widget: QWidget, key: str, value: Any, merge: bool = False) -> None:
        if self._page.refreshing or value is None:
            return
        i = self._row_of(widget)
        self._page.set_field(f"{self._path}[{i}].{key}", value, merge=merge)

    def add_row(self) -> None:
        # the first part the list offers: one that fits the chosen chassis where there is one
        choices = self._page.choices(self._kind, None)
        if not choices:
            return
        items = self.items()
        new: dict[str, Any] = {"part": choices[0].id, "count": 1}
        if self._with_role:
            taken = {i.get("role") for i in items}
            role = next((r.value for r in StorageRole if r.value not in taken), StorageRole.DATA.value)
            new = {"role": role, **new}
        self._page.set_field(self._path, [*items, new], text=self.add_button.text())

    def _remove(self, widget: QWidget) -> None:
        items = self.items()
        del items[self._row_of(widget)]
        self._page.set_field(self._path, items, text=translate("ServerPage", "Remove row"))


def _role_text(role: StorageRole) -> str:
    return {StorageRole.SYSTEM: translate("ServerPage", "System"), StorageRole.DATA: translate("ServerPage", "Data"),
            StorageRole.BACKUP: translate("ServerPage", "Backup"),
            StorageRole.SCRATCH: translate("ServerPage", "Scratch")}[role]


# ---------------------------------------------------------------- the page

def auto_configured(controller: PlanController, keep: Collection[str] = ()) -> tuple[Plan, DerivedDefaults]:
    """The plan with the sizing's derived defaults applied (``keep``: parts left as they are), and what was
    decided (reasons, what is missing)."""
    derived = derive_defaults(controller.plan, controller.catalog, controller.policy, lang=controller.lang,
                              keep=keep)
    return apply_defaults(controller.plan, derived), derived


class ServerPage(StepPage):
    step = 3

    def __init__(self, controller: PlanController, parent: QWidget | None = None) -> None:
        self._readings: tuple[object, dict[str, GaugeReading]] | None = None
        self._tab_chain: list[QWidget] = []
        super().__init__(controller, parent)
        self.bound: dict[str, QWidget] = {}
        self.error_label = QLabel(self)
        self.error_label.setWordWrap(True)
        self.error_label.setStyleSheet("color: #c62828")
        self.error_label.hide()

        # CPU
        self.cpu_combo = QComboBox()
        self.cpu_count = SpinBox()
        self.cpu_count.setRange(1, 16)
        # memory
        self.memory_combo = QComboBox()
        self.memory_count = SpinBox()
        self.memory_count.setRange(1, 64)
        self.memory_total = QLabel()
        # chassis / power
        self.chassis_combo = QComboBox()
        self.psu_combo = QComboBox()
        self.psu_count = SpinBox()
        self.psu_count.setRange(0, 16)
        self.redundancy_combo = QComboBox()
        for r in Redundancy:
            self.redundancy_combo.addItem(r.value.upper() if r != Redundancy.NONE else "", r.value)
        self.voltage_combo = QComboBox()
        for band in _VOLTAGE_ORDER:
            self.voltage_combo.addItem("", band)
        self.rack_limit = DoubleSpinBox()
        self.rack_limit.setRange(0, 10_000)
        self.rack_limit.setDecimals(1)
        self.rack_limit.setSuffix(" kW")
        self.servers_per_rack = SpinBox()
        self.servers_per_rack.setRange(1, 1000)
        for combo in (self.cpu_combo, self.memory_combo, self.chassis_combo, self.psu_combo):
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(16)
        self.show_incompatible = QCheckBox()
        self.show_incompatible.setObjectName("showIncompatible")
        self._choices: dict[Kind, tuple[tuple[Fit, ...], Lang, bool, tuple[PartChoice, ...]]] = {}
        """Per kind, the items last built and what they were built from (the fits, the language, the box)."""
        self.storage_rows = _PartRows(self, "server.storage", "storage", with_role=True)
        self.nic_rows = _PartRows(self, "server.nics", "nic", with_role=False)
        self.auto_button = QPushButton()
        self.auto_hint = QLabel()
        self.auto_hint.setObjectName("autoHint")
        self.auto_hint.setWordWrap(True)
        self.auto_hint.setStyleSheet("color: #616161")
        self.auto_label = QLabel()
        self.auto_label.setWordWrap(True)
        self._auto_reasons: list[str] = []
        self._auto_from: tuple[Plan, frozenset[str]] | None = None
        """The plan auto-configure started from and the parts it kept: its reasons are said again from them in
        each language (they stayed English after a switch to Chinese)."""
        self._auto_server: Any = None  # the server auto-configure proposed; the summary describes only it
        self.power_gauge = Gauge()
        self.pcie_gauge = Gauge()
        self.cooling_gauge = Gauge()
        self.rack_gauge = Gauge()
        self.gauges = {"power": self.power_gauge, "pcie": self.pcie_gauge, "cooling": self.cooling_gauge,
                       "rack": self.rack_gauge}
        # amps and VA per cord at the site voltage, shared and after failover: what an electrician wires for
        self.cord_figures = QLabel()
        self.cord_figures.setObjectName("cordFigures")
        self.cord_figures.setWordWrap(True)
        self.cord_figures.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.money_parts = QLabel()
        self.money_parts.setObjectName("moneyParts")
        self.money_parts.setWordWrap(True)
        self.money_parts.setTextFormat(Qt.TextFormat.RichText)
        self.money_total = QLabel()
        self.money_total.setObjectName("runningTotal")
        self.money_total.setWordWrap(True)
        self.money_total.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.money: RunningTotal | None = None
        """What the money box shows: the evaluation's bill of materials (the quote's lines and total)."""

        self._build_layout()
        for path, w in (("server.cpu", self.cpu_combo), ("server.cpu_count", self.cpu_count),
                        ("server.memory.part", self.memory_combo), ("server.memory.count", self.memory_count),
                        ("server.memory", self.memory_combo), ("server.chassis", self.chassis_combo),
                        ("server.psu.part", self.psu_combo), ("server.psu.count", self.psu_count),
                        ("server.psu.redundancy", self.redundancy_combo),
                        ("server.input_voltage", self.voltage_combo),
                        ("server.rack_power_limit_kw", self.rack_limit),
                        ("server.servers_per_rack", self.servers_per_rack),
                        ("server.storage", self.storage_rows.add_button), ("server.nics", self.nic_rows.add_button)):
            self.bind(path, w)
        self._connect_signals()
        self.retranslate()
        self.refresh_now()

    # -- layout
    def _build_layout(self) -> None:
        body = QWidget()
        col = QVBoxLayout(body)
        # above the lists it widens: the lists offer the parts that fit what is chosen, this adds the rest
        col.addWidget(self.show_incompatible)
        self.cpu_box = QGroupBox()
        self.cpu_form = QFormLayout(self.cpu_box)
        self.cpu_form.addRow(QLabel(), self.cpu_combo)
        self.cpu_form.addRow(QLabel(), self.cpu_count)
        self.memory_box = QGroupBox()
        self.memory_form = QFormLayout(self.memory_box)
        self.memory_form.addRow(QLabel(), self.memory_combo)
        self.memory_form.addRow(QLabel(), self.memory_count)
        self.memory_form.addRow(QLabel(), self.memory_total)
        self.storage_box = QGroupBox()
        QVBoxLayout(self.storage_box).addWidget(self.storage_rows)
        self.nic_box = QGroupBox()
        QVBoxLayout(self.nic_box).addWidget(self.nic_rows)
        self.power_box = QGroupBox()
        self.power_form = QFormLayout(self.power_box)
        for w in (self.chassis_combo, self.psu_combo, self.psu_count, self.redundancy_combo, self.voltage_combo,
                  self.rack_limit, self.servers_per_rack):
            self.power_form.addRow(QLabel(), w)
        for box in (self.power_box, self.cpu_box, self.memory_box, self.storage_box, self.nic_box):
            col.addWidget(box)
        col.addStretch(1)
        scroll = self.scroll_area = QScrollArea(self)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        scroll.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # Tab goes from field to field, not to the scroll area
        # the combos shrink (their texts elide) rather than push the form sideways
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setWidget(body)

        side = QVBoxLayout()
        side.addWidget(self.auto_button)
        side.addWidget(self.auto_hint)
        side.addWidget(self.auto_label)
        self.gauge_box = QGroupBox()
        gl = QVBoxLayout(self.gauge_box)
        for g in self.gauges.values():
            gl.addWidget(g)
        gl.insertWidget(1, self.cord_figures)  # under the power gauge
        side.addWidget(self.gauge_box)
        self.money_box = QGroupBox()
        ml = QVBoxLayout(self.money_box)
        # the lines scroll inside the box: a server of twenty parts must not make the window taller than 800 px
        self.money_scroll = QScrollArea(self.money_box)
        self.money_scroll.setWidgetResizable(True)
        self.money_scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        self.money_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.money_scroll.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.money_scroll.setWidget(self.money_parts)
        self.money_parts.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        ml.addWidget(self.money_scroll, 1)
        ml.addWidget(self.money_total)
        side.addWidget(self.money_box, 1)

        top = QHBoxLayout()
        top.addWidget(scroll, 5)
        top.addLayout(side, 3)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        self.add_heading(outer)
        outer.addWidget(self.error_label)
        outer.addLayout(top)

    def _connect_signals(self) -> None:
        self.cpu_combo.currentIndexChanged.connect(
            lambda _i: self.set_field("server.cpu", self.cpu_combo.currentData()))
        self.cpu_count.valueChanged.connect(lambda v: self.set_field("server.cpu_count", v, merge=True))
        self.memory_combo.currentIndexChanged.connect(self._memory_part_changed)
        self.memory_count.valueChanged.connect(lambda v: self.set_field("server.memory.count", v, merge=True))
        self.chassis_combo.currentIndexChanged.connect(
            lambda _i: self.set_field("server.chassis", self.chassis_combo.currentData()))
        self.psu_combo.currentIndexChanged.connect(self._psu_part_changed)
        self.psu_count.valueChanged.connect(lambda v: self.set_field("server.psu.count", v, merge=True))
        self.redundancy_combo.currentIndexChanged.connect(
            lambda _i: self.set_field("server.psu.redundancy", self.redundancy_combo.currentData()))
        self.voltage_combo.currentIndexChanged.connect(
            lambda _i: self.set_field("server.input_voltage", self.voltage_combo.currentData()))
        self.rack_limit.valueChanged.connect(
            lambda v: self.set_field("server.rack_power_limit_kw", v or None, merge=True))
        self.servers_per_rack.valueChanged.connect(lambda v: self.set_field("server.servers_per_rack", v, merge=True))
        self.auto_button.clicked.connect(self.auto_configure)
        self.show_incompatible.toggled.connect(lambda _on: self.refresh_now())  # what is listed, not the plan
        self.controller.findings_changed.connect(self.when_on_screen(self._update_gauges))

    # -- language
    def retranslate(self) -> None:
        self._readings = None  # the gauges' tooltips are translated text
        self.cpu_box.setTitle(self.tr("Processor"))
        self.memory_box.setTitle(self.tr("Memory"))
        self.storage_box.setTitle(self.tr("Storage (system, data, backup)"))
        self.nic_box.setTitle(self.tr("Network cards"))
        self.power_box.setTitle(self.tr("Chassis and power"))
        self.gauge_box.setTitle(self.tr("Live budget"))
        self.money_box.setTitle(self.tr("Cost so far"))
        _set_labels(self.cpu_form, [self.tr("CPU:"), self.tr("Sockets:")])
        _set_labels(self.memory_form, [self.tr("Module:"), self.tr("Modules:"), self.tr("Total:")])
        _set_labels(self.power_form, [self.tr("Chassis:"), self.tr("PSU model:"), self.tr("PSU count:"),
                                      self.tr("Redundancy:"), self.tr("Input voltage:"),
                                      self.tr("Rack power limit:"), self.tr("Servers per rack:")])
        self.redundancy_combo.setItemText(0, self.tr("None"))
        voltage_names = {
            "200-240": self.tr("High line, 200-240 V (not narrowed down)"),
            "220": self.tr("220 V (China mainland)"),
            "230": self.tr("230 V"),
            "240": self.tr("240 V"),
            "200-208": self.tr("High line, 200-208 V"),
            "100-127": self.tr("Low line, 100-127 V"),
        }
        for i, band in enumerate(_VOLTAGE_ORDER):
            self.voltage_combo.setItemText(i, voltage_names[band])
        self.rack_limit.setSpecialValueText(self.tr("not set"))
        self.memory_count.setPrefix("× ")
        self.auto_button.setText(self.tr("Auto-configure"))
        self.show_incompatible.setText(self.tr("Show incompatible parts"))
        self.show_incompatible.setToolTip(self.tr("The lists offer the parts that fit what is already chosen (the "
                                                  "GPU, the chassis, the CPU); this adds the others, each marked "
                                                  "with why it does not fit"))
        self.auto_hint.setText(self.tr("Choose a GPU in step 2 first: auto-configure builds the server around it."))
        self.auto_button.setToolTip(self.tr("Fill CPU, memory, storage, network, chassis and PSUs from the GPU "
                                            "choice and the requirements (one undo step)"))
        self.power_gauge.set_label(self.tr("Power draw vs usable PSU capacity"), "W")
        self.pcie_gauge.set_label(self.tr("PCIe lanes used vs available"), "")
        self.cooling_gauge.set_label(self.tr("Airflow needed vs chassis"), "CFM")
        self.rack_gauge.set_label(self.tr("Per rack: power at the wall vs rack limit"), "kW")
        self.storage_rows.retranslate()
        self.nic_rows.retranslate()

    # -- plan → widgets
    def refresh(self) -> None:
        srv = self.controller.plan.server
        cat = self.controller.catalog
        refill_part_combo(self.cpu_combo, self.choices("cpu", srv.cpu), srv.cpu, self.tr("— choose a CPU —"))
        show_value(self.cpu_count, srv.cpu_count or 1)
        memory = srv.memory.part if srv.memory else None
        refill_part_combo(self.memory_combo, self.choices("memory", memory), memory, self.tr("— choose memory —"))
        self.memory_count.setEnabled(srv.memory is not None)
        show_value(self.memory_count, srv.memory.count if srv.memory else 1)
        mod = cat.typed(MemoryModule, srv.memory.part) if srv.memory else None
        if mod and srv.memory:
            self.memory_total.setText(self.tr("%1 GiB, %2").replace("%1", str(mod.capacity_gib * srv.memory.count))
                                      .replace("%2", self.tr("ECC") if mod.ecc else self.tr("no ECC")))
        else:
            self.memory_total.setText("—")
        refill_part_combo(self.chassis_combo, self.choices("chassis", srv.chassis), srv.chassis,
                          self.tr("— choose a chassis —"))
        refill_part_combo(self.psu_combo, self.choices("psu", srv.psu.part), srv.psu.part,
                          self.tr("— the chassis' own PSUs —"))
        show_value(self.psu_count, srv.psu.count)
        select_data(self.redundancy_combo, srv.psu.redundancy.value)
        select_data(self.voltage_combo, srv.input_voltage)
        show_value(self.rack_limit, srv.rack_power_limit_kw or 0)
        show_value(self.servers_per_rack, srv.servers_per_rack)
        self.storage_rows.refresh()
        self.nic_rows.refresh()
        self._chain_tab_order()
        has_gpu = self.controller.plan.gpu.model is not None
        self.auto_button.setEnabled(has_gpu)
        self.auto_hint.setVisible(not has_gpu)  # a disabled button says why
        self._show_auto_summary()
        self._update_gauges()
        if self._auto_from is not None:
            before, keep = self._auto_from
            derived = derive_defaults(before, self.controller.catalog, self.controller.policy,
                                      lang=self.controller.lang, keep=keep)
            self._auto_reasons = list(derived.reasons)
            if self.error_label.isVisibleTo(self) and derived.missing:
                self.error_label.setText("\n".join(derived.missing))
            self._show_auto_summary()

    def choices(self, kind: Kind, current: str | None) -> tuple[PartChoice, ...]:
        """What the list of ``kind`` offers: the parts that fit the plan's choices, plus (marked) the others when
        "Show incompatible parts" is ticked, and always ``current``. The fits are kept per chosen parts in the
        core (procurement.compatibility.offer) and the items per fits and language here: an edit elsewhere on
        the page, of 500 storage rows too, recomputes nothing."""
        ctl = self.controller
        fits = offer(ctl.plan, ctl.catalog, kind, ctl.policy)
        show = self.show_incompatible.isChecked()
        kept = self._choices.get(kind)
        if kept is not None and kept[0] is fits and kept[1:3] == (ctl.lang, show):
            base = kept[3]
        else:
            base = part_choices(fits, ctl.lang, show)
            self._choices[kind] = (fits, ctl.lang, show, base)
        if current is None or any(c.id == current for c in base):
            return base
        return part_choices(fits, ctl.lang, show, current)

    def _show_auto_summary(self) -> None:
        """Auto-configure's reasons, marked as out of date once the server differs from what it proposed
        (a manual edit, or Undo past it): they no longer describe the plan."""
        if not self._auto_reasons:
            self.auto_label.setText("")
            return
        reasons = "\n".join(self._auto_reasons)
        if self.controller.plan.server == self._auto_server:
            self.auto_label.setStyleSheet("")
            self.auto_label.setText(reasons)
        else:
            self.auto_label.setStyleSheet("color: #757575")
            self.auto_label.setText(self.tr("Changed since auto-configure; it had proposed:") + "\n" + reasons)

    def tab_chain(self) -> list[QWidget]:
        """Tab order as the page reads: Auto-configure, "Show incompatible parts" (above the lists it widens),
        chassis and power, CPU, memory, then each storage and network row before its own Add button (rows added
        later join the chain in place, not at its end)."""
        chain: list[QWidget] = [self.auto_button, self.show_incompatible, self.chassis_combo, self.psu_combo,
                                self.psu_count, self.redundancy_combo, self.voltage_combo, self.rack_limit,
                                self.servers_per_rack, self.cpu_combo, self.cpu_count, self.memory_combo,
                                self.memory_count]
        for rows in (self.storage_rows, self.nic_rows):
            for row in rows.rows:
                chain += [w for w in row if w is not None]
            chain.append(rows.add_button)
        return chain

    def _chain_tab_order(self) -> None:
        chain = self.tab_chain()
        if chain == self._tab_chain:  # 2 000 setTabOrder calls for 500 storage rows: only when rows come or go
            return
        self._tab_chain = chain
        for before, after in pairwise(chain):
            QWidget.setTabOrder(before, after)

    def _update_gauges(self) -> None:
        ctl = self.controller
        evaluation = ctl.evaluation
        # The gauges show the evaluation's budgets, computed once with the findings. After an edit the page
        # refreshes (plan_changed) before the evaluation runs; the gauges then keep the last figures until
        # findings_changed brings the new ones together with their colours.
        if evaluation is None or evaluation.plan is not ctl.plan:
            return
        if self._readings is None or self._readings[0] is not evaluation:
            chassis = ctl.catalog.typed(Chassis, ctl.plan.server.chassis) if ctl.plan.server.chassis else None
            self._readings = (evaluation, gauge_readings(evaluation.budgets, ctl.lang,
                                                         tower=chassis is not None and chassis.form == "tower"))
        readings = self._readings[1]
        states = gauge_states(ctl.findings)
        for key, gauge in self.gauges.items():
            r = readings[key]
            gauge.set_values(r.used, r.capacity, states.get(key, "ok"), r.detail, self._unknown_reason(key))
        cords = cord_figures(evaluation.budgets, ctl.lang)
        self.cord_figures.setText(cords)
        self.cord_figures.setVisible(bool(cords))
        cost = evaluation.budgets.cost
        self._show_money(None if cost is None else running_total(cost, ctl.policy, ctl.lang))

    MONEY_ROWS = 40
    """Rows of the running total's part list; the rest are counted in one row (the total adds up every line)."""

    def _show_money(self, money: RunningTotal | None) -> None:
        """Each chosen part's unit price with its kind and date, and the running total: the quote's total to the
        fen, "at least" while a part is unpriced, and no cost verdict before a part is chosen."""
        self.money = money
        if money is None:
            self.money_parts.setText("")
            self.money_total.setText(self.tr("The cost could not be added up."))
            return
        if not money.chosen:
            self.money_parts.setText("")
            self.money_total.setText(self.tr("No part chosen yet: nothing to add up."))
            return
        gross = money.basis == "gross"
        each = self.tr("%1 each incl. VAT") if gross else self.tr("%1 each excl. VAT")
        # lines of the same part at the same price show as one row with their quantities added (500 storage lines
        # of one drive laid out as 1 000 rich-text rows took 0.4-0.6 s per edit); past MONEY_ROWS the rest are
        # counted, and the total below still adds up every line
        grouped: dict[tuple[str, object, object, object], list[Any]] = {}
        for part in money.parts:
            key = (part.name, part.unit, part.kind, part.date)
            if key in grouped:
                grouped[key][1] += part.qty
            else:
                grouped[key] = [part, part.qty]
        rows = []
        for part, qty_sum in list(grouped.values())[: self.MONEY_ROWS]:
            qty = int(qty_sum) if float(qty_sum).is_integer() else qty_sum
            if part.unit is None:
                price, where = self.tr("no price"), ""
            else:
                price = each.replace("%1", yuan_fen(part.unit))
                where = " · ".join(x for x in (part.kind, part.date.isoformat() if part.date else "") if x) or \
                    self.tr("catalog reference price")
            rows.append(f"<tr><td>{html.escape(part.name)} × {qty}</td><td align='right'>{html.escape(price)}</td></tr>"
                        + (f"<tr><td colspan='2' style='color:#616161'>{html.escape(where)}</td></tr>" if where
                           else ""))
        if len(grouped) > self.MONEY_ROWS:
            left = len(grouped) - self.MONEY_ROWS
            more = (self.tr("… and 1 more part, in the total and on the quote") if left == 1 else
                    self.tr("… and %1 more parts, in the total and on the quote").replace("%1", str(left)))
            rows.append(f"<tr><td colspan='2'>{html.escape(more)}</td></tr>")
        self.money_parts.setText("<table width='100%'>" + "".join(rows) + "</table>")
        total = yuan_fen(money.total)
        if money.complete:
            text = self.tr("Total incl. VAT: %1").replace("%1", total)
        else:
            text = (self.tr("At least %1 incl. VAT: 1 part has no price yet, so this is a lower bound")
                    .replace("%1", total) if money.unpriced == 1 else
                    self.tr("At least %1 incl. VAT: %2 parts have no price yet, so this is a lower bound")
                    .replace("%1", total).replace("%2", str(money.unpriced)))
        verdict = money.verdict
        if verdict is not None and verdict.budget_cny is not None:
            budget = yuan_fen(Decimal(str(verdict.budget_cny)))
            words = {"within": self.tr("within the budget of %1"), "over": self.tr("over the budget of %1"),
                     "unknown": self.tr("not known to be within the budget of %1")}
            if verdict.status in words:
                text += " · " + words[verdict.status].replace("%1", budget)
        self.money_total.setText(text)

    def _unknown_reason(self, key: str) -> str:
        """Why a gauge has nothing to compare with, in the buyer's words (instead of a bare dash)."""
        srv = self.controller.plan.server
        if key == "cooling":
            return self.tr("choose a chassis") if srv.chassis is None else self.tr("chassis airflow not published")
        if key == "pcie":
            return self.tr("choose a CPU") if srv.cpu is None else self.tr("CPU lanes not published")
        if key == "rack":
            if srv.chassis is None:
                return self.tr("choose a chassis")
            chassis = self.controller.catalog.typed(Chassis, srv.chassis)
            return self.tr("a tower: not in a rack") if chassis is not None and chassis.form == "tower" else "—"
        return self.tr("choose PSUs") if srv.psu.part is None and srv.chassis is None else \
            self.tr("PSU capacity not published")

    # -- widgets → plan
    def bind(self, path: str, widget: QWidget) -> None:
        """Register the widget that edits ``path`` (for focus_field and the findings' field markers)."""
        self.bound[path] = widget
        bind_field: Callable[[str, QWidget], None] | None = getattr(super(), "bind_field", None)
        if bind_field is not None:
            bind_field(path, widget)

    def focus_field(self, path: str) -> bool:
        widget = self.bound.get(path)
        while widget is None and "." in path:
            path = path.rsplit(".", 1)[0]
            widget = self.bound.get(path)
        if widget is None:
            return False
        focus_on_screen(widget)
        return True

    def set_field(self, path: str, value: Any, merge: bool = False, text: str | None = None) -> bool:
        """One undoable edit; a value the plan rejects is shown above the form, the plan is unchanged."""
        if self.refreshing:
            return False
        ctl = self.controller
        try:
            if auto_part_of(path) in ctl.plan.server.auto_chosen and ctl.value(path) != value:
                # the part becomes the buyer's own: Auto-configure will ask before replacing it
                ctl.replace_plan(hand_edit(ctl.plan, path, value), text or (lambda: ctl.field_label(path)),
                                 merge_key=path if merge else None)
            else:
                ctl.set_value(path, value, text=text, merge=merge)
        except PlanError as exc:
            self.error_label.setText(str(exc))
            self.error_label.show()
            return False
        self.error_label.hide()
        return True

    def _memory_part_changed(self, _index: int) -> None:
        part = self.memory_combo.currentData()
        if part is None:
            self.set_field("server.memory", None)
            return
        count = self.controller.plan.server.memory.count if self.controller.plan.server.memory else 1
        self.set_field("server.memory", {"part": part, "count": count})

    def _psu_part_changed(self, _index: int) -> None:
        part = self.psu_combo.currentData()
        psu = self.controller.plan.server.psu
        count = psu.count if part is None or psu.count else 1
        self.set_field("server.psu", {"part": part, "count": 0 if part is None else count,
                                      "redundancy": psu.redundancy.value})

    def auto_configure(self) -> None:
        """Apply the derived defaults as ONE undoable change; parts chosen by hand are replaced only when the
        buyer says so (otherwise the rest is configured around them)."""
        from gui import dialogs

        ctl = self.controller
        before, keep = ctl.plan, frozenset[str]()
        try:
            after, derived = auto_configured(ctl)
            replaced = describe_replacements(ctl.plan, derived, ctl.catalog, ctl.lang)
            if replaced:
                answer = dialogs.ask_replace_hand_chosen(self, replaced)
                if answer is None:
                    return
                if not answer:
                    keep = frozenset(would_replace(ctl.plan, derived))
                    after, derived = auto_configured(ctl, keep=keep)
        except Exception as exc:  # a slot must not die: say what went wrong, change nothing
            self.error_label.setText(self.tr("Auto-configure failed: %1").replace("%1", str(exc) or type(exc).__name__))
            self.error_label.show()
            return
        self._auto_reasons, self._auto_server = list(derived.reasons), after.server
        self._auto_from = (before, keep)
        self.controller.replace_plan(after, lambda: self.tr("Auto-configure"))
        self._show_auto_summary()
        if derived.missing:
            self.error_label.setText("\n".join(derived.missing))
            self.error_label.show()


def _set_labels(form: QFormLayout, texts: list[str]) -> None:
    for row, text in enumerate(texts):
        item = form.itemAt(row, QFormLayout.ItemRole.LabelRole)
        label = item.widget() if item is not None else None
        if isinstance(label, QLabel):
            label.setText(text)
            field = form.itemAt(row, QFormLayout.ItemRole.FieldRole)
            buddy = field.widget() if field is not None else None
            if buddy is not None:
                label.setBuddy(buddy)

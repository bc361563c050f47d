"""Dialog: the lines of an imported price file, each with the plan part it matched and how sure the match is,
for the buyer to confirm before the prices go into the plan."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from procurement.pricing.import_prices import PriceImport, PriceLine


@dataclass(frozen=True)
class PriceChoice:
    """What the buyer confirmed: the rows to apply, what kind of price they are and who gave them."""

    rows: frozenset[int]
    kind: Literal["vendor_quote", "company"]
    source: str


class PriceImportDialog(QDialog):
    """A table of the file's lines: a checkbox on each line matched to a plan part (exact and likely ones
    ticked), the extra lines (installation, shipping…) listed without one."""

    COLUMNS = 7
    EXTRAS_SHOWN = 200
    """Extra lines listed at most: a company price list of 10,000 models has thousands the plan does not use,
    and a table of them all would take seconds to build on the GUI thread for nothing to tick."""

    def __init__(self, result: PriceImport, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.price_import = result
        self.setWindowTitle(self.tr("Import prices — %1").replace("%1", result.path.name))
        matches, extras = result.matches, result.extras
        exact = sum(1 for m in matches if m.confidence == "exact")
        self.summary = QLabel(
            self.tr("%1 line(s) match a part of the plan exactly, %2 likely (check them); %3 extra line(s) match "
                    "no part and are not applied.")
            .replace("%1", str(exact)).replace("%2", str(len(matches) - exact)).replace("%3", str(len(extras))))
        self.summary.setWordWrap(True)
        self.kind = QComboBox()
        self.kind.addItem(self.tr("Vendor quote"), "vendor_quote")
        self.kind.addItem(self.tr("Company price list"), "company")
        self.kind.setCurrentIndex(max(0, self.kind.findData(result.kind)))
        self.source = QLineEdit(result.source)
        self.source.setMaxLength(200)
        form = QFormLayout()
        form.addRow(self.tr("Prices are a:"), self.kind)
        form.addRow(self.tr("Source (vendor, quote number):"), self.source)
        self.table = QTableWidget(0, self.COLUMNS)
        self.table.setHorizontalHeaderLabels([self.tr("Apply"), self.tr("Row"), self.tr("In the file"),
                                              self.tr("Unit price"), self.tr("VAT"), self.tr("Part in the plan"),
                                              self.tr("Match")])
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        self.row_of: list[int] = []
        for line in (*matches, *extras[:self.EXTRAS_SHOWN]):
            self._add(line)
        self.more = QLabel(self.tr("Only the first %1 extra lines are listed.").replace("%1", str(self.EXTRAS_SHOWN)))
        self.more.setVisible(len(extras) > self.EXTRAS_SHOWN)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.apply_button = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.apply_button.setText(self.tr("Apply prices"))
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addLayout(form)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.more)
        layout.addWidget(self.buttons)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self.table.itemChanged.connect(self._update_button)
        self._update_button()
        self.resize(900, 520)

    def _add(self, line: PriceLine) -> None:
        row = self.table.rowCount()
        self.table.insertRow(row)
        self.row_of.append(line.row)
        check = QTableWidgetItem()
        if line.matched:
            check.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsUserCheckable)
            check.setCheckState(Qt.CheckState.Checked)
        else:
            check.setFlags(Qt.ItemFlag.NoItemFlags)
        price = "" if line.unit_price_cny is None else f"¥{line.unit_price_cny:,.2f}"
        vat = {True: self.tr("incl."), False: self.tr("excl."), None: self.tr("not stated")}[line.includes_vat]
        confidence = {"exact": self.tr("exact"), "likely": self.tr("likely"),
                      "none": self.tr("extra line")}[line.confidence]
        match = f"{confidence}: {line.reason}" if line.reason else confidence
        cells = [check, QTableWidgetItem(str(line.row)), QTableWidgetItem(line.label), QTableWidgetItem(price),
                 QTableWidgetItem(vat if line.unit_price_cny is not None else ""), QTableWidgetItem(line.part_name),
                 QTableWidgetItem(match)]
        for col, item in enumerate(cells):
            if col:
                item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEditable)
            if line.confidence == "likely":
                item.setBackground(QBrush(QColor("#fff8e1")))  # the buyer's eye goes to what needs checking
            elif not line.matched:
                item.setForeground(QBrush(QColor("#757575")))
            self.table.setItem(row, col, item)

    def _update_button(self, *_args: object) -> None:
        self.apply_button.setEnabled(bool(self.checked_rows()))

    def checked_rows(self) -> frozenset[int]:
        rows = set()
        for index, file_row in enumerate(self.row_of):
            item = self.table.item(index, 0)
            if item is not None and item.checkState() == Qt.CheckState.Checked:
                rows.add(file_row)
        return frozenset(rows)

    def table_row(self, file_row: int) -> int:
        """The table row that shows row ``file_row`` of the file."""
        return self.row_of.index(file_row)

    def choice(self) -> PriceChoice:
        kind: Literal["vendor_quote", "company"] = (
            "company" if self.kind.currentData() == "company" else "vendor_quote")
        return PriceChoice(self.checked_rows(), kind, self.source.text().strip() or self.price_import.source)

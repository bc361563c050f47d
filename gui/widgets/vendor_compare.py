"""Vendors' quotes compared (三家比价): import a vendor's quote with a column mapping remembered per vendor and
each line's match confirmed or re-mapped; the offers side by side with the lowest compliant one marked; choose
one; export the comparison PDF. Every decision is a call into procurement.pricing.compare."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from PySide6.QtCore import QDate, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDateEdit,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from gui import workers
from gui.controller import PlanController
from gui.settings import Settings
from procurement.plan import VendorQuote
from procurement.pricing.compare import Comparison, LineProposal, OfferResult, OfferRow
from procurement.pricing.import_prices import FIELDS, Field_, PriceImport, column_letter

LIKELY_BG, SUBSTITUTE_BG, UNPRICED_BG = QColor("#fff8e1"), QColor("#fbe9c6"), QColor("#e8e8e8")
PASS_BG, FAIL_BG = QColor("#d9f2dc"), QColor("#f7d4d4")

Reread = Callable[[dict[Field_, int], "bool | None"], tuple[PriceImport, list[LineProposal]]]
"""The file read again with a column mapping and this vendor's VAT choice (None: as the file says)."""


def _money(value: float | None) -> str:
    return "" if value is None else f"¥{value:,.2f}"


def _qty(value: float | None) -> str:
    if value is None:
        return ""
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def mapping_by_header(result: PriceImport) -> dict[str, str]:
    """The columns an import was read with, by header text (what is remembered per vendor: a vendor's next
    file may move its columns but keeps their names)."""
    return {f: result.header[i] for f, i in result.mapping.items() if 0 <= i < len(result.header) and result.header[i]}


def mapping_from_headers(header: Sequence[str], remembered: dict[str, str]) -> dict[Field_, int] | None:
    """A remembered mapping applied to this file's header; None when one of its columns is not there."""
    out: dict[Field_, int] = {}
    for name, text in remembered.items():
        if name not in FIELDS or text not in header:
            return None
        out[name] = list(header).index(text)
    return out or None


class VendorQuoteDialog(QDialog):
    """One vendor's quote before it goes into the plan: the vendor and its terms, the column mapping (re-read on
    demand), and each line with the plan part it prices, what is offered, and how sure the match is."""

    COLUMNS = 7

    def __init__(self, result: PriceImport, proposals: list[LineProposal], parts: Sequence[tuple[str, str]],
                 names: dict[str, str], reread: Reread | None = None,
                 remembered: dict[str, dict[str, str]] | None = None, lang: str = "en",
                 alternatives: dict[str, list[tuple[str, str]]] | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.price_import, self.proposals, self.parts, self.names, self.reread = result, proposals, parts, names, reread
        self.alternatives = alternatives or {}
        """Plan part id → the catalog parts of its kind (id, name) a vendor may offer instead."""
        self.remembered, self.lang = remembered or {}, lang
        self.setWindowTitle(self.tr("Import a vendor's quote — %1").replace("%1", result.path.name))
        self.vendor = QComboBox()  # a vendor imported before brings back its columns
        self.vendor.setEditable(True)
        self.vendor.addItems(sorted(self.remembered))
        self.vendor.setCurrentText("")
        line_edit = self.vendor.lineEdit()
        assert line_edit is not None
        line_edit.setMaxLength(200)
        self.number = QLineEdit()
        self.number.setMaxLength(200)
        self.date = QDateEdit(QDate.currentDate())
        self.date.setCalendarPopup(True)
        self.date.setDisplayFormat("yyyy-MM-dd")
        self.delivery, self.warranty, self.payment = QLineEdit(), QLineEdit(), QLineEdit()
        for edit in (self.delivery, self.warranty, self.payment):
            edit.setMaxLength(200)
        info = QFormLayout()
        info.addRow(self.tr("Vendor:"), self.vendor)
        info.addRow(self.tr("Quote number:"), self.number)
        info.addRow(self.tr("Quote date:"), self.date)
        info.addRow(self.tr("Delivery:"), self.delivery)
        info.addRow(self.tr("Warranty:"), self.warranty)
        info.addRow(self.tr("Payment terms:"), self.payment)
        self.vat = QComboBox()  # this vendor's 含税/不含税, proposed from the file's headings and notes
        self.vat.addItem("", None)
        self.vat.addItem(self.tr("Included (含税)"), True)
        self.vat.addItem(self.tr("Excluded (不含税)"), False)
        self.vat_note = QLabel()
        self.vat_note.setWordWrap(True)
        info.addRow(self.tr("Unit prices VAT:"), self.vat)
        info.addRow("", self.vat_note)
        self.mapping_box = QGroupBox(self.tr("Columns (remembered for this vendor)"))
        self.mapping_combos: dict[Field_, QComboBox] = {}
        grid = QFormLayout(self.mapping_box)
        labels = {"part": self.tr("Part number / model"), "name": self.tr("Item name"),
                  "spec": self.tr("Specification"),
                  "price": self.tr("Unit price"), "price_incl": self.tr("Unit price incl. VAT"),
                  "price_excl": self.tr("Unit price excl. VAT"), "qty": self.tr("Quantity"),
                  "amount": self.tr("Amount"), "vat": self.tr("VAT included (yes/no)"), "date": self.tr("Date"),
                  "source": self.tr("Source")}
        for name in FIELDS:
            combo = QComboBox()
            combo.addItem(self.tr("(not used)"), -1)
            for index, text in enumerate(result.header):
                combo.addItem(f"{column_letter(index + 1)}: {text}", index)
            self.mapping_combos[name] = combo
            grid.addRow(labels[name] + ":", combo)
        self.reread_button = QPushButton(self.tr("Read again with these columns"))
        self.reread_button.setEnabled(reread is not None)
        grid.addRow(self.reread_button)
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.table = QTableWidget(0, self.COLUMNS)
        self.table.setHorizontalHeaderLabels([self.tr("Row"), self.tr("In the file"), self.tr("Qty"),
                                              self.tr("Unit price"), self.tr("Prices plan part"),
                                              self.tr("Offered"), self.tr("Match")])
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.ok_button = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.ok_button.setText(self.tr("Attach quote"))
        top = QHBoxLayout()
        top.addLayout(info, 1)
        top.addWidget(self.mapping_box, 1)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.summary)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.buttons)
        self._connect_signals()
        self._fill()
        self._fill_info()
        self.resize(1100, 680)

    def _fill_info(self) -> None:
        """What the file's header rows say (报价单号, 日期, 交货期, 质保, 付款方式, 供应商), for the person to
        confirm or correct."""
        info = self.price_import.info
        for key, edit in (("number", self.number), ("delivery", self.delivery), ("warranty", self.warranty),
                          ("payment", self.payment)):
            if info.get(key) and not edit.text():
                edit.setText(info[key])
        if info.get("vendor") and not self.vendor.currentText():
            self.vendor.setCurrentText(info["vendor"])
        m = re.fullmatch(r"(\d{4})\s*[-/.年]\s*(\d{1,2})\s*[-/.月]\s*(\d{1,2})\s*日?", info.get("date", ""))
        if m is not None and QDate(int(m[1]), int(m[2]), int(m[3])).isValid():
            self.date.setDate(QDate(int(m[1]), int(m[2]), int(m[3])))

    def _connect_signals(self) -> None:
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self.reread_button.clicked.connect(self.read_again)
        self.vendor.currentTextChanged.connect(self._update_ok)
        self.vendor.textActivated.connect(self.vendor_chosen)
        self.vat.activated.connect(lambda _i: self.read_again())

    def _fill_vat(self) -> None:
        """What the file says of VAT, shown beside the choice that decides it for this vendor."""
        result = self.price_import
        said = {True: self.tr("included (含税)"), False: self.tr("excluded (不含税)")}
        if result.vat_reading == "column":
            text = self.tr("The price column says it: %1").replace("%1", ", ".join(result.columns.values()))
        elif result.vat_statement is not None:
            text = (self.tr("The file says: “%1” → %2").replace("%1", result.vat_note)
                    .replace("%2", said[result.vat_statement]))
        elif result.vat_note:
            text = self.tr("The file says both: “%1” — choose").replace("%1", result.vat_note)
        else:
            text = self.tr("The file does not say: read as excluding VAT (the higher reading) unless you choose")
        self.vat.setItemText(0, self.tr("As the file says"))
        self.vat_note.setText(text)
        self.vat.setEnabled(result.vat_reading != "column")

    def _fill(self) -> None:
        self._fill_vat()
        for name, combo in self.mapping_combos.items():
            combo.setCurrentIndex(max(0, combo.findData(self.price_import.mapping.get(name, -1))))
        self.table.setRowCount(0)
        self.part_combos: list[QComboBox] = []
        self.offer_combos: list[QComboBox] = []
        for proposal in self.proposals:
            self._add(proposal)
        priced = sum(1 for p in self.proposals if p.for_part is not None)
        subs = sum(1 for p in self.proposals if p.offered is not None)
        extras = len(self.proposals) - priced
        self.summary.setText(self.tr("%1 line(s) price a part of the plan (%2 a substitute); %3 extra line(s) "
                                     "(installation, shipping, warranty…) are kept as they are.")
                             .replace("%1", str(priced)).replace("%2", str(subs)).replace("%3", str(extras)))
        self._update_ok()

    def _add(self, p: LineProposal) -> None:
        row = self.table.rowCount()
        self.table.insertRow(row)
        parts = QComboBox()
        parts.addItem(self.tr("Extra line (no plan part)"), None)
        for pid, name in self.parts:
            parts.addItem(name, pid)
        parts.setCurrentIndex(max(0, parts.findData(p.for_part)))
        offered = QComboBox()
        confidence = {"exact": self.tr("exact"), "likely": self.tr("likely"), "none": self.tr("no match")}
        match = confidence[p.confidence] + (f": {p.reason}" if p.reason else "")
        price = _money(p.unit_price_cny) or self.tr("not priced")
        cells = [QTableWidgetItem(str(p.row)), QTableWidgetItem(p.text), QTableWidgetItem(_qty(p.quantity)),
                 QTableWidgetItem(price), None, None, QTableWidgetItem(match)]
        for col, item in enumerate(cells):
            if item is None:
                continue
            if p.confidence == "likely":
                item.setBackground(QBrush(LIKELY_BG))  # the buyer's eye goes to what needs checking
            self.table.setItem(row, col, item)
        self.table.setCellWidget(row, 4, parts)
        self.table.setCellWidget(row, 5, offered)
        self.part_combos.append(parts)
        self.offer_combos.append(offered)
        self._fill_offered(row, p.offered or ("unknown" if p.substitute_unknown else "same"))
        parts.currentIndexChanged.connect(lambda _i, r=row: self._fill_offered(r, "same"))

    def _fill_offered(self, row: int, selected: str) -> None:
        """What the vendor offers for the line's plan part: that part, another catalog part of its kind, or a part
        the catalog does not know; an extra line offers nothing in place of a plan part."""
        combo, for_part = self.offer_combos[row], self.part_combos[row].currentData()
        combo.clear()
        combo.addItem(self.tr("The plan's part"), "same")
        choices = list(self.alternatives.get(for_part, [])) if for_part is not None else []
        if selected not in ("same", "unknown") and selected not in {pid for pid, _ in choices}:
            choices.insert(0, (selected, self.names.get(selected, selected)))
        for pid, name in choices:
            combo.addItem(self.tr("Substitute: %1").replace("%1", name), pid)
        combo.addItem(self.tr("Substitute not in the catalog"), "unknown")
        combo.setCurrentIndex(max(0, combo.findData(selected)))
        combo.setEnabled(for_part is not None)

    def set_offered(self, file_row: int, part_id: str | None) -> None:
        """What the vendor offers on the line of file row ``file_row``: a catalog part id, None for the plan's own
        part, or 'unknown' (a part the catalog does not know), as a person picks it."""
        combo = self.offer_combos[self.table_row(file_row)]
        combo.setCurrentIndex(combo.findData(part_id or "same"))

    def _update_ok(self, *_args: object) -> None:
        self.ok_button.setEnabled(bool(self.vendor.currentText().strip()))

    def vendor_chosen(self, vendor: str) -> None:
        """A vendor imported before: its columns as remembered (by header name), and the file read again."""
        from procurement.pricing.import_prices import FIELDS

        remembered = self.remembered.get(vendor.strip())
        mapping = mapping_from_headers(self.price_import.header, remembered) if remembered else None
        if mapping is None or mapping == self.price_import.mapping:
            return
        for name in FIELDS:
            combo = self.mapping_combos[name]
            combo.setCurrentIndex(max(0, combo.findData(mapping.get(name, -1))))
        self.read_again()

    def mapping(self) -> dict[Field_, int]:
        return {name: combo.currentData() for name, combo in self.mapping_combos.items() if combo.currentData() >= 0}

    def read_again(self) -> None:
        """The file read again with the columns as mapped now (the line matches start over)."""
        if self.reread is None:
            return
        from procurement.pricing.import_prices import PriceFileError

        try:
            self.price_import, self.proposals = self.reread(self.mapping(), self.vat.currentData())
        except PriceFileError as exc:
            workers.show_error(self, self.windowTitle(), exc.message("zh" if self.lang == "zh" else "en"))
            return
        self._fill()

    def set_part(self, file_row: int, part_id: str | None) -> None:
        """Re-map the line of file row ``file_row`` to a plan part (None: an extra line), as a person would."""
        index = [p.row for p in self.proposals].index(file_row)
        combo = self.part_combos[index]
        combo.setCurrentIndex(combo.findData(part_id))

    def table_row(self, file_row: int) -> int:
        return [p.row for p in self.proposals].index(file_row)

    def quote(self) -> VendorQuote:
        from procurement.pricing.compare import quote_from

        confirmed: list[LineProposal] = []
        for p, parts, offered in zip(self.proposals, self.part_combos, self.offer_combos, strict=True):
            for_part = parts.currentData()
            what = offered.currentData()
            if for_part is None:
                confirmed.append(_replace(p, for_part=None, offered=None, substitute_unknown=False))
            elif what == "unknown":
                confirmed.append(_replace(p, for_part=for_part, offered=None, substitute_unknown=True))
            elif what == "same":
                confirmed.append(_replace(p, for_part=for_part, offered=None, substitute_unknown=False))
            else:
                confirmed.append(_replace(p, for_part=for_part, offered=what, substitute_unknown=False))
        d = self.date.date()
        return quote_from(confirmed, self.vendor.currentText().strip(), number=self.number.text().strip(),
                          date=dt.date(d.year(), d.month(), d.day()), delivery=self.delivery.text().strip(),
                          warranty=self.warranty.text().strip(), payment_terms=self.payment.text().strip(),
                          document=self.price_import.path.name[:500])


def _replace(p: LineProposal, **changes: Any) -> LineProposal:
    from dataclasses import replace

    return replace(p, **changes)


def ask_vendor_quote(parent: QWidget | None, dialog: VendorQuoteDialog) -> VendorQuote | None:
    """The vendor quote the person confirms in ``dialog``; None when cancelled (tests replace this)."""
    try:
        return dialog.quote() if dialog.exec() == QDialog.DialogCode.Accepted else None
    finally:
        dialog.deleteLater()


class VendorComparisonView(QWidget):
    """The vendors' quotes attached to the plan side by side: a summary per offer (terms, sum, rules on the
    vendor's variant, lowest compliant, chosen) and the lines per vendor, with Import, Remove, Choose and Export."""

    work_done = Signal()

    def __init__(self, controller: PlanController, settings: Settings | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        self.settings = settings
        self.comparison: Comparison | None = None
        self._stale = True
        self.job: workers.Job | None = None
        self.import_button = QPushButton(self.tr("Import vendor quote…"))
        self.remove_button = QPushButton(self.tr("Remove"))
        self.choose_button = QPushButton(self.tr("Choose this offer"))
        self.export_button = QPushButton(self.tr("Export comparison PDF…"))
        self.lowest_label = QLabel()
        self.lowest_label.setWordWrap(True)
        self.status_label = QLabel()
        self.status_label.setWordWrap(True)
        self.offers = QTableWidget(0, 9)
        self.offers.setHorizontalHeaderLabels([
            self.tr("Vendor"), self.tr("Quote number / date"), self.tr("Delivery"), self.tr("Warranty"),
            self.tr("Payment terms"), self.tr("Total incl. VAT"), self.tr("Rules on the vendor's variant"),
            self.tr("Budget"), self.tr("Result")])
        self.offers.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.offers.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.offers.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.offers.verticalHeader().hide()
        self.offers.setWordWrap(True)
        self.offers.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.offers.horizontalHeader().setStretchLastSection(True)
        self.lines = QTableWidget(0, 2)
        self.lines.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.lines.verticalHeader().hide()
        self.lines.setWordWrap(True)
        self.details = QLabel()
        self.details.setWordWrap(True)
        self.details.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        buttons = QHBoxLayout()
        for b in (self.import_button, self.remove_button, self.choose_button, self.export_button):
            buttons.addWidget(b)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addLayout(buttons)
        layout.addWidget(self.lowest_label)
        layout.addWidget(self.offers, 1)
        layout.addWidget(self.details)
        layout.addWidget(self.lines, 4)
        layout.addWidget(self.status_label)
        self._connect_signals()
        self.refresh()

    def _connect_signals(self) -> None:
        self.controller.plan_changed.connect(self.refresh)
        self.import_button.clicked.connect(self.import_quote)
        self.remove_button.clicked.connect(self.remove_selected)
        self.choose_button.clicked.connect(self.choose_selected)
        self.export_button.clicked.connect(self.export_comparison)
        self.offers.itemSelectionChanged.connect(self._selection_changed)

    # -- plan → widgets
    def showEvent(self, event: QShowEvent) -> None:  # Qt override
        super().showEvent(event)
        if self._stale:
            self.refresh()

    def refresh(self) -> None:
        """The comparison again (the rules run once per vendor): only while shown, else when next shown, so that
        a closed comparison window costs an edit nothing."""
        from procurement.pricing.compare import compare

        if not self.isVisible():
            self._stale = True
            return
        self._stale = False
        ctl = self.controller
        selected = self.selected_vendor()
        self.comparison = cmp = compare(ctl.plan, ctl.catalog, ctl.policy, ctl.lang)
        self.offers.setRowCount(len(cmp.offers))
        for row, o in enumerate(cmp.offers):
            self._offer_row(row, o, cmp)
        self.offers.resizeColumnsToContents()
        self.offers.resizeRowsToContents()
        if cmp.offers:
            self.lowest_label.setText(self._lowest_text(cmp))
        else:
            self.lowest_label.setText(self.tr("No vendor quote attached yet: import each vendor's quote (XLSX or "
                                              "CSV) to compare them."))
        self._lines(cmp)
        vendors = [o.vendor for o in cmp.offers]
        if selected in vendors:
            self.offers.selectRow(vendors.index(selected))
        self._selection_changed()
        self.export_button.setEnabled(bool(cmp.offers))

    def _lowest_text(self, cmp: Comparison) -> str:
        lang = self.controller.lang
        if not cmp.lowest:
            return cmp.lowest_text(lang)
        text = self.tr("Lowest compliant offer: %1.").replace("%1", ", ".join(cmp.lowest))
        if cmp.provisional:
            text += " " + self.tr("Provisional: %1.").replace("%1", cmp.provisional_why(lang))
        if cmp.chosen:
            text += " " + self.tr("Chosen: %1.").replace("%1", cmp.chosen)
        return text

    def _offer_row(self, row: int, o: OfferResult, cmp: Comparison) -> None:
        from procurement.messages import t

        lang = self.controller.lang
        q = o.quote
        total = _money(o.gross_cny)
        if not o.complete:
            total = self.tr("at least %1 (lower bound: %2 line(s) unpriced)").replace("%1", total).replace(
                "%2", str(len(o.unpriced)))
        rules = t(f"compare.compliance.{o.compliance}", lang)
        budget = {"within": self.tr("within budget"), "over": self.tr("over budget"),
                  "unknown": self.tr("unknown (unpriced lines)"), "no_budget": self.tr("no budget set")}
        marks = []
        if o.vendor in cmp.lowest:
            marks.append(self.tr("★ lowest compliant (provisional)") if cmp.provisional
                         else self.tr("★ lowest compliant"))
        if o.vendor == cmp.chosen:
            marks.append(self.tr("✔ chosen"))
        cells = [o.vendor, " / ".join(x for x in (q.number, q.date.isoformat() if q.date else "") if x),
                 q.delivery, q.warranty, q.payment_terms, total, rules, budget[o.verdict().status], "\n".join(marks)]
        for col, text in enumerate(cells):
            item = QTableWidgetItem(text)
            if col == 6:
                item.setBackground(QBrush({"compliant": PASS_BG, "fails": FAIL_BG}.get(o.compliance, UNPRICED_BG)))
                item.setToolTip("\n".join(o.reasons))
            if col == 5 and not o.complete:
                item.setBackground(QBrush(UNPRICED_BG))
            if col == 8 and marks:
                item.setBackground(QBrush(PASS_BG))
            self.offers.setItem(row, col, item)

    def _lines(self, cmp: Comparison) -> None:
        offers = cmp.offers
        self.lines.clear()
        self.lines.setColumnCount(2 + len(offers))
        self.lines.setHorizontalHeaderLabels([self.tr("Item"), self.tr("Qty"), *(o.vendor for o in offers)])
        base = [r for r in offers[0].rows if r.path is not None] if offers else []
        extras = [(col, r) for col, o in enumerate(offers, 2) for r in o.rows if r.path is None]
        self.lines.setRowCount(len(base) + len(extras))
        for row, line in enumerate(base):
            self.lines.setItem(row, 0, QTableWidgetItem(line.name))
            self.lines.setItem(row, 1, QTableWidgetItem(_qty(line.quantity)))
            for col, o in enumerate(offers, 2):
                found = next((x for x in o.rows if x.path == line.path), None)
                self.lines.setItem(row, col, self._cell(found, o))
        for index, (col, line) in enumerate(extras, len(base)):
            vendor = offers[col - 2].vendor
            self.lines.setItem(index, 0, QTableWidgetItem(self.tr("%1: %2").replace("%1", vendor)
                                                          .replace("%2", line.name)))
            self.lines.setItem(index, 1, QTableWidgetItem(_qty(line.quantity)))
            self.lines.setItem(index, col, self._cell(line, offers[col - 2]))
        header = self.lines.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.lines.resizeColumnsToContents()
        self.lines.resizeRowsToContents()

    def _cell(self, row: OfferRow | None, offer: OfferResult) -> QTableWidgetItem:
        if row is None or not row.quoted:
            item = QTableWidgetItem(self.tr("not quoted"))
            item.setBackground(QBrush(UNPRICED_BG))
            return item
        parts = []
        if row.unit_cny is not None:
            vat = {True: self.tr("incl. VAT"), False: self.tr("excl. VAT"), None: self.tr("VAT not stated")}
            parts.append(f"{_money(row.unit_cny)} ({vat[row.includes_vat]})")
            parts.append(self.tr("line incl. VAT %1").replace("%1", _money(row.gross_cny(offer.vat_rate_pct))))
        parts += list(row.notes)
        item = QTableWidgetItem("\n".join(parts))
        if row.unit_cny is None:
            item.setBackground(QBrush(UNPRICED_BG))
        elif row.substitution != "none":
            item.setBackground(QBrush(SUBSTITUTE_BG))
        return item

    def selected_vendor(self) -> str | None:
        rows = self.offers.selectionModel().selectedRows() if self.offers.selectionModel() else []
        if not rows:
            return None
        item = self.offers.item(rows[0].row(), 0)
        return item.text() if item is not None else None

    def _selection_changed(self) -> None:
        vendor = self.selected_vendor()
        cmp = self.comparison
        offer = cmp.offer(vendor) if cmp is not None and vendor is not None else None
        self.remove_button.setEnabled(offer is not None)
        self.choose_button.setEnabled(offer is not None and vendor != self.controller.plan.chosen_vendor)
        if offer is None:
            self.details.setText("")
            return
        lines = [f"{offer.vendor}: " + (self.tr("nothing to say about its variant.") if not offer.findings
                                        and not offer.reasons else "")]
        lines += list(offer.reasons)
        lines += [f"[{f.severity.value}] {f.rule}: {f.message_text(self.controller.lang)}" for f in offer.findings
                  if f.severity.value != "error"]
        self.details.setText("\n".join(lines))

    def select(self, vendor: str) -> None:
        vendors = [item.text() if (item := self.offers.item(r, 0)) is not None else ""
                   for r in range(self.offers.rowCount())]
        self.offers.selectRow(vendors.index(vendor))

    # -- widgets → plan
    def choose_selected(self) -> None:
        from procurement.pricing.compare import choose

        vendor = self.selected_vendor()
        if vendor is None:
            return
        self.controller.replace_plan(choose(self.controller.plan, vendor),
                                     lambda: self.tr("Choose the offer of %1").replace("%1", vendor))

    def remove_selected(self) -> None:
        from procurement.pricing.compare import without_quote

        vendor = self.selected_vendor()
        if vendor is None:
            return
        self.controller.replace_plan(without_quote(self.controller.plan, vendor),
                                     lambda: self.tr("Remove the quote of %1").replace("%1", vendor))

    def import_quote(self) -> workers.Job | None:
        """Pick a vendor's file, read and match it in a worker, then let the person confirm vendor, columns and
        lines; the quote is attached as one undoable edit and its column mapping remembered for the vendor."""
        from procurement.pricing.compare import propose_lines
        from procurement.pricing.import_prices import PriceFileError, import_for_plan

        paths = workers.ask_open_paths(self, self.tr("Import vendor quote"),
                                       self.tr("Quotes (*.xlsx *.xlsm *.csv *.tsv *.txt)"))
        if not paths:
            return None
        path = paths[0]
        ctl = self.controller
        plan, catalog, lang = ctl.plan, ctl.catalog, ctl.lang

        def read(mapping: dict[Field_, int] | None, vat: bool | None = None) -> tuple[PriceImport, list[LineProposal]]:
            result = import_for_plan(path, plan, catalog, kind="vendor_quote", mapping=mapping, includes_vat=vat,
                                     lang=lang)
            return result, propose_lines(result, plan, catalog, lang)

        def first_read(_progress: object, _cancelled: object) -> object:
            try:
                return read(None, None)
            except PriceFileError as exc:  # shown in the reader's language with file, sheet, row and column
                return exc

        self.status_label.setText(self.tr("Reading %1…").replace("%1", path.name))
        self.import_button.setEnabled(False)
        self.job = workers.Job(first_read)
        self.job.succeeded.connect(lambda result: self._quote_read(result, read))
        self.job.failed.connect(lambda msg: workers.show_error(self, self.tr("Import vendor quote"), msg))
        self.job.finished.connect(lambda: self.import_button.setEnabled(True))
        self.job.finished.connect(self.work_done)
        self.job.start()
        return self.job

    def _quote_read(self, result: object, read: Reread) -> None:
        from procurement.pricing.compare import with_quote
        from procurement.pricing.import_prices import PriceFileError, plan_parts

        ctl = self.controller
        plan, catalog, lang = ctl.plan, ctl.catalog, ctl.lang
        if isinstance(result, PriceFileError):  # nothing in the plan changed
            message = result.message(lang)
            self.status_label.setText(self.tr("Nothing imported: %1").replace("%1", message))
            workers.show_error(self, self.tr("Import vendor quote"), message)
            return
        assert isinstance(result, tuple)
        price_import, proposals = result
        own = plan_parts(plan, catalog)
        parts = [(p.id, p.name) for p in own]
        names = {p.id: p.name for by_id in catalog.parts.values() for p in by_id.values()}
        alternatives = {p.id: sorted(((q.id, q.name) for q in catalog.parts.get(p.kind, {}).values() if q.id != p.id),
                                     key=lambda x: x[1]) for p in own}
        dialog = VendorQuoteDialog(price_import, proposals, parts, names, reread=read, remembered=self._mappings(),
                                   lang=lang, alternatives=alternatives, parent=self)
        quote = ask_vendor_quote(self, dialog)
        if quote is None:
            self.status_label.setText(self.tr("Nothing imported."))
            return
        self._remember(quote.vendor, mapping_by_header(dialog.price_import))
        ctl.replace_plan(with_quote(ctl.plan, quote),
                         lambda: self.tr("Import the quote of %1").replace("%1", quote.vendor))
        self.status_label.setText(self.tr("Quote of %1 attached (%2 line(s)).").replace("%1", quote.vendor)
                                  .replace("%2", str(len(quote.lines))))
        self.select(quote.vendor)

    def _mappings(self) -> dict[str, dict[str, str]]:
        return self.settings.vendor_mappings if self.settings is not None else {}

    def _remember(self, vendor: str, mapping: dict[str, str]) -> None:
        if self.settings is not None and mapping:
            self.settings.set_vendor_mapping(vendor, mapping)

    def render_pdf(self) -> bytes:
        from procurement.reports.comparison_pdf import render_comparison_pdf

        ctl = self.controller
        return render_comparison_pdf(ctl.plan, ctl.catalog, policy=ctl.policy, lang=ctl.lang)

    def export_comparison(self) -> workers.Job | None:
        from procurement.messages import t
        from procurement.reports.common import safe_filename
        from procurement.reports.comparison_pdf import render_comparison_pdf

        ctl = self.controller
        plan, catalog, policy, lang = ctl.plan, ctl.catalog, ctl.policy, ctl.lang
        suggested = Path(safe_filename(f"{t('cmp.file', lang)}-{plan.title or 'plan'}"))
        job = workers.start_export(self, self.tr("Export comparison"), suggested,
                                   lambda: render_comparison_pdf(plan, catalog, policy=policy, lang=lang), lang,
                                   self.status_label, self.export_button, self.work_done)
        if job is not None:
            self.job = job
        return job


class VendorComparisonDialog(QDialog):
    """The comparison view in its own window, beside the quote page."""

    def __init__(self, controller: PlanController, settings: Settings | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Vendors' quotes compared"))
        self.view = VendorComparisonView(controller, settings, self)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.view, 1)
        layout.addWidget(buttons)
        self.resize(1200, 760)

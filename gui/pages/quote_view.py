"""Page: the quote — line items and totals from the reports module, buyer/vendor fields, export, print preview."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QObject, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QGuiApplication, QPainter, QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemDelegate,
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QStyle,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from gui import workers
from gui.controller import PlanController
from gui.numbers import percent
from gui.pages.base import StepPage, focus_on_screen
from gui.widgets.money import million_text
from gui.widgets.spin import SpinBox, show_value
from procurement.messages import t
from procurement.plan import EnteredPrice, PlanError

if TYPE_CHECKING:  # reportlab loads with the first export, not with the page
    from procurement.reports.quote import Document


def _money(value: Decimal | None, on_request: str) -> str:
    return on_request if value is None else f"¥{value:,.2f}"


_SHORT_COLUMNS = (0, 3, 4, 5)
PARTY_KEYS = ("name", "contact", "address", "phone", "tax_id", "bank", "bank_account")


class VisibleRowHeights(QObject):
    """Wrapped rows as tall as their text, measured only for the rows on screen, when they come on screen and
    again when the columns change width. Qt's ResizeToContents row mode measures the wrapped text of every row
    at each layout: 140 ms on the GUI thread for the 508-row quote when its page was shown (and the export
    from the File menu starts by showing it), docs/reliability.md."""

    def __init__(self, table: QTableWidget) -> None:
        super().__init__(table)
        self.table = table
        self._sized: set[int] = set()
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self.fit)
        bar = table.verticalScrollBar()
        bar.valueChanged.connect(self.schedule)
        bar.rangeChanged.connect(self.schedule)  # the viewport got taller or shorter
        table.horizontalHeader().sectionResized.connect(self.widths_changed)

    def schedule(self, *_args: object) -> None:
        self._timer.start()

    def widths_changed(self, *_args: object) -> None:
        """Text wraps differently at another width: every row is measured again when next on screen."""
        self._sized.clear()
        self.schedule()

    def fit(self) -> None:
        """Size the rows now on screen that were not sized at the current widths."""
        table = self.table
        bottom = table.viewport().height()
        row = max(0, table.rowAt(0))
        while row < table.rowCount() and table.rowViewportPosition(row) < bottom:
            if row not in self._sized:
                table.resizeRowToContents(row)
                self._sized.add(row)
            row += 1


PREVIEW_SIZE = (800, 1000)
"""The preview's size where the screen has room (logical pixels): an A4 page at a readable width."""


class PrintPreviewDialog(QDialog):
    """Shows the exact PDF bytes that Export writes (QtPdf) and prints those pages: one source for both."""

    def __init__(self, pdf: bytes, title: str, parent: QWidget | None = None) -> None:
        from PySide6.QtPdf import QPdfDocument  # QtPdf loads with the first preview, not with the window
        from PySide6.QtPdfWidgets import QPdfView

        super().__init__(parent)
        self.pdf = pdf
        self.setWindowTitle(title)
        self._buffer = QBuffer(self)
        self._buffer.setData(QByteArray(pdf))
        self._buffer.open(QIODevice.OpenModeFlag.ReadOnly)
        self.document = QPdfDocument(self)
        self.document.load(self._buffer)
        self.view = QPdfView(self)
        self.view.setPageMode(QPdfView.PageMode.MultiPage)
        self.view.setZoomMode(QPdfView.ZoomMode.FitToWidth)
        self.view.setDocument(self.document)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        self.print_button = self.buttons.addButton(self.tr("Print…"), QDialogButtonBox.ButtonRole.ActionRole)
        pages = self.document.pageCount()
        self.pages_label = QLabel(self.tr("1 page") if pages == 1 else self.tr("%1 pages").replace("%1", str(pages)))
        layout = QVBoxLayout(self)
        layout.addWidget(self.view, 1)
        row = QHBoxLayout()
        row.addWidget(self.pages_label)
        row.addWidget(self.buttons, 1)
        layout.addLayout(row)
        self.buttons.rejected.connect(self.reject)
        self.print_button.clicked.connect(self.print_pages)
        self.resize(*PREVIEW_SIZE)
        self._fitted = False

    def showEvent(self, event: QShowEvent) -> None:  # Qt override
        super().showEvent(event)
        if not self._fitted:  # once: later the user's own resizing wins
            self._fitted = True
            self.fit_to_screen()

    def fit_to_screen(self) -> None:
        """Shrink to the screen's available area (less the window frame) and centre on it, so that Print and
        Close stay on screen at 1280×800 or at 2× scale (a fixed 800×1000 put them below the taskbar)."""
        screen = self.screen() or QGuiApplication.primaryScreen()
        if screen is None:
            return
        avail = screen.availableGeometry()
        frame_w = max(self.frameGeometry().width() - self.width(), 0)
        frame_h = max(self.frameGeometry().height() - self.height(), 0)
        width = min(PREVIEW_SIZE[0], avail.width() - frame_w)
        height = min(PREVIEW_SIZE[1], avail.height() - frame_h)
        self.resize(max(width, self.minimumSizeHint().width()), max(height, self.minimumSizeHint().height()))
        left = avail.left() + max((avail.width() - self.width() - frame_w) // 2, 0)
        top = avail.top() + max((avail.height() - self.height() - frame_h) // 2, 0)
        self.move(left, top)

    def print_pages(self) -> bool:
        printer = workers.ask_printer(self)
        if printer is None:
            return False
        self.print_to(printer)
        return True

    def print_to(self, printer: Any) -> int:
        """Print the chosen pages of the document on ``printer``; returns the number of pages sent.

        The PDF itself is sent, never a picture of it: to a PDF printer (a file) the chosen pages are written
        as they are, text layer included; to a CUPS printer they go to `lp`, which rasterises at the
        printer's own resolution. Only where neither is possible (e.g. a Windows printer) are the pages
        painted, at no more than 300 dpi."""
        from PySide6.QtPrintSupport import QPrinter

        from procurement.reports.printing import lp_available, normalise_pages, select_pages, send_to_lp

        count = self.document.pageCount()
        pages = normalise_pages(_chosen_pages(printer), count)
        try:
            if printer.outputFormat() == QPrinter.OutputFormat.PdfFormat and printer.outputFileName():
                from procurement.reports import write_pdf

                write_pdf(printer.outputFileName(), select_pages(self.pdf, pages, count))
                return len(pages)
            if printer.printerName() and lp_available():
                send_to_lp(select_pages(self.pdf, pages, count), printer.printerName(), printer.copyCount(),
                           self.windowTitle())
                return len(pages)
        except OSError as exc:
            workers.show_error(self, self.windowTitle(), str(exc))
            return 0
        return self._paint_pages(printer, pages)

    def _paint_pages(self, printer: Any, pages: list[int]) -> int:
        from PySide6.QtPrintSupport import QPrinter

        painter = QPainter()
        if not painter.begin(printer):
            workers.show_error(self, self.windowTitle(), self.tr("The printer could not be started."))
            return 0
        try:
            target = printer.pageRect(QPrinter.Unit.DevicePixel)
            dpi = min(printer.resolution(), 300)  # enough for text; 1200 dpi pages took a gigabyte
            for n, page in enumerate(pages):
                if n:
                    printer.newPage()
                size = self.document.pagePointSize(page - 1)
                scale = min(target.width() / size.width(), target.height() / size.height())
                pixels = QSize(int(size.width() * dpi / 72), int(size.height() * dpi / 72))
                image = self.document.render(page - 1, pixels)
                painter.save()
                painter.scale(scale * 72 / dpi, scale * 72 / dpi)
                painter.drawImage(0, 0, image)
                painter.restore()
        finally:
            painter.end()
        return len(pages)


def _chosen_pages(printer: Any) -> list[int]:
    """The 1-based pages the print dialog chose ([] for all)."""
    from PySide6.QtPrintSupport import QPrinter

    ranges = printer.pageRanges()
    if not ranges.isEmpty():
        return [p for r in ranges.toRangeList() for p in range(r.from_, r.to + 1)]
    if printer.printRange() == QPrinter.PrintRange.PageRange and printer.fromPage() > 0:
        return list(range(printer.fromPage(), max(printer.fromPage(), printer.toPage()) + 1))
    return []


def _two_lines(heading: str) -> str:
    """A long column heading on two lines ('Unit price\nincl. VAT'), broken at the space nearest its middle: the
    price columns are as wide as their headings, and on one line they left the part and spec columns a few
    pixels at 1024 px (a Chinese heading, without spaces, is short and stays on one line)."""
    if len(heading) < 14 or " " not in heading:
        return heading
    middle = len(heading) / 2
    cut = min((i for i, ch in enumerate(heading) if ch == " "), key=lambda i: abs(i - middle))
    return heading[:cut] + "\n" + heading[cut + 1:]


class QuotePage(StepPage):
    step = 0
    follows_findings = True
    work_done = Signal()
    """An export or print job has finished (its results are shown by then)."""

    def __init__(self, controller: PlanController, parent: QWidget | None = None) -> None:
        super().__init__(controller, parent)
        self.job: workers.Job | None = None
        self.fields: dict[str, QLineEdit] = {}
        self.info_box = QGroupBox()
        self.info_form = QFormLayout(self.info_box)
        self.number_edit = QLineEdit()
        self.validity = SpinBox()
        self.validity.setRange(1, 3650)
        self.info_form.addRow(QLabel(), self.number_edit)
        self.info_form.addRow(QLabel(), self.validity)
        self.parties: dict[str, QGroupBox] = {}
        party_row = QHBoxLayout()
        for party in ("buyer", "vendor"):
            box = QGroupBox()
            form = QFormLayout(box)
            for key in PARTY_KEYS:
                edit = QLineEdit()
                self.fields[f"quote.{party}.{key}"] = edit
                form.addRow(QLabel(), edit)
            self.parties[party] = box
            party_row.addWidget(box)
        self.fields["quote.number"] = self.number_edit
        # the commercial terms and the cost of ownership, one tab each under the parties
        from gui.widgets.quote_terms import QuoteTermsEditor, TcoEditor

        self.terms = QuoteTermsEditor(controller)
        self.tco = TcoEditor(controller)
        self.details_tabs = QTabWidget()
        self.details_tabs.setUsesScrollButtons(True)  # four tab titles need not fit side by side
        self.details_tabs.addTab(self.terms, "")
        self.details_tabs.addTab(self.tco, "")
        self.table = QTableWidget(0, 6)
        # the unit price cells take the buyer's own prices (a vendor's offer, a known price): F2, a double
        # click or typing a digit starts editing; every other cell is read-only
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.DoubleClicked
                                   | QAbstractItemView.EditTrigger.EditKeyPressed
                                   | QAbstractItemView.EditTrigger.AnyKeyPressed)
        self.row_parts: list[str] = []
        self._pending_prices: list[tuple[str, str, str]] = []
        """Prices typed into the table and not applied yet (part id, text as typed, the part's name)."""
        self.vat_included = QCheckBox()
        self.vat_included.setChecked(True)  # Chinese vendors quote VAT-inclusive (含税) prices
        self.table.verticalHeader().hide()
        # the short columns are sized from their texts once per refresh (_fit_columns): ResizeToContents
        # measured all 508 rows of each at every layout, 40-60 ms whenever the page was shown
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        # part names and key specs share the room and wrap (rows grow) instead of eliding the specs
        self.table.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.table.horizontalHeader().setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        self.table.setWordWrap(True)
        self.row_heights = VisibleRowHeights(self.table)
        self.totals_label = QLabel()
        self.totals_label.setAlignment(Qt.AlignmentFlag.AlignRight)
        self.totals_label.setWordWrap(True)
        self.totals_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.empty_label = QLabel()  # in place of the table while the plan has nothing to quote
        self.empty_label.setObjectName("quoteEmpty")
        self.empty_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty_label.setStyleSheet("color: #616161; font-size: 14px")
        self.notes_label = QLabel()  # the quote's notes: node count, included PSUs, price dates, VAT
        self.notes_label.setObjectName("quoteNotes")
        self.notes_label.setWordWrap(True)
        self.notes_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.paper_combo = QComboBox()
        self.paper_combo.addItem("A4", "a4")
        self.paper_combo.addItem("Letter", "letter")
        self.import_button = QPushButton()
        self.compare_button = QPushButton()  # vendors' quotes side by side (gui/widgets/vendor_compare.py)
        self.comparison: Any = None
        self.export_button = QPushButton()
        self.rfq_button = QPushButton()
        self.print_button = QPushButton()
        self.status_label = QLabel()
        # a long "Saved /home/…/quote.pdf" wraps instead of widening the page past the window
        self.status_label.setWordWrap(True)
        # two rows: the prices' sources, then the documents; in one row the six buttons made the page 662 px
        # wide at least, past the window at 1024 × 768 with the findings beside it
        sources = QHBoxLayout()
        sources.addWidget(self.import_button)
        sources.addWidget(self.compare_button)
        sources.addStretch(1)
        documents = QHBoxLayout()
        documents.addWidget(self.status_label, 1)
        documents.addWidget(self.paper_combo)
        documents.addWidget(self.rfq_button)
        documents.addWidget(self.export_button)
        documents.addWidget(self.print_button)
        buttons = QVBoxLayout()
        buttons.addLayout(sources)
        buttons.addLayout(documents)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        self.add_heading(outer)
        outer.addWidget(self.info_box)
        # one tab each: the line items (first, with the room they need), the parties, the commercial terms and the
        # cost of ownership; Ctrl+Tab / Ctrl+Shift+Tab or the tab bar switch between them
        items = QWidget()
        items_layout = QVBoxLayout(items)
        items_layout.addWidget(self.vat_included)
        items_layout.addWidget(self.table, 1)
        items_layout.addWidget(self.empty_label, 1)
        items_layout.addWidget(self.totals_label)
        items_layout.addWidget(self.notes_label)
        parties = QWidget()
        parties_layout = QVBoxLayout(parties)
        parties_layout.addLayout(party_row)
        parties_layout.addStretch(1)
        self.details_tabs.insertTab(0, items, "")
        self.details_tabs.insertTab(1, parties, "")
        self.details_tabs.setCurrentIndex(0)
        outer.addWidget(self.details_tabs, 1)
        outer.addLayout(buttons)
        for path, edit in self.fields.items():
            bind = getattr(self, "bind_field", None)
            if bind is not None:
                bind(path, edit)
        self._connect_signals()
        self.retranslate()
        self.refresh_now()

    def _connect_signals(self) -> None:
        for path, edit in self.fields.items():
            edit.textEdited.connect(lambda text, p=path: self._set(p, text, merge=True))
        self.validity.valueChanged.connect(lambda v: self._set("quote.validity_days", v, merge=True))
        self.import_button.clicked.connect(self.import_prices)
        self.compare_button.clicked.connect(self.compare_quotes)
        self.export_button.clicked.connect(self.export_quote)
        self.rfq_button.clicked.connect(self.export_rfq)
        self.print_button.clicked.connect(self.print_quote)
        self.table.itemChanged.connect(self._price_edited)

    # -- language
    def retranslate(self) -> None:
        self.info_box.setTitle(self.tr("Quote details"))  # the page heading already says "Quote"
        _labels(self.info_form, [self.tr("Quote number:"), self.tr("Valid for:")])
        self.validity.setSuffix(self.tr(" days"))
        self.parties["buyer"].setTitle(self.tr("Buyer"))
        self.parties["vendor"].setTitle(self.tr("Vendor"))
        for box in self.parties.values():
            form = box.layout()
            assert isinstance(form, QFormLayout)
            _labels(form, [self.tr("Name:"), self.tr("Contact:"), self.tr("Address:"), self.tr("Phone:"),
                           self.tr("Tax id (纳税人识别号):"), self.tr("Bank (开户行):"), self.tr("Account (账号):")])
        for index, text in enumerate((self.tr("Line items"), self.tr("Buyer and vendor"), self.tr("Commercial terms"),
                                      self.tr("Cost of ownership"))):
            self.details_tabs.setTabText(index, text)
        self.terms.retranslate()
        self.tco.retranslate()
        self.rfq_button.setText(self.tr("Export RFQ…"))
        self.rfq_button.setToolTip(self.tr("The request for quotation to send to vendors (询价单): the configuration "
                                           "and what they are asked to state; no prices, notes or findings"))
        self.table.setHorizontalHeaderLabels([self.tr("Category"), self.tr("Part"), self.tr("Key spec"),
                                              self.tr("Quantity"), self.tr("Unit price"), self.tr("Amount")])
        self.vat_included.setText(self.tr("Prices I enter include VAT (含税)"))
        self.vat_included.setToolTip(self.tr("Type a unit price into the table (F2 or double click) to use your "
                                             "own price; clear the cell to go back to the reference price."))
        self.import_button.setText(self.tr("Import prices…"))
        self.import_button.setToolTip(self.tr("Read a vendor's quote or a company price list (XLSX or CSV) and "
                                              "match its lines to the parts of this plan"))
        self.compare_button.setText(self.tr("Compare vendor quotes…"))
        self.compare_button.setToolTip(self.tr("Attach several vendors' quotes, compare them line by line with the "
                                               "rules run on each vendor's configuration, and choose one (三家比价)"))
        self.export_button.setText(self.tr("Export quote…"))
        self.print_button.setText(self.tr("Print…"))
        self.paper_combo.setToolTip(self.tr("Paper size"))

    # -- plan → widgets
    def refresh(self) -> None:
        from procurement.reports import build_quote

        ctl = self.controller
        for path, edit in self.fields.items():
            value = str(ctl.value(path) or "")
            if edit.text() != value:
                edit.setText(value)
        show_value(self.validity, ctl.plan.quote.validity_days)
        self.terms.refresh()
        self.tco.refresh()
        try:
            quote = build_quote(ctl.plan, ctl.catalog, ctl.policy, lang=ctl.lang)
        except Exception as exc:  # the page says what went wrong instead of taking the window down
            self.status_label.setText(self.tr("The quote could not be built: %1").replace("%1", str(exc)))
            return
        self.quote = quote
        on_request = t("quote.on_request", ctl.lang)  # the PDF's word, so screen and paper agree
        # the table's prices are the quote's: VAT-inclusive when any price includes VAT, as the PDF prints them
        gross = quote.basis == "gross"
        for col, text in ((4, self.tr("Unit price incl. VAT") if gross else self.tr("Unit price excl. VAT")),
                          (5, self.tr("Amount incl. VAT") if gross else self.tr("Amount excl. VAT"))):
            header = self.table.horizontalHeaderItem(col)
            if header is not None:
                header.setText(_two_lines(text))
        self.table.blockSignals(True)  # filling the table is not the buyer editing a price
        self.table.setRowCount(0)
        self.row_parts = []
        self.row_heights.widths_changed()
        for line in quote.lines:
            self.row_parts.append(line.part_id)
            row = self.table.rowCount()
            self.table.insertRow(row)
            cells = [t(f"quote.cat.{line.category}", ctl.lang), line.name, line.spec, str(line.qty),
                     _money(line.unit_price, on_request), _money(line.amount, on_request)]
            for col, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if col >= 3:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                if line.unit_price is None and col >= 4:
                    item.setToolTip(self.tr("No public reference price: on request"))
                elif col >= 4 and line.price_date is not None:
                    item.setToolTip(self.tr("Price of %1").replace("%1", line.price_date.isoformat())
                                    + (f"\n{line.price_kind}" if line.price_kind else "")
                                    + (f"\n{line.price_source}" if line.price_source else ""))
                if col != 4:
                    item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEditable)
                self.table.setItem(row, col, item)
        self.table.blockSignals(False)
        self._fit_columns()
        empty = not quote.lines
        self.table.setVisible(not empty)
        self.empty_label.setVisible(empty)
        self.empty_label.setText(self.tr("Choose a GPU and server parts to build the quote."))
        vat_rate = percent(float(quote.vat_rate_pct), None)  # "13%", as the PDF prints it
        if empty:
            totals = ""
        elif not quote.has_prices:
            totals = self.tr("Total: on request (no hardware part has a reference price; add company prices in a "
                             "user catalog directory)")
        elif quote.unpriced:
            # some parts have no price: the sum is a floor, not the quote's total
            totals = (self.tr("Priced subtotal (incomplete) %1 · VAT %2 on it %3 · not a final total: "
                              "1 part is priced on request") if len(quote.unpriced) == 1 else
                      self.tr("Priced subtotal (incomplete) %1 · VAT %2 on it %3 · not a final total: "
                              "%4 parts are priced on request"))
            totals = (totals.replace("%1", _money(quote.subtotal, on_request)).replace("%2", vat_rate)
                      .replace("%3", _money(quote.vat, on_request)).replace("%4", str(len(quote.unpriced))))
        else:
            short = (f"{quote.total_wan:,.2f} 万元" if ctl.lang == "zh" else million_text(float(quote.total)))
            totals = (self.tr("Subtotal %1 · VAT %2 %3 · Total %4 (%5)")
                      .replace("%1", _money(quote.subtotal, on_request)).replace("%2", vat_rate)
                      .replace("%3", _money(quote.vat, on_request)).replace("%4", _money(quote.total, on_request))
                      .replace("%5", short))
        self.totals_label.setText(totals)
        self.notes_label.setVisible(not empty)
        self.notes_label.setText("" if empty else self._notes_text(quote))
        self.export_button.setEnabled(bool(quote.lines))
        self.rfq_button.setEnabled(bool(quote.lines))
        self.import_button.setEnabled(bool(quote.lines) and not (self.job is not None and self.job.is_running()))
        self.print_button.setEnabled(bool(quote.lines))

    def _price_edited(self, item: QTableWidgetItem) -> None:
        """A unit price typed into the table becomes the plan's own price for that part (undoable); an empty
        cell goes back to the catalog's reference price.

        Applied in the next turn of the event loop, not here: this runs inside the cell delegate's commit, and
        the plan's change rebuilds the table, which freed the item and its editor under the delegate - the
        second price typed crashed the app (a segmentation fault). A document made before that turn
        (``_finish_editing``) applies it at once."""
        if self.refreshing or item.column() != 4 or item.row() >= len(self.row_parts):
            return
        cell = self.table.item(item.row(), 1)
        part_id = self.row_parts[item.row()]
        self._pending_prices.append((part_id, item.text(), cell.text() if cell is not None else part_id))
        if len(self._pending_prices) == 1:
            QTimer.singleShot(0, self._apply_pending_prices)

    def _apply_pending_prices(self) -> None:
        pending, self._pending_prices = self._pending_prices, []
        for part_id, typed, name in pending:
            self._apply_price(part_id, typed, name)

    def _apply_price(self, part_id: str, typed: str, name: str) -> None:
        text = typed.replace("¥", "").replace(",", "").replace(" ", "").strip()
        prices = dict(self.controller.plan.prices)
        if not text or text in (t("quote.on_request", self.controller.lang),):
            if prices.pop(part_id, None) is None:
                return
        else:
            try:
                value = float(text)
                prices[part_id] = EnteredPrice(price_cny=value, with_vat=self.vat_included.isChecked(),
                                               kind="entered", date=dt.date.today(), source="")
            except ValueError:
                self.status_label.setText(self.tr("Not a price: %1").replace("%1", typed))
                self.refresh_now()
                return
        after = self.controller.plan.model_copy(update={"prices": prices})
        self.controller.replace_plan(after, lambda: self.tr("Unit price of %1").replace("%1", name))

    def compare_quotes(self) -> Any:
        """The vendors' quotes compared, in a window beside this page (one window, raised when open)."""
        from gui.widgets.vendor_compare import VendorComparisonDialog

        if self.comparison is None:
            self.comparison = VendorComparisonDialog(self.controller, getattr(self.window(), "settings", None), self)
        self.comparison.show()
        self.comparison.raise_()
        return self.comparison

    def import_prices(self) -> workers.Job | None:
        """Pick a price file, read and match it in a worker, then let the buyer confirm the matches; the
        confirmed prices go into the plan as one undoable edit."""
        from procurement.pricing.import_prices import PriceFileError, import_for_plan

        paths = workers.ask_open_paths(self, self.tr("Import prices"),
                                       self.tr("Price lists (*.xlsx *.xlsm *.csv *.tsv *.txt)"))
        if not paths:
            return None
        path = paths[0]
        ctl = self.controller
        plan, catalog, lang = ctl.plan, ctl.catalog, ctl.lang
        vendor = plan.quote.vendor.name.strip()
        source = f"{vendor} · {path.name}" if vendor else path.name
        includes_vat = self.vat_included.isChecked()  # where neither a column nor a sentence of the file says it

        def read(_progress: object, _cancelled: object) -> object:
            try:
                return import_for_plan(path, plan, catalog, kind="vendor_quote", source=source,
                                       date=dt.date.today(), default_vat=includes_vat, lang=lang)
            except PriceFileError as exc:  # shown in the reader's language, with file, sheet, row and column
                return exc

        self.status_label.setText(self.tr("Reading %1…").replace("%1", path.name))
        self.import_button.setEnabled(False)
        self.job = workers.Job(read)
        self.job.succeeded.connect(self._prices_read)
        self.job.failed.connect(lambda msg: workers.show_error(self, self.tr("Import prices"), msg))
        self.job.finished.connect(lambda: self.import_button.setEnabled(True))
        self.job.finished.connect(self.work_done)
        self.job.start()
        return self.job

    def _prices_read(self, result: object) -> None:
        from procurement.pricing.import_prices import PriceFileError, PriceImport

        ctl = self.controller
        if isinstance(result, PriceFileError):
            message = result.message(ctl.lang)
            self.status_label.setText(self.tr("Nothing imported: %1").replace("%1", message))
            workers.show_error(self, self.tr("Import prices"), message)
            return
        assert isinstance(result, PriceImport)
        choice = workers.ask_price_import(self, result)
        if choice is None or not choice.rows:
            self.status_label.setText(self.tr("Nothing imported."))
            return
        chosen = result.with_source(choice.kind, choice.source)
        count = len(chosen.entered_prices(choice.rows))
        ctl.replace_plan(chosen.apply(ctl.plan, choice.rows),
                         lambda: self.tr("Import prices from %1").replace("%1", result.path.name))
        self.status_label.setText(t("prices.imported", ctl.lang, n=count, file=result.path.name))

    def _fit_columns(self) -> None:
        """Category, quantity and the prices as wide as their widest text or heading (the part and spec
        columns stretch over the rest and wrap)."""
        table, header = self.table, self.table.horizontalHeader()
        metrics = table.fontMetrics()
        padding = 2 * table.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, table) + 12
        for col in _SHORT_COLUMNS:
            texts = (table.item(row, col) for row in range(table.rowCount()))
            widest = max((metrics.horizontalAdvance(item.text()) for item in texts if item is not None), default=0)
            table.setColumnWidth(col, max(widest + padding, header.sectionSizeHint(col)))

    def _notes_text(self, quote: Any) -> str:
        """The quote's notes (as on the PDF), plus the range of dates of the reference prices."""
        lang = self.controller.lang
        notes = list(quote.notes)
        dates = sorted({line.price_date for line in quote.lines if line.price_date is not None})
        if dates:
            span = dates[0].isoformat() if len(dates) == 1 else f"{dates[0].isoformat()} – {dates[-1].isoformat()}"
            notes.append(self.tr("Reference prices dated %1.").replace("%1", span))
        return f"{t('quote.notes', lang)}\n" + "\n".join(f"{i}. {note}" for i, note in enumerate(notes, 1))

    # -- widgets → plan
    def _set(self, path: str, value: Any, merge: bool = False) -> None:
        if self.refreshing:
            return
        try:
            self.controller.set_value(path, value, merge=merge)
        except PlanError as exc:
            self.status_label.setText(str(exc))

    def focus_field(self, path: str) -> bool:
        widget = self.fields.get(path) or (self.validity if path == "quote.validity_days" else None)
        if widget is None:
            for editor in (self.terms, self.tco):
                if editor.focus_field(path):
                    self.details_tabs.setCurrentWidget(editor)
                    editor.focus_field(path)
                    return True
            return False
        if path.startswith(("quote.buyer", "quote.vendor")):
            self.details_tabs.setCurrentIndex(1)  # the parties' tab
        focus_on_screen(widget)
        return True

    # -- output
    def render_pdf(self) -> bytes:
        """The quote PDF bytes for the plan as it is now (export and print preview both use these)."""
        from procurement.reports import render_quote_pdf

        ctl = self.controller
        self._finish_editing()
        return render_quote_pdf(ctl.plan, ctl.catalog, policy=ctl.policy, findings=list(ctl.findings),
                                lang=ctl.lang, paper=self.paper_combo.currentData(), document="quote")

    def _finish_editing(self) -> None:
        """A unit price still being typed in the table goes into the plan before a document is made from it
        (File ▸ Export or a shortcut does not take the focus from the cell's editor)."""
        editor = self.table.focusWidget()  # the cell's editor, the table's last focused child
        if editor is not None and editor is not self.table and self.table.isAncestorOf(editor) \
                and self.table.state() == QAbstractItemView.State.EditingState:
            self.table.commitData(editor)
            self.table.closeEditor(editor, QAbstractItemDelegate.EndEditHint.NoHint)
        self._apply_pending_prices()

    def _renderer(self, document: Document = "quote", plan: Any = None) -> Any:
        """A render function over a snapshot of the plan (or ``plan``), safe to run in a worker thread."""
        from procurement.reports import render_quote_pdf

        ctl = self.controller
        catalog, policy, findings, lang = ctl.catalog, ctl.policy, list(ctl.findings), ctl.lang
        plan = plan if plan is not None else ctl.plan
        paper = self.paper_combo.currentData()
        return lambda: render_quote_pdf(plan, catalog, policy=policy, findings=findings, lang=lang, paper=paper,
                                        document=document)

    def _issued(self) -> Any:
        """The plan with its priced quote issued (number, date and validity stored so that printing it again
        gives the same paper); the plan itself when already issued or still a request for quotation."""
        from procurement.reports import build_quote, issue_quote

        ctl = self.controller
        quote = build_quote(ctl.plan, ctl.catalog, ctl.policy, lang=ctl.lang)
        if ctl.plan.quote.issued is not None and quote.stale_since is None:
            return ctl.plan
        if not quote.complete:
            return ctl.plan  # nothing is quoted yet while a line is on request
        # a new quote, or the configuration changed since the last one was issued: the next number
        return issue_quote(ctl.plan, renew=ctl.plan.quote.issued is not None)

    def _commit_issue(self, issued: Any) -> None:
        """Store the issued quote in the plan as one undoable edit (once the document is really going out)."""
        if issued is not self.controller.plan and issued.quote.issued is not None:
            number = issued.quote.issued.number
            self.controller.replace_plan(issued, lambda: self.tr("Issue quote %1").replace("%1", number))

    def export_quote(self) -> workers.Job | None:
        """The buyer's quote (报价单) as it is on screen, never a request for quotation in its place: with a line
        on request its sums say they are lower bounds (the RFQ has its own button)."""
        from procurement.reports import quote_number

        self._finish_editing()
        issued = self._issued()
        number = quote_number(issued) or "quote"
        job = workers.start_export(self, self.tr("Export quote"), Path(f"{_safe(number)}.pdf"),
                                   self._renderer(plan=issued), self.controller.lang, self.status_label,
                                   self.export_button, self.work_done)
        if job is not None:  # not when the file dialog was cancelled
            self._commit_issue(issued)
            self.job = job
        return job

    def export_rfq(self) -> workers.Job | None:
        """The vendor-facing request for quotation, whatever the prices (no internal content)."""
        from procurement.reports import quote_number

        number = quote_number(self.controller.plan) or "rfq"
        job = workers.start_export(self, self.tr("Export request for quotation"), Path(f"RFQ-{_safe(number)}.pdf"),
                                   self._renderer("rfq"), self.controller.lang, self.status_label, self.rfq_button,
                                   self.work_done)
        if job is not None:
            self.job = job
        return job

    def print_quote(self) -> workers.Job:
        """Render in a worker, then show the print preview of those same bytes."""
        self._finish_editing()
        issued = self._issued()
        self._commit_issue(issued)
        self.status_label.setText(self.tr("Preparing the print preview…"))
        render = self._renderer(plan=issued)
        self.job = workers.Job(lambda _progress, _cancelled: render())
        self.job.succeeded.connect(self._show_preview)
        self.job.failed.connect(lambda msg: workers.show_error(self, self.tr("Print"), msg))
        self.job.finished.connect(lambda: self.status_label.setText(""))
        self.job.finished.connect(self.work_done)
        self.job.start()
        return self.job

    # the main window's File menu calls these (gui/main_window.py _page_hook)
    def export_pdf(self) -> workers.Job | None:
        return self.export_quote()

    def print_document(self) -> workers.Job:
        return self.print_quote()

    def _show_preview(self, pdf: object) -> None:
        assert isinstance(pdf, bytes)
        workers.show_print_preview(self, pdf, self.tr("Print preview — quote"))


def _safe(name: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in name)[:80] or "quote"


def _labels(form: QFormLayout, texts: list[str]) -> None:
    for row, text in enumerate(texts):
        item = form.itemAt(row, QFormLayout.ItemRole.LabelRole)
        label = item.widget() if item is not None else None
        if isinstance(label, QLabel):
            label.setText(text)
            field = form.itemAt(row, QFormLayout.ItemRole.FieldRole)
            buddy = field.widget() if field is not None else None
            if buddy is not None:
                label.setBuddy(buddy)

"""The quote page's commercial terms (交货期, 质保, 付款方式, 发票类型, 运费) with the issued quote, and the total
cost of ownership inputs and result; each edit is one undoable change of the plan."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QWidget,
)

from gui.controller import PlanController
from gui.widgets.spin import DoubleSpinBox, SpinBox, show_value
from procurement.plan import PlanError, one_line

TERM_FIELDS = ("delivery", "warranty", "payment", "freight")
PUE_CHOICES: tuple[tuple[float, str], ...] = (
    (1.3, "docs/sources.md §T T1 T3"),
    (1.49, "docs/sources.md §T T2"),
    (1.0, ""),
)
"""Published PUE figures offered as explicit choices (docs/tco.md), with the citation stored beside the value;
1.0 counts the servers alone (a definition, not a figure to cite)."""


def _labels(form: QFormLayout, texts: list[str]) -> None:
    for row, text in enumerate(texts):
        item = form.itemAt(row, QFormLayout.ItemRole.LabelRole)
        label = item.widget() if item is not None else None
        if isinstance(label, QLabel):
            label.setText(text)
            field = form.itemAt(row, QFormLayout.ItemRole.FieldRole)
            buddy = field.widget() if field is not None else None
            if buddy is not None and not isinstance(buddy, QLabel):
                # a row holding a layout: the label points at its first widget
                label.setBuddy(buddy)
            elif field is not None and (inner := field.layout()) is not None:
                first = inner.itemAt(0)
                widget = first.widget() if first is not None else None
                if widget is not None:
                    label.setBuddy(widget)


def _spin(low: float, high: float, decimals: int, step: float) -> QDoubleSpinBox:
    box = DoubleSpinBox()
    box.setRange(low, high)
    box.setDecimals(decimals)
    box.setSingleStep(step)
    box.setKeyboardTracking(False)  # one edit per finished number, not per keystroke
    return box


class _Editor(QWidget):
    """Shared: the controller, a guard while the widgets are filled from the plan, and one error label."""

    def __init__(self, controller: PlanController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        self.filling = False
        self.error = QLabel()
        self.error.setStyleSheet("color: #c62828")
        self.error.setWordWrap(True)
        self.error.hide()

    def focus_field(self, path: str) -> bool:
        """Put the focus on the widget that edits ``path``; False when this editor has none."""
        return False

    def set(self, path: str, value: Any, merge: bool = True) -> None:
        if self.filling:
            return
        try:
            self.controller.set_value(path, value, merge=merge)
            self.error.hide()
        except PlanError as exc:
            self.error.setText(str(exc))
            self.error.show()


class QuoteTermsEditor(_Editor):
    """交货期, 质保/售后, 付款方式, 发票类型, 运费/安装调试, and the quote as issued (number, date, validity) with
    'New quote number'."""

    def __init__(self, controller: PlanController, parent: QWidget | None = None) -> None:
        super().__init__(controller, parent)
        self.form = QFormLayout(self)
        self.edits: dict[str, QLineEdit] = {}
        for key in TERM_FIELDS:
            edit = QLineEdit()
            self.edits[f"quote.{key}"] = edit
            self.form.addRow(QLabel(), edit)
        self.invoice = QComboBox()
        for value in (None, "special", "ordinary"):
            self.invoice.addItem("", value)
        self.form.insertRow(3, QLabel(), self.invoice)
        self.issued_label = QLabel()
        self.issued_label.setObjectName("quoteIssued")
        self.issued_label.setWordWrap(True)
        self.issued_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.new_number = QPushButton()
        issued_row = QHBoxLayout()
        issued_row.addWidget(self.issued_label, 1)
        issued_row.addWidget(self.new_number)
        self.form.addRow(QLabel(), issued_row)
        self.form.addRow(self.error)
        for path, edit in self.edits.items():  # one-line fields: a pasted line break or escape is not kept
            edit.textEdited.connect(lambda text, p=path: self.set(p, one_line(text)))
        self.invoice.currentIndexChanged.connect(lambda _i: self.set("quote.invoice", self.invoice.currentData(),
                                                                     merge=False))
        self.new_number.clicked.connect(self.issue_new_number)

    def retranslate(self) -> None:
        _labels(self.form, [self.tr("Delivery (交货期):"), self.tr("Warranty and service (质保/售后):"),
                            self.tr("Payment terms (付款方式):"), self.tr("Invoice (发票类型):"),
                            self.tr("Freight and installation (运费/安装调试):"), self.tr("Issued quote:")])
        self.edits["quote.delivery"].setPlaceholderText(self.tr("e.g. within 30 days of signing the contract"))
        self.edits["quote.warranty"].setPlaceholderText(self.tr("e.g. 3-year on-site warranty, next-business-day"))
        self.edits["quote.payment"].setPlaceholderText(self.tr("e.g. full payment within 30 days of acceptance"))
        self.edits["quote.freight"].setPlaceholderText(self.tr("e.g. freight, installation and commissioning "
                                                               "included"))
        for i, text in enumerate((self.tr("Not stated"), self.tr("Special VAT invoice (增值税专用发票)"),
                                  self.tr("Ordinary VAT invoice (增值税普通发票)"))):
            self.invoice.setItemText(i, text)
        self.new_number.setText(self.tr("New quote number"))
        self.new_number.setToolTip(self.tr("Issue a new number and date for the quote (the next export prints "
                                           "them); an issued quote otherwise keeps its number, date and validity"))

    def refresh(self) -> None:
        from procurement.plan import canonical_digest

        plan = self.controller.plan
        self.filling = True
        try:
            for path, edit in self.edits.items():
                value = str(self.controller.value(path) or "")
                if edit.text() != value:
                    edit.setText(value)
            self.invoice.setCurrentIndex(max(self.invoice.findData(plan.quote.invoice), 0))
        finally:
            self.filling = False
        issued = plan.quote.issued
        if issued is None:
            self.issued_label.setText(self.tr("Not issued yet: exporting or printing the priced quote issues its "
                                              "number and date, kept in the plan"))
            self.new_number.setEnabled(False)
            return
        text = (self.tr("%1, dated %2, valid until %3").replace("%1", issued.number)
                .replace("%2", issued.date.isoformat()).replace("%3", issued.valid_until.isoformat()))
        if issued.digest and issued.digest != canonical_digest(plan):
            text += "\n" + self.tr("The configuration changed since it was issued: issue a new number to quote it.")
        self.issued_label.setText(text)
        self.new_number.setEnabled(True)

    def issue_new_number(self) -> None:
        from procurement.reports import issue_quote

        ctl = self.controller
        after = issue_quote(ctl.plan, renew=True)
        number = after.quote.issued.number if after.quote.issued else ""
        ctl.replace_plan(after, lambda: self.tr("New quote number %1").replace("%1", number))

    def focus_field(self, path: str) -> bool:
        widget: QWidget | None = self.invoice if path == "quote.invoice" else self.edits.get(path)
        if widget is None:
            return False
        widget.setFocus()
        return True


class TcoEditor(_Editor):
    """The cost of ownership: electricity price, PUE (a published figure or the buyer's), service life,
    utilisation, a cloud GPU-hour price, each source beside it; and the result as the core words it."""

    def __init__(self, controller: PlanController, parent: QWidget | None = None) -> None:
        super().__init__(controller, parent)
        self.form = QFormLayout(self)
        # a label above its field where the row is too narrow for both (the window at 1024 px with the findings
        # beside it): side by side, the long labels and the source fields made the page 527 px at least
        self.form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        self.kwh_price = _spin(0, 100, 3, 0.05)
        self.kwh_source = QLineEdit()
        self.pue = _spin(0.99, 5, 2, 0.05)
        self.pue_choice = QComboBox()
        # the published figures are long ("1.58 — Uptime Institute survey 2023 …"): the box elides them and its
        # list opens as wide as they need; sized to the longest, it made the quote page 768 px wide at least
        self.pue_choice.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.pue_choice.setMinimumContentsLength(16)
        self.pue_choice.addItem("", None)
        for value, _source in PUE_CHOICES:
            self.pue_choice.addItem("", value)
        self.pue_source = QLineEdit()
        self.life = _spin(0, 30, 1, 1)
        self.utilisation = SpinBox()
        self.utilisation.setRange(-1, 100)
        self.utilisation.setKeyboardTracking(False)
        self.cloud_price = _spin(0, 100_000, 2, 1)
        self.cloud_source = QLineEdit()
        pue_row = QHBoxLayout()
        pue_row.addWidget(self.pue)
        pue_row.addWidget(self.pue_choice, 1)
        price_row = QHBoxLayout()
        price_row.addWidget(self.kwh_price)
        price_row.addWidget(self.kwh_source, 1)
        cloud_row = QHBoxLayout()
        cloud_row.addWidget(self.cloud_price)
        cloud_row.addWidget(self.cloud_source, 1)
        self.form.addRow(QLabel(), price_row)
        self.form.addRow(QLabel(), pue_row)
        self.form.addRow(QLabel(), self.pue_source)
        self.form.addRow(QLabel(), self.utilisation)
        self.form.addRow(QLabel(), self.life)
        self.form.addRow(QLabel(), cloud_row)
        self.result = QLabel()
        self.result.setObjectName("tcoResult")
        self.result.setWordWrap(True)
        self.result.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.form.addRow(self.result)
        self.form.addRow(self.error)
        self.numbers: dict[str, tuple[QDoubleSpinBox | QSpinBox, float]] = {
            "tco.electricity_cny_per_kwh": (self.kwh_price, 0),
            "tco.pue": (self.pue, 0.99),
            "tco.service_life_years": (self.life, 0),
            "requirements.utilisation_pct": (self.utilisation, -1),
            "tco.cloud_cny_per_gpu_hour": (self.cloud_price, 0),
        }
        self.sources = {"tco.electricity_source": self.kwh_source, "tco.pue_source": self.pue_source,
                        "tco.cloud_source": self.cloud_source}
        for path, (box, unset) in self.numbers.items():
            box.valueChanged.connect(lambda v, p=path, u=unset: self.set(p, None if v <= u else v, merge=False))
        for path, edit in self.sources.items():
            edit.textEdited.connect(lambda text, p=path: self.set(p, one_line(text)))
        self.pue_choice.activated.connect(self._pue_chosen)

    def retranslate(self) -> None:
        _labels(self.form, [self.tr("Electricity price, source:"), self.tr("PUE of the room:"),
                            self.tr("PUE source:"), self.tr("Utilisation (share of time at full load):"),
                            self.tr("Service life:"), self.tr("Cloud GPU rent, source:")])
        not_entered = self.tr("not entered")
        for box in (self.kwh_price, self.pue, self.life, self.utilisation, self.cloud_price):
            box.setSpecialValueText(not_entered)
        self.kwh_price.setSuffix(self.tr(" CNY/kWh"))
        self.life.setSuffix(self.tr(" years"))
        self.utilisation.setSuffix("%")
        self.cloud_price.setSuffix(self.tr(" CNY per GPU-hour"))
        self.kwh_source.setPlaceholderText(self.tr("where the price comes from: your bill, the province's monthly "
                                                   "agency price"))
        self.pue_source.setPlaceholderText(self.tr("where the PUE comes from"))
        self.cloud_source.setPlaceholderText(self.tr("which cloud offer"))
        self.kwh_price.setToolTip(self.tr("No default: industrial and commercial electricity is priced by "
                                          "province and month since the 2021 reform (docs/tco.md)"))
        texts = (self.tr("Published figures…"),
                 self.tr("1.3 — target for new large data centres (MIIT 2021, NDRC 2021)"),
                 self.tr("1.49 — China's average in 2021 (as reported)"),
                 self.tr("1.0 — the servers alone (no room overhead counted)"))
        for i, text in enumerate(texts):
            self.pue_choice.setItemText(i, text)

    def _pue_chosen(self, index: int) -> None:
        value = self.pue_choice.itemData(index)
        if value is None:
            return
        source = dict(PUE_CHOICES)[value] or self.tr("the servers alone, no room overhead")
        ctl = self.controller
        tco = ctl.plan.tco.model_copy(update={"pue": value, "pue_source": source})
        try:
            ctl.replace_plan(ctl.plan.model_copy(update={"tco": tco}),
                             lambda: self.tr("PUE %1").replace("%1", f"{value:g}"))
        finally:
            self.pue_choice.setCurrentIndex(0)

    def refresh(self) -> None:
        from procurement.budgets.tco import describe_tco, plan_tco

        ctl = self.controller
        self.filling = True
        try:
            for path, (box, unset) in self.numbers.items():
                value = ctl.value(path)
                shown = unset if value is None else value
                show_value(box, shown)
            for path, edit in self.sources.items():
                text = str(ctl.value(path) or "")
                if edit.text() != text:
                    edit.setText(text)
        finally:
            self.filling = False
        evaluation = ctl.evaluation
        tco = evaluation.budgets.tco if evaluation is not None and evaluation.plan is ctl.plan else None
        if tco is None:
            try:
                tco = plan_tco(ctl.plan, ctl.catalog, ctl.policy)
            except Exception as exc:  # the page says what went wrong instead of taking the window down
                self.result.setText(str(exc))
                return
        lines = describe_tco(tco, ctl.lang) if ctl.plan.gpu.count else []
        self.result.setText("\n".join(lines))

    def focus_field(self, path: str) -> bool:
        widget: QWidget | None = self.numbers[path][0] if path in self.numbers else self.sources.get(path)
        if widget is None:
            return False
        widget.setFocus()
        return True

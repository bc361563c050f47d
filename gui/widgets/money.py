"""Money input: a CNY amount with the same amount in a short form (万元 / ¥ M) beside it; empty means not set."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QLocale, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QWidget

from gui.numbers import number
from gui.safe_events import reported
from gui.widgets.spin import DoubleSpinBox, show_value

YUAN_PER_WAN = 10_000


def wan_text(cny: float) -> str:
    """12 500 000 → '1,250 万元'; a buyer in China thinks of budgets in 万元 (units of 10 000 CNY)."""
    wan = cny / YUAN_PER_WAN
    return f"{number(wan, 1)} 万元" if wan < 100 and wan != int(wan) else f"{number(wan)} 万元"


def million_text(cny: float) -> str:
    """12 500 000 → '¥12.50 M', 250 000 → '¥0.25 M'; below ¥100,000 in thousands, 12 999 → '¥13.0 k' (it said
    '¥0.01 M', which tells a buyer nothing): the English UI's one short form of a CNY amount."""
    if abs(cny) < 100_000:
        return f"¥{number(cny / 1_000, 1)} k"
    return f"¥{number(cny / 1_000_000, 2)} M"


def short_amount(cny: float) -> str:
    """The amount in the UI language's short form: 万元 in Chinese, ¥ millions in English (never 万 in English).
    The language is the default QLocale, which gui/i18n.py's Translators.install sets with the UI language."""
    return wan_text(cny) if QLocale().language() == QLocale.Language.Chinese else million_text(cny)


class MoneyBox(QWidget):
    """value() is None when the box is at 0 (shown as 'not set'); valueChanged carries float or None."""

    valueChanged = Signal(object)

    def __init__(self, parent: QWidget | None = None, maximum: float = 1e11) -> None:
        super().__init__(parent)
        self.spin = DoubleSpinBox(self)
        self.spin.setDecimals(0)
        self.spin.setRange(0, maximum)
        self.spin.setSingleStep(10_000)
        self.spin.setGroupSeparatorShown(True)
        self.wan = QLabel(self)
        self.wan.setMinimumWidth(90)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.spin, 1)
        layout.addWidget(self.wan)
        self.setFocusProxy(self.spin)
        self.spin.valueChanged.connect(self._changed)
        self.retranslate()

    def retranslate(self) -> None:
        self.spin.setSpecialValueText(self.tr("not set"))
        self.spin.setSuffix(self.tr(" CNY"))  # zh: " 元"
        self._show_wan()

    def value(self) -> float | None:
        v = self.spin.value()
        return v if v > 0 else None

    def setValue(self, value: float | None) -> None:
        show_value(self.spin, value or 0)
        self._show_wan()

    def _show_wan(self) -> None:
        v = self.value()
        self.wan.setText(f"= {short_amount(v)}" if v else "")

    def _changed(self, _v: float) -> None:
        self._show_wan()
        self.valueChanged.emit(self.value())

    @reported
    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

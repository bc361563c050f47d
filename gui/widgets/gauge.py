"""Gauge: a horizontal bar painted with QPainter that shows a used amount against a capacity."""

from __future__ import annotations

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPaintEvent, QPalette
from PySide6.QtWidgets import QSizePolicy, QWidget

from gui.numbers import number, percent

OK_COLOR = QColor("#2e7d32")
WARN_COLOR = QColor("#ef8f00")
ERROR_COLOR = QColor("#c62828")
UNKNOWN_COLOR = QColor("#9e9e9e")


class Gauge(QWidget):
    """Shows ``used`` of ``capacity`` (e.g. 2,352 W of 3,520 W usable). The colour is the state the rules
    gave ('ok', 'warning', 'error'), never a threshold of its own; unknown values show as a grey bar."""

    def __init__(self, label: str = "", unit: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._label = label
        self._unit = unit
        self._used: float | None = None
        self._capacity: float | None = None
        self._state = "unknown"
        self._detail = ""
        self._unknown = ""
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setMinimumWidth(180)

    # -- model
    def set_label(self, label: str, unit: str | None = None) -> None:
        self._label = label
        if unit is not None:
            self._unit = unit
        self._update_text()

    def set_values(self, used: float | None, capacity: float | None, state: str = "ok", detail: str = "",
                   unknown: str = "") -> None:
        """``unknown`` says why there is no capacity to compare with (shown instead of a bare dash)."""
        self._used, self._capacity = used, capacity
        self._state = state if used is not None and capacity else "unknown"
        self._detail = detail
        self._unknown = unknown
        self._update_text()

    def used(self) -> float | None:
        return self._used

    def capacity(self) -> float | None:
        return self._capacity

    def state(self) -> str:
        return self._state

    def fraction(self) -> float | None:
        if self._used is None or not self._capacity:
            return None
        return self._used / self._capacity

    def value_text(self) -> str:
        """The numbers under the label: '1,845 / 3,600 W (51%)', or what is known and why the rest is not."""
        if self._used is None or not self._capacity:
            known = f"{_num(self._used)} {self._unit}".rstrip() if self._used is not None else ""
            return " · ".join(t for t in (known, self._unknown) if t) or "—"
        pct = 100 * self._used / self._capacity
        return f"{_num(self._used)} / {_num(self._capacity)} {self._unit} ({percent(pct)})".replace("  ", " ")

    def text(self) -> str:
        """Label and numbers in one line (the accessible description); painted as two lines under the bar."""
        return f"{self._label}: {self.value_text()}"

    def _update_text(self) -> None:
        self.setAccessibleName(self._label)
        self.setAccessibleDescription(self.text())
        self.setToolTip(self._detail or self.text())
        self.update()

    # -- painting
    def sizeHint(self) -> QSize:
        fm = self.fontMetrics()
        return QSize(260, fm.height() * 3 + 16)

    def minimumSizeHint(self) -> QSize:
        return QSize(180, self.fontMetrics().height() * 3 + 12)

    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        fm = self.fontMetrics()
        bar_h = max(10, fm.height() - 2)
        bar = QRectF(1, 2, self.width() - 2, bar_h)
        pal = self.palette()
        p.setPen(pal.color(QPalette.ColorRole.Mid))
        p.setBrush(pal.color(QPalette.ColorRole.Base))
        p.drawRoundedRect(bar, 3, 3)
        frac = self.fraction()
        color = {"ok": OK_COLOR, "warning": WARN_COLOR, "error": ERROR_COLOR}.get(self._state, UNKNOWN_COLOR)
        if frac is not None:
            fill = QRectF(bar)
            fill.setWidth(max(0.0, min(1.0, frac)) * bar.width())
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(color)
            p.drawRoundedRect(fill, 3, 3)
            if frac > 1:  # over capacity: a hatched end so it reads without colour too
                p.setBrush(QColor(255, 255, 255, 110))
                p.setBrush(Qt.BrushStyle.BDiagPattern)
                p.drawRoundedRect(bar.adjusted(bar.width() * 0.85, 0, 0, 0), 3, 3)
        font = QFont(self.font())
        p.setFont(font)
        p.setPen(pal.color(QPalette.ColorRole.WindowText))
        flags = int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        top = bar.bottom() + 3
        for line in (self._label, self.value_text()):  # two lines, so a narrow column clips neither
            rect = QRectF(1, top, self.width() - 2, fm.height() + 1)
            p.drawText(rect, flags, fm.elidedText(line, Qt.TextElideMode.ElideRight, int(rect.width())))
            top = rect.bottom()
        p.end()


def _num(value: float) -> str:
    """In the UI's locale, no trailing .0 ('2,352'; '1,949.2'): gui/numbers.py, as every page."""
    return number(value, 0 if abs(value - round(value)) < 1e-9 else 1)

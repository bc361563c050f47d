"""BarChart and StackedBarChart (QPainter): the VRAM breakdown, one stacked bar per GPU, with a limit line."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPaintEvent, QPalette, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from gui.numbers import number

PALETTE = ("#1976d2", "#388e3c", "#f57c00", "#7b1fa2", "#00838f", "#c2185b", "#5d4037", "#455a64")



def fmt_value(value: float, unit: str) -> str:
    """A bar's figure: one decimal below 100 (62.7 GB), none above (1,454 GB)."""
    text = number(value, 1) if value < 100 else number(value)
    return f"{text} {unit}".strip()


@dataclass(frozen=True)
class Bar:
    label: str
    value: float
    color: str | None = None


class BarChart(QWidget):
    """One bar per item, the value printed after it; an optional dashed limit line (e.g. memory per GPU)."""

    ROW_H = 22

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.bars: list[Bar] = []
        self.unit = ""
        self.limit: float | None = None
        self.limit_label = ""
        self.empty_text = ""
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setMinimumWidth(240)

    def set_bars(self, bars: list[Bar], unit: str = "", limit: float | None = None, limit_label: str = "") -> None:
        self.bars, self.unit, self.limit, self.limit_label = list(bars), unit, limit, limit_label
        self.updateGeometry()
        self.update()

    def set_empty_text(self, text: str) -> None:
        self.empty_text = text
        self.update()

    def _rows(self) -> int:
        return max(len(self.bars), 1) + (1 if self.limit is not None else 0)

    def sizeHint(self) -> QSize:
        return QSize(360, self._rows() * self.ROW_H + 8)

    def minimumSizeHint(self) -> QSize:
        return QSize(240, self._rows() * self.ROW_H + 8)

    def _fmt(self, value: float) -> str:
        return fmt_value(value, self.unit)

    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        fm = p.fontMetrics()
        text_color = self.palette().color(QPalette.ColorRole.WindowText)
        if not self.bars:
            p.setPen(text_color)
            p.drawText(self.rect(), Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap, self.empty_text)
            return
        label_w = max(fm.horizontalAdvance(b.label) for b in self.bars) + 10
        value_w = max(fm.horizontalAdvance(self._fmt(b.value)) for b in self.bars) + 10
        if self.limit is not None:
            value_w = max(value_w, fm.horizontalAdvance(self._fmt(self.limit)) + 10)
        plot_x = label_w
        plot_w = max(self.width() - label_w - value_w - 4, 20)
        top = max([b.value for b in self.bars] + ([self.limit] if self.limit else []) + [1e-9])
        for i, bar in enumerate(self.bars):
            y = 4 + i * self.ROW_H
            p.setPen(text_color)
            p.drawText(QRectF(0, y, label_w - 6, self.ROW_H - 4),
                       Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, bar.label)
            w = plot_w * max(bar.value, 0) / top
            p.fillRect(QRectF(plot_x, y + 3, max(w, 1), self.ROW_H - 10),
                       QColor(bar.color or PALETTE[i % len(PALETTE)]))
            p.drawText(QRectF(plot_x + w + 4, y, value_w, self.ROW_H - 4),
                       Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, self._fmt(bar.value))
        if self.limit is not None:
            x = plot_x + plot_w * self.limit / top
            pen = QPen(QColor("#c62828"), 1.5, Qt.PenStyle.DashLine)
            p.setPen(pen)
            bottom = 4 + len(self.bars) * self.ROW_H
            p.drawLine(int(x), 2, int(x), bottom)
            p.setPen(QColor("#c62828"))
            text = f"{self.limit_label} {self._fmt(self.limit)}".strip()
            tw = fm.horizontalAdvance(text)
            p.drawText(QRectF(min(x - tw / 2, self.width() - tw - 2), bottom, tw + 2, self.ROW_H - 4),
                       Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, text)


@dataclass(frozen=True)
class Segment:
    key: str
    """'weights', 'gradients', 'optimizer', 'activations', 'kv_cache', 'overhead'."""
    label: str
    value: float


SEGMENT_COLORS = {
    "weights": "#1976d2", "gradients": "#388e3c", "optimizer": "#f57c00", "activations": "#7b1fa2",
    "kv_cache": "#00838f", "overhead": "#5d4037",
}


@dataclass(frozen=True)
class StackedBar:
    label: str
    segments: tuple[Segment, ...]

    @property
    def total(self) -> float:
        return sum(s.value for s in self.segments)


class StackedBarChart(QWidget):
    """One horizontal stacked bar per GPU (weights, gradients, optimizer, activations, KV cache, overhead),
    a legend, and a dashed limit line at one GPU's memory: each bar is compared with one GPU, never a sum."""

    ROW_H = 20

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.bars: list[StackedBar] = []
        self.unit = "GB"
        self.limit: float | None = None
        self.limit_label = ""
        self.empty_text = ""
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setMinimumWidth(240)

    def set_bars(self, bars: list[StackedBar], unit: str = "GB", limit: float | None = None,
                 limit_label: str = "") -> None:
        self.bars, self.unit, self.limit, self.limit_label = list(bars), unit, limit, limit_label
        self.updateGeometry()
        self.update()

    def set_empty_text(self, text: str) -> None:
        self.empty_text = text
        self.update()

    def legend(self) -> list[Segment]:
        """The segment kinds present, in order (one legend entry each)."""
        seen: dict[str, Segment] = {}
        for bar in self.bars:
            for s in bar.segments:
                if s.value > 0 and s.key not in seen:
                    seen[s.key] = s
        return list(seen.values())

    def _rows(self) -> int:
        return max(len(self.bars), 1) + (2 if self.bars else 0)

    def sizeHint(self) -> QSize:
        return QSize(360, self._rows() * self.ROW_H + 10)

    def minimumSizeHint(self) -> QSize:
        return QSize(240, self._rows() * self.ROW_H + 10)

    def _fmt(self, value: float) -> str:
        return fmt_value(value, self.unit)

    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self)
        fm = p.fontMetrics()
        text_color = self.palette().color(QPalette.ColorRole.WindowText)
        if not self.bars:
            p.setPen(text_color)
            p.drawText(self.rect(), Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap, self.empty_text)
            return
        label_w = max(fm.horizontalAdvance(b.label) for b in self.bars) + 10
        value_w = max(fm.horizontalAdvance(self._fmt(b.total)) for b in self.bars) + 10
        plot_x = label_w
        plot_w = max(self.width() - label_w - value_w - 4, 20)
        top = max([b.total for b in self.bars] + ([self.limit] if self.limit else []) + [1e-9])
        for i, bar in enumerate(self.bars):
            y = 4 + i * self.ROW_H
            p.setPen(text_color)
            p.drawText(QRectF(0, y, label_w - 6, self.ROW_H - 2),
                       Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, bar.label)
            x = float(plot_x)
            for seg in bar.segments:
                w = plot_w * max(seg.value, 0) / top
                if w > 0:
                    p.fillRect(QRectF(x, y + 3, w, self.ROW_H - 8), QColor(SEGMENT_COLORS.get(seg.key, "#455a64")))
                x += w
            p.setPen(text_color)
            p.drawText(QRectF(x + 4, y, value_w, self.ROW_H - 2),
                       Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, self._fmt(bar.total))
        bottom = 4 + len(self.bars) * self.ROW_H
        if self.limit is not None:
            lx = plot_x + plot_w * self.limit / top
            p.setPen(QPen(QColor("#c62828"), 1.5, Qt.PenStyle.DashLine))
            p.drawLine(int(lx), 2, int(lx), bottom)
            p.setPen(QColor("#c62828"))
            text = f"{self.limit_label} {self._fmt(self.limit)}".strip()
            tw = fm.horizontalAdvance(text)
            p.drawText(QRectF(max(min(lx - tw / 2, self.width() - tw - 2), 0), bottom, tw + 2, self.ROW_H - 2),
                       Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, text)
        x = 4.0
        y = bottom + self.ROW_H
        for seg in self.legend():
            p.fillRect(QRectF(x, y + 5, 10, 10), QColor(SEGMENT_COLORS.get(seg.key, "#455a64")))
            p.setPen(text_color)
            tw = fm.horizontalAdvance(seg.label)
            p.drawText(QRectF(x + 14, y, tw + 4, self.ROW_H - 2),
                       Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, seg.label)
            x += tw + 28

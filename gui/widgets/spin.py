"""Putting a plan value into a spin box without breaking what the user is typing into it."""

from __future__ import annotations

from PySide6.QtGui import QValidator
from PySide6.QtWidgets import QDoubleSpinBox, QSpinBox


def show_value(box: QSpinBox | QDoubleSpinBox, value: float) -> None:
    """Set ``box`` to ``value`` only when it shows another value.

    Qt re-formats a spin box's text on every setValue, an equal value included, and keeps the cursor at the
    same character index: with thousands separators shown, a page that wrote the plan's value back after each
    keystroke turned "1285" into "1,285" with the cursor before the 5, so typing 128500 stored 128,005.
    The plan already holds what the box shows after a keystroke, so nothing needs writing back then.
    """
    current = box.value()
    wanted = round(value) if isinstance(box, QSpinBox) else float(value)
    if isinstance(box, QDoubleSpinBox):
        # the box keeps its value rounded to its decimals: compare as it would store the new one
        wanted = round(wanted, box.decimals())
    if current == wanted:
        return
    box.setValue(wanted)  # type: ignore[arg-type]


def show_special_text(box: QSpinBox | QDoubleSpinBox, text: str) -> None:
    """setSpecialValueText re-formats the text like setValue does: only when the words change."""
    if box.specialValueText() != text:
        box.setSpecialValueText(text)


def show_suffix(box: QSpinBox | QDoubleSpinBox, text: str) -> None:
    """setSuffix re-formats the text like setValue does: only when the words change."""
    if box.suffix() != text:
        box.setSuffix(text)


WIDE_DIGITS = str.maketrans({**{chr(0xFF10 + i): str(i) for i in range(10)}, "，": ",", "．": ".", "－": "-"})
"""Full-width digits and signs (what a Chinese input method in full-width mode commits: '６６００００') as the
ASCII ones a spin box understands."""


class SpinBox(QSpinBox):
    """A QSpinBox that takes full-width digits as typed (a plain one silently dropped '６６００００')."""

    def validate(self, text: str, pos: int) -> tuple[QValidator.State, str, int]:  # Qt override
        return super().validate(text.translate(WIDE_DIGITS), pos)

    def valueFromText(self, text: str) -> int:  # Qt override
        return super().valueFromText(text.translate(WIDE_DIGITS))

    def fixup(self, text: str) -> str:  # Qt override
        return super().fixup(text.translate(WIDE_DIGITS))


class DoubleSpinBox(QDoubleSpinBox):
    """A QDoubleSpinBox that takes full-width digits, '，' and '．' as typed."""

    def validate(self, text: str, pos: int) -> tuple[QValidator.State, str, int]:  # Qt override
        return super().validate(text.translate(WIDE_DIGITS), pos)

    def valueFromText(self, text: str) -> float:  # Qt override
        return super().valueFromText(text.translate(WIDE_DIGITS))

    def fixup(self, text: str) -> str:  # Qt override
        return super().fixup(text.translate(WIDE_DIGITS))

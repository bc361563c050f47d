"""Numbers on screen in the UI's locale: the one formatting helper every page and widget uses.

The locale is QLocale's default, which the language owner (gui/i18n.py Translators.install) sets with the
UI language (en_US for English, zh_CN for Chinese): thousands separators and the decimal point follow it,
and a percentage is written as the locale writes it ("13%", as the PDFs print it — procurement/reports).
Before this module, the step 3 gauges wrote thousands with thin spaces ("1 050 W") beside "7,165 W" and
"50,000 元", and "51 %" beside the PDF's "13%".
"""

from __future__ import annotations

from PySide6.QtCore import QLocale

UNKNOWN = "—"
SHORTEST = QLocale.FloatingPointPrecisionOption.FloatingPointShortest


def number(value: float | None, decimals: int = 0, unknown: str = UNKNOWN) -> str:
    """1050 → '1,050' (en_US and zh_CN); ``decimals`` digits after the point; None → ``unknown``."""
    if value is None:
        return unknown
    return QLocale().toString(float(value), "f", decimals)


def shortest(value: float | None, unknown: str = UNKNOWN) -> str:
    """The shortest exact form with the locale's separators: 12.0 → '12', 1.5 → '1.5', 7165.0 → '7,165'
    (what Python's '{:g}' wrote, without its exponent for large numbers)."""
    if value is None:
        return unknown
    if float(value).is_integer():
        return QLocale().toString(float(value), "f", 0)
    return QLocale().toString(float(value), "f", SHORTEST.value)


def integer(value: int | float | None, unknown: str = UNKNOWN) -> str:
    """A count or a whole amount: 16000 → '16,000'."""
    return number(value, 0, unknown)


def percent(value: float | None, decimals: int | None = 0, unknown: str = UNKNOWN) -> str:
    """51.2 → '51%' (``decimals`` digits; None: the shortest exact form, 12.5 → '12.5%', 20.0 → '20%'), the
    sign as the locale writes it, no space before it."""
    if value is None:
        return unknown
    return (shortest(value) if decimals is None else number(value, decimals)) + QLocale().percent()


def quantity(value: float | None, unit: str, decimals: int = 0, unknown: str = UNKNOWN) -> str:
    """7165 W → '7,165 W'; unknown stays a bare dash (no unit after nothing)."""
    if value is None:
        return unknown
    return f"{number(value, decimals)} {unit}".rstrip()

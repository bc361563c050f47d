"""Numbers on screen follow the UI's QLocale on every page, in both languages, and match the PDFs' digits."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from PySide6.QtCore import QLocale
from PySide6.QtWidgets import QAbstractSpinBox, QLabel, QTableWidget

from gui.numbers import number, percent, shortest
from gui.widgets.gauge import Gauge

SPACE_GROUPED = re.compile(r"(?<![\w.])\d{1,3}(?:[\u2009\u202f\u00a0 ]\d{3})+(?![\w.])")
"""'1 050 W', '2\u00a0339 W': thousands grouped by a space, which neither en_US nor zh_CN does."""
SPACE_PERCENT = re.compile(r"\d[ \u2009\u00a0\u202f]%")
"""'54 %': the PDFs print '13%', as both locales do."""


def _showcase(win) -> None:
    from gui.screenshots import pick_example
    from procurement.pricing.compare import base_plan

    # the showcase before its chosen offer became the quote: parts on request, the 40 GB card (VRAM error)
    plan = pick_example(None)
    win.controller.new(base_plan(plan).model_copy(update={"chosen_vendor": None, "prices": {}}))
    win.controller.set_value("requirements.nodes", 8)  # the rack gauge and per-server figures
    win.controller.reevaluate()


def _visible_texts(page) -> list[tuple[str, str]]:
    texts: list[tuple[str, str]] = []
    texts += [("label", w.text()) for w in page.findChildren(QLabel) if w.isVisible()]
    texts += [("gauge", w.text()) for w in page.findChildren(Gauge) if w.isVisible()]
    texts += [("spin box", w.text()) for w in page.findChildren(QAbstractSpinBox) if w.isVisible()]
    for table in page.findChildren(QTableWidget):
        if table.isVisible():
            texts += [(f"table {table.objectName()}", item.text()) for r in range(table.rowCount())
                      for c in range(table.columnCount()) if (item := table.item(r, c)) is not None]
    return texts


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_page_writes_numbers_as_the_locale_does(qtbot, make_window, lang) -> None:
    """Step 3's gauges wrote '1 949.2 / 3 600 W (54 %)' beside '7,165 W'; the checklist and quote wrote
    '2 339 W' and '20 000 GB' with no-break spaces; '51 %' on screen against the PDF's '13%'."""
    win = make_window()
    win.resize(1280, 800)
    win.set_language(lang)
    _showcase(win)
    checked = 0
    for i in range(len(win.pages)):
        win.show_page(i)
        page = win.pages[i]
        qtbot.waitUntil(page.isVisible)
        for kind, text in _visible_texts(page):
            checked += 1
            where = f"{type(page).__name__} {kind}: {text!r}"
            assert not SPACE_GROUPED.search(text), f"space-grouped thousands in {where}"
            assert not SPACE_PERCENT.search(text), f"a space before % in {where}"
    assert checked > 200
    # the findings (core messages, the same text the PDFs print) too: "with the 20 % margin" beside "13%"
    from PySide6.QtWidgets import QTreeWidgetItemIterator

    win.controller.set_value("requirements.nodes", 1)  # the one-server showcase: the VRAM error with its margin
    win.controller.reevaluate()
    it = QTreeWidgetItemIterator(win.findings_panel.tree)
    findings = []
    while it.value() is not None:
        findings.append(it.value().text(0))
        it += 1
    assert any("%" in f for f in findings)
    for text in findings:
        assert not SPACE_GROUPED.search(text) and not SPACE_PERCENT.search(text), f"finding: {text!r}"
    server = win.page("ServerPage")
    gauge = server.power_gauge
    used, cap = gauge.used(), gauge.capacity()
    assert used is not None and cap is not None and used >= 1000 and cap >= 1000  # four-digit watts
    loc = QLocale()

    def whole(v: float) -> str:
        return loc.toString(float(v), "f", 0 if float(v).is_integer() else 1)

    assert gauge.value_text() == f"{whole(used)} / {whole(cap)} W ({loc.toString(100 * used / cap, 'f', 0)}%)"


def test_screen_and_pdf_write_the_same_digits(qtbot, make_window) -> None:
    """The core (PDFs, checklist, quote lines) cannot use Qt; its one format must equal QLocale's for both
    of the app's languages."""
    from procurement.checklist import fmt_num
    from procurement.reports.quote import pct

    win = make_window()
    for lang in ("en", "zh"):
        win.set_language(lang)
        for value in (0, 7, 999, 1000, 1050, 2339, 7165.0, 20000, 1949.2, 1234567.8, 0.5):
            assert number(value, 0 if float(value).is_integer() else 1) == fmt_num(value), (lang, value)
        assert percent(13.0) == f"{pct(Decimal('13.0'))}%" == "13%"
        assert percent(6.5, None) == f"{pct(Decimal('6.5'))}%"
        assert shortest(12.0) == "12" and shortest(1.5) == "1.5"


def test_spin_boxes_follow_the_language_not_the_start_up_locale(qtbot, make_window) -> None:
    """Widgets made while another locale was the default (the system's, e.g. de_DE) kept its digits after
    the language was set: '400.000 CNY' in the English UI beside '400,000' in the labels."""
    QLocale.setDefault(QLocale(QLocale.Language.German, QLocale.Country.Germany))
    try:
        win = make_window()
        win.controller.set_value("requirements.budget_cny", 400_000)
        win.set_language("en")
        win.show_page(0)
        page = win.page("RequirementsPage")
        qtbot.waitUntil(page.isVisible)
        assert page.budget.spin.text() == "400,000 CNY"
        win.set_language("zh")
        assert page.budget.spin.text() == "400,000 元"
    finally:
        QLocale.setDefault(QLocale(QLocale.Language.English, QLocale.Country.UnitedStates))


@pytest.mark.parametrize(("lang", "vat"), [("en", "VAT 13% on it"), ("zh", "其增值税 13%")])
def test_quote_totals_write_the_vat_rate_as_the_pdf_does(qtbot, make_window, lang, vat) -> None:
    """The quote page wrote "VAT 13 %" where the PDF prints "增值税率 13%"."""
    win = make_window()
    win.set_language(lang)
    _showcase(win)
    win.controller.set_value("gpu.model", "rtx-4090")  # a priced GPU among parts on request
    win.show_page(6)
    page = win.page("QuotePage")
    qtbot.waitUntil(page.isVisible)
    text = page.totals_label.text()
    assert vat in text and not SPACE_PERCENT.search(text)
    win.set_language("en")

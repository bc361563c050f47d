"""Switching the language and undoing, again and again, never crashes the window.

Switching View ▸ Language twice crashed the app in gui/i18n.py install(), and Ctrl+Z on the quote page once
crashed in libshiboken6: an exception leaving a Python event handler while Qt delivered LanguageChange
(an invalidated menu wrapper, a sign-off text without its message) segfaulted PySide.
"""

from __future__ import annotations

import gc

import shiboken6
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

ROUNDS = 50


def _quote_page(win):
    from gui.pages import PAGES

    index = next(i for i, info in enumerate(PAGES) if info.cls == "QuotePage")
    win.show_page(index)
    return win.pages[index]


def test_language_switches_and_undo_on_the_quote_page(qtbot, make_window) -> None:
    from gui.screenshots import pick_example

    win = make_window()
    win.controller.new(pick_example(None))
    page = _quote_page(win)
    qtbot.waitUntil(page.isVisible)
    edit = page.fields["quote.number"]
    for round_ in range(ROUNDS):
        win.show_page(1)  # step 2: type a GPU count, as the crashing session did
        count = win.pages[1].count_spin
        qtbot.waitUntil(count.isVisible)
        QTest.mouseClick(count.lineEdit(), Qt.MouseButton.LeftButton)
        QTest.keyClick(count.lineEdit(), Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
        QTest.keyClicks(count.lineEdit(), str(4 + round_ % 5))
        QTest.keyClick(count.lineEdit(), Qt.Key.Key_Tab)
        gc.collect()
        page = _quote_page(win)
        qtbot.waitUntil(page.isVisible)
        QTest.mouseClick(edit, Qt.MouseButton.LeftButton)
        QTest.keyClick(edit, Qt.Key.Key_End)
        QTest.keyClicks(edit, f"-{round_ % 10}")
        QTest.keyClick(edit, Qt.Key.Key_Tab)
        lang = "zh" if round_ % 2 == 0 else "en"
        win.named_actions[f"lang_{lang}"].trigger()  # View ▸ Language ▸ …
        assert win.translators.lang == lang
        for _ in range(6):
            QTest.keyClick(win, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
        for menu in (win.file_menu, win.edit_menu, win.view_menu, win.lang_menu, win.help_menu):
            assert shiboken6.isValid(menu)
    assert win.file_menu.title() in ("&File", "文件(&F)")
    # the undo steps undid the typing: the quote number and the GPU count are back to what the example had
    example = pick_example(None)
    assert win.controller.plan.quote.number == example.quote.number
    assert win.controller.plan.gpu.count == example.gpu.count


def test_sign_price_checklist_and_language_switch_50_times(qtbot, make_window, dialog_calls) -> None:
    """Signing the approval, then pricing, raised KeyError 'field.prices.<part>.date' in every refresh of the
    sign-off box; switching the language twice in that state segfaulted in Translators.install."""
    import datetime as dt

    from gui.pages import PAGES
    from gui.screenshots import pick_example
    from procurement.plan import EnteredPrice

    dialog_calls.answer("ask_sign_anyway", True)
    win = make_window()
    win.controller.new(pick_example(None))
    index = next(i for i, info in enumerate(PAGES) if info.cls == "ChecklistPage")
    part = win.controller.plan.gpu.model
    assert part is not None
    for round_ in range(ROUNDS):
        win.show_page(index)
        page = win.pages[index]
        qtbot.waitUntil(page.isVisible)
        box = page.signoffs["approval"]
        QTest.mouseClick(box.name_edit, Qt.MouseButton.LeftButton)
        QTest.keyClick(box.name_edit, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
        QTest.keyClicks(box.name_edit, "Zhang")
        QTest.mouseClick(box.sign_button, Qt.MouseButton.LeftButton)
        assert box.state.value == "valid", box.state_label.text()
        # a price arrives (typed on the quote page, imported or chosen from an offer: the same plan change)
        price = EnteredPrice(price_cny=50_000 + round_, kind="vendor_quote", date=dt.date(2026, 11, 1 + round_ % 28),
                             source=f"quote {round_}")
        win.controller.set_value("prices", {part: price.model_dump(mode="json")})
        assert box.state.value == "void" and box.changes_label.text()
        for lang in ("zh", "en"):
            win.named_actions[f"lang_{lang}"].trigger()
            assert win.translators.lang == lang
        assert box.state.value == "void"
        assert shiboken6.isValid(win.file_menu)
    assert len(win.controller.plan.signoffs["approval"].signers) >= 1

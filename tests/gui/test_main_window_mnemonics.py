"""Alt+letter mnemonics: unique on each page and never one of the menu bar's, in English and in Chinese."""

from __future__ import annotations

import re

import pytest
from PySide6.QtWidgets import QAbstractButton, QGroupBox, QLabel

MNEMONIC = re.compile(r"&([^&\s])")


def _mnemonics(widget) -> list[tuple[str, str]]:
    found = []
    for child in widget.findChildren(QLabel) + widget.findChildren(QAbstractButton) + \
            widget.findChildren(QGroupBox):
        if not child.isVisibleTo(widget):
            continue
        text = child.title() if isinstance(child, QGroupBox) else child.text()
        if isinstance(child, QLabel) and child.buddy() is None:
            continue  # a label without a buddy has no mnemonic
        found += [(m.upper(), text) for m in MNEMONIC.findall(text.replace("&&", ""))]
    return found


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_mnemonics_are_unique_and_leave_the_menus_alone(qtbot, make_window, lang) -> None:
    win = make_window()
    win.set_language(lang)
    menus = {m.upper() for action in win.menuBar().actions() for m in MNEMONIC.findall(action.text())}
    assert menus == {"F", "E", "V", "H"}
    for i, page in enumerate(win.pages):
        win.show_page(i)
        letters = _mnemonics(page)
        seen: dict[str, str] = {}
        for letter, text in letters:
            assert letter not in menus, f"{type(page).__name__}: {text!r} takes the menu bar's Alt+{letter}"
            # the same label in a repeated form (the two sign-off boxes) may repeat: Alt+N then cycles
            assert seen.get(letter, text) == text, \
                f"{type(page).__name__}: {text!r} and {seen[letter]!r} share Alt+{letter}"
            seen[letter] = text
    win.set_language("en")

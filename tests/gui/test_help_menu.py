"""Help menu: the user guide, the keyboard shortcuts, the catalog's dates and the policy in force, About with
the version — opened from the menu by keyboard as a person would, read in both languages."""

from __future__ import annotations

from PySide6.QtCore import Qt

from procurement import __version__


def _from_help_menu(qtbot, win, letter: str) -> None:
    """The Help menu's item with that underlined letter (Alt+H, then the letter). The offscreen test platform
    cannot pop a menu up (no keyboard grab), so the item is found in the menu by its mnemonic and triggered."""
    assert win.menuBar().actions()[-1].menu() is win.help_menu and "&H" in win.help_menu.title()
    items = [a for a in win.help_menu.actions() if f"&{letter}" in a.text().upper().replace("&&", "")]
    assert len(items) == 1, [a.text() for a in win.help_menu.actions()]
    assert items[0].isEnabled()
    items[0].trigger()


def test_f1_opens_the_user_guide_in_the_ui_language(qtbot, make_window) -> None:
    win = make_window()
    qtbot.keyClick(win, Qt.Key.Key_F1)
    help_window = win.help_window
    assert help_window is not None
    qtbot.waitUntil(help_window.isVisible)
    assert help_window.windowTitle() == "User guide"
    text = help_window.text()
    assert text.startswith("gpu-procure user guide") and "The five steps" in text
    assert "Compare" in text and "F8" in text
    win.set_language("zh")
    assert help_window.windowTitle() == "使用指南"
    assert help_window.text().startswith("gpu-procure 使用指南") and "五个步骤" in help_window.text()
    screen = win.screen().availableGeometry()
    assert help_window.width() <= screen.width() and help_window.height() <= screen.height()
    qtbot.mouseClick(help_window.buttons.buttons()[0], Qt.MouseButton.LeftButton)
    assert not help_window.isVisible()
    win.set_language("en")


def test_keyboard_shortcuts_list_comes_from_the_actions(qtbot, make_window) -> None:
    from PySide6.QtGui import QKeySequence

    win = make_window()
    _from_help_menu(qtbot, win, "K")
    help_window = win.help_window
    qtbot.waitUntil(help_window.isVisible)
    assert help_window.windowTitle() == "Keyboard shortcuts"
    text = help_window.text()
    keyed = [a for a in win.named_actions.values() if not a.shortcut().isEmpty() and a.text()]
    assert len(keyed) >= 10
    for act in keyed:  # every action that has a key is listed with it
        key = act.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
        name = act.text().replace("&", "").rstrip("…").strip()
        assert any(name in line and key in line for line in text.splitlines()), (name, key)
    assert "Show findings" in text and "F8" in text
    assert "Use the GPU of the current row (step 2)" in text


def test_catalog_dates_and_policy_in_force(qtbot, make_window) -> None:
    win = make_window()
    _from_help_menu(qtbot, win, "P")
    help_window = win.help_window
    qtbot.waitUntil(help_window.isVisible)
    text = help_window.text()
    cat = win.controller.catalog
    dates = [d for d in (getattr(p, "price_date", None) for p in cat) if d is not None]
    assert f"Newest price date: {max(dates).isoformat()}" in text
    assert f"Oldest price date: {min(dates).isoformat()}" in text
    assert f"Parts: {len(cat):,}" in text
    assert "The shipped policy (resources/policy/default.yaml)" in text
    lines = text.splitlines()
    vat = next(line for line in lines if "vat_rate_pct" in line)
    assert "= 13 (as shipped)" in vat
    policy_fields = type(win.controller.policy).model_fields
    assert all(any(name in line for line in lines) for name in policy_fields)  # every threshold listed
    psu = next(line for line in lines if "psu_headroom_pct" in line)
    assert "20 % headroom" in psu  # its source, from resources/policy/default.yaml


def test_about_says_the_version(qtbot, make_window, dialog_calls) -> None:
    shown: list[str] = []
    dialog_calls.answer("show_about", lambda _parent, _title, text: shown.append(text))
    win = make_window()
    _from_help_menu(qtbot, win, "A")
    assert shown and shown[0].startswith(f"gpu-procure {__version__}")
    assert "Qt " in shown[0]

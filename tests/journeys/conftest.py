"""Journey fixtures: the GUI tests' isolated window and dialog answers (tests/gui/conftest.py)."""

import pytest

from tests.gui.conftest import (  # noqa: F401  (pytest finds fixtures by name)
    OFFSCREEN_NOISE,
    _no_unanswered_questions,
    dialog_calls,
    make_window,
    settings_file,
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    from pathlib import Path

    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.qt_log_ignore(OFFSCREEN_NOISE, *POPUP_NOISE))


POPUP_NOISE = ("This plugin does not support raise", "This plugin does not support grabbing the keyboard")
"""The offscreen platform's words when a combo's popup opens (it grabs the keyboard, raises itself) or a window
is activated: the test platform's limits, as OFFSCREEN_NOISE (a person's clicks on a combo cause them)."""

"""The command line's language follows LANG and friends, and on Windows (no LANG) the display language."""

from __future__ import annotations

import ctypes
import sys
from types import SimpleNamespace

import pytest

from procurement import messages


@pytest.fixture
def no_env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


def _windows(monkeypatch: pytest.MonkeyPatch, langid: int) -> None:
    monkeypatch.setattr(sys, "platform", "win32")
    kernel32 = SimpleNamespace(GetUserDefaultUILanguage=lambda: langid)
    monkeypatch.setattr(ctypes, "windll", SimpleNamespace(kernel32=kernel32), raising=False)


@pytest.mark.parametrize(("langid", "lang"), [(0x0804, "zh"), (0x0404, "zh"), (0x0409, "en"), (0x0407, "en")])
def test_windows_display_language(no_env: pytest.MonkeyPatch, langid: int, lang: str) -> None:
    _windows(no_env, langid)
    assert messages.default_lang() == lang


def test_environment_wins_over_the_os_setting(no_env: pytest.MonkeyPatch) -> None:
    _windows(no_env, 0x0804)
    no_env.setenv("LANG", "en_US.UTF-8")
    assert messages.default_lang() == "en"


def test_posix_without_any_setting_is_english(no_env: pytest.MonkeyPatch) -> None:
    no_env.setattr(sys, "platform", "linux")
    assert messages.os_ui_locale() == ""
    assert messages.default_lang() == "en"
    no_env.setenv("LC_ALL", "zh_CN.UTF-8")
    assert messages.default_lang() == "zh"

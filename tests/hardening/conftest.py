"""Hardening tests reuse the GUI fixtures: an isolated window and dialogs that fail unless a test answers."""

from __future__ import annotations

from tests.gui.conftest import DialogCalls, dialog_calls, make_window, settings_file

__all__ = ["DialogCalls", "dialog_calls", "make_window", "settings_file"]

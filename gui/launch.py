"""The `gpu-procure` entry point: every sub-command (and a mistyped one) runs headless, without Qt.

Routing, decided from the arguments alone before anything heavy is imported:
- the first word names a command in procurement.commands.COMMANDS → the headless CLI;
- the first word is a plan file (it exists, or it looks like a path) → the app opens it;
- any other first word is a mistyped command → the CLI, which says so and exits 2;
- no word: `--help`/`-h`/`--version` → the CLI, otherwise the app.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

from procurement.commands import BY_NAME, GLOBAL_OPTIONS_WITH_VALUE, first_word

CLI_FLAGS = frozenset({"--version", "-h", "--help"})
# The app's own options that take a value (gui/app.py), skipped when looking for the first word.
APP_OPTIONS_WITH_VALUE = GLOBAL_OPTIONS_WITH_VALUE | {"--policy", "--lang"}
PLAN_SUFFIXES = (".yaml", ".yml")


def looks_like_plan(word: str) -> bool:
    """A path the app should open rather than a command word."""
    return (os.path.exists(word) or os.sep in word or "/" in word
            or word.lower().endswith(PLAN_SUFFIXES))


def is_headless(args: Sequence[str]) -> bool:
    """True when ``args`` are for the command line rather than the app."""
    args = list(args)
    word = first_word(args, APP_OPTIONS_WITH_VALUE)
    if word is None:
        return any(a in CLI_FLAGS for a in args)
    return word in BY_NAME or not looks_like_plan(word)


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if is_headless(args):
        from procurement.cli import main as cli_main

        return cli_main(args)
    from gui.app import run_app  # imports PySide6 only here

    return run_app(args)


if __name__ == "__main__":
    sys.exit(main())

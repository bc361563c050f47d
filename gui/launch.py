"""The `gpu-procure` entry point: every sub-command (and a mistyped one) runs headless, without Qt.

Routing, decided from the arguments alone before anything heavy is imported:
- the first word names a command in procurement.commands.COMMANDS → the headless CLI;
- the first word is a plan file (it exists, or it looks like a path) → the app opens it;
- any other first word is a mistyped command → the CLI, which says so and exits 2;
- no word: `--help`/`-h`/`--version` → the CLI, otherwise the app.
"""

from __future__ import annotations

import gc
import logging
import os
import sys
from collections.abc import Mapping, Sequence

from procurement.app_options import DEBUG_FLAG
from procurement.commands import BY_NAME, GLOBAL_OPTIONS_WITH_VALUE, first_word
from procurement.exit_status import ExitStatus
from procurement.messages import register

CLI_FLAGS = frozenset({"--version", "-h", "--help"})
# The app's own options that take a value (gui/app.py), skipped when looking for the first word.
APP_OPTIONS_WITH_VALUE = GLOBAL_OPTIONS_WITH_VALUE | {"--policy", "--lang"}
PLAN_SUFFIXES = (".gpuplan", ".yaml", ".yml")


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
    debug = DEBUG_FLAG in args  # --debug anywhere: the launcher's, for the CLI and the app alike
    args = [a for a in args if a != DEBUG_FLAG]
    _start_logging(debug, args)
    if is_headless(args):
        from procurement.commands.cli import main as cli_main

        status = cli_main(args)
        logging.getLogger(__name__).info("exit status %d", status)
        return status
    return _run_app(args)


def main_gui(argv: Sequence[str] | None = None) -> int:
    """`gpu-procure-gui` (a gui-scripts entry: no console window on Windows): always the app."""
    args = list(sys.argv[1:] if argv is None else argv)
    debug = DEBUG_FLAG in args
    args = [a for a in args if a != DEBUG_FLAG]
    _start_logging(debug, args)
    return _run_app(args)


def _start_logging(debug: bool, args: list[str]) -> None:
    from procurement.applog import setup_logging

    setup_logging(debug=debug, argv=args)


def no_display(env: Mapping[str, str] | None = None, platform: str | None = None) -> bool:
    """True where Qt would find no screen and abort the process (SIGABRT, exit 134, a core dump) instead of
    returning: an X11/Wayland system with neither DISPLAY nor WAYLAND_DISPLAY, and no QT_QPA_PLATFORM
    chosen (offscreen, vnc, eglfs… are the person's own choice)."""
    env = os.environ if env is None else env
    platform = sys.platform if platform is None else platform
    if platform.startswith(("win", "darwin", "cygwin")) or env.get("QT_QPA_PLATFORM"):
        return False
    return not (env.get("DISPLAY") or env.get("WAYLAND_DISPLAY"))


def _run_app(args: list[str]) -> int:
    if no_display():
        from procurement.messages import default_lang, t

        logging.getLogger(__name__).error("the app cannot start: no display")
        print(t("launch.no_display", default_lang()), file=sys.stderr)
        return int(ExitStatus.UNUSABLE)
    # The start makes long-lived objects (modules, classes, the catalog, the widgets) and almost no garbage
    # (~1,000 objects in cycles), yet the collector walked the growing heap ~140 times, ~100 ms of a 1 s start
    # (issue 25). It rests until the window has its plan: gui/workers.prepare_for_workers then freezes that heap
    # and turns it back on; the finally turns it on should the app end before that.
    gc.disable()
    try:
        return _start_app(args)
    finally:
        gc.enable()


def _start_app(args: list[str]) -> int:
    try:
        from gui.app import run_app  # imports PySide6 only here
    except ImportError as exc:
        missing = (exc.name or "").split(".")[0]
        if missing not in ("PySide6", "shiboken6"):
            raise
        from procurement.messages import default_lang, t

        logging.getLogger(__name__).error("the app cannot start: %s", exc)
        print(t("launch.no_qt", default_lang(), error=exc), file=sys.stderr)
        return int(ExitStatus.UNUSABLE)
    return run_app(args)


register({
    "launch.no_qt": (
        "gpu-procure: the desktop app needs Qt (PySide6), which is not installed here ({error}).\n  Install the app "
        "with:   pip install 'gpu-procure[gui]'\n  The commands work without it; see:   gpu-procure --help"
    ),
    "launch.no_display": (
        "gpu-procure: the desktop app needs a display, and there is none here (DISPLAY and WAYLAND_DISPLAY are "
        "not set).\n  Log in to a desktop, or use ssh -X; QT_QPA_PLATFORM=offscreen runs it without a screen.\n"
        "  The commands need no display; see:   gpu-procure --help"
    ),
})


if __name__ == "__main__":
    sys.exit(main())

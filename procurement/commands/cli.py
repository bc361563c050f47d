"""The headless command line: builds the parser from the command table and runs one command (no Qt)."""

from __future__ import annotations

import argparse
import difflib
import sys
from collections.abc import Sequence
from pathlib import Path

from procurement import __version__
from procurement.commands import BY_NAME, COMMANDS, catalog_for, first_word
from procurement.exit_status import MEANING, ExitStatus
from procurement.terminal import CleanStream, one_line

EPILOG = "exit status: " + "; ".join(f"{int(s)} {MEANING[s]}" for s in ExitStatus)
EXIT_TABLE = "exit status (every command):\n" + "\n".join(f"  {int(s)}  {MEANING[s]}" for s in ExitStatus)


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The parser; with ``argv``, only the command it names gets its options (and its module imported)."""
    from procurement.app_options import DEBUG_FLAG, DEBUG_HELP, app_help

    p = argparse.ArgumentParser(
        prog="gpu-procure",
        description="Plan, check, quote and verify GPU server purchases. Without a command, opens the app.",
        epilog=app_help() + "\n\n" + EXIT_TABLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--version", action="version", version=f"gpu-procure {__version__}")
    p.add_argument(DEBUG_FLAG, action="store_true", help=DEBUG_HELP + "; anywhere on the line")
    p.add_argument("--catalog", type=Path, action="append", default=[], metavar="DIR",
                   help="user catalog directory (company parts and prices), may repeat")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    chosen = None if argv is None else first_word(list(argv))
    for command in COMMANDS:
        cp = sub.add_parser(command.name, help=command.help, description=command.help, epilog=EPILOG)
        if argv is None or command.name == chosen:
            command.load().add_arguments(cp)
    return p


def _unknown(word: str, parser: argparse.ArgumentParser) -> int:
    close = difflib.get_close_matches(word, BY_NAME, n=1)
    hint = f" (did you mean '{close[0]}'?)" if close else ""
    parser.print_usage(sys.stderr)
    print(f"gpu-procure: error: unknown command '{word}'{hint}; commands: {', '.join(BY_NAME)}",
          file=sys.stderr)
    return ExitStatus.UNUSABLE


def main(argv: Sequence[str] | None = None) -> int:
    """Run a headless command; returns its ExitStatus."""
    from catalog.loader import CatalogError

    args_list = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(args_list)
    word = first_word(args_list)
    if word is not None and word not in BY_NAME:
        return _unknown(word, parser)
    head = args_list[: args_list.index("--")] if "--" in args_list else args_list
    dashed = next((a for a in head if a.startswith("--") and a.endswith("=--")), None)
    if dashed is not None:  # Python's argparse reads '--OPT=--' as an empty list, a traceback in the command
        option = dashed.split("=", 1)[0]
        parser.error(f"argument {option}: '--' is not a value (give the value, or leave the option out)")
    args = parser.parse_args(args_list)
    if args.command is None:
        parser.print_help()
        return ExitStatus.UNUSABLE
    # everything the command prints goes through the one terminal-text cleaner (procurement.terminal)
    out, err = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = CleanStream(out), CleanStream(err)
    try:
        return int(BY_NAME[args.command].load().run(args))
    except CatalogError as exc:
        print("catalog error:", file=sys.stderr)
        for line in exc.problems:
            print(f"  {one_line(line)}", file=sys.stderr)
        return ExitStatus.UNUSABLE
    finally:
        sys.stdout, sys.stderr = out, err


__all__ = ["build_parser", "catalog_for", "main"]

if __name__ == "__main__":
    sys.exit(main())

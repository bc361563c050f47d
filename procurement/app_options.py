"""The desktop app's command-line options, declared without Qt so that `gpu-procure --help` can list them."""

from __future__ import annotations

import argparse
from pathlib import Path

from procurement.messages import languages

DEBUG_FLAG = "--debug"
DEBUG_HELP = "log everything (to the terminal as well as the log file under the state directory)"


def add_app_arguments(p: argparse.ArgumentParser) -> None:
    """The app's options (gui/app.py parses them; the CLI's --help shows them)."""
    p.add_argument("plan", nargs="?", type=Path,
                   help="a plan file to open (.gpuplan; .gpuplan.yaml and other .yaml files open too)")
    p.add_argument("--self-test", action="store_true", help="open the window, paint once, exit 0")
    p.add_argument("--catalog", type=Path, action="append", default=[], metavar="DIR",
                   help="a directory of company parts and prices laid over the shipped catalog (repeatable)")
    p.add_argument("--policy", type=Path, metavar="FILE", help="a policy YAML with your own thresholds")
    p.add_argument("--lang", choices=languages(), help="interface language (default: remembered or system)")
    p.add_argument(DEBUG_FLAG, action="store_true", help=DEBUG_HELP)


def app_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="gpu-procure", description="The desktop app (the gui extra).")
    add_app_arguments(p)
    return p


def app_help() -> str:
    """The app's usage and options, for the epilog of `gpu-procure --help`."""
    p = argparse.ArgumentParser(prog="gpu-procure", add_help=False)
    add_app_arguments(p)
    usage, _, options = p.format_help().strip("\n").partition("\n\n")
    cut = len("usage: ") - 2
    lines = ["  " + line[len("usage: "):] if i == 0 else line[cut:] for i, line in enumerate(usage.splitlines())]
    body = [ln for ln in options.splitlines() if ln.strip() and not ln.endswith("arguments:") and ln != "options:"]
    return "\n".join(["the app, without a COMMAND (needs the gui extra):", *lines, *body])

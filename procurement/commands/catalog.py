"""`gpu-procure catalog check DIR`: validate a user catalog directory and list what it adds or overrides."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from procurement.exit_status import ExitStatus


def add_arguments(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="catalog_command", metavar="ACTION", required=True)
    check = actions.add_parser("check", help="validate a user catalog directory and list what it adds or overrides")
    check.add_argument("directory", type=Path)


def run(args: argparse.Namespace) -> int:
    """0 the directory is valid; 1 it has problems (each printed as file:line: …)."""
    from catalog.loader import CatalogError, describe_overlay, load_catalog

    try:
        cat = load_catalog([args.directory])
    except CatalogError as exc:
        for line in exc.problems:
            print(line, file=sys.stderr)
        return ExitStatus.FAILED
    print(describe_overlay(cat.overlays[0]))
    return ExitStatus.OK

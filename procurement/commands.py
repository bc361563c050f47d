"""The table of `gpu-procure` sub-commands: one line per command, read by the launcher and the CLI.

A command is a module with two functions:

    def add_arguments(parser: argparse.ArgumentParser) -> None: ...   # its options
    def run(args: argparse.Namespace) -> int: ...                      # an ExitStatus

The module is imported only when its command is run (or its --help shown), so a command's imports never
slow down another, and nothing here imports Qt. See CONTRIBUTING.md, "How to add a command".
"""

from __future__ import annotations

import argparse
import importlib
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from catalog.loader import Catalog


@dataclass(frozen=True)
class Command:
    name: str
    module: str
    help: str

    def load(self) -> ModuleType:
        return importlib.import_module(self.module)


COMMANDS: tuple[Command, ...] = (
    Command("check", "procurement.check_cmd", "evaluate the rules on a plan"),
    Command("export", "procurement.reports.export_cmd",
            "write a plan's PDFs: quote, checklist, acceptance sheet, vendor comparison"),
    Command("verify", "procurement.verify.verify_cmd",
            "check this machine (nvidia-smi and host probes) against a plan"),
    Command("catalog", "procurement.catalog_cmd", "catalog tools (catalog check DIR)"),
    Command("size", "procurement.size_cmd",
            "GPU memory per GPU for a model, mode and parallelism plan; serving capacity (docs/sizing.md)"),
    Command("judge", "procurement.probe.judge_cmd", "judge raw facts collected by the probe on other machines"),
    Command("probe-bundle", "procurement.probe.bundle_cmd", "write the standalone probe (a .pyz) into DIR"),
    Command("deploy-files", "procurement.deploy_files_cmd",
            "write the shipped Slurm batch script and Ansible playbook into DIR"),
    Command("completion", "procurement.completion_cmd", "print a bash, zsh or fish completion script"),
    Command("handover", "procurement.handover.handover_cmd",
            "setup scripts, Prometheus targets and alert rules for the accepted nodes"),
    Command("dockerfile", "procurement.dockerfile_cmd",
            "write the Dockerfile of the plan's container image (optionally with China mirrors)"),
    Command("sign", "procurement.sign_cmd",
            "sign a plan's approval or delivery acceptance (optionally with an SSH key)"),
    Command("quote", "procurement.pricing.quote_cmd",
            "vendors' quotes: import a vendor's file, compare the offers, choose one (三家比价)"),
)

BY_NAME: dict[str, Command] = {c.name: c for c in COMMANDS}

# Options of the top-level parser that take a value (the launcher skips the value when it looks for the
# command word, and so does build_parser()).
GLOBAL_OPTIONS_WITH_VALUE = frozenset({"--catalog"})


def add_catalog_option(parser: argparse.ArgumentParser) -> None:
    """`--catalog DIR` after the command word (it may also come before it)."""
    parser.add_argument("--catalog", type=Path, action="append", default=[], metavar="DIR", dest="catalog_sub",
                        help="user catalog directory (company parts and prices), may repeat")


def catalog_for(args: argparse.Namespace) -> Catalog:
    """The shipped catalog with the user directories given before and after the command word.

    Raises catalog.loader.CatalogError; the CLI turns it into ExitStatus.UNUSABLE.
    """
    import sys

    from catalog.loader import load_catalog, overlay_warnings
    from procurement.terminal import clean_output

    dirs = list(getattr(args, "catalog", []) or []) + list(getattr(args, "catalog_sub", []) or [])
    cat = load_catalog(dirs)
    for line in overlay_warnings(cat):  # implausible numbers load, but the person is told (catalog/plausible.py)
        print(clean_output(f"warning: {line}"), file=sys.stderr)
    return cat


def first_word(argv: list[str], options_with_value: frozenset[str] = GLOBAL_OPTIONS_WITH_VALUE) -> str | None:
    """The first argument that is not an option or an option's value (the command word), or None."""
    skip = False
    for arg in argv:
        if skip:
            skip = False
        elif arg == "--":
            return None
        elif arg.startswith("-"):
            skip = arg in options_with_value
        else:
            return arg
    return None

"""The `gpu-procure` sub-commands: the table (one line per command), read by the launcher and the CLI.

Every command is a module of this package named after it (``probe-bundle`` → ``probe_bundle.py``); the CLI entry
point is ``cli.py`` beside them. A command module is thin: its options, reading its inputs, one call into the
domain code, printing, the exit status (procurement.exit_status). It has two functions:

    def add_arguments(parser: argparse.ArgumentParser) -> None: ...   # its options
    def run(args: argparse.Namespace) -> int: ...                      # an ExitStatus

The module is imported only when its command is run (or its --help shown), so a command's imports never
slow down another, and nothing here imports Qt. See CONTRIBUTING.md, "How to add a command".
"""

from __future__ import annotations

import argparse
import importlib
import sys
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from catalog.loader import Catalog
    from procurement.messages import Lang
    from procurement.plan import Plan


@dataclass(frozen=True)
class Command:
    name: str
    help: str

    @property
    def module(self) -> str:
        """Where the command lives: ``procurement/commands/<name>.py`` (a dash in the name is an underscore)."""
        return f"{__name__}.{self.name.replace('-', '_')}"

    def load(self) -> ModuleType:
        return importlib.import_module(self.module)


COMMANDS: tuple[Command, ...] = (
    Command("check", "evaluate the rules on a plan"),
    Command("export", "write a plan's PDFs: quote, checklist, acceptance sheet, vendor comparison"),
    Command("verify", "check this machine (nvidia-smi and host probes) against a plan"),
    Command("catalog", "catalog tools (catalog check DIR)"),
    Command("size", "GPU memory per GPU for a model, mode and parallelism plan; serving capacity (docs/sizing.md)"),
    Command("judge", "judge raw facts collected by the probe on other machines"),
    Command("probe-bundle", "write the standalone probe (a .pyz) into DIR"),
    Command("deploy-files", "write the shipped Slurm batch script and Ansible playbook into DIR"),
    Command("completion", "print a bash, zsh or fish completion script"),
    Command("handover", "setup scripts, Prometheus targets and alert rules for the accepted nodes"),
    Command("dockerfile", "write the Dockerfile of the plan's container image (optionally with China mirrors)"),
    Command("sign", "sign a plan's approval or delivery acceptance (optionally with an SSH key)"),
    Command("quote", "vendors' quotes: import a vendor's file, compare the offers, choose one (三家比价)"),
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
    from catalog.loader import load_catalog, overlay_ignored, overlay_warnings
    from procurement.terminal import clean_output

    dirs = list(getattr(args, "catalog", []) or []) + list(getattr(args, "catalog_sub", []) or [])
    cat = load_catalog(dirs)
    # implausible numbers load, but the person is told (catalog/plausible.py); so are files not read
    for line in overlay_ignored(cat) + overlay_warnings(cat):
        print(clean_output(f"warning: {line}"), file=sys.stderr)
    return cat


def lang_for(args: argparse.Namespace) -> Lang:
    """``--lang`` when it names a language, else the person's language (procurement.messages.default_lang)."""
    from procurement.messages import default_lang, languages

    lang = getattr(args, "lang", None)
    return lang if lang in languages() else default_lang()


def plan_or_error(args: argparse.Namespace, catalog: Catalog, lang: Lang) -> tuple[Plan | None, str | None]:
    """The ``--plan`` of verify, judge and handover: (the plan, None), (None, None) without ``--plan``, or
    (None, why) when it cannot be read; the reason is printed on standard error."""
    if getattr(args, "plan", None) is None:
        return None, None
    from procurement import verification_texts  # noqa: F401  (registers verify.plan_error)
    from procurement.messages import t
    from procurement.plan import PlanError, load_plan

    try:
        return load_plan(args.plan, catalog, lang), None
    except PlanError as exc:
        why = t("verify.plan_error", lang, error=exc)
        print(why, file=sys.stderr)
        return None, why


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

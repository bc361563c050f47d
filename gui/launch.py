"""The `gpu-procure` entry point: headless sub-commands without Qt, the app otherwise."""

from __future__ import annotations

import sys
from collections.abc import Sequence

HEADLESS = {"check", "export", "verify", "catalog", "--version", "-h", "--help"}


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if any(a in HEADLESS for a in args):
        from procurement.cli import main as cli_main

        return cli_main(args)
    from gui.app import run_app  # imports PySide6 only here

    return run_app(args)


if __name__ == "__main__":
    sys.exit(main())

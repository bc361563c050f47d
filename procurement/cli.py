"""The headless command line: check, export, verify and catalog check (no Qt is imported here)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from procurement import __version__

if TYPE_CHECKING:
    from catalog.loader import Catalog

EXIT_OK, EXIT_FINDINGS, EXIT_UNREADABLE = 0, 1, 2


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="gpu-procure",
        description="Plan, check, quote and verify GPU server purchases. Without a command, opens the app.",
    )
    p.add_argument("--version", action="version", version=f"gpu-procure {__version__}")
    p.add_argument("--catalog", type=Path, action="append", default=[], metavar="DIR",
                   help="user catalog directory (company parts and prices), may repeat")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    c = sub.add_parser("check", help="evaluate the rules on a plan")
    c.add_argument("plan", type=Path)
    c.add_argument("--json", action="store_true", help="print findings as JSON")
    c.add_argument("--lang", choices=("zh", "en"), default=None)
    c.add_argument("--policy", type=Path, default=None, help="policy YAML overriding thresholds")
    c.add_argument("--catalog", type=Path, action="append", default=[], metavar="DIR", dest="catalog_sub")

    e = sub.add_parser("export", help="write the PDF quote and/or checklist of a plan")
    e.add_argument("plan", type=Path)
    e.add_argument("--quote", type=Path, default=None, metavar="FILE")
    e.add_argument("--checklist", type=Path, default=None, metavar="FILE")
    e.add_argument("--lang", choices=("zh", "en"), default=None)
    e.add_argument("--paper", choices=("a4", "letter"), default="a4")
    e.add_argument("--policy", type=Path, default=None)
    e.add_argument("--catalog", type=Path, action="append", default=[], metavar="DIR", dest="catalog_sub")

    v = sub.add_parser("verify", help="check this machine (nvidia-smi and host probes) against a plan")
    v.add_argument("--plan", type=Path, default=None,
                   help="plan to check against (without: inventory and health checks)")
    v.add_argument("--json", type=Path, default=None, metavar="FILE", dest="json_out",
                   help="write the JSON report (docs/verify.md)")
    v.add_argument("--benchmark", action="store_true",
                   help="short matmul/bandwidth run per GPU when PyTorch with CUDA is present")
    v.add_argument("--timeout", type=float, default=30.0, metavar="S",
                   help="kill a probe program after S seconds (default 30)")
    v.add_argument("--nvidia-smi", type=Path, default=None, metavar="PATH", dest="nvidia_smi",
                   help="nvidia-smi to run instead of the one on PATH")
    v.add_argument("--merge", type=Path, nargs="+", default=None, metavar="REPORT",
                   help="combine node reports into one table checked against the plan's node count")
    v.add_argument("--lang", choices=("zh", "en"), default=None)
    v.add_argument("--catalog", type=Path, action="append", default=[], metavar="DIR", dest="catalog_sub")

    k = sub.add_parser("catalog", help="catalog tools")
    ksub = k.add_subparsers(dest="catalog_command", metavar="ACTION", required=True)
    kc = ksub.add_parser("check", help="validate a user catalog directory and list what it adds or overrides")
    kc.add_argument("directory", type=Path)
    return p


def _catalog(args: argparse.Namespace) -> Catalog:
    from catalog.loader import load_catalog

    dirs = list(args.catalog) + list(getattr(args, "catalog_sub", []) or [])
    return load_catalog(dirs)


def _catalog_check(args: argparse.Namespace) -> int:
    from catalog.loader import CatalogError, describe_overlay, load_catalog

    try:
        cat = load_catalog([args.directory])
    except CatalogError as exc:
        for line in exc.problems:
            print(line, file=sys.stderr)
        return EXIT_FINDINGS
    print(describe_overlay(cat.overlays[0]))
    return EXIT_OK


def main(argv: Sequence[str] | None = None) -> int:
    """Run a headless command; returns the exit status."""
    from catalog.loader import CatalogError

    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if args.command == "catalog":
            return _catalog_check(args)
        if args.command == "check":
            from procurement.check_cmd import run_check

            return run_check(args, _catalog(args))
        if args.command == "export":
            from procurement.reports.export_cmd import run_export

            return run_export(args, _catalog(args))
        if args.command == "verify":
            from procurement.verify.verify_cmd import run_verify

            return run_verify(args, _catalog(args))
    except CatalogError as exc:
        print("catalog error:", file=sys.stderr)
        for line in exc.problems:
            print(f"  {line}", file=sys.stderr)
        return EXIT_UNREADABLE
    parser.print_help()
    return EXIT_UNREADABLE


if __name__ == "__main__":
    sys.exit(main())

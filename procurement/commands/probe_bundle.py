"""`gpu-procure probe-bundle DIR`: write the standalone probe into DIR, to copy onto the target machines."""

from __future__ import annotations

import argparse
from pathlib import Path

from procurement.probe.bundle import run_probe_bundle


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("directory", type=Path, metavar="DIR", help="where to write gpu-procure-probe.pyz")


def run(args: argparse.Namespace) -> int:
    return run_probe_bundle(args)

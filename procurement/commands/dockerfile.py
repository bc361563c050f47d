"""`gpu-procure dockerfile PLAN [-o FILE] [--mirror tuna|aliyun]`: the Dockerfile of the plan's chosen image.

Exit status: 0 written, 2 the plan cannot be read or the file cannot be written, 3 the plan has no known image
(nothing to build on). The same generator as step 4 (procurement/dockerfile.py).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import BinaryIO, TextIO

from catalog.loader import Catalog
from procurement.commands import add_catalog_option, catalog_for
from procurement.dockerfile import MIRRORS, dockerfile_for_plan
from procurement.exit_status import ExitStatus
from procurement.messages import Lang, default_lang, languages, register, t
from procurement.plan import PlanError, load_plan
from procurement.safe_io import STDOUT, WriteError, write_file

register({
    "dockerfile_cmd.bad_plan": "Cannot read the plan: {error}",
    "dockerfile_cmd.no_image": (
        "The plan has no container image from the catalog (step 4): there is no Dockerfile to write"
    ),
    "dockerfile_cmd.cannot_write": "Cannot write: {error}",
})


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("plan", type=Path)
    p.add_argument("-o", "--output", default=STDOUT, metavar="FILE",
                   help="where to write it (default: standard output)")
    p.add_argument("--mirror", choices=sorted(MIRRORS), default=None,
                   help="apt and pip from a mirror in mainland China; the base registry becomes a build argument")
    p.add_argument("--lang", choices=languages(), default=None, help="language of the comments")
    add_catalog_option(p)


def run(args: argparse.Namespace) -> int:
    return run_dockerfile(args, catalog_for(args))


def run_dockerfile(args: argparse.Namespace, catalog: Catalog, err: TextIO | None = None,
                   stdout: BinaryIO | None = None) -> int:
    err = err or sys.stderr
    lang: Lang = args.lang or default_lang()
    try:
        plan = load_plan(args.plan, catalog, lang)
    except PlanError as exc:
        print(t("dockerfile_cmd.bad_plan", lang, error=exc), file=err)
        return ExitStatus.UNUSABLE
    text = dockerfile_for_plan(plan, catalog, lang, args.mirror)
    if text is None:
        print(t("dockerfile_cmd.no_image", lang), file=err)
        return ExitStatus.INCOMPLETE
    try:
        write_file(args.output, text.encode("utf-8"), inputs=[args.plan], allow_stdout=True,
                   stdout=stdout or sys.stdout.buffer)
    except WriteError as exc:
        print(t("dockerfile_cmd.cannot_write", lang, error=exc), file=err)
        return ExitStatus.UNUSABLE
    return ExitStatus.OK

"""`gpu-procure sign PLAN --kind approval|acceptance --name N --role R [--key SSH_KEY]`: sign, written atomically."""

from __future__ import annotations

import argparse
import datetime as dt
import sys
from pathlib import Path

from procurement.commands import add_catalog_option, catalog_for
from procurement.exit_status import ExitStatus
from procurement.messages import Lang, default_lang, languages, register, t
from procurement.plan import PlanError, load_plan, save_plan
from procurement.plan_lock import plan_lock
from procurement.safe_io import FileChangedError, stamp_of
from procurement.signoff import KINDS, SignOffError, sign, signoff_status

register(
    {
        "sign.done": "signed the {kind}: {name}; digest of the signed content {digest}",
        "sign.bad_plan": "cannot read the plan:\n{error}",
        "sign.cannot_write": "cannot write {path}: {error}",
        "sign.bad_date": "the date must be YYYY-MM-DD: {date}",
        "sign.locked": "{path} is being signed by another gpu-procure sign; try again when it has finished",
        "sign.keeps_changing": "{path} kept changing while it was being signed; nothing was signed",
    }
)


def add_arguments(c: argparse.ArgumentParser) -> None:
    c.add_argument("plan", type=Path)
    c.add_argument("--kind", choices=KINDS, required=True, help="approval (方案审批) or acceptance (到货验收)")
    c.add_argument("--name", required=True, help="the signer's name")
    c.add_argument("--role", default="", help="the signer's role or department")
    c.add_argument("--date", default=None, help="the signing date, YYYY-MM-DD (default: today)")
    c.add_argument("--key", type=Path, default=None, metavar="SSH_KEY",
                   help="also sign the content with this SSH private key (ssh-keygen -Y sign)")
    c.add_argument("--principal", default="", help="the identity in the allowed-signers file (default: --name)")
    c.add_argument("--lang", choices=languages(), default=None)
    add_catalog_option(c)


def run(args: argparse.Namespace) -> int:
    lang: Lang = args.lang or default_lang()
    catalog = catalog_for(args)
    try:
        date = dt.date.fromisoformat(args.date) if args.date else None
    except ValueError:
        print(t("sign.bad_date", lang, date=args.date), file=sys.stderr)
        return ExitStatus.UNUSABLE
    for _attempt in range(20):
        with plan_lock(args.plan) as locked:
            if not locked:
                print(t("sign.locked", lang, path=args.plan), file=sys.stderr)
                return ExitStatus.UNUSABLE
            try:
                stamp = stamp_of(args.plan)  # taken before reading: a write in between fails the save below
            except OSError:
                stamp = None  # a FIFO, a device, a directory: load_plan says what it is, and nothing is read
            try:
                plan = load_plan(args.plan, catalog, lang)
            except PlanError as exc:
                print(t("sign.bad_plan", lang, error=exc), file=sys.stderr)
                return ExitStatus.UNUSABLE
            try:
                signed = sign(plan, args.kind, args.name, args.role, catalog, date, args.key, args.principal, lang)
            except SignOffError as exc:
                print(str(exc), file=sys.stderr)
                return ExitStatus.UNUSABLE
            try:
                save_plan(signed, args.plan, expect=stamp)
            except FileChangedError:
                continue  # saved by someone who does not lock (the app): sign what is there now
            except OSError as exc:
                print(t("sign.cannot_write", lang, path=args.plan, error=exc.strerror or exc), file=sys.stderr)
                return ExitStatus.UNUSABLE
            break
    else:
        print(t("sign.keeps_changing", lang, path=args.plan), file=sys.stderr)
        return ExitStatus.UNUSABLE
    so = signed.signoffs[args.kind]
    print(t("sign.done", lang, kind=t(f"signoff.kind.{args.kind}", lang), name=args.name.strip(), digest=so.digest))
    status = signoff_status(signed, args.kind, catalog, lang=lang)
    print(status.message(signed, lang))
    return ExitStatus.OK

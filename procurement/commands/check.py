"""`gpu-procure check PLAN`: evaluate the rules and print the findings grouped by step, or as JSON."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import TextIO

from catalog.loader import Catalog
from procurement.coded import verbatim
from procurement.commands import add_catalog_option, catalog_for
from procurement.completeness import describe_missing
from procurement.evaluation import evaluate
from procurement.exit_status import ExitStatus
from procurement.findings import Finding, Severity
from procurement.messages import Lang, default_lang, languages, plural, register, t
from procurement.plan import PlanError, load_plan
from procurement.policy import PolicyError, load_policy
from procurement.signoff import allowed_signers_arg

EXIT_OK, EXIT_FINDINGS, EXIT_UNREADABLE, EXIT_INCOMPLETE = (
    ExitStatus.OK, ExitStatus.FAILED, ExitStatus.UNUSABLE, ExitStatus.INCOMPLETE)
FINDING_KEYS = ("rule", "family", "severity", "step", "fields", "message", "fix")


def findings_json(findings: list[Finding], figures: dict[str, dict[str, object]] | None = None) -> str:
    """A JSON list of objects with exactly the Finding keys (and ``waived``: reason, by, date, when waived)."""
    return json.dumps(
        [{**{k: v for k, v in f.model_dump(mode="json").items() if k in FINDING_KEYS},
          **({"waived": f.waived.model_dump(mode="json")} if f.waived is not None else {}),
          **({"figures": figures[f.rule]} if figures and f.rule in figures else {})}
         for f in findings],
        ensure_ascii=False,
        indent=2,
    )


def format_findings(findings: list[Finding], lang: Lang, gaps: dict[int, list[str]] | None = None,
                    facility: list[str] | None = None) -> str:
    """Human-readable findings grouped by step (1-5), errors first within a step, then the facility figures
    (``facility``: procurement.facility_summary), what the plan still lacks (``gaps``), then the counts."""
    missing = [format_incomplete(gaps, lang)] if gaps else []
    if facility:
        missing = [f"== {t('facility.title', lang)} ==", *(f"  {line}" for line in facility), *missing]
    if not findings:
        return "\n".join([*missing, t("check.none", lang)])
    lines: list[str] = []
    for step in range(1, 6):
        group = [f for f in findings if f.step == step]
        if not group:
            continue
        lines.append(f"== {step} {t(f'step.{step}', lang)} ==")
        for f in group:
            lines.append(f"  [{t(f'severity.{f.severity.value}', lang)}] {f.rule}: {f.message_text(lang)}")
            if fix := f.fix_text(lang):
                lines.append(f"      → {fix}")
            if f.fields:
                lines.append(f"      ({', '.join(f.fields)})")
    counts = {s: sum(1 for f in findings if f.severity == s) for s in Severity}
    lines += missing
    lines.append(
        t(
            "check.summary",
            lang,
            errors=counts[Severity.ERROR],
            warnings=counts[Severity.WARNING],
            infos=counts[Severity.INFO],
        )
    )
    return "\n".join(lines)


def add_arguments(c: argparse.ArgumentParser) -> None:
    c.add_argument("plan", type=Path)
    c.add_argument("--json", action="store_true", help="print findings as JSON")
    c.add_argument("--lang", choices=languages(), default=None)
    c.add_argument("--policy", type=Path, default=None, help="policy YAML overriding thresholds")
    c.add_argument("--allowed-signers", type=allowed_signers_arg, default=None, metavar="FILE",
                   help="ssh-keygen allowed-signers file to verify the sign-offs' SSH signatures against")
    add_catalog_option(c)


def run(args: argparse.Namespace) -> int:
    return run_check(args, catalog_for(args))


def format_incomplete(gaps: dict[int, list[str]], lang: Lang) -> str:
    """One line per step that still lacks a choice."""
    return "\n".join(
        t("check.incomplete", lang, step=step, name=t(f"step.{step}", lang), what=describe_missing(keys, lang))
        for step, keys in sorted(gaps.items())
    )


def run_check(
    args: argparse.Namespace, catalog: Catalog, out: TextIO | None = None, err: TextIO | None = None
) -> int:
    """0 nothing wrong and nothing missing; 1 an error finding; 2 the plan or policy cannot be read;
    3 no error, but the plan is incomplete (a step still lacks a choice) or a rule could not run."""
    out = out or sys.stdout
    err = err or sys.stderr
    lang: Lang = getattr(args, "lang", None) or default_lang()
    try:
        policy = load_policy(getattr(args, "policy", None))
    except PolicyError as exc:
        print(t("check.bad_policy", lang, error=exc), file=err)
        return EXIT_UNREADABLE
    try:
        plan = load_plan(args.plan, catalog, lang)
    except PlanError as exc:
        print(t("check.bad_plan", lang, error=exc), file=err)
        return EXIT_UNREADABLE
    evaluation = evaluate(plan, catalog, policy, lang)
    findings = list(evaluation.findings)
    from procurement.signoff import signoff_findings

    # Every sign-off that no longer holds is a finding of its own (SIGNOFF-*), with what changed in words.
    signoffs = [f.shown(lang) for f in signoff_findings(plan, catalog, getattr(args, "allowed_signers", None))]
    findings += signoffs
    from procurement.checklist import build_checklists, confirmation_findings

    # who vouched for an item the app could not decide: shown as a person's confirmation, never as a pass
    checklists = build_checklists(plan, catalog, evaluation.findings, policy, lang)
    findings += [f.shown(lang) for f in confirmation_findings(plan, checklists)]
    gaps = {step: list(keys) for step, keys in evaluation.incomplete.items()}
    as_json = getattr(args, "json", False)
    if as_json:  # the per-GPU memory breakdown, as one more finding-shaped record (docs/sizing.md)
        from procurement.rules.vram import per_gpu_record

        record = per_gpu_record(plan, catalog, policy)
        if record is not None:
            findings.append(record.shown(lang))
    figures: dict[str, dict[str, object]] = {}
    tco = evaluation.budgets.tco
    if as_json and tco is not None and plan.gpu.count:  # the cost of ownership, one more record, its figures as data
        from procurement.budgets.tco import describe_tco

        findings.append(Finding(rule="TCO-ESTIMATE", family="budget", severity=Severity.INFO, step=1,
                                fields=("tco", "requirements.utilisation_pct"),
                                coded_message=verbatim(t("tco.record", lang,
                                                         lines="; ".join(describe_tco(tco, lang))))))
        figures["TCO-ESTIMATE"] = tco.as_dict()
    from procurement.facility_summary import FACILITY_RECORD, facility_figures, facility_lines

    power = evaluation.budgets.power
    facility = facility_lines(power, lang) if power is not None else []
    if as_json and facility and power is not None:  # amps per cord, VA, BTU/h, the PDU: one more record, as data
        findings.append(Finding(rule=FACILITY_RECORD, family="power", severity=Severity.INFO, step=3,
                                fields=("server.psu.count", "server.input_voltage"),
                                coded_message=verbatim(" ".join(facility))))
        figures[FACILITY_RECORD] = facility_figures(power) or {}
    text = findings_json(findings, figures) if as_json else format_findings(findings, lang, gaps, facility)
    if gaps and as_json:  # the JSON on stdout stays a list of findings; say what is missing on stderr
        print(format_incomplete(gaps, lang), file=err)
    try:
        print(text, file=out)
        out.flush()
    except BrokenPipeError:  # `gpu-procure check … | head`: the reader left; no traceback
        if out is sys.stdout:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    if any(f.severity == Severity.ERROR for f in signoffs):  # a sign-off edited after signing
        return ExitStatus.FAILED
    return evaluation.exit_status()


register(
    {
        "check.none": "No findings.",
        "check.summary": plural(
            "{errors} error, {#warnings}, {infos} info.",
            "{errors} errors, {#warnings}, {infos} info.",
            "errors",
        ),
        "check.summary#warnings": plural("{warnings} warning", "{warnings} warnings", "warnings"),
        "check.bad_plan": "cannot read the plan:\n{error}",
        "check.bad_policy": "cannot read the policy:\n{error}",
        "check.incomplete": "incomplete: step {step} ({name}) still needs {what}.",
    }
)

"""`gpu-procure check PLAN`: evaluate the rules and print the findings grouped by step, or as JSON."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import TextIO

from catalog.loader import Catalog
from procurement.findings import Finding, Severity
from procurement.messages import Lang, default_lang, register, t
from procurement.plan import PlanError, load_plan
from procurement.policy import PolicyError, load_policy
from procurement.rules import evaluate

EXIT_OK, EXIT_FINDINGS, EXIT_UNREADABLE = 0, 1, 2
FINDING_KEYS = ("rule", "family", "severity", "step", "fields", "message", "fix")


def findings_json(findings: list[Finding]) -> str:
    """A JSON list of objects with exactly the Finding keys."""
    return json.dumps(
        [{k: v for k, v in f.model_dump(mode="json").items() if k in FINDING_KEYS} for f in findings],
        ensure_ascii=False,
        indent=2,
    )


def format_findings(findings: list[Finding], lang: Lang) -> str:
    """Human-readable findings grouped by step (1-5), errors first within a step."""
    if not findings:
        return t("check.none", lang)
    lines: list[str] = []
    for step in range(1, 6):
        group = [f for f in findings if f.step == step]
        if not group:
            continue
        lines.append(f"== {step} {t(f'step.{step}', lang)} ==")
        for f in group:
            lines.append(f"  [{t(f'severity.{f.severity.value}', lang)}] {f.rule}: {f.message}")
            if f.fix:
                lines.append(f"      → {f.fix}")
            if f.fields:
                lines.append(f"      ({', '.join(f.fields)})")
    counts = {s: sum(1 for f in findings if f.severity == s) for s in Severity}
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


def run_check(
    args: argparse.Namespace, catalog: Catalog, out: TextIO | None = None, err: TextIO | None = None
) -> int:
    """0: no error findings; 1: at least one error finding; 2: the plan or policy cannot be read."""
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
    findings = evaluate(plan, catalog, policy, lang)
    text = findings_json(findings) if getattr(args, "json", False) else format_findings(findings, lang)
    try:
        print(text, file=out)
        out.flush()
    except BrokenPipeError:  # `gpu-procure check … | head`: the reader left; no traceback
        if out is sys.stdout:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return EXIT_FINDINGS if any(f.severity == Severity.ERROR for f in findings) else EXIT_OK


register(
    {
        "check.none": {"zh": "未发现问题。", "en": "No findings."},
        "check.summary": {
            "zh": "共 {errors} 个错误、{warnings} 个警告、{infos} 个提示。",
            "en": "{errors} error(s), {warnings} warning(s), {infos} info.",
        },
        "check.bad_plan": {"zh": "无法读取方案：\n{error}", "en": "cannot read the plan:\n{error}"},
        "check.bad_policy": {"zh": "无法读取策略文件：\n{error}", "en": "cannot read the policy:\n{error}"},
    }
)

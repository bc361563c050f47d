"""Waivers: a finding accepted on purpose, with a reason, by whom and when, stored in the plan and honoured the
same way by the app and `gpu-procure check` (shown as waived, not hidden; the exit status ignores it)."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence

from procurement.coded import Coded, coded
from procurement.findings import Finding, Severity, Waived
from procurement.messages import Lang, languages, register, t
from procurement.plan import Plan, Waiver

register(
    {
        "waiver.stale_gone": "stale waiver: {rule} no longer fires (waived by {by}, {date})",
        "waiver.stale_numbers": (
            "stale waiver: {rule} now fires with other numbers (waived at {old}, now {new}); not waived"
        ),
        "waiver.stale_fix": "review it, then waive it again or remove the waiver",
        "waiver.no_reason": "a waiver needs a reason and who waives it",
    }
)

_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


def finding_numbers(finding: Finding, lang: Lang) -> list[str]:
    """The numbers a finding's message states in ``lang``, sorted (what a format-5 waiver, or one of a finding
    without parameters, stored: the numbers of the message as it was shown to the person who waived it)."""
    return sorted(n.replace(",", "") for n in _NUMBER.findall(finding.message_text(lang)))


def _numbers_changed(waived_at: list[str], finding: Finding) -> tuple[str, str]:
    """('100 2022 40', '100 2022 80') when a waiver that stored its message's numbers no longer holds, else
    ('', ''). The numbers were read from the message in the language it was shown in, which the waiver does not
    record: it holds when they are the numbers of the message in any language ('Oct 2022' in English is
    '2022 年 10 月' in Chinese), so the decision is the same whichever language the reader uses. When it does
    not hold, 'now' is the message's numbers in the language closest to what was stored."""
    if not waived_at:
        return "", ""
    shown = [finding_numbers(finding, lang) for lang in ("zh", *(x for x in languages() if x != "zh"))]
    if waived_at in shown:
        return "", ""
    now = min(shown, key=lambda numbers: len(set(numbers) ^ set(waived_at)))  # the first of equals: Chinese
    return " ".join(waived_at), " ".join(now)


def finding_params(finding: Finding) -> dict[str, str]:
    """The numbers in each parameter of a finding ('draw' -> '3200'): what the message was made from, the same in
    both languages and in any word order, and a number moving from one parameter to another is a change."""
    out = {}
    for name, value in finding.params:
        numbers = _NUMBER.findall(value)
        if numbers:
            out[name] = " ".join(sorted(n.replace(",", "") for n in numbers))  # word order differs by language
    return out


def _changed(waived_at: dict[str, str], now: dict[str, str]) -> tuple[str, str]:
    """('draw=3200', 'draw=4100'): only the parameters that differ."""
    keys = sorted(k for k in {*waived_at, *now} if waived_at.get(k) != now.get(k))
    return (", ".join(f"{k}={waived_at.get(k, '—')}" for k in keys), ", ".join(f"{k}={now.get(k, '—')}" for k in keys))


def waive(plan: Plan, finding: Finding, reason: str, by: str, date: dt.date | None = None,
          lang: Lang = "zh") -> Plan:
    """A new Plan with ``finding`` waived (replacing an earlier waiver of the same rule)."""
    if not reason.strip() or not by.strip():
        raise ValueError(t("waiver.no_reason", lang))
    params = finding_params(finding)
    waiver = Waiver(rule=finding.rule, reason=reason.strip(), by=by.strip(), date=date or dt.date.today(),
                    params=params, numbers=[] if finding.params else finding_numbers(finding, lang))
    return plan.model_copy(update={"waivers": [*(w for w in plan.waivers if w.rule != finding.rule), waiver]})


def unwaive(plan: Plan, rule: str) -> Plan:
    return plan.model_copy(update={"waivers": [w for w in plan.waivers if w.rule != rule]})


def apply_waivers(plan: Plan, findings: Sequence[Finding]) -> list[Finding]:
    """``findings`` with the plan's waivers applied: a waived finding keeps its place and severity, says it is
    waived and carries ``waived``; a waiver whose finding no longer fires, or fires with other numbers, adds a
    WAIVER-STALE warning (and the finding stays unwaived). No language is involved: the decision is the same
    for every reader."""
    if not plan.waivers:
        return list(findings)
    by_rule = {w.rule: w for w in plan.waivers}
    fired: set[str] = set()
    out: list[Finding] = []
    stale: list[Finding] = []
    for f in findings:
        w = by_rule.get(f.rule)
        if w is None:
            out.append(f)
            continue
        fired.add(f.rule)
        if w.params or (f.params and not w.numbers):
            old, new = _changed(w.params, finding_params(f))
        else:  # a format-5 waiver, or a finding made without parameters: the message's numbers
            old, new = _numbers_changed(w.numbers, f)
        if old or new:
            out.append(f)
            stale.append(_stale(coded("waiver.stale_numbers", rule=f.rule, old=old, new=new), f.step, f.fields))
            continue
        # the message says it is waived (Finding.message_text)
        out.append(f.model_copy(update={"waived": Waived(reason=w.reason, by=w.by, date=w.date.isoformat())}))
    for w in plan.waivers:
        if w.rule not in fired:
            stale.append(_stale(coded("waiver.stale_gone", rule=w.rule, by=w.by, date=w.date.isoformat()), 5, ()))
    return out + stale


def _stale(message: Coded, step: int, fields: tuple[str, ...]) -> Finding:
    return Finding(rule="WAIVER-STALE", family="waiver", severity=Severity.WARNING, step=step,
                   fields=(*fields, "waivers"), coded_message=message, coded_fix=coded("waiver.stale_fix"))


def counts_against(finding: Finding) -> bool:
    """Whether a finding counts for an exit status or a step's mark (a waived one does not)."""
    return finding.waived is None and finding.severity != Severity.INFO

"""A Finding: one problem or hint the rules report about a plan, stored as message codes with parameters and
rendered in the reader's language only when shown (``message_text(lang)``, ``fix_text(lang)``)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, computed_field

from catalog.compat import StrEnum
from procurement.coded import Coded, render_text, render_value, verbatim
from procurement.messages import Lang, register, t
from procurement.terminal import prose
from procurement.verification_report import VerificationReport


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


VERDICTS_WORST_FIRST: tuple[str, ...] = ("fail", "unknown", "warn", "pass", "skip")
"""The one order of verdicts, worst first, for everything that keeps the worse of two: verify's checks and
reports, a GPU's mark on step 5, a checklist item (attention = warn), a step's mark. Unknown is worse than a
warning: a warning is a decided pass with a caveat, an unknown may hide a failure."""
_VERDICT_RANK = {v: len(VERDICTS_WORST_FIRST) - i for i, v in enumerate(VERDICTS_WORST_FIRST)}


def verdict_rank(verdict: str) -> int:
    """Higher is worse (an unrecognised verdict ranks with 'skip')."""
    return _VERDICT_RANK.get(verdict, _VERDICT_RANK["skip"])


def worst_verdict(verdicts: Iterable[str], default: str = "skip") -> str:
    """The worst of ``verdicts`` in the one order; ``default`` when there are none."""
    return max(verdicts, key=verdict_rank, default=default)


SEVERITY_OF_VERDICT: dict[str, Severity] = {"fail": Severity.ERROR, "unknown": Severity.WARNING,
                                            "warn": Severity.WARNING, "pass": Severity.INFO}
"""A verdict as a finding's severity (step 5's mark from verification reports)."""
SEVERITY_ORDER = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.INFO: 2}
"""Sort key of findings, worst first: the severities in the order of the verdicts they stand for."""

Family = Literal["power", "cooling", "pcie", "balance", "software", "budget", "vram", "licensing", "signoff", "waiver",
                 "checklist"]


class Waived(BaseModel):
    """Who accepted a finding on purpose, when and why (procurement.waivers)."""

    model_config = ConfigDict(defer_build=True, frozen=True, extra="forbid")

    reason: str
    by: str
    date: str


class Finding(BaseModel):
    """Rule id (stable, e.g. POWER-PSU-CAPACITY), where it points in the plan, and what to do.

    The message and the fix are stored as codes with parameters (``coded_message``, ``coded_fix``) and
    rendered when shown: ``message_text(lang)`` / ``fix_text(lang)``. ``message`` and ``fix`` are the texts
    in ``shown_in``, the language the finding's serialised form (``model_dump``, ``check --json``) is in."""

    model_config = ConfigDict(defer_build=True, frozen=True, extra="forbid")

    rule: str = Field(pattern=r"^[A-Z0-9]+(-[A-Z0-9]+)+$")
    family: Family
    severity: Severity
    step: int = Field(ge=1, le=5)
    fields: tuple[str, ...] = ()
    """Paths in the plan ('server.psu.count') so the GUI can point at them."""
    coded_message: Coded = Field(exclude=True)
    coded_fix: Coded | None = Field(default=None, exclude=True)
    stated_params: tuple[tuple[str, str], ...] | None = Field(default=None, exclude=True)
    """``params`` given outright (a finding made from a text); None: they are the message's parameters."""
    waived: Waived | None = Field(default=None, exclude=True)
    """Set when the plan waives this finding: shown as waived, not hidden; exit statuses ignore it. Left out of
    model_dump (findings_json adds it where set), so findings of plans without waivers serialise as before."""
    shown_in: Lang = Field(default="zh", exclude=True)
    """The language ``message``/``fix`` and the serialised form show; ``shown(lang)`` is the same finding in
    another. Every place that shows findings passes its own language to message_text/fix_text instead."""

    def __hash__(self) -> int:
        # equal findings hash alike (the GUI counts equal findings once); the coded texts hold dicts
        return hash((self.rule, self.severity, self.step, self.fields, self.stated_params, self.coded_message.code))

    @property
    def params(self) -> tuple[tuple[str, str], ...]:
        """The values the message was made from (name, value as printed), in the same form in every language: a
        waiver compares them to tell whether the finding still fires with the numbers it was waived at. Derived
        from the message's parameters when asked (only waivers ask), so evaluating renders nothing. Left out of
        model_dump, like ``waived``."""
        if self.stated_params is not None:
            return self.stated_params
        if self.coded_message.code.startswith("coded."):  # a text, not a message with parameters
            return ()
        return finding_params(self.coded_message.params)

    def message_text(self, lang: Lang) -> str:
        """The message in ``lang`` (a waived finding says so, with the reason, who and when)."""
        text = render_text(self.coded_message, lang)
        w = self.waived
        if w is not None:
            text = text.rstrip() + t("waiver.shown", lang, reason=prose(w.reason), by=prose(w.by), date=w.date)
        return text

    def fix_text(self, lang: Lang) -> str:
        """What to do, in ``lang`` ('' when the rule gives no fix)."""
        return render_text(self.coded_fix, lang) if self.coded_fix is not None else ""

    @computed_field  # type: ignore[prop-decorator]
    @property
    def message(self) -> str:
        """The message in ``shown_in``."""
        return self.message_text(self.shown_in)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def fix(self) -> str:
        """The fix in ``shown_in``."""
        return self.fix_text(self.shown_in)

    @classmethod
    def of_text(cls, message: str, fix: str = "", **fields: Any) -> Finding:
        """A finding whose message (and fix) is a text the same in every language: one made for one reader,
        or in a test. (No validator turns ``message=`` into a code: it would double the cost of every
        finding the rules make.)"""
        return cls(coded_message=verbatim(message), coded_fix=verbatim(fix) if fix else None, **fields)

    def shown(self, lang: Lang) -> Finding:
        """This finding, its serialised form and ``message``/``fix`` in ``lang``."""
        return self if lang == self.shown_in else self.model_copy(update={"shown_in": lang})


PROSE_PARAMS = frozenset({"note"})
"""Message parameters that carry prose in the reader's language (a catalog note): not a finding's parameters,
whose numbers must read the same in every language (tests/procurement/test_waivers.py checks every example)."""

PARAMS_LANG: Lang = "zh"
"""The language a coded parameter is printed in for ``Finding.params``: the app's first language, in which the
findings were made when waivers stored their numbers (those numbers read the same in every language)."""


def finding_params(kw: Mapping[str, object]) -> tuple[tuple[str, str], ...]:
    """A message's parameters as (name, text) pairs, sorted: what a waiver compares (procurement.waivers)."""
    return tuple(sorted((k, str(render_value(v, PARAMS_LANG) if isinstance(v, Coded) else v)) for k, v in kw.items()
                        if v is not None and k not in PROSE_PARAMS))


register(
    {
        "waiver.shown": " (waived: {reason} — {by}, {date})",
    }
)


def verification_severity(reports: Sequence[VerificationReport]) -> tuple[Severity | None, int]:
    """How bad the attached verification reports are (for step 5's mark): the worst verdict of their checks as
    a severity (an unknown check counts as a warning: it is not a pass) and the number of failed checks. A
    report whose probing failed (``error`` set) counts as an error, and one whose every check was skipped
    verified nothing: unknown (its own overall()), never a pass."""
    verdicts: list[str] = []
    failed = 0
    for report in reports:
        failed += sum(check.status == "fail" for check in report.checks)
        verdicts.append("fail" if report.error else report.overall())
    worst = worst_verdict(verdicts)
    return SEVERITY_OF_VERDICT.get(worst) if worst not in ("pass", "skip") else None, failed

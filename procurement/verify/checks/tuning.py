"""The handover's host tuning and MIG layout, judged on the node: TUNE-* (host_tuning.check_host) and MIG-LAYOUT.

The verdicts are host_tuning's and mig's own; this module only places them in the report. A freshly delivered
host has not been tuned yet (the handover's host-tuning.sh and mig-create.sh run after delivery), so before the
setup a mismatch is a `warn` saying so; `verify --after-setup` / `judge --after-setup` make it a `fail`. What
could not be read stays `unknown` either way, and what the plan keeps as the system has it is `skip`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from procurement.coded import Coded, clauses, coded, render_value
from procurement.host_tuning import check_host
from procurement.messages import register, t
from procurement.mig import MigReadError, check_instances, parse_instances, plan_mig
from procurement.verify.checks.registry import Ctx, check
from procurement.verify.report import CheckStatus, make_check

register({
    "verify.tune.no_plan": "No plan to compare with: the host's tuning is the plan's choice",
    "verify.tune.before_setup": (
        "{text} (not tuned yet: expected before the handover's setup has run; `--after-setup` fails it)"
    ),
    "verify.tune.several": "{items}",
    "verify.mig_layout.no_plan": "No plan to compare with: the MIG instances are not judged",
    "verify.mig_layout.not_read": "The plan has no MIG layout; the MIG instances were not read",
    "verify.mig_layout.not_judged": "The plan has no MIG layout and the MIG instances could not be read: {why}",
    "verify.mig_layout.plan_problem": "The plan's MIG layout cannot be checked: {problem}",
})

_WORST: tuple[CheckStatus, ...] = ("fail", "unknown", "warn", "pass", "skip")


def _record(c: Ctx, check_id: str, status: CheckStatus, code: str, params: dict[str, object]) -> None:
    text = t(code, c.lang, **{k: render_value(v, c.lang) for k, v in params.items()})
    c.checks.append(make_check(check_id, status, text, None, None, code, params, c.lang))


def _place(c: Ctx, check_id: str, results: Sequence[tuple[str, str, dict[str, object]]]) -> None:
    """One record for ``check_id`` from the (status, code, params) the core returned for it: the worst status,
    every message; a mismatch before the setup is a warning that says so."""
    if not results:
        return
    before = not c.facts.after_setup
    parts: list[tuple[CheckStatus, Coded]] = []
    for status, code, params in results:
        judged: CheckStatus = next((s for s in _WORST if s == status), "unknown")
        message = coded(code, **params)
        if judged == "fail" and before:
            judged, message = "warn", coded("verify.tune.before_setup", text=message)
        parts.append((judged, message))
    worst = min((s for s, _ in parts), key=_WORST.index)
    if len(parts) == 1:
        _record(c, check_id, worst, parts[0][1].code, dict(parts[0][1].params))
    else:
        _record(c, check_id, worst, "verify.tune.several", {"items": clauses(m for _, m in parts)})


def _tuning(c: Ctx, check_id: str) -> None:
    if c.plan is None:
        _record(c, check_id, "skip", "verify.tune.no_plan", {})
        return
    ecc = [g.ecc_enabled for g in c.gpus] if c.facts.smi is not None else None
    clocks = [(g.app_clock_memory_mhz, g.app_clock_graphics_mhz) for g in c.gpus] if c.facts.smi is not None else None
    results = check_host(c.plan, c.facts.files, c.lang, ecc, clocks)
    _place(c, check_id, [(r.status, r.code, dict(r.params)) for r in results if r.id == check_id])


_TUNING_CHECKS: tuple[tuple[str, str], ...] = (
    ("TUNE-GOVERNOR", "host"), ("TUNE-SWAP", "host"), ("TUNE-HUGEPAGES", "host"), ("TUNE-THP", "host"),
    ("TUNE-DATA-MOUNT", "host"), ("TUNE-NOFILE", "host"), ("TUNE-ECC", "gpu"), ("TUNE-CLOCKS", "gpu"),
)
"""(check id, family) of each result host_tuning.check_host returns, in its order: one record each in the
report, each id registered once by the loop below."""
TUNING_IDS = tuple(check_id for check_id, _ in _TUNING_CHECKS)
"""The ids host_tuning.check_host returns, in its order (one record each in the report)."""


def _tuning_check(check_id: str) -> Callable[[Ctx], None]:
    def judge(c: Ctx) -> None:
        _tuning(c, check_id)

    judge.__name__ = judge.__qualname__ = "_" + check_id.lower().replace("-", "_")
    return judge


for _id, _family in _TUNING_CHECKS:
    check(_id, _family)(_tuning_check(_id))


def mig_listing(c: Ctx) -> str | None:
    """The MIG instances as nvidia-smi listed them: `mig -lgi` where it could be read, else `-L` (which needs no
    root); the first output there is when neither is a listing (its text says why); None when neither ran."""
    texts = [r.stdout for r in (c.facts.mig_lgi, c.facts.gpu_list) if r is not None and r.stdout.strip()]
    for text in texts:
        try:
            parse_instances(text)
        except MigReadError:
            continue
        return text
    return texts[0] if texts else None


@check("MIG-LAYOUT", "gpu")
def _mig_layout(c: Ctx) -> None:
    if c.plan is None:
        _record(c, "MIG-LAYOUT", "skip", "verify.mig_layout.no_plan", {})
        return
    mig, problems = plan_mig(c.plan, c.lang)
    if problems:
        _record(c, "MIG-LAYOUT", "unknown", "verify.mig_layout.plan_problem", {"problem": problems[0]})
        return
    ran = c.facts.mig_lgi is not None or c.facts.gpu_list is not None
    if mig is None and not ran:
        _record(c, "MIG-LAYOUT", "skip", "verify.mig_layout.not_read", {})
        return
    results = check_instances(mig, mig_listing(c), c.lang)
    if mig is None and any(r.status == "unknown" for r in results):
        # nothing planned and nothing readable: the MIG check judges the mode from nvidia-smi -q
        _record(c, "MIG-LAYOUT", "skip", "verify.mig_layout.not_judged", {"why": results[0].params.get("why", "")})
        return
    _place(c, "MIG-LAYOUT", [(r.status, r.code, dict(r.params)) for r in results])


__all__ = ["TUNING_IDS", "mig_listing"]

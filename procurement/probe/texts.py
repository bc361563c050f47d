"""Chinese and English text of the judge, probe-bundle and handover commands."""

from __future__ import annotations

from procurement.messages import plural, register

register(
    {
        "probe.judge.read_error": "Cannot read: {error}",
        "probe.judge.no_input": "No raw facts or reports to judge in {paths}",
        "probe.judge.written": "Report written to {path}",
        "probe.judge.pdf_written": "Cluster acceptance report written to {path}",
        "probe.judge.pdf_needs_plan": "--pdf needs --plan: an acceptance report is checked against a plan",
        "probe.judge.bad_nodes": "--nodes cannot be read: {error}",
        "probe.judge.missing": plural(
            "No report yet from {n} node: {nodes}",
            "No report yet from {n} nodes: {nodes}",
            "n",
        ),
        "probe.judge.nodes_written": "{n} node reports written to {path}",
        "probe.judge.other_plan": (
            "{path}: judged against another plan (digest {got}…, this plan {want}…): judge its raw facts against "
            "this plan, or pass --any-plan to read it as it was judged"
        ),
        "probe.judge.no_digest": (
            "{path}: the report names no plan it was judged against: judge its raw facts against this plan, or "
            "pass --any-plan to read it as it was judged"
        ),
        "probe.judge.contradiction": (
            "{path}: its {check} check says pass, but its own GPU list says otherwise ({why}): the report was "
            "edited or made for other hardware; judge the node's raw facts"
        ),
        "probe.judge.why_count": plural(
            "{n} GPU listed, the plan buys {want} per server", "{n} GPUs listed, the plan buys {want} per server", "n"
        ),
        "probe.judge.why_model": "{gpus} listed, the plan buys {want}",
        "probe.judge.why_uuid": "GPU {uuids} listed more than once",
        "probe.judge.stale": (
            "{path}: collected at {collected}, before this run began ({since}): a file an earlier run left on the "
            "node, not this run's facts"
        ),
        "probe.judge.no_time": (
            "{path}: its collection time '{collected}' is not a time (ISO 8601): whether these are this run's facts "
            "cannot be told"
        ),
        "probe.judge.future": (
            "{path}: collected at {collected}, later than now ({now}) by more than the clock skew allowed: the node's "
            "clock is wrong or the file was edited; these cannot be taken as this run's facts"
        ),
        "probe.judge.bad_since": "--since {value}: not a time (ISO 8601, or YYYYmmdd-HHMMSS as date prints it)",
        "probe.handover.written": "Handover files for {n} accepted nodes written to {path}",
        "probe.handover.none": "No node passed acceptance: no monitoring or setup files written",
        "probe.handover.slowdown_unknown": (
            "No slowdown-temperature alert for these nodes (their reports hold no slowdown threshold): {nodes}"
        ),
        "probe.handover.rejected": "Not accepted, left out of the handover:{nodes}",
    }
)

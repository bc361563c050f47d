"""A cluster's acceptance in progress: which planned nodes reported, passed, failed, are unknown or missing,
and the exact commands that collect the missing ones (the probe on every node, then the judge here)."""

from __future__ import annotations

import ipaddress
import re
import shlex
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import Literal

from catalog.loader import Catalog
from catalog.models import ContainerImage
from procurement.messages import Lang, register, t
from procurement.plan import Plan
from procurement.verify.merge import node_name
from procurement.verify.report import CheckRecord, VerificationReport

register(
    {
        "probe.cmd.on_target": "on the target machine, in the folder holding {probe}:",
        "probe.cmd.then_import": "then import that .json file on this computer (or: {judge})",
    }
)

NodeState = Literal["pass", "fail", "warn", "unknown", "missing"]
STATES: tuple[NodeState, ...] = ("pass", "fail", "warn", "unknown", "missing")

MAX_NAMES = 100_000
"""More node names than any cluster has: a range like node[1-999999999] is refused, not expanded."""


class HostlistError(ValueError):
    """A node list that cannot be read (unbalanced bracket, a range running backwards, too many names)."""


_GROUP = re.compile(r"\[([^\[\]]*)\]")


def _split_outside_brackets(text: str) -> list[str]:
    """'a[1,2],b c' -> ['a[1,2]', 'b', 'c']: commas and spaces separate names except inside brackets."""
    items: list[str] = []
    depth = 0
    cur: list[str] = []
    for ch in text:
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
            if depth < 0:
                raise HostlistError(f"unbalanced ']' in {text!r}")
        if depth == 0 and (ch == "," or ch.isspace()):
            if cur:
                items.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    if depth:
        raise HostlistError(f"unbalanced '[' in {text!r}")
    if cur:
        items.append("".join(cur))
    return items


def _range_values(spec: str, item: str) -> list[str]:
    out: list[str] = []
    for part in spec.split(","):
        part = part.strip()
        m = re.fullmatch(r"(\d+)(?:-(\d+))?", part)
        if not m:
            raise HostlistError(f"{item!r}: {part!r} is not a number or a range like 01-16")
        lo, hi = m.group(1), m.group(2) or m.group(1)
        if int(hi) < int(lo):
            raise HostlistError(f"{item!r}: the range {part!r} runs backwards")
        if int(hi) - int(lo) >= MAX_NAMES:
            raise HostlistError(f"{item!r}: more than {MAX_NAMES:,} names")
        width = len(lo) if lo.startswith("0") else 0  # gpu[01-16] keeps the zero padding
        out.extend(str(i).zfill(width) for i in range(int(lo), int(hi) + 1))
    return out


def expand_hostlist(text: str) -> list[str]:
    """Node names from the notation pdsh, clush and Slurm take: 'gpu[01-16]', 'rack[1-2]-n[1,3]',
    'a,b c' (commas or spaces). Order kept, duplicates dropped; HostlistError names what is wrong."""
    names: dict[str, None] = {}
    for item in _split_outside_brackets(text.strip()):
        expanded = [item]
        while any(_GROUP.search(x) for x in expanded):
            nxt: list[str] = []
            for x in expanded:
                m = _GROUP.search(x)
                if m is None:
                    nxt.append(x)
                    continue
                for value in _range_values(m.group(1), item):
                    nxt.append(x[:m.start()] + value + x[m.end():])
                    if len(nxt) > MAX_NAMES:
                        raise HostlistError(f"{item!r}: more than {MAX_NAMES:,} names")
            expanded = nxt
        for name in expanded:
            if "[" in name or "]" in name:
                raise HostlistError(f"{item!r}: unbalanced bracket")
            names[name] = None
            if len(names) > MAX_NAMES:
                raise HostlistError(f"more than {MAX_NAMES:,} names")
    return list(names)


def short_name(host: str) -> str:
    """'gpu01.cluster.local' -> 'gpu01' (what `hostname -s` prints), lower case for comparing; an IP address
    stays whole ('10.0.0.11' was cut to '10', so every node addressed by IP was one node, reported and missing)."""
    low = host.strip().lower()
    try:
        ipaddress.ip_address(low.strip("[]"))
    except ValueError:
        return low.split(".", 1)[0]
    return low


def _copied_from(source: str) -> str:
    """The address a report was copied from: rpdcp and `clush --rcopy` name the copy FILE.json.HOST."""
    _stem, dot, host = PurePath(source).name.rpartition(".json.")
    return host if dot else ""


@dataclass
class NodeProgress:
    """One planned or reported node."""

    name: str
    state: NodeState
    report: VerificationReport | None = None
    source: str = ""
    problems: list[CheckRecord] = field(default_factory=list)
    """The node's checks that failed or could not be judged (unknown), in report order."""


@dataclass
class ClusterProgress:
    """How far the acceptance of the planned nodes has come."""

    expected: int
    """Nodes the plan buys (requirements.nodes)."""
    nodes: list[NodeProgress]
    """The reported nodes in the order given, then the named nodes that have not reported."""
    named: bool
    """True when the node names were given (then missing nodes are named, not only counted)."""
    unexpected: list[str] = field(default_factory=list)
    """Reported nodes that are not among the names given."""

    def count(self, state: NodeState) -> int:
        return sum(1 for n in self.nodes if n.state == state)

    @property
    def received(self) -> int:
        return sum(1 for n in self.nodes if n.report is not None)

    @property
    def missing(self) -> int:
        """Planned nodes without a report: the named ones that did not report, and at least as many as the
        plan buys beyond the reports received (a list shorter than the plan does not shrink the plan)."""
        return max(self.count("missing"), self.expected - self.received, 0)

    @property
    def missing_names(self) -> list[str]:
        return [n.name for n in self.nodes if n.state == "missing"]

    def complete(self) -> bool:
        """Every planned node reported and passed (warnings allowed); unknown is never a pass."""
        return (self.missing == 0 and self.received >= self.expected and self.received > 0
                and all(n.state in ("pass", "warn") for n in self.nodes))


def node_state(report: VerificationReport) -> NodeState:
    """fail > unknown > warn > pass, as the report's own verdict (a node that could not probe is unknown)."""
    return report.overall()  # type: ignore[return-value]  # 'skip' never comes out of overall()


def cluster_progress(reports: Sequence[VerificationReport], plan: Plan, names: Sequence[str] = (),
                     sources: Sequence[str] | None = None) -> ClusterProgress:
    """Each report's node with its state and problems, then every named node that has not reported."""
    srcs = list(sources) if sources is not None else ["" for _ in reports]
    wanted = {short_name(n): n for n in names}
    seen: set[str] = set()
    nodes: list[NodeProgress] = []
    unexpected: list[str] = []
    for report, src in zip(reports, srcs, strict=True):
        name = node_name(report, src)
        problems = [c for c in report.checks if c.status in ("fail", "unknown")]
        nodes.append(NodeProgress(name, node_state(report), report, src, problems))
        # the node's own name, and the address it was reached at (a node list of IP addresses)
        keys = {short_name(name)} | ({short_name(via)} if (via := _copied_from(src)) else set())
        if wanted and not keys & wanted.keys():
            unexpected.append(name)
        seen |= keys
    nodes.extend(NodeProgress(n, "missing") for key, n in wanted.items() if key not in seen)
    return ClusterProgress(plan.requirements.nodes, nodes, bool(wanted), unexpected)


# ---------------------------------------------------------------- the commands to run

Method = Literal["one", "clush", "pdsh"]
METHODS: tuple[Method, ...] = ("one", "clush", "pdsh")
PROBE = "gpu-procure-probe.pyz"
NODES_PLACEHOLDER = "NODES"


def _q(text: str) -> str:
    return shlex.quote(text)


def _dq(text: str) -> str:
    """``text`` safe inside double quotes: the local shell expands nothing of it (a catalog's image reference
    with `$(...)` or a backtick stays text); the remote shell reads the single-quoted words inside."""
    return "".join("\\" + ch if ch in '\\"$`' else ch for ch in text)


def probe_args(plan: Plan, catalog: Catalog) -> list[str]:
    """What the probe needs to know from the plan (it has none): the container image to look for, as
    `verify` passes it (procurement.verify.probe)."""
    image = catalog.typed(ContainerImage, plan.software.image) if plan.software.image else None
    return ["--image", image.reference] if image is not None and image.reference else []


def target_commands(method: Method, plan: Plan, catalog: Catalog, plan_path: str | PurePath | None, *,
                    lang: Lang = "zh", nodes: str = "",
                    probe_dir: str | PurePath | None = None, reports_dir: str = "reports",
                    after_setup: bool = False) -> str:
    """The shell lines to copy: run the probe on the target(s), bring the JSON back, judge it here.

    ``plan_path`` is the plan file on this computer (the judge line names it; None: not saved yet, the line
    says PLAN); ``nodes`` is the node list as pdsh/clush take it; ``probe_dir`` where the probe was saved;
    ``after_setup``: the judge line judges as of tuned hosts (`--after-setup`: TUNE-*, MIG-LAYOUT fail).
    """
    probe = str(PurePath(probe_dir) / PROBE) if probe_dir is not None else PROBE
    plan_arg = _q(str(plan_path)) if plan_path is not None else "PLAN.gpuplan"
    extra = " ".join(_q(a) for a in probe_args(plan, catalog))
    extra = f" {extra}" if extra else ""
    w = _q(nodes.strip()) if nodes.strip() else NODES_PLACEHOLDER
    # RUN names this run's files: a file an earlier run left on a node is never brought back as this run's facts
    # (the same lines as docs/probe.md, run on real pdsh and clush by tests/deploy/test_pdsh_clush.py)
    run = 'RUN=$(date +%Y%m%d-%H%M%S)'
    remote = "/tmp/gpu-procure-$RUN.json"
    out = f"{_q(reports_dir.rstrip('/'))}-$RUN/"
    setup = " --after-setup" if after_setup else ""
    # --since: raw facts collected before this run began are refused, whatever their name
    judge = f'gpu-procure judge {out} --since "$RUN" --plan {plan_arg}{setup} --json cluster.json --pdf cluster.pdf'
    probe_line = f'"{_dq(f"python3 /tmp/{PROBE} -q{extra} -o ")}{remote}"'

    if method == "one":
        return "\n".join([
            "# " + t("probe.cmd.on_target", lang, probe=PROBE),
            f'python3 {PROBE} -q{extra} -o "$(hostname -s).json"',
            "# " + t("probe.cmd.then_import", lang, judge=f"gpu-procure judge FILE.json --plan {plan_arg}{setup}"),
        ])
    if method == "clush":  # -S: exit with the worst node's status, so a node whose probe failed is not passed
        return "\n".join([
            f"export {run}",
            f"clush -S -w {w} --copy {_q(probe)} --dest /tmp/",
            f"clush -S -w {w} {probe_line}",
            f"mkdir -p {out} && clush -S -w {w} --rcopy {remote} --dest {out}",
            judge,
        ])
    # Debian's and Ubuntu's pdsh default to rsh: ssh is asked for
    return "\n".join([
        f"export PDSH_RCMD_TYPE=ssh {run}",
        f"pdcp -w {w} {_q(probe)} /tmp/",
        f"pdsh -S -w {w} {probe_line}",
        f"mkdir -p {out} && rpdcp -w {w} {remote} {out}",
        judge,
    ])


__all__ = [
    "METHODS",
    "STATES",
    "ClusterProgress",
    "HostlistError",
    "NodeProgress",
    "cluster_progress",
    "expand_hostlist",
    "probe_args",
    "short_name",
    "target_commands",
]

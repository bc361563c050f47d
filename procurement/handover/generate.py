"""Builds the handover files from the plan and the accepted nodes' reports (pure: text in, text out).

What each file holds and where its numbers come from is in docs/handover.md: the power limit is the planned
per-GPU power (the catalog TDP the plan's power and cooling budgets use), the temperature alert is the
policy's `gpu_temp_alert_c`, the slowdown alert is each GPU's own threshold from `nvidia-smi -q -x`, and the
metric names are those of NVIDIA's dcgm-exporter.
"""

from __future__ import annotations

import math
import re
import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import yaml

from catalog.loader import Catalog
from catalog.models import Gpu
from procurement.plan import Plan, canonical_digest
from procurement.policy import Policy
from procurement.terminal import one_line
from procurement.verify.checks import repeated_uuids
from procurement.verify.merge import gpu_ids, node_key, repeated_machines, shared_gpu_ids
from procurement.verify.report import VerificationReport

DCGM_EXPORTER_IMAGE = "nvcr.io/nvidia/k8s/dcgm-exporter:4.2.3-4.1.3-ubuntu22.04"
"""The image and tag of dcgm-exporter's own quick start (NVIDIA/dcgm-exporter README; docs/handover.md)."""
DCGM_PORT = 9400
"""dcgm-exporter's default listen port (same source)."""
NODE_EXPORTER_PORT = 9100
"""prometheus-node-exporter's default port (Prometheus' default port allocations; docs/handover.md)."""
DCGM_JOB, NODE_JOB = "gpu-procure-dcgm", "gpu-procure-node"

# The dcgm-exporter fields the alert rules read (names as in its etc/default-counters.csv; the ECC and
# throttle fields are commented out there, so the handover ships its own list).
DCGM_COUNTERS: tuple[tuple[str, str, str], ...] = (
    ("DCGM_FI_DEV_GPU_TEMP", "gauge", "GPU temperature (in C)."),
    ("DCGM_FI_DEV_MEMORY_TEMP", "gauge", "Memory temperature (in C)."),
    ("DCGM_FI_DEV_POWER_USAGE", "gauge", "Power draw (in W)."),
    ("DCGM_FI_DEV_SM_CLOCK", "gauge", "SM clock frequency (in MHz)."),
    ("DCGM_FI_DEV_GPU_UTIL", "gauge", "GPU utilization (in %)."),
    ("DCGM_FI_DEV_FB_USED", "gauge", "Framebuffer memory used (in MiB)."),
    ("DCGM_FI_DEV_CLOCK_THROTTLE_REASONS", "gauge", "Current clock throttle reasons (bitmask)."),
    ("DCGM_FI_DEV_XID_ERRORS", "gauge", "Value of the last XID error encountered."),
    ("DCGM_FI_DEV_ECC_SBE_VOL_TOTAL", "counter", "Total number of single-bit volatile ECC errors."),
    ("DCGM_FI_DEV_ECC_DBE_VOL_TOTAL", "counter", "Total number of double-bit volatile ECC errors."),
    ("DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS", "counter", "Number of remapped rows for uncorrectable errors"),
    ("DCGM_FI_DEV_CORRECTABLE_REMAPPED_ROWS", "counter", "Number of remapped rows for correctable errors"),
    ("DCGM_FI_DEV_ROW_REMAP_FAILURE", "gauge", "Whether remapping of rows has failed"),
    ("DCGM_FI_DEV_PCIE_REPLAY_COUNTER", "counter", "Total number of PCIe retries."),
)

NOT_DEFAULT_COUNTERS = ("DCGM_FI_DEV_ECC_DBE_VOL_TOTAL", "DCGM_FI_DEV_CLOCK_THROTTLE_REASONS")
"""Fields the alert rules read that dcgm-exporter's etc/default-counters.csv does not export (the ECC ones
are commented out there, the throttle reasons are absent): an exporter with the default file gives those
alerts no data, which GpuExporterCountersMissing says per node instead of staying silent."""
XID_WINDOW = "10m"
"""How long GpuXidError fires after a new Xid value (a choice, like the `for` durations)."""


def _counters_missing(dcgm: str) -> str:
    """Nodes whose exporter sends GPU temperatures but not every field of NOT_DEFAULT_COUNTERS."""
    present = f"count by (instance) (DCGM_FI_DEV_GPU_TEMP{{{dcgm}}})"
    return " or ".join(f"({present} unless on (instance) count by (instance) ({name}{{{dcgm}}}))"
                       for name in NOT_DEFAULT_COUNTERS)


# NVML clock throttle reason bits (nvml.h, nvmlClocksThrottleReason*; docs/handover.md).
HW_SLOWDOWN, SW_THERMAL, HW_THERMAL, HW_POWER_BRAKE = 0x8, 0x20, 0x40, 0x80


@dataclass
class NodeFacts:
    """One node as the handover sees it: its judged report and, from raw facts, what only they hold."""

    report: VerificationReport
    source: str
    slowdown_c: list[int | None] = field(default_factory=list)
    """Per GPU index: the slowdown temperature nvidia-smi reports (None: not reported or only relative)."""

    @property
    def name(self) -> str:
        return self.report.host.hostname or self.source

    @property
    def slowdown(self) -> int | None:
        """The node's lowest slowdown threshold when every GPU reported one, else None (unknown)."""
        known = [t for t in self.slowdown_c if t is not None]
        if not self.slowdown_c or len(known) != len(self.slowdown_c):
            return None
        return min(known)


_SLOW = re.compile(r"<gpu_temp_slow_threshold>\s*(-?\d+)\s*C\s*</gpu_temp_slow_threshold>")


def slowdown_thresholds(raw: Mapping[str, Any]) -> list[int | None]:
    """Each GPU's absolute slowdown threshold from the raw `nvidia-smi -q -x` (in GPU order)."""
    q = (raw.get("commands") or {}).get("nvidia_smi_q") or {}
    xml = q.get("stdout") if isinstance(q, dict) else None
    if not isinstance(xml, str):
        return []
    out: list[int | None] = []
    for block in re.split(r"<gpu\s+id=", xml)[1:]:
        m = _SLOW.search(block)
        out.append(int(m.group(1)) if m and int(m.group(1)) > 0 else None)
    return out


@dataclass
class Handover:
    files: dict[str, str]
    """Relative path -> text (shell scripts are marked executable by the writer)."""
    accepted: list[str]
    rejected: list[tuple[str, str]]
    """(node, why it is not accepted)."""
    unknown_slowdown: list[str]
    """Accepted nodes without a known slowdown threshold: no slowdown alert for them (said so, not guessed)."""
    undecided: list[str] = field(default_factory=list)
    """Rejected nodes whose verdict is unknown (nothing failed, something could not be decided): exit 3."""


_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9])?"
SAFE_HOST = re.compile(rf"\A(?=.{{1,253}}\Z){_LABEL}(?:\.{_LABEL})*\Z")
"""A host name (RFC 1123 labels, `_` allowed for Slurm-style names) that can name a directory, a Prometheus
target and a word of shell: `\\A…\\Z`, because `$` also matches before a trailing newline."""
GPU_UUID = re.compile(r"\AGPU-[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\Z")
"""NVIDIA's GPU UUID as nvidia-smi prints it (`GPU-` and a UUID): the only form a setup script passes to -i."""


def safe_host(name: str) -> bool:
    return SAFE_HOST.fullmatch(name) is not None


def comment(text: str) -> str:
    """``text`` fit for a `#` comment of a script or a unit: one line, control characters escaped."""
    return one_line(" ".join(text.split()))[:500]


def acceptance(node: NodeFacts, plan: Plan) -> str | None:
    """None when the node passed acceptance against this plan; otherwise why not."""
    rep = node.report
    if not safe_host(node.name):
        return "host name unusable as a target name"
    if rep.plan_digest != canonical_digest(plan):
        return "not checked against this plan" if rep.plan_digest is None else "checked against another plan"
    if rep.error is not None:
        return "could not be verified"
    failed = [c.id for c in rep.checks if c.status == "fail"]
    if failed:
        return "failed: " + ", ".join(failed)
    if any(g.uuid is not None and not GPU_UUID.fullmatch(g.uuid) for g in rep.gpus):
        return "a GPU UUID that is not nvidia-smi's GPU-<uuid> form"
    if twice := repeated_uuids(g.uuid for g in rep.gpus):
        # setup.sh sets the power limit by UUID: one UUID for several GPUs would set it on one card, n times
        return "GPU UUID listed more than once: " + ", ".join(twice[:4])
    if any(isinstance(g.index, bool) or not isinstance(g.index, int) or g.index < 0 for g in rep.gpus):
        return "a GPU index that is not a number"
    if rep.overall() == "unknown":
        undecided = [c.id for c in rep.checks if c.status == "unknown"]
        return "unknown: " + (", ".join(undecided) if undecided else "no check could run")
    return None


def undecided(why: str) -> bool:
    """A rejection for an unknown verdict (exit 3) rather than a failure (exit 1)."""
    return why.startswith("unknown: ") or why == "could not be verified"


def conflicts(nodes: Sequence[NodeFacts]) -> dict[int, str]:
    """Node index -> why its report cannot be taken alone, from the cross-node checks `judge` and `verify
    --merge` run (procurement.verify.merge): the same host name or machine in more than one report
    (NODE-UNIQUE; host names compared without case, as DNS compares them), or its GPU serials or UUIDs in
    another node's report too (NODE-GPU-UNIQUE: one machine's report copied under another name). Every report
    involved is refused and named, whatever the order of the inputs and whichever of them passed: which one
    is the node's current state is the operator's call (remove the stale file, or judge the node again)."""
    groups: dict[str, list[int]] = {}
    for i, n in enumerate(nodes):
        groups.setdefault(f"host name {n.name.lower()}", []).append(i)
    by_name = {frozenset(members) for members in groups.values()}
    keys = [node_key(n.report, n.source) for n in nodes]
    for key in sorted(repeated_machines(keys)):
        members = [i for i, k in enumerate(keys) if k == key]
        # a machine told by its DMI serial, DMI UUID or machine-id, under more than one host name
        if not key.startswith("host:") and frozenset(members) not in by_name:
            groups[f"machine ({key})"] = members
    why: dict[int, list[str]] = {}
    together: dict[int, set[int]] = {}
    for what, members in groups.items():
        if len(members) < 2:
            continue
        files = sorted(nodes[i].source for i in members)
        more = f" (+{len(files) - 5})" if len(files) > 5 else ""
        text = f"the same {what} in {len(members)} reports: " + ", ".join(files[:5]) + more
        for i in members:
            why.setdefault(i, []).append(text)
            together.setdefault(i, set()).update(members)
    peers: dict[int, set[int]] = {}
    example: dict[int, str] = {}
    for ident, owners in shared_gpu_ids(gpu_ids([n.report for n in nodes], [str(i) for i in range(len(nodes))])):
        idx = {int(o) for o in owners}
        for i in idx:
            others = idx - together.get(i, set()) - {i}  # already told: the same machine or host name
            if others:
                peers.setdefault(i, set()).update(others)
                example.setdefault(i, ident)
    for i, js in peers.items():
        named = ", ".join(f"{nodes[j].name} ({nodes[j].source})" for j in sorted(js)[:3])
        more = f" (+{len(js) - 3})" if len(js) > 3 else ""
        why.setdefault(i, []).append(
            f"GPU serials or UUIDs (such as {example[i]}) also in the report of {named}{more}: one machine's report "
            "copied under another name?")
    return {i: "; ".join(texts) for i, texts in why.items()}


def planned_power_w(plan: Plan, catalog: Catalog, override_w: float | None) -> tuple[float | None, str]:
    """(watts per GPU, where the number comes from)."""
    if override_w is not None:
        if not (math.isfinite(override_w) and 0 < override_w < 10_000):
            return None, "--power-limit is not a power in watts"
        return override_w, "--power-limit"
    gpu = catalog.typed(Gpu, plan.gpu.model) if plan.gpu.model else None
    if gpu is not None and gpu.tdp_w and math.isfinite(float(gpu.tdp_w)) and 0 < float(gpu.tdp_w) < 10_000:
        return float(gpu.tdp_w), f"catalog {gpu.id} tdp_w (source: {gpu.source})"
    return None, "the plan's GPU has no power figure in the catalog"


def _put(path: str, mode: str, lines: Sequence[str], indent: str = "") -> list[str]:
    """Shell lines that write ``lines`` to ``path`` through `put`: each line one shell word, quoted (no
    here-document, whose end marker a line of text could forge)."""
    words = [shlex.quote(ln) for ln in lines]
    return [f"{indent}put {shlex.quote(path)} {mode} \\", *[f"{indent}  {w} \\" for w in words[:-1]],
            f"{indent}  {words[-1]}"]


def setup_script(node: NodeFacts, plan: Plan, power_w: float | None, power_source: str, image: str) -> str:
    """A bash script for one node: persistence mode, nouveau blacklist, power limits, dcgm-exporter.

    Nothing from a report, a plan or a catalog is spliced into it as code: the host name and the GPU UUIDs
    passed acceptance's strict grammars (SAFE_HOST, GPU_UUID) and are quoted all the same, free text (plan
    title, catalog source) only appears in comments made one line, and files are written from quoted words.
    """
    host = node.name
    if not safe_host(host):
        raise ValueError(f"unsafe host name {host!r}")
    q = shlex.quote
    gpus = [(g.index, g.uuid) for g in node.report.gpus]
    if any(u is not None and not GPU_UUID.fullmatch(u) for _, u in gpus):
        raise ValueError(f"{host}: a GPU UUID outside the GPU-<uuid> form")
    names = " | ".join(dict.fromkeys(q(h) for h in (host, host.split(".")[0])))
    title = comment(plan.title or "(untitled)")
    lines = [
        "#!/bin/bash",
        f"# gpu-procure handover: operations setup of {host}, accepted against the plan",
        f"# {title} (digest {canonical_digest(plan)[:12]}). Run as root on {host}:",
        "#   bash setup.sh            apply",
        "#   bash setup.sh --dry-run  print what it would do",
        "set -euo pipefail",
        'DRY=0; [ "${1:-}" = "--dry-run" ] && DRY=1',
        'run() { echo "+ $*"; if [ "$DRY" = 0 ]; then "$@"; fi; }',
        "put() {  # put FILE MODE LINE...: write the lines to FILE (atomically)",
        '  local file=$1 mode=$2; shift 2',
        '  if [ "$DRY" = 1 ]; then echo "+ write $file:"; printf \'    %s\\n\' "$@"; return; fi',
        '  mkdir -p "$(dirname "$file")"; printf \'%s\\n\' "$@" > "$file.tmp.$$"',
        '  chmod "$mode" "$file.tmp.$$"; mv -f "$file.tmp.$$" "$file"',
        "}",
        f"HOST={q(host)}",
        'if [ "$DRY" = 0 ] && [ "$(id -u)" != 0 ]; then echo "setup.sh: run as root on $HOST" >&2; exit 2; fi',
        f'case "$(hostname -s 2>/dev/null || hostname)" in {names}) ;; *)',
        '  if [ "$DRY" = 0 ]; then echo "setup.sh: this script is for $HOST" >&2; exit 2; fi;; esac',
        "",
        "# 1. Persistence mode: the driver stays loaded between jobs (no init delay, settings kept)",
        "run nvidia-smi -pm 1",
        "if systemctl cat nvidia-persistenced.service >/dev/null 2>&1; then",
        "  run systemctl enable --now nvidia-persistenced.service",
        "fi",
        "",
        "# 2. The nouveau driver blacklisted (it must never bind the GPUs instead of nvidia)",
        *_put("/etc/modprobe.d/blacklist-nouveau.conf", "0644", ["blacklist nouveau", "options nouveau modeset=0"]),
        "if command -v update-initramfs >/dev/null; then run update-initramfs -u",
        "elif command -v dracut >/dev/null; then run dracut -f",
        "fi",
        "",
    ]
    if power_w is not None and gpus:
        per_gpu = [["nvidia-smi", "-i", uuid or str(idx), "-pl", f"{power_w:g}"] for idx, uuid in gpus]
        lines += [
            f"# 3. Power limit {power_w:g} W per GPU: the planned figure ({comment(power_source)}),",
            "#    applied now and at every boot (nvidia-smi -pl does not survive a reboot)",
            *[f"run {shlex.join(cmd)}" for cmd in per_gpu],
            *_put("/etc/systemd/system/gpu-procure-power-limits.service", "0644", [
                "[Unit]",
                "Description=GPU power limits planned by gpu-procure",
                "After=nvidia-persistenced.service",
                "",
                "[Service]",
                "Type=oneshot",
                *[f"ExecStart=/usr/bin/env {' '.join(cmd)}" for cmd in per_gpu],
                "",
                "[Install]",
                "WantedBy=multi-user.target",
            ]),
            "if command -v systemctl >/dev/null; then",
            "  run systemctl daemon-reload",
            "  run systemctl enable gpu-procure-power-limits.service",
            "fi",
            "",
        ]
    else:
        why_not = "the report lists no GPUs" if not gpus else power_source  # not the catalog's source
        lines += [f"# 3. Power limits: not set ({comment(why_not)})", ""]
    lines += [
        f"# 4. dcgm-exporter on port {DCGM_PORT} with the fields the alert rules read",
        *_put("/etc/gpu-procure/dcgm-counters.csv", "0644", [
            "# DCGM FIELD, Prometheus metric type, help message",
            *[f"{n}, {kind}, {text}" for n, kind, text in DCGM_COUNTERS]]),
        "if command -v docker >/dev/null; then",
        "  if [ \"$DRY\" = 0 ]; then docker rm -f dcgm-exporter >/dev/null 2>&1 || true; fi",
        "  run docker run -d --name dcgm-exporter --restart unless-stopped --gpus all --cap-add SYS_ADMIN \\",
        f"    -p {DCGM_PORT}:{DCGM_PORT} \\",
        "    -v /etc/gpu-procure/dcgm-counters.csv:/etc/dcgm-exporter/gpu-procure.csv:ro \\",
        f"    {q(image)} -f /etc/dcgm-exporter/gpu-procure.csv",
        "elif command -v dcgm-exporter >/dev/null; then",
        *_put("/etc/systemd/system/dcgm-exporter.service", "0644", [
            "[Unit]",
            "Description=NVIDIA dcgm-exporter (gpu-procure handover)",
            "After=network-online.target nvidia-persistenced.service",
            "",
            "[Service]",
            f"ExecStart=/usr/bin/env dcgm-exporter -f /etc/gpu-procure/dcgm-counters.csv -a :{DCGM_PORT}",
            "Restart=always",
            "",
            "[Install]",
            "WantedBy=multi-user.target",
        ], indent="  "),
        "  run systemctl daemon-reload",
        "  run systemctl enable --now dcgm-exporter.service",
        "else",
        '  echo "setup.sh: neither docker (with the NVIDIA Container Toolkit) nor dcgm-exporter is installed:" >&2',
        '  echo "          install one and run this script again" >&2',
        "  exit 1",
        "fi",
        "",
        f"# 5. Node metrics on port {NODE_EXPORTER_PORT} (node and exporter down alerts tell them apart): the",
        "#    package (Debian/Ubuntu prometheus-node-exporter; EPEL/Fedora golang-github-prometheus-node-exporter),",
        "#    then its service enabled and started under whichever name the package gave it",
        "if ! command -v prometheus-node-exporter >/dev/null && ! command -v node_exporter >/dev/null; then",
        "  if command -v apt-get >/dev/null; then run apt-get install -y prometheus-node-exporter",
        "  elif command -v dnf >/dev/null; then",
        "    if ! run dnf install -y golang-github-prometheus-node-exporter; then",
        '      echo "setup.sh: node_exporter is not in the enabled repositories (EPEL on RHEL/Rocky)" >&2',
        "    fi",
        '  else echo "setup.sh: no apt-get or dnf here: install node_exporter yourself" >&2',
        "  fi",
        "fi",
        "started=0",
        "for unit in prometheus-node-exporter.service node_exporter.service; do",
        '  if systemctl cat "$unit" >/dev/null 2>&1; then run systemctl enable --now "$unit"; started=1; break; fi',
        "done",
        'if [ "$started" = 0 ]; then',
        '  echo "setup.sh: no node-exporter service on $HOST: NodeDown fires until one listens on"'
        f' ":{NODE_EXPORTER_PORT}" >&2',
        "fi",
        'echo "setup.sh: $HOST done"',
        "",
    ]
    return "\n".join(lines)


def scrape_config(nodes: Sequence[NodeFacts], plan: Plan, port_suffix: str = "") -> str:
    """prometheus.yml with one dcgm-exporter and one node-exporter job over the accepted nodes."""
    labels = {"plan": plan.title or canonical_digest(plan)[:12]}
    names = [n.name + port_suffix for n in nodes]
    doc = {
        "global": {"scrape_interval": "15s", "evaluation_interval": "15s"},
        "rule_files": ["gpu-procure-alerts.yml"],
        "scrape_configs": [
            {"job_name": DCGM_JOB, "static_configs": [{"targets": [f"{n}:{DCGM_PORT}" for n in names],
                                                        "labels": labels}]},
            {"job_name": NODE_JOB, "static_configs": [{"targets": [f"{n}:{NODE_EXPORTER_PORT}" for n in names],
                                                        "labels": labels}]},
        ],
    }
    head = ("# Prometheus scrape configuration of the nodes accepted by gpu-procure (gpu-procure handover).\n"
            "# 15 s is Prometheus' own example interval; change it to your site's.\n")
    return head + yaml.safe_dump(doc, sort_keys=False, allow_unicode=True)


def promql_string(text: str) -> str:
    """``text`` as a PromQL double-quoted string literal (backslash and quote escaped, Go-style)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _instances(nodes: Sequence[NodeFacts]) -> str:
    """A PromQL string holding the regular expression of the nodes' dcgm-exporter targets: host names are
    SAFE_HOST, so `.` is the only character to escape in the regex (RE2 refuses none of them, but PromQL's
    string literal refuses `\\-` and `\\.`: the regex's backslashes are themselves escaped)."""
    return promql_string("|".join(f"{n.name}:{DCGM_PORT}".replace(".", "\\.") for n in nodes))


def alert_rules(nodes: Sequence[NodeFacts], plan: Plan, policy: Policy) -> str:
    """Alert rules: temperature (policy and slowdown), ECC, remapped rows, Xid, throttling, down, GPUs missing."""
    dcgm = f'job="{DCGM_JOB}"'
    throttle = f"DCGM_FI_DEV_CLOCK_THROTTLE_REASONS{{{dcgm}}}"

    def rule(name: str, expr: str, for_: str, severity: str, summary: str, desc: str) -> dict[str, Any]:
        r: dict[str, Any] = {"alert": name, "expr": expr}
        if for_:
            r["for"] = for_
        r["labels"] = {"severity": severity}
        r["annotations"] = {"summary": summary, "description": desc}
        return r

    xid = f"DCGM_FI_DEV_XID_ERRORS{{{dcgm}}}"
    temp = policy.gpu_temp_alert_c
    rules = [
        rule("GpuTemperatureHigh", f"DCGM_FI_DEV_GPU_TEMP{{{dcgm}}} > {temp:g}", "5m", "warning",
             "GPU {{ $labels.gpu }} on {{ $labels.instance }} at {{ $value }} °C",
             f"Above the policy's gpu_temp_alert_c ({temp:g} °C) for 5 minutes: check airflow, fans and inlet "
             "temperature."),
    ]
    by_threshold: dict[int, list[NodeFacts]] = {}
    for n in nodes:
        if n.slowdown is not None:
            by_threshold.setdefault(n.slowdown, []).append(n)
    for threshold, group in sorted(by_threshold.items()):
        rules.append(rule(
            f"GpuAtSlowdownTemperature{threshold}",
            f'DCGM_FI_DEV_GPU_TEMP{{{dcgm},instance=~{_instances(group)}}} >= {threshold}', "1m", "critical",
            "GPU {{ $labels.gpu }} on {{ $labels.instance }} at its slowdown temperature",
            f"{{{{ $value }}}} °C reaches the {threshold} °C slowdown threshold nvidia-smi reported for this "
            "GPU: the clocks are being cut. Cooling fault or blocked airflow."))
    want = plan.gpu.count
    rules += [
        rule("GpuUncorrectableEccErrors", f"DCGM_FI_DEV_ECC_DBE_VOL_TOTAL{{{dcgm}}} > 0", "", "critical",
             "Uncorrectable ECC errors on GPU {{ $labels.gpu }} of {{ $labels.instance }}",
             "{{ $value }} double-bit errors since the driver loaded: drain the node, reset the GPU; RMA if "
             "they come back."),
        rule("GpuRowRemapFailure", f"DCGM_FI_DEV_ROW_REMAP_FAILURE{{{dcgm}}} > 0", "", "critical",
             "Row remapping failed on GPU {{ $labels.gpu }} of {{ $labels.instance }}",
             "The GPU has no spare rows left for a failing memory row: RMA."),
        rule("GpuUncorrectableRemappedRows",
             f"increase(DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS{{{dcgm}}}[1h]) > 0", "", "warning",
             "New rows remapped for uncorrectable errors on GPU {{ $labels.gpu }} of {{ $labels.instance }}",
             "A reset of the GPU applies the remapping; repeated remaps are a reason for RMA."),
        # the field holds the last Xid and keeps it: `> 0` would fire for ever after one harmless Xid and
        # hide the next; a change of the value is a new event (a repeat of the same Xid number is not seen)
        rule("GpuXidError", f"{xid} > 0 and changes({xid}[{XID_WINDOW}]) > 0", "", "warning",
             "Xid {{ $value }} on GPU {{ $labels.gpu }} of {{ $labels.instance }}",
             "The driver reported a new Xid event; look it up in NVIDIA's Xid catalogue (docs/verify.md) and "
             f"the kernel log of the node. The alert ends {XID_WINDOW} after the last new Xid."),
        rule("GpuHardwareSlowdown", f"floor({throttle} / {HW_SLOWDOWN}) % 2 == 1", "5m", "critical",
             "Hardware slowdown on GPU {{ $labels.gpu }} of {{ $labels.instance }}",
             "HW slowdown (temperature, power brake or PSU) halves the clocks or worse."),
        rule("GpuThermalThrottling", f"floor({throttle} / {SW_THERMAL}) % 4 > 0", "5m", "warning",
             "Thermal throttling on GPU {{ $labels.gpu }} of {{ $labels.instance }}",
             "Software or hardware thermal slowdown is active: cooling does not keep up with the load."),
        rule("GpuPowerBrake", f"floor({throttle} / {HW_POWER_BRAKE}) % 2 == 1", "1m", "critical",
             "Power brake on GPU {{ $labels.gpu }} of {{ $labels.instance }}",
             "An external power brake (the chassis or PSU) is slowing the GPU: check the PSUs."),
        rule("GpuMissing", f"count by (instance) (DCGM_FI_DEV_GPU_TEMP{{{dcgm}}}) < {want}", "5m", "critical",
             "{{ $labels.instance }} reports {{ $value }} GPUs",
             f"The plan puts {want} GPUs in each node: a GPU fell off the bus or the driver lost it."),
        rule("GpuExporterCountersMissing", _counters_missing(dcgm), "15m", "warning",
             "dcgm-exporter on {{ $labels.instance }} does not export the fields the ECC and throttle alerts "
             "read",
             "Its counters file lacks " + ", ".join(NOT_DEFAULT_COUNTERS) + " (commented out in dcgm-exporter's "
             "default-counters.csv): GpuUncorrectableEccErrors, GpuHardwareSlowdown, GpuThermalThrottling and "
             "GpuPowerBrake get no data. Run the node's setup.sh, or add these lines to the site's counters "
             "file: " + "; ".join(f"{n}, {k}, {t}" for n, k, t in DCGM_COUNTERS if n in NOT_DEFAULT_COUNTERS)),
        rule("GpuExporterDown", f'up{{{dcgm}}} == 0', "5m", "critical",
             "dcgm-exporter on {{ $labels.instance }} is not answering",
             "No GPU metrics: the exporter, its container or the node is down."),
        rule("NodeDown", f'up{{job="{NODE_JOB}"}} == 0', "5m", "critical",
             "{{ $labels.instance }} is down",
             "node-exporter does not answer: the node is down or unreachable."),
    ]
    doc = {"groups": [{"name": "gpu-procure", "rules": rules}]}
    head = "# Alert rules for the nodes accepted by gpu-procure (gpu-procure handover; docs/handover.md).\n"
    unknown = [n.name for n in nodes if n.slowdown is None]
    if unknown:
        head += ("# No slowdown-temperature rule for these nodes: their reports hold no absolute slowdown\n"
                 "# threshold (judged reports, or drivers that print it relative to T.Limit): "
                 + ", ".join(unknown) + "\n")
    return head + yaml.safe_dump(doc, sort_keys=False, allow_unicode=True, width=1000)


def build_handover(
    nodes: Sequence[NodeFacts],
    plan: Plan,
    catalog: Catalog,
    policy: Policy,
    power_limit_w: float | None = None,
    image: str = DCGM_EXPORTER_IMAGE,
) -> Handover:
    accepted: list[NodeFacts] = []
    rejected: list[tuple[str, str]] = []
    undecided_nodes: list[str] = []
    clash = conflicts(nodes)  # decided over every report read, so no input's place in the order counts
    for i, n in enumerate(nodes):
        own = acceptance(n, plan)
        if own is None and i not in clash:
            accepted.append(n)
            continue
        rejected.append((n.name, "; ".join(w for w in (own, clash.get(i)) if w)))
        if own is not None and i not in clash and undecided(own):
            undecided_nodes.append(n.name)
    files: dict[str, str] = {}
    power_w, power_source = planned_power_w(plan, catalog, power_limit_w)
    for n in accepted:
        files[f"nodes/{n.name}/setup.sh"] = setup_script(n, plan, power_w, power_source, image)
    if accepted:
        files["prometheus/prometheus.yml"] = scrape_config(accepted, plan)
        files["prometheus/gpu-procure-alerts.yml"] = alert_rules(accepted, plan, policy)
    return Handover(files, [n.name for n in accepted], rejected,
                    [n.name for n in accepted if n.slowdown is None], undecided_nodes)

"""The nodes a handover is built from: raw facts (judged now, slowdown thresholds kept), judged or cluster reports.

A judged report, alone or as one node of a cluster report, is read as `judge` reads it
(procurement.probe.nodes.judged_report): one whose GPU-COUNT or GPU-MODEL check passed over a GPU list that
contradicts it (no GPUs, another model, one GPU's UUID listed several times) is refused, naming the file.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from catalog.loader import Catalog
from procurement.handover.generate import NodeFacts, slowdown_thresholds
from procurement.messages import Lang
from procurement.plan import Plan
from procurement.probe.nodes import MAX_INPUT_BYTES, MAX_RAW_VALUES, expand, judged_report
from procurement.safe_io import read_bounded_text
from procurement.verification_report import merged_nodes
from procurement.verify.collect import raw as rawmod
from procurement.verify.judge import RawError, check_raw, judge
from procurement.verify.report import ReportError, strict_json


def read_nodes(paths: Sequence[Path], plan: Plan, catalog: Catalog, lang: Lang) -> tuple[list[NodeFacts], list[str]]:
    """Nodes from raw facts (judged now, slowdown thresholds kept), judged or cluster reports; one error line
    per unreadable or untrustworthy file, or node of a cluster report."""
    nodes: list[NodeFacts] = []
    errors: list[str] = []

    def judged(node: object, where: str, source: str) -> None:
        # with any_plan: a report of another plan is read, then refused by acceptance with its reason
        try:
            nodes.append(NodeFacts(judged_report(node, where, plan, catalog, lang, any_plan=True), source))
        except ReportError as exc:
            errors.append(str(exc))

    for path in expand(paths):
        try:
            # the one bounded reader and JSON reader: a FIFO refused unread, NaN, duplicate keys and runaway
            # nesting or integers located errors
            text = read_bounded_text(path, MAX_INPUT_BYTES)
            merged = merged_nodes(text, str(path))
            if merged is not None:  # the tool's own cluster report: node by node, each under one report's cap
                for i, node in enumerate(merged[1]):
                    where = f"{path}: nodes[{i}]"
                    try:
                        obj = strict_json(node, where)
                    except ReportError as exc:
                        errors.append(str(exc))
                        continue
                    judged(obj, where, f"{path}#{i}")
                continue
            obj = strict_json(text, str(path), max_values=MAX_RAW_VALUES)
            if isinstance(obj, dict) and obj.get("kind") == rawmod.KIND:
                doc = check_raw(obj, str(path))
                nodes.append(NodeFacts(judge(doc, plan, catalog, None, lang), str(path), slowdown_thresholds(doc)))
            elif isinstance(obj, dict) and isinstance(obj.get("nodes"), list):
                for i, node in enumerate(obj["nodes"]):
                    judged(node, f"{path}: nodes[{i}]", f"{path}#{i}")
            else:
                judged(obj, str(path), str(path))
        except OSError as exc:
            errors.append(f"{path}: cannot read ({exc.strerror or exc})")
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            errors.append(f"{path}: not valid JSON ({exc})")
        except (ReportError, RawError) as exc:
            errors.append(str(exc))
    return nodes, errors

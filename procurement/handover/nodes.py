"""The nodes a handover is built from: raw facts (judged now, slowdown thresholds kept), judged or cluster reports."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from catalog.loader import Catalog
from procurement.handover.generate import NodeFacts, slowdown_thresholds
from procurement.messages import Lang
from procurement.plan import Plan
from procurement.probe.nodes import MAX_INPUT_BYTES, MAX_RAW_VALUES, expand
from procurement.safe_io import read_bounded_text
from procurement.verification_report import merged_nodes
from procurement.verify.collect import raw as rawmod
from procurement.verify.judge import RawError, check_raw, judge
from procurement.verify.report import ReportError, parse_report, strict_json


def read_nodes(paths: Sequence[Path], plan: Plan, catalog: Catalog, lang: Lang) -> tuple[list[NodeFacts], list[str]]:
    """Nodes from raw facts (judged now, slowdown thresholds kept), judged or cluster reports."""
    nodes: list[NodeFacts] = []
    errors: list[str] = []
    for path in expand(paths):
        try:
            # the one bounded reader and JSON reader: a FIFO refused unread, NaN, duplicate keys and runaway
            # nesting or integers located errors
            text = read_bounded_text(path, MAX_INPUT_BYTES)
            merged = merged_nodes(text, str(path))
            if merged is not None:  # the tool's own cluster report: node by node, each under one report's cap
                for i, node in enumerate(merged[1]):
                    where = f"{path}: nodes[{i}]"
                    nodes.append(NodeFacts(parse_report(strict_json(node, where), where), f"{path}#{i}"))
                continue
            obj = strict_json(text, str(path), max_values=MAX_RAW_VALUES)
            if isinstance(obj, dict) and obj.get("kind") == rawmod.KIND:
                doc = check_raw(obj, str(path))
                nodes.append(NodeFacts(judge(doc, plan, catalog, None, lang), str(path), slowdown_thresholds(doc)))
            elif isinstance(obj, dict) and isinstance(obj.get("nodes"), list):
                for i, node in enumerate(obj["nodes"]):
                    nodes.append(NodeFacts(parse_report(node, f"{path}: nodes[{i}]"), f"{path}#{i}"))
            else:
                nodes.append(NodeFacts(parse_report(obj, str(path)), str(path)))
        except OSError as exc:
            errors.append(f"{path}: cannot read ({exc.strerror or exc})")
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            errors.append(f"{path}: not valid JSON ({exc})")
        except (ReportError, RawError) as exc:
            errors.append(str(exc))
    return nodes, errors

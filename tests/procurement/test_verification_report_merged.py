"""A merged cluster report read node by node (merged_nodes): each node held to one report's cap and to the strict
reader, the top level checked too, and anything not laid out as the tool writes it left to the whole-file path."""

from __future__ import annotations

import json

import pytest

from procurement.verification_report import MERGED_KIND, ReportError, is_merged, merged_nodes


def _merged(nodes: list[dict[str, object]]) -> str:
    head = json.dumps({"schema_version": 3, "kind": MERGED_KIND, "created": "2026-12-01T00:00:00+00:00",
                       "nodes": [], "checks": []}, indent=2)
    before, after = head.split('"nodes": []', 1)
    body = ",\n".join("    " + json.dumps(n, indent=2).replace("\n", "\n    ") for n in nodes)
    return before + '"nodes": [\n' + body + "\n  ]" + after


def test_nodes_are_split_and_the_top_level_is_read() -> None:
    text = _merged([{"host": {"hostname": f"gpu{i:02}"}, "checks": []} for i in range(3)])
    assert is_merged(text)
    found = merged_nodes(text, "c.json")
    assert found is not None
    top, nodes = found
    assert top["kind"] == MERGED_KIND and top["nodes"] == []
    assert [json.loads(n)["host"]["hostname"] for n in nodes] == ["gpu00", "gpu01", "gpu02"]


def test_a_duplicate_key_at_the_top_is_refused_and_another_layout_is_read_whole() -> None:
    text = _merged([{"host": {"hostname": "gpu01"}}]).replace('"checks": []', '"checks": [], "checks": []')
    with pytest.raises(ReportError, match="twice"):
        merged_nodes(text, "c.json")
    compact = json.dumps({"kind": MERGED_KIND, "nodes": [{"host": {}}]})  # one line: not the tool's layout
    assert is_merged(compact) and merged_nodes(compact, "c.json") is None
    assert merged_nodes(json.dumps({"kind": "gpu-procure-report"}), "r.json") is None

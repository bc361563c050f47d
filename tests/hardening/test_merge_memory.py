"""`verify --merge` of many nodes: memory grows by a few KB per node, and the result is the same as merging whole
reports (the checks, the table, the exit status and every byte of the merged JSON but its creation time)."""

from __future__ import annotations

import copy
import json
import tracemalloc
from pathlib import Path

from procurement.commands.cli import main
from procurement.plan import load_plan
from procurement.verify.merge import load_reports, load_reports_compact, merge_reports, write_merged
from procurement.verify.render import render_merged
from tests.conftest import EXAMPLES

REPORT = Path(__file__).resolve().parents[1] / "fixtures" / "verify" / "report-v1-8x-h100.json"


def _node_files(directory: Path, n: int) -> list[Path]:
    one = json.loads(REPORT.read_text(encoding="utf-8"))
    paths = []
    for i in range(n):
        r = copy.deepcopy(one)
        r["host"]["hostname"] = f"node{i:04d}"
        for j, g in enumerate(r["gpus"]):
            g["uuid"] = f"GPU-{i:04d}-{j}"
        if i % 7 == 3:  # some nodes fail a check, one could not probe at all
            r["checks"][0]["status"] = "fail"
        if i == 5:
            r["error"] = "nvidia-smi: \x1b[31mno devices\r"
        path = directory / f"node{i:04d}.json"
        path.write_text(json.dumps(r), encoding="utf-8")
        paths.append(path)
    (directory / "broken.json").write_text("{not json", encoding="utf-8")
    return [*paths, directory / "broken.json"]


def test_the_compact_merge_is_the_whole_merge(tmp_path: Path) -> None:
    paths = _node_files(tmp_path, 40)
    plan = load_plan(EXAMPLES / "llm-cluster-node.gpuplan.yaml")
    whole, sources, errors = load_reports(paths)
    small, small_sources, small_errors, chunks = load_reports_compact(paths)
    assert (sources, errors) == (small_sources, small_errors) and len(errors) == 1
    a = merge_reports(whole, plan, "en", sources)
    b = merge_reports(small, plan, "en", small_sources)
    b.node_json, b.created = chunks, a.created
    assert [c.model_dump() for c in a.checks] == [c.model_dump() for c in b.checks]
    assert render_merged(a, "zh") == render_merged(b, "zh") and a.exit_code() == b.exit_code() == 1
    write_merged(a, tmp_path / "a.json")
    write_merged(b, tmp_path / "b.json")
    assert (tmp_path / "a.json").read_bytes() == (tmp_path / "b.json").read_bytes()
    assert len(json.loads((tmp_path / "b.json").read_text(encoding="utf-8"))["nodes"]) == 40


def test_merge_memory_grows_by_a_few_kb_per_node(tmp_path: Path) -> None:
    """Whole reports held ~69 KB each and the merged output as a dict, a string and bytes on top: 2,048 nodes
    peaked at 418-428 MB RSS. Compact records and compressed node JSON: 112 MB (docs/reliability.md)."""
    paths = _node_files(tmp_path, 240)[:-1]
    traced = []
    for n in (120, 240):
        tracemalloc.start()
        kept = load_reports_compact(paths[:n])
        traced.append(tracemalloc.get_traced_memory()[0])
        tracemalloc.stop()
        del kept
    per_node = (traced[1] - traced[0]) / 120
    tracemalloc.start()
    whole = load_reports(paths[:120])
    per_whole_node = tracemalloc.get_traced_memory()[0] / 120
    tracemalloc.stop()
    del whole
    assert per_node < 25 * 1024, f"{per_node / 1024:.1f} KB per node"
    assert per_node < per_whole_node / 2.5, (per_node, per_whole_node)


def test_the_merge_command_writes_every_node(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    paths = _node_files(tmp_path, 12)
    out = tmp_path / "cluster.json"
    assert main(["verify", "--merge", *map(str, paths), "--json", str(out)]) == 1
    merged = json.loads(out.read_text(encoding="utf-8"))
    assert [n["host"]["hostname"] for n in merged["nodes"]] == [f"node{i:04d}" for i in range(12)]
    assert merged["nodes"][5]["error"] == "nvidia-smi: \x1b[31mno devices\r"  # kept as written, shown escaped
    printed = capsys.readouterr()
    assert "\x1b" not in printed.out and "\r" not in printed.out

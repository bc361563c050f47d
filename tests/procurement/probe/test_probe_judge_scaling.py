"""Judging many nodes stays linear: the work per node does not grow with the cluster (no timing: counts).

The time figures (2,048 nodes < 2 s) are measured by bench/bench_probe.py; these tests guard the shape
without a clock, so they neither flake on a loaded machine nor pass on a slow quadratic merge.
"""

from __future__ import annotations

import cProfile
import gc
import itertools
import json
from pathlib import Path
from typing import Any

import pytest

from catalog.loader import Catalog
from procurement.plan import Plan
from procurement.probe.nodes import cyclic_gc_paused, read_node, read_nodes
from procurement.verify.collect import raw as rawmod
from procurement.verify.merge import merge_reports
from procurement.verify.report import VerificationReport, write_report
from tests.procurement.verify.conftest import H100_TOPO, H100_XML, h100_plan, make_host_root


@pytest.fixture(scope="module")
def raw_doc(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """One node's raw facts, collected by the probe's own collector from the real 8x H100 capture."""
    root = make_host_root(tmp_path_factory.mktemp("host"))
    xml, topo = H100_XML.read_text(encoding="utf-8"), H100_TOPO.read_text(encoding="utf-8")

    def run(argv: list[str], _timeout: float) -> dict[str, Any]:
        if argv[0].endswith("nvidia-smi") and argv[1:] == ["-q", "-x"]:
            return rawmod.result(argv, 0, stdout=xml)
        if argv[0].endswith("nvidia-smi") and argv[1:2] == ["topo"]:
            return rawmod.result(argv, 0, stdout=topo)
        return rawmod.result(argv, missing=True)

    return rawmod.collect(str(root), run=run, timeout=5)


def _nodes(tmp: Path, doc: dict[str, Any], n: int, plan: Plan, vcat: Catalog, judged: bool) -> list[Path]:
    """n distinct nodes (host name, machine id, GPU serials and UUIDs differ), as raw facts or reports."""
    out = tmp / f"{'judged' if judged else 'raw'}-{n}"
    out.mkdir()
    xml = doc["commands"]["nvidia_smi_q"]["stdout"]
    paths = []
    for i in range(n):
        node = dict(doc, files=dict(doc["files"], **{"/proc/sys/kernel/hostname": f"gpu{i:04d}\n",
                                                     "/etc/machine-id": f"{i:032x}\n"}))
        node["commands"] = dict(doc["commands"], nvidia_smi_q=dict(
            doc["commands"]["nvidia_smi_q"],
            stdout=xml.replace("</serial>", f"-{i}</serial>").replace("</uuid>", f"-{i}</uuid>")))
        path = out / f"gpu{i:04d}.json"
        path.write_text(json.dumps(node), encoding="utf-8")
        if judged:
            write_report(read_node(path, plan, vcat, "en"), path)
        paths.append(path)
    return paths


def _calls(paths: list[Path], plan: Plan, vcat: Catalog) -> int:
    """Python and C function calls made by `gpu-procure judge` (read + merge) of these files."""
    prof = cProfile.Profile()
    prof.enable()
    reports, sources, errors = read_nodes(paths, plan, vcat, "en")
    merged = merge_reports(reports, plan, "en", sources)
    prof.disable()
    assert not errors and len(merged.nodes) == len(paths)
    return sum(entry.callcount for entry in prof.getstats())


@pytest.mark.parametrize("judged", [True, False], ids=["judged-reports", "raw-facts"])
def test_work_per_node_does_not_grow_with_the_cluster(tmp_path: Path, raw_doc: dict[str, Any], vcat: Catalog,
                                                       judged: bool) -> None:
    plan = h100_plan()
    sizes = (3, 6, 12, 24)
    files = {n: _nodes(tmp_path, raw_doc, n, plan, vcat, judged) for n in sizes}
    _calls(files[3], plan, vcat)  # warm the caches (regular expressions, catalog look-ups)
    calls = {n: _calls(files[n], plan, vcat) for n in sizes}
    per_node = [(calls[b] - calls[a]) / (b - a) for a, b in itertools.pairwise(sizes)]
    # linear: the same extra work for each further node, whether it is the 4th or the 24th (a pairwise
    # comparison of nodes would double it at every step)
    assert per_node[-1] <= per_node[0] * 1.05, (calls, per_node)
    assert per_node[-1] > 0


def test_the_collector_does_not_walk_the_reports_already_read(tmp_path: Path, raw_doc: dict[str, Any],
                                                              vcat: Catalog) -> None:
    """Every full collection walks all reports read so far, which made 2,048 nodes take twice as long and
    grow faster than the node count; reading and merging pause it and put it back as it was."""
    plan = h100_plan()
    paths = _nodes(tmp_path, raw_doc, 40, plan, vcat, judged=True)
    runs: list[int] = []

    def seen(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            runs.append(info["generation"])

    gc.collect()
    gc.callbacks.append(seen)
    try:
        reports, sources, _ = read_nodes(paths, plan, vcat, "en")
        # at most the one young-generation pass when it is switched back on (without the pause: dozens)
        assert len(runs) <= 1 and gc.isenabled(), runs
        runs.clear()
        with cyclic_gc_paused():
            merge_reports(reports, plan, "en", sources)
        assert len(runs) <= 1 and gc.isenabled(), runs
    finally:
        gc.callbacks.remove(seen)
    gc.disable()
    try:
        with cyclic_gc_paused():
            pass
        assert not gc.isenabled()  # a caller that had paused it keeps it paused
    finally:
        gc.enable()


def _models(n: int) -> list[VerificationReport]:
    gpus = [{"index": i, "name": "NVIDIA H100 80GB HBM3"} for i in range(8)]
    checks = [{"id": "GPU-COUNT", "status": "pass", "expected": "8", "actual": "8"}]
    return [VerificationReport.model_validate(
        {"host": {"hostname": f"gpu{i:05d}", "machine_id": f"{i:032x}"}, "driver_version": "580.105.08",
         "gpus": [dict(g, serial=f"S{i}-{g['index']}", uuid=f"GPU-{i}-{g['index']}") for g in gpus],
         "checks": checks}) for i in range(n)]


def test_merging_and_printing_thousands_of_nodes_stays_linear() -> None:
    """A loop inside one C call (list.count for every node) is not seen by the call count above: this
    compares the time per node of merging and printing 256 and 4,096 nodes, best of three each. Linear
    work gives about 1 (2 on this sandbox, where each new page of memory costs ~50 µs); the quadratic
    host-name count that merging had gave 24 here."""
    import time

    from procurement.verify.render import render_merged

    plan = h100_plan(requirements={"nodes": 4096})

    def per_node(reports: list[VerificationReport]) -> float:
        best = float("inf")
        for _ in range(3):
            start = time.perf_counter()
            render_merged(merge_reports(reports, plan, "en"), "en")
            best = min(best, time.perf_counter() - start)
        return best / len(reports)

    small, large = _models(256), _models(4096)
    with cyclic_gc_paused():
        ratio = per_node(large) / per_node(small)
    print(f"time per node, 4,096 against 256 nodes: {ratio:.2f}")
    assert ratio < 4, ratio

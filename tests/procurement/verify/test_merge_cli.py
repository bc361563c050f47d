"""Merging node reports against the plan's node count, and `gpu-procure verify` end to end."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from catalog.loader import Catalog
from procurement.commands.cli import build_parser
from procurement.commands.verify import run_verify
from procurement.plan import GpuChoice, Plan, canonical_digest, save_plan
from procurement.verify.bench import run_benchmark
from procurement.verify.checks import Facts, evaluate, match_gpu
from procurement.verify.collect.runner import CommandResult
from procurement.verify.host import HostInfo
from procurement.verify.merge import merge_reports
from procurement.verify.parse.smi_xml import parse_smi_xml
from procurement.verify.probe import report_from_outputs
from procurement.verify.report import ReportError, VerificationReport, load_report, write_report
from tests.procurement.verify.conftest import (
    FIX,
    H100_TOPO,
    H100_XML,
    T4_XML,
    h100_plan,
    healthy,
    smi_error,
    smi_replay,
)


def node(cat: Catalog, hostname: str, xml: Path = H100_XML, error: str | None = None,
         plan: Plan | None = None) -> VerificationReport:
    gpu_only = Plan(gpu=GpuChoice(model="h100-sxm5-80gb", count=8))  # the host facts are empty here
    topo = H100_TOPO.read_text() if xml == H100_XML else None
    rep = report_from_outputs(xml.read_text(), cat, gpu_only, "en", HostInfo(hostname=hostname), topo,
                              healthy(xml.read_text()))
    # each node its own cards (the fixture XML is one machine's), stamped with the plan it was checked against
    gpus = [g.model_copy(update={"serial": f"{hostname}-{g.serial}", "uuid": f"{hostname}-{g.uuid}"})
            for g in rep.gpus]
    rep = rep.model_copy(update={"gpus": gpus, "plan_digest": canonical_digest(plan) if plan else None})
    if error:
        rep = rep.model_copy(update={"error": error, "gpus": [], "driver_version": None})
    return rep


def test_merge_counts_nodes_against_the_plan(vcat: Catalog) -> None:
    plan = h100_plan(requirements__nodes=4)
    reports = [
        node(vcat, "gpu01", plan=plan),
        node(vcat, "gpu02", plan=plan),
        node(vcat, "gpu02", plan=plan),
        node(vcat, "gpu04", error="nvidia-smi was not found (PATH)", plan=plan),
    ]
    merged = merge_reports(reports, plan, "en", [f"r{i}.json" for i in range(4)])
    by_id = {c.id: c for c in merged.checks}
    assert (by_id["NODE-COUNT"].status, by_id["NODE-COUNT"].expected, by_id["NODE-COUNT"].actual) == (
        "fail",
        "4",
        "3",
    )
    assert by_id["NODE-UNIQUE"].status == "warn" and by_id["NODE-UNIQUE"].actual == "gpu02"
    assert by_id["NODE-RESULTS"].status == "fail" and by_id["NODE-RESULTS"].actual == "gpu04"
    assert by_id["NODE-SAME-DRIVER"].status == "pass" and by_id["NODE-SAME-DRIVER"].actual == "580.105.08"
    assert by_id["NODE-SAME-GPUS"].actual == "8× NVIDIA H100 80GB HBM3"
    assert merged.exit_code() == 1
    data = merged.to_dict()
    assert set(data) == {"schema_version", "kind", "created", "nodes", "checks"} and len(data["nodes"]) == 4
    assert data["kind"] == "gpu-procure-merged-report"


def test_merge_compares_host_names_without_case(vcat: Catalog) -> None:
    """DNS names are the same in any case: `GPU02` beside `gpu02` (no DMI identity read) is one machine twice."""
    plan = h100_plan(requirements__nodes=2)
    merged = merge_reports([node(vcat, "gpu02", plan=plan), node(vcat, "GPU02", plan=plan)], plan, "en")
    by_id = {c.id: c for c in merged.checks}
    assert by_id["NODE-UNIQUE"].status == "warn" and by_id["NODE-COUNT"].actual == "1"


def test_merge_all_good_and_mixed_nodes(vcat: Catalog) -> None:
    plan = h100_plan(requirements__nodes=2)
    good = merge_reports([node(vcat, f"gpu0{i}", plan=plan) for i in range(1, 3)], plan, "en")
    assert {c.id: c.status for c in good.checks} == {
        "NODE-COUNT": "pass",
        "NODE-UNIQUE": "pass",
        "NODE-PLAN": "pass",
        "NODE-GPU-UNIQUE": "pass",
        "NODE-RESULTS": "pass",
        "NODE-SAME-DRIVER": "pass",
        "NODE-SAME-GPUS": "pass",
        "NODE-SAME-VBIOS": "pass",
    }
    assert good.exit_code() == 0
    mixed = merge_reports([node(vcat, "a"), node(vcat, "b", T4_XML)], None, "en")
    by_id = {c.id: c for c in mixed.checks}
    assert by_id["NODE-SAME-DRIVER"].status == "warn"
    assert by_id["NODE-SAME-DRIVER"].actual == "515.105.01 | 580.105.08"
    assert by_id["NODE-COUNT"].status == "skip"
    assert by_id["NODE-RESULTS"].actual == "b"  # the T4 node fails the 8x H100 plan
    assert merge_reports([], None, "en").exit_code() == 3  # nothing verified: unknown, not failed


def test_merge_fails_nodes_not_verified_against_this_plan(vcat: Catalog) -> None:
    plan = h100_plan(requirements__nodes=3)
    older = h100_plan(requirements__nodes=3, gpu__count=4)  # another plan: another digest
    assert canonical_digest(older) != canonical_digest(plan)
    reports = [
        node(vcat, "gpu01", plan=plan),
        node(vcat, "gpu02"),  # inventory only: no --plan
        node(vcat, "gpu03", plan=older).model_copy(update={"plan_title": "old quote"}),
    ]
    merged = merge_reports(reports, plan, "en")
    check = next(c for c in merged.checks if c.id == "NODE-PLAN")
    assert check.status == "fail" and check.actual == "gpu02, gpu03 (old quote)"
    assert check.expected == canonical_digest(plan)[:12]
    assert "without --plan (inventory only): gpu02" in check.message and "another plan" in check.message
    assert merged.exit_code() == 1  # 1 of 3 nodes checked: the cluster is not accepted
    zh = next(c for c in merge_reports(reports, plan, "zh").checks if c.id == "NODE-PLAN")
    assert "未使用 --plan 验证" in zh.message
    assert "NODE-PLAN" not in {c.id for c in merge_reports(reports, None, "en").checks}


def test_merge_flags_gpu_serials_seen_on_two_nodes(vcat: Catalog) -> None:
    plan = h100_plan(requirements__nodes=2)
    a = node(vcat, "gpu01", plan=plan)
    # the same node's report renamed: its 8 GPUs' serials and UUIDs are all seen on both "nodes"
    copy = a.model_copy(update={"host": a.host.model_copy(update={"hostname": "gpu02"})})
    merged = merge_reports([a, copy], plan, "en")
    check = next(c for c in merged.checks if c.id == "NODE-GPU-UNIQUE")
    assert check.status == "fail" and "(16;" in check.message  # 8 serials + 8 UUIDs
    assert f"{a.gpus[0].serial}: gpu01, gpu02" in (check.actual or "") or "gpu01, gpu02" in (check.actual or "")
    assert merged.exit_code() == 1


def test_report_records_the_plan_it_was_checked_against(vcat: Catalog) -> None:
    plan = h100_plan().model_copy(update={"title": "Cluster A"})
    rep = report_from_outputs(H100_XML.read_text(), vcat, plan, "en", HostInfo(hostname="n1"))
    assert rep.plan_digest == canonical_digest(plan) and len(rep.plan_digest) == 64
    assert rep.plan_title == "Cluster A"
    inv = report_from_outputs(H100_XML.read_text(), vcat, None, "en", HostInfo(hostname="n1"))
    assert inv.plan_digest is None and inv.plan_title is None


def test_load_report_errors_name_the_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"schema_version": 1,\n "gpus": [{"index": "x"}]}')
    with pytest.raises(ReportError, match=r"bad\.json: gpus\[0\]\.index"):
        load_report(bad)
    bad.write_text("{not json")
    with pytest.raises(ReportError, match=r"bad\.json:1: not valid JSON"):
        load_report(bad)
    bad.write_text('{"schema_version": 99}')
    with pytest.raises(ReportError, match="schema_version: 99"):
        load_report(bad)
    with pytest.raises(ReportError, match="cannot read"):
        load_report(tmp_path / "missing.json")


# ---------------------------------------------------------------- CLI


def args(*argv: str):  # type: ignore[no-untyped-def]
    return build_parser().parse_args(["verify", "--lang", "en", *argv])


def test_cli_verify_writes_json_and_returns_exit_codes(
    tmp_path: Path, fake_path: Path, vcat: Catalog, capsys: pytest.CaptureFixture[str]
) -> None:
    smi_replay(fake_path, T4_XML)
    plan = tmp_path / "t4.gpuplan.yaml"
    save_plan(
        h100_plan(
            gpu__model="t4",
            gpu__count=1,
            software__cuda="cuda-12.2",
            server__storage=[],
            server__nics=[],
            software__image=None,
        ),
        plan,
    )
    out = tmp_path / "out" / "report.json"
    out.parent.mkdir()
    code = run_verify(args("--plan", str(plan), "--json", str(out), "--timeout", "10"), vcat)
    printed = capsys.readouterr()
    assert code == 1  # the T4 runs at x8 and the driver is older than CUDA 12.2 needs
    assert "PCIE-WIDTH" in printed.out and "FAIL" in printed.out
    assert "GPU0 (00000000:00:1E.0) x8 (max x16)" in printed.out
    data = json.loads(out.read_text())
    assert data["gpus"][0]["pcie_width_current"] == 8
    assert {c["id"]: c["status"] for c in data["checks"]}["PCIE-WIDTH"] == "fail"


def test_cli_exit_1_when_nvidia_smi_fails_and_nothing_else_could_be_verified(
    tmp_path: Path, fake_path: Path, vcat: Catalog, capsys: pytest.CaptureFixture[str]
) -> None:
    """The table said NVIDIA-SMI FAIL and "1 failed" and the command exited 3; the README's table says a
    failed check is 1, whatever else is unknown."""
    smi_error(fake_path, FIX / "error_no-devices-were-found.txt", 6)
    assert run_verify(args("--json", str(tmp_path / "r.json")), vcat) == 1
    out = capsys.readouterr().out
    assert "Nothing could be verified" in out and "No devices were found" in out
    assert "1 failed" in out
    assert json.loads((tmp_path / "r.json").read_text())["error"].startswith("nvidia-smi exited with code 6")


def test_cli_bad_plan_and_zh_output(
    tmp_path: Path, fake_path: Path, vcat: Catalog, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.gpuplan.yaml"
    bad.write_text("schema_version: 1\ngpu:\n  count: -3\n")
    assert run_verify(args("--plan", str(bad)), vcat) == 2
    assert "bad.gpuplan.yaml:3" in capsys.readouterr().err
    smi_replay(fake_path, H100_XML)
    code = run_verify(build_parser().parse_args(["verify", "--lang", "zh"]), vcat)
    out = capsys.readouterr().out
    # This host's kernel log and lspci may be unreadable in the sandbox: then those checks are unknown (3)
    assert code in (0, 3)
    assert "检查项" in out and "通过" in out and "NVIDIA H100 80GB HBM3" in out


def test_cli_merge(tmp_path: Path, vcat: Catalog, capsys: pytest.CaptureFixture[str]) -> None:
    paths = []
    for name in ("gpu01", "gpu02"):
        p = tmp_path / f"{name}.json"
        write_report(node(vcat, name), p)
        paths.append(str(p))
    plan = tmp_path / "p.gpuplan.yaml"
    save_plan(h100_plan(requirements__nodes=3), plan)
    merged_out = tmp_path / "cluster.json"
    code = run_verify(args("--plan", str(plan), "--merge", *paths, "--json", str(merged_out)), vcat)
    out = capsys.readouterr().out
    assert code == 1  # 2 of 3 planned nodes
    assert "gpu01" in out and "gpu02" in out and "NODE-COUNT" in out
    assert len(json.loads(merged_out.read_text())["nodes"]) == 2
    (tmp_path / "junk.json").write_text("[]")
    code = run_verify(args("--merge", str(tmp_path / "junk.json"), paths[0]), vcat)
    captured = capsys.readouterr()
    assert "junk.json" in captured.err and code == 1  # an unreadable report is never a silent pass
    assert run_verify(args("--merge", str(tmp_path / "junk.json")), vcat) == 2


# ---------------------------------------------------------------- benchmark


def fake_python(stdout: str, returncode: int = 0):  # type: ignore[no-untyped-def]
    return lambda argv, timeout: CommandResult(tuple(argv), returncode=returncode, stdout=stdout)


def test_benchmark_results_against_catalog_peak(vcat: Catalog) -> None:
    result, reason = run_benchmark(
        fake_python(
            json.dumps(
                {
                    "torch": "2.4.0",
                    "gpus": [
                        {"index": 0, "matmul_tflops": 659.3, "bandwidth_gbs": 2680.0},
                        {"index": 1, "error": "CUDA error: an illegal memory access was encountered"},
                    ],
                }
            )
        ),
        "python",
    )
    assert reason is None and result is not None
    smi = parse_smi_xml(H100_XML.read_text())
    facts = Facts(smi=smi, host=HostInfo(), benchmark=result)
    facts.parts = {g.index: match_gpu(g.name, vcat) for g in smi.gpus}
    bench = next(c for c in evaluate(facts, None, vcat, "en") if c.id == "BENCHMARK")
    assert bench.status == "fail" and "GPU1: CUDA error" in (bench.actual or "")
    result["gpus"].pop()  # type: ignore[union-attr]
    bench = next(c for c in evaluate(facts, None, vcat, "en") if c.id == "BENCHMARK")
    # 659.3 / 989 TFLOPS = 67 %, 2680 / 3350 GB/s = 80 % (H100 SXM peaks, docs/sources.md §G1)
    assert bench.status == "pass" and bench.actual == "GPU0: 659 TFLOPS, 2680 GB/s (67% FP16, 80% BW)"


def test_benchmark_skips_with_a_reason() -> None:
    assert run_benchmark(fake_python('{"skip": "torch 2.4.0+cpu sees no CUDA device"}'), "python") == (
        None,
        "torch 2.4.0+cpu sees no CUDA device",
    )
    timed_out = lambda argv, t: CommandResult(tuple(argv), timed_out=True)  # noqa: E731
    assert run_benchmark(timed_out, "python", 7)[1] == "timeout 7 s"
    facts = Facts(smi=None, host=HostInfo(), benchmark_skip="no PyTorch with CUDA is available")
    bench = [c for c in evaluate(facts, None, Catalog(), "en") if c.id == "BENCHMARK"]
    # asked for and not run: unknown with the reason, never a pass or a silent skip
    assert [(c.status, c.message, c.code) for c in bench] == [
        ("unknown", "Benchmark skipped: no PyTorch with CUDA is available.", "verify.bench.skip")
    ]


def test_cli_merge_refuses_a_report_whose_gpu_count_passed_over_no_gpus(
        tmp_path: Path, vcat: Catalog, capsys: pytest.CaptureFixture[str]) -> None:
    """`judge` and `handover` refuse a judged report of this plan whose GPU-COUNT passed over an empty GPU list
    (edited, or made for other hardware); `verify --merge --plan` took it as a verified node."""
    plan = h100_plan(requirements__nodes=2)
    plan_file = tmp_path / "p.gpuplan.yaml"
    save_plan(plan, plan_file)
    good, forged = node(vcat, "gpu01", plan=plan), node(vcat, "gpu02", plan=plan)
    assert forged.check("GPU-COUNT") is not None and forged.check("GPU-COUNT").status == "pass"  # type: ignore[union-attr]
    forged = forged.model_copy(update={"gpus": []})
    paths = [tmp_path / "gpu01.json", tmp_path / "gpu02.json"]
    write_report(good, paths[0])
    write_report(forged, paths[1])
    code = run_verify(args("--plan", str(plan_file), "--merge", *map(str, paths)), vcat)
    captured = capsys.readouterr()
    assert "gpu02.json" in captured.err and "GPU-COUNT check says pass" in captured.err
    assert code == 1 and "gpu02" not in captured.out.split("NODE-COUNT")[0]  # one node of two merged
    # without --plan there is no plan to hold it to: merged as judged
    assert run_verify(args("--merge", *map(str, paths)), vcat) in (0, 3)

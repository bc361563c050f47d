"""A cluster's acceptance: node lists as pdsh/clush take them, per-node progress against the plan, the
commands to copy, and the cluster acceptance report (PDF) from `gpu-procure judge --pdf`."""

from __future__ import annotations

import io
import json
import shlex
import subprocess
from pathlib import Path
from typing import Any

import pypdf
import pytest

from catalog.loader import Catalog
from procurement.commands.cli import main
from procurement.plan import save_plan
from procurement.probe.cluster import (
    HostlistError,
    cluster_progress,
    expand_hostlist,
    target_commands,
)
from procurement.probe.nodes import expand, read_node
from procurement.verify.report import VerificationReport, write_report
from tests.procurement.probe.test_probe_judge_scaling import _nodes, raw_doc  # noqa: F401  (the fixture)
from tests.procurement.verify.conftest import h100_plan


def pdf_text(path: Path) -> str:
    return "\n".join(p.extract_text() for p in pypdf.PdfReader(io.BytesIO(path.read_bytes())).pages)


def test_node_lists_expand_as_pdsh_and_clush_read_them() -> None:
    assert expand_hostlist("gpu[01-03]") == ["gpu01", "gpu02", "gpu03"]
    assert expand_hostlist("rack[1-2]-n[1,3]") == ["rack1-n1", "rack1-n3", "rack2-n1", "rack2-n3"]
    assert expand_hostlist("a, b  c,a") == ["a", "b", "c"]
    assert expand_hostlist("n[8-10]") == ["n8", "n9", "n10"]
    assert expand_hostlist("  ") == []
    for bad in ("gpu[01-03", "gpu01]", "gpu[05-01]", "gpu[a-b]", "n[1-999999999]"):
        with pytest.raises(HostlistError):
            expand_hostlist(bad)


def _report(name: str, status: str, *, error: str | None = None) -> VerificationReport:
    checks = [{"id": "GPU-COUNT", "status": status, "expected": "8", "actual": "8" if status == "pass" else "7",
               "message": "m"}]
    return VerificationReport.model_validate({"host": {"hostname": name, "machine_id": name * 4},
                                              "checks": checks, "error": error})


def test_progress_names_each_node_and_the_missing_ones() -> None:
    plan = h100_plan(requirements={"nodes": 4})
    reports = [_report("gpu01.cluster.local", "pass"), _report("gpu02", "fail"), _report("gpu09", "unknown")]
    p = cluster_progress(reports, plan, expand_hostlist("gpu[01-04]"))
    assert [(n.name, n.state) for n in p.nodes] == [
        ("gpu01.cluster.local", "pass"), ("gpu02", "fail"), ("gpu09", "unknown"),
        ("gpu03", "missing"), ("gpu04", "missing")]
    assert p.expected == 4 and p.received == 3 and p.missing == 2 and p.missing_names == ["gpu03", "gpu04"]
    assert p.unexpected == ["gpu09"] and not p.complete()
    assert [c.id for c in p.nodes[1].problems] == ["GPU-COUNT"]
    # without names the count still says how many are missing
    q = cluster_progress(reports[:2], plan)
    assert q.missing == 2 and q.missing_names == [] and not q.named
    # every planned node reported and passed: complete; one unknown is never a pass
    ok = [_report(f"gpu0{i}", "pass") for i in range(1, 5)]
    assert cluster_progress(ok, plan).complete()
    assert not cluster_progress([*ok[:3], _report("gpu04", "unknown")], plan).complete()


def test_commands_name_the_real_plan_the_probe_and_the_nodes(vcat: Catalog) -> None:
    plan = h100_plan(requirements={"nodes": 16})
    text = target_commands("clush", plan, vcat, Path("/home/me/plans/集群 A.gpuplan"), nodes="gpu[01-16]",
                           probe_dir=Path("/home/me/probe"))
    lines = text.splitlines()
    assert lines[0] == "export RUN=$(date +%Y%m%d-%H%M%S)"  # this run's files: never an earlier run's facts
    assert lines[1] == "clush -S -w 'gpu[01-16]' --copy /home/me/probe/gpu-procure-probe.pyz --dest /tmp/"
    judge = shlex.split(lines[-1])
    assert judge[:3] == ["gpu-procure", "judge", "reports-$RUN/"] and "/home/me/plans/集群 A.gpuplan" in judge
    assert "--pdf" in judge
    # the probe has no plan: the plan's container image is passed to it, as verify does
    assert plan.software.image == "ngc-pytorch-24.05"
    image = "nvcr.io/nvidia/pytorch:24.05-py3"
    assert f'clush -S -w \'gpu[01-16]\' "python3 /tmp/gpu-procure-probe.pyz -q --image {image} -o ' in text
    pdsh = target_commands("pdsh", plan, vcat, None, nodes="")
    assert pdsh.splitlines()[0] == "export PDSH_RCMD_TYPE=ssh RUN=$(date +%Y%m%d-%H%M%S)"  # Debian's pdsh: rsh
    run = f'pdsh -S -w NODES "python3 /tmp/gpu-procure-probe.pyz -q --image {image} -o /tmp/gpu-procure-$RUN.json"'
    assert run in pdsh
    assert "--plan PLAN.gpuplan" in pdsh
    one = target_commands("one", plan.model_copy(update={"software": plan.software.model_copy(
        update={"image": None})}), vcat, Path("/p/x.gpuplan"))
    assert 'python3 gpu-procure-probe.pyz -q -o "$(hostname -s).json"' in one
    assert one.startswith("# 在目标机器上") and "# on the target machine" in target_commands(
        "one", plan, vcat, None, lang="en")


def test_a_directory_holds_the_copies_clush_and_pdsh_bring_back(tmp_path: Path) -> None:
    for name in ("gpu-procure-raw.json.gpu01", "gpu-procure-raw.json.gpu02", "node.json", "notes.txt",
                 "cluster.json.bak", "x.json.tmp", ".json.x"):
        (tmp_path / name).write_text("{}")
    assert [p.name for p in expand([tmp_path])] == [
        "gpu-procure-raw.json.gpu01", "gpu-procure-raw.json.gpu02", "node.json"]


def test_judge_writes_the_cluster_acceptance_report(tmp_path: Path, raw_doc: dict[str, Any],  # noqa: F811
                                                    vcat: Catalog, monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    import catalog.loader

    monkeypatch.setattr(catalog.loader, "load_catalog", lambda dirs=(): vcat)
    plan = h100_plan(requirements={"nodes": 4})
    plan_file = tmp_path / "cluster.gpuplan.yaml"
    save_plan(plan, plan_file)
    paths = _nodes(tmp_path, raw_doc, 3, plan, vcat, judged=False)
    # gpu0001 loses a GPU: its report fails GPU-COUNT
    doc = json.loads(paths[1].read_text())
    xml = doc["commands"]["nvidia_smi_q"]["stdout"]
    cut = xml.rindex("<gpu id=")
    doc["commands"]["nvidia_smi_q"]["stdout"] = xml[:cut] + "</nvidia_smi_log>\n"
    paths[1].write_text(json.dumps(doc))
    reports = tmp_path / "reports"
    reports.mkdir()
    for i, p in enumerate(paths):  # named as clush --rcopy names them
        p.rename(reports / f"gpu-procure-raw.json.gpu{i:04d}")
    pdf = tmp_path / "cluster.pdf"
    code = main(["judge", str(reports), "--plan", str(plan_file), "--json", str(tmp_path / "cluster.json"),
                 "--pdf", str(pdf), "--nodes", "gpu[0000-0003]", "--lang", "en"])
    assert code == 1
    assert "No report yet from 1 node: gpu0003" in capsys.readouterr().err
    text = pdf_text(pdf)
    assert "Cluster acceptance report" in text
    # the fixture's host is not the plan's server (CPU, memory): every node fails, gpu0001 also GPU-COUNT
    assert "Not all passed: 3 nodes failed; no report from 1 node" in text.replace("\n", " ")
    assert "gpu0003" in text.split("Nodes that have not reported")[1]
    merged = json.loads((tmp_path / "cluster.json").read_text())
    serials = [g["serial"] for n in merged["nodes"] for g in n["gpus"]]
    assert len(serials) == 23 and all(s.replace("\n", "") in text.replace("\n", "") for s in serials[:3])
    problems = text.split("Failures and unknowns")[1].split("Nodes that have not reported")[0]
    assert problems.count("GPU-COUNT") == 1 and "gpu0001\nGPU-COUNT\nFAIL\n8 / 7" in problems
    # a plan is needed for an acceptance report; a broken node list is a usage error
    assert main(["judge", str(reports), "--pdf", str(pdf)]) == 2
    assert main(["judge", str(reports), "--plan", str(plan_file), "--nodes", "gpu[1-"]) == 2


def test_all_planned_nodes_passing_is_said_only_then(tmp_path: Path, raw_doc: dict[str, Any],  # noqa: F811
                                                     vcat: Catalog) -> None:
    from procurement.probe.cluster_pdf import render_cluster_pdf
    from procurement.verify.merge import merge_reports

    plan = h100_plan(requirements={"nodes": 2})
    paths = _nodes(tmp_path, raw_doc, 2, plan, vcat, judged=False)
    reports = [read_node(p, plan, vcat, "zh") for p in paths]
    for r in reports:  # the fixture host lacks what the plan asks beyond the GPUs: judge the GPUs only
        r.checks = [c for c in r.checks if c.status != "fail" and c.status != "unknown"]
        r.error = None
    out = tmp_path / "ok.pdf"
    out.write_bytes(render_cluster_pdf(merge_reports(reports, plan, "zh"), plan, vcat, lang="zh"))
    text = pdf_text(out)
    assert "集群验收报告" in text and "方案中的 2 个节点全部收到报告并通过自动检查" in text
    write_report(reports[0], tmp_path / "one.json")
    out.write_bytes(render_cluster_pdf(merge_reports(reports[:1], plan, "zh"), plan, vcat, lang="zh"))
    assert "缺 1 个节点的报告" in pdf_text(out)


def test_the_cluster_report_has_a_signature_and_date_block(tmp_path: Path, raw_doc: dict[str, Any],  # noqa: F811
                                                            vcat: Catalog) -> None:
    """The cluster report had no place to sign: the acceptance team's conclusion, each party's name, date,
    signature and a seal, after the automatic verdict, in both languages."""
    from procurement.probe.cluster_pdf import render_cluster_pdf
    from procurement.verify.merge import merge_reports

    plan = h100_plan(requirements={"nodes": 2})
    reports = [read_node(p, plan, vcat, "zh") for p in _nodes(tmp_path, raw_doc, 2, plan, vcat, judged=False)]
    for lang, words in (("zh", ("签字确认", "结论", "☐ 合格", "☐ 不合格", "☐ 整改后复验", "使用部门", "资产管理",
                                "供应商代表", "姓名", "日期", "盖章")),
                        ("en", ("Signatures", "Conclusion", "☐ Accepted", "☐ Rejected", "☐ Re-inspect after rework",
                                "User department", "Asset management", "Vendor representative", "Date", "Seal"))):
        out = tmp_path / f"{lang}.pdf"
        out.write_bytes(render_cluster_pdf(merge_reports(reports, plan, lang), plan, vcat, lang=lang))
        text = pdf_text(out)
        block = text.split(words[0], 1)[1]  # the block comes last, after the verdict and the nodes
        assert "Nodes" not in block and "节点" not in block.split("方案摘要")[0]
        for word in words[1:]:
            assert word in block, (lang, word)


def test_a_hostile_image_reference_is_text_in_the_remote_line(vcat: Catalog, tmp_path: Path) -> None:
    """The probe line is in double quotes (for $RUN): a catalog's image reference with $(...) or a backtick
    must reach the node as text, never run on the operator's machine."""
    from procurement.probe import cluster

    marker = tmp_path / "ran"
    hostile = f'x$(touch {marker})`touch {marker}`"; touch {marker}; "'
    line = cluster._dq(f"python3 p.pyz -q --image {shlex.quote(hostile)} -o ") + "/tmp/x-$RUN.json"
    out = subprocess.run(["bash", "-c", f'RUN=1; printf %s "{line}"'], capture_output=True, text=True, check=True)
    assert not marker.exists()
    assert shlex.split(out.stdout)[4] == hostile and out.stdout.endswith("/tmp/x-1.json")


def test_nodes_addressed_by_ip_are_matched_by_the_address_they_were_copied_from() -> None:
    """`--nodes 10.0.0.[11-12]` cut every address at its first dot: each node was reported present (by its host
    name) and missing (its address), and the two addresses were one node '10'."""
    plan = h100_plan(requirements={"nodes": 2})
    names = expand_hostlist("10.0.0.[11-12]")
    assert names == ["10.0.0.11", "10.0.0.12"]
    reports = [_report("gpu11", "pass"), _report("gpu12", "pass")]
    sources = ["reports/gpu-procure-RUN.json.10.0.0.11", "reports/gpu-procure-RUN.json.10.0.0.12"]
    p = cluster_progress(reports, plan, names, sources)
    assert p.missing_names == [] and p.unexpected == []
    assert p.complete()
    # one of them silent: named by its address
    p = cluster_progress(reports[:1], plan, names, sources[:1])
    assert p.missing_names == ["10.0.0.12"]


def test_unexpected_and_missing_node_names_stay_on_their_lines(tmp_path: Path, raw_doc: dict[str, Any],  # noqa: F811
                                                               vcat: Catalog) -> None:
    """A report's hostname reaches the 'not in the node list' line: 'x\\nFAKE: …' printed a line of its own."""
    from procurement.probe.cluster_pdf import render_cluster_pdf
    from procurement.verify.merge import merge_reports

    plan = h100_plan(requirements={"nodes": 2})
    paths = _nodes(tmp_path, raw_doc, 2, plan, vcat, judged=False)
    reports = [read_node(p, plan, vcat, "en") for p in paths]
    reports[1].host.hostname = "rogue\nFAKE: every node passed"
    out = tmp_path / "cluster.pdf"
    out.write_bytes(render_cluster_pdf(merge_reports(reports, plan, "en"), plan, vcat,
                                       names=["gpu0000", "gpu0001"], lang="en"))
    text = pdf_text(out)
    assert "rogue\\x0aFAKE:" in text, [line for line in text.splitlines() if "FAKE" in line]
    assert not any(line.strip().startswith("FAKE") for line in text.splitlines()), \
        [line for line in text.splitlines() if "FAKE" in line]

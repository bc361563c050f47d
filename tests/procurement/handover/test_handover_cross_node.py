"""The handover accepts a node on the same reading and cross-node checks as `judge` and `verify --merge`: a
report copied under another host name, a host name in two reports (in either order, in any case), a GPU UUID
listed for several GPUs and a judged report contradicting its own GPU list are refused, and nothing said to be
written when nothing is."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from catalog.loader import Catalog
from procurement.commands.cli import main
from procurement.handover.generate import NodeFacts, acceptance, build_handover, setup_script
from procurement.plan import Plan, load_plan
from procurement.policy import default_policy
from procurement.verify.merge import merge_reports
from procurement.verify.report import CheckRecord, GpuRecord, HostRecord, VerificationReport, write_report
from tests.conftest import EXAMPLES
from tests.deploy.helpers import cluster_plan
from tests.procurement.handover.test_handover import gpu_uuid, node_report


@pytest.fixture(scope="module")
def plan(catalog: Catalog) -> Plan:
    return load_plan(EXAMPLES / "llm-cluster-node.gpuplan.yaml", catalog)


def renamed(report: VerificationReport, host: str, **host_fields: str) -> VerificationReport:
    """``report`` (its GPUs, checks and verdict) under another host name: a copied file, edited."""
    return report.model_copy(update={"host": HostRecord(hostname=host, **host_fields)})


def files_under(out: Path) -> list[str]:
    return sorted(str(p.relative_to(out)) for p in out.rglob("*") if p.is_file()
                  and not str(p.relative_to(out)).startswith("operations/"))


def test_a_report_copied_under_another_host_name_is_refused_as_judge_fails_it(
        tmp_path: Path, catalog: Catalog, capsys: pytest.CaptureFixture[str]) -> None:
    plan_path = cluster_plan(tmp_path, nodes=3)
    plan = load_plan(plan_path, catalog)
    reports = tmp_path / "reports"
    reports.mkdir()
    write_report(node_report(plan, "gpu01"), reports / "gpu01.json")
    vm = node_report(plan, "vm")
    write_report(vm, reports / "vm.json")
    write_report(renamed(vm, "gpu02"), reports / "gpu02.json")  # the same 8 GPU UUIDs
    assert main(["judge", str(reports), "--plan", str(plan_path), "--json", str(tmp_path / "c.json")]) == 1
    checks = {c["id"]: c["status"] for c in json.loads((tmp_path / "c.json").read_text())["checks"]}
    assert checks["NODE-GPU-UNIQUE"] == "fail"
    capsys.readouterr()
    out = tmp_path / "handover"
    assert main(["handover", str(plan_path), str(reports), str(out), "--lang", "en"]) == 1
    assert files_under(out) == ["README.txt", "nodes/gpu01/setup.sh", "prometheus/gpu-procure-alerts.yml",
                                "prometheus/prometheus.yml"]
    readme = (out / "README.txt").read_text()
    first = min(gpu_uuid("vm", i) for i in range(8))
    assert (f"  - vm: GPU serials or UUIDs (such as {first}) also in the report of gpu02 "
            f"({reports / 'gpu02.json'}): one machine's report copied under another name?") in readme
    assert f"  - gpu02: GPU serials or UUIDs (such as {first}) also in the report of vm " in readme
    assert "vm:9400" not in (out / "prometheus/prometheus.yml").read_text()


def test_one_machine_under_two_host_names_is_refused(plan: Plan, catalog: Catalog) -> None:
    """The same DMI serial (NODE-UNIQUE's machine key) under two names, even with other GPUs listed."""
    a = renamed(node_report(plan, "gpu01"), "gpu01", dmi_serial="SN-1")
    b = renamed(node_report(plan, "gpu02"), "gpu02", dmi_serial="SN-1")
    h = build_handover([NodeFacts(a, "a.json"), NodeFacts(b, "b.json"), NodeFacts(node_report(plan, "gpu03"), "c")],
                       plan, catalog, default_policy())
    assert h.accepted == ["gpu03"]
    assert h.rejected == [("gpu01", "the same machine (serial:SN-1) in 2 reports: a.json, b.json"),
                          ("gpu02", "the same machine (serial:SN-1) in 2 reports: a.json, b.json")]


def test_host_names_are_compared_without_case(plan: Plan, catalog: Catalog) -> None:
    # other GPUs each: only the name is shared, and DNS names are the same in any case
    nodes = [NodeFacts(node_report(plan, "VM"), "upper.json"), NodeFacts(node_report(plan, "vm"), "lower.json")]
    h = build_handover(nodes, plan, catalog, default_policy())
    assert h.accepted == [] and h.files == {}
    assert h.rejected == [("VM", "the same host name vm in 2 reports: lower.json, upper.json"),
                          ("vm", "the same host name vm in 2 reports: lower.json, upper.json")]
    # merge counts them as one machine reported twice too
    checks = {c.id: c for c in merge_reports([n.report for n in nodes], plan, "en").checks}
    assert checks["NODE-UNIQUE"].status == "warn" and checks["NODE-COUNT"].actual == "1"


@pytest.mark.parametrize("old_first", [True, False])
def test_two_reports_of_one_host_are_decided_alike_in_either_order(
        tmp_path: Path, catalog: Catalog, capsys: pytest.CaptureFixture[str], old_first: bool) -> None:
    plan_path = cluster_plan(tmp_path, nodes=2)
    plan = load_plan(plan_path, catalog)
    old, new = node_report(plan, "vm", fail="RAM"), node_report(plan, "vm")
    pair = [NodeFacts(old, "a-old-failing.json"), NodeFacts(new, "b-new-passing.json")]
    h = build_handover((pair if old_first else pair[::-1]) + [NodeFacts(node_report(plan, "gpu01"), "g.json")],
                       plan, catalog, default_policy())
    assert h.accepted == ["gpu01"]
    both = "the same host name vm in 2 reports: a-old-failing.json, b-new-passing.json"
    assert sorted(h.rejected) == [("vm", f"failed: RAM; {both}"), ("vm", both)]
    # through the command, the two alone: nothing accepted, nothing written, and no line saying it was
    reports = tmp_path / "reports"
    reports.mkdir()
    write_report(old, reports / ("1.json" if old_first else "2.json"))
    write_report(new, reports / ("2.json" if old_first else "1.json"))
    capsys.readouterr()
    out = tmp_path / "handover"
    assert main(["handover", str(plan_path), str(reports), str(out), "--lang", "en"]) == 1
    assert not out.exists()
    said = capsys.readouterr()
    assert "written to" not in said.out + said.err
    assert said.err.startswith("Not accepted, left out of the handover:\n")
    assert f"the same host name vm in 2 reports: {reports / '1.json'}, {reports / '2.json'}" in said.err
    assert said.err.endswith("No node passed acceptance: no monitoring or setup files written\n")


def test_a_gpu_uuid_listed_for_every_gpu_is_refused(tmp_path: Path, catalog: Catalog,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    plan_path = cluster_plan(tmp_path, nodes=2)
    plan = load_plan(plan_path, catalog)
    one = gpu_uuid("gpu02", 0)
    dup = node_report(plan, "gpu02")
    dup.gpus[:] = [GpuRecord(index=i, name="NVIDIA H100 80GB HBM3", uuid=one) for i in range(8)]
    reports = tmp_path / "reports"
    reports.mkdir()
    write_report(node_report(plan, "gpu01"), reports / "gpu01.json")
    write_report(dup, reports / "gpu02.json")
    # judge refuses it: its GPU-COUNT passed over one GPU listed eight times
    assert main(["judge", str(reports / "gpu02.json"), "--plan", str(plan_path)]) == 2
    capsys.readouterr()
    out = tmp_path / "handover"
    assert main(["handover", str(plan_path), str(reports), str(out), "--lang", "en"]) == 1
    assert sorted(p.name for p in (out / "nodes").iterdir()) == ["gpu01"]
    err = capsys.readouterr().err
    assert (f"{reports / 'gpu02.json'}: its GPU-COUNT check says pass, but its own GPU list says otherwise (GPU {one} "
            "listed more than once)") in err
    # and acceptance refuses it whatever its checks say: setup.sh sets the power limit by UUID
    dup.checks[:] = [CheckRecord(id="ECC", status="pass")]
    assert acceptance(NodeFacts(dup, "x"), plan) == f"GPU UUID listed more than once: {one}"


def test_a_judged_report_without_the_gpus_its_gpu_count_passed_is_refused(
        tmp_path: Path, catalog: Catalog, capsys: pytest.CaptureFixture[str]) -> None:
    plan_path = cluster_plan(tmp_path, nodes=1)
    plan = load_plan(plan_path, catalog)
    empty = node_report(plan, "gpu01", n=0)  # GPU-COUNT: pass, "gpus": []
    write_report(empty, tmp_path / "gpu01.json")
    why = "its GPU-COUNT check says pass, but its own GPU list says otherwise (0 GPUs listed"
    assert main(["judge", str(tmp_path / "gpu01.json"), "--plan", str(plan_path), "--lang", "en"]) == 2
    assert why in capsys.readouterr().err
    assert main(["handover", str(plan_path), str(tmp_path / "gpu01.json"), str(tmp_path / "out"), "--lang",
                 "en"]) == 2
    assert why in capsys.readouterr().err and not (tmp_path / "out").exists()
    # the same node inside a cluster report is read the same way
    cluster = tmp_path / "cluster.json"
    cluster.write_text(json.dumps({"schema_version": 1, "checks": [], "nodes": [
        json.loads(empty.model_dump_json()), json.loads(node_report(plan, "gpu02").model_dump_json())]}))
    assert main(["handover", str(plan_path), str(cluster), str(tmp_path / "out2"), "--lang", "en"]) == 1
    err = capsys.readouterr().err
    assert f"{cluster}: nodes[0]: {why}" in err
    assert sorted(p.name for p in (tmp_path / "out2" / "nodes").iterdir()) == ["gpu02"]


def test_a_setup_script_without_gpus_says_why_no_power_limit(plan: Plan, catalog: Catalog) -> None:
    report = node_report(plan, "gpu01", n=0)
    script = setup_script(NodeFacts(report, "a"), plan, 700.0, "catalog h100 tdp_w (source: a datasheet)", "img")
    assert "# 3. Power limits: not set (the report lists no GPUs)" in script
    assert "source: a datasheet" not in script

"""gpu-procure handover: accepted nodes only, planned power limits, alert rules that promtool accepts."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import uuid
from pathlib import Path

import pytest
import yaml

from catalog.loader import Catalog
from procurement.commands.cli import main
from procurement.handover.generate import NodeFacts, build_handover, slowdown_thresholds
from procurement.plan import Plan, canonical_digest, load_plan
from procurement.policy import default_policy
from procurement.verify.report import CheckRecord, GpuRecord, HostRecord, VerificationReport, write_report
from tests.conftest import EXAMPLES, unprivileged_child
from tests.deploy.helpers import cluster_plan
from tests.procurement.verify.conftest import A100_MIG_XML, H100_XML, T4_XML, write_exe

PROMTOOL = shutil.which("promtool")


def gpu_uuid(host: str, i: int) -> str:
    """A UUID in nvidia-smi's form, one per host and index."""
    return f"GPU-{uuid.uuid5(uuid.NAMESPACE_DNS, f'{host}.{i}')}"


def node_report(plan: Plan, host: str, *, fail: str | None = None, digest: str | None = "plan",
                n: int = 8) -> VerificationReport:
    checks = [CheckRecord(id="GPU-COUNT", status="pass"), CheckRecord(id="ECC", status="pass")]
    if fail:
        checks.append(CheckRecord(id=fail, status="fail", message="x"))
    return VerificationReport(
        host=HostRecord(hostname=host),
        gpus=[GpuRecord(index=i, name="NVIDIA H100 80GB HBM3", uuid=gpu_uuid(host, i)) for i in range(n)],
        checks=checks,
        plan_digest=canonical_digest(plan) if digest == "plan" else digest,
    )


@pytest.fixture(scope="module")
def plan(catalog: Catalog) -> Plan:
    return load_plan(EXAMPLES / "llm-cluster-node.gpuplan.yaml", catalog)


def test_only_accepted_nodes_are_handed_over(plan: Plan, catalog: Catalog) -> None:
    nodes = [
        NodeFacts(node_report(plan, "gpu01"), "a", [89] * 8),
        NodeFacts(node_report(plan, "gpu02", fail="PCIE-WIDTH"), "b"),
        NodeFacts(node_report(plan, "gpu03", digest=None), "c"),
        NodeFacts(node_report(plan, "gpu04", digest="0" * 64), "d"),
        NodeFacts(node_report(plan, "../../etc"), "e"),
        NodeFacts(node_report(plan, "gpu05"), "f", [93, None, 93, 93, 93, 93, 93, 93]),
        NodeFacts(node_report(plan, "gpu01"), "g"),
    ]
    h = build_handover(nodes, plan, catalog, default_policy())
    assert h.accepted == ["gpu05"]
    # gpu01 twice: neither report is taken (which is the node's state is the operator's call)
    assert h.rejected == [
        ("gpu01", "the same host name gpu01 in 2 reports: a, g"), ("gpu02", "failed: PCIE-WIDTH"),
        ("gpu03", "not checked against this plan"), ("gpu04", "checked against another plan"),
        ("../../etc", "host name unusable as a target name"), ("gpu01", "the same host name gpu01 in 2 reports: a, g"),
    ]
    nodes[0] = NodeFacts(node_report(plan, "gpu01"), "a", [89] * 8)
    h = build_handover(nodes[:-1], plan, catalog, default_policy())
    assert h.accepted == ["gpu01", "gpu05"]
    assert sorted(h.files) == ["nodes/gpu01/setup.sh", "nodes/gpu05/setup.sh", "prometheus/gpu-procure-alerts.yml",
                               "prometheus/prometheus.yml"]
    scrape = yaml.safe_load(h.files["prometheus/prometheus.yml"])
    targets = {j["job_name"]: j["static_configs"][0]["targets"] for j in scrape["scrape_configs"]}
    assert targets == {"gpu-procure-dcgm": ["gpu01:9400", "gpu05:9400"],
                       "gpu-procure-node": ["gpu01:9100", "gpu05:9100"]}
    # gpu05 has a GPU without a known slowdown threshold: unknown, so no slowdown rule for it, and said so
    assert h.unknown_slowdown == ["gpu05"]
    rules = {r["alert"]: r for r in yaml.safe_load(h.files["prometheus/gpu-procure-alerts.yml"])["groups"][0]["rules"]}
    assert rules["GpuAtSlowdownTemperature89"]["expr"].endswith('instance=~"gpu01:9400"} >= 89')
    assert not any(a.startswith("GpuAtSlowdownTemperature93") for a in rules)
    assert rules["GpuTemperatureHigh"]["expr"] == 'DCGM_FI_DEV_GPU_TEMP{job="gpu-procure-dcgm"} > 85'
    assert rules["GpuMissing"]["expr"].endswith("< 8")  # the plan's GPUs per node
    assert {"GpuUncorrectableEccErrors", "GpuRowRemapFailure", "GpuUncorrectableRemappedRows", "GpuXidError",
            "GpuHardwareSlowdown", "GpuThermalThrottling", "GpuPowerBrake", "GpuExporterDown",
            "NodeDown"} <= set(rules)
    assert "gpu05" in h.files["prometheus/gpu-procure-alerts.yml"].splitlines()[2]


def test_policy_temperature_is_used(plan: Plan, catalog: Catalog) -> None:
    policy = default_policy().model_copy(update={"gpu_temp_alert_c": 78})
    h = build_handover([NodeFacts(node_report(plan, "gpu01"), "a")], plan, catalog, policy)
    assert "} > 78" in h.files["prometheus/gpu-procure-alerts.yml"]


@pytest.mark.parametrize(("xml", "want"), [(T4_XML, [93]), (A100_MIG_XML, [89]), (H100_XML, [None] * 8)])
def test_slowdown_thresholds_from_real_captures(xml: Path, want: list[int | None]) -> None:
    """v11/v12 print an absolute threshold; v13 prints it relative to T.Limit (-2 C): unknown, not guessed."""
    raw = {"commands": {"nvidia_smi_q": {"stdout": xml.read_text()}}}
    assert slowdown_thresholds(raw) == want


def test_setup_script_dry_run(open_tmp: Path, plan: Plan, catalog: Catalog) -> None:
    h = build_handover([NodeFacts(node_report(plan, "gpu01", n=2), "a")], plan, catalog, default_policy())
    tmp_path = open_tmp  # nobody must read the script below
    script = tmp_path / "setup.sh"
    script.write_text(h.files["nodes/gpu01/setup.sh"])
    assert subprocess.run(["bash", "-n", str(script)], capture_output=True, timeout=30).returncode == 0
    bin_dir = tmp_path / "bin"
    write_exe(bin_dir, "docker", "echo docker-called >&2; exit 99\n")
    write_exe(bin_dir, "nvidia-smi", "echo smi-called >&2; exit 99\n")
    res = subprocess.run(["bash", str(script), "--dry-run"], capture_output=True, text=True, timeout=30,
                         env={"PATH": f"{bin_dir}:/usr/bin:/bin"})
    assert res.returncode == 0, res.stderr
    out = res.stdout
    assert "called" not in res.stderr  # a dry run runs nothing
    assert "+ nvidia-smi -pm 1" in out
    assert "blacklist nouveau" in out and "options nouveau modeset=0" in out
    # the planned power: the catalog's 700 W of the H100 SXM5, per GPU by UUID, now and at boot
    u0, u1 = gpu_uuid("gpu01", 0), gpu_uuid("gpu01", 1)
    assert f"+ nvidia-smi -i {u0} -pl 700" in out and f"+ nvidia-smi -i {u1} -pl 700" in out
    assert f"ExecStart=/usr/bin/env nvidia-smi -i {u1} -pl 700" in out
    assert "+ docker run -d --name dcgm-exporter" in out and "-p 9400:9400" in out
    assert "DCGM_FI_DEV_CLOCK_THROTTLE_REASONS, gauge" in out
    # not root, not dry: refuses before anything runs (the tests' root runs it as nobody)
    res = subprocess.run(["bash", str(script)], capture_output=True, text=True, timeout=30,
                         env={"PATH": f"{bin_dir}:/usr/bin:/bin"}, **unprivileged_child())  # type: ignore[call-overload]
    assert res.returncode == 2 and "setup.sh: run as root on gpu01" in res.stderr, res.stderr
    assert "called" not in res.stderr and res.stdout == ""


def test_power_limit_override_and_unknown(plan: Plan, catalog: Catalog) -> None:
    h = build_handover([NodeFacts(node_report(plan, "gpu01", n=1), "a")], plan, catalog, default_policy(),
                       power_limit_w=550)
    assert "-pl 550" in h.files["nodes/gpu01/setup.sh"] and "--power-limit" in h.files["nodes/gpu01/setup.sh"]


def promtool() -> str:
    assert PROMTOOL, "promtool is not installed: packaging/system-deps.sh installs it (the test must not skip)"
    return PROMTOOL


def test_promtool_accepts_the_config_and_the_rules(tmp_path: Path, plan: Plan, catalog: Catalog) -> None:
    # names with `-` and `.` (a cluster's FQDNs): their regex escapes must be valid inside a PromQL string
    names = ["gpu01", "gpu-02.cluster.local", "gpu_03.a-b.example", "gpu04"]
    nodes = [NodeFacts(node_report(plan, name), str(i), [89 if i % 2 else 87] * 8) for i, name in enumerate(names)]
    h = build_handover(nodes, plan, catalog, default_policy())
    assert h.accepted == names
    for rel, text in h.files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    prom = tmp_path / "prometheus"
    res = subprocess.run([promtool(), "check", "rules", str(prom / "gpu-procure-alerts.yml")],
                         capture_output=True, text=True, timeout=60)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "SUCCESS: 14 rules found" in res.stdout + res.stderr  # 12 + one slowdown rule per threshold (87, 89)
    res = subprocess.run([promtool(), "check", "config", str(prom / "prometheus.yml")],
                         capture_output=True, text=True, timeout=60)
    assert res.returncode == 0, res.stdout + res.stderr
    # and promtool does reject a broken rule (the check can fail)
    bad = prom / "bad.yml"
    bad.write_text(h.files["prometheus/gpu-procure-alerts.yml"].replace("> 85", "> > 85"))
    assert subprocess.run([promtool(), "check", "rules", str(bad)], capture_output=True,
                          timeout=60).returncode != 0


def promtool_test(tmp_path: Path, rules: str, tests: list[dict[str, object]]) -> subprocess.CompletedProcess[str]:
    """`promtool test rules`: Prometheus' own rule engine evaluates the alerts over made-up series."""
    (tmp_path / "gpu-procure-alerts.yml").write_text(rules)
    (tmp_path / "tests.yml").write_text(yaml.safe_dump({"rule_files": ["gpu-procure-alerts.yml"],
                                                        "evaluation_interval": "1m", "tests": tests}))
    return subprocess.run([promtool(), "test", "rules", str(tmp_path / "tests.yml")], capture_output=True,
                          text=True, timeout=60, cwd=tmp_path)


def test_the_xid_alert_fires_again_for_each_new_xid(tmp_path: Path, plan: Plan, catalog: Catalog) -> None:
    h = build_handover([NodeFacts(node_report(plan, "gpu-02.cluster.local"), "a", [89] * 8)], plan, catalog,
                       default_policy())
    series = 'DCGM_FI_DEV_XID_ERRORS{job="gpu-procure-dcgm",instance="gpu-02.cluster.local:9400",gpu="0"}'
    labels = {"severity": "warning", "job": "gpu-procure-dcgm", "instance": "gpu-02.cluster.local:9400", "gpu": "0"}

    def at(minute: int, xid: int | None) -> dict[str, object]:
        alerts = [] if xid is None else [{"exp_labels": labels, "exp_annotations": {
            "summary": f"Xid {xid} on GPU 0 of gpu-02.cluster.local:9400",
            "description": "The driver reported a new Xid event; look it up in NVIDIA's Xid catalogue "
                           "(docs/verify.md) and the kernel log of the node. The alert ends 10m after the last "
                           "new Xid."}}]
        return {"eval_time": f"{minute}m", "alertname": "GpuXidError", "exp_alerts": alerts}

    # 0 for 5 min, Xid 13 (kept by the gauge for 25 min), then Xid 79 at minute 30
    values = "0x5 13x24 79x10"
    res = promtool_test(tmp_path, h.files["prometheus/gpu-procure-alerts.yml"], [{
        "interval": "1m", "input_series": [{"series": series, "values": values}],
        "alert_rule_test": [at(3, None), at(7, 13), at(20, None), at(29, None), at(32, 79), at(40, 79),
                            at(45, None)]}])
    assert res.returncode == 0, res.stdout + res.stderr


def test_an_exporter_with_the_default_counters_is_told_what_to_enable(tmp_path: Path, plan: Plan,
                                                                      catalog: Catalog) -> None:
    h = build_handover([NodeFacts(node_report(plan, "gpu01"), "a", [89] * 8)], plan, catalog, default_policy())
    rules = h.files["prometheus/gpu-procure-alerts.yml"]
    base = {"job": "gpu-procure-dcgm", "gpu": "0"}

    def s(metric: str, instance: str) -> dict[str, str]:
        return {"series": metric + "{" + ",".join(f'{k}="{v}"' for k, v in dict(base, instance=instance).items())
                + "}", "values": "1x30"}

    # fires for node a only: a's exporter runs dcgm-exporter's default-counters.csv (no ECC, no throttle
    # reasons); node b the handover's file
    series = [s("DCGM_FI_DEV_GPU_TEMP", "a:9400"), s("DCGM_FI_DEV_GPU_TEMP", "b:9400"),
              s("DCGM_FI_DEV_ECC_DBE_VOL_TOTAL", "b:9400"), s("DCGM_FI_DEV_CLOCK_THROTTLE_REASONS", "b:9400")]
    rule = next(r for r in yaml.safe_load(rules)["groups"][0]["rules"] if r["alert"] == "GpuExporterCountersMissing")
    assert "DCGM_FI_DEV_CLOCK_THROTTLE_REASONS, gauge" in rule["annotations"]["description"]
    res = promtool_test(tmp_path, rules, [{"interval": "1m", "input_series": series, "alert_rule_test": [
        {"eval_time": "20m", "alertname": "GpuExporterCountersMissing",
         "exp_alerts": [{"exp_labels": {"severity": "warning", "instance": "a:9400"},
                         "exp_annotations": {
                             "summary": rule["annotations"]["summary"].replace("{{ $labels.instance }}", "a:9400"),
                             "description": rule["annotations"]["description"]}}]}]}])
    assert res.returncode == 0, res.stdout + res.stderr


def test_cli_writes_the_handover_of_judged_reports(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                   catalog: Catalog) -> None:
    plan_path = cluster_plan(tmp_path, nodes=2)
    plan = load_plan(plan_path, catalog)
    reports = tmp_path / "reports"
    reports.mkdir()
    write_report(node_report(plan, "gpu01"), reports / "gpu01.json")
    write_report(node_report(plan, "gpu02", fail="RAM"), reports / "gpu02.json")
    out = tmp_path / "handover"
    assert main(["handover", str(plan_path), str(reports), str(out), "--lang", "en"]) == 1
    assert sorted(str(p.relative_to(out)) for p in out.rglob("*") if p.is_file()
                  and not str(p.relative_to(out)).startswith("operations/")) == [
        "README.txt", "nodes/gpu01/setup.sh", "prometheus/gpu-procure-alerts.yml", "prometheus/prometheus.yml"]
    assert os.access(out / "nodes/gpu01/setup.sh", os.X_OK)
    assert os.access(out / "operations/host-tuning.sh", os.X_OK)  # docs/operations.md
    assert "## Host tuning" in (out / "operations/README.md").read_text(encoding="utf-8")
    text = capsys.readouterr().out
    assert "gpu02: failed: RAM" in text and "gpu01" in text
    # a second run into the same, now full, directory: refused unless --force; nothing half written
    assert main(["handover", str(plan_path), str(reports), str(out)]) == 2
    assert main(["handover", str(plan_path), str(reports), str(out), "--force"]) == 1
    assert not [p for p in out.rglob(".*")]  # no temporary files left behind


def test_cli_takes_a_cluster_report_and_refuses_when_none_passed(tmp_path: Path, catalog: Catalog) -> None:
    plan_path = cluster_plan(tmp_path, nodes=1)
    plan = load_plan(plan_path, catalog)
    cluster = tmp_path / "cluster.json"
    cluster.write_text(json.dumps({"schema_version": 1, "nodes": [
        json.loads(node_report(plan, "gpu07", fail="ECC").model_dump_json())], "checks": []}))
    assert main(["handover", str(plan_path), str(cluster), str(tmp_path / "out")]) == 1
    assert not (tmp_path / "out").exists()

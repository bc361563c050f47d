"""Kubernetes handover: generated from the shipped example, validated against the Kubernetes schemas and promtool."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import jsonschema
import kubernetes_validate
import pytest
import yaml

from catalog.loader import Catalog, load_catalog
from procurement.kubernetes import kubernetes_files, node_name
from procurement.mig import plan_mig
from procurement.plan import Plan, load_plan

EXAMPLES = Path(__file__).parents[2] / "resources" / "examples"
K8S = kubernetes_validate.latest_version()
SCHEMAS = Path(__file__).parents[1] / "fixtures" / "schemas"


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog()


def _example(catalog: Catalog, mig: bool) -> Plan:
    # the reference case that runs Kubernetes + Kubeflow (its notes say so)
    plan = load_plan(EXAMPLES / "dl-training-platform.gpuplan.yaml", catalog)
    plan.operations.orchestrator = "kubernetes"
    if mig:
        plan.requirements.needs_mig = True
        plan.requirements.concurrent_users = 8
    return plan


def _validate(text: str) -> list[dict]:
    docs = [d for d in yaml.safe_load_all(text) if d]
    for doc in docs:
        kubernetes_validate.validate(doc, K8S, strict=True)
    return docs


def test_no_files_unless_the_plan_chooses_kubernetes(catalog: Catalog) -> None:
    plan = load_plan(EXAMPLES / "mid-size-training.gpuplan.yaml", catalog)
    assert kubernetes_files(plan, ["node01"], None) == {}
    # the reference case that runs Kubernetes + Kubeflow chooses it in the shipped example
    reference = load_plan(EXAMPLES / "dl-training-platform.gpuplan.yaml", catalog)
    assert reference.operations.orchestrator == "kubernetes"
    assert "kubernetes/gpu-operator-values.yaml" in kubernetes_files(reference, ["node01"], None)


def test_mig_cluster_files_validate(catalog: Catalog) -> None:
    plan = _example(catalog, mig=True)
    mig, problems = plan_mig(plan)
    assert mig is not None and not problems and mig.layout == ("3g.40gb",) * 2
    files = kubernetes_files(plan, ["GPU-Node01.example.cn"], mig)
    [cm] = _validate(files["kubernetes/mig-config.yaml"])
    parted = yaml.safe_load(cm["data"]["config.yaml"])
    assert parted["mig-configs"]["gpu-procure"][0]["mig-devices"] == {"3g.40gb": 2}
    [pod] = _validate(files["kubernetes/smoke-test-pod.yaml"])
    assert pod["spec"]["containers"][0]["resources"]["limits"] == {"nvidia.com/gpu": 1}  # single strategy
    values = yaml.safe_load(files["kubernetes/gpu-operator-values.yaml"])
    assert values["mig"] == {"strategy": "single"} and values["migManager"]["config"]["name"] == cm["metadata"]["name"]
    assert values["driver"] == {"enabled": False}
    assert "node gpu-node01.example.cn" in files["kubernetes/label-nodes.sh"]
    assert "nvidia.com/mig.config=gpu-procure" in files["kubernetes/label-nodes.sh"]


def test_mixed_strategy_asks_for_a_mig_resource(catalog: Catalog) -> None:
    plan = _example(catalog, mig=True)
    plan.operations.mig_layout = ["3g.40gb", "2g.20gb", "1g.10gb", "1g.10gb"]
    mig, _ = plan_mig(plan)
    files = kubernetes_files(plan, ["node01"], mig)
    [pod] = _validate(files["kubernetes/smoke-test-pod.yaml"])
    assert pod["spec"]["containers"][0]["resources"]["limits"] == {"nvidia.com/mig-1g.10gb": 1}
    assert yaml.safe_load(files["kubernetes/device-plugin-values.yaml"]) == {"migStrategy": "mixed"}


def test_label_script_and_service_monitor_pass_their_tools(catalog: Catalog) -> None:
    plan = _example(catalog, mig=False)
    files = kubernetes_files(plan, ["node01", "node02"], None)
    assert "kubernetes/mig-config.yaml" not in files
    shellcheck = shutil.which("shellcheck")
    assert shellcheck, "shellcheck is installed by make test"
    subprocess.run([shellcheck, "-s", "bash", "-"], input=files["kubernetes/label-nodes.sh"], text=True, check=True)
    monitor = yaml.safe_load(files["kubernetes/dcgm-servicemonitor.yaml"])
    assert monitor["spec"]["endpoints"] == [{"port": "gpu-metrics", "interval": "15s"}]
    validator = _service_monitor_validator()
    validator.validate(monitor)
    broken = {**monitor, "spec": {**monitor["spec"], "endpoint": monitor["spec"]["endpoints"]}}
    with pytest.raises(jsonschema.ValidationError):
        validator.validate(broken)  # a misspelt field is refused, not pruned


def _closed(schema: dict) -> dict:
    """The CRD schema with undeclared fields refused (the API server would drop them without a word)."""
    out = {k: (_closed(v) if isinstance(v, dict) else [_closed(i) if isinstance(i, dict) else i for i in v]
               if isinstance(v, list) else v) for k, v in schema.items() if not k.startswith("x-kubernetes")}
    if "properties" in out:
        out["properties"] = {k: _closed(v) for k, v in schema["properties"].items()}
        out.setdefault("additionalProperties", False)
    return out


def _service_monitor_validator() -> jsonschema.protocols.Validator:
    crd = yaml.safe_load((SCHEMAS / "monitoring.coreos.com_servicemonitors.yaml").read_text())
    [version] = [v for v in crd["spec"]["versions"] if v["name"] == "v1"]
    schema = _closed(version["schema"]["openAPIV3Schema"])
    return jsonschema.Draft7Validator(schema)


def test_validator_rejects_a_broken_manifest() -> None:
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "x"},
                                      "spec": {"containers": [{"image": "x"}]}}, K8S, strict=True)


@pytest.mark.parametrize("bad", ["node 1", "a;rm -rf /", "-x", "x" * 254, ""])
def test_node_names_are_checked(bad: str) -> None:
    with pytest.raises(ValueError):
        node_name(bad)

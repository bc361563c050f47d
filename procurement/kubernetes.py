"""Kubernetes handover for plans that choose it: GPU Operator values, the MIG config map, node labels, scraping.

Keys and names follow NVIDIA's GPU Operator documentation ("Common chart customization options",
https://docs.nvidia.com/datacenter/cloud-native/gpu-operator/latest/getting-started.html; "GPU Operator with
MIG", https://docs.nvidia.com/datacenter/cloud-native/gpu-operator/latest/gpu-operator-mig.html): `mig.strategy`,
`migManager.config.name` naming a ConfigMap whose `config.yaml` is a mig-parted file, the node label
`nvidia.com/mig.config` choosing one of its configs, `dcgmExporter.serviceMonitor.enabled`, and the
dcgm-exporter Service (`app: nvidia-dcgm-exporter`, port `gpu-metrics` 9400). The device plugin's chart
(NVIDIA/k8s-device-plugin README) takes `migStrategy`. Node names come from the accepted reports and are checked
against Kubernetes' DNS-1123 subdomain grammar before they reach a script.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence
from typing import Any

import yaml

from procurement.mig import MigPlan, mig_parted_config
from procurement.plan import Plan, canonical_digest

NAMESPACE = "gpu-operator"
MIG_CONFIG_MAP = "gpu-procure-mig-config"
MIG_CONFIG_NAME = "gpu-procure"
DCGM_SERVICE_LABEL = {"app": "nvidia-dcgm-exporter"}
DCGM_PORT_NAME, DCGM_PORT = "gpu-metrics", 9400
_NODE = re.compile(r"^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?(\.[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?)*$")


def node_name(name: str) -> str:
    """A Kubernetes node name (lower-cased host name), or ValueError when it is not one."""
    low = name.strip().lower()
    if len(low) > 253 or not _NODE.match(low):
        raise ValueError(f"not a Kubernetes node name: {name!r}")
    return low


def _yaml(doc: Any, head: str = "") -> str:
    return head + yaml.safe_dump(doc, sort_keys=False, allow_unicode=True)


def operator_values(plan: Plan, mig: MigPlan | None) -> str:
    """values.yaml for `helm install gpu-operator nvidia/gpu-operator -n gpu-operator -f values.yaml`."""
    values: dict[str, Any] = {
        # the handover's setup.sh installed the plan's driver on the host: the operator must not install another
        "driver": {"enabled": False},
        "toolkit": {"enabled": True},
        "dcgmExporter": {"enabled": True, "serviceMonitor": {"enabled": True}},
    }
    if mig is not None:
        values["mig"] = {"strategy": plan.operations.mig_strategy or mig.strategy}
        values["migManager"] = {"enabled": True, "config": {"name": MIG_CONFIG_MAP, "default": MIG_CONFIG_NAME}}
    head = ("# gpu-procure: NVIDIA GPU Operator values for the plan "
            f"{' '.join((plan.title or '(untitled)').split())} (digest {canonical_digest(plan)[:12]})\n"
            "# helm repo add nvidia https://helm.ngc.nvidia.com/nvidia && helm repo update\n"
            f"# helm install gpu-operator nvidia/gpu-operator -n {NAMESPACE} --create-namespace -f values.yaml\n")
    return _yaml(values, head)


def device_plugin_values(plan: Plan, mig: MigPlan | None) -> str:
    """values.yaml for the device plugin alone (clusters that do not run the GPU Operator)."""
    strategy = (plan.operations.mig_strategy or mig.strategy) if mig is not None else "none"
    head = ("# gpu-procure: NVIDIA device plugin values (without the GPU Operator)\n"
            "# helm repo add nvdp https://nvidia.github.io/k8s-device-plugin && helm repo update\n"
            "# helm install nvdp nvdp/nvidia-device-plugin -n nvidia-device-plugin --create-namespace "
            "-f device-plugin-values.yaml\n")
    return _yaml({"migStrategy": strategy}, head)


def mig_config_map(mig: MigPlan) -> dict[str, Any]:
    config = "".join(line + "\n" for line in mig_parted_config(mig, MIG_CONFIG_NAME).splitlines()
                     if not line.startswith("#"))
    return {"apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {"name": MIG_CONFIG_MAP, "namespace": NAMESPACE},
            "data": {"config.yaml": config}}


def service_monitor() -> dict[str, Any]:
    """A Prometheus Operator ServiceMonitor for dcgm-exporter (when the operator's own is not enabled)."""
    return {"apiVersion": "monitoring.coreos.com/v1", "kind": "ServiceMonitor",
            "metadata": {"name": "gpu-procure-dcgm-exporter", "namespace": NAMESPACE},
            "spec": {"selector": {"matchLabels": dict(DCGM_SERVICE_LABEL)},
                     "namespaceSelector": {"matchNames": [NAMESPACE]},
                     "endpoints": [{"port": DCGM_PORT_NAME, "interval": "15s"}]}}


def smoke_test_pod(mig: MigPlan | None, strategy: str | None) -> dict[str, Any]:
    """A pod that asks for one GPU (or one MIG instance) and prints nvidia-smi -L: the cluster's acceptance."""
    resource = "nvidia.com/gpu"
    if mig is not None and (strategy or mig.strategy) == "mixed":
        resource = f"nvidia.com/mig-{mig.layout[-1]}"
    return {"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": "gpu-procure-smoke-test", "namespace": "default"},
            "spec": {"restartPolicy": "Never",
                     "containers": [{"name": "cuda", "image": "nvcr.io/nvidia/cuda:12.4.1-base-ubuntu22.04",
                                     "command": ["nvidia-smi", "-L"],
                                     "resources": {"limits": {resource: 1}}}]}}


def label_script(plan: Plan, nodes: Sequence[str], mig: MigPlan | None) -> str:
    """kubectl lines that label the accepted nodes (the MIG config the mig-manager applies, and the plan)."""
    q = shlex.quote
    names = [node_name(n) for n in nodes]
    labels = [f"gpu-procure/plan={canonical_digest(plan)[:12]}"]
    if mig is not None:
        labels.append(f"nvidia.com/mig.config={MIG_CONFIG_NAME}")
    lines = ["#!/bin/bash", "# gpu-procure: label the accepted GPU nodes", "set -euo pipefail"]
    if mig is not None:
        lines.append("kubectl apply -f mig-config.yaml")
    lines += [f"kubectl label node {q(n)} {' '.join(q(label) for label in labels)} --overwrite" for n in names]
    return "\n".join(lines) + "\n"


def kubernetes_files(plan: Plan, nodes: Sequence[str], mig: MigPlan | None) -> dict[str, str]:
    """Every file of the Kubernetes handover, by path under kubernetes/ (empty when the plan does not choose it)."""
    if plan.operations.orchestrator != "kubernetes":
        return {}
    files = {
        "kubernetes/gpu-operator-values.yaml": operator_values(plan, mig),
        "kubernetes/device-plugin-values.yaml": device_plugin_values(plan, mig),
        "kubernetes/dcgm-servicemonitor.yaml": _yaml(service_monitor()),
        "kubernetes/smoke-test-pod.yaml": _yaml(smoke_test_pod(mig, plan.operations.mig_strategy)),
        "kubernetes/label-nodes.sh": label_script(plan, nodes, mig),
    }
    if mig is not None:
        files["kubernetes/mig-config.yaml"] = _yaml(mig_config_map(mig))
    return files

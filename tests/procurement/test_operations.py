"""The operations handover from each shipped example: every script passes shellcheck, the README says why."""

from __future__ import annotations

import copy
import datetime as dt
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from catalog.loader import Catalog, load_catalog
from procurement.operations import operations_files
from procurement.plan import ApplicationClocks, load_plan
from procurement.verify.collect import raw
from procurement.verify.judge import judge

EXAMPLES = Path(__file__).parents[2] / "resources" / "examples"
DAY = dt.date(2026, 5, 9)


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog()


def _tool(name: str) -> str:
    found = shutil.which(name) or shutil.which(name, path=str(Path(sys.executable).parent))
    assert found, f"{name} is installed by make test"
    return found


@pytest.mark.parametrize("example", sorted(p.name for p in EXAMPLES.glob("*.gpuplan.yaml")))
def test_every_example_gets_valid_operations_files(example: str, catalog: Catalog) -> None:
    plan = load_plan(EXAMPLES / example, catalog)
    files = operations_files(plan, catalog, ["node01"], "en", DAY)
    readme = files["operations/README.md"]
    assert "## Host tuning" in readme and "## Framework settings" in readme
    assert "| cpu_governor | performance | default |" in readme
    # how to judge the machines once the setup has run: each wrapper's own after-setup option
    assert "`gpu-procure judge DIR --after-setup`" in readme and "`AFTER_SETUP=1`" in readme
    assert "`-e after_setup=true`" in readme
    for path, text in files.items():
        if path.endswith(".sh"):
            subprocess.run([_tool("shellcheck"), "-s", "bash", "-"], input=text, text=True, check=True)
        elif path.endswith("Dockerfile"):
            res = subprocess.run([_tool("hadolint"), "--no-color", "-"], input=text, text=True, capture_output=True)
            assert res.returncode == 0, res.stdout
        elif path.endswith((".yaml", ".yml")):
            yaml.safe_load_all(text)
    if "operations/image/Dockerfile" in files:
        assert "trivy image --severity HIGH,CRITICAL" in readme and "docker image prune" in readme


def test_a_mig_kubernetes_plan_gets_its_layout_and_cluster_files(catalog: Catalog) -> None:
    plan = load_plan(EXAMPLES / "dl-training-platform.gpuplan.yaml", catalog)
    plan.requirements.needs_mig, plan.requirements.concurrent_users = True, 12
    plan.operations.orchestrator = "kubernetes"
    files = operations_files(plan, catalog, ["node01"], "en", DAY)
    assert "-cgi 14,14,14 -C" in files["operations/mig-create.sh"]
    assert "4 × GPU, each split into 2g.20gb + 2g.20gb + 2g.20gb" in files["operations/README.md"]
    assert {"kubernetes/gpu-operator-values.yaml", "kubernetes/mig-config.yaml",
            "kubernetes/label-nodes.sh"} <= set(files)
    assert "pytorch-2.4-cuda12.4-20260509" in files["operations/README.md"]


def test_ecc_off_and_clocks_carry_the_warning_into_the_readme(catalog: Catalog) -> None:
    plan = load_plan(EXAMPLES / "llm-cluster-node.gpuplan.yaml", catalog)
    plan.operations.host.ecc = "off"
    plan.operations.host.application_clocks = ApplicationClocks(memory_mhz=2619, graphics_mhz=1980)
    readme = operations_files(plan, catalog, [], "en", DAY)["operations/README.md"]
    assert "ECC is switched off because the plan asks for it" in readme and "silently corrupts" in readme
    assert "Application clocks are fixed because the plan asks for it" in readme
    assert "| ecc | off | the plan |" not in readme  # ECC is not a defaulted choice: said in its own words


FIX = Path(__file__).parents[1] / "fixtures"


def test_the_verify_checks_judge_the_handovers_tuning_on_raw_facts(catalog: Catalog) -> None:
    """The handover's choices are judged by verify's own checks (operations_checks, a copy without the
    before/after-setup rule and without the `nvidia-smi -L` fallback, is gone): warn before the setup,
    fail after it, unknown when unread; MIG read from `-L` when `mig -lgi` is not there."""
    vm = FIX / "host" / "vm-2cpu-no-cpufreq"
    h100_xml = (FIX / "nvidia-smi" / "k8s-test-infra_8x-h100-80gb-hbm3_580.105.08_v13.xml").read_text()
    doc = raw.new_raw()
    doc["commands"]["nvidia_smi_q"] = raw.result(["nvidia-smi", "-q", "-x"], 0, h100_xml)
    doc["commands"]["nvidia_smi_mig_lgi"] = raw.result(["nvidia-smi", "mig", "-lgi"], 6,
                                                       "No MIG-enabled devices found.\n")
    doc["files"] = {"/proc/meminfo": (vm / "proc_meminfo").read_text(), "/proc/mounts": None}
    plan = load_plan(EXAMPLES / "llm-cluster-node.gpuplan.yaml", catalog)  # 8 × H100 SXM
    plan.operations.host.ecc = "on"

    def statuses(after_setup: bool) -> dict[str, str]:
        rep = judge(copy.deepcopy(doc), plan, catalog, None, "en", after_setup)
        return {c.id: c.status for c in rep.checks if c.id.startswith(("TUNE-", "MIG-LAYOUT"))}

    for after_setup in (False, True):
        results = statuses(after_setup)
        assert results["TUNE-SWAP"] == "pass" and results["TUNE-DATA-MOUNT"] == "unknown"
        assert results["TUNE-ECC"] == "pass"  # the capture's eight GPUs report ECC enabled
        assert results["MIG-LAYOUT"] == "pass"  # no MIG planned, none found
    plan.operations.mig_layout = ["3g.40gb", "3g.40gb"]
    assert statuses(False)["MIG-LAYOUT"] == "warn" and statuses(True)["MIG-LAYOUT"] == "fail"
    doc["commands"].pop("nvidia_smi_mig_lgi")
    assert statuses(True)["MIG-LAYOUT"] == "unknown"
    # `nvidia-smi -L` (no root needed) lists the instances when `mig -lgi` was not run
    listing = (FIX / "nvidia-smi" / "utkuozdemir_h100-mig_590.48.01_list-L.txt").read_text()  # a real capture
    doc["commands"]["nvidia_smi_list"] = raw.result(["nvidia-smi", "-L"], 0, listing)
    (listed,) = [c for c in judge(doc, plan, catalog, None, "en", True).checks if c.id == "MIG-LAYOUT"]
    assert listed.status == "fail"  # read from -L: one GPU split 3g+2g+1g+1g, where the plan has 3g.40gb × 2
    assert listed.message.startswith("GPU 0: found 3g.40gb + 2g.20gb + 1g.10gb + 1g.10gb, planned 3g.40gb + 3g.40gb")

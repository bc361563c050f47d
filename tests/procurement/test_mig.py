"""The MIG planner: profile tables against real `nvidia-smi mig` captures, layouts, commands and the node check."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from procurement.mig import (
    GEOMETRIES,
    MigReadError,
    check_instances,
    create_script,
    fits,
    geometry,
    mig_parted_config,
    parse_instances,
    plan_mig,
)
from procurement.plan import Plan

FIX = Path(__file__).parents[1] / "fixtures" / "nvidia-smi"
MIG = FIX / "mig"


def _plan(gpu: str, count: int, **ops: object) -> Plan:
    plan = Plan()
    plan.gpu.model, plan.gpu.count = gpu, count
    for key, value in ops.items():
        if key in ("needs_mig", "concurrent_users"):
            setattr(plan.requirements, key, value)
        else:
            setattr(plan.operations, key, value)
    return plan


def test_a100_40gb_table_is_what_nvidia_smi_lists() -> None:
    text = (MIG / "seansiddens_a100-sxm4-40gb_450.80.02_lgip.txt").read_text()
    rows = re.findall(r"^\|\s+0\s+MIG (\S+)\s+(\d+)\s+\d+/(\d+)", text, re.M)
    listed = {name: (int(pid), int(total)) for name, pid, total in rows}
    geo = GEOMETRIES["a100-sxm4-40gb"]
    assert {p.name: (p.profile_id, p.max_instances) for p in geo.profiles} == listed


def test_a30_placements_are_what_nvidia_smi_lists() -> None:
    text = (MIG / "summer-lo_a30_lgipp_blank-lines.txt").read_text()
    found = {int(pid): (tuple(int(s) for s in starts.split(",")), int(size))
             for pid, starts, size in re.findall(r"Profile ID\s+(\d+) Placements?\s*: \{([\d,]+)\}:(\d+)", text)}
    geo = GEOMETRIES["a30"]
    assert {p.profile_id: (p.starts, p.memory_slices) for p in geo.profiles} == found


def test_captured_layouts_fit_the_model_and_impossible_ones_do_not() -> None:
    a100 = GEOMETRIES["a100-sxm4-40gb"]
    assert fits(a100, ["3g.20gb", "3g.20gb"]) == [("3g.20gb", 0), ("3g.20gb", 4)]
    h100 = GEOMETRIES["h100-sxm5-80gb"]
    # the layout of the H100 capture (utkuozdemir): 3g + 2g + 1g + 1g fills all seven compute slices
    assert fits(h100, ["3g.40gb", "2g.20gb", "1g.10gb", "1g.10gb"]) is not None
    assert fits(h100, ["4g.40gb", "3g.40gb", "1g.10gb"]) is None  # eight compute slices
    assert fits(h100, ["4g.40gb", "4g.40gb"]) is None  # one 4g at most
    assert fits(a100, ["3g.20gb", "3g.20gb", "1g.5gb"]) is None  # every memory slice taken
    assert fits(GEOMETRIES["a30"], ["2g.12gb", "1g.6gb", "1g.6gb"]) is not None


def test_parse_lgi_capture_and_blank_line_copy() -> None:
    assert parse_instances((MIG / "seansiddens_a100-sxm4-40gb_450.80.02_lgi_2x3g.txt").read_text()) == {
        0: ["3g.20gb", "3g.20gb"]}
    assert parse_instances((MIG / "summer-lo_a30_lgi_4x1g_blank-lines.txt").read_text()) == {0: ["1g.6gb"] * 4}


def test_parse_list_capture() -> None:
    assert parse_instances((FIX / "utkuozdemir_h100-mig_590.48.01_list-L.txt").read_text()) == {
        0: ["3g.40gb", "2g.20gb", "1g.10gb", "1g.10gb"]}


@pytest.mark.parametrize("text", [None, "", "Failed to initialize NVML: Driver/library version mismatch\n"])
def test_unreadable_output_is_an_error(text: str | None) -> None:
    with pytest.raises(MigReadError):
        parse_instances(text)


def test_check_passes_the_planned_layout_and_fails_another() -> None:
    text = (FIX / "utkuozdemir_h100-mig_590.48.01_list-L.txt").read_text()
    mig, problems = plan_mig(_plan("h100-sxm5-80gb", 1, mig_layout=["1g.10gb", "3g.40gb", "1g.10gb", "2g.20gb"]))
    assert mig is not None and not problems
    assert mig.layout == ("3g.40gb", "2g.20gb", "1g.10gb", "1g.10gb") and mig.strategy == "mixed"
    [res] = check_instances(mig, text)
    assert res.status == "pass"
    other, _ = plan_mig(_plan("h100-sxm5-80gb", 1, mig_layout=["3g.40gb", "3g.40gb"]))
    [res] = check_instances(other, text)
    assert res.status == "fail" and "planned 3g.40gb + 3g.40gb" in res.message


def test_check_fails_a_gpu_without_instances_and_is_unknown_when_unread() -> None:
    mig, _ = plan_mig(_plan("a100-sxm4-40gb", 2, mig_layout=["3g.20gb", "3g.20gb"]))
    results = check_instances(mig, (MIG / "seansiddens_a100-sxm4-40gb_450.80.02_lgi_2x3g.txt").read_text())
    assert [r.status for r in results] == ["pass", "fail"]
    assert [r.status for r in check_instances(mig, None)] == ["unknown"]
    assert [r.status for r in check_instances(mig, "No GPU instances found: Not Found\n")] == ["fail", "fail"]


def test_planner_spreads_users_over_gpus() -> None:
    mig, problems = plan_mig(_plan("a100-pcie-80gb", 4, needs_mig=True, concurrent_users=12))
    assert mig is not None and not problems
    assert mig.layout == ("2g.20gb",) * 3 and mig.strategy == "single"
    mig, problems = plan_mig(_plan("a30", 1, needs_mig=True, concurrent_users=9))
    assert mig is not None and mig.layout == ("1g.6gb",) * 4 and problems  # nine users cannot each have one


def test_planner_refuses_what_does_not_fit_and_unknown_gpus() -> None:
    _, problems = plan_mig(_plan("h100-sxm5-80gb", 1, mig_layout=["4g.40gb", "3g.40gb", "1g.10gb"]))
    assert problems and "do not fit" in problems[0]
    _, problems = plan_mig(_plan("h100-sxm5-80gb", 1, mig_layout=["3g.20gb"]))
    assert problems and "not a MIG profile" in problems[0]
    mig, problems = plan_mig(_plan("a800-pcie-80gb", 1, needs_mig=True))
    assert mig is None and problems and "No MIG profile table" in problems[0]
    assert plan_mig(_plan("h100-sxm5-80gb", 8)) == (None, [])


def test_create_script_passes_shellcheck_and_dry_runs() -> None:
    mig, _ = plan_mig(_plan("h100-sxm5-80gb", 2, mig_layout=["3g.40gb", "2g.20gb", "1g.10gb", "1g.10gb"]))
    assert mig is not None
    script = create_script(mig)
    shellcheck = shutil.which("shellcheck")
    assert shellcheck, "shellcheck is installed by make test"
    subprocess.run([shellcheck, "-s", "bash", "-"], input=script, text=True, check=True)
    out = subprocess.run(["bash", "-s", "--", "--dry-run"], input=script, text=True, capture_output=True,
                         check=True).stdout
    assert "+ nvidia-smi mig -i 1 -cgi 9,14,19,19 -C" in out and "+ nvidia-smi -i 0 -mig 1" in out


def test_mig_parted_config_holds_the_layout() -> None:
    mig, _ = plan_mig(_plan("a100-sxm4-80gb", 8, mig_layout=["1g.10gb"] * 7))
    assert mig is not None
    doc = yaml.safe_load(mig_parted_config(mig))
    assert doc["version"] == "v1"
    [entry] = doc["mig-configs"]["gpu-procure"]
    assert entry == {"devices": "all", "mig-enabled": True, "mig-devices": {"1g.10gb": 7}}
    assert geometry("a100-sxm4-80gb") is not None


def test_profile_tables_agree_with_the_catalog() -> None:
    from catalog.loader import load_catalog
    from catalog.models import Gpu

    catalog = load_catalog()
    for gpu_id, geo in GEOMETRIES.items():
        gpu = catalog.gpu(gpu_id)
        assert gpu is not None, gpu_id
        most = max(p.max_instances for p in geo.profiles)
        assert gpu.mig_max == most, (gpu_id, gpu.mig_max, most)
        # every profile's memory fits the GPU's memory (the names are GB, the catalog GiB)
        assert max(p.memory_gb for p in geo.profiles) <= gpu.memory_gib * 1.074 + 1, gpu_id
    capable = {g.id for g in catalog.all(Gpu) if g.mig_max}
    # no profile table (no layout rather than a guess): the H20, and the GB200 added to the catalog after the
    # tables were checked against real `nvidia-smi mig -lgip` captures
    assert capable - set(GEOMETRIES) == {"h20-96gb", "gb200"}, "a MIG-capable GPU without a profile table is named here"

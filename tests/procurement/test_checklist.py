"""Checklist items: status, reason and numbers from the plan, the findings and verification (sign-offs:
test_signoff.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from catalog.loader import Catalog, load_catalog
from procurement.checklist import (
    ITEM_IDS,
    NBSP,
    Status,
    build_checklists,
    confirm,
    fmt_num,
    item_for_check,
    items_for_finding,
    mark,
    power_figures,
)
from procurement.findings import Finding, Severity
from procurement.plan import Plan, load_plan, with_value
from procurement.policy import default_policy

DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="module")
def cat() -> Catalog:
    return load_catalog(data_dir=DATA / "reports_catalog")


@pytest.fixture()
def plan(cat: Catalog) -> Plan:
    return load_plan(DATA / "reports_plan.gpuplan.yaml", cat)


def items(plan: Plan, cat: Catalog, findings: list[Finding] | None = None, lang: str = "zh"):  # type: ignore[no-untyped-def]
    cls = build_checklists(plan, cat, findings or [], lang=lang)  # type: ignore[arg-type]
    return {i.id: i for c in cls.values() for i in c.items}


def plain(text: str) -> str:
    return text.replace(NBSP, " ")


def test_every_item_is_listed_once_in_its_checklist(plan: Plan, cat: Catalog) -> None:
    cls = build_checklists(plan, cat, [])
    assert [i.id for i in cls["hardware"].items] == [
        "gpu_model_count",
        "gpu_vram",
        "cpu_cores",
        "ram",
        "storage_nvme",
        "network",
        "psu_power",
        "cooling",
    ]
    assert [i.id for i in cls["software"].items] == [
        "os_driver",
        "cuda_gpu",
        "framework_installed",
        "preinstalled_software",
        "image_trusted",
    ]
    assert len(ITEM_IDS) == 13
    assert cls["hardware"].title == "硬件检查清单"
    assert build_checklists(plan, cat, [], lang="en")["software"].title == "Software checklist"


def test_power_item_shows_need_and_available_watts(plan: Plan, cat: Catalog) -> None:
    # Per server: 4 × L40S 350 W + 1 × EPYC 9554 360 W + 8 DIMMs × 2.5 W + 3 NVMe × 15 W + 2 HDD × 10 W
    # + 1 × ConnectX-7 40 W = 1400 + 360 + 20 + 45 + 20 + 40 = 1885 W, plus the rack chassis' fans (policy
    # share of the parts); with 20 % headroom. 4 × 1800 W (200-240 V) in N+N: 2 usable.
    policy = default_policy()
    draw = 1885 * (1 + policy.fan_power_pct / 100)
    need = draw * 1.2
    pf = power_figures(plan, cat, policy)
    assert pf.draw_w == pytest.approx(draw)
    assert pf.need_w == pytest.approx(need)
    assert pf.available_w == 3600 and pf.usable_units == 2 and pf.redundant_units == 2
    item = items(plan, cat)["psu_power"]
    assert item.status == Status.PASS
    assert f"需 {fmt_num(round(need))} W" in item.reason and "可用 3,600 W" in plain(item.reason)
    assert f"估算 {fmt_num(round(draw))} W" in item.reason
    en = items(plan, cat, lang="en")["psu_power"]
    assert f"needs {fmt_num(round(need))} W" in en.reason and "3,600 W available" in plain(en.reason)


def test_power_fails_when_psus_cannot_carry_the_draw(plan: Plan, cat: Catalog) -> None:
    # N+1 with 2 units: 1 × 1800 W usable < 1885 W drawn.
    p = with_value(with_value(plan, "server.psu.count", 2), "server.psu.redundancy", "n+1")
    assert items(p, cat)["psu_power"].status == Status.FAIL
    # Low line (100-127 V), three GPUs, without the HDDs and the NIC: 1050 + 360 + 20 + 45 = 1475 W, + 15 % fans
    # = 1696 W ≤ 2 × 1000 W = 2000 W < 1696 W × 1.2 = 2036 W with headroom → attention.
    p = with_value(plan, "server.psu.count", 2)
    p = with_value(p, "server.psu.redundancy", "none")
    p = with_value(p, "server.input_voltage", "100-127")
    p = with_value(p, "gpu.count", 3)
    p = with_value(p, "server.storage", [s.model_dump(mode="json") for s in plan.server.storage[:2]])
    p = with_value(p, "server.nics", [])
    assert default_policy().fan_power_pct == 15
    item = items(p, cat)["psu_power"]
    assert item.status == Status.ATTENTION
    assert "可用 2,000 W" in plain(item.reason)


def test_cpu_ram_network_storage_numbers(plan: Plan, cat: Catalog) -> None:
    it = items(plan, cat)
    # 64 cores for 4 GPUs (≥ 2 × 4 = 8); 8 × 64 GiB = 512 GiB RAM vs 4 × 48 = 192 GiB VRAM (≥ 384 GiB).
    assert it["cpu_cores"].status == Status.PASS and "64 核" in it["cpu_cores"].reason
    assert "≥ 8 核" in it["cpu_cores"].reason
    assert it["ram"].status == Status.PASS and "512 GiB" in it["ram"].reason and "≥ 384 GiB" in it["ram"].reason
    assert it["network"].status == Status.PASS and "400 Gb/s" in it["network"].reason
    assert it["storage_nvme"].status == Status.PASS
    # 4 DIMMs = 256 GiB < 384 GiB → attention; 25 GbE for 2 nodes < 100 Gb/s → fail; HDD data → attention.
    p = with_value(plan, "server.memory.count", 4)
    p = with_value(p, "server.nics", [{"part": "eth-25g", "count": 1}])
    p = with_value(p, "server.storage[1].part", "hdd-16t")
    it = items(p, cat)
    assert it["ram"].status == Status.ATTENTION and "256 GiB" in it["ram"].reason
    assert it["network"].status == Status.FAIL and "25 Gb/s" in it["network"].reason
    assert it["storage_nvme"].status == Status.ATTENTION and "16TB SATA HDD" in it["storage_nvme"].reason


def test_unchosen_parts_are_unknown_or_fail(cat: Catalog) -> None:
    it = items(Plan(), cat)
    assert it["gpu_model_count"].status == Status.FAIL
    assert it["gpu_model_count"].reason == "未选择 GPU"  # a space between Chinese and Latin text
    for key in (
        "gpu_vram",
        "cpu_cores",
        "ram",
        "storage_nvme",
        "psu_power",
        "cooling",
        "os_driver",
        "cuda_gpu",
    ):
        assert it[key].status == Status.UNKNOWN, key


def test_cooling_and_software_compatibility(plan: Plan, cat: Catalog) -> None:
    it = items(plan, cat)
    assert it["cooling"].status == Status.PASS and "GPU 350 W" in it["cooling"].reason
    assert it["os_driver"].status == Status.PASS
    assert it["cuda_gpu"].status == Status.PASS and "535.104.05 ≥ 535.54.03" in it["cuda_gpu"].reason
    # H100 SXM (700 W) in a PCIe chassis limited to 400 W per slot.
    hot = with_value(plan, "gpu.model", "h100-sxm5-80g")
    assert items(hot, cat)["cooling"].status == Status.FAIL
    # CUDA 12.4 needs ≥ 550.54.14; R535 ships 535.104.05.
    old = with_value(plan, "software.cuda", "cuda-12.4")
    item = items(old, cat)["cuda_gpu"]
    assert item.status == Status.FAIL and "550.54.14" in item.reason
    # Ubuntu 20.04 is not in the driver guide's list.
    assert items(with_value(plan, "software.os", "ubuntu-20.04"), cat)["os_driver"].status == Status.FAIL


def test_person_judged_items_follow_the_tick(plan: Plan, cat: Catalog) -> None:
    it = items(plan, cat)
    # PyTorch 2.4 has CUDA 11.8/12.1/12.4 builds, not 12.2: a fault a tick cannot override.
    assert it["framework_installed"].status == Status.FAIL
    assert "12.2" in it["framework_installed"].reason
    assert it["preinstalled_software"].status == Status.UNKNOWN
    assert "待人工确认" in it["preinstalled_software"].reason
    assert it["image_trusted"].status == Status.PASS and it["image_trusted"].checked
    assert it["image_trusted"].note.startswith("已核对镜像摘要")
    ticked = mark(plan, "preinstalled_software", True, "ok")
    assert ticked.checklist["image_trusted"].checked  # other marks kept
    # the fixture image records no driver floor: what it holds is unknown, so a bare tick proves nothing
    bare = items(ticked, cat)["preinstalled_software"]
    assert bare.status == Status.UNKNOWN and bare.needs_confirmation and "未填写确认人" in bare.reason
    named = items(confirm(plan, "preinstalled_software", "王工", "核对了 24.05 发布说明"), cat)["preinstalled_software"]
    assert named.status == Status.CONFIRMED and named.confirmed_by == "王工" and "未填写确认人" not in named.reason
    # with the image's contents recorded, the tick is the person's pass
    image = cat.parts["image"]["ngc-pytorch-24.05"]
    known = Catalog(parts={k: dict(v) for k, v in cat.parts.items()})
    known.parts["image"][image.id] = image.model_copy(update={"min_driver_linux": "545"})
    it_known = items(ticked, known)["preinstalled_software"]
    assert it_known.status == Status.PASS and not it_known.needs_confirmation
    fixed = with_value(plan, "software.cuda", "cuda-12.4")
    fixed = with_value(fixed, "software.driver", None)
    assert items(fixed, cat)["framework_installed"].status == Status.UNKNOWN  # no fault: waits for a person
    untrusted = with_value(plan, "software.image", "random-pytorch")
    assert items(untrusted, cat)["image_trusted"].status == Status.FAIL  # ticked, but not an official registry


def finding(rule: str, family: str, severity: Severity, fields: tuple[str, ...], message: str) -> Finding:
    return Finding.of_text(rule=rule, family=family, severity=severity, step=3, fields=fields, message=message)  # type: ignore[arg-type]


def test_findings_map_to_items() -> None:
    w = Severity.WARNING
    # Known rule ids map exactly, whatever fields they list second.
    assert items_for_finding(
        finding("SW-FRAMEWORK-CUDA", "software", w, ("software.framework", "software.cuda"), "")
    ) == {"framework_installed"}
    assert items_for_finding(finding("SW-DRIVER-CUDA", "software", w, ("software.driver", "software.cuda"), "")) == {
        "cuda_gpu"
    }
    assert items_for_finding(finding("LIC-GEFORCE-DATACENTER", "licensing", w, ("gpu.model",), "")) == {
        "gpu_model_count"
    }
    assert items_for_finding(finding("BUDGET-OVER", "budget", w, ("requirements.budget_cny", "gpu.count"), "")) == set()
    # The image's trust has its own rule and item (no fuzzy "TRUST" in the id any more).
    assert items_for_finding(finding("SW-IMAGE-UNTRUSTED", "software", w, ("software.image",), "")) == {
        "image_trusted"}
    # SW-INCOMPLETE bears on the item of the choice it says is missing.
    assert items_for_finding(finding("SW-INCOMPLETE", "software", w, ("software.cuda",), "")) == {"cuda_gpu"}
    assert items_for_finding(finding("SW-INCOMPLETE", "software", w, ("software.driver",), "")) == {"os_driver"}
    # A rule that could not run: the item its family's rules share, if any; undeclared ids map nowhere.
    assert items_for_finding(finding("POWER-INTERNAL", "power", w, (), "")) == {"psu_power"}
    assert items_for_finding(finding("BALANCE-INTERNAL", "balance", w, (), "")) == set()
    assert items_for_finding(finding("SW-NEW", "software", w, ("software.image",), "")) == set()


def test_findings_set_status_and_reason(plan: Plan, cat: Catalog) -> None:
    findings = [
        finding("POWER-PSU-CAPACITY", "power", Severity.ERROR, ("server.psu.count",), "电源不足。"),
        finding("BALANCE-RAM", "balance", Severity.WARNING, ("server.memory.count",), "内存偏少"),
        finding("SW-IMAGE-UNTRUSTED", "software", Severity.WARNING, ("software.image",), "来源"),
        finding("PCIE-LANES", "pcie", Severity.INFO, ("gpu.count",), "信息"),
    ]
    it = items(plan, cat, findings)
    assert it["psu_power"].status == Status.FAIL and "错误：电源不足" in it["psu_power"].reason
    assert "。；" not in it["psu_power"].reason
    assert it["psu_power"].rules == ("POWER-PSU-CAPACITY",)
    assert it["ram"].status == Status.ATTENTION and "警告：内存偏少" in it["ram"].reason
    assert it["image_trusted"].status == Status.ATTENTION
    assert it["gpu_model_count"].status == Status.PASS  # info does not change a status
    assert "信息" not in it["gpu_model_count"].reason
    assert it["gpu_model_count"].rules == ("PCIE-LANES",)


def test_verification_report_shows_what_the_machine_has(plan: Plan, cat: Catalog) -> None:
    report = {
        "schema_version": 1,
        "gpus": [{"index": i, "name": "NVIDIA L40S"} for i in range(3)],
        "checks": [  # ids and shape as `gpu-procure verify --json` writes them
            {"id": "GPU-COUNT", "status": "fail", "expected": "4", "actual": "3", "message": "3 of 4 GPUs"},
            {"id": "DRIVER-BRANCH", "status": "pass", "expected": "R535", "actual": "535.104.05", "message": ""},
            {
                "id": "FRAMEWORK",
                "status": "pass",
                "expected": "PyTorch 2.4",
                "actual": "torch 2.4.0+cu121",
                "message": "",
            },
            {"id": "RAM", "status": "warn", "expected": "512", "actual": "503 GiB", "message": ""},
            {"id": "MEMORY-RETIRED", "status": "pass", "expected": "No", "actual": "No", "message": ""},
            {"id": "ECC", "status": "skip", "expected": None, "actual": None, "message": "skipped"},
            {"id": "SOMETHING-ELSE", "status": "fail", "expected": "", "actual": "x", "message": ""},
        ],
    }
    p = with_value(plan, "verification", [report])
    it = items(p, cat)
    assert it["gpu_model_count"].status == Status.FAIL
    assert "3 × NVIDIA L40S" in it["gpu_model_count"].verified
    assert "实测" in it["gpu_model_count"].verified
    assert it["os_driver"].status == Status.PASS and "535.104.05" in it["os_driver"].verified
    assert it["ram"].status == Status.ATTENTION and "503 GiB" in it["ram"].verified
    assert it["gpu_vram"].verified == "实测：No"  # a skipped check adds nothing
    assert item_for_check("SOMETHING-ELSE") is None
    assert item_for_check("MEMORY-RETIRED") == "gpu_vram" and item_for_check("DRIVER-MIN") == "cuda_gpu"
    # Ids of other report writers: by prefix.
    assert item_for_check("gpu.memory") == "gpu_vram" and item_for_check("cuda_version") == "cuda_gpu"


def test_unknown_catalog_figures_are_not_guessed(plan: Plan, cat: Catalog) -> None:
    # A chassis whose per-slot cooling limit the catalog does not have: the item says so, it does not pass.
    chassis = cat.parts["chassis"]["gpu-4u-pcie"]
    patched = Catalog(parts={k: dict(v) for k, v in cat.parts.items()})
    patched.parts["chassis"]["gpu-4u-pcie"] = chassis.model_copy(update={"max_gpu_tdp_w": None})
    item = items(plan, patched)["cooling"]
    assert item.status == Status.UNKNOWN and "散热上限未知" in item.reason


def test_power_counts_policy_figures_where_the_catalog_has_none(plan: Plan, cat: Catalog) -> None:
    policy = default_policy()
    mem = cat.parts["memory"]["ddr5-64g-4800-rdimm"]
    patched = Catalog(parts={k: dict(v) for k, v in cat.parts.items()})
    patched.parts["memory"]["ddr5-64g-4800-rdimm"] = mem.model_copy(update={"power_w": None})
    # 8 DIMMs at the policy's planning figure instead of 2.5 W each.
    draw = (1885 - 8 * 2.5 + 8 * policy.dimm_w_fallback) * (1 + policy.fan_power_pct / 100)
    assert power_figures(plan, patched, policy).draw_w == pytest.approx(draw)
    item = items(plan, patched)["psu_power"]
    assert "按政策规划值估算（无厂商数据）：64GB DDR5-4800 RDIMM" in item.reason


def test_low_line_without_a_known_rating_is_unknown_not_failed(catalog: Catalog) -> None:
    from tests.conftest import EXAMPLES

    plan = load_plan(EXAMPLES / "personal-research.gpuplan.yaml", catalog)
    low = with_value(plan, "server.input_voltage", "100-127")
    # the Corsair HX1500i's 100-127 V output is not in the catalog (low_line: unknown)
    pf = power_figures(low, catalog, default_policy())
    assert pf.low_line_unknown and not pf.low_line_unsupported
    item = items(low, catalog)["psu_power"]
    assert item.status == Status.UNKNOWN and "100-127 V" in plain(item.reason)
    assert items(plan, catalog)["psu_power"].status == Status.PASS  # 775 W × 1.2 on 1500 W at 200-240 V


def test_vram_item_gives_the_memory_per_gpu_in_gib_and_in_gb(catalog: Catalog) -> None:
    """Each GPU's share under the plan's scheme against one GPU (never the GPUs' memory summed), in GiB and GB."""
    from procurement.sizing.plan_sizing import size_plan

    plan = load_plan(Path(__file__).resolve().parents[2] / "resources/examples/mid-size-training.gpuplan.yaml",
                     catalog)
    sized = size_plan(plan, catalog, default_policy().vram_margin_pct)
    assert sized is not None and sized.fits is True
    item = items(plan, catalog, lang="en")["gpu_vram"]
    assert item.status == Status.PASS
    text = plain(item.reason)
    need_gb = sized.memory.total  # the need; the fit is judged with the margin
    assert (f"each GPU needs {fmt_num(round(need_gb / 1.073741824, 1))} GiB ({need_gb:,.1f} GB, "
            f"{sized.with_margin_gb:,.1f} GB with the margin") in text
    assert f"4 GPUs as {sized.parallel.label()}" in text and "TP2 + PP2" in text and "40 GiB per GPU" in text
    # two of the four A100s cannot hold a 7B full fine-tune per GPU, although 80 GiB > the old 145 GB / 2
    two = plan.model_copy(update={"gpu": plan.gpu.model_copy(update={"count": 2})})
    assert items(two, catalog, lang="en")["gpu_vram"].status == Status.FAIL


def test_english_counts_agree_with_their_nouns() -> None:
    import procurement.commands.check
    import procurement.verification_texts  # noqa: F401
    from procurement.messages import t

    # one server, one socket, one warning: no "(s)" and no "1 GPUs" (gettext plural forms, each count its own)
    assert t("checklist.r.gpu_plan", "en", count=8, gpu="H100", nodes=1) == "8 × H100 per server, 1 server"
    assert t("checklist.r.gpu_plan", "en", count=8, gpu="H100", nodes=4) == "8 × H100 per server, 4 servers"
    assert t("checklist.r.cpu_cores", "en", cores=2, cpus=1, cpu="X", gpus=1, need=2) == (
        "2 cores (1 × X); ≥ 2 cores advised for 1 GPU")
    assert t("checklist.r.cpu_cores", "en", cores=1, cpus=1, cpu="X", gpus=8, need=16) == (
        "1 core (1 × X); ≥ 16 cores advised for 8 GPUs")
    assert t("check.summary", "en", errors=0, warnings=1, infos=2) == "0 errors, 1 warning, 2 info."
    assert t("verify.val.cores_sockets", "en", cores=64, sockets=1) == "64 cores / 1 socket"
    # Chinese has one form
    assert t("checklist.r.gpu_plan", "zh", count=8, gpu="H100", nodes=1) == "8 × H100（每台），共 1 台"
    assert t("check.summary", "zh", errors=0, warnings=1, infos=2) == "共 0 个错误、1 个警告、2 个提示。"


def test_a_highest_cuda_that_is_not_a_version_is_unknown_not_a_failure(plan: Plan, tmp_path: Path) -> None:
    """A user catalog's OS whose max_cuda is not a version ("12.x") used to read as version 0, so every CUDA
    release 'exceeded' it and the item failed; the limit is unknown, and the item says so."""
    (tmp_path / "operating_systems.yaml").write_text(
        "operating_systems:\n"
        "  - {id: ubuntu-typo, name: Ubuntu typo, vendor: Canonical, family: ubuntu, version: '22.04',\n"
        "     max_cuda: '12.x', price_cny: 0, source: test fixture}\n", encoding="utf-8")
    cat = load_catalog([tmp_path], data_dir=DATA / "reports_catalog")
    typo = with_value(plan, "software.os", "ubuntu-typo")
    item = items(typo, cat, lang="en")["os_driver"]
    assert item.status == Status.UNKNOWN
    assert 'its highest CUDA "12.x" is not a version' in item.reason


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("example", ["mid-size-training", "dl-training-platform", "llm-cluster-node"])
def test_the_checklist_memory_need_is_the_findings_need(example: str, lang: str) -> None:
    # the VRAM finding says 'needs 32.3 GB (38.8 GB with the margin)'; the checklist said 'needs 36.1 GiB
    # (38.8 GB with the margin)', its GiB being the figure with the margin. Now: the need in GiB is the same
    # 32.3 GB, and the figure with the margin is the finding's.
    from procurement.evaluation import evaluate

    cat = load_catalog()
    plan = load_plan(Path(__file__).resolve().parents[2] / "resources" / "examples" / f"{example}.gpuplan.yaml", cat)
    ev = evaluate(plan, cat, default_policy(), "en")
    vram = next(f for f in ev.findings if f.rule in ("VRAM-SHARDING", "VRAM-FITS", "VRAM-TOTAL"))
    m = re.search(r"needs ([\d,.]+) GB \(([\d,.]+) GB with the margin\)", vram.message_text("en"))
    assert m, vram.message_text("en")
    need_gb, margin_gb = (float(g.replace(",", "")) for g in m.groups())
    item = next(i for i in build_checklists(plan, cat, ev.findings, lang=lang)["hardware"].items if i.id == "gpu_vram")
    gib = float(re.search(r"([\d,.]+) GiB", item.reason).group(1).replace(",", ""))  # type: ignore[union-attr]
    assert gib * 1.073741824 == pytest.approx(need_gb, abs=0.1), item.reason
    shown = (f"{need_gb:,.1f} GB, {margin_gb:,.1f} GB with the margin" if lang == "en"
             else f"{need_gb:,.1f} GB，含余量 {margin_gb:,.1f} GB")
    assert shown in item.reason, item.reason

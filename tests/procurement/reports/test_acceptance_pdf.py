"""The acceptance sheet (验收单): every contracted line with ordered and received quantities and serials, the
missing planned nodes, no untranslated 'unknown', and blank signature rows only for parties still to sign."""

from __future__ import annotations

import datetime as dt
import io
import re
from typing import Any

import pytest
from pypdf import PdfReader

from catalog.loader import Catalog
from procurement.plan import AcceptanceInfo, OfferLine, Plan, VendorQuote, canonical_digest, load_plan, with_value
from procurement.reports.acceptance_pdf import contracted_lines, render_acceptance_pdf
from procurement.signoff import acceptance_warnings, sign
from tests.conftest import EXAMPLES

DAY = dt.date(2026, 12, 1)


def _text(pdf: bytes) -> str:
    return "\n".join(p.extract_text() or "" for p in PdfReader(io.BytesIO(pdf)).pages)


def _flat(text: str) -> str:
    return re.sub(r"\s+", "", text)


def _node(plan: Plan, i: int, checks: list[dict[str, Any]]) -> dict[str, Any]:
    return {"schema_version": 3, "kind": "gpu-procure-report", "status": "pass", "plan_digest": canonical_digest(plan),
            "host": {"hostname": f"gpu{i:02d}.cluster.local", "dmi_serial": f"S821-{i:04d}", "cpu_sockets": 2},
            "gpus": [{"index": g, "name": "NVIDIA H100 80GB HBM3", "catalog_id": plan.gpu.model,
                      "serial": f"1652023{i:02d}{g:03d}", "uuid": f"GPU-{i:02d}{g:02d}-0000"} for g in range(8)],
            "checks": checks}


@pytest.fixture
def cluster(catalog: Catalog) -> Plan:
    """The 8-node cluster example, accepted (合格) with reports from 2 nodes, one check unknown."""
    plan = load_plan(EXAMPLES / "llm-cluster-node.gpuplan.yaml", catalog)
    checks = [{"id": "GPU-COUNT", "status": "pass", "expected": "8", "actual": "8", "message": "8 of 8"},
              {"id": "NVLINK", "status": "unknown", "expected": "", "actual": "", "message": "no output"}]
    plan = with_value(plan, "verification", [_node(plan, 1, checks), _node(plan, 2, checks[:1])])
    return plan.model_copy(update={"acceptance": AcceptanceInfo(contract_number="HT-1", delivery_date=DAY,
                                                                conclusion="pass", reasons="ok")})


def test_the_warning_names_the_missing_nodes_and_the_unknown_checks(cluster: Plan) -> None:
    zh = acceptance_warnings(cluster, "zh")
    assert "结论为合格，但方案的 8 个节点中有 6 个没有验证报告（已报告：gpu01、gpu02）" in zh
    assert "结论为合格，但有 1 项自动检查无法判定（未知）" in zh
    en = acceptance_warnings(cluster, "en")
    assert "accepted, but 6 of the 8 planned nodes have no verification report (reported: gpu01, gpu02)" in en
    assert "accepted, but 1 automatic check could not be decided (unknown)" in en


def test_unknown_is_translated_on_the_chinese_sheet(cluster: Plan, catalog: Catalog) -> None:
    text = _text(render_acceptance_pdf(cluster, catalog, lang="zh", today=DAY))
    assert "unknown" not in text.lower()
    assert "未知" in text.split("自动检查结果", 1)[1]


def test_every_line_of_the_bill_of_materials_is_listed_with_quantities_and_serials(cluster: Plan,
                                                                                   catalog: Catalog) -> None:
    lines = contracted_lines(cluster, catalog)
    by_part = {g.part_id: g for g in lines}
    assert len(lines) == 8  # GPU, chassis, CPU, memory, 2 drive lines, NIC, PSU
    gpu = by_part[cluster.gpu.model]
    assert (gpu.ordered, gpu.received) == (64, 16) and len(gpu.serials) == 16 and "165202301000" in gpu.serials
    chassis = by_part[cluster.server.chassis]
    assert (chassis.ordered, chassis.received, chassis.serials) == (8, 2, ("S821-0001", "S821-0002"))
    assert by_part[cluster.server.cpu].received == 4
    memory = by_part[cluster.server.memory.part if cluster.server.memory else ""]
    assert memory.received is None  # no report counts memory modules: counted by hand, never assumed
    for lang, head, by_hand in (("zh", "合同货物", "人工清点"), ("en", "Contracted goods", "count by hand")):
        text = _flat(_text(render_acceptance_pdf(cluster, catalog, lang=lang, today=DAY)))
        goods = text.split(_flat(head), 1)[1]
        for g in lines:
            assert _flat(g.text)[:20] in goods
        assert "6416" in goods and "165202302007" in goods and _flat(by_hand) in goods


def test_without_a_report_every_ordered_line_is_still_there_to_tick(catalog: Catalog) -> None:
    plan = load_plan(EXAMPLES / "llm-cluster-node.gpuplan.yaml", catalog)
    lines = contracted_lines(plan, catalog)
    assert len(lines) == 8 and all(g.received is None for g in lines)
    text = _text(render_acceptance_pdf(plan, catalog, lang="en", today=DAY))
    assert text.count("☐") >= 8 + 4  # the goods, then the manual items


def test_a_35_line_offer_is_listed_line_by_line(cluster: Plan, catalog: Catalog) -> None:
    lines = [OfferLine(text=f"Contracted good {n}", quantity=n % 3 + 1, unit_price_cny=10.0) for n in range(1, 34)]
    lines = [OfferLine(text="H100 SXM5", for_part=cluster.gpu.model, quantity=64, unit_price_cny=1.0),
             OfferLine(text="SYS-821GE", for_part=cluster.server.chassis, quantity=8, unit_price_cny=1.0), *lines]
    plan = cluster.model_copy(update={"vendor_quotes": [VendorQuote(vendor="ACME", number="Q-7", lines=lines)],
                                      "chosen_vendor": "ACME"})
    got = contracted_lines(plan, catalog)
    assert len(got) == 35 and (got[0].ordered, got[0].received) == (64, 16) and got[1].received == 2
    text = _flat(_text(render_acceptance_pdf(plan, catalog, lang="en", today=DAY)))
    assert "ACMEQ-7" in text
    for n in range(1, 34):
        assert f"Contractedgood{n}" in text


def test_no_blank_signature_row_for_a_party_that_signed(cluster: Plan, catalog: Catalog) -> None:
    signed = sign(sign(cluster, "approval", "张伟", "使用部门", catalog, DAY), "approval", "李娜", "Asset management",
                  catalog, DAY)
    text = _text(render_acceptance_pdf(signed, catalog, lang="zh", today=DAY))
    approval = text.split("方案审批签署", 1)[1].split("到货验收签署", 1)[0]
    # 使用部门 in the state line and the signer's row; 资产管理 signed as 'Asset management': no blank row for it
    assert approval.count("使用部门") == 2 and approval.count("资产管理") == 0 and "供应商代表" in approval
    acceptance = text.split("到货验收签署", 1)[1]  # not signed yet: a row for every party
    assert all(party in acceptance for party in ("使用部门", "资产管理", "供应商代表"))


def test_a_measured_value_with_a_line_break_stays_in_its_cell(cluster: Plan, catalog: Catalog) -> None:
    """The checks table printed a report's measured value as text: '8\\nFAKE: all passed' gave a line of its own."""
    checks = [{"id": "GPU-COUNT", "status": "pass", "expected": "8", "actual": "8\nFAKE: all passed",
               "message": "8 of 8"}]
    plan = with_value(cluster, "verification", [_node(cluster, 1, checks)])
    text = _text(render_acceptance_pdf(plan, catalog, findings=[], lang="en", today=DAY))
    assert "8 / 8\\x0aFAKE:" in text, [line for line in text.splitlines() if "FAKE" in line]
    assert not any(line.strip().startswith("FAKE") for line in text.splitlines())

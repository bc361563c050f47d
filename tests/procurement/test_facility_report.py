"""The facility figures where a data centre reads them: `check` text and `--json` figures, the quote and the
request for quotation: amps per cord at the site voltage, VA, BTU/h, the rack and its PDU - one computation.

The plan is a stock DGX B200 (NVIDIA DGX B200 User Guide: 14.3 kW maximum, six 3.3 kW PSUs in 5+1), two per
rack on a 208Y/120 V supply (208 V line-to-line). Hand calculation, PF 0.9 (the PSU's 80 PLUS class is not
published, so the lowest level's power factor is counted): 14,300 W / (200 V × 0.9) = 79.4 A per server,
13.2 A per cord on six cords, 15.9 A on five after one fails; rack 28.6 kW, 97,583 BTU/h; three-phase line current
28,600 / (√3 × 200 × 0.9) = 91.7 A, 12 cords spread 4/4/4 → 125 A PDU (100 A × 80 % = 80 A is too little).
"""

from __future__ import annotations

import argparse
import io
import json
from pathlib import Path

import pytest

from catalog.loader import Catalog
from procurement.commands.check import run_check
from procurement.plan import Plan, save_plan
from tests.conftest import EXAMPLES
from tests.procurement.reports.test_quote_commercial import needs_pdftotext, pdftotext
from tests.procurement.test_evaluation_reference_systems import CX7, M2_BOOT, stock


def _b200_pair() -> Plan:
    return stock("nvidia-dgx-b200", "b200", "xeon-platinum-8570", "micron-ddr5-4800-rdimm-64gb", 32, CX7, "n+1",
                 M2_BOOT, nodes=2, per_rack=2, volts="200-208")


def _check(path: Path, catalog: Catalog, **kw: object) -> str:
    args = argparse.Namespace(plan=path, json=kw.get("json", False), lang=kw.get("lang", "en"), policy=None)
    out = io.StringIO()
    run_check(args, catalog, out, io.StringIO())
    return out.getvalue()


def test_check_text_shows_amps_per_cord_va_btu_and_the_pdu(tmp_path: Path, catalog: Catalog) -> None:
    path = tmp_path / "b200.gpuplan.yaml"
    save_plan(_b200_pair(), path)
    out = _check(path, catalog)
    assert "== Facility (power, cords, heat) ==" in out
    assert ("Per server: 14,300 W at the wall (the vendor's published maximum), 15,889 VA, 48,792 BTU/h; "
            "79.4 A at 200 V (PF 0.9).") in out
    assert "Per cord (6 PSU cords sharing): 13.2 A, 2,648 VA at 200 V." in out
    assert "With 1 redundant PSU failed: 5 cords carry 15.9 A each." in out
    assert "Per rack: 2 servers, 28.6 kW, 97,583 BTU/h; 1 rack for the nodes." in out  # the whole line, words
    assert "PDU: three-phase 200 V, servers line-to-line; cords per line pair 4/4/4; most loaded line 91.7 A" in out
    assert "→ 125 A PDU per feed." in out
    assert out.rstrip().splitlines()[-1].endswith("info.")  # the counts stay the last line
    zh = _check(path, catalog, lang="zh")
    assert "== 机房条件（电力、电源线、散热） ==" in zh and "每根电源线（6 根分担）：13.2 A" in zh
    assert "每机柜：2 台服务器，28.6 kW，97,583 BTU/h；节点共需 1 个机柜。" in zh
    assert "code=" not in out + zh and "params=" not in out + zh


def test_racks_for_many_nodes_are_counted_in_words(tmp_path: Path, catalog: Catalog) -> None:
    # five nodes two to a rack: three racks (the counted phrase was printed as its code and parameters)
    path = tmp_path / "b200.gpuplan.yaml"
    save_plan(stock("nvidia-dgx-b200", "b200", "xeon-platinum-8570", "micron-ddr5-4800-rdimm-64gb", 32, CX7,
                    "n+1", M2_BOOT, nodes=5, per_rack=2, volts="200-208"), path)
    assert "Per rack: 2 servers, 28.6 kW, 97,583 BTU/h; 3 racks for the nodes." in _check(path, catalog)
    assert "节点共需 3 个机柜。" in _check(path, catalog, lang="zh")


def test_check_json_carries_the_figures_as_data(tmp_path: Path, catalog: Catalog) -> None:
    path = tmp_path / "b200.gpuplan.yaml"
    save_plan(_b200_pair(), path)
    data = json.loads(_check(path, catalog, json=True))
    rec = next(obj for obj in data if obj["rule"] == "POWER-FACILITY")
    fig = rec["figures"]
    assert rec["severity"] == "info" and fig["wall_w"] == 14300 and fig["wall_from_vendor_max"] is True
    assert fig["amps_per_cord"] == pytest.approx(13.24, abs=0.01)
    assert fig["amps_per_cord_after_failover"] == pytest.approx(15.89, abs=0.01)
    assert fig["va_per_cord"] == pytest.approx(2648.1, abs=0.1) and fig["btu_h"] == 48792
    assert fig["rack"]["connection"] == "ll" and fig["rack"]["pdu_volts"] == 200
    assert fig["rack"]["pdu_amps"] == pytest.approx(91.73, abs=0.01) and fig["rack"]["pdu_rating_amps"] == 125
    assert fig["rack"]["cords_per_phase"] == [4, 4, 4]


@needs_pdftotext
@pytest.mark.parametrize("document", ["rfq", "auto"])
def test_quote_and_rfq_carry_the_facility_section(document: str, tmp_path: Path, catalog: Catalog) -> None:
    from procurement.reports import render_quote_pdf

    text = pdftotext(render_quote_pdf(_b200_pair(), catalog, lang="en", document=document), tmp_path)  # type: ignore[arg-type]
    assert "Facility (power, cords, heat)" in text
    assert "Per cord (6 PSU cords sharing): 13.2 A, 2,648 VA at 200 V." in text
    assert "48,792 BTU/h" in text and "125 A PDU per feed" in text


def test_checklist_power_item_carries_the_cord_currents(catalog: Catalog) -> None:
    from procurement.checklist import build_checklists
    from procurement.evaluation import evaluate
    from procurement.policy import default_policy

    plan, policy = _b200_pair(), default_policy()
    lists = build_checklists(plan, catalog, evaluate(plan, catalog, policy, "en").findings, policy, "en")
    item = next(i for c in lists.values() for i in c.items if i.id == "psu_power")
    assert "Per cord (6 PSU cords sharing): 13.2 A, 2,648 VA at 200 V" in item.reason
    assert "With 1 redundant PSU failed: 5 cords carry 15.9 A each" in item.reason


def test_one_cord_left_is_said_in_the_singular(catalog: Catalog) -> None:
    """Two PSUs in N+1 leave one cord: "1 cords carry" was printed on step 3, in check and in the PDFs."""
    from procurement.budgets.power import power_budget
    from procurement.facility_summary import cord_lines
    from procurement.plan import Plan
    from procurement.policy import default_policy

    plan = Plan.model_validate({
        "gpu": {"model": "a100-pcie-40gb", "count": 2},
        "server": {"chassis": "supermicro-sys-221ge-nr", "cpu": "xeon-platinum-8480plus", "cpu_count": 2,
                   "psu": {"part": "supermicro-3000w", "count": 2, "redundancy": "n+1"}}})
    budget = power_budget(plan, catalog, default_policy())
    lines = {lang: " ".join(cord_lines(budget, lang, stops=True)) for lang in ("en", "zh")}
    assert "With 1 redundant PSU failed: the one cord left carries" in lines["en"], lines["en"]
    assert "cords carry" not in lines["en"]
    assert "剩下的 1 根电源线承载" in lines["zh"], lines["zh"]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_without_a_psu_the_pdu_says_the_cords_are_not_known(lang: str, catalog: Catalog) -> None:
    # the shipped realtime example has no PSU yet: there are no cords to spread over the phases, so the PDU
    # line gives the balanced current as the least it can be (it printed "cords per line pair 0/0/0; most
    # loaded line 3.1 A" as if that were known)
    path = EXAMPLES / "realtime-inference-cluster.gpuplan.yaml"
    out = _check(path, catalog, lang=lang)
    assert "0/0/0" not in out
    if lang == "en":
        assert ("the cords are not known until a PSU is chosen: 3.1 A per line if they are spread evenly, more "
                "if not → at least a 16 A PDU per feed.") in out
    else:
        assert "选定电源之前电源线数未知：均匀分配时每线 3.1 A，不均匀时更高 → 每路至少 16 A PDU。" in out
    fig = next(o for o in json.loads(_check(path, catalog, json=True)) if o["rule"] == "POWER-FACILITY")["figures"]
    assert fig["psus"] == 0 and fig["amps_per_cord"] is None and fig["rack"]["cords_per_phase"] is None


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_part_of_unknown_power_makes_the_figures_a_lower_bound(lang: str, catalog: Catalog,
                                                                 tmp_path: Path) -> None:
    # the dl-training example's 2 × EPYC 7B13 have no power in the catalog (POWER-UNKNOWN-WATTS): the wall
    # figure modelled from the other parts is the least the server draws, and the facility lines say so
    path = EXAMPLES / "dl-training-platform.gpuplan.yaml"
    out = _check(path, catalog, lang=lang)
    assert "POWER-UNKNOWN-WATTS" in out
    said = ("at least this: the power of AMD EPYC 7B13 is not known" if lang == "en"
            else "AMD EPYC 7B13 的功耗未知，实际只会更高")
    server = next(line for line in out.splitlines() if said in line)
    assert "1,806 W" in server
    fig = next(o for o in json.loads(_check(path, catalog, json=True)) if o["rule"] == "POWER-FACILITY")["figures"]
    assert fig["lower_bound"] is True and fig["not_counted"] == ["AMD EPYC 7B13"]
    save_plan(_b200_pair(), tmp_path / "b200.gpuplan.yaml")
    stock_b200 = json.loads(_check(tmp_path / "b200.gpuplan.yaml", catalog, json=True))
    b200 = next(o for o in stock_b200 if o["rule"] == "POWER-FACILITY")["figures"]
    assert b200["lower_bound"] is False and b200["not_counted"] == []  # the vendor's maximum covers every part

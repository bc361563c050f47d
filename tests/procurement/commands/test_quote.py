"""`gpu-procure quote import|compare|choose`: three vendors' files attached, compared and one chosen, headless."""

from __future__ import annotations

from pathlib import Path

import pytest

from procurement.budgets.cost import plan_cost
from procurement.commands.cli import main
from procurement.plan import load_plan, save_plan
from procurement.policy import default_policy
from procurement.reports import build_quote
from tests.conftest import EXAMPLES
from tests.procurement.budgets.test_cost_one_bill import EAST, GAMMA, GAMMA_LINES, NORTH, _gross_by_hand


def test_import_compare_and_choose_from_the_command_line(tmp_path: Path, catalog, capsys: pytest.CaptureFixture[str]):
    plan_path = tmp_path / "p.gpuplan.yaml"
    save_plan(load_plan(EXAMPLES / "mid-size-training.gpuplan.yaml", catalog), plan_path)
    for name, text in (("east", EAST), ("north", NORTH), ("gamma", GAMMA)):
        (tmp_path / f"{name}.csv").write_text(text, encoding="utf-8")
    assert main(["quote", "import", str(plan_path), str(tmp_path / "east.csv"), "--vendor", "华东科技",
                 "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "as the file says ('以上报价含税')" in out and "attached the quote of 华东科技 (9 lines)" in out
    assert main(["quote", "import", str(plan_path), str(tmp_path / "north.csv"), "--vendor", "North", "--lang",
                 "en"]) == 0
    # a vendor whose file says nothing of VAT: --vat decides for that vendor
    assert main(["quote", "import", str(plan_path), str(tmp_path / "gamma.csv"), "--vendor", "Gamma", "--vat",
                 "incl", "--lang", "en"]) == 0
    plan = load_plan(plan_path, catalog)
    assert [q.vendor for q in plan.vendor_quotes] == ["华东科技", "North", "Gamma"]
    assert plan.vendor_quotes[0].number == "HD-2026-118"  # read from the file's header rows
    capsys.readouterr()
    assert main(["quote", "compare", str(plan_path), "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "Gamma: total incl. VAT ¥348,279.17 · compliant · budget: no budget set · lowest compliant offer" in out
    assert "Recommended vendor: Gamma" in out
    assert main(["quote", "choose", str(plan_path), "Nobody", "--lang", "en"]) != 0
    assert main(["quote", "choose", str(plan_path), "Gamma", "--lang", "en"]) == 0
    chosen = load_plan(plan_path, catalog)
    quote = build_quote(chosen, catalog, default_policy())
    assert chosen.chosen_vendor == "Gamma" and chosen.quote.vendor.name == "Gamma"
    assert quote.total == _gross_by_hand(GAMMA_LINES) == plan_cost(chosen, catalog).money(default_policy()).gross


def test_export_xlsx_has_the_quotes_figures_and_no_formulas(tmp_path: Path, catalog) -> None:
    """export --xlsx: the bill of materials with the quote's figures (numbers, not formulas) and the offers; a
    vendor's line that looks like a formula stays text."""
    import argparse
    from decimal import Decimal

    import openpyxl

    from procurement.commands.export import run_export

    plan_path = tmp_path / "p.gpuplan.yaml"
    save_plan(load_plan(EXAMPLES / "mid-size-training.gpuplan.yaml", catalog), plan_path)
    evil = GAMMA.replace("运费,,1,500,500", "=HYPERLINK(\"http://example.invalid\"),,1,500,500")
    (tmp_path / "gamma.csv").write_text(evil, encoding="utf-8")
    assert main(["quote", "import", str(plan_path), str(tmp_path / "gamma.csv"), "--vendor", "Gamma"]) == 0
    assert main(["quote", "choose", str(plan_path), "Gamma"]) == 0
    target = tmp_path / "bom.xlsx"
    args = argparse.Namespace(plan=plan_path, quote=None, rfq=None, checklist=None, acceptance=None, comparison=None,
                              xlsx=target, lang="en", paper="a4", policy=None)
    assert run_export(args, catalog) == 0
    book = openpyxl.load_workbook(target)
    bom, offers = book.worksheets
    rows = [r for r in bom.iter_rows(min_row=2) if isinstance(r[0].value, int)]
    for r in rows:
        qty, unit, amount = r[4].value, r[5].value, r[6].value
        assert Decimal(str(unit)) * qty == Decimal(str(amount)), r[2].value
    total = next(r[6].value for r in bom.iter_rows() if r[5].value == "Total (incl. VAT)")
    quote = build_quote(load_plan(plan_path, catalog), catalog, default_policy())
    assert Decimal(str(total)) == quote.total == _gross_by_hand(GAMMA_LINES)
    evil_cell = next(r[2] for r in rows if str(r[2].value).startswith("=HYPERLINK"))
    assert evil_cell.data_type == "s"
    assert all(c.data_type != "f" for ws in (bom, offers) for row in ws.iter_rows() for c in row)
    assert offers.cell(row=2, column=1).value == "Gamma"
    assert Decimal(str(offers.cell(row=2, column=6).value)) == quote.total

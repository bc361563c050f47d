"""Story 3: three vendors' quotes (三家比价) compared in the window, one chosen, the quote issued from it, in en and
zh. The procurement officer opens the seed's mid-size plan, saves it under a new name, opens the comparison from
the quote page, imports three XLSX files (one with its chassis line mapped by hand, one whose offered price is
in a column mapped by hand), chooses an offer that is not the lowest, and exports the quote and the comparison.

Asserted: the plan keeps the three quotes and the choice; the quote PDF names the chosen vendor and prints its
total — the one the comparison computed for that offer — and its lines add up to it; `check --json` judges the
chosen vendor's parts (the substitute GPU it offered)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from gui.widgets import vendor_compare
from tests.conftest import EXAMPLES
from tests.gui.widgets.test_vendor_compare import EAST, GAMMA_HEADER, GAMMA_LINES, NORTH, _xlsx
from tests.journeys.buyer import Buyer, check_json, pdf_text, yuan_amounts

VENDORS = ("华东科技", "North Computing", "Gamma")



def _confirm(buyer: Buyer, fill):  # type: ignore[no-untyped-def]
    """The vendor-quote dialog as the officer answers it: typed and chosen by keys and clicks, then Attach."""
    def ask(_parent, dialog):  # type: ignore[no-untyped-def]
        buyer.qtbot.addWidget(dialog)
        dialog.show()
        buyer.qtbot.waitExposed(dialog)
        fill(dialog)
        buyer.click(dialog.ok_button)
        return dialog.quote()
    return ask


def _terms(buyer: Buyer, d, vendor: str, number: str, delivery: str) -> None:  # type: ignore[no-untyped-def]
    buyer.type(d.vendor, vendor)
    buyer.type(d.number, number)
    buyer.type(d.delivery, delivery)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_three_quotes_compared_one_chosen_and_issued_as_the_quote(
        make_window, qtbot, dialog_calls, tmp_path: Path, catalog, lang: str) -> None:
    buyer = Buyer.start(make_window, qtbot, dialog_calls, tmp_path, lang)
    win = buyer.win
    buyer.open_plan(EXAMPLES / "mid-size-training.gpuplan.yaml")
    saved = buyer.save_copy_as("比价.gpuplan.yaml")

    files = [_xlsx(tmp_path / "east.xlsx", EAST), _xlsx(tmp_path / "north.xlsx", NORTH),
             _xlsx(tmp_path / "gamma.xlsx", [GAMMA_HEADER, *GAMMA_LINES])]
    queue = list(files)
    buyer.answer_worker("ask_open_paths", lambda *_a: [queue.pop(0)])
    page = buyer.go(6)
    buyer.click(page.compare_button)
    qtbot.waitUntil(lambda: page.comparison is not None and page.comparison.isVisible(), timeout=5000)
    view = page.comparison.view

    def east(d) -> None:  # type: ignore[no-untyped-def]
        _terms(buyer, d, VENDORS[0], "HD-2026-07", "合同签订后 6 周")

    def north(d) -> None:  # type: ignore[no-untyped-def]
        chassis_row = d.table_row(3)  # '4U GPU platform' matches nothing: the officer says it is the chassis
        buyer.choose(d.part_combos[chassis_row], "supermicro-as-4124gs-tnr")
        _terms(buyer, d, VENDORS[1], "NC-88", "2 weeks")

    def gamma(d) -> None:  # type: ignore[no-untyped-def]
        buyer.choose(d.mapping_combos["price"], d.mapping_combos["price"].itemData(0))  # 单价 is the list price
        buyer.choose(d.mapping_combos["price_incl"], 4)  # 优惠价, column E, is the offer
        buyer.click(d.reread_button)
        assert [p.unit_price_cny for p in d.proposals][:2] == [66_000, 52_000]
        _terms(buyer, d, VENDORS[2], "G-1", "现货")

    for fill in (east, north, gamma):
        dialog_calls._mp.setattr(vendor_compare, "ask_vendor_quote", _confirm(buyer, fill))
        with qtbot.waitSignal(view.work_done, timeout=30_000):
            buyer.click(view.import_button)
        qtbot.waitUntil(view.import_button.isEnabled, timeout=10_000)
    assert [q.vendor for q in win.controller.plan.vendor_quotes] == list(VENDORS)
    cmp = view.comparison
    assert cmp is not None and cmp.lowest == ("Gamma",) and cmp.offer(VENDORS[0]).compliance == "fails"

    # North is chosen over the lowest (delivery in 2 weeks): clicked in the offers table, then Choose
    rows = {view.offers.item(r, 0).text(): r for r in range(view.offers.rowCount())}
    buyer.click_row(view.offers, rows[VENDORS[1]])
    buyer.click(view.choose_button)
    qtbot.waitUntil(lambda: win.controller.plan.chosen_vendor == VENDORS[1], timeout=5000)
    north_total = round(cmp.offer(VENDORS[1]).gross_cny, 2)
    comparison = buyer.export(view.export_button, "comparison.pdf")
    page.comparison.close()

    quote = buyer.export(page.export_button, "quote.pdf")
    buyer.save_as("比价.gpuplan.yaml")
    data = yaml.safe_load(saved.read_text(encoding="utf-8"))
    assert data["chosen_vendor"] == VENDORS[1] and data["quote"]["vendor"]["name"] == VENDORS[1]
    assert [q["vendor"] for q in data["vendor_quotes"]] == list(VENDORS)

    text = pdf_text(quote)
    assert VENDORS[1] in text and "2 weeks" in text
    amounts = yuan_amounts(text)
    assert north_total in amounts, (north_total, amounts)  # the quote's total is the chosen offer's
    lines = [yuan_amounts(line) for line in text.splitlines()]
    line_amounts = [a[-1] for a in lines if len(a) >= 2]
    lines_sum = round(sum(line_amounts), 2)  # North quoted before VAT: the lines are net, the total gross
    assert lines_sum in amounts and any(round(lines_sum + vat, 2) == north_total for vat in amounts), amounts
    assert f"{north_total:,.2f}" in " ".join(pdf_text(comparison).split())

    found = {f["rule"] for f in check_json(saved)}
    assert "PCIE-FORM-FACTOR" not in found  # North's parts fit; East's SXM module was not chosen

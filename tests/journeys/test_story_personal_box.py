"""Story 2: a personal RTX 4090-class box for LoRA fine-tuning on a 50,000 元 budget, in en and zh.

From an empty plan: step 1 typed, step 2's first-ranked GPU taken, step 3 auto-configured, the quote exported.
Asserted: the first-ranked GPU is one the app allows for this plan (not the RTX 4090 that export rules block
for China while the 4090 D is offered at the same price), a desktop board gets drives it takes (M.2, not U.2),
the money on step 3, in the quote PDF (its lines added up by script) and in `check --json` agree."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from catalog.models import Storage
from procurement.evaluation import evaluate
from procurement.findings import Severity
from tests.journeys.buyer import Buyer, check_json, pdf_text, yuan_amounts

TITLE = {"zh": "个人 LoRA 工作站", "en": "Personal LoRA workstation"}



@pytest.mark.parametrize("lang", ["en", "zh"])
def test_personal_box_on_a_budget_prices_add_up_from_step_3_to_the_quote(
        make_window, qtbot, dialog_calls, tmp_path: Path, catalog, lang: str) -> None:
    buyer = Buyer.start(make_window, qtbot, dialog_calls, tmp_path, lang, shots=True)
    win = buyer.win

    p1 = buyer.go(0)
    buyer.type(p1.title_edit, TITLE[lang])
    buyer.choose(p1.combos["workload"], "fine_tuning")
    buyer.choose(p1.combos["mode"], "lora")
    buyer.choose(p1.combos["deployment"], "office")
    buyer.choose(p1.combos["model_preset"], "llama-2-7b")
    buyer.choose(p1.combos["precision"], "bf16")
    buyer.type(p1.budget.spin, "50000")
    assert win.controller.plan.requirements.budget_cny == 50_000
    buyer.shot(f"{lang}-1-requirements")

    first = buyer.take_first_ranked_gpu()
    win.controller.wait_for_background()
    blocking = [f for f in evaluate(win.controller.plan, catalog, win.controller.policy, "en").findings
                if f.severity == Severity.ERROR and f.family in ("licensing", "cooling", "vram")]
    assert not blocking, (first, blocking)
    assert first != "rtx-4090"  # export-blocked for China; the 4090 D is the same card for sale there
    buyer.shot(f"{lang}-2-gpu")

    p3 = buyer.go(2)
    buyer.click(p3.auto_button)
    qtbot.waitUntil(lambda: win.controller.plan.server.chassis is not None, timeout=10_000)
    win.controller.wait_for_background()
    plan = win.controller.plan
    drives = [catalog.typed(Storage, s.part) for s in plan.server.storage]
    chassis = catalog.get("chassis", plan.server.chassis)
    if chassis is not None and chassis.form == "tower":
        assert {d.bay for d in drives if d} <= {"m2", "sata_2.5", "sata_3.5"}, drives
    qtbot.waitUntil(lambda: "¥" in p3.money_total.text(), timeout=5000)
    step3_money = p3.money_total.text()
    buyer.shot(f"{lang}-3-server")

    quote_page = buyer.go(6)
    quote = buyer.export(quote_page.export_button, "quote.pdf")
    saved = buyer.save_as("personal.gpuplan.yaml")

    # the saved plan is what the window shows
    data = yaml.safe_load(saved.read_text(encoding="utf-8"))
    assert data["title"] == TITLE[lang] and data["gpu"]["model"] == first
    assert data["requirements"]["budget_cny"] == 50_000 and data["server"]["chassis"] == plan.server.chassis

    # the quote's money, added up by script: each line's amount, their sum, the VAT split of the sum
    text = pdf_text(quote)
    body = text.split("\f")[0] + text.split("\f")[1] if "\f" in text else text
    rows = [yuan_amounts(line) for line in body.splitlines()]
    line_amounts = [r[-1] for r in rows if len(r) >= 2]
    assert line_amounts, text
    priced = round(sum(line_amounts), 2)
    figures = [a for r in rows if len(r) == 1 for a in r]
    assert priced in figures, (priced, figures)  # the priced lines' sum is printed
    assert any(round(a + b, 2) == priced for a in figures for b in figures if a != b), figures  # net + VAT
    # step 3 said the same lower bound while configuring, and check --json says it too
    assert yuan_amounts(step3_money)[0] == priced, step3_money
    budget = {f["rule"]: f for f in check_json(saved)}
    assert f"¥{priced:,.0f}" in str(budget["BUDGET-UNKNOWN"]["message"]), budget.get("BUDGET-UNKNOWN")
    # a tower on an office desk: no rack and no PDU in the facility section, one cord in the singular
    assert "PDU" not in text and "(s)" not in text
    if lang == "en":
        assert "1 PSU cords" not in text and "Per rack" not in text

"""Story 4: an 8-node H100 cluster at step 5 — the probe saved, the reports imported twice, a repaired node
re-probed, the acceptance report exported — in en and zh.

The plan is the shipped 8-node LLM cluster example, opened with Ctrl+O and saved under a new name (Ctrl+Shift+S)
as an operator does. Asserted: 8 reports for 8 nodes however often they are imported, the failing node's row
names its failing check, a newer report of a repaired node replaces its failed one, the step mark and the
summary agree with the reports, the saved probe command names the saved plan file, and the exported PDF and
`check --json` say the same."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from procurement.plan import load_plan
from tests.conftest import EXAMPLES
from tests.gui.pages.test_step5_verify_cluster import _judged
from tests.journeys.buyer import Buyer, check_json, pdf_text

HOSTS = [f"gpu0{i}" for i in range(1, 9)]


def _report(page, host: str, status: str = "pass", **extra: object) -> dict:  # type: ignore[no-untyped-def]
    """A judged node report as the probe writes it, with each GPU's VBIOS and board part number read."""
    report = _judged(page, host, status) | extra
    for gpu in report["gpus"]:
        gpu.update(vbios_version="96.00.99.00.01", board_part_number="692-2G520-0200-000")
    return report


def _rows(page) -> dict[str, tuple[str, str]]:  # type: ignore[no-untyped-def]
    t = page.nodes_table
    return {t.item(r, 0).text(): (t.item(r, 1).data(Qt.ItemDataRole.UserRole), t.item(r, 7).text())
            for r in range(t.rowCount())}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_eight_nodes_accepted_after_a_repair_and_reimports(
        make_window, qtbot, dialog_calls, tmp_path: Path, catalog, lang: str) -> None:
    buyer = Buyer.start(make_window, qtbot, dialog_calls, tmp_path, lang, shots=True)
    win = buyer.win
    buyer.open_plan(EXAMPLES / "llm-cluster-node.gpuplan.yaml")
    saved = buyer.save_copy_as("集群 A.gpuplan.yaml")  # never over the shipped example
    assert win.controller.path == saved and win.controller.plan.requirements.nodes == 8

    page = buyer.go(4)
    buyer.type(page.nodes_edit, "gpu[01-08]")
    buyer.choose(page.method_combo, "clush")
    # the probe and a copy of the plan onto a stick: the command names that very file, with its .yaml
    stick = tmp_path / "usb"
    stick.mkdir()
    buyer.answer_worker("ask_directory", stick)
    buyer.click(page.probe_button)
    assert (stick / "gpu-procure-probe.pyz").is_file() and (stick / saved.name).is_file()
    judge = shlex.split(page.command_view.toPlainText().splitlines()[-1])
    assert judge[judge.index("--plan") + 1] == str(saved)

    # the eight reports, gpu03 failing PCIe width; imported twice, as an operator does after a retry
    plan = win.controller.plan
    first = tmp_path / "reports"
    first.mkdir()
    for host in HOSTS:
        report = _report(page, host, "fail" if host == "gpu03" else "pass")
        (first / f"gpu-procure-raw.json.{host}").write_text(json.dumps(report), encoding="utf-8")
    for _ in range(2):
        buyer.answer_worker("ask_directory", first)
        buyer.click(page.import_dir_button)
        qtbot.waitUntil(lambda: len(win.controller.plan.verification) == 8, timeout=10_000)
    rows = _rows(page)
    assert len(rows) == 8 and rows["gpu03"] == ("fail", "PCIE-WIDTH")
    win.controller.wait_for_background()
    qtbot.waitUntil(lambda: win.step_status(4) == "error", timeout=5000)
    # the findings' counts say why step 5 is red (the reports are no findings): never a bare "Errors: 0"
    said = {"en": "Step 5: 1 check failed in the verification reports", "zh": "验证报告中有 1 项检查不通过"}[lang]
    qtbot.waitUntil(lambda: said in win.findings_panel.summary.text(), timeout=5000)
    buyer.shot(f"{lang}-5-one-failed")

    # gpu03 repaired and probed again: its newer report replaces the failed one
    fixed = tmp_path / "fixed"
    fixed.mkdir()
    again = _report(page, "gpu03", created="2026-12-01T09:00:00+00:00")
    (fixed / "gpu-procure-raw.json.gpu03").write_text(json.dumps(again), encoding="utf-8")
    buyer.answer_worker("ask_directory", fixed)
    buyer.click(page.import_dir_button)
    qtbot.waitUntil(lambda: _rows(page).get("gpu03", ("",))[0] == "pass", timeout=10_000)
    assert len(win.controller.plan.verification) == 8
    assert all(status == "pass" for status, _ in _rows(page).values())
    win.controller.wait_for_background()
    qtbot.waitUntil(lambda: win.step_status(4) not in ("error", "warning"), timeout=5000)
    summary = win.findings_panel.summary.text()
    assert "Step 5" not in summary and "第 5 步：验证" not in summary
    buyer.shot(f"{lang}-5-accepted")

    report = buyer.export(page.export_button, "acceptance.pdf")
    saved_again = buyer.save_as("集群 A.gpuplan.yaml")
    assert saved_again == saved
    text = pdf_text(report)
    assert all(host in text for host in HOSTS)
    flat = " ".join(text.split())
    assert ("passed 8 · warnings 0 · failed 0 · unknown 0 · missing 0" in flat if lang == "en"
            else "通过 8 · 警告 0 · 不通过 0 · 未知 0 · 缺失 0" in flat), flat[:800]
    assert "PCIE-WIDTH" not in flat  # the repaired node's old failure is history, not in the report
    if lang == "en":
        assert "All 8 planned nodes reported and passed the automatic checks." in flat
        assert "NODE-SAME-VBIOS PASS" in flat and "96.00.99.00.01" in flat
    reopened = load_plan(saved, catalog)
    assert len(reopened.verification) == 8 and reopened.server == plan.server
    findings = check_json(saved)
    assert not [f for f in findings if f["step"] == 5 and f["severity"] == "error"], findings

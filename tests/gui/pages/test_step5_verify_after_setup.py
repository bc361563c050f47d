"""Step 5's "Judge as after setup" box: a host not tuned as planned warns before the handover's setup and fails
after it, in a run on this machine and in imported raw facts; reports judged elsewhere keep their verdict."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QPoint, Qt

from gui import workers
from gui.pages import step5_verify
from gui.pages.step5_verify import VerifyPage
from procurement.plan import load_plan
from procurement.verify import report_to_dict
from procurement.verify.collect import raw
from procurement.verify.judge import judge
from tests.conftest import EXAMPLES
from tests.procurement.verify.conftest import H100_XML, TUNED, tuned_files

SWAP_ON = TUNED.parent / "crafted" / "proc_meminfo_swap_on"


def _untuned_raw() -> dict[str, Any]:
    """Raw facts of the plan's 8 × H100 node as delivered: swap still on (the plan's default is off)."""
    doc = raw.new_raw()
    doc["commands"]["nvidia_smi_q"] = raw.result(["nvidia-smi", "-q", "-x"], 0, H100_XML.read_text())
    files = tuned_files()
    files["/proc/meminfo"] = SWAP_ON.read_text()
    doc["files"] = files
    return doc


@pytest.fixture
def page(verify_page, catalog):
    return verify_page(load_plan(EXAMPLES / "llm-cluster-node.gpuplan.yaml", catalog))


def _tick(qtbot, page: VerifyPage) -> None:
    """Click the box on its indicator, as a person does (the box is wider than its label)."""
    box = page.after_setup_box
    qtbot.mouseClick(box, Qt.MouseButton.LeftButton, pos=QPoint(8, box.height() // 2))


def _swap(page: VerifyPage) -> tuple[str, str]:
    """(status, message) of the TUNE-SWAP row of the Checks table."""
    table = page.checks_table
    (row,) = [r for r in range(table.rowCount()) if table.item(r, 1).text() == "TUNE-SWAP"]
    return table.item(row, 2).data(Qt.ItemDataRole.UserRole), table.item(row, 5).text()


def _import(page: VerifyPage, qtbot, monkeypatch, path: Path) -> None:
    monkeypatch.setattr(workers, "ask_open_paths", lambda *args: [path])
    monkeypatch.setattr(workers, "show_error", lambda _p, _t, text: pytest.fail(text))
    qtbot.mouseClick(page.import_button, Qt.MouseButton.LeftButton)


def test_imported_raw_facts_warn_before_the_setup_and_fail_with_the_box_ticked(page, qtbot, tmp_path,
                                                                               monkeypatch) -> None:
    facts = tmp_path / "gpu01.json"
    facts.write_text(json.dumps(_untuned_raw()), encoding="utf-8")
    assert page.after_setup_box.text() == "&Judge as after setup (tuning mismatches fail)"
    assert not page.after_setup_box.isChecked()  # a delivered host is not tuned yet: the default
    assert "--after-setup" not in page.command_view.toPlainText()

    _import(page, qtbot, monkeypatch, facts)
    status, message = _swap(page)
    assert status == "warn" and "not tuned yet" in message and "SwapTotal 8388604 kB" in message

    qtbot.mouseClick(page.clear_button, Qt.MouseButton.LeftButton)
    _tick(qtbot, page)
    assert page.after_setup_box.isChecked()
    # the judge line to copy judges the same way
    assert "gpu-procure judge FILE.json --plan" in page.command_view.toPlainText()
    assert "--after-setup" in page.command_view.toPlainText()
    _import(page, qtbot, monkeypatch, facts)
    status, message = _swap(page)
    assert status == "fail" and message == "Swap is on: SwapTotal 8388604 kB (planned off)"
    (stored,) = page.controller.plan.verification
    assert {c.id: c.status for c in stored.checks}["TUNE-SWAP"] == "fail"  # what the plan keeps, too

    # unticked again: the next import warns, as `judge` without --after-setup
    qtbot.mouseClick(page.clear_button, Qt.MouseButton.LeftButton)
    _tick(qtbot, page)
    _import(page, qtbot, monkeypatch, facts)
    assert _swap(page)[0] == "warn"
    assert "--after-setup" not in page.command_view.toPlainText()


def test_a_report_judged_elsewhere_keeps_its_verdict(page, qtbot, tmp_path, monkeypatch, catalog) -> None:
    """`verify --json` on the node judged it before the setup: the box does not re-judge it."""
    plan = page.controller.plan
    judged = tmp_path / "gpu01-report.json"
    judged.write_text(json.dumps(report_to_dict(judge(_untuned_raw(), plan, catalog, None, "en"))), encoding="utf-8")
    _tick(qtbot, page)
    _import(page, qtbot, monkeypatch, judged)
    assert _swap(page)[0] == "warn"
    assert "keep the verdict they were judged with" in page.after_setup_box.toolTip()


def test_a_run_on_this_machine_fails_an_untuned_host_with_the_box_ticked(page, qtbot, monkeypatch) -> None:
    """The page's own runner hands the box to the probe's options (`verify --after-setup`); this machine's
    collection is replaced by the untuned node's facts, the judging is the real one."""
    seen: list[bool] = []

    def probe_here(plan, catalog, options, lang, progress=None, cancel=None):
        seen.append(options.after_setup)
        return judge(_untuned_raw(), plan, catalog, None, lang, options.after_setup)

    monkeypatch.setattr(step5_verify, "run_probe", probe_here)
    monkeypatch.setattr(workers, "ask_yes_no", lambda *args: True)
    with qtbot.waitSignal(page.work_done, timeout=10_000):
        qtbot.mouseClick(page.run_button, Qt.MouseButton.LeftButton)
    assert _swap(page)[0] == "warn"
    qtbot.mouseClick(page.clear_button, Qt.MouseButton.LeftButton)
    _tick(qtbot, page)
    with qtbot.waitSignal(page.work_done, timeout=10_000):
        qtbot.mouseClick(page.run_button, Qt.MouseButton.LeftButton)
    assert _swap(page)[0] == "fail"
    assert seen == [False, True]

"""The checklist page as a buyer uses it for paper: confirm an item the app cannot decide, the acceptance details
and the acceptance sheet, SSH signing with an allowed-signers file, and the missing-character warning on export."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
from pathlib import Path

import pytest
from pypdf import PdfReader
from PySide6.QtCore import QDate, Qt

from catalog.loader import Catalog
from gui import workers
from gui.controller import PlanController
from gui.pages.checklist_view import COL_DONE, COL_STATUS, ChecklistPage
from procurement.plan import canonical_digest, load_plan, save_plan, with_value
from tests.conftest import EXAMPLES

needs_ssh = pytest.mark.skipif(shutil.which("ssh-keygen") is None, reason="needs ssh-keygen (openssh-client)")


@pytest.fixture
def cooling_unknown(catalog: Catalog) -> Catalog:
    """The shipped catalog with the example chassis' per-slot cooling limit unknown: 'cooling is sound' is then
    an automatic item the app cannot decide."""
    plan = load_plan(EXAMPLES / "llm-cluster-node.gpuplan.yaml", catalog)
    chassis = catalog.parts["chassis"][plan.server.chassis or ""]
    out = Catalog(parts={k: dict(v) for k, v in catalog.parts.items()})
    out.parts["chassis"][chassis.id] = chassis.model_copy(update={"max_gpu_tdp_w": None})
    return out


def make_page(qtbot, catalog: Catalog, policy, lang: str = "en") -> ChecklistPage:
    ctl = PlanController(catalog, policy, lang=lang)
    ctl.new(load_plan(EXAMPLES / "llm-cluster-node.gpuplan.yaml", catalog))
    page = ChecklistPage(ctl)
    qtbot.addWidget(page)
    page.show()
    return page


def pdf_text(data: bytes) -> str:
    return "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(data)).pages)


def export(page: ChecklistPage, qtbot, tmp_path: Path, dialog_calls, which: str) -> str:
    target = tmp_path / f"{which}.pdf"
    dialog_calls.answer("ask_export_path", target)
    monkey = pytest.MonkeyPatch()
    monkey.setattr(workers, "ask_export_path", lambda *_a: target)
    monkey.setattr(workers, "show_error", lambda _p, title, text: pytest.fail(f"{title}: {text}"))
    try:
        with qtbot.waitSignal(page.work_done, timeout=60_000):
            (page.export_acceptance if which == "acceptance" else page.export_checklist)()
    finally:
        monkey.undo()
    return subprocess.run(["pdftotext", "-layout", str(target), "-"], capture_output=True, text=True,
                          check=True).stdout


def test_confirm_an_undecided_automatic_item_then_remove_it(qtbot, cooling_unknown, policy, dialog_calls,
                                                            tmp_path) -> None:
    page = make_page(qtbot, cooling_unknown, policy)
    ctl = page.controller
    table = page.tables["hardware"]
    row = page.item_row("hardware", "cooling")
    assert table.item(row, COL_STATUS).data(Qt.ItemDataRole.UserRole) == "unknown"
    assert not page.confirm_buttons["hardware"].isEnabled()  # nothing selected
    # a decided automatic item cannot be confirmed
    table.selectRow(page.item_row("hardware", "gpu_model_count"))
    assert not page.confirm_buttons["hardware"].isEnabled()
    table.selectRow(row)
    assert page.confirm_buttons["hardware"].isEnabled() and not page.unconfirm_buttons["hardware"].isEnabled()

    dialog_calls.answer("ask_confirmation", ("王工", "checked the vendor's thermal sheet: 700 W per slot"))
    qtbot.mouseClick(page.confirm_buttons["hardware"], Qt.MouseButton.LeftButton)
    assert dialog_calls.names() == ["ask_confirmation"]
    mark = ctl.plan.checklist["cooling"]
    assert (mark.checked, mark.by, mark.note) == (True, "王工", "checked the vendor's thermal sheet: 700 W per slot")
    row = page.item_row("hardware", "cooling")
    status = table.item(row, COL_STATUS)
    assert status.data(Qt.ItemDataRole.UserRole) == "confirmed" != "pass"
    assert "confirmed by 王工" in status.text()  # on screen: who, never "Pass"
    assert table.item(row, COL_DONE).text() == "☑"
    assert page.unconfirm_buttons["hardware"].isEnabled() and not page.confirm_buttons["hardware"].isEnabled()

    # in check: a finding of its own that names the person (the same plan, the same catalog)
    import argparse

    from procurement.commands.check import run_check

    path = tmp_path / "p.gpuplan.yaml"
    save_plan(ctl.plan, path)
    out = io.StringIO()
    run_check(argparse.Namespace(plan=path, json=True, lang="en", policy=None), cooling_unknown, out, io.StringIO())
    [confirmed] = [f for f in json.loads(out.getvalue()) if f["rule"] == "CHECKLIST-CONFIRMED"]
    assert "confirmed by 王工 (not an automatic pass)" in confirmed["message"]
    assert confirmed["severity"] == "info" and confirmed["fields"] == ["checklist.cooling"]

    # in the PDF
    text = export(page, qtbot, tmp_path, dialog_calls, "checklist")
    assert "confirmed by 王工" in text and "thermal sheet" in text

    # removing the confirmation: unknown again, undoable
    qtbot.mouseClick(page.unconfirm_buttons["hardware"], Qt.MouseButton.LeftButton)
    assert "cooling" not in ctl.plan.checklist
    row = page.item_row("hardware", "cooling")
    assert table.item(row, COL_STATUS).data(Qt.ItemDataRole.UserRole) == "unknown"
    ctl.undo_stack.undo()
    assert ctl.plan.checklist["cooling"].by == "王工"


def _report(host: str, digest: str | None) -> dict:
    return {"schema_version": 3, "host": {"hostname": host, "dmi_serial": f"SYS-{host}"}, "plan_digest": digest,
            "gpus": [{"index": 0, "name": "NVIDIA H100 80GB HBM3", "serial": f"13{host}", "uuid": f"GPU-{host}-0"}],
            "checks": [{"id": "GPU-COUNT", "status": "pass", "expected": "8", "actual": "8", "message": ""}]}


def test_acceptance_details_and_the_acceptance_sheet(qtbot, catalog, policy, dialog_calls, tmp_path) -> None:
    page = make_page(qtbot, catalog, policy)
    ctl = page.controller
    box = page.acceptance_box
    digest = canonical_digest(ctl.plan)
    ctl.replace_plan(with_value(ctl.plan, "verification", [_report("node-a", digest),
                                                            _report("node-old", "0" * 64)]), "attach")
    page.refresh_now()
    assert "1 of 2 attached reports were made against another plan" in box.reports_label.text()

    box.contract_edit.setFocus()
    qtbot.keyClicks(box.contract_edit, "HT-2026-0815")
    qtbot.keyClick(box.contract_edit, Qt.Key.Key_Return)
    assert ctl.plan.acceptance.contract_number == "HT-2026-0815"
    qtbot.mouseClick(box.delivered_check, Qt.MouseButton.LeftButton)
    box.delivery_edit.setDate(QDate(2026, 12, 1))
    assert ctl.plan.acceptance.delivery_date.isoformat() == "2026-12-01"
    box.conclusion_combo.setFocus()
    qtbot.keyClick(box.conclusion_combo, Qt.Key.Key_Down)  # — not decided — → Accepted (合格)
    assert ctl.plan.acceptance.conclusion == "pass"
    # accepted over a report made against another plan: said next to the conclusion
    assert "accepted, but reports not made against this plan as it is now: 1" in box.reports_label.text()
    qtbot.keyClicks(box.reasons_edit, "all checks pass; node-old to be re-run")
    qtbot.keyClick(box.reasons_edit, Qt.Key.Key_Return)
    assert ctl.plan.acceptance.reasons == "all checks pass; node-old to be re-run"

    text = export(page, qtbot, tmp_path, dialog_calls, "acceptance")
    assert "HT-2026-0815" in text and "2026-12-01" in text and "node-old to be re-run" in text
    assert "☑ Accepted" in text and "☐ Rejected" in text
    flat = " ".join(text.split())
    assert "accepted, but reports not made against this plan as it is now: 1" in flat
    old_row = flat[flat.index("node-old"):]
    assert old_row.index("another plan or an") < old_row.index("not evidence for")  # the old report is marked
    assert "SYS-node-old" in flat and "GPU-node-a-0" in flat
    undo_to = ctl.undo_stack.index()
    assert undo_to >= 4  # every detail an undoable edit


def test_export_acceptance_sheet_from_the_file_menu(qtbot, make_window, tmp_path, monkeypatch) -> None:
    win = make_window()
    win.controller.new(load_plan(EXAMPLES / "mid-size-training.gpuplan.yaml", win.controller.catalog))
    action = win.named_actions["export_acceptance"]
    assert action in win.file_menu.actions() and "&" in action.text()  # reachable from the keyboard: Alt+F, T
    target = tmp_path / "sheet.pdf"
    monkeypatch.setattr(workers, "ask_export_path", lambda *_a: target)
    action.trigger()
    page = win.page("ChecklistPage")
    assert win.stack.currentWidget() is page
    qtbot.waitUntil(lambda: target.exists() and page.acceptance_box.export_button.isEnabled(), timeout=60_000)
    assert "Delivery acceptance sheet" in pdf_text(target.read_bytes()) or "到货验收单" in pdf_text(target.read_bytes())


def _keygen(tmp_path: Path, name: str) -> Path:
    key = tmp_path / name
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", name, "-f", str(key)], check=True)
    return key


@needs_ssh
def test_sign_with_an_ssh_key_and_check_it_against_the_allowed_signers(qtbot, catalog, policy, dialog_calls,
                                                                       tmp_path) -> None:
    dialog_calls.answer("ask_sign_anyway", True)
    page = make_page(qtbot, catalog, policy)
    ctl = page.controller
    key, stranger = _keygen(tmp_path, "zhangwei"), _keygen(tmp_path, "stranger")
    allowed = tmp_path / "allowed_signers"
    allowed.write_text(f"zhang.wei@example.cn {key.with_suffix('.pub').read_text()}")
    box = page.signoffs["approval"]
    assert not box.key_edit.isEnabled()
    dialog_calls.answer("ask_ssh_key_path", key)
    qtbot.mouseClick(box.ssh_check, Qt.MouseButton.LeftButton)
    assert box.key_edit.isEnabled()
    qtbot.mouseClick(box.key_button, Qt.MouseButton.LeftButton)
    assert box.key_edit.text() == str(key)
    box.name_edit.setText("张伟")
    box.principal_edit.setText("zhang.wei@example.cn")
    qtbot.mouseClick(box.sign_button, Qt.MouseButton.LeftButton)
    signer = ctl.plan.signoffs["approval"].signers[0]
    assert signer.ssh_signature.startswith("-----BEGIN SSH SIGNATURE-----")
    assert (signer.name, signer.ssh_principal) == ("张伟", "zhang.wei@example.cn")
    fingerprint = subprocess.run(["ssh-keygen", "-l", "-f", str(key.with_suffix(".pub"))], capture_output=True,
                                 text=True, check=True).stdout.split()[1]
    # no allowed-signers file yet: the fingerprint is shown, the signature not called valid
    assert fingerprint in box.signers_label.text() and "not checked" in box.signers_label.text()
    assert "No allowed-signers file" in page.allowed_label.text()

    dialog_calls.answer("ask_allowed_signers_path", allowed)
    qtbot.mouseClick(page.allowed_button, Qt.MouseButton.LeftButton)
    assert ctl.allowed_signers == allowed
    assert f"SSH signature valid: zhang.wei@example.cn ({fingerprint})" in box.signers_label.text()
    assert box.state.value == "valid"

    # the same content signed by a key the organisation does not know
    box.name_edit.setText("张伟")
    box.key_edit.setText(str(stranger))
    qtbot.mouseClick(box.sign_button, Qt.MouseButton.LeftButton)
    assert "which is not the allowed key of zhang.wei@example.cn" in box.signers_label.text()
    assert box.state.value == "unknown_key"
    assert "#c62828" in box.state_label.styleSheet()  # another key under the same name is an error, in red

    # forged: the plan edited, the recorded content and digest recomputed to match — the signature catches it
    from procurement.signoff import content_digest, current_content

    ctl.undo_stack.undo()  # back to 张伟's valid signature
    assert box.state.value == "valid"
    edited = with_value(ctl.plan, "server.memory.count", 8)
    so = edited.signoffs["approval"]
    content = current_content(edited, "approval", catalog)
    forged = so.model_copy(update={"content": content, "digest": content_digest("approval", content)})
    ctl.replace_plan(edited.model_copy(update={"signoffs": {"approval": forged}}), "forge")
    page.refresh_now()
    assert box.state.value == "signature_invalid"
    assert "SSH signature invalid" in box.signers_label.text()

    # the PDF says the same (the allowed-signers setting reaches the renderer)
    text = " ".join(export(page, qtbot, tmp_path, dialog_calls, "checklist").split())
    assert "signature invalid" in text and fingerprint in text

    qtbot.mouseClick(page.allowed_clear, Qt.MouseButton.LeftButton)
    assert ctl.allowed_signers is None


def test_gui_export_names_the_characters_no_font_has(qtbot, catalog, policy, dialog_calls, tmp_path,
                                                     monkeypatch) -> None:
    page = make_page(qtbot, catalog, policy)
    ctl = page.controller
    # an Egyptian hieroglyph, and U+1FAE8 SHAKING FACE (Unicode 15: newer than Python 3.11's Unicode database,
    # which once made the PDF drop it without a word)
    ctl.replace_plan(ctl.plan.model_copy(update={"title": "Lab \U00013000 \U0001fae8 server"}), "title")
    from procurement.reports.fonts import font_chain

    if font_chain().font_for(0x13000) is not None or font_chain().font_for(0x1FAE8) is not None:
        pytest.skip("a font on this machine has U+13000 or U+1FAE8")
    warned: list[str] = []
    monkeypatch.setattr(workers, "show_missing_glyphs", lambda _p, _title, text: warned.append(text))
    export(page, qtbot, tmp_path, dialog_calls, "checklist")
    assert len(warned) == 1 and "U+13000 EGYPTIAN HIEROGLYPH A001" in warned[0] and "U+1FAE8" in warned[0]
    assert "U+13000" in page.status_label.text() and "U+1FAE8" in page.status_label.text()
    text = pdf_text((tmp_path / "checklist.pdf").read_bytes())
    assert "Lab [U+13000] [U+1FAE8] server" in text  # on paper: the code points, never a silent gap
    # printing says it too, before the preview opens
    previews: list[bytes] = []
    monkeypatch.setattr(workers, "show_print_preview", lambda _p, pdf, _title: previews.append(pdf))
    page.status_label.clear()
    with qtbot.waitSignal(page.work_done, timeout=60_000):
        page.print_checklist()
    assert len(previews) == 1 and "U+13000" in page.status_label.text()

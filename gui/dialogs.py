"""Every question the app asks the user, as plain functions that tests replace (monkeypatch) one by one."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Literal

from PySide6 import QtWidgets  # the dialog classes (and their enums) load on first use, not at start
from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QWidget

if TYPE_CHECKING:  # datetime is only a type here; importing it costs the first paint ~2 ms
    import datetime as dt

SaveAnswer = Literal["save", "discard", "cancel"]
translate = QCoreApplication.translate  # lupdate reads translate("context", "text") calls


def _plan_filter() -> str:
    from procurement.plan import PLAN_SUFFIX

    return translate("dialogs", "GPU purchase plans (*%s *.yaml *.yml);;All files (*)") % PLAN_SUFFIX


def ask_save_changes(parent: QWidget | None, name: str) -> SaveAnswer:
    """Save, discard or cancel when the document named ``name`` has unsaved changes."""
    buttons = QtWidgets.QMessageBox.StandardButton
    box = QtWidgets.QMessageBox(
        QtWidgets.QMessageBox.Icon.Warning,
        translate("dialogs", "Unsaved changes"),
        translate("dialogs", "The plan “%s” has unsaved changes. Save them first?") % name,
        buttons.Save | buttons.Discard | buttons.Cancel,
        parent,
    )
    box.setDefaultButton(QtWidgets.QMessageBox.StandardButton.Save)
    answer = box.exec()
    if answer == QtWidgets.QMessageBox.StandardButton.Save:
        return "save"
    if answer == QtWidgets.QMessageBox.StandardButton.Discard:
        return "discard"
    return "cancel"


def ask_open_path(parent: QWidget | None, directory: Path | None) -> Path | None:
    path, _ = QtWidgets.QFileDialog.getOpenFileName(
        parent, translate("dialogs", "Open plan"), str(directory or ""), _plan_filter()
    )
    return Path(path) if path else None


def ask_config_json_path(parent: QWidget | None) -> Path | None:
    """A model's Hugging Face config.json to size from; None when the user cancels."""
    path, _ = QtWidgets.QFileDialog.getOpenFileName(
        parent, translate("dialogs", "Load a model's config.json"), "",
        translate("dialogs", "Hugging Face config (*.json);;All files (*)"))
    return Path(path) if path else None


def ask_deepspeed_config_path(parent: QWidget | None) -> Path | None:
    """A DeepSpeed ds_config.json to size the training with; None when the user cancels."""
    path, _ = QtWidgets.QFileDialog.getOpenFileName(
        parent, translate("dialogs", "Load a DeepSpeed configuration"), "",
        translate("dialogs", "DeepSpeed config (*.json);;All files (*)"))
    return Path(path) if path else None


def ask_save_path(parent: QWidget | None, suggested: Path) -> Path | None:
    path, _ = QtWidgets.QFileDialog.getSaveFileName(
        parent, translate("dialogs", "Save plan as"), str(suggested), _plan_filter()
    )
    if not path:
        return None
    target = Path(path)
    if not target.name.endswith((".gpuplan", ".yaml", ".yml")):
        from procurement.plan import PLAN_SUFFIX

        target = target.with_name(target.name + PLAN_SUFFIX)
    return target


def ask_export_path(parent: QWidget | None, title: str, suggested: Path, name_filter: str) -> Path | None:
    """A file to export to (PDF quote, checklist…); None when the user cancels."""
    path, _ = QtWidgets.QFileDialog.getSaveFileName(parent, title, str(suggested), name_filter)
    return Path(path) if path else None


def ask_example(parent: QWidget | None, examples: list[tuple[str, Path]]) -> Path | None:
    """Pick one example plan by its title."""
    if not examples:
        show_error(
            parent, translate("dialogs", "New from example"), translate("dialogs", "No example plans are installed.")
        )
        return None
    titles = [title for title, _ in examples]
    title, ok = QtWidgets.QInputDialog.getItem(
        parent, translate("dialogs", "New from example"), translate("dialogs", "Example plan:"), titles, 0, False
    )
    if not ok:
        return None
    return dict(examples).get(title)


def ask_restore_recovery(parent: QWidget | None, name: str, saved_at: dt.datetime, never_saved: bool = False) -> bool:
    """Offer the autosaved copy left by a session that did not close cleanly (``never_saved``: a plan that was
    never saved to a file, so there is no saved file for the copy to be newer than)."""
    text = (translate("dialogs", "An autosaved copy of a plan that was never saved (%1), from %2, was left by "
                                 "a session that did not close cleanly. Restore it?") if never_saved else
            translate("dialogs", "An autosaved copy of “%1” from %2 is newer than the saved file. "
                                 "It was probably left by a crash. Restore it?"))
    answer = QtWidgets.QMessageBox.question(
        parent,
        translate("dialogs", "Recover unsaved changes"),
        text
        .replace("%1", name)
        .replace("%2", saved_at.strftime("%Y-%m-%d %H:%M")),
        QtWidgets.QMessageBox.StandardButton.Yes | QtWidgets.QMessageBox.StandardButton.No,
        QtWidgets.QMessageBox.StandardButton.Yes,
    )
    return answer == QtWidgets.QMessageBox.StandardButton.Yes


def ask_overwrite_changed(parent: QWidget | None, name: str) -> bool:
    """The plan file changed on disk since it was opened here (another window or program saved it)."""
    answer = QtWidgets.QMessageBox.warning(
        parent,
        translate("dialogs", "The file changed on disk"),
        translate("dialogs", "“%1” was changed by another window or program since you opened it. Saving "
                  "replaces those changes with yours (the previous file is kept as %1.bak). Save anyway?")
        .replace("%1", name),
        QtWidgets.QMessageBox.StandardButton.Save | QtWidgets.QMessageBox.StandardButton.Cancel,
        QtWidgets.QMessageBox.StandardButton.Cancel,
    )
    return answer == QtWidgets.QMessageBox.StandardButton.Save


def show_error(parent: QWidget | None, title: str, text: str) -> None:
    QtWidgets.QMessageBox.critical(parent, title, text)


def show_about(parent: QWidget | None, title: str, text: str) -> None:
    QtWidgets.QMessageBox.about(parent, title, text)


def ask_replace_hand_chosen(parent: QWidget | None, lines: list[str]) -> bool | None:
    """Auto-configure would replace parts the buyer chose by hand: True replace them, False keep them and
    configure the rest around them, None do nothing."""
    box = QtWidgets.QMessageBox(parent)
    box.setIcon(QtWidgets.QMessageBox.Icon.Question)
    box.setWindowTitle(translate("dialogs", "Replace parts you chose?"))
    box.setText(translate("dialogs", "Auto-configure would replace parts you chose yourself:") + "\n\n"
                + "\n".join(lines))
    replace = box.addButton(translate("dialogs", "Replace them"), QtWidgets.QMessageBox.ButtonRole.AcceptRole)
    keep = box.addButton(translate("dialogs", "Keep mine"), QtWidgets.QMessageBox.ButtonRole.RejectRole)
    box.addButton(QtWidgets.QMessageBox.StandardButton.Cancel)
    box.setDefaultButton(keep)  # the safe answer: nothing the buyer chose is lost
    box.exec()
    clicked = box.clickedButton()
    return True if clicked is replace else False if clicked is keep else None


def ask_sign_anyway(parent: QWidget | None, failed: int, unknown: int) -> bool:
    """Before signing a checklist that still has failing or undecided items: sign anyway?"""
    text = (
        translate("dialogs", "Items on this checklist: %1 failing, %2 unknown. A signature says the "
                  "plan was reviewed as it is. Sign anyway?")
        .replace("%1", str(failed))
        .replace("%2", str(unknown))
    )
    answer = QtWidgets.QMessageBox.question(
        parent,
        translate("dialogs", "Sign a checklist with open items"),
        text,
        QtWidgets.QMessageBox.StandardButton.Yes | QtWidgets.QMessageBox.StandardButton.No,
        QtWidgets.QMessageBox.StandardButton.No,
    )
    return answer == QtWidgets.QMessageBox.StandardButton.Yes


def ask_waiver(parent: QWidget | None, rule: str, message: str) -> tuple[str, str] | None:
    """Accept a finding on purpose: the reason and who accepts it (both required); None when cancelled."""
    dialog = QtWidgets.QDialog(parent)
    dialog.setWindowTitle(translate("dialogs", "Waive %1").replace("%1", rule))
    form = QtWidgets.QFormLayout(dialog)
    text = QtWidgets.QLabel(message)
    text.setWordWrap(True)
    form.addRow(text)
    reason = QtWidgets.QLineEdit()
    by = QtWidgets.QLineEdit()
    form.addRow(translate("dialogs", "Why it is accepted:"), reason)
    form.addRow(translate("dialogs", "Accepted by:"), by)
    buttons = QtWidgets.QDialogButtonBox(QtWidgets.QDialogButtonBox.StandardButton.Ok
                                         | QtWidgets.QDialogButtonBox.StandardButton.Cancel)
    ok = buttons.button(QtWidgets.QDialogButtonBox.StandardButton.Ok)

    def complete() -> None:
        ok.setEnabled(bool(reason.text().strip() and by.text().strip()))

    reason.textChanged.connect(complete)
    by.textChanged.connect(complete)
    complete()
    buttons.accepted.connect(dialog.accept)
    buttons.rejected.connect(dialog.reject)
    form.addRow(buttons)
    if dialog.exec() != QtWidgets.QDialog.DialogCode.Accepted:
        return None
    return reason.text().strip(), by.text().strip()


def _two_fields(parent: QWidget | None, title: str, message: str, first: str, second: str,
                multiline_second: bool = False) -> tuple[str, str] | None:
    """A small form with a message and two required fields; OK is enabled once both are filled in."""
    dialog = QtWidgets.QDialog(parent)
    dialog.setWindowTitle(title)
    form = QtWidgets.QFormLayout(dialog)
    text = QtWidgets.QLabel(message)
    text.setWordWrap(True)
    form.addRow(text)
    one = QtWidgets.QLineEdit()
    two: QtWidgets.QLineEdit | QtWidgets.QPlainTextEdit = (
        QtWidgets.QPlainTextEdit() if multiline_second else QtWidgets.QLineEdit())
    form.addRow(first, one)
    form.addRow(second, two)
    buttons = QtWidgets.QDialogButtonBox(QtWidgets.QDialogButtonBox.StandardButton.Ok
                                         | QtWidgets.QDialogButtonBox.StandardButton.Cancel)
    ok = buttons.button(QtWidgets.QDialogButtonBox.StandardButton.Ok)

    def value() -> str:
        return two.toPlainText() if isinstance(two, QtWidgets.QPlainTextEdit) else two.text()

    def complete() -> None:
        ok.setEnabled(bool(one.text().strip() and value().strip()))

    one.textChanged.connect(complete)
    two.textChanged.connect(complete)
    complete()
    buttons.accepted.connect(dialog.accept)
    buttons.rejected.connect(dialog.reject)
    form.addRow(buttons)
    if dialog.exec() != QtWidgets.QDialog.DialogCode.Accepted:
        return None
    return one.text().strip(), value().strip()


def ask_confirmation(parent: QWidget | None, item: str, reason: str) -> tuple[str, str] | None:
    """Confirm a checklist item the app cannot decide: who confirms it and a note saying how (both required);
    None when cancelled. It then shows as 'confirmed by <name>', never as an automatic pass."""
    return _two_fields(
        parent, translate("dialogs", "Confirm “%1”").replace("%1", item),
        translate("dialogs", "The app cannot decide this item: %1\n\nConfirm it only if you checked it "
                  "yourself; it will show as confirmed by you, not as passed.").replace("%1", reason),
        translate("dialogs", "Confirmed by:"), translate("dialogs", "How it was checked:"), multiline_second=True)


def ask_ssh_key_path(parent: QWidget | None) -> Path | None:
    """An SSH private key to sign with (ssh-keygen -Y sign); None when cancelled."""
    path, _ = QtWidgets.QFileDialog.getOpenFileName(
        parent, translate("dialogs", "SSH key to sign with"), str(Path.home() / ".ssh"),
        translate("dialogs", "All files (*)"))
    return Path(path) if path else None


def ask_allowed_signers_path(parent: QWidget | None) -> Path | None:
    """The organisation's ssh-keygen allowed-signers file; None when cancelled."""
    path, _ = QtWidgets.QFileDialog.getOpenFileName(
        parent, translate("dialogs", "Allowed signers file"), str(Path.home() / ".ssh"),
        translate("dialogs", "All files (*)"))
    return Path(path) if path else None


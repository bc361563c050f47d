"""Forged sign-offs fail `check` with a named finding; an unusable --allowed-signers is exit status 2."""

from __future__ import annotations

import datetime as dt
import io
import json
import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from pypdf import PdfReader

from catalog.loader import Catalog
from procurement.plan import Plan, Signer, load_plan, save_plan, with_value
from procurement.signoff import canonical_bytes, content_digest, current_content, sign, ssh_sign
from tests.conftest import EXAMPLES

pytestmark = pytest.mark.skipif(shutil.which("ssh-keygen") is None, reason="needs ssh-keygen (openssh-client)")
DAY = dt.date(2026, 12, 1)


def _keygen(path: Path) -> Path:
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", path.name, "-f", str(path)], check=True)
    return path


@pytest.fixture(scope="module")
def keys(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("keys")
    found = {name: _keygen(d / name) for name in ("zhang", "li", "mallory")}
    allowed = d / "allowed_signers"
    allowed.write_text(f"zhang@example.cn {found['zhang'].with_suffix('.pub').read_text()}"
                       f"li@example.cn {found['li'].with_suffix('.pub').read_text()}", encoding="utf-8")
    found["allowed"] = allowed
    return found


@pytest.fixture(scope="module")
def base(catalog: Catalog) -> Plan:
    return load_plan(EXAMPLES / "mid-size-training.gpuplan.yaml", catalog)


@pytest.fixture(scope="module")
def signed(base: Plan, catalog: Catalog, keys: dict[str, Path]) -> Plan:
    return sign(base, "approval", "张伟", "使用部门", catalog, DAY, key=keys["zhang"], principal="zhang@example.cn")


def check(plan: Plan, tmp_path: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, list[dict]]:
    from procurement.commands.cli import main

    path = tmp_path / "plan.gpuplan.yaml"
    save_plan(plan, path)
    code = main(["check", str(path), "--json", "--lang", "en", *extra])
    out = capsys.readouterr().out
    return code, [f for f in json.loads(out) if f["family"] == "signoff"] if out.strip() else []


def _rewrite(plan: Plan, catalog: Catalog, **signer_update: object) -> Plan:
    """The forger's six lines: edit the plan, recompute the recorded content and digest, touch the signers."""
    edited = with_value(plan, "server.memory.count", 8)
    so = edited.signoffs["approval"]
    content = current_content(edited, "approval", catalog)
    signers = [s.model_copy(update=signer_update) for s in so.signers]
    forged = so.model_copy(update={"content": content, "digest": content_digest("approval", content),
                                   "signers": signers})
    return edited.model_copy(update={"signoffs": {**edited.signoffs, "approval": forged}})


def test_the_genuine_signature_passes(signed: Plan, base: Plan, tmp_path: Path, keys: dict[str, Path],
                                      capsys: pytest.CaptureFixture[str]) -> None:
    unsigned_code, _ = check(base, tmp_path, capsys)
    code, found = check(signed, tmp_path, capsys, "--allowed-signers", str(keys["allowed"]))
    assert (code, found) == (unsigned_code, [])
    assert check(signed, tmp_path, capsys) == (unsigned_code, [])


Forgery = Callable[[Plan, Catalog, dict[str, Path]], Plan]


def _stale_signature(plan: Plan, catalog: Catalog, keys: dict[str, Path]) -> Plan:
    return _rewrite(plan, catalog)


def _stripped(plan: Plan, catalog: Catalog, keys: dict[str, Path]) -> Plan:
    return _rewrite(plan, catalog, ssh_signature="", ssh_principal="")


def _other_key_same_principal(plan: Plan, catalog: Catalog, keys: dict[str, Path]) -> Plan:
    edited = _rewrite(plan, catalog)
    so = edited.signoffs["approval"]
    sig = ssh_sign(canonical_bytes("approval", so.content), keys["mallory"])
    signers = [s.model_copy(update={"ssh_signature": sig}) for s in so.signers]
    return edited.model_copy(update={"signoffs": {"approval": so.model_copy(update={"signers": signers})}})


def _allowed_key_other_principal(plan: Plan, catalog: Catalog, keys: dict[str, Path]) -> Plan:
    """Li signs the edited plan with Li's own key and claims to be Zhang."""
    edited = _rewrite(plan, catalog)
    so = edited.signoffs["approval"]
    sig = ssh_sign(canonical_bytes("approval", so.content), keys["li"])
    signers = [s.model_copy(update={"ssh_signature": sig}) for s in so.signers]
    return edited.model_copy(update={"signoffs": {"approval": so.model_copy(update={"signers": signers})}})


def _signature_of_another_kind(plan: Plan, catalog: Catalog, keys: dict[str, Path]) -> Plan:
    """Zhang's genuine signature of the same content as an *acceptance* passed off as the approval."""
    edited = _rewrite(plan, catalog)
    so = edited.signoffs["approval"]
    sig = ssh_sign(canonical_bytes("acceptance", so.content), keys["zhang"])
    signers = [s.model_copy(update={"ssh_signature": sig}) for s in so.signers]
    return edited.model_copy(update={"signoffs": {"approval": so.model_copy(update={"signers": signers})}})


def _garbage_signature(plan: Plan, catalog: Catalog, keys: dict[str, Path]) -> Plan:
    return _rewrite(plan, catalog, ssh_signature="-----BEGIN SSH SIGNATURE-----\nAAAA\n-----END SSH SIGNATURE-----\n")


def _added_unsigned_cosigner(plan: Plan, catalog: Catalog, keys: dict[str, Path]) -> Plan:
    """A second signer added by hand, without a signature."""
    so = plan.signoffs["approval"]
    li = Signer(name="li@example.cn", role="资产管理", date=DAY)
    return plan.model_copy(update={"signoffs": {"approval": so.model_copy(update={"signers": [*so.signers, li]})}})


FORGERIES: dict[str, tuple[Forgery, str, bool]] = {
    # name: (forgery, the finding it must raise, whether it is caught without --allowed-signers too)
    "digest recomputed, stale signature kept": (_stale_signature, "SIGNOFF-SIGNATURE", True),
    "signature stripped": (_stripped, "SIGNOFF-SIGNATURE-MISSING", False),
    "re-signed with another key, same principal": (_other_key_same_principal, "SIGNOFF-UNKNOWN-KEY", False),
    "another allowed signer's key under this name": (_allowed_key_other_principal, "SIGNOFF-UNKNOWN-KEY", False),
    "a signature made for the other kind": (_signature_of_another_kind, "SIGNOFF-SIGNATURE", True),
    "not a signature at all": (_garbage_signature, "SIGNOFF-SIGNATURE", True),
    "unsigned co-signer added": (_added_unsigned_cosigner, "SIGNOFF-SIGNATURE-MISSING", False),
}


@pytest.mark.parametrize("name", sorted(FORGERIES))
def test_every_forgery_fails_check_with_a_named_finding(name: str, signed: Plan, catalog: Catalog, tmp_path: Path,
                                                        keys: dict[str, Path],
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    forge, rule, without_file = FORGERIES[name]
    forged = forge(signed, catalog, keys)
    code, found = check(forged, tmp_path, capsys, "--allowed-signers", str(keys["allowed"]))
    assert code == 1, (name, found)
    assert rule in [f["rule"] for f in found], (name, found)
    assert all(f["severity"] == "error" for f in found if f["rule"] == rule)
    if without_file:
        code, found = check(forged, tmp_path, capsys)
        assert code == 1 and rule in [f["rule"] for f in found], (name, found)


def test_the_unknown_key_message_does_not_say_content_unchanged(signed: Plan, catalog: Catalog, tmp_path: Path,
                                                                 keys: dict[str, Path],
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    _, found = check(_other_key_same_principal(signed, catalog, keys), tmp_path, capsys,
                     "--allowed-signers", str(keys["allowed"]))
    (key,) = [f for f in found if f["rule"] == "SIGNOFF-UNKNOWN-KEY"]
    assert "not the allowed key of zhang@example.cn" in key["message"] and "unchanged" not in key["message"]


def _unusable(tmp_path: Path) -> dict[str, tuple[str, str]]:
    """path given -> words the error must contain."""
    (tmp_path / "dir").mkdir()
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "empty").write_text("", encoding="utf-8")
    (tmp_path / "garbage").write_text("this is not an allowed signers file\n", encoding="utf-8")
    (tmp_path / "huge").write_bytes(b"#" * 2_000_000)
    return {
        "missing": (str(tmp_path / "nope"), "no such file"),
        "directory": (str(tmp_path / "dir"), "not a regular file"),
        "fifo": (str(tmp_path / "fifo"), "not a regular file"),
        "/dev/zero": ("/dev/zero", "not a regular file"),
        "empty": (str(tmp_path / "empty"), "lists no signer"),
        "garbage": (str(tmp_path / "garbage"), "line 1"),
        "huge": (str(tmp_path / "huge"), "larger than"),
    }


@pytest.mark.parametrize("command", ["check", "export"])
def test_an_unusable_allowed_signers_file_is_exit_2(command: str, signed: Plan, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    from procurement.commands.cli import main

    path = tmp_path / "plan.gpuplan.yaml"
    save_plan(signed, path)
    out = ["--checklist", str(tmp_path / "c.pdf")] if command == "export" else []
    for what, (given, words) in _unusable(tmp_path).items():
        with pytest.raises(SystemExit) as exited:
            main([command, str(path), "--lang", "en", *out, "--allowed-signers", given])
        assert exited.value.code == 2, what
        err = capsys.readouterr().err
        assert "--allowed-signers" in err and words in err, (what, err)
    assert not (tmp_path / "c.pdf").exists()


def test_export_checks_the_signatures_on_paper(signed: Plan, catalog: Catalog, tmp_path: Path,
                                               keys: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    from procurement.commands.cli import main

    path = tmp_path / "plan.gpuplan.yaml"
    pdfs = {}
    for name, plan in (("genuine", signed), ("forged", _other_key_same_principal(signed, catalog, keys))):
        save_plan(plan, path)
        pdf = tmp_path / f"{name}.pdf"
        assert main(["export", str(path), "--lang", "en", "--checklist", str(pdf),
                     "--allowed-signers", str(keys["allowed"])]) == 0
        capsys.readouterr()
        pdfs[name] = " ".join(" ".join((p.extract_text() or "").split()) for p in PdfReader(io.BytesIO(
            pdf.read_bytes())).pages)
    assert "SSH signature valid: zhang@example.cn" in pdfs["genuine"]
    assert "not checked" not in pdfs["genuine"]
    assert "not the allowed key of zhang@example.cn" in pdfs["forged"]

"""Sign-off content, digest, diff in words and SSH signatures (procurement/signoff.py)."""

from __future__ import annotations

import datetime as dt
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from catalog.loader import Catalog
from procurement.checklist import mark
from procurement.plan import Plan, load_plan, save_plan, with_value
from procurement.signoff import (
    SignOffError,
    SignoffState,
    SigState,
    acceptance_content,
    approval_content,
    approval_digest,
    canonical_bytes,
    content_digest,
    diff_in_words,
    sign,
    signoff_findings,
    signoff_status,
    ssh_sign,
    ssh_verify,
    unsign,
)
from tests.conftest import EXAMPLES


@pytest.fixture(scope="module")
def plan(catalog: Catalog) -> Plan:
    return load_plan(EXAMPLES / "llm-cluster-node.gpuplan.yaml", catalog)


def test_approval_covers_decisions_ticks_notes_prices_and_quote(plan: Plan, catalog: Catalog) -> None:
    signed = approval_content(plan, catalog)
    digest = content_digest("approval", signed)
    changes = {
        "decision": with_value(plan, "server.memory.count", 8),
        "tick": mark(plan, "framework_installed", False, "未测试，torch 无法识别 GPU"),
        "notes": with_value(plan, "notes", "changed"),
        "quote": with_value(plan, "quote.vendor.name", "另一家供应商"),
    }
    for what, changed in changes.items():
        assert content_digest("approval", approval_content(changed, catalog)) != digest, what
    # a verification report is not what an approval attests: attaching one leaves it valid
    report = with_value(plan, "verification", [{"schema_version": 1, "host": {"hostname": "n1"}}])
    assert content_digest("approval", approval_content(report, catalog)) == digest
    # a price change in the catalog changes what was approved
    gpu = catalog.gpu(plan.gpu.model)
    assert gpu is not None
    cheaper = Catalog(parts={k: dict(v) for k, v in catalog.parts.items()})
    cheaper.parts["gpu"][gpu.id] = gpu.model_copy(update={"price_cny": 1.0})
    assert content_digest("approval", approval_content(plan, cheaper)) != digest


def test_diff_in_words(plan: Plan, catalog: Catalog) -> None:
    old = approval_content(plan, catalog)
    count = plan.server.memory.count if plan.server.memory else 0
    new = approval_content(mark(with_value(plan, "server.memory.count", count // 2), "framework_installed", False,
                                "未测试"), catalog)
    zh = diff_in_words(old, new, "zh", catalog)
    assert f"内存条数：{count} → {count // 2}" in zh
    assert any(line.startswith("检查项“深度学习框架正确安装”备注") and "未测试" in line for line in zh)
    en = diff_in_words(old, new, "en", catalog)
    assert f"memory modules: {count} → {count // 2}" in en
    assert diff_in_words(old, old) == []


def test_acceptance_covers_the_approval_reports_and_conclusion() -> None:
    base = acceptance_content("a" * 64, [{"gpus": [{"serial": "1"}]}], "合格")
    digest = content_digest("acceptance", base)
    assert content_digest("acceptance", acceptance_content("b" * 64, [{"gpus": [{"serial": "1"}]}], "合格")) != digest
    assert content_digest("acceptance", acceptance_content("a" * 64, [{"gpus": [{"serial": "2"}]}], "合格")) != digest
    assert content_digest("acceptance", acceptance_content("a" * 64, [{"gpus": [{"serial": "1"}]}], "不合格")) != digest
    # the kind is part of what is signed
    assert content_digest("approval", base) != digest


@pytest.mark.skipif(shutil.which("ssh-keygen") is None, reason="needs ssh-keygen (openssh-client)")
def test_ssh_signature_valid_forged_and_unknown_key(tmp_path: Path, plan: Plan, catalog: Catalog) -> None:
    def keygen(name: str) -> Path:
        key = tmp_path / name
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", name, "-f", str(key)], check=True)
        return key

    zhang, other = keygen("zhang"), keygen("other")
    allowed = tmp_path / "allowed_signers"
    allowed.write_text(f"zhangwei@example.cn {(zhang.with_suffix('.pub')).read_text()}")
    content = approval_content(plan, catalog)
    data = canonical_bytes("approval", content)
    sig = ssh_sign(data, zhang)
    good = ssh_verify(data, sig, "zhangwei@example.cn", allowed)
    assert good.state == SigState.VALID and good.fingerprint.startswith("SHA256:")
    # forged: the file edited and the digest recomputed — the signature no longer matches the content
    forged = canonical_bytes("approval", approval_content(with_value(plan, "server.memory.count", 8), catalog))
    assert ssh_verify(forged, sig, "zhangwei@example.cn", allowed).state == SigState.INVALID
    # a key that is not in the allowed signers
    stranger = ssh_sign(data, other)
    check = ssh_verify(data, stranger, "zhangwei@example.cn", allowed)
    assert check.state == SigState.UNKNOWN_KEY and check.fingerprint.startswith("SHA256:")
    assert check.fingerprint != good.fingerprint
    assert "not the allowed key of zhangwei@example.cn" in check.message("en")
    assert ssh_verify(data, sig, "zhangwei@example.cn", None).state == SigState.UNCHECKED
    # without the file the key is not checked, but a signature over other content is still invalid
    assert ssh_verify(forged, sig, "zhangwei@example.cn", None).state == SigState.INVALID


# ---------------------------------------------------------------- sign-offs in a plan (the scenarios)

TODAY = dt.date(2026, 3, 2)


def test_sign_change_each_kind_of_content_and_resign(plan: Plan, catalog: Catalog) -> None:
    plan = unsign(unsign(plan, "approval"), "acceptance")
    assert signoff_status(plan, "approval", catalog).state == SignoffState.UNSIGNED
    signed = sign(plan, "approval", " 李娜 ", "使用部门", catalog, TODAY)
    signed = sign(signed, "approval", "赵六", "资产管理", catalog, TODAY)
    so = signed.signoffs["approval"]
    assert [(s.name, s.role) for s in so.signers] == [("李娜", "使用部门"), ("赵六", "资产管理")]
    assert signoff_status(signed, "approval", catalog).message(signed, "zh") == \
        "有效（李娜（使用部门），2026-03-02；赵六（资产管理），2026-03-02）"
    # untick "framework installed" and note why: the approval is void and says what changed
    changed = mark(signed, "framework_installed", False, "未测试，torch 无法识别 GPU")
    st = signoff_status(changed, "approval", catalog, lang="zh")
    assert st.state == SignoffState.VOID
    assert any("深度学习框架正确安装" in c and "未测试，torch 无法识别 GPU" in c for c in st.changes), st.changes
    assert st.message(changed, "zh") == "已失效：签署后内容已更改"
    count = plan.server.memory.count if plan.server.memory else 0
    fewer = with_value(signed, "server.memory.count", count // 2)
    assert f"内存条数：{count} → {count // 2}" in signoff_status(fewer, "approval", catalog).changes
    # signing again over the changed content starts a new sign-off (the old signers signed something else)
    again = sign(fewer, "approval", "李娜", "使用部门", catalog, TODAY)
    assert signoff_status(again, "approval", catalog).state == SignoffState.VALID
    assert [s.name for s in again.signoffs["approval"].signers] == ["李娜"]
    with pytest.raises(SignOffError, match="姓名"):
        sign(plan, "approval", "   ", "", catalog, TODAY)


def test_acceptance_rests_on_the_approval_and_the_reports(plan: Plan, catalog: Catalog) -> None:
    plan = sign(unsign(plan, "acceptance"), "approval", "李娜", "使用部门", catalog, TODAY)
    accepted = sign(plan, "acceptance", "张伟", "资产管理", catalog, TODAY)
    assert signoff_status(accepted, "acceptance", catalog).state == SignoffState.VALID
    # a report from the wrong machine attached: the acceptance (not the approval) is void
    wrong = with_value(accepted, "verification",
                       [*accepted.verification, {"schema_version": 3, "host": {"hostname": "other"}}])
    assert signoff_status(wrong, "acceptance", catalog).state == SignoffState.VOID
    assert signoff_status(wrong, "approval", catalog).state == SignoffState.VALID
    # a change to the approved content voids both: the acceptance signed the approval's digest
    edited = with_value(accepted, "gpu.count", 1)
    assert signoff_status(edited, "approval", catalog).state == SignoffState.VOID
    assert signoff_status(edited, "acceptance", catalog).state == SignoffState.VOID
    concluded = accepted.model_copy(update={"acceptance": accepted.acceptance.model_copy(
        update={"conclusion": "fail", "reasons": "1 张 GPU 无法识别"})})
    changes = signoff_status(concluded, "acceptance", catalog, lang="en").changes
    assert any(c.startswith("acceptance conclusion:") for c in changes), changes


def test_each_kind_of_content_voids_exactly_the_sign_offs_that_cover_it(plan: Plan, catalog: Catalog) -> None:
    """As a user: sign both, change one kind of content at a time, and see which sign-off voids and what the
    diff says (English labels)."""
    from procurement.checklist import confirm
    from procurement.findings import Finding, Severity
    from procurement.waivers import waive

    base = sign(unsign(plan, "acceptance"), "approval", "李娜", "使用部门", catalog, TODAY)
    base = sign(base, "acceptance", "张伟", "资产管理", catalog, TODAY)
    acc = base.acceptance
    count = base.server.memory.count if base.server.memory else 0
    lic = Finding.of_text(rule="LIC-EXPORT", family="licensing", severity=Severity.WARNING, step=2, message="x",
                  stated_params=(("gpu", "H100"),))
    cases = {
        "memory modules": (with_value(base, "server.memory.count", count // 2), True,
                           f"memory modules: {count} → {count // 2}"),
        "framework": (with_value(base, "software.framework", "pytorch-2.1"), True, "framework: (empty) → pytorch-2.1"),
        "tick and note": (mark(base, "framework_installed", False, "未测试，torch 无法识别 GPU"), True,
                          "note: (empty) → 未测试，torch 无法识别 GPU"),
        "confirmation": (confirm(base, "cooling", "王工", "checked the vendor sheet"), True,
                         "confirmed by: (empty) → 王工"),
        "plan notes": (with_value(base, "notes", "changed"), True, "plan notes: "),
        "quote number": (with_value(base, "quote.number", "Q-NEW"), True, "quote number: "),
        "waiver": (waive(base, lic, "pilot", "王芳", TODAY), True, "waiver of 'LIC-EXPORT': (empty) →"),
        "report": (with_value(base, "verification", [*base.verification, {"host": {"hostname": "x"}}]), False,
                   "verification report "),
        "conclusion": (base.model_copy(update={"acceptance": acc.model_copy(update={"conclusion": "rework"})}),
                       False, "acceptance conclusion: "),
        "contract": (base.model_copy(update={"acceptance": acc.model_copy(update={"contract_number": "HT-9"})}),
                     False, "contract / PO number: (empty) → HT-9"),
        "delivery": (base.model_copy(update={"acceptance": acc.model_copy(
            update={"delivery_date": dt.date(2026, 12, 1)})}), False, "delivery date: (empty) → 2026-12-01"),
    }
    for what, (changed, approval_void, said) in cases.items():
        approval = signoff_status(changed, "approval", catalog, lang="en")
        acceptance = signoff_status(changed, "acceptance", catalog, lang="en")
        assert (approval.state == SignoffState.VOID) is approval_void, what
        assert acceptance.state == SignoffState.VOID, what  # the acceptance signed the approval's digest too
        changes = approval.changes if approval_void else acceptance.changes
        assert any(said in c for c in changes), (what, changes)


def test_an_accepted_conclusion_the_evidence_does_not_bear_out_is_flagged(plan: Plan) -> None:
    from procurement.plan import canonical_digest
    from procurement.signoff import acceptance_warnings

    plan = with_value(plan, "requirements.nodes", 1)  # one node: no planned node is missing

    def concluded(reports: list, conclusion: str = "pass") -> Plan:
        return with_value(plan, "verification", reports).model_copy(update={
            "acceptance": plan.acceptance.model_copy(update={"conclusion": conclusion})})

    ok = {"plan_digest": canonical_digest(plan), "checks": [{"id": "GPU-COUNT", "status": "pass"}]}
    failed = {"plan_digest": canonical_digest(plan), "checks": [{"id": "GPU-MODEL", "status": "fail"},
                                                                 {"id": "GPU-COUNT", "status": "fail"}]}
    assert acceptance_warnings(concluded([ok])) == []
    assert acceptance_warnings(concluded([]), "en") == [
        "accepted, but no verification report is attached: the machines were not verified"]
    assert acceptance_warnings(concluded([ok, failed]), "zh") == ["结论为合格，但有 2 项自动检查不通过"]
    assert acceptance_warnings(concluded([ok, {**ok, "plan_digest": "0" * 64}]), "en") == [
        "accepted, but reports not made against this plan as it is now: 1"]
    assert acceptance_warnings(concluded([failed], "fail")) == []  # rejected: nothing contradicts it


def test_forged_digest_is_caught(plan: Plan, catalog: Catalog, tmp_path: Path) -> None:
    """Edit the file and recompute the digest, as six lines of Python would: the recorded content no longer
    matches the plan (void), and a content edited to match no longer matches its own digest."""
    signed = sign(plan, "approval", "张伟", "使用部门", catalog, TODAY)
    so = signed.signoffs["approval"]
    edited = with_value(signed, "server.memory.count", 8)
    # forger 1: recomputes the digest over the new content but keeps the old recorded content
    forged = edited.model_copy(update={"signoffs": {**edited.signoffs, "approval": so.model_copy(
        update={"digest": approval_digest(edited, catalog)})}})
    assert signoff_status(forged, "approval", catalog).state == SignoffState.SIGNATURE_INVALID
    # forger 2: rewrites content and digest consistently: without a signature only the paper can tell —
    # the printed digest differs (the document says a digest does not prove who signed)
    content = approval_content(edited, catalog)
    rewritten = edited.model_copy(update={"signoffs": {**edited.signoffs, "approval": so.model_copy(
        update={"content": content, "digest": content_digest("approval", content)})}})
    assert rewritten.signoffs["approval"].digest != so.digest
    assert signoff_status(rewritten, "approval", catalog).state == SignoffState.VALID


@pytest.mark.skipif(shutil.which("ssh-keygen") is None, reason="needs ssh-keygen (openssh-client)")
def test_ssh_signed_signoff_catches_the_forgery(plan: Plan, catalog: Catalog, tmp_path: Path) -> None:
    key = tmp_path / "id"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(key)], check=True)
    allowed = tmp_path / "allowed"
    allowed.write_text(f"zhang@example.cn {key.with_suffix('.pub').read_text()}")
    signed = sign(plan, "approval", "张伟", "使用部门", catalog, TODAY, key=key, principal="zhang@example.cn")
    st = signoff_status(signed, "approval", catalog, allowed)
    assert st.state == SignoffState.VALID and st.signatures[0].state == SigState.VALID
    so = signed.signoffs["approval"]
    edited = with_value(signed, "server.memory.count", 8)
    content = approval_content(edited, catalog)
    rewritten = edited.model_copy(update={"signoffs": {**edited.signoffs, "approval": so.model_copy(
        update={"content": content, "digest": content_digest("approval", content)})}})
    assert signoff_status(rewritten, "approval", catalog, allowed).state == SignoffState.SIGNATURE_INVALID


def test_migrated_signoffs_need_resigning(catalog: Catalog) -> None:
    old = load_plan(Path(__file__).parent / "data" / "plans" / "v1.gpuplan.yaml", catalog)
    so = old.signoffs["approval"]
    assert so.legacy and [s.name for s in so.signers] == ["Wang Fang 王芳"]
    st = signoff_status(old, "approval", catalog)
    assert st.state == SignoffState.LEGACY and "需重新签署" in st.message(old, "zh")
    assert [f.rule for f in signoff_findings(old, catalog)] == ["SIGNOFF-LEGACY"]


def test_check_reports_signoffs_text_and_json(plan: Plan, catalog: Catalog, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    from procurement.commands.cli import main

    path = tmp_path / "p.gpuplan.yaml"
    save_plan(with_value(sign(plan, "approval", "李娜", "使用部门", catalog, TODAY), "server.memory.count", 8), path)
    main(["check", str(path), "--lang", "zh"])
    out = capsys.readouterr().out
    assert "SIGNOFF-VOID" in out and "内存条数：" in out and "→ 8" in out
    main(["check", str(path), "--json", "--lang", "en"])
    data = json.loads(capsys.readouterr().out)
    void = [f for f in data if f["rule"] == "SIGNOFF-VOID"]
    assert len(void) == 1 and void[0]["family"] == "signoff" and "memory modules:" in void[0]["message"]


def test_sign_command_signs_atomically(plan: Plan, catalog: Catalog, tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    from procurement.commands.cli import main

    path = tmp_path / "p.gpuplan.yaml"
    save_plan(unsign(plan, "approval"), path)
    assert main(["sign", str(path), "--kind", "approval", "--name", "王𡈼", "--role", "资产管理",
                 "--date", "2026-03-02", "--lang", "zh"]) == 0
    assert "已签署方案审批：王𡈼" in capsys.readouterr().out
    again = load_plan(path, catalog)
    assert signoff_status(again, "approval", catalog).state == SignoffState.VALID
    assert main(["sign", str(path), "--kind", "approval", "--name", " ", "--lang", "en"]) == 2
    assert [p.name for p in tmp_path.iterdir()] == ["p.gpuplan.yaml"]


def test_typed_reports_keep_a_signed_acceptance_and_old_ones_need_resigning(plan: Plan, catalog: Catalog,
                                                                           tmp_path: Path) -> None:
    """Plan.verification is typed: a report attached as `verify --json` wrote it, signed, saved and read back,
    still hashes as signed. A v8 plan whose acceptance signed a version-2 report (its text, which the typed
    plan now holds as version 3) is marked as needing re-signing by the v9 migration, never void or valid."""
    import yaml

    from procurement.plan import plan_to_data
    from procurement.verify.probe import report_from_outputs
    from procurement.verify.report import report_to_dict
    from tests.procurement.verify.conftest import H100_XML, make_catalog

    report = report_to_dict(report_from_outputs(H100_XML.read_text(), make_catalog(), None, "en"))
    approved = sign(unsign(plan, "acceptance"), "approval", "李娜", "使用部门", catalog, TODAY)
    accepted = sign(with_value(approved, "verification", [report]), "acceptance", "张伟", "资产管理", catalog, TODAY)
    save_plan(accepted, tmp_path / "now.gpuplan.yaml")
    again = load_plan(tmp_path / "now.gpuplan.yaml", catalog)
    assert signoff_status(again, "acceptance", catalog).state == SignoffState.VALID
    # the same acceptance as a v8 file signed it: over the report as version 2 wrote it
    v2 = {k: v for k, v in report.items()} | {"schema_version": 2}
    v2["checks"] = [{k: v for k, v in c.items() if not k.startswith(("expected_", "actual_"))} for c in v2["checks"]]
    data = plan_to_data(accepted)
    data["schema_version"] = 8
    data["verification"] = [v2]
    content = acceptance_content(approval_digest(accepted, catalog), [v2], "", "")
    data["signoffs"]["acceptance"].update(content=content, digest=content_digest("acceptance", content))
    old = tmp_path / "v8.gpuplan.yaml"
    old.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    migrated = load_plan(old, catalog)
    assert migrated.verification[0].schema_version == 3
    assert signoff_status(migrated, "acceptance", catalog).state == SignoffState.LEGACY
    assert signoff_status(migrated, "approval", catalog).state == SignoffState.VALID


def test_an_ssh_keygen_that_hangs_gives_an_error_or_an_unchecked_signature(
        tmp_path: Path, plan: Plan, catalog: Catalog, monkeypatch: pytest.MonkeyPatch) -> None:
    """A wrapper called ssh-keygen that never answers: signing fails with a clear SshError (the callers turn it
    into a message) and a check says the signature was not checked, instead of TimeoutExpired escaping."""
    import time

    from procurement import signoff

    key = tmp_path / "id"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "z", "-f", str(key)], check=True)
    data = canonical_bytes("approval", approval_content(plan, catalog))
    sig = ssh_sign(data, key)
    slow = tmp_path / "bin"
    slow.mkdir()
    (slow / "ssh-keygen").write_text("#!/bin/sh\nexec sleep 30\n")
    (slow / "ssh-keygen").chmod(0o755)
    monkeypatch.setenv("PATH", f"{slow}:{os.environ['PATH']}")
    monkeypatch.setattr(signoff, "SSH_SIGN_TIMEOUT_S", 0.5)
    monkeypatch.setattr(signoff, "SSH_VERIFY_TIMEOUT_S", 0.5)
    started = time.monotonic()
    with pytest.raises(signoff.SshError, match=r"did not finish within 0.5 s: nothing was signed"):
        ssh_sign(data, key)
    check = ssh_verify(data, sig, "z", None)
    assert time.monotonic() - started < 10
    assert check.state == SigState.NO_ANSWER and check.fingerprint.startswith("SHA256:")
    assert check.message("en") == "SSH signature not checked: ssh-keygen did not answer within 0.5 s"
    assert "0.5 秒内没有响应" in check.message("zh")
    monkeypatch.setattr(signoff, "SSH_VERIFY_TIMEOUT_S", 30.0)
    monkeypatch.setenv("PATH", os.environ["PATH"].split(":", 1)[1])  # the real ssh-keygen again: not cached
    assert ssh_verify(data, sig, "z", None).state == SigState.UNCHECKED

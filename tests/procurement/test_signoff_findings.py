"""SIGNOFF-* and CHECKLIST-CONFIRMED findings store codes and parameters, like every other finding: made once,
each reader sees them in their own language, with no text of the other language."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

from catalog.loader import Catalog
from procurement.checklist import build_checklists, confirm, confirmation_findings, mark
from procurement.findings import Finding
from procurement.plan import load_plan, with_value
from procurement.signoff import approval_digest, sign, signoff_findings
from tests.conftest import EXAMPLES

TODAY = dt.date(2026, 3, 2)
CJK = re.compile(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]")
WORD = re.compile(r"[A-Za-z][A-Za-z-]{2,}")


def _findings(catalog: Catalog, tmp_path: Path) -> list[Finding]:
    plan = load_plan(EXAMPLES / "llm-cluster-node.gpuplan.yaml", catalog)
    signed = sign(plan, "approval", "Zhang Wei", "IT", catalog, TODAY)
    count = plan.server.memory.count if plan.server.memory else 0
    ticked = plan.checklist.get("framework_installed")
    void = mark(with_value(signed, "server.memory.count", count // 2), "framework_installed",
                not (ticked is not None and ticked.checked))
    # the digest recomputed over the edited plan, the recorded content kept: the signature is invalid
    so = void.signoffs["approval"]
    forged = void.model_copy(update={"signoffs": {"approval": so.model_copy(
        update={"digest": approval_digest(void, catalog)})}})
    legacy = load_plan(Path(__file__).parent / "data" / "plans" / "v1.gpuplan.yaml", catalog)
    confirmed = confirm(plan, "cooling", "Li Wei", "vendor letter: 4,500 CFM, N+1 fans")
    return [*signoff_findings(void, catalog), *signoff_findings(forged, catalog),
            *signoff_findings(signed, catalog, tmp_path / "no-such-allowed-signers"),
            *signoff_findings(legacy, catalog),
            *confirmation_findings(confirmed, build_checklists(confirmed, catalog, lang="en"))]


def test_signoff_and_confirmation_findings_render_in_each_language(catalog: Catalog, tmp_path: Path) -> None:
    found = _findings(catalog, tmp_path)
    assert {f.rule for f in found} == {"SIGNOFF-VOID", "SIGNOFF-SIGNATURE", "SIGNOFF-ALLOWED-SIGNERS",
                                       "SIGNOFF-LEGACY", "CHECKLIST-CONFIRMED"}
    # what the plan and the person wrote, the same in every language; everything else is the reader's
    data = {"Zhang", "Wei", "vendor", "letter", "CFM", "fans", "SSH", "allowed-signers",
            *WORD.findall(str(tmp_path / "no-such-allowed-signers"))}
    for f in found:
        en = f.message_text("en") + " " + f.fix_text("en")
        zh = f.message_text("zh") + " " + f.fix_text("zh")
        assert not CJK.search(en), (f.rule, en)
        assert CJK.search(zh), (f.rule, zh)
        assert set(WORD.findall(zh)) <= data, (f.rule, zh)
        assert f.coded_message.code != "coded.verbatim", f.rule
    void = next(f for f in found if f.rule == "SIGNOFF-VOID")
    assert "内存条数" in void.message_text("zh") and "memory modules" in void.message_text("en")
    assert "深度学习框架正确安装" in void.message_text("zh")
    confirmed = next(f for f in found if f.rule == "CHECKLIST-CONFIRMED")
    assert "confirmed by Li Wei" in confirmed.message_text("en")
    assert "由 Li Wei 人工确认" in confirmed.message_text("zh")
    # the serialised form (`check --json`) follows the language it is shown in
    assert not CJK.search(void.shown("en").model_dump(mode="json")["message"])

"""`gpu-procure check`: grouped human output, --json with exactly the Finding keys, exit codes 0/1/2/3."""

from __future__ import annotations

import argparse
import io
import json
import re
from pathlib import Path

import pytest

from catalog.loader import Catalog
from procurement.commands.check import FINDING_KEYS, run_check
from procurement.plan import Plan, save_plan
from tests.conftest import EXAMPLES
from tests.procurement.rules.test_rules_parts import CAT, plan_of, workstation_4090


def check(path: Path, **kw: object) -> tuple[int, str, str]:
    args = argparse.Namespace(
        plan=path, json=kw.get("json", False), lang=kw.get("lang", "en"), policy=kw.get("policy")
    )
    out, err = io.StringIO(), io.StringIO()
    code = run_check(args, CAT, out, err)
    return code, out.getvalue(), err.getvalue()


def test_errors_exit_1_grouped_by_step(tmp_path: Path) -> None:
    path = tmp_path / "ws.gpuplan.yaml"
    save_plan(workstation_4090(), path)
    code, out, err = check(path)
    assert code == 1 and err == ""
    assert out.index("== 3 Server configuration ==") < out.index("[Error] POWER-PSU-CAPACITY")
    assert "      → Use at least 2 of these PSUs" in out
    assert out.rstrip().splitlines()[-1].endswith("info.")
    code, out_zh, _ = check(path, lang="zh")
    assert "== 3 服务器配置 ==" in out_zh and "[错误] POWER-PSU-CAPACITY" in out_zh


def test_json_has_exactly_the_finding_keys(tmp_path: Path) -> None:
    path = tmp_path / "ws.gpuplan.yaml"
    save_plan(workstation_4090(), path)
    code, out, _ = check(path, json=True)
    data = json.loads(out)
    assert code == 1 and data
    # the cost-of-ownership record alone adds its figures as data (docs/tco.md)
    assert all(tuple(obj) == FINDING_KEYS + (("figures",) if obj["rule"] in ("TCO-ESTIMATE", "POWER-FACILITY") else ())
               for obj in data)
    assert any(obj["rule"] == "TCO-ESTIMATE" for obj in data)
    first = data[0]
    assert (
        first["severity"] == "error" and isinstance(first["fields"], list) and isinstance(first["step"], int)
    )


def test_empty_plan_has_no_findings_but_is_incomplete_exit_3(tmp_path: Path) -> None:
    path = tmp_path / "empty.gpuplan.yaml"
    save_plan(plan_of(), path)
    code, out, err = check(path)
    assert (code, err) == (3, "")
    assert out.splitlines() == [
        "incomplete: step 2 (GPU selection) still needs a GPU model and count.",
        "incomplete: step 3 (Server configuration) still needs a chassis, a CPU, a power supply.",
        "incomplete: step 4 (Image selection) still needs an operating system, a driver branch, a CUDA release.",
        "No findings.",
    ]
    code, out, err = check(path, json=True)
    assert (code, out) == (3, "[]\n")  # stdout stays the findings list; the gaps go to stderr
    assert "step 2" in err and "a GPU model and count" in err
    _, out_zh, _ = check(path, lang="zh")
    assert "未完成：第 3 步（服务器配置）尚需选择机箱、CPU、电源。" in out_zh


def _two_gpu_workstation(**software: str) -> Plan:
    plan = workstation_4090(
        psu={"part": "atx-1600", "count": 2}, memory={"part": "ddr5-32g-udimm", "count": 4}
    )
    return plan.model_copy(update={"gpu": plan.gpu.model_copy(update={"count": 2}),
                                   "software": plan.software.model_copy(update=software)})


def test_warnings_only_exit_0_when_complete_3_when_a_step_lacks_a_choice(tmp_path: Path) -> None:
    path = tmp_path / "two.gpuplan.yaml"
    save_plan(_two_gpu_workstation(), path)  # no OS, driver or CUDA chosen: nothing failed, not decidable
    code, out, _ = check(path)
    assert code == 3 and "[Error]" not in out and "incomplete: step 4" in out
    save_plan(_two_gpu_workstation(os="ubuntu-22.04", driver="driver-535", cuda="cuda-12.2"), path)
    code, out, _ = check(path)
    assert code == 0 and "[Error]" not in out and "[Info]" in out and "incomplete" not in out


def test_policy_override_changes_the_verdict(tmp_path: Path) -> None:
    path = tmp_path / "two.gpuplan.yaml"
    save_plan(workstation_4090(psu={"part": "atx-1600", "count": 2}), path)
    pol = tmp_path / "pol.yaml"
    # 2213 W × 1.5 = 3319.5 W > 3200 W: with 50 % headroom two PSUs are thin
    pol.write_text("psu_headroom_pct: {value: 50, source: company rule}\n", encoding="utf-8")
    _, out, _ = check(path, policy=pol)
    assert "POWER-PSU-HEADROOM" in out
    _, out, _ = check(path)
    assert "POWER-PSU-HEADROOM" not in out


def test_unreadable_plan_or_policy_exit_2(tmp_path: Path) -> None:
    missing = tmp_path / "nope.gpuplan.yaml"
    code, out, err = check(missing)
    assert code == 2 and out == "" and "cannot read the plan" in err and "nope.gpuplan.yaml" in err
    bad = tmp_path / "bad.gpuplan.yaml"
    bad.write_text("schema_version: 1\ngpu:\n  model: no-such-gpu\n", encoding="utf-8")
    code, _, err = check(bad)
    assert code == 2 and "bad.gpuplan.yaml:3" in err and "unknown gpu 'no-such-gpu'" in err
    good = tmp_path / "ok.gpuplan.yaml"
    save_plan(plan_of(), good)
    pol = tmp_path / "pol.yaml"
    pol.write_text("psu_headroom_pct: 20\nfan_speed: 3\n", encoding="utf-8")
    code, _, err = check(good, policy=pol)
    assert code == 2 and "pol.yaml:2: fan_speed: unknown threshold" in err


def test_default_language_and_the_real_cli(tmp_path: Path, monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    from procurement.commands.cli import main
    from tests.conftest import EXAMPLES

    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    assert main(["check", str(EXAMPLES / "personal-research.gpuplan.yaml")]) == 0
    out = capsys.readouterr().out
    assert "== 3 服务器配置 ==" in out and "BALANCE-ECC" in out
    monkeypatch.setenv("LANG", "C.UTF-8")
    assert main(["check", str(EXAMPLES / "personal-research.gpuplan.yaml")]) == 0
    assert "== 3 Server configuration ==" in capsys.readouterr().out


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("example", sorted(EXAMPLES.glob("*.gpuplan.yaml")), ids=lambda p: p.name.split(".")[0])
def test_no_message_of_a_shipped_example_prints_a_code_or_a_placeholder(example: Path, lang: str,
                                                                         catalog: Catalog) -> None:
    # every text is rendered in the reader's language: a coded value passed where a plain one was expected
    # printed "code='facility.racks' params={'n': 8}", an unfilled field would print "{racks}"
    outputs = []
    for as_json in (False, True):
        out, err = io.StringIO(), io.StringIO()
        args = argparse.Namespace(plan=example, json=as_json, lang=lang, policy=None)
        assert run_check(args, catalog, out, err) in (0, 1, 3)
        outputs += [out.getvalue(), err.getvalue()]
    text, text_err, raw, raw_err = outputs
    messages = " ".join(f"{f['message']} {f.get('fix') or ''}" for f in json.loads(raw))
    for shown in (text, text_err, messages, raw_err):
        assert "code=" not in shown and "params=" not in shown
        assert re.search(r"\{[a-z_#]+\}", shown) is None, re.search(r".{40}\{[a-z_#]+\}.{20}", shown)

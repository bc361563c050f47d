"""A name from a node, a plan, a user catalog, a price file or a config.json prints escaped on one line in every
command: a carriage return, line feed, ESC/OSC sequence, BEL or U+202E in a host, GPU, NIC, vendor, signer,
part or model name never reaches the terminal raw, and no line of the output is the forged "[PASS] FORGED".

The commands run in-process (``cli.main``) with their output captured: what they print goes through the
one terminal-text cleaner (procurement.terminal), which escapes every control character but lets messages
keep their newlines and tabs; names are escaped where they are put into a line (terminal.one_line)."""

from __future__ import annotations

import contextlib
import io
import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

import procurement.commands.cli as cli
from tests.conftest import EXAMPLES, REPO

HOSTILE = "\n[PASS] FORGED\r\x1b[2K\x1b]0;owned\x07\u202eX"
RAW_CHARS = ("\r", "\x1b", "\x07", "\u202e")
RAW = REPO / "tests" / "fixtures" / "verify" / "raw" / "collector-1.1_t4_untuned.json"


def run(*argv: str) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            rc = cli.main(list(argv))
    except SystemExit as exc:
        rc = int(exc.code or 0)
    return rc, out.getvalue() + err.getvalue()


def assert_clean(out: str, shown: bool = True) -> None:
    raw = [hex(ord(c)) for c in RAW_CHARS if c in out]
    assert raw == [], f"raw {raw} in: {out[-2000:]!r}"
    # at the start of a line; a name with spaces may wrap, onto an indented continuation line
    forged = [line for line in out.splitlines() if line.startswith(("[PASS] FORGED", "FORGED"))]
    assert forged == [], forged
    assert "Traceback" not in out
    if shown:  # the hostile name is printed, escaped, so the test looked at it
        assert "[PASS] FORGED" in out, out[-2000:]


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    d = tmp_path_factory.mktemp("hostile")
    raw: dict[str, Any] = json.loads(RAW.read_text(encoding="utf-8"))
    raw["files"]["/proc/sys/kernel/hostname"] = "node01" + HOSTILE + "\n"
    xml = raw["commands"]["nvidia_smi_q"]["stdout"]
    in_xml = "&#10;[PASS] FORGED&#13;&#x202e;X"  # XML 1.0 has no ESC: a line break, CR and U+202E
    xml = xml.replace("<product_name>Tesla T4</product_name>", f"<product_name>Tesla T4{in_xml}</product_name>")
    raw["commands"]["nvidia_smi_q"]["stdout"] = xml.replace("<serial>0000000000000</serial>",
                                                            f"<serial>0000{in_xml}</serial>")
    raw["net"][0]["name"] = "eth0" + HOSTILE
    (d / "raw.json").write_text(json.dumps(raw), encoding="utf-8")
    (d / "raw2.json").write_text(json.dumps(raw), encoding="utf-8")

    data: dict[str, Any] = yaml.safe_load((EXAMPLES / "llm-cluster-node.gpuplan.yaml").read_text(encoding="utf-8"))
    gpu = data["gpu"]["model"]
    data["title"] = "T" + HOSTILE
    vendor = "V" + HOSTILE
    data["vendor_quotes"] = [{"vendor": vendor, "number": "N" + HOSTILE, "delivery": "D" + HOSTILE,
                              "lines": [{"text": "L" + HOSTILE, "for_part": gpu, "quantity": 8,
                                         "unit_price_cny": 1000}, {"text": "E" + HOSTILE, "unit_price_cny": 5}]}]
    data["chosen_vendor"] = vendor
    data["waivers"] = [{"rule": "POWER-PSU", "reason": "R" + HOSTILE, "by": "B" + HOSTILE, "date": "2026-01-02"}]
    data["signoffs"] = {"approval": {"digest": "0" * 64, "signers": [
        {"name": "S" + HOSTILE, "role": "r" + HOSTILE, "date": "2026-01-02"}]}}
    data["server"]["cpu"] = "evil-cpu"
    (d / "plan.gpuplan").write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    data["checklist"] = {"unknown" + HOSTILE: {"checked": True}}
    data["server"]["chassis"] = "no-such" + HOSTILE
    (d / "bad.gpuplan").write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")

    catalog = d / "catalog"
    catalog.mkdir()
    cpus = yaml.safe_load((REPO / "catalog" / "data" / "cpus.yaml").read_text(encoding="utf-8"))["cpus"]
    original = next(c for c in cpus if c["id"] == yaml.safe_load(
        (EXAMPLES / "llm-cluster-node.gpuplan.yaml").read_text(encoding="utf-8"))["server"]["cpu"])
    (catalog / "cpus.yaml").write_text(yaml.safe_dump({"cpus": [
        {**original, "id": "evil-cpu", "name": "CPU" + HOSTILE, "vendor": "AMD" + HOSTILE}]}, allow_unicode=True),
        encoding="utf-8")
    cell = ("RTX 4090" + HOSTILE).replace('"', '""')
    (d / "quote.csv").write_text(f'型号,单价\n"{cell}",12999\n', encoding="utf-8")
    (d / "config.json").write_text(json.dumps({
        "hidden_size": 3584, "intermediate_size": 18944, "num_attention_heads": 28, "num_hidden_layers": 28,
        "num_key_value_heads": 4, "vocab_size": 152064, "model_type": "qwen2" + HOSTILE,
        "architectures": ["Qwen2" + HOSTILE], "_name_or_path": "q" + HOSTILE}), encoding="utf-8")
    yield d


def _node_commands(d: Path) -> dict[str, list[str]]:
    raw, raw2, plan = str(d / "raw.json"), str(d / "raw2.json"), str(d / "plan.gpuplan")
    return {
        "judge": ["judge", raw],
        "judge, a cluster": ["judge", raw, raw2],
        "judge --plan": ["judge", "--plan", plan, "--catalog", str(d / "catalog"), raw],
        "judge --json then verify --merge": ["verify", "--merge", str(d / "r1.json"), str(d / "r2.json")],
        "handover": ["handover", "--catalog", str(d / "catalog"), plan, raw, str(d / "handover")],
    }


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("command", list(_node_commands(Path())))
def test_a_hostile_node_prints_escaped_on_one_line(hostile: Path, command: str, lang: str) -> None:
    d = hostile
    if command.startswith("judge --json"):
        for name in ("r1", "r2"):
            run("judge", str(d / "raw.json"), "--json", str(d / f"{name}.json"))
    shutil.rmtree(d / "handover", ignore_errors=True)
    rc, out = run(*_node_commands(d)[command], "--lang", lang)
    assert rc in (0, 1, 3), (rc, out[-2000:])
    assert_clean(out, shown=command != "handover")  # handover prints what it wrote, not the node's names


def _plan_commands(d: Path) -> dict[str, list[str]]:
    plan, catalog = str(d / "plan.gpuplan"), str(d / "catalog")
    return {
        "check": ["check", plan, "--catalog", catalog],
        "check, unknown ids": ["check", str(d / "bad.gpuplan"), "--catalog", catalog],
        "check --json": ["check", "--json", plan, "--catalog", catalog],
        "quote compare": ["quote", "compare", plan, "--catalog", catalog],
        "quote import": ["quote", "import", "--vendor", "Q" + HOSTILE, plan, str(d / "quote.csv"), "--catalog",
                         catalog],
        "sign": ["sign", "--kind", "approval", "--name", "N" + HOSTILE, plan, "--catalog", catalog],
        "size --config": ["size", "--config", str(d / "config.json")],
        "catalog check": ["catalog", "check", catalog],
    }


@pytest.mark.parametrize("command", list(_plan_commands(Path())))
def test_hostile_plan_catalog_price_and_config_names_print_escaped(hostile: Path, command: str) -> None:
    d = hostile
    for lang in ("en", "zh"):
        argv = _plan_commands(d)[command]
        rc, out = run(*argv, *(["--lang", lang] if argv[0] != "catalog" else []))
        assert rc in (0, 1, 2, 3), (rc, out[-2000:])
        assert_clean(out, shown=command not in ("catalog check", "check --json"))

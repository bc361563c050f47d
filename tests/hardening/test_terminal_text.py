"""Everything a command prints goes through one terminal-text cleaner: values from plans, user catalogs and
reports cannot forge lines, move the cursor or crash the printing."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import yaml

from procurement.terminal import CleanStream, clean_output, one_line
from procurement.verify.host import HostInfo
from procurement.verify.probe import report_from_outputs
from procurement.verify.report import write_report
from tests.conftest import EXAMPLES, NVIDIA_SMI_FIXTURES, REPO

H100_XML = NVIDIA_SMI_FIXTURES / "k8s-test-infra_8x-h100-80gb-hbm3_580.105.08_v13.xml"


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO), "GPU_PROCURE_CACHE_DIR": "off", "LANG": "C.UTF-8"}
    return subprocess.run([sys.executable, "-m", "procurement.commands.cli", *args], capture_output=True, timeout=120,
                          env=env, text=True, errors="surrogateescape")


def test_the_cleaner_escapes_what_a_terminal_would_obey() -> None:
    assert one_line("node9\r\x1b[32mALL PASS\n[Error] X") == "node9\\x0d\\x1b[32mALL PASS\\x0a[Error] X"
    assert one_line("\u202eevil\ud800") == "\\u202eevil\\ud800"
    assert clean_output("line 1\n\tline 2\r\x07") == "line 1\n\tline 2\\x0d\\x07"
    raw = io.BytesIO()
    stream = CleanStream(io.TextIOWrapper(raw, encoding="utf-8"))
    stream.buffer.write(b"%PDF\r\n")  # bytes (a PDF on standard output) pass untouched
    stream.write("a\rb\n")
    stream.flush()
    assert raw.getvalue() == b"%PDF\r\na\\x0db\n"


def test_an_unknown_part_id_with_a_newline_forges_no_line(tmp_path: Path) -> None:
    data = yaml.safe_load((EXAMPLES / "llm-cluster-node.gpuplan.yaml").read_text(encoding="utf-8"))
    data["server"]["cpu"] = "epyc\n[Error] FAKE-RULE: all fine\r\x1b[2K"
    plan = tmp_path / "p.gpuplan.yaml"
    plan.write_text(yaml.safe_dump(data), encoding="utf-8")
    done = _cli("check", str(plan), "--lang", "en")
    out = done.stdout + done.stderr
    assert done.returncode == 2
    assert not any(line.startswith("[Error] FAKE-RULE") for line in out.splitlines()), out
    assert "\r" not in out and "\x1b" not in out


def test_merge_tables_show_hostile_hostnames_escaped(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    paths = []
    for i, host in enumerate(("node1\rnode9 ALL PASS", "\ud800bad", "n3\n[PASS] forged")):
        report = report_from_outputs(H100_XML.read_text(encoding="utf-8"), catalog, None, "en",
                                     HostInfo(hostname=host))
        path = tmp_path / f"r{i}.json"
        write_report(report, path)  # the lone surrogate is written as the JSON escape \ud800
        paths.append(str(path))
    assert "\\ud800bad" in (tmp_path / "r1.json").read_text(encoding="utf-8")
    done = _cli("verify", "--merge", *paths, "--lang", "en")
    out = done.stdout + done.stderr
    assert "Traceback" not in out, out  # a \ud800 hostname raised UnicodeEncodeError while printing
    assert "\r" not in out and "node1\\x0dnode9 ALL PASS" in out
    assert "\\ud800bad" in out
    assert not any(line.startswith("[PASS] forged") for line in out.splitlines())

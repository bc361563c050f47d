"""Without a Chinese font to embed, the export says so on standard error and on the PDF's first page; with one
embedded, nothing is said."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from procurement.reports import fonts as fonts_mod
from tests.conftest import EXAMPLES

REPO = Path(__file__).resolve().parents[3]


def _export(tmp_path: Path, lang: str, system_fonts: str) -> tuple[subprocess.CompletedProcess[str], list[str]]:
    env = {**os.environ, "GPU_PROCURE_SYSTEM_FONTS": system_fonts, "PYTHONPATH": str(REPO)}
    env.pop("GPU_PROCURE_CJK_FONT", None)
    out = tmp_path / f"{lang}-{system_fonts}.pdf"
    plan = str(EXAMPLES / "mid-size-training.gpuplan.yaml")
    run = subprocess.run([sys.executable, "-m", "procurement.commands.cli", "export", plan, "--checklist", str(out),
                          "--lang", lang], capture_output=True, text=True, env=env, timeout=120, check=False)
    pages = [subprocess.run(["pdftotext", "-f", str(n), "-l", str(n), str(out), "-"], capture_output=True,
                            text=True, check=True).stdout for n in (1, 2)]
    return run, pages


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_no_embedded_font_is_said_on_export_and_on_the_first_page(tmp_path: Path, lang: str) -> None:
    run, (first, second) = _export(tmp_path, lang, "0")
    assert run.returncode == 0, run.stderr
    assert "STSong-Light" in run.stderr and "fonts-wqy-zenhei" in run.stderr
    assert ("未找到 TrueType 中文字体" if lang == "zh" else "no TrueType Chinese font was found") in run.stderr
    flat = " ".join(first.split())
    assert "No Chinese font is embedded" in flat  # in English too: a viewer without a Chinese font shows it
    if lang == "zh":
        assert "本 PDF 未嵌入中文字体" in flat
    assert "No Chinese font is embedded" not in " ".join(second.split())  # the first page only


@pytest.mark.skipif(not fonts_mod.font_chain().embedded, reason="needs a TrueType CJK font on this machine")
def test_with_an_embedded_font_nothing_is_said(tmp_path: Path) -> None:
    run, (first, _) = _export(tmp_path, "zh", "1")
    assert run.returncode == 0 and "STSong-Light" not in run.stderr
    assert "未嵌入中文字体" not in first

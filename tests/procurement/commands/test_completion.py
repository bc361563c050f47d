"""`gpu-procure completion`: scripts generated from the parser that complete commands, options and choices."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from procurement.commands import COMMANDS
from procurement.commands.cli import main
from procurement.commands.completion import levels, script

pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")


def _complete(tmp_path: Path, line: str) -> list[str]:
    """What bash completes for the command line ``line`` (the cursor at its end)."""
    (tmp_path / "gpu.sh").write_text(script("bash"), encoding="utf-8")
    words = line.split(" ")
    array = " ".join("'" + w + "'" for w in words)
    code = (f"source {tmp_path / 'gpu.sh'}; COMP_WORDS=({array}); COMP_CWORD={len(words) - 1}; "
            "_gpu_procure; printf '%s\\n' \"${COMPREPLY[@]}\"")
    proc = subprocess.run(["bash", "--norc", "--noprofile", "-c", code], cwd=tmp_path, capture_output=True,
                          text=True, timeout=30)
    assert proc.returncode == 0, proc.stderr
    return sorted(w for w in proc.stdout.splitlines() if w)


def test_commands_complete(tmp_path: Path) -> None:
    assert "check" in _complete(tmp_path, "gpu-procure ch")
    assert _complete(tmp_path, "gpu-procure ve") == ["verify"]
    assert _complete(tmp_path, "gpu-procure --catalog dir ve") == ["verify"]  # an option's value is skipped


def test_options_and_choices_of_a_command(tmp_path: Path) -> None:
    assert _complete(tmp_path, "gpu-procure check --la") == ["--lang"]
    assert _complete(tmp_path, "gpu-procure check --lang ") == ["en", "zh"]
    assert _complete(tmp_path, "gpu-procure export plan.gpuplan --paper ") == ["a4", "letter"]
    assert _complete(tmp_path, "gpu-procure catalog ") == ["check"]
    assert "--self-test" in _complete(tmp_path, "gpu-procure --s")  # the app's options at the top level
    assert _complete(tmp_path, "gpu-procure completion ") == ["bash", "fish", "zsh"]


def test_file_names_complete_for_plans(tmp_path: Path) -> None:
    (tmp_path / "lab.gpuplan").write_text("", encoding="utf-8")
    assert "lab.gpuplan" in _complete(tmp_path, "gpu-procure check la")
    assert "lab.gpuplan" in _complete(tmp_path, "gpu-procure la")


def test_every_command_and_option_of_the_parser_is_in_the_script() -> None:
    text = script("bash")
    for command in COMMANDS:
        assert f"'>{command.name}')" in text
    for level in levels():
        for option in level.options:
            assert option in text


@pytest.mark.parametrize("shell", ["zsh", "fish"])
def test_other_shells(shell: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["completion", shell]) == 0
    out = capsys.readouterr().out
    assert "gpu-procure" in out and "check" in out
    if shell == "zsh":
        assert "bashcompinit" in out and "_gpu_procure()" in out
    else:
        assert "complete -c gpu-procure -n 'not __fish_seen_subcommand_from" in out
        assert "-l lang -x -a 'en zh'" in out
    if shutil.which(shell):
        proc = subprocess.run([shell, "-n" if shell == "zsh" else "--no-execute", "/dev/stdin"], input=out,
                              capture_output=True, text=True, timeout=30)
        assert proc.returncode == 0, proc.stderr

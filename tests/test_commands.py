"""The command table: every sub-command and a mistyped one run headless without Qt; one exit-status table."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from gui.launch import is_headless
from procurement.commands import COMMANDS
from procurement.exit_status import MEANING, ExitStatus, worst_exit
from tests.conftest import REPO

RUN = r"""
import json, sys
from gui.launch import main
try:
    code = main({argv!r})
except SystemExit as exc:  # argparse's --help and usage errors
    code = exc.code
qt = sorted(m for m in sys.modules if m.split('.')[0] in ('PySide6', 'shiboken6'))
print(json.dumps({{"code": code, "qt": qt}}))
"""


def launch(*argv: str) -> tuple[int, list[str], str]:
    """Run gui.launch.main(argv) in a fresh interpreter: (exit status, Qt modules loaded, stderr)."""
    env = {"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "QT_QPA_PLATFORM": "offscreen"}
    proc = subprocess.run([sys.executable, "-c", RUN.format(argv=list(argv))], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=120)
    result = json.loads(proc.stdout.splitlines()[-1])
    return result["code"], result["qt"], proc.stderr


def test_mistyped_command_is_a_usage_error_without_qt() -> None:
    code, qt, err = launch("verfy", "--plan", "x.gpuplan.yaml")
    assert qt == [], "a mistyped command must not open (or even import) the app"
    assert code == ExitStatus.UNUSABLE == 2
    assert "unknown command 'verfy' (did you mean 'verify'?)" in err


@pytest.mark.parametrize("command", [c.name for c in COMMANDS])
def test_every_command_runs_headless(command: str) -> None:
    code, qt, _ = launch(command, "--help")
    assert (code, qt) == (0, [])


def test_bad_option_of_a_command_is_a_usage_error() -> None:
    code, qt, err = launch("check", "--no-such-option", "x.gpuplan.yaml")
    assert (code, qt) == (2, [])
    assert "unrecognized arguments: --no-such-option" in err


def test_check_of_an_incomplete_plan_exits_3_without_qt(tmp_path: Path) -> None:
    plan = tmp_path / "bare.gpuplan.yaml"
    plan.write_text("schema_version: 1\ngpu: {model: a100-pcie-40gb, count: 4}\n", encoding="utf-8")
    code, qt, _ = launch("check", str(plan), "--lang", "en")
    assert (code, qt) == (ExitStatus.INCOMPLETE, [])


@pytest.mark.parametrize(("argv", "headless"), [
    ([], False),
    (["--self-test"], False),
    (["--lang", "en", "--self-test"], False),
    (["plan.gpuplan.yaml"], False),
    (["./plan"], False),
    (["--catalog", "company", "plan.gpuplan.yaml"], False),
    (["--help"], True),
    (["--version"], True),
    (["check", "plan.gpuplan.yaml"], True),
    (["--catalog", "company", "check", "plan.gpuplan.yaml"], True),
    (["size"], True),  # not a command yet: the CLI says so, the app does not open
    (["verfy"], True),
])
def test_routing(argv: list[str], headless: bool) -> None:
    assert is_headless(argv) is headless


def test_an_existing_file_named_like_a_word_opens_in_the_app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "myplan").write_text("schema_version: 1\n", encoding="utf-8")
    assert not is_headless(["myplan"])


def test_readme_shows_the_exit_status_table() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| ([0-3]) \| ([^|]+?) \|", readme, flags=re.M))
    assert rows == {str(int(s)): MEANING[s] for s in ExitStatus}


def test_worst_exit_ranks_unusable_over_failed_over_incomplete() -> None:
    assert worst_exit() == ExitStatus.OK
    assert worst_exit(0, 3) == ExitStatus.INCOMPLETE
    assert worst_exit(3, 1, 0) == ExitStatus.FAILED
    assert worst_exit(1, 2, 3) == ExitStatus.UNUSABLE


def test_every_command_lives_in_the_commands_package() -> None:
    package = REPO / "procurement" / "commands"
    for command in COMMANDS:
        module = command.load()
        assert Path(module.__file__ or "").resolve() == package / f"{command.name.replace('-', '_')}.py", command
        assert callable(module.add_arguments) and callable(module.run), command.name
    stray = sorted(p.relative_to(REPO).as_posix() for p in (REPO / "procurement").rglob("*_cmd.py"))
    assert stray == [], "a command module outside procurement/commands/"
    assert not (REPO / "procurement" / "cli.py").exists() and not (REPO / "procurement" / "commands.py").exists()


def test_only_the_app_launcher_reaches_up_into_the_commands() -> None:
    """The commands sit on top of the core: no core module imports them (the launcher and the table's own
    modules do); import-linter's layers cover only the packages it names."""
    import ast

    importers = []
    for path in (REPO / "procurement").rglob("*.py"):
        if (REPO / "procurement" / "commands") in path.parents:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [f"{node.module}.{a.name}" for a in node.names] if isinstance(node, ast.ImportFrom)
                     else [])
            if any(n == "procurement.commands" or n.startswith("procurement.commands.") for n in names):
                importers.append(path.relative_to(REPO).as_posix())
    assert importers == []

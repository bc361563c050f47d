"""Nothing is executed through a shell and no YAML is loaded unsafely, anywhere in the code."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.conftest import REPO

SOURCE_DIRS = ("catalog", "procurement", "gui", "bench", "packaging")


def _python_files() -> list[Path]:
    return [p for d in SOURCE_DIRS if (REPO / d).is_dir() for p in (REPO / d).rglob("*.py")]


def _calls(tree: ast.AST) -> list[ast.Call]:
    return [n for n in ast.walk(tree) if isinstance(n, ast.Call)]


def _name(func: ast.expr) -> str:
    if isinstance(func, ast.Attribute):
        return f"{_name(func.value)}.{func.attr}"
    return func.id if isinstance(func, ast.Name) else "?"


def test_no_shell_and_no_unsafe_yaml() -> None:
    files = _python_files()
    assert len(files) > 10
    offences = []
    for path in files:
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for call in _calls(tree):
            name = _name(call.func)
            where = f"{path.relative_to(REPO)}:{call.lineno}"
            if name in ("os.system", "os.popen", "subprocess.getoutput", "subprocess.getstatusoutput"):
                offences.append(f"{where}: {name}")
            for kw in call.keywords:
                if kw.arg == "shell" and not (isinstance(kw.value, ast.Constant) and kw.value.value is False):
                    offences.append(f"{where}: shell=")
            if name in ("yaml.load", "yaml.load_all", "yaml.unsafe_load", "yaml.full_load"):
                loader = next((kw.value for kw in call.keywords if kw.arg == "Loader"), None)
                if not (isinstance(loader, ast.Name) and loader.id == "_Loader"):
                    offences.append(f"{where}: {name} without the safe loader")
            if name in ("eval", "exec", "pickle.loads", "pickle.load", "marshal.loads"):
                offences.append(f"{where}: {name}")
    assert offences == []

"""Start-up imports: the first window loads no PDF, verification or report code; headless runs load no Qt."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys

import pytest

from tests.conftest import REPO

# Loaded on first use only (issue 7): the PDF library, the report code and the verification code; the
# spreadsheet library (price import, exports) too (issue 25).
LAZY = ("reportlab", "openpyxl", "procurement.reports", "procurement.verify")
# Not needed to paint the window's frame (issue 25): the models, their library, the YAML reader, the plan and
# every page (each is imported when first shown, after the first paint).
AFTER_FIRST_PAINT = ("pydantic", "yaml", "catalog.models", "catalog.loader", "procurement.plan",
                     "procurement.evaluation", "procurement.rules", "gui.pages.step1_requirements",
                     "gui.pages.step2_gpu", "gui.pages.step3_server", "gui.pages.step4_image",
                     "gui.pages.step5_verify", "gui.pages.checklist_view", "gui.pages.quote_view")
PAGES_2_TO_7 = AFTER_FIRST_PAINT[-6:]
WATCHED = "('reportlab', 'openpyxl', 'procurement', 'catalog', 'gui', 'pydantic', 'yaml')"

PROBE = r"""
import json, sys
import {module}
print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in ('reportlab', 'procurement'))))
"""


def _loaded_after_import(module: str) -> list[str]:
    env = {"QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin",
           "LANG": "C.UTF-8"}
    proc = subprocess.run([sys.executable, "-c", PROBE.format(module=module)], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return list(json.loads(proc.stdout.splitlines()[-1]))


@pytest.mark.parametrize("module", ["gui.app", "gui.main_window"])
def test_first_window_loads_no_pdf_or_verify_code(module: str) -> None:
    if importlib.util.find_spec(module) is None:
        pytest.skip(f"{module} does not exist yet")
    loaded = _loaded_after_import(module)
    eager = [m for m in loaded if any(m == lazy or m.startswith(lazy + ".") for lazy in LAZY)]
    assert not eager, f"importing {module} loads {eager}: import them where they are first used"


# The app up to its first painted main window (bench/startup.py's probe ends it there), then what it loaded.
FIRST_PAINT = r"""
import json, sys
sys.path.insert(0, 'bench')
import startup
AT_PAINT = []
app = startup.APP.replace('print("FIRST_PAINT", time.time(), flush=True)', 'AT_PAINT.extend(sys.modules)')
assert app != startup.APP
exec(app.replace('sys.exit(main([]))', 'main([])'))
print(json.dumps(sorted(m for m in AT_PAINT if m.split('.')[0] in WATCHED)))
""".replace("WATCHED", WATCHED)

# The window paints its frame first and loads the catalog and the pages after that (issue 7); pages are
# imported when first shown, so none of the heavy code is loaded by the time of the first paint.
def test_first_painted_window_loads_no_pdf_or_verify_code(tmp_path: object) -> None:
    env = {"QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin",
           "LANG": "C.UTF-8", "HOME": str(tmp_path)}
    proc = subprocess.run([sys.executable, "-c", FIRST_PAINT], cwd=REPO, env=env, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-3000:]
    loaded = json.loads(proc.stdout.splitlines()[-1])
    eager = [m for m in loaded if any(m == lazy or m.startswith(lazy + ".") for lazy in LAZY + AFTER_FIRST_PAINT)]
    assert not eager, f"the first window loads {eager}: import them where they are first used"
    assert "gui.main_window" in loaded, "the probe ran the app"


# The whole start: frame painted, catalog loaded, plan attached, step 1 built and shown; then what it loaded.
STARTED = r"""
import json, sys
from PySide6.QtWidgets import QApplication
from gui import main_window
attach = main_window.MainWindow.attach
built = []
def attach_then_quit(self, *args, **kw):
    attach(self, *args, **kw)
    built.extend(type(p).__name__ for p in self.built_pages() if p is not None)
    QApplication.instance().quit()
main_window.MainWindow.attach = attach_then_quit
from gui.launch import main
main([])
print(json.dumps(built))
print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in WATCHED)))
""".replace("WATCHED", WATCHED)


def test_started_window_builds_only_step_1_and_loads_no_pdf_or_verify_code(tmp_path: object) -> None:
    env = {"QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin",
           "LANG": "C.UTF-8", "HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path),
           "XDG_DATA_HOME": str(tmp_path)}
    proc = subprocess.run([sys.executable, "-c", STARTED], cwd=REPO, env=env, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-3000:]
    built, loaded = (json.loads(line) for line in proc.stdout.splitlines()[-2:])
    assert built == ["RequirementsPage"], "only the page on screen is built"
    assert "procurement.rules" in loaded, "the plan was attached and evaluated"
    eager = [m for m in loaded if any(m == lazy or m.startswith(lazy + ".") for lazy in LAZY + PAGES_2_TO_7)]
    assert not eager, f"the started window loads {eager}: import them where they are first used"


HEADLESS = r"""
import sys
from gui.launch import main
try:
    main({argv!r})
except BaseException:  # only the imports matter here, not how the command ended
    pass
qt = sorted(m for m in sys.modules if m.split('.')[0] in ('PySide6', 'shiboken6'))
print('QT', qt)
"""


@pytest.mark.parametrize("argv", [["--help"], ["check", "/nonexistent/x.gpuplan.yaml"],
                                  ["check", "--json", "/nonexistent/x.gpuplan.yaml"],
                                  ["catalog", "check", "/nonexistent"]])
def test_headless_commands_never_import_qt(argv: list[str]) -> None:
    proc = subprocess.run([sys.executable, "-c", HEADLESS.format(argv=argv)], cwd=REPO, capture_output=True,
                          text=True, timeout=120)
    assert proc.stdout.splitlines()[-1] == "QT []", proc.stdout[-2000:] + proc.stderr[-2000:]

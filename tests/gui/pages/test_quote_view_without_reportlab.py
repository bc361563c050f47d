"""The quote page shows its figures without the PDF code: reportlab (~230 ms of imports) loads only when a PDF is
rendered. Before, opening the page for the first time took about 330 ms because ``procurement.reports`` imported
the checklist and quote PDF modules."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.conftest import EXAMPLES, REPO

_SCRIPT = r"""
import sys
from PySide6.QtWidgets import QApplication
app = QApplication([])
from catalog.loader import default_catalog
from gui.controller import PlanController
from gui.pages.quote_view import QuotePage
from procurement.plan import load_plan
controller = PlanController(default_catalog(), lang="zh")
controller.new(load_plan(sys.argv[1]))
page = QuotePage(controller)
page.show()
app.processEvents()
assert page.isVisible()
print("REPORTLAB", "reportlab" in sys.modules)
import procurement.reports as reports
reports.render_quote_pdf  # the PDF names still import on first use
print("AFTER", "reportlab" in sys.modules)
"""


def test_the_quote_page_opens_without_importing_reportlab() -> None:
    done = subprocess.run([sys.executable, "-c", _SCRIPT, str(EXAMPLES / "llm-cluster-node.gpuplan.yaml")],
                          capture_output=True, text=True, timeout=120, cwd=REPO,
                          env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
    assert done.returncode == 0, done.stderr[-2000:]
    assert "REPORTLAB False" in done.stdout, done.stdout
    assert "AFTER True" in done.stdout, done.stdout

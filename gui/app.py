"""Creates the QApplication and the main window; handles --self-test and a plan path on the command line."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMainWindow, QMessageBox, QTableWidget, QTableWidgetItem

from catalog.loader import CatalogError, load_catalog
from catalog.models import Gpu


def _parse(argv: Sequence[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="gpu-procure")
    p.add_argument("plan", nargs="?", type=Path)
    p.add_argument("--self-test", action="store_true", help="open the window, paint once, exit 0")
    p.add_argument("--catalog", type=Path, action="append", default=[])
    return p.parse_args(list(argv))


class CatalogWindow(QMainWindow):
    def __init__(self, catalog_dirs: Sequence[Path] = ()) -> None:
        super().__init__()
        self.setWindowTitle("gpu-procure")
        cat = load_catalog(catalog_dirs)
        gpus = cat.all(Gpu)
        table = QTableWidget(len(gpus), 4, self)
        table.setHorizontalHeaderLabels([self.tr("GPU"), self.tr("Memory (GiB)"), self.tr("TDP (W)"),
                                         self.tr("Price (CNY)")])
        for row, g in enumerate(gpus):
            for col, val in enumerate((g.name, g.memory_gib, g.tdp_w, g.price_cny)):
                table.setItem(row, col, QTableWidgetItem("" if val is None else str(val)))
        self.setCentralWidget(table)
        self.resize(1000, 700)


def run_app(argv: Sequence[str]) -> int:
    args = _parse(argv)
    app = QApplication.instance() or QApplication(sys.argv[:1])
    try:
        win = CatalogWindow(args.catalog)
    except CatalogError as exc:
        QMessageBox.critical(None, "gpu-procure", str(exc))
        return 2
    win.show()
    if args.self_test:
        QTimer.singleShot(0, app.quit)
    return app.exec()

"""Renders every page of the window (with an example plan and its findings) in zh and en to PNG files."""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication

from catalog.loader import load_catalog
from gui.app import make_app, use_cjk_font
from gui.autosave import RecoveryStore
from gui.controller import PlanController
from gui.i18n import Translators
from gui.main_window import MainWindow, examples_dir
from gui.settings import Settings
from procurement.plan import Plan, load_plan

SIZE = (1280, 800)
SLUGS = ("1-requirements", "2-gpu", "3-server", "4-image", "5-verify", "6-checklist", "7-quote")


def pick_example(catalog_plan: Path | None) -> Plan:
    """The plan to show: the one given, else the shipped example with the most findings' worth of parts."""
    if catalog_plan is not None:
        return load_plan(catalog_plan)
    examples = sorted(examples_dir().glob("*.yaml")) if examples_dir().is_dir() else []
    for path in examples:
        if "mid-size" in path.name:
            return load_plan(path)
    return load_plan(examples[0]) if examples else Plan()


def render(out_dir: Path, plan_path: Path | None = None, langs: Sequence[str] = ("zh", "en")) -> list[Path]:
    app = make_app()
    use_cjk_font(app)
    out_dir.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(QSettings(str(Path(tmp) / "settings.ini"), QSettings.Format.IniFormat))
        translators = Translators()
        controller = PlanController(load_catalog(), lang="zh")
        win = MainWindow(controller, settings, translators, RecoveryStore(Path(tmp) / "recovery"))
        controller.new(pick_example(plan_path))
        win.resize(*SIZE)
        win.show()
        for lang in langs:
            win.set_language(lang)  # type: ignore[arg-type]
            for i, slug in enumerate(SLUGS[: len(win.pages)]):
                win.show_page(i)
                QApplication.processEvents()
                QApplication.processEvents()
                target = out_dir / f"{lang}-{slug}.png"
                win.grab().save(str(target))
                written.append(target)
        win.close()
        win.deleteLater()
        QApplication.processEvents()
    return written


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m gui.screenshots")
    p.add_argument("out_dir", type=Path, nargs="?", default=Path("docs/screenshots"))
    p.add_argument("--plan", type=Path, help="the plan to show (default: a shipped example)")
    p.add_argument("--lang", action="append", choices=("zh", "en"))
    args = p.parse_args(argv)
    for path in render(args.out_dir, args.plan, args.lang or ("zh", "en")):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Creates the QApplication and the main window; handles --self-test, --catalog, --lang and a plan path."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QFont, QFontDatabase
from PySide6.QtWidgets import QApplication

from gui import pyside_hook  # noqa: F401  (first: the modules imported after it are checked the quick way)
from gui.file_open import GpuProcureApp, plan_opener
from gui.i18n import Translators, system_lang
from gui.icon import DESKTOP_ID, app_icon
from gui.main_window import MainWindow
from gui.settings import Settings, set_identity
from procurement.app_options import app_parser
from procurement.messages import Lang

CJK_FAMILIES = ("WenQuanYi Zen Hei", "Noto Sans CJK SC", "Source Han Sans SC", "Microsoft YaHei", "PingFang SC")


def _parse(argv: Sequence[str]) -> argparse.Namespace:
    return app_parser().parse_args(list(argv))


def make_app() -> QApplication:
    app = QApplication.instance()
    if not isinstance(app, QApplication):
        app = GpuProcureApp(sys.argv[:1])
    set_identity()
    app.setApplicationDisplayName("gpu-procure")
    app.setDesktopFileName(DESKTOP_ID)  # lets Wayland compositors and taskbars find the .desktop entry
    return app


def use_cjk_font(app: QApplication) -> str | None:
    """Prefer an installed CJK font as the UI font so Chinese never falls back to boxes."""
    families = set(QFontDatabase.families())
    for family in CJK_FAMILIES:
        if family in families:
            font = QFont(family)
            font.setPointSizeF(app.font().pointSizeF() if app.font().pointSizeF() > 0 else 10)
            app.setFont(font)
            return family
    return None


def _fatal(title: str, text: str, self_test: bool, win: MainWindow) -> None:
    """Say why the app cannot start, close the window and end the event loop with exit status 2."""
    if self_test:
        print(f"{title}: {text}", file=sys.stderr)
    else:
        from PySide6.QtWidgets import QMessageBox

        QMessageBox.critical(win, title, text)
    win.close()
    QApplication.exit(2)


def run_app(argv: Sequence[str]) -> int:
    """Show the window's frame at once; load the catalog, the policy and the plan right after its first paint."""
    args = _parse(argv)
    app = make_app()
    use_cjk_font(app)
    settings = Settings()
    translators = Translators()
    lang: Lang = args.lang or settings.language or system_lang()
    translators.install(lang)
    win = MainWindow(None, settings, translators)
    opener = plan_opener(app)

    def load() -> None:
        app.setWindowIcon(app_icon())  # after the first paint: reading the SVG is not needed to draw the frame
        from catalog.loader import CatalogError, load_catalog, overlay_warnings
        from gui.autosave import RecoveryStore
        from gui.controller import PlanController
        from procurement.policy import PolicyError, default_policy, load_policy

        translate = QCoreApplication.translate  # lupdate reads translate("app", "text")
        try:
            catalog = load_catalog(args.catalog)
        except (CatalogError, OSError) as exc:
            _fatal(translate("app", "The parts catalog cannot be loaded"),
                   translate("app", "Fix these problems in the catalog files and start again:") + "\n\n" + str(exc),
                   args.self_test, win)
            return
        try:
            policy = load_policy(args.policy) if args.policy else default_policy()
        except PolicyError as exc:
            _fatal(translate("app", "The policy file cannot be loaded"), str(exc), args.self_test, win)
            return
        win.policy_path = Path(args.policy) if args.policy else None
        controller = PlanController(catalog, policy, lang=translators, evaluate_now=False)
        win.attach(controller, RecoveryStore())
        # then the rules are imported and the plan evaluated in a worker, while the GUI thread waits for input:
        # the window says it is checking the plan; an edit before it ends is evaluated at once and the worker's
        # result dropped
        controller.evaluate_in_background()
        win.show_catalog_warnings(overlay_warnings(catalog))
        handed_over = opener.ready(lambda path: win.open_path(path, ask=True))
        if args.self_test:  # close inside the event loop: a later quit event would end the next loop
            win.repaint()
            win.close()
            app.quit()
        elif args.plan is not None:
            win.open_path(args.plan, ask=False)
        elif handed_over is not None:  # a plan double-clicked in Finder while the app was starting
            win.open_path(handed_over, ask=False)
        else:
            win.offer_recovery()

    win.after_first_paint(load)
    win.show()
    status = app.exec()
    if win.controller is not None:
        win.controller.wait_for_background()
    return status

"""Run-time language switching: our .qm plus Qt's own qtbase_zh_CN, and the core's message language."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QEvent, QLibraryInfo, QLocale, QTranslator

from procurement.messages import Lang

QM_NAME = "gpu_procure_zh_CN.qm"


def translations_dir() -> Path:
    return Path(str(resources.files("resources") / "translations"))


def system_lang() -> Lang:
    return "zh" if QLocale.system().language() == QLocale.Language.Chinese else "en"


class Translators:
    """Installs and removes the translators for one language; the source strings are English."""

    def __init__(self) -> None:
        self.lang: Lang = "en"
        self._installed: list[QTranslator] = []

    def install(self, lang: Lang) -> bool:
        """Switch the application to ``lang``; Qt then sends LanguageChange to every widget.
        Returns False when our Chinese .qm could not be loaded (the UI stays English)."""
        app = QCoreApplication.instance()
        if app is None:
            raise RuntimeError("no QApplication")
        for tr in self._installed:
            app.removeTranslator(tr)
        self._installed = []
        ok = True
        if lang == "zh":
            ours = QTranslator(app)
            ok = ours.load(str(translations_dir() / QM_NAME))
            qt_own = QTranslator(app)
            if qt_own.load("qtbase_zh_CN", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)):
                app.installTranslator(qt_own)
                self._installed.append(qt_own)
            if ok:
                app.installTranslator(ours)
                self._installed.append(ours)
        QLocale.setDefault(QLocale(QLocale.Language.Chinese, QLocale.Country.China) if lang == "zh"
                           else QLocale(QLocale.Language.English, QLocale.Country.UnitedStates))
        self.lang = lang if ok else "en"
        # (Un)installing posts LanguageChange; deliver it now so every label is switched on return.
        QCoreApplication.sendPostedEvents(None, QEvent.Type.LanguageChange)
        return ok

"""The app's current language, held in one place: Qt's and our widget catalogues and the core's message language."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QEvent, QLibraryInfo, QLocale, QTranslator

from procurement.messages import SOURCE_LANG, Lang, lang_of_locale, languages, locale_dirs

GUI_DOMAIN = "gui"


def widget_catalogue(lang: Lang) -> Path | None:
    """The compiled widget catalogue of ``lang`` (resources/locale/<lang>/LC_MESSAGES/gui.qm), if any."""
    for d in locale_dirs():
        qm = d / lang / "LC_MESSAGES" / f"{GUI_DOMAIN}.qm"
        if qm.is_file():
            return qm
    return None


def system_lang() -> Lang:
    """The system's UI language where the app has a catalogue for it, else English."""
    return lang_of_locale(QLocale.system().name())


def qlocale(lang: Lang) -> QLocale:
    return QLocale(QLocale.Language.English, QLocale.Country.UnitedStates) if lang == SOURCE_LANG else QLocale(lang)


class Translators:
    """The one owner of the current language. ``install`` switches Qt's own strings, the widgets' catalogue,
    number formats (QLocale's default) and — through the listeners, before any widget is told — the core's
    text (the plan controller re-evaluates its findings in the new language). The source strings are English."""

    def __init__(self, lang: Lang = SOURCE_LANG) -> None:
        self.lang: Lang = lang
        self._installed: list[QTranslator] = []
        self._listeners: list[Callable[[], None]] = []

    def listen(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` after every change of language, before widgets receive LanguageChange."""
        if callback not in self._listeners:
            self._listeners.append(callback)

    @staticmethod
    def available() -> tuple[Lang, ...]:
        """The languages the app can show: English and every language with a compiled catalogue."""
        return tuple(lang for lang in languages() if lang == SOURCE_LANG or widget_catalogue(lang))

    def install(self, lang: Lang) -> bool:
        """Switch the application to ``lang``; Qt then sends LanguageChange to every widget.
        Returns False when that language's widget catalogue could not be loaded (the UI stays English)."""
        app = QCoreApplication.instance()
        ok = True
        if app is not None:
            for tr in self._installed:
                app.removeTranslator(tr)
            self._installed = []
            if lang != SOURCE_LANG:
                qm = widget_catalogue(lang)
                ours = QTranslator(app)
                ok = qm is not None and ours.load(str(qm))
                qt_own = QTranslator(app)
                if qt_own.load(qlocale(lang), "qtbase", "_",
                               QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)):
                    app.installTranslator(qt_own)
                    self._installed.append(qt_own)
                if ok:
                    app.installTranslator(ours)
                    self._installed.append(ours)
        self.lang = lang if ok else SOURCE_LANG
        QLocale.setDefault(qlocale(self.lang))
        for callback in self._listeners:
            callback()
        if app is not None:
            # (Un)installing posts LanguageChange; deliver it now so every label is switched on return.
            QCoreApplication.sendPostedEvents(None, QEvent.Type.LanguageChange)
        return ok

"""One catalogue workflow: every core and widget text translated, the shipped compiled files current, the
shipped .qm switching the UI at run time, and a language added by files alone reaching the Language menu."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication

from gui import i18n_build
from gui.i18n import Translators
from procurement import messages


def test_every_core_and_widget_text_is_translated_and_compiled(tmp_path: Path) -> None:
    """`python -m gui.i18n_build` over a copy of resources/locale: 0 untranslated in every language and
    domain, and nothing to rewrite — the committed .po, .mo and .qm are what the build makes now."""
    locale = tmp_path / "locale"
    shutil.copytree(i18n_build.LOCALE, locale)
    results = i18n_build.build_core(locale) + i18n_build.build_gui(locale)
    assert {(r.lang, r.domain) for r in results} >= {("zh", "messages"), ("zh", "gui")}
    for r in results:
        assert r.untranslated == [], (f"{r.lang}/{r.domain}: translate these in resources/locale/{r.lang}/"
                                      "LC_MESSAGES, then run python -m gui.i18n_build")
    for built in sorted(p for p in locale.rglob("*") if p.is_file()):
        shipped = i18n_build.LOCALE / built.relative_to(locale)
        assert built.read_bytes() == shipped.read_bytes(), f"{shipped}: run python -m gui.i18n_build"
    messages.reload_catalogues()


def test_shipped_qm_translates_and_english_restores(qapp) -> None:
    translators = Translators()
    try:
        assert translators.install("zh")
        assert QCoreApplication.translate("MainWindow", "&File") == "文件(&F)"
        assert QCoreApplication.translate("dialogs", "Unsaved changes") == "未保存的修改"
        assert translators.lang == "zh"
    finally:
        translators.install("en")
    assert QCoreApplication.translate("MainWindow", "&File") == "&File"


def test_a_language_added_as_files_reaches_the_menu(make_window, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """A Russian folder — messages.po and gui.po with a few entries, compiled by the build — and no code: the
    Language menu offers it by its own name; choosing it switches widgets and findings in one step."""
    locale = tmp_path / "locale"
    for domain in (i18n_build.CORE, i18n_build.GUI):
        i18n_build.po_path("ru", domain, locale).parent.mkdir(parents=True, exist_ok=True)
        i18n_build.po_path("ru", domain, locale).write_text("", encoding="utf-8")
    i18n_build.build_core(locale, ["ru"])
    i18n_build.build_gui(locale, ["ru"])
    for domain, done in ((i18n_build.CORE, {("language.name", "English"): "Русский",
                                            ("step.3", "Server configuration"): "Конфигурация сервера"}),
                         (i18n_build.GUI, {("MainWindow", "&File"): "&Файл"})):
        po = i18n_build.po_path("ru", domain, locale)
        catalog = i18n_build.read_po(po, "ru")
        for (ctx, msgid), text in done.items():
            catalog.get(msgid, context=ctx).string = text
        i18n_build.write_po(po, catalog)
    i18n_build.build_core(locale, ["ru"])
    i18n_build.build_gui(locale, ["ru"])
    monkeypatch.setenv(messages.LOCALE_ENV, str(locale))
    messages.reload_catalogues()
    try:
        win = make_window()
        names = [a.text() for a in win.lang_menu.actions()]
        assert "Русский" in names and "中文" in names and "English" in names
        next(a for a in win.lang_menu.actions() if a.text() == "Русский").trigger()
        assert win.translators.lang == "ru" and win.controller.lang == "ru"
        assert win.file_menu.title() == "&Файл"
        assert "Конфигурация сервера" in win.page_label(2)
    finally:
        monkeypatch.delenv(messages.LOCALE_ENV)
        messages.reload_catalogues()

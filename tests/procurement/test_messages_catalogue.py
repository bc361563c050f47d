"""Core text comes from gettext catalogues: plural forms, a language added by files alone, the codemod."""

from __future__ import annotations

import ast
import importlib.util
import os
import sys
from pathlib import Path

import pytest

from gui import i18n_build
from procurement import messages
from procurement.messages import LOCALE_ENV, MESSAGES, Plural, languages, register, t

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tools"))
import move_inline_messages as codemod  # noqa: E402


@pytest.fixture(autouse=True)
def _fresh_catalogues():
    messages.reload_catalogues()
    yield
    messages.reload_catalogues()


def test_counted_nouns_agree_in_english_and_chinese_has_one_form() -> None:
    import procurement.rules  # noqa: F401  (registers the rules' text)

    fields = {"chassis": "SYS-X", "slots": 0}
    assert t("PCIE-GPU-SLOTS.message", "en", count=1, positions=1, **fields) == \
        "1 GPU need 1 GPU position; SYS-X has 0."
    assert t("PCIE-GPU-SLOTS.message", "en", count=4, positions=8, **fields) == \
        "4 GPUs need 8 GPU positions; SYS-X has 0."
    # the second counted noun has its own number: one GPU needing two positions
    assert t("PCIE-GPU-SLOTS.message", "en", count=1, positions=2, **fields) == \
        "1 GPU need 2 GPU positions; SYS-X has 0."
    assert t("PCIE-GPU-SLOTS.message", "zh", count=1, positions=2, **fields) == \
        "1 个 GPU 需要 2 个 GPU 位，机箱 SYS-X 只有 0 个。"
    assert messages.translation("zh").ngettext("x", "xs", 1) == "x"  # no entry: English forms
    assert messages.count_of("1") == 1 and messages.count_of("1,024") == 1024 and messages.count_of(1.5) == 2


def test_step_names_come_from_the_catalogue_in_each_language() -> None:
    names = ["需求分析", "GPU选型", "服务器配置", "镜像选择", "验证测试"]
    assert [t(f"step.{n}", "zh") for n in messages.STEPS] == names
    assert t("step.3", "en") == "Server configuration"
    assert messages.language_name("zh") == "中文" and messages.language_name("en") == "English"


def _write_po(path: Path, lang: str, entries: list[tuple[str, str | tuple[str, str], str | tuple[str, ...]]]) -> None:
    from babel.messages.catalog import Catalog

    catalog = Catalog(locale=lang, fuzzy=False)  # its Plural-Forms header: the language's own rule
    for ctx, msgid, msgstr in entries:
        catalog.add(msgid, msgstr, context=ctx)
    i18n_build.write_po(path, catalog)


def test_a_third_language_is_only_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A Russian catalogue (three plural forms) written in tmp_path: the code names no language, yet the
    language is listed, its text and its plural rule are used, and what it lacks falls back to English."""
    import procurement.rules  # noqa: F401

    slots = MESSAGES["PCIE-GPU-SLOTS.message#positions"]
    assert isinstance(slots, Plural)
    po = tmp_path / "locale" / "ru" / "LC_MESSAGES" / "messages.po"
    _write_po(po, "ru", [("step.1", "Requirements", "Требования"), ("language.name", "English", "Русский"),
               ("PCIE-GPU-SLOTS.message#positions", (slots.one, slots.other),
                ("{positions} позиция", "{positions} позиции", "{positions} позиций"))])
    i18n_build.compile_po(po)
    assert "ru" not in languages()
    monkeypatch.setenv(LOCALE_ENV, str(tmp_path / "locale"))
    assert languages() == ("en", "ru", "zh")
    assert messages.language_name("ru") == "Русский"
    assert t("step.1", "ru") == "Требования"
    assert t("step.2", "ru") == "GPU selection"  # not translated yet: English
    forms = [t("PCIE-GPU-SLOTS.message#positions", "ru", positions=n) for n in (1, 3, 5, 21)]
    assert forms == ["1 позиция", "3 позиции", "5 позиций", "21 позиция"]
    assert messages.lang_of_locale("ru_RU.UTF-8") == "ru" and messages.lang_of_locale("fr_FR") == "en"


def test_the_build_starts_a_new_language_with_every_entry(tmp_path: Path) -> None:
    locale = tmp_path / "locale"
    po = i18n_build.po_path("eo", i18n_build.CORE, locale)
    po.parent.mkdir(parents=True)
    po.write_text("", encoding="utf-8")
    (result,) = i18n_build.build_core(locale, ["eo"])
    assert po.with_suffix(".mo").is_file()
    english_keys = {k for k, v in MESSAGES.items() if not isinstance(v, dict)}
    assert {line.split(":", 1)[0] for line in result.untranslated} == english_keys


def test_shipped_core_catalogues_are_complete_and_compiled(tmp_path: Path) -> None:
    """Every registered message has its translation in every shipped language, and the committed .mo is what
    the committed .po compiles to (run `python -m gui.i18n_build` after editing either)."""
    import shutil

    locale = tmp_path / "locale"
    shutil.copytree(i18n_build.LOCALE, locale)
    results = i18n_build.build_core(locale)
    assert {r.lang for r in results} >= {"zh"}
    for r in results:
        assert r.untranslated == [], f"{r.lang}: run python -m gui.i18n_build and translate these"
        shipped = i18n_build.po_path(r.lang, i18n_build.CORE)
        assert (locale / shipped.relative_to(i18n_build.LOCALE)).read_text(encoding="utf-8") == \
            shipped.read_text(encoding="utf-8"), "the .po is not up to date with the code"
        assert (locale / shipped.relative_to(i18n_build.LOCALE)).with_suffix(".mo").read_bytes() == \
            shipped.with_suffix(".mo").read_bytes(), "the .mo is not compiled from the .po"



def test_the_build_writes_a_template_with_source_references(tmp_path: Path) -> None:
    """messages.pot: every registered message, with `#:` references to the lines where its key stands in the
    source (where it is registered, and where it is looked up by name); each .po holds exactly its entries."""
    import shutil

    locale = tmp_path / "locale"
    shutil.copytree(i18n_build.LOCALE, locale)
    i18n_build.build_core(locale)
    pot = i18n_build.pot_path(i18n_build.CORE, locale)
    template = i18n_build.read_po(pot, "en")
    entries = {m.context: m for m in template if m.id}
    assert set(entries) == set(MESSAGES)
    assert [k for k, m in entries.items() if not m.locations] == []
    for key, m in entries.items():
        for filename, line in m.locations:
            text = (REPO / filename).read_text(encoding="utf-8").splitlines()[line - 1]
            english = i18n_build.ids(m)[0].split("{", 1)[0][:40]
            assert f'"{key}"' in text or f"'{key}'" in text or english in text, (key, filename, line)
    # registered in the module that prints it, and found where the quote page reads it by name
    assert {f for f, _ in entries["quote.number"].locations} == {"procurement/reports/quote.py",
                                                                 "procurement/reports/quote_pdf.py",
                                                                 "gui/pages/quote_view.py"}
    assert "python-brace-format" in entries["derive.kept"].flags
    po = i18n_build.read_po(i18n_build.po_path("zh", i18n_build.CORE, locale), "zh")
    assert {m.context for m in po if m.id} == set(entries)
    # generated again from the same code, the template is the same file
    before = pot.read_bytes()
    i18n_build.build_core(locale)
    assert pot.read_bytes() == before


def test_the_merge_reports_entries_the_template_no_longer_has(tmp_path: Path) -> None:
    locale = tmp_path / "locale"
    po = i18n_build.po_path("eo", i18n_build.CORE, locale)
    po.parent.mkdir(parents=True)
    po.write_text('msgctxt "gone.key"\nmsgid "A text nobody shows"\nmsgstr "Teksto"\n', encoding="utf-8")
    (result,) = i18n_build.build_core(locale, ["eo"])
    assert result.obsolete == ["gone.key: A text nobody shows"]
    assert "gone.key" not in po.read_text(encoding="utf-8")
    assert "step.1: " + str(MESSAGES["step.1"]) in result.untranslated


LEGACY_MODULE = '''
from procurement.messages import register

register({
    "tmpmod.count": {"zh": "{n} 块 GPU 分布在各节点", "en": "{n} GPU(s) over the nodes"},
    "tmpmod.implicit": {"zh": "{n} 台服务器缺少 {what}", "en": "{n} servers lack {what}; 1 DIMM(s) spare"},
    "tmpmod.plain": {"zh": "没有计数", "en": "Nothing counted (this one is long enough to be wrapped by the "
                     "codemod onto more than one line of code, since it goes past the width of a line)"},
    "tmpmod.cjk": {"zh": "需要单价列", "en": "a unit price column (单价, 含税单价, 不含税单价, Unit price…) and a part "
                   "number or model name column (型号, 品名, 规格型号, Part number, Model…) are needed here"},
    "tmpmod.two": {"zh": "{a} 个 CPU，{b} 个 GPU", "en": "{a} CPU(s) for {b} GPU(s)"},
    "tmpmod.english": "Already English",
})
'''


def _load(path: Path, name: str) -> None:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec and spec.loader
    spec.loader.exec_module(importlib.util.module_from_spec(spec))


def _legacy_pairs(text: str) -> dict[str, dict[str, str]]:
    tree = ast.parse(text)
    call = next(n for n in ast.walk(tree) if codemod.is_register(n))
    d = call.args[0]  # type: ignore[attr-defined]
    return {k.value: p for k, v in zip(d.keys, d.values, strict=True) if (p := codemod.pair(v)) is not None}


def test_codemod_moves_pairs_exactly_and_a_second_run_changes_nothing(tmp_path: Path) -> None:
    """Each moved message reads exactly as the legacy pair was shown (its English through the old counted-noun
    rewriting), for every count; the new code is English only and a second run finds nothing to move."""
    src = tmp_path / "tmpmod.py"
    src.write_text(LEGACY_MODULE, encoding="utf-8")
    pairs = _legacy_pairs(LEGACY_MODULE)
    cases = [("tmpmod.count", {"n": n}) for n in (0, 1, 2, "1", 1024)]
    cases += [("tmpmod.implicit", {"n": n, "what": "x"}) for n in (1, 3)] + [("tmpmod.plain", {}), ("tmpmod.cjk", {})]
    cases += [("tmpmod.two", {"a": a, "b": b}) for a in (1, 2) for b in (1, 3)]
    before = {(k, str(f)): (codemod.english_plurals(pairs[k]["en"].format(**f)), pairs[k]["zh"].format(**f))
              for k, f in cases}
    new_text, result = codemod.convert_source(src)
    assert [m.key for m in result.moved] == ["tmpmod.count", "tmpmod.implicit", "tmpmod.plain", "tmpmod.cjk",
                                             "tmpmod.two"]
    assert result.left == []
    assert "from procurement.messages import plural, register" in new_text
    assert max(codemod.width(line) for line in new_text.splitlines()) <= codemod.WIDTH
    moved = {m.key: m for m in result.moved}
    assert moved["tmpmod.count"].english == ("{n} GPU over the nodes", "{n} GPUs over the nodes", "n")
    assert moved["tmpmod.implicit"].english == ("{n} server lack {what}; 1 DIMM spare",
                                                "{n} servers lack {what}; 1 DIMM spare", "n")
    # two counted nouns: the first chooses the message's form, the second is a counted phrase of its own
    assert moved["tmpmod.two"].english == ("{a} CPU for {#b}", "{a} CPUs for {#b}", "a")
    (phrase,) = moved["tmpmod.two"].phrases
    assert (phrase.key, phrase.english, phrase.zh) == ("tmpmod.two#b", ("{b} GPU", "{b} GPUs", "b"), "{b} 个 GPU")
    # the new module registers the English only; with the moved Chinese compiled into a catalogue, every
    # count reads as before
    locale = tmp_path / "locale"
    codemod.write_catalogue(result.moved, locale)
    i18n_build.compile_po(i18n_build.po_path("zh", i18n_build.CORE, locale))
    english_only = new_text
    try:
        src.write_text(english_only, encoding="utf-8")
        _load(src, "tmpmod_english")
        assert isinstance(MESSAGES["tmpmod.count"], Plural)
        os.environ[LOCALE_ENV] = str(locale)
        messages.reload_catalogues()
        after = {(k, str(f)): (t(k, "en", **f), t(k, "zh", **f)) for k, f in cases}
        assert after == before
        again, result2 = codemod.convert_source(src)
        assert again == english_only and result2.moved == []
    finally:
        os.environ.pop(LOCALE_ENV, None)
        for key in ("tmpmod.count", "tmpmod.implicit", "tmpmod.plain", "tmpmod.cjk", "tmpmod.two", "tmpmod.two#b",
                    "tmpmod.english"):
            MESSAGES.pop(key, None)


def test_no_inline_pair_is_left_in_the_code() -> None:
    """Every message is registered in English with its translations in the catalogue: the codemod finds
    nothing to move (and register() refuses a pair, so a new one cannot creep back in)."""
    found: list[str] = []
    for path in codemod.targets([]):
        if "register(" in path.read_text(encoding="utf-8"):
            _, result = codemod.convert_source(path)
            found += [f"{path}: {m.key}" for m in result.moved] + result.left
    assert found == []


def test_register_refuses_a_value_that_is_neither_english_nor_a_pair() -> None:
    with pytest.raises(TypeError):
        register({"tmp.bad": 3})  # type: ignore[dict-item]
    with pytest.raises(ValueError, match="catalogue"):
        register({"tmp.bad": {"zh": "x", "en": "x"}})

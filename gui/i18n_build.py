"""Builds every translation from one kind of file: gettext catalogues in resources/locale/<lang>/LC_MESSAGES/.

- ``messages.po``: the core's text (procurement/, catalog/). The template is what the code registers with
  ``procurement.messages.register`` (msgctxt = the key, msgid = the English, msgid_plural where it counts);
  compiled with Babel to ``messages.mo``, which the app and the CLI read with the standard library's gettext.
- ``gui.po``: the widgets' text. The template is what ``pyside6-lupdate`` finds in gui/ (msgctxt = the Qt
  context, msgid = the English source); each language's ``gui.po`` is turned into a Qt .ts and compiled with
  ``pyside6-lrelease`` to ``gui.qm``, which the app installs with a QTranslator.

Each build writes the templates, ``resources/locale/messages.pot`` and ``gui.pot``: every English text with
``#:`` references to the lines of the source that register or use it. They are generated, not committed (like
the .ts lupdate writes): the .po files are merged against them in the same run, so a template on disk is only
for a translator's tool or a reviewer (``msgmerge``, Poedit, Weblate read it). The merge adds new texts
untranslated, marks changed English fuzzy and reports the entries the template no longer has as obsolete.

A new language is a new folder: ``python -m gui.i18n_build --new-language LANG`` writes both .po files with
every entry empty; translate them, run ``python -m gui.i18n_build`` and the language is in the app's Language
menu and in ``--lang`` (nothing in the code names a language). ``--check`` fails on anything untranslated.
Babel is a build dependency only; the compiled .mo and .qm files are committed.
"""

from __future__ import annotations

import argparse
import datetime
import importlib
import io
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from babel.messages.catalog import Catalog, Message

REPO = Path(__file__).resolve().parents[1]
LOCALE = REPO / "resources" / "locale"
CORE, GUI = "messages", "gui"
CORE_PACKAGES = ("procurement", "catalog", "gui")
FIXED_DATE = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)


# -- the core's catalogue ------------------------------------------------------------------------------------

def register_all(root: Path = REPO) -> None:
    """Import every module that registers messages, so the registry holds all of them."""
    for package in CORE_PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            text = path.read_text(encoding="utf-8")
            if "register(" in text and "procurement.messages" in text:
                parts = path.relative_to(root).with_suffix("").parts
                importlib.import_module(".".join(parts[:-1] if parts[-1] == "__init__" else parts))


_LITERAL = re.compile(r"""["']([^"'\s{}]+)["']""")


References = dict[str, list[tuple[str, int]]]


def core_references(keys: Iterable[str], english: dict[str, str], root: Path = REPO) -> References:
    """Where each key stands in the source as a string literal: where it is registered and where it is looked
    up by name. A key the code builds (``f"tuning.trade_off.{name}"``) is found by its English instead."""
    wanted = set(keys)
    found: References = {}
    files = [(str(path.relative_to(root)), path.read_text(encoding="utf-8").splitlines())
             for package in CORE_PACKAGES for path in sorted((root / package).rglob("*.py"))]
    for name, lines in files:
        for lineno, line in enumerate(lines, 1):
            for m in _LITERAL.finditer(line):
                if m.group(1) in wanted:
                    found.setdefault(m.group(1), []).append((name, lineno))
    for key in wanted - found.keys():
        start = english[key].split("{", 1)[0][:40]
        found[key] = [(name, lineno) for name, lines in files for lineno, line in enumerate(lines, 1)
                      if len(start) >= 8 and start in line][:1]
    return found


def core_template() -> Catalog:
    """The core's template: every message the code registers, in English, with where it stands in the code."""
    from babel.messages.catalog import Catalog

    from procurement.messages import MESSAGES, Plural

    register_all()
    template = Catalog(project="gpu-procure", header_comment="# gpu-procure: user-visible core text.",
                       fuzzy=False)
    english = {k: (v.one if isinstance(v, Plural) else v) for k, v in MESSAGES.items()}
    references = core_references(MESSAGES, english)
    for key in sorted(MESSAGES):
        source = MESSAGES[key]
        msgid = (source.one, source.other) if isinstance(source, Plural) else source
        template.add(msgid, context=key, flags=("python-brace-format",), locations=references.get(key, []))
    return template


def gui_template(lupdate_ts: Path | None = None) -> Catalog:
    """The widgets' template from lupdate's scan of gui/ (contexts and sources; numerus → a plural entry)."""
    from babel.messages.catalog import Catalog

    with tempfile.TemporaryDirectory() as tmp:
        ts = lupdate_ts or Path(tmp) / "scan.ts"
        if lupdate_ts is None:
            rel = [str(p.relative_to(REPO)) for p in sources()]
            subprocess.run([tool("pyside6-lupdate"), *rel, "-no-obsolete", "-locations", "absolute", "-ts", str(ts)],
                           cwd=REPO, check=True, capture_output=True, timeout=300)
        template = Catalog(project="gpu-procure", header_comment="# gpu-procure: widget text.", fuzzy=False)
        for context in ET.parse(ts).getroot().iter("context"):
            ctx = context.findtext("name") or ""
            for message in context.iter("message"):
                source = message.findtext("source") or ""
                msgid = (source, source) if message.get("numerus") == "yes" else source
                # lupdate names a file relative to the .ts; the template names it relative to the repository
                locations = [(_from_repo(ts.parent / str(loc.get("filename"))), int(loc.get("line") or 0))
                             for loc in message.iter("location")]
                template.add(msgid, context=ctx, locations=locations)
    return template


def _from_repo(path: Path) -> str:
    resolved = path.resolve()
    return str(resolved.relative_to(REPO)) if resolved.is_relative_to(REPO) else str(path)


def ids(m: Message) -> tuple[str, ...]:
    """A catalogue entry's English: (text,) or (singular, plural)."""
    return tuple(str(i) for i in m.id) if isinstance(m.id, (tuple, list)) else (str(m.id),)


def strings(m: Message) -> tuple[str, ...]:
    """A catalogue entry's translation: (text,) or one per plural form ('' where empty)."""
    return tuple(str(s or "") for s in m.string) if isinstance(m.string, (tuple, list)) else (str(m.string or ""),)


@dataclass
class Result:
    lang: str
    domain: str
    untranslated: list[str]
    obsolete: list[str] = field(default_factory=list)


def po_path(lang: str, domain: str, locale: Path = LOCALE) -> Path:
    return locale / lang / "LC_MESSAGES" / f"{domain}.po"


def read_po(path: Path, lang: str) -> Catalog:
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import read_po as babel_read_po

    if not path.exists():
        return Catalog(locale=lang, fuzzy=False)
    with path.open("rb") as fp:
        return babel_read_po(fp, locale=lang)


def write_po(path: Path, catalog: Catalog) -> None:
    from babel.messages.pofile import write_po as babel_write_po

    buf = io.BytesIO()
    babel_write_po(buf, catalog, width=0, no_location=True, omit_header=False, ignore_obsolete=True)
    text = buf.getvalue().decode("utf-8")
    # the header's dates change on every run; keep the file byte-identical when no message changed
    text = "\n".join(ln for ln in text.splitlines() if not ln.startswith(('"POT-Creation-Date:',
                                                                          '"PO-Revision-Date:'))) + "\n"
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


def compile_mo(catalog: Catalog, mo: Path) -> None:
    from babel.messages.mofile import write_mo

    # the header's dates would make every build differ; the compiled file depends on the messages only
    catalog.creation_date = catalog.revision_date = FIXED_DATE
    buf = io.BytesIO()
    write_mo(buf, catalog, use_fuzzy=False)
    if not mo.exists() or mo.read_bytes() != buf.getvalue():
        mo.parent.mkdir(parents=True, exist_ok=True)
        mo.write_bytes(buf.getvalue())


def compile_po(po: Path, lang: str | None = None) -> Path:
    """Compile one .po to the .mo next to it (what the build does for every language's core catalogue)."""
    lang = lang or po.parents[1].name
    mo = po.with_suffix(".mo")
    compile_mo(read_po(po, lang), mo)
    return mo


def pot_path(domain: str, locale: Path = LOCALE) -> Path:
    return locale / f"{domain}.pot"


def write_pot(path: Path, template: Catalog) -> None:
    """The template with its ``#:`` references (file:line), byte-identical when nothing changed."""
    from babel.messages.pofile import write_po as babel_write_po

    template.creation_date = template.revision_date = FIXED_DATE
    buf = io.BytesIO()
    babel_write_po(buf, template, width=0, no_location=False, omit_header=False, sort_output=True,
                   include_lineno=True)
    text = "\n".join(ln for ln in buf.getvalue().decode("utf-8").splitlines()
                     if not ln.startswith(('"POT-Creation-Date:', '"PO-Revision-Date:'))) + "\n"
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


def update(catalog: Catalog, template: Catalog) -> list[str]:
    """Bring ``catalog`` to ``template``: new entries empty, changed English marked fuzzy (not compiled until
    a translator confirms it), entries the template no longer has dropped and returned as obsolete."""
    catalog.update(template, no_fuzzy_matching=False, update_header_comment=True, keep_user_comments=True)
    obsolete = [f"{m.context}: {ids(m)[0]}" for m in catalog.obsolete.values()]
    for m in catalog:
        m.locations = []   # the .po files carry no references: the template has them, and lines move daily
    return obsolete


def untranslated(catalog: Catalog) -> list[str]:
    out = []
    for m in catalog:
        if not m.id:
            continue
        if m.fuzzy or not all(strings(m)):
            out.append(f"{m.context}: {ids(m)[0]}")
    return out


def wrong_fields(catalog: Catalog, reference: Catalog | None = None) -> list[str]:
    """Translations that use a field the message is not given (it would fail when shown). A message is given
    the fields its English uses, its counted phrases ('{#field}'), and those the shipped Chinese uses (a call
    may pass more than the English shows, e.g. '{low_wan}' for 万元; the Chinese is exercised by the tests)."""
    from procurement.messages import MESSAGES, fields_of

    given: dict[str, set[str]] = {}
    for ref in (reference, catalog):
        for m in ref or ():
            if m.id and m.context and ref is reference:
                for s in strings(m):
                    given.setdefault(m.context, set()).update(fields_of(s))
    out = []
    for m in catalog:
        if not m.id or m.fuzzy or not m.context:
            continue
        allowed = set().union(*(fields_of(i) for i in ids(m))) | given.get(m.context, set())
        allowed |= {"#" + k.split("#", 1)[1] for k in MESSAGES if k.startswith(m.context + "#")}
        for s in strings(m):
            try:
                extra = fields_of(s) - allowed
            except ValueError:
                extra = {"(not a valid template)"}
            if s and extra:
                out.append(f"{m.context}: {sorted(extra)} in {s!r}")
    return out


def languages(locale: Path = LOCALE) -> list[str]:
    """The languages that have a folder of catalogues (English, the source, has none)."""
    return sorted(p.parents[1].name for p in locale.glob(f"*/LC_MESSAGES/{CORE}.po"))


def build_core(locale: Path = LOCALE, langs: Iterable[str] | None = None) -> list[Result]:
    template = core_template()
    write_pot(pot_path(CORE, locale), template)
    reference = read_po(po_path("zh", CORE), "zh")
    results = []
    for lang in langs or languages(locale):
        po = po_path(lang, CORE, locale)
        catalog = read_po(po, lang)
        obsolete = update(catalog, template)
        write_po(po, catalog)
        compile_mo(catalog, po.with_suffix(".mo"))
        problems = untranslated(catalog) + [f"field: {w}" for w in wrong_fields(catalog, reference)]
        results.append(Result(lang, CORE, problems, obsolete))
    from procurement.messages import reload_catalogues

    reload_catalogues()
    return results


# -- the widgets' catalogue -----------------------------------------------------------------------------------

def tool(name: str) -> str:
    """pyside6-lupdate / -lrelease next to this Python (the venv) or on PATH."""
    beside = Path(sys.executable).parent / name
    found = str(beside) if beside.exists() else shutil.which(name)
    if not found:
        raise SystemExit(f"{name} not found: install PySide6 (it ships {name})")
    return found


def sources() -> list[Path]:
    return sorted(p for p in (REPO / "gui").rglob("*.py") if "__pycache__" not in p.parts)


def write_ts(catalog: Catalog, lang: str, ts: Path) -> None:
    """The language's Qt .ts, from its gui.po (a plural entry gives every numerus form)."""
    root = ET.Element("TS", version="2.1", language=lang)
    by_context: dict[str, ET.Element] = {}
    for m in catalog:
        if not m.id or m.fuzzy:
            continue
        ctx = str(m.context or "")
        if ctx not in by_context:
            by_context[ctx] = ET.SubElement(root, "context")
            ET.SubElement(by_context[ctx], "name").text = ctx
        plural = isinstance(m.id, (tuple, list))
        message = ET.SubElement(by_context[ctx], "message", numerus="yes") if plural else \
            ET.SubElement(by_context[ctx], "message")
        ET.SubElement(message, "source").text = ids(m)[0]
        translation = ET.SubElement(message, "translation")
        if plural:
            for s in strings(m):
                ET.SubElement(translation, "numerusform").text = s
        else:
            translation.text = strings(m)[0]
    ET.indent(root, space="    ")
    ts.write_text('<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE TS>\n' + ET.tostring(root, encoding="unicode")
                  + "\n", encoding="utf-8")


def qt_lang(lang: str) -> str:
    """Qt's name for a catalogue folder's language (zh → zh_CN, for its plural rules and qtbase file)."""
    return {"zh": "zh_CN"}.get(lang, lang)


def build_gui(locale: Path = LOCALE, langs: Iterable[str] | None = None) -> list[Result]:
    template = gui_template()
    write_pot(pot_path(GUI, locale), template)
    results = []
    for lang in langs or languages(locale):
        po = po_path(lang, GUI, locale)
        catalog = read_po(po, lang)
        obsolete = update(catalog, template)
        write_po(po, catalog)
        with tempfile.TemporaryDirectory() as tmp:
            ts = Path(tmp) / f"{GUI}_{lang}.ts"
            write_ts(catalog, qt_lang(lang), ts)
            qm = po.with_suffix(".qm")
            subprocess.run([tool("pyside6-lrelease"), str(ts), "-qm", str(Path(tmp) / "out.qm")], check=True,
                           capture_output=True, timeout=300)
            built = (Path(tmp) / "out.qm").read_bytes()
            if not qm.exists() or qm.read_bytes() != built:
                qm.write_bytes(built)
        results.append(Result(lang, GUI, untranslated(catalog), obsolete))
    return results


def new_language(lang: str, locale: Path = LOCALE) -> list[Path]:
    """Start a language: both catalogues with every entry to translate."""
    written = []
    for domain in (CORE, GUI):
        po = po_path(lang, domain, locale)
        if po.exists():
            raise SystemExit(f"{po} exists already")
        write_po(po, read_po(po, lang))
        written.append(po)
    return written


def build(check: bool = False, core_only: bool = False) -> int:
    results = build_core()
    if not core_only:
        results += build_gui()
    bad = 0
    for r in results:
        for line in r.untranslated:
            print(f"untranslated ({r.lang}, {r.domain}): {line}", file=sys.stderr)
        for line in r.obsolete:
            print(f"obsolete, dropped ({r.lang}, {r.domain}): {line}", file=sys.stderr)
        bad += len(r.untranslated)
        print(f"{r.lang}/{r.domain}: {len(r.untranslated)} untranslated")
    return 1 if check and bad else 0


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m gui.i18n_build")
    p.add_argument("--check", action="store_true", help="exit 1 when any text of any language is untranslated")
    p.add_argument("--core-only", action="store_true", help="only the core's catalogues (no Qt tools needed)")
    p.add_argument("--new-language", metavar="LANG", help="start the catalogues of a new language, then build")
    args = p.parse_args(argv)
    if args.new_language:
        for path in new_language(args.new_language):
            print(f"{path.relative_to(REPO)} written")
    return build(args.check, args.core_only)


if __name__ == "__main__":
    sys.exit(main())

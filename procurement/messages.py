"""User-visible core text: English in the code, every other language in a gettext catalogue; the lookup ``t()``.

Each module that shows text registers its messages with ``register``: keys are dotted
('power.psu_capacity.message'), values the English text with str.format fields, or ``plural(one, other,
count)`` where a counted noun must agree with a field. The translations live in
``resources/locale/<lang>/LC_MESSAGES/messages.po`` (msgctxt = the key, msgid = the English), compiled to
``messages.mo`` by ``python -m gui.i18n_build`` (Babel, a build dependency only) and read here with the
standard library's ``gettext``: a language is a folder of files, nothing in this module names one.

Inline ``{"zh": ..., "en": ...}`` pairs are refused: ``tools/move_inline_messages.py`` moves them into the
catalogue (that is how the code came to this form).
"""

from __future__ import annotations

import gettext
import os
import string
import sys
from collections.abc import Callable, Iterator, Mapping
from functools import cache
from importlib import resources
from pathlib import Path
from typing import NamedTuple, TypeAlias

from procurement.terminal import one_line

Lang: TypeAlias = str
"""A language code: 'en' (the text in the code) or the name of a folder in a locale directory ('zh')."""

SOURCE_LANG: Lang = "en"
DOMAIN = "messages"
LOCALE_ENV = "GPU_PROCURE_LOCALE_PATH"
"""Extra locale directories (os.pathsep-separated), searched before the shipped one: a translator can try a
new language's compiled catalogue without building the app."""


class Plural(NamedTuple):
    """English text whose counted noun agrees with the field ``number`` (gettext's msgid / msgid_plural)."""

    one: str
    other: str
    number: str


def plural(one: str, other: str, count: str = "n") -> Plural:
    """A message with a singular and a plural English form, chosen by the number in field ``count``."""
    return Plural(one, other, count)


Source: TypeAlias = "str | Plural"

MESSAGES: dict[str, Source] = {
    "step.1": "Requirements",
    "step.2": "GPU selection",
    "step.3": "Server configuration",
    "step.4": "Image selection",
    "step.5": "Verification",
    "severity.error": "Error",
    "severity.warning": "Warning",
    "severity.info": "Info",
    "language.name": "English",
}
"""key → English source (the msgid)."""

STEPS: tuple[int, ...] = (1, 2, 3, 4, 5)
"""The purchase flow's steps; their names are the messages 'step.<n>' (the app, the CLI and the PDFs)."""

_SUBPHRASE = "#"
"""'KEY#field' is a counted phrase of message KEY ("{sockets} socket" / "{sockets} sockets"); the message
uses it as the field '{#sockets}' where a second counted noun must agree with its own number."""


def register(entries: Mapping[str, Source]) -> None:
    for key, value in entries.items():
        if isinstance(value, dict):
            raise ValueError(f"message {key!r}: register the English only and put the translations in the "
                             "catalogue (python tools/move_inline_messages.py moves a {zh, en} pair there)")
        if not isinstance(value, (str, Plural)):
            raise TypeError(f"message {key!r}: English text or plural(...), not {type(value).__name__}")
        if key in MESSAGES and MESSAGES[key] != value:
            raise ValueError(f"message {key!r} registered twice with different text")
        MESSAGES[key] = value
        for memo in (_PLAIN, _FORMS):
            for cached in [k for k in memo if k[0] == key]:
                del memo[cached]
        if _SUBPHRASE in key:
            _SUBPHRASES.setdefault(key.split(_SUBPHRASE, 1)[0], []).append(key)


_SUBPHRASES: dict[str, list[str]] = {}


def english(key: str) -> str | Plural:
    """The English source of ``key`` (the msgid)."""
    return MESSAGES[key]


# -- languages -------------------------------------------------------------------------------------------

def locale_dirs() -> tuple[Path, ...]:
    """Where catalogues are looked for: $GPU_PROCURE_LOCALE_PATH's directories, then the shipped one."""
    return _locale_dirs(os.environ.get(LOCALE_ENV, ""))


@cache
def _locale_dirs(env: str) -> tuple[Path, ...]:
    extra = [Path(p) for p in env.split(os.pathsep) if p]
    return (*extra, Path(str(resources.files("resources") / "locale")))


def languages() -> tuple[Lang, ...]:
    """Every language with a compiled core catalogue, English first: adding a folder adds a language."""
    return _languages(os.environ.get(LOCALE_ENV, ""))


@cache
def _languages(env: str) -> tuple[Lang, ...]:
    found: set[str] = set()
    for d in _locale_dirs(env):
        if d.is_dir():
            found.update(p.parents[1].name for p in d.glob(f"*/LC_MESSAGES/{DOMAIN}.mo"))
    found.discard(SOURCE_LANG)
    return (SOURCE_LANG, *sorted(found))


def translation(lang: Lang) -> gettext.NullTranslations:
    """The compiled catalogue of ``lang`` (English, or a language without one, translates to itself).

    Read once per language and kept (``reload_catalogues`` forgets them): ``t()`` runs on every evaluation,
    so the hot path does no file or environment look-up."""
    found = _CATALOGUES.get(lang)
    if found is None:
        found = _CATALOGUES[lang] = _read_catalogue(lang, locale_dirs())
    return found


_CATALOGUES: dict[Lang, gettext.NullTranslations] = {}
_PLAIN: dict[tuple[str, Lang], str] = {}
"""(key, language) → the translated text of a message without plural forms, filled as messages are shown."""
_FORMS: dict[tuple[str, Lang], tuple[Callable[[int], int], tuple[str, ...]]] = {}
"""(key, language) → the language's plural rule and the message's forms, filled as messages are shown."""


def _english_rule(n: int) -> int:
    return 0 if n == 1 else 1


def _plural_forms(key: str, lang: Lang, source: Plural) -> tuple[Callable[[int], int], tuple[str, ...]]:
    """What ``ngettext`` would choose from, read once: the catalogue's forms of ``key`` under the language's
    own rule (its Plural-Forms header), or the English forms where the catalogue has none."""
    tr = translation(lang)
    catalog: dict[object, str] = getattr(tr, "_catalog", {})
    ctx = f"{key}\x04{source.one}"
    forms: list[str] = []
    while (ctx, len(forms)) in catalog:
        forms.append(catalog[ctx, len(forms)])
    rule = getattr(tr, "plural", None)
    if forms and callable(rule):
        return rule, tuple(forms)
    return _english_rule, (source.one, source.other)


def _read_catalogue(lang: Lang, dirs: tuple[Path, ...]) -> gettext.NullTranslations:
    if lang != SOURCE_LANG:
        for d in dirs:
            mo = d / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"
            if mo.is_file():
                with mo.open("rb") as fp:
                    return gettext.GNUTranslations(fp)
    return gettext.NullTranslations()


def reload_catalogues() -> None:
    """Forget the compiled catalogues read so far (after a build, or a change of $GPU_PROCURE_LOCALE_PATH)."""
    _CATALOGUES.clear()
    _PLAIN.clear()
    _FORMS.clear()
    _languages.cache_clear()
    _locale_dirs.cache_clear()


def language_name(lang: Lang) -> str:
    """The language's name in itself ('中文', 'English'), from its own catalogue.

    The window's language menu names every language before its first paint: a catalogue not read yet is not
    parsed whole for that one message (4 ms of the start for the 3,000-entry Chinese catalogue), its entry
    is looked up in the compiled file (``mo_lookup``); anything unusual falls back to the whole catalogue."""
    key = "language.name"
    if lang != SOURCE_LANG and lang not in _CATALOGUES and (key, lang) not in _PLAIN:
        for d in locale_dirs():
            mo = d / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"
            if mo.is_file():
                found = mo_lookup(mo, f"{key}\x04{MESSAGES[key]}")
                if found is not None:
                    _PLAIN[key, lang] = found
                break
    return t(key, lang)


def mo_lookup(path: Path, msgid: str) -> str | None:
    """One message of a compiled GNU catalogue, found with two byte searches (the original string, then its
    entry in the table of originals) instead of parsing every entry; None when the file is not such a
    catalogue or lacks ``msgid`` (the caller then reads the whole catalogue)."""
    import struct

    try:
        data = path.read_bytes()
    except OSError:
        return None
    if len(data) < 20:
        return None
    order = {0x950412DE: "<", 0xDE120495: ">"}.get(struct.unpack("<I", data[:4])[0])
    if order is None:
        return None
    count, originals, translations = struct.unpack(order + "3I", data[8:20])
    target = msgid.encode("utf-8")
    table_end = originals + 8 * count
    at = data.find(b"\0" + target + b"\0", table_end) + 1  # strings are NUL-terminated, after the tables
    while at > 0:
        entry = struct.pack(order + "2I", len(target), at)
        row = data.find(entry, originals, table_end)
        while row >= 0 and (row - originals) % 8:
            row = data.find(entry, row + 1, table_end)
        if row >= 0:
            try:
                length, offset = struct.unpack_from(order + "2I", data, translations + (row - originals))
                return data[offset:offset + length].decode("utf-8")
            except (struct.error, UnicodeDecodeError):
                return None
        at = data.find(b"\0" + target + b"\0", at) + 1
    return None


def default_lang() -> Lang:
    """The command line's language: LC_ALL, LC_MESSAGES or LANG, else the OS's own setting (Windows);
    a language without a catalogue here falls back to English."""
    loc = (os.environ.get("LC_ALL") or os.environ.get("LC_MESSAGES") or os.environ.get("LANG")
           or os_ui_locale())
    return lang_of_locale(loc)


def lang_of_locale(loc: str) -> Lang:
    """'zh_CN.UTF-8' → 'zh' where a 'zh' (or 'zh_CN') catalogue exists; else 'en'."""
    name = loc.split(".")[0].split("@")[0]
    have = languages()
    for candidate in (name, name.split("_")[0].lower()):
        if candidate in have:
            return candidate
    return SOURCE_LANG


def os_ui_locale() -> str:
    """The locale name of the user's display language where no environment variable says it, or ''.

    Windows sets no LANG: its display language comes from GetUserDefaultUILanguage (a LANGID, mapped to a
    name such as 'zh_CN' by the locale module). Elsewhere the environment variables above are the source.
    """
    if sys.platform != "win32":
        return ""
    import ctypes
    import locale

    try:
        langid = int(ctypes.windll.kernel32.GetUserDefaultUILanguage())
    except (AttributeError, OSError, ValueError):
        return ""
    return locale.windows_locale.get(langid, "")


# -- lookup ----------------------------------------------------------------------------------------------

def count_of(value: object) -> int:
    """The integer gettext chooses a plural form by: 1 for 1 (or '1'); a fraction or a non-number counts as
    many (English '1.5 GPUs'), as does a negative number."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, str):
        try:
            value = float(value.replace(",", "").replace("\u202f", "").strip())
        except ValueError:
            return 2
    if isinstance(value, int):
        return abs(value)
    if isinstance(value, float) and value.is_integer():
        return abs(int(value))
    return 2


def template(key: str, lang: Lang, fields: Mapping[str, object] | None = None) -> str:
    """The unformatted text of ``key`` in ``lang`` (a plural message: the form for its count field)."""
    try:
        source = MESSAGES[key]
    except KeyError:
        raise KeyError(f"no message {key!r} in {lang!r}") from None
    if isinstance(source, Plural):
        forms = _FORMS.get((key, lang))
        if forms is None:
            forms = _FORMS[key, lang] = _plural_forms(key, lang, source)
        choose, texts = forms
        return texts[min(choose(count_of((fields or {}).get(source.number))), len(texts) - 1)]
    text = _PLAIN.get((key, lang))
    if text is None:
        text = _PLAIN[key, lang] = translation(lang).pgettext(key, source)
    return text


def t(key: str, lang: Lang = "zh", /, **fields: object) -> str:
    """The message ``key`` in ``lang`` with its fields filled in."""
    text = template(key, lang, fields)
    # a field is a value inside the message: a newline or escape in a part name, a hostname or an error line
    # from a report must not start a forged line of output (procurement.terminal)
    if fields:
        fields = {k: one_line(v) if isinstance(v, str) else _coded_text(v, lang) for k, v in fields.items()}
        for sub in _SUBPHRASES.get(key, ()):
            fields[_SUBPHRASE + sub.split(_SUBPHRASE, 1)[1]] = template(sub, lang, fields).format(**fields)
    return text.format(**fields) if fields else text


_CODED: list[tuple[type, Callable[[object, str], object]]] = []
"""(the Coded class, its renderer), registered by procurement.coded (above this module: it imports it)."""


def render_coded_fields_with(kind: type, render: Callable[[object, str], object]) -> None:
    """How a field of class ``kind`` is turned into text in a language (procurement.coded registers Coded)."""
    _CODED[:] = [(kind, render)]


def _coded_text(value: object, lang: Lang) -> object:
    """A coded field as its text in ``lang``; else the value. Without this a coded counted phrase printed as
    "code='facility.racks' params={'n': 8}"."""
    for kind, render in _CODED:
        if isinstance(value, kind):
            return one_line(str(render(value, lang)))
    return value


def translated(key: str, lang: Lang) -> bool:
    """Whether ``lang`` has ``key``: English always; another language when its compiled catalogue has an
    entry for the key and the current English (a translation equal to the English, 'GPU', counts)."""
    if lang == SOURCE_LANG:
        return True
    source = MESSAGES[key]
    msgid = source.one if isinstance(source, Plural) else source
    catalog = getattr(translation(lang), "_catalog", {})
    ctx = f"{key}\x04{msgid}"
    return ctx in catalog or (ctx, 0) in catalog


def fields_of(text: str) -> set[str]:
    """The str.format field names a template uses."""
    return {name.split(".")[0].split("[")[0] for _, name, _, _ in string.Formatter().parse(text) if name}


def texts(lang: Lang) -> Iterator[tuple[str, str]]:
    """Every (key, template) in ``lang`` (each plural form of a plural message), for checks over all text."""
    for key, source in MESSAGES.items():
        if isinstance(source, Plural):
            yield key, template(key, lang, {source.number: 1})
            yield key, template(key, lang, {source.number: 2})
        else:
            yield key, template(key, lang)

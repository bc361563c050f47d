"""One vocabulary: the same English never has two Chinese translations, across the core catalogue (messages.po)
and the widgets' one (gui.po), except for the few words whose meaning changes with where they stand; and every
domain term of resources/locale/glossary.yaml is translated with its one Chinese term."""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

import yaml
from babel.messages.pofile import read_po

LOCALE = Path(__file__).resolve().parents[1] / "resources" / "locale" / "zh" / "LC_MESSAGES"
GLOSSARY = LOCALE.parents[1] / "glossary.yaml"

BY_CONTEXT = {
    "Date": "a signature's date (签署日期), a quote's date (报价日期), a plain date column (日期)",
    "Done": "a checklist tick's column (已确认) and a finished step (完成)",
    "Item": "a quote's goods (品名 / 型号) and a checklist's items (检查项, 项目)",
    "Name": "a person (姓名), a part's model (型号), a thing's name (名称)",
    "Note": "a remark (备注) and a caution (注意)",
    "Result": "a check's result (结果) and an acceptance conclusion (结论)",
    "Status": "a state (状态) and a check's result (结果)",
    "not stated": "a commercial term not agreed in the quote (未约定) and a value nobody gave (未说明)",
    "Conclusion": "the comparison's conclusion (比价结论), a sign-off's (结论) and step 5's acceptance box (验收结论)",
    "Memory": "a GPU's memory (显存) and the server's (内存)",
    "Network": "the quote's network cards (网卡) and a network (网络)",
    "pcs": "Chinese counts each kind of part with its own measure word (个, 块, 条, 颗)",
}
"""Short English words that Chinese says differently by their place; each with the places."""


_TRAILING = re.compile(r"(?:\s|:|：|\.\.\.|…)+$")
_ACCELERATOR = re.compile(r"\(&\w\)|&(?=\w)")


def same_text(text: str) -> str:
    """A text with what does not change its words taken off: the keyboard accelerator (English "&Name", Chinese
    "名称(&N)"), and a label's trailing colon or a menu item's ellipsis, half- or full-width ("Name:" and
    "Name" are one text, "名称：" and "名称" one translation). A leading space is kept: " GPUs" is a spin box's
    suffix after a number, which Chinese says with a measure word (" 块")."""
    return _TRAILING.sub("", _ACCELERATOR.sub("", text).replace("&&", "&"))


def _entries() -> list[tuple[str, str, tuple[str, ...], tuple[str, ...]]]:
    """(file, msgctxt, English forms, Chinese forms) of every translated, confirmed entry."""
    out = []
    for name in ("messages.po", "gui.po"):
        with open(LOCALE / name, "rb") as f:
            for m in read_po(f):
                if not m.id or not m.string or m.fuzzy:
                    continue
                ids = (m.id,) if isinstance(m.id, str) else tuple(m.id)
                strings = (m.string,) if isinstance(m.string, str) else tuple(m.string)
                out.append((name, str(m.context or ""), ids, strings))
    return out


def _translations() -> dict[str, set[str]]:
    out: dict[str, set[str]] = defaultdict(set)
    for _name, _context, ids, strings in _entries():
        out[same_text(ids[0])].add(same_text(strings[0]))
    return out


def test_the_same_english_has_one_chinese_translation() -> None:
    """The quote number was 报价编号 in the PDF and 报价单号 on screen; a failed check 不通过 in the PDF and 未通过
    in step 5; a report's VAT 未注明含税 in one place and 未注明是否含税 in another; step 2 said 外形 and 形态 for
    the form factor; step 3's auto-fill said 机箱/平台 for "Chassis" and its form 机箱."""
    twice = {english: sorted(chinese) for english, chinese in _translations().items()
             if len(chinese) > 1 and english not in BY_CONTEXT}
    assert twice == {}, "one English text, two Chinese translations: " + "; ".join(
        f"{e!r}: {' / '.join(c)}" for e, c in sorted(twice.items()))


def test_the_context_words_are_still_translated_differently() -> None:
    translations = _translations()
    stale = [word for word in BY_CONTEXT if len(translations.get(word, ())) < 2]
    assert stale == [], f"now translated one way: remove from BY_CONTEXT: {stale}"


def test_trivial_differences_are_one_text() -> None:
    assert same_text("Concl&usion:") == same_text("Conclusion") == "Conclusion"
    assert same_text("验收结论(&U)：") == same_text("验收结论") == "验收结论"
    assert same_text("Open…") == same_text("Open...") == "Open"
    assert same_text(" GPUs") != same_text("GPUs")
    assert same_text("R&&D") == "R&D"


# what stands in a message for something else than words: {fields}, %1, --options, `code`, file names
_NOT_WORDS = re.compile(r"\{[^{}]*\}|%\d|--[\w-]+|`[^`]*`|\b[\w-]+\.(?:json|pyz|yaml|pdf|csv|xlsx|sh)\b")


def _glossary() -> list[dict]:
    return yaml.safe_load(GLOSSARY.read_text(encoding="utf-8"))["terms"]


def _uses(english: str, term: str) -> bool:
    words = r"[\s-]+".join(re.escape(w) for w in re.split(r"[\s-]+", term))
    return re.search(rf"(?<![\w-]){words}s?(?![\w-])", _NOT_WORDS.sub(" ", english.replace("&", "")), re.I) is not None


def test_every_translation_uses_the_glossary_term() -> None:
    """Each domain term has one Chinese translation (resources/locale/glossary.yaml): a msgid that uses the
    English term has a msgstr that uses the Chinese one, in the core catalogue and the widgets' alike."""
    wrong = []
    entries = _entries()
    for term in _glossary():
        exceptions = term.get("except") or {}
        for name, context, ids, strings in entries:
            if context in exceptions or not _uses(ids[0], term["en"]):
                continue
            wrong += [f"{name} {context!r}: {ids[0]!r} → {s!r} lacks {term['zh']!r} ({term['en']})"
                      for s in strings if s and term["zh"] not in s]
    assert wrong == [], "\n".join(wrong)


def test_the_glossary_is_a_real_check() -> None:
    """Every term is used by some message (a term nobody uses checks nothing) and every exception names a
    message that still uses the term and still says it another way."""
    entries = _entries()
    unused = [t["en"] for t in _glossary() if not any(_uses(ids[0], t["en"]) for _n, _c, ids, _s in entries)]
    assert unused == []
    by_context = {c: (ids, strings) for _n, c, ids, strings in entries}
    for term in _glossary():
        for context in term.get("except") or {}:
            ids, strings = by_context[context]
            assert _uses(ids[0], term["en"]) and term["zh"] not in strings[0], (term["en"], context)
    assert len(_glossary()) >= 15


def test_the_glossary_check_catches_a_drift() -> None:
    assert _uses("Quote number:", "quote number") and _uses("quote-numbers", "quote number")
    assert not _uses("{chassis} is hot", "chassis") and not _uses("python3 probe.pyz -o node.json", "node")
    assert not _uses("imagery", "image") and _uses("Software image", "image")

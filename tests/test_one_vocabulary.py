"""One vocabulary: the same English never has two Chinese translations, across the core catalogue (messages.po)
and the widgets' one (gui.po), except for the few words whose meaning changes with where they stand."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from babel.messages.pofile import read_po

LOCALE = Path(__file__).resolve().parents[1] / "resources" / "locale" / "zh" / "LC_MESSAGES"

BY_CONTEXT = {
    "Date": "a signature's date (签署日期), a quote's date (报价日期), a plain date column (日期)",
    "Done": "a checklist tick's column (已确认) and a finished step (完成)",
    "Item": "a quote's goods (品名 / 型号) and a checklist's items (检查项, 项目)",
    "Name": "a person (姓名), a part's model (型号), a thing's name (名称)",
    "Note": "a remark (备注) and a caution (注意)",
    "Result": "a check's result (结果) and an acceptance conclusion (结论)",
    "Status": "a state (状态) and a check's result (结果)",
    "not stated": "a commercial term not agreed in the quote (未约定) and a value nobody gave (未说明)",
    "Conclusion": "the comparison's conclusion (比价结论) and an acceptance conclusion (结论)",
    "Memory": "a GPU's memory (显存) and the server's (内存)",
    "Network": "the quote's network cards (网卡) and a network (网络)",
    "pcs": "Chinese counts each kind of part with its own measure word (个, 块, 条, 颗)",
}
"""Short English words that Chinese says differently by their place; each with the places."""


def _translations() -> dict[str, set[str]]:
    out: dict[str, set[str]] = defaultdict(set)
    for name in ("messages.po", "gui.po"):
        with open(LOCALE / name, "rb") as f:
            for m in read_po(f):
                if not m.id or not m.string:
                    continue
                ids = [m.id] if isinstance(m.id, str) else list(m.id)
                strings = [m.string] if isinstance(m.string, str) else list(m.string)
                out[ids[0]].add(strings[0])
    return out


def test_the_same_english_has_one_chinese_translation() -> None:
    """The quote number was 报价编号 in the PDF and 报价单号 on screen; a failed check 不通过 in the PDF and 未通过
    in step 5; a report's VAT 未注明含税 in one place and 未注明是否含税 in another."""
    twice = {english: sorted(chinese) for english, chinese in _translations().items()
             if len(chinese) > 1 and english not in BY_CONTEXT}
    assert twice == {}, "one English text, two Chinese translations: " + "; ".join(
        f"{e!r}: {' / '.join(c)}" for e, c in sorted(twice.items()))


def test_the_context_words_are_still_translated_differently() -> None:
    translations = _translations()
    stale = [word for word in BY_CONTEXT if len(translations.get(word, ())) < 2]
    assert stale == [], f"now translated one way: remove from BY_CONTEXT: {stale}"

"""The one table of user-visible core text in Chinese and English, and the lookup ``t()``."""

from __future__ import annotations

import os
import re
import sys
from typing import Literal

from procurement.terminal import one_line

Lang = Literal["zh", "en"]
LANGS: tuple[Lang, ...] = ("zh", "en")

# Each module that shows text to a user registers its entries here with ``register``;
# keys are dotted ('power.psu_capacity.message'), values {zh, en} with str.format fields.
MESSAGES: dict[str, dict[str, str]] = {
    "step.1": {"zh": "需求分析", "en": "Requirements"},
    "step.2": {"zh": "GPU选型", "en": "GPU selection"},
    "step.3": {"zh": "服务器配置", "en": "Server configuration"},
    "step.4": {"zh": "镜像选择", "en": "Image selection"},
    "step.5": {"zh": "验证测试", "en": "Verification"},
    "severity.error": {"zh": "错误", "en": "Error"},
    "severity.warning": {"zh": "警告", "en": "Warning"},
    "severity.info": {"zh": "提示", "en": "Info"},
}


def register(entries: dict[str, dict[str, str]]) -> None:
    for key, value in entries.items():
        if set(value) != set(LANGS):
            raise ValueError(f"message {key!r} needs exactly {LANGS}")
        if key in MESSAGES and MESSAGES[key] != value:
            raise ValueError(f"message {key!r} registered twice with different text")
        MESSAGES[key] = value


def default_lang() -> Lang:
    """The command line's language: LC_ALL, LC_MESSAGES or LANG, else the OS's own setting (Windows)."""
    loc = (os.environ.get("LC_ALL") or os.environ.get("LC_MESSAGES") or os.environ.get("LANG")
           or os_ui_locale()).lower()
    return "zh" if loc.startswith("zh") else "en"


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


def t(key: str, lang: Lang = "zh", /, **fields: object) -> str:
    """The message ``key`` in ``lang`` with its fields filled in."""
    try:
        template = MESSAGES[key][lang]
    except KeyError:
        raise KeyError(f"no message {key!r} in {lang!r}") from None
    # a field is a value inside the message: a newline or escape in a part name, a hostname or an error line
    # from a report must not start a forged line of output (procurement.terminal)
    if fields:
        fields = {k: one_line(v) if isinstance(v, str) else v for k, v in fields.items()}
    text = template.format(**fields) if fields else template
    return english_plurals(text) if lang == "en" and fields else text


# English counts: "1 server(s)" → "1 server", "4 GPU(s)" → "4 GPUs", "1 GPUs want" → "1 GPU want".
_ONE = re.compile(r"(?<![\d.,])\b1 ((?:[A-Za-z-]+ )?[A-Za-z-]+?)(?:\(s\)|s\b(?!'))")
_ONE_NOUNS = frozenset({
    "GPU", "CPU", "PSU", "NIC", "DIMM", "node", "server", "socket", "warning", "error", "core", "drive",
    "card", "part", "unit", "redundant unit", "NVMe drive", "position", "GPU position", "module", "item",
    "finding", "port", "slot", "bay",
})
_MANY = re.compile(r"\b([A-Za-z][A-Za-z-]*)\(s\)")


def _one(m: re.Match[str]) -> str:
    noun = m.group(1)
    return f"1 {noun}" if noun in _ONE_NOUNS else m.group(0)


def english_plurals(text: str) -> str:
    """Counted nouns in English agree with their count (the tables keep one template per message)."""
    text = _ONE.sub(_one, text)
    return _MANY.sub(r"\1s", text)

"""The one table of user-visible core text in Chinese and English, and the lookup ``t()``."""

from __future__ import annotations

import os
from typing import Literal

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
    loc = (os.environ.get("LC_ALL") or os.environ.get("LC_MESSAGES") or os.environ.get("LANG") or "").lower()
    return "zh" if loc.startswith("zh") else "en"


def t(key: str, lang: Lang = "zh", /, **fields: object) -> str:
    """The message ``key`` in ``lang`` with its fields filled in."""
    try:
        template = MESSAGES[key][lang]
    except KeyError:
        raise KeyError(f"no message {key!r} in {lang!r}") from None
    return template.format(**fields) if fields else template

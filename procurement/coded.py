"""Values in no one language: a message code and its parameters (`Coded`), rendered in the reader's language
only when shown (`render_value`). Findings (procurement.findings) and verification reports
(procurement.verification_report) store their texts this way."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from procurement.messages import MESSAGES, Lang, render_coded_fields_with, t

Scalar = str | int | float | bool | None


class Coded(BaseModel):
    """A value in no one language: a message code (procurement.messages) and its parameters, rendered in the
    reader's language (render_value). 'Enabled' is {"code": "verify.val.enabled"}; 'peak 476 GB/s, avg 439
    GB/s' is {"code": "verify.val.nccl", "params": {"peak": 476, "avg": 439}}."""

    # Reports written by a newer gpu-procure may carry more fields; reading them must still work.
    model_config = ConfigDict(extra="ignore", defer_build=True)

    code: str = Field(max_length=200)
    params: dict[str, Param] = Field(default_factory=dict)


Param = Scalar | Coded | list[Scalar | Coded]
"""A message parameter: a plain value (numbers, names, versions: the same in every language), a coded value, or
a list of them (shown joined with '; ').

No ``Coded.model_rebuild()`` here: pydantic resolves ``Param`` from this module when ``Coded`` is first
validated (defer_build); building it at import cost ~40 ms of the app's start (issue 25)."""


# Codes that are not messages but ways of putting values together, each rendered by its function below.
VERBATIM = "coded.verbatim"
"""{"text": …}: a text that reads the same in every language (a finding made from a text, as in tests)."""
NAMES = "coded.names"
"""{"items": […]}: names as a list in the reader's language (Chinese separates them with 、, others with ', ')."""
JOINED = "coded.joined"
"""{"items": […], "sep": …}: values joined with a separator that is the same in every language."""
BY_LANGUAGE = "coded.by_language"
"""{"<lang>": text, …, "*": text}: a text the catalog or a model gives per language ('*': any other language)."""
CLAUSES = "coded.clauses"
"""{"items": […]}: clauses one after another in the reader's language (Chinese separates them with '；', others
with '; '): the changes of a void sign-off, its signers."""
SHORT = "coded.short"
"""{"value": …, "limit": n}: a value on one line (its whitespace collapsed), cut to ``limit`` characters with '…'
once rendered: the old and new values of a void sign-off."""


_set = object.__setattr__
_FIELDS_SET = frozenset({"code", "params"})


def coded(code: str, **params: object) -> Coded:
    """A coded value, built without validation (the rules make thousands a second; parameters are plain values,
    coded values or lists of them). What ``Coded.model_construct`` does, at half its cost."""
    value = object.__new__(Coded)
    _set(value, "__dict__", {"code": code, "params": params})
    _set(value, "__pydantic_fields_set__", set(_FIELDS_SET))
    _set(value, "__pydantic_extra__", None)
    _set(value, "__pydantic_private__", None)
    return value


def verbatim(text: str) -> Coded:
    return coded(VERBATIM, text=text)


def names(items: Iterable[object]) -> Coded:
    """Part names as a list in the reader's language, each name once."""
    once: list[object] = []
    for item in items:
        if item not in once:
            once.append(item)
    return coded(NAMES, items=once)


def joined(items: Iterable[object], sep: str) -> Coded:
    return coded(JOINED, items=list(items), sep=sep)


def clauses(items: Iterable[object]) -> Coded:
    return coded(CLAUSES, items=list(items))


def short(value: object, limit: int) -> Coded:
    return coded(SHORT, value=value, limit=limit)


def by_language(texts: Mapping[str, str], other: str = "") -> Coded:
    """A text given per language (``other`` for any language not in ``texts``)."""
    return coded(BY_LANGUAGE, **{**texts, "*": other})


def _text(value: object, lang: str) -> str:
    return str(render_value(value, lang))


def render_value(value: object, lang: str) -> object:
    """A parameter or value as text in ``lang``: coded values rendered from their code (the text of an unknown
    code is its code), lists joined with '; ', plain values as they are."""
    if isinstance(value, Coded):
        code, params = value.code, value.params
        items: Any = params.get("items") or ()
        if code == NAMES:
            return ("、" if lang == "zh" else ", ").join(_text(v, lang) for v in items)
        if code == CLAUSES:
            return ("；" if lang == "zh" else "; ").join(_text(v, lang) for v in items)
        if code == SHORT:
            return _shortened(_text(params.get("value"), lang), int(str(params.get("limit") or 60)))
        if code == JOINED:
            return str(params.get("sep", "")).join(_text(v, lang) for v in items)
        if code == VERBATIM:
            return str(params.get("text", ""))
        if code == BY_LANGUAGE:
            return str(params.get(lang, params.get("*", "")))
        if code not in MESSAGES:
            return code
        try:
            return t(code, lang, **{k: render_value(v, lang) for k, v in params.items()})
        except (KeyError, IndexError, ValueError):
            return code
    if isinstance(value, list):
        return "; ".join(str(render_value(v, lang)) for v in value)
    return value


def _shortened(text: str, limit: int) -> str:
    one_line = " ".join(text.split())
    return one_line if len(one_line) <= limit else one_line[: limit - 1] + "…"


def render_text(value: Coded, lang: Lang) -> str:
    """A coded text in ``lang``; a message that cannot be filled raises (a finding's message is the code's own)."""
    code, params = value.code, value.params
    if code in MESSAGES:
        return t(code, lang, **{k: render_value(v, lang) for k, v in params.items()})
    return str(render_value(value, lang))


render_coded_fields_with(Coded, render_value)  # t() renders a coded field in the reader's language

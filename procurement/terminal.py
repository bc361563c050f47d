"""The one cleaner for text a command prints: control characters, carriage returns, terminal escapes, bidi
overrides and lone surrogates from plans, catalogs, reports and nvidia-smi are shown escaped, never obeyed.

A hostname with ``\\r`` drew "node9 ALL PASS" over a failing row, a part name with a newline forged an
``[Error] FAKE-RULE:`` line and a ``\\ud800`` hostname raised UnicodeEncodeError while printing.
:func:`one_line` is for a value inside a line (message fields, table cells): newlines are escaped too.
:class:`CleanStream` wraps ``sys.stdout``/``sys.stderr`` for a command's run, keeping its own newlines
and tabs; bytes written to ``.buffer`` (a PDF on standard output) pass untouched.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any, TextIO

_IN_LINE = re.compile("[\x00-\x1f\x7f-\x9f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
_IN_TEXT = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def _escape(m: re.Match[str]) -> str:
    code = ord(m.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def one_line(text: str) -> str:
    """``text`` as one line of plain characters: every control character (newlines too), bidi control and
    lone surrogate escaped (``\\x0d``, ``\\u202e``)."""
    return _IN_LINE.sub(_escape, text)


def prose(text: str) -> str:
    """Text a person wrote (a note, a term, a price's source, a waiver's reason) set inside a sentence: its line
    breaks and runs of white space as one space. A two-line note is one clause, not '\\x0a' between its lines
    (what :func:`one_line`, applied by the messages to every field, would show); other control characters are
    left for it to escape."""
    return " ".join(text.split())


def clean_output(text: str) -> str:
    """``text`` for a terminal: newlines and tabs kept, every other control character escaped."""
    return _IN_TEXT.sub(_escape, text)


class CleanStream:
    """A text stream that writes :func:`clean_output` of everything to ``stream``."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        self._stream.write(clean_output(text))
        return len(text)

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:  # flush, buffer, encoding, isatty, fileno…
        return getattr(self._stream, name)


# ---------------------------------------------------------------- text for paper and the window (no reportlab)

BIDI_CONTROLS = re.compile("[\u200e\u200f\u202a-\u202e\u2066-\u2069]")
"""Bidi marks, embeddings, overrides and isolates: user text never reorders what a report prints around it."""


def _noncharacter(cp: int) -> bool:
    """U+FDD0..U+FDEF and the last two code points of every plane: never characters, for internal use only."""
    return 0xFDD0 <= cp <= 0xFDEF or (cp & 0xFFFE) == 0xFFFE


def clean_text(text: object) -> str:
    """User text made printable: control, surrogate, non-characters and bidi overrides dropped, tabs to spaces.

    A code point this Python's Unicode database does not know yet (category Cn, e.g. U+1FAE8 SHAKING FACE of
    Unicode 15) and private-use characters are kept: a font may have them, and where none has, the paper shows
    [U+XXXX] and export names them; dropping them lost the character silently."""
    s = BIDI_CONTROLS.sub("", str(text))
    out = []
    for ch in s:
        if ch == "\n":
            out.append(ch)
            continue
        if ch == "\t":
            out.append(" ")
            continue
        cat = unicodedata.category(ch)
        if cat in ("Cc", "Cs") or (cat == "Cn" and _noncharacter(ord(ch))):
            continue
        out.append(ch)
    return "".join(out)


_LINE_BREAKS = re.compile("[\n\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029]")


def one_line_name(text: object) -> str:
    """A name as one line: every character that breaks a line shown escaped (``\x0a``), as the terminal
    shows it (procurement.terminal.one_line); the other control characters are dropped by clean_text."""
    return _LINE_BREAKS.sub(lambda m: f"\\x{ord(m.group()):02x}" if ord(m.group()) < 0x100
                            else f"\\u{ord(m.group()):04x}", str(text))

"""The text of the PDF reports: a font per run of characters, Arabic-script shaping and right-to-left order,
line breaks that never split a token, headings kept with their first lines, and the characters no font has."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any
from weakref import WeakKeyDictionary
from xml.sax.saxutils import escape

from reportlab.lib.textsplit import ALL_CANNOT_END, ALL_CANNOT_START
from reportlab.platypus import Flowable, Paragraph
from reportlab.platypus.doctemplate import ActionFlowable
from reportlab.platypus.paragraph import ParaLines, _handleBulletWidth, cjkU, makeCJKParaLine
from reportlab.rl_config import _FUZZ

from procurement.reports.fonts import font_chain
from procurement.terminal import BIDI_CONTROLS

# Bidi formatting characters are dropped: an override (U+202E) in a name would print letters in an order
# other than the one typed (a "Trojan Source" style spoof); the bidi algorithm orders the text itself.
_RTL = re.compile("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]")
_ARABIC = re.compile("[\u0600-\u06ff\u0750-\u077f\u08a0-\u08ff]")

_missing: ContextVar[dict[str, None] | None] = ContextVar("gpu_procure_missing_glyphs", default=None)


@contextmanager
def collect_missing() -> Iterator[dict[str, None]]:
    """Within the block, every character no font could print is recorded (in order of appearance, once)."""
    found: dict[str, None] = {}
    token = _missing.set(found)
    try:
        yield found
    finally:
        _missing.reset(token)


def describe_missing(chars: Sequence[str] | dict[str, None]) -> str:
    """'😀 (U+1F600 GRINNING FACE), …' for a warning that names the characters."""
    return ", ".join(f"{c} (U+{ord(c):04X} {unicodedata.name(c, '?')})" for c in chars)


def placeholder(ch: str) -> str:
    """What the paper shows where no font has the glyph: the code point, never a silent gap or an empty box."""
    return f"[U+{ord(ch):04X}]"


def shaped(text: str) -> str:
    """Arabic letters in their joined forms, still in logical (typed) order: the line breaker breaks the logical
    text and then orders each line for display (``visual_line``), so a wrapped right-to-left run reads line by
    line in the order it was typed."""
    if not _ARABIC.search(text):
        return text
    import arabic_reshaper  # imported on first Arabic-script text only

    return "\n".join(arabic_reshaper.reshape(line) if _ARABIC.search(line) else line for line in text.split("\n"))


def visual(text: str) -> str:
    """One line of text in display order (right-to-left runs reversed, Arabic letters joined): for text drawn as a
    single line, outside the paragraph line breaker."""
    if not _RTL.search(text):
        return text
    from bidi import get_display

    return "\n".join(get_display(shaped(line), base_dir="L") if _RTL.search(line) else line
                     for line in text.split("\n"))


def _invisible(ch: str) -> bool:
    cp = ord(ch)
    return unicodedata.category(ch) == "Cf" or 0xFE00 <= cp <= 0xFE0F or 0xE0100 <= cp <= 0xE01EF


def _neutral(ch: str) -> bool:
    """Spaces, punctuation, digits and marks stay in the font of the run around them when it has them."""
    return unicodedata.category(ch)[0] in "ZPNM"


def font_runs(text: str) -> list[tuple[str | None, str]]:
    """``text`` (already in display order) as (reportlab font name, run) pairs; font None: no font has the
    character (one character per such run)."""
    chain = font_chain()
    runs: list[tuple[str | None, str]] = []
    cur: str | None = chain.primary
    buf: list[str] = []
    for ch in text:
        cp = ord(ch)
        if ch == "\n":
            name: str | None = cur
        elif _neutral(ch) and cur is not None and chain.font_for(cp) is not None and _covers(chain, cur, cp):
            name = cur
        else:
            name = chain.font_for(cp)
            if name is None and _invisible(ch):
                continue  # a joiner or variation selector no font draws: nothing visible is lost
        if name is None:
            if buf:
                runs.append((cur, "".join(buf)))
                buf = []
            runs.append((None, ch))
            continue
        if name != cur and buf:
            runs.append((cur, "".join(buf)))
            buf = []
        cur = name
        buf.append(ch)
    if buf:
        runs.append((cur, "".join(buf)))
    return runs


def _covers(chain: Any, name: str, cp: int) -> bool:
    return any(f.name == name and f.covers(cp) for f in chain.fonts)


def rich(text: str) -> str:
    """Paragraph markup of cleaned text: escaped, in logical order (TextParagraph orders each line for display),
    each run in a font that has its glyphs."""
    chain = font_chain()
    missing = _missing.get()
    out: list[str] = []
    for name, run in font_runs(shaped(BIDI_CONTROLS.sub("", text))):
        if name is None:
            if 0xFB50 <= ord(run) <= 0xFEFF:  # a joined Arabic form: name the letter that was typed
                run = unicodedata.normalize("NFKC", run)[:1] or run
            if missing is not None:
                missing.setdefault(run)
            out.append(escape(placeholder(run)))
            continue
        body = escape(run).replace("\n", "<br/>")
        out.append(body if name == chain.primary else f'<font face="{name}">{body}</font>')
    return "".join(out)


# ---------------------------------------------------------------- line breaking

_BREAK_AFTER_IN_LONG = set("/\\-_.:,;=&?@")

CANNOT_START = frozenset(ALL_CANNOT_START) | frozenset("，；：？！、。．）］｝〉》」』】〗〙〛”’…‥·ー％‰℃")
"""避头尾: what never starts a line. reportlab's list has the ASCII ',;:?!' but not the full-width '，；：？！'."""
CANNOT_END = frozenset(ALL_CANNOT_END) | frozenset("（［｛〈《「『【〖〘〚“‘￥＄")
"""What never ends a line: opening brackets and quotes, currency signs."""


def _alone(ch: str) -> bool:
    """A character that is a break opportunity on both sides: CJK ideographs, kana, hangul, full-width forms."""
    cp = ord(ch)
    return (
        0x2E80 <= cp <= 0x9FFF
        or 0xAC00 <= cp <= 0xD7AF
        or 0xF900 <= cp <= 0xFAFF
        or 0xFE30 <= cp <= 0xFE4F
        or 0xFF00 <= cp <= 0xFFEF
        or 0x20000 <= cp <= 0x3FFFF
    )


def _space(u: Any) -> bool:
    return len(u) == 1 and unicodedata.category(u)[0] == "Z"


def _hard(u: Any) -> bool:
    return hasattr(u.frag, "lineBreak") or hasattr(u.frag, "cbDefn") or not u


_KIND: dict[str, int] = {}
"""Per character: 0 part of a token, 1 space, 2 a CJK character (a break opportunity on both sides)."""


def _kind(ch: str) -> int:
    k = _KIND.get(ch)
    if k is None:
        k = _KIND[ch] = 1 if unicodedata.category(ch)[0] == "Z" else 2 if _alone(ch) else 0
    return k


def _joins(a: Any, b: Any) -> bool:
    """No line break allowed between ``a`` and ``b``."""
    if not a or not b or len(a) != 1 or len(b) != 1:
        return False
    ka, kb = _kind(a), _kind(b)
    if ka == 1 or kb == 1 or _hard(a) or _hard(b):
        return False
    if b in CANNOT_START or a in CANNOT_END:
        return True  # '，' never starts a line, '（' never ends one
    return ka == 0 and kb == 0


UNIT_WORDS = frozenset({"W", "kW", "V", "A", "Hz", "GB", "GiB", "TB", "TiB", "MB", "MiB", "Gb/s", "GB/s", "CFM",
                        "°F", "°C", "%", "GHz", "MHz", "U", "mm", "kg", "W,", "GB,", "GiB,", "W;", "GB;", "GiB;"})
"""Units that stay on the line of the number before them ('2,063 W', '20 °F')."""
_NUMBER = re.compile(r"^[+-]?[\d][\d,.]*$")


def _glue_units(units: list[list[Any]]) -> list[list[Any]]:
    """A number, one plain space and a unit after it ('20 °F') become one unit: never broken apart."""
    out: list[list[Any]] = []
    i = 0
    while i < len(units):
        if (i + 2 < len(units) and len(units[i + 1]) == 1 and str(units[i + 1][0]) == " "
                and _NUMBER.match("".join(str(u) for u in units[i]))
                and "".join(str(u) for u in units[i + 2]) in UNIT_WORDS):
            out.append([*units[i], *units[i + 1], *units[i + 2]])
            i += 3
            continue
        out.append(units[i])
        i += 1
    return out


MAX_WORD = 40
"""Letters beyond this are not a word but a run to cut (a pasted blob without spaces)."""


def _word(unit: Sequence[Any]) -> bool:
    """A run of letters (with inner apostrophes or hyphens): a word of a language written with spaces."""
    text = "".join(str(u) for u in unit)
    return (0 < len(text) <= MAX_WORD and text[0].isalpha() and text[-1].isalpha()
            and all(ch.isalpha() or ch in "'’-" for ch in text) and not any(_alone(ch) for ch in text))


def _frag_text(f: Any) -> str:
    """A fragment's text ('' for a line break or other fragment without text)."""
    text = getattr(f, "text", "") or ""
    return text.decode("utf8") if isinstance(text, bytes) else text


def _width(u: Any, max_width: float) -> float:
    w = u.width
    if hasattr(w, "normalizedValue"):
        w._normalizer = max_width
        w = w.normalizedValue(max_width)
    return float(w)


def token_split(frags: Sequence[Any], max_widths: Sequence[float], calc_bounds: bool) -> ParaLines:
    """Lines of ``frags`` broken at spaces and around CJK characters, never inside a token (a part number,
    'SHA-256', a digest); a token longer than a whole line is cut, preferably after / - _ . :"""
    one = _one_line(frags, max_widths, calc_bounds)
    if one is not None:
        return one
    chars: list[Any] = []
    for f in frags:
        text = _frag_text(f)
        if text:
            chars.extend(cjkU(c, f, "utf8") for c in text)
        else:
            chars.append(cjkU(text, f, "utf8"))
    units: list[list[Any]] = []
    for u in chars:
        if units and _joins(units[-1][-1], u):
            units[-1].append(u)
        else:
            units.append([u])
    breaker = _Breaker(max_widths, calc_bounds, bidi=_bidi_levels(chars))
    for unit in _glue_units(units):
        breaker.add(unit)
    if breaker.line:
        breaker.emit(False)
    return ParaLines(kind=1, lines=breaker.lines)


class _Breaker:
    """The lines being made of a paragraph's units (glyph runs that stay together), one unit at a time."""

    def __init__(self, max_widths: Sequence[float], calc_bounds: bool, bidi: bool) -> None:
        self.max_widths, self.calc_bounds, self.bidi = max_widths, calc_bounds, bidi
        self.lines: list[Any] = []
        self.line: list[Any] = []
        self.used = 0.0

    def limit(self) -> float:
        return self.max_widths[min(len(self.lines), len(self.max_widths) - 1)]

    def emit(self, hard: bool) -> None:
        line = self.line
        while line and _space(line[-1]) and not hard:
            self.used -= _width(line.pop(), self.limit())
        shown = visual_line(line) if self.bidi else line
        self.lines.append(makeCJKParaLine(shown, self.limit(), self.used, self.limit() - self.used, hard,
                                          self.calc_bounds))
        self.line, self.used = [], 0.0

    def start(self, unit: list[Any], width: float) -> None:
        """``unit`` on a fresh line (the current one, if any, ended)."""
        if self.line:
            self.emit(False)
        self.line, self.used = list(unit), width

    def add(self, unit: list[Any]) -> None:
        first = unit[0]
        if len(unit) == 1 and hasattr(first.frag, "lineBreak"):
            self.line.append(first)
            self.emit(True)
            return
        if not self.line and _space(first) and self.lines and not _ended_hard(self.lines[-1]):
            return  # no space at the start of a wrapped line
        w = sum(_width(u, self.limit()) for u in unit)
        if self.used + w <= self.limit() + _FUZZ:
            self.line += unit
            self.used += w
        elif _space(first):
            self.emit(False)
        elif (self.line and w <= self.limit() + _FUZZ) or _word(unit):
            # A word is never cut ('Unknow' / 'n'): on a line of its own it may run past a too-narrow column,
            # which the documents size so that it does not happen.
            self.start(unit, w)
        else:
            self.cut(unit)

    def cut(self, unit: list[Any]) -> None:
        """A token longer than the rest of the line: started on a fresh line unless it would not fit there
        either, and cut where it must, preferably after / - _ . :"""
        if self.line and self.used > 0.75 * self.limit():
            self.emit(False)
        rest = list(unit)
        while rest:
            room = self.limit() - self.used
            take, width = 0, 0.0
            while take < len(rest) and width + _width(rest[take], self.limit()) <= room + _FUZZ:
                width += _width(rest[take], self.limit())
                take += 1
            if take == len(rest):
                self.line += rest
                self.used += width
                return
            cut = max((i + 1 for i in range(take) if rest[i] in _BREAK_AFTER_IN_LONG), default=0)
            if cut > take // 2:
                take = cut
            if take == 0 and not self.line:
                take = 1  # a single glyph wider than the line still has to go somewhere
            self.line += rest[:take]
            self.used += sum(_width(u, self.limit()) for u in rest[:take])
            rest = rest[take:]
            self.emit(False)


def _one_line(frags: Sequence[Any], max_widths: Sequence[float], calc_bounds: bool) -> ParaLines | None:
    """The lines ``token_split`` makes of left-to-right text whose every line (between line breaks) is one run
    that fits its line whole (most cells of a table: a number, an amount, 'unit ¥1.00<br/>incl. VAT ¥1.13'),
    made without breaking the text into characters; None for any other."""
    lines: list[Any] = []
    run: list[Any] = []  # the line being made: its text (one fragment at most), then its line break
    for f in [*frags, None]:
        if f is not None and not hasattr(f, "lineBreak"):
            text = _frag_text(f)
            if run or not text or hasattr(f, "cbDefn") or "\n" in text or _RTL.search(text):
                return None
            run.append(cjkU(text, f, "utf8"))
            continue
        if f is None:
            if not run:
                break
            if _space(run[0][-1]):
                return None  # the last line's end spaces are dropped: the long way
        elif _frag_text(f) or hasattr(f, "cbDefn"):
            return None
        limit = max_widths[min(len(lines), len(max_widths) - 1)]
        used = float(run[0].width) if run else 0.0
        if used > limit + _FUZZ - 1e-6:  # clear of the limit, where summing per character could decide otherwise
            return None
        if f is not None:
            run.append(cjkU("", f, "utf8"))
        lines.append(makeCJKParaLine(run, limit, used, limit - used, f is not None, calc_bounds))
        run = []
    return ParaLines(kind=1, lines=lines) if lines else None


def _bidi_levels(chars: Sequence[Any]) -> bool:
    """Resolve the Unicode bidi embedding levels of a paragraph (UAX #9 up to I2, left-to-right base) and attach
    each to its character; False (nothing attached) when the paragraph has no right-to-left character."""
    text = "".join(str(u) or "\u2029" for u in chars)  # a line break without text: a paragraph separator
    if not _RTL.search(text):
        return False
    from bidi import algorithm as uax9  # the reference steps, to get the levels and not only a reordered string

    storage = uax9.get_empty_storage()
    storage["base_level"], storage["base_dir"] = 0, "L"
    uax9.get_embedding_levels(text, storage)
    uax9.explicit_embed_and_overrides(storage)
    uax9.resolve_weak_types(storage)
    uax9.resolve_neutral_types(storage, False)
    uax9.resolve_implicit_levels(storage, False)
    for u, c in zip(chars, storage["chars"], strict=True):
        u._bidi = (c["level"], c["orig"])
    return True


def visual_line(line: Sequence[Any]) -> list[Any]:
    """One broken line in display order (UAX #9 L1, L2, L4 on the levels of its paragraph): the line's
    right-to-left runs reversed, mirrored brackets in them; characters without text (a line break) stay last."""
    from bidi.mirror import MIRRORED

    cells = [(u, *getattr(u, "_bidi", (0, "L"))) for u in line if str(u)]
    rest = [u for u in line if not str(u)]
    levels = [lvl for _, lvl, _ in cells]
    for i in range(len(cells) - 1, -1, -1):  # L1: whitespace at the end of the line takes the base level
        if cells[i][2] not in ("WS", "BN", "S"):
            break
        levels[i] = 0
    odd = [lvl for lvl in levels if lvl % 2]
    if not odd:
        return list(line)
    order = list(range(len(cells)))
    for level in range(max(levels), min(odd) - 1, -1):  # L2
        i = 0
        while i < len(order):
            if levels[order[i]] >= level:
                j = i
                while j < len(order) and levels[order[j]] >= level:
                    j += 1
                order[i:j] = reversed(order[i:j])
                i = j
            else:
                i += 1
    out: list[Any] = []
    for k in order:
        u = cells[k][0]
        if levels[k] % 2 and str(u) in MIRRORED:  # L4: '(' in a right-to-left run is drawn as ')'
            u = cjkU(MIRRORED[str(u)], u.frag, "utf8")
        out.append(u)
    return out + rest


def _ended_hard(line: Any) -> bool:
    return bool(getattr(line, "lineBreak", False))


_PLAIN = re.compile(r"[^\s<>&]+(?: [^\s<>&]+)*")
"""Markup that is plain text the parser keeps as it is: no tag, no entity, no space to collapse."""
_PLAIN_FRAG: WeakKeyDictionary[Any, Any] = WeakKeyDictionary()
"""Per style, the fragment the parser makes of plain text (its text replaced for each paragraph)."""


class TextParagraph(Paragraph):
    """A paragraph broken by ``token_split`` (the style's wordWrap must be 'CJK')."""

    def __init__(self, text: Any, style: Any = None, bulletText: Any = None, frags: Any = None,
                 **kw: Any) -> None:
        if (frags is None and bulletText is None and style is not None and isinstance(text, str)
                and getattr(style, "bulletText", None) is None and _PLAIN.fullmatch(text)):
            # plain text (most table cells: a number, an amount, a unit) is not run through the markup parser,
            # which takes most of a short paragraph's time: it would make the same one fragment
            probe = _PLAIN_FRAG.get(style)
            if probe is None:
                probe = _PLAIN_FRAG[style] = Paragraph("x", style).frags[0]
            frags = [probe.clone(text=text, link=[], us_lines=[])]
        super().__init__(text, style, bulletText, frags, **kw)

    def breakLinesCJK(self, maxWidths: Any) -> Any:
        if not isinstance(maxWidths, list | tuple):
            maxWidths = [maxWidths]
        style = self.style
        self.height = 0
        _handleBulletWidth(self.bulletText, style, maxWidths)
        frags = self.frags
        if not frags:
            return ParaLines(kind=0, fontSize=style.fontSize, fontName=style.fontName, textColor=style.textColor,
                             lines=[], ascent=style.fontSize, descent=-0.2 * style.fontSize)
        if hasattr(self, "blPara") and getattr(self, "_splitpara", False):
            return self.blPara
        # Tables wrap a cell several times at the same width (widths, heights, split): break it once.
        key = tuple(maxWidths)
        memo = self.__dict__.setdefault("_token_lines", {})
        if key not in memo:
            auto = getattr(self, "autoLeading", getattr(style, "autoLeading", ""))
            memo[key] = token_split(frags, maxWidths, auto not in ("", "off"))
        return memo[key]


# ---------------------------------------------------------------- page breaks


class HeadingWithStart(Flowable):
    """A heading (and any small flowables after it) kept with the first lines of what follows, not the whole of
    it: a long table or paragraph starts under its heading and runs on to the next page."""

    def __init__(self, heading: Flowable, body: Sequence[Flowable], min_start: float = 28.0,
                 whole_below: float = 200.0) -> None:
        super().__init__()
        *self.lead, self.body = [heading, *body]
        self.min_start = min_start
        self.whole_below = whole_below
        """A body shorter than this (pt) is not split: it moves to the next page whole, with its heading."""

    def _gap(self, a: Flowable, b: Flowable) -> float:
        return max(a.getSpaceAfter(), b.getSpaceBefore())

    def _wrap(self, f: Flowable, aw: float, ah: float) -> float:
        key = (id(f), aw, ah)
        cache = self.__dict__.setdefault("_heights", {})
        if key in cache:  # a 500-row table costs ~0.1 s per wrap: wrap it once per size
            return float(cache[key])
        f._frame = getattr(self, "_frame", None)  # KeepTogether asks its frame whether it is at the top
        canv = getattr(self, "canv", None)  # set by the frame; KeepTogether and tables need it
        cache[key] = h = float((f.wrapOn(canv, aw, ah) if canv is not None else f.wrap(aw, ah))[1])
        return h

    def _lead_height(self, aw: float, ah: float) -> float:
        h = 0.0
        for i, f in enumerate(self.lead):
            h += self._wrap(f, aw, ah)
            nxt = self.lead[i + 1] if i + 1 < len(self.lead) else self.body
            h += self._gap(f, nxt)
        return h

    def getSpaceBefore(self) -> float:
        return float(self.lead[0].getSpaceBefore())

    def getSpaceAfter(self) -> float:
        return float(self.body.getSpaceAfter())

    def wrap(self, aw: float, ah: float) -> tuple[float, float]:
        self._lead_h = self._lead_height(aw, ah)
        self._body_h = self._wrap(self.body, aw, max(ah - self._lead_h, 0))
        self.width, self.height = aw, self._lead_h + self._body_h
        return aw, self.height

    def split(self, aw: float, ah: float) -> list[Flowable]:
        lead_h = self._lead_height(aw, ah)
        if lead_h >= ah:
            return []
        full = self._wrap(self.body, aw, ah - lead_h)
        at_top = bool(getattr(getattr(self, "_frame", None), "_atTop", False))
        if full <= self.whole_below and not at_top:
            return []
        canv = getattr(self, "canv", None)
        parts = self.body.splitOn(canv, aw, ah - lead_h) if canv is not None else self.body.split(aw, ah - lead_h)
        if parts and isinstance(parts[0], ActionFlowable) and at_top:
            parts = [p for p in parts if not isinstance(p, ActionFlowable)]  # already on a fresh page
        if not parts or isinstance(parts[0], ActionFlowable):
            return []  # the body would rather start on a fresh page (KeepTogether): the heading goes with it
        first = self._wrap(parts[0], aw, ah - lead_h)
        if first < min(self.min_start, full) or first > ah - lead_h + _FUZZ:
            return []  # not even the first lines fit under the heading: both go to the next page
        return [*self.lead, *parts]

    def draw(self) -> None:
        y = self.height
        items = [*self.lead, self.body]
        for i, f in enumerate(items):
            h = self._wrap(f, self.width, self.height)
            y -= h
            f.drawOn(self.canv, 0, y)
            if i + 1 < len(items):
                y -= self._gap(f, items[i + 1])

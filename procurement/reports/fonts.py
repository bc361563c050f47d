"""The fonts of the PDF reports: a CJK primary font and TrueType fallbacks, chosen per character, registered once.

The primary font is the first TrueType CJK font found (environment variable, resources/fonts/, known system
paths, fontconfig); with none at all, reportlab's built-in CID font STSong-Light, which needs no file (the
PDF names it and the viewer supplies the glyphs), so export works on a machine with no fonts installed.
Fallback fonts (TrueType only: reportlab cannot embed CFF/PostScript outlines such as the Noto CJK OTFs) cover
what the primary lacks: DejaVu Sans / Arial for Arabic, Hebrew and Latin extensions, HanaMin (fonts-hanazono)
and SimSun-ExtB for CJK Extension B such as 𡈼, and, for any other character, whatever TrueType font
fontconfig names for it. A character no font has is reported by the text layer (procurement/reports/text.py).
"""

from __future__ import annotations

import itertools
import os
import shutil
import subprocess
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from procurement.messages import register, t

FONT_NAME = "GpuProcureCJK"
CID_FONT = "STSong-Light"
ENV_VAR = "GPU_PROCURE_CJK_FONT"
SYSTEM_FONTS_VAR = "GPU_PROCURE_SYSTEM_FONTS"
"""Set to 0 to use no font of the system (only resources/fonts/, the env variable and the CID font)."""

_WIN = os.environ.get("WINDIR", "C:/Windows").replace("\\", "/") + "/Fonts"

# TrueType (glyf) CJK fonts reportlab can embed. Noto/Source Han Sans CJK are CFF-based (.otf/.ttc with
# PostScript outlines): reportlab cannot embed those, so they are not listed and are skipped when found.
KNOWN_PATHS: tuple[tuple[str, int], ...] = (
    ("/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc", 0),
    ("/usr/share/fonts/wqy-zenhei/wqy-zenhei.ttc", 0),
    ("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc", 0),
    ("/usr/share/fonts/wqy-microhei/wqy-microhei.ttc", 0),
    ("/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf", 0),
    ("/usr/share/fonts/google-droid/DroidSansFallbackFull.ttf", 0),
    # macOS: Catalina and later keep the extra fonts under Supplemental; older systems under /Library/Fonts.
    ("/System/Library/Fonts/Supplemental/Arial Unicode.ttf", 0),
    ("/Library/Fonts/Arial Unicode.ttf", 0),
    (f"{_WIN}/msyh.ttc", 0),
    (f"{_WIN}/simhei.ttf", 0),
    (f"{_WIN}/simsun.ttc", 0),
)

# Fallbacks for what CJK fonts lack, TrueType only, in order of preference.
FALLBACK_PATHS: tuple[tuple[str, int], ...] = (
    ("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", 0),  # Arabic, Hebrew, Latin/Greek/Cyrillic extensions
    ("/usr/share/fonts/dejavu/DejaVuSans.ttf", 0),
    ("/usr/share/fonts/dejavu-sans-fonts/DejaVuSans.ttf", 0),
    ("/usr/share/fonts/truetype/hanazono/HanaMinA.ttf", 0),  # CJK Extension A and rare BMP ideographs
    ("/usr/share/fonts/truetype/hanazono/HanaMinB.ttf", 0),  # CJK Extension B (𡈼) and beyond
    ("/usr/share/fonts/hanazono/HanaMinB.ttf", 0),
    ("/System/Library/Fonts/Supplemental/Arial Unicode.ttf", 0),
    ("/System/Library/Fonts/Supplemental/Arial.ttf", 0),
    (f"{_WIN}/arial.ttf", 0),
    (f"{_WIN}/simsunb.ttf", 0),  # SimSun-ExtB
    (f"{_WIN}/mingliub.ttc", 0),
)

INSTALL_HINT = (
    "no TrueType Chinese font found for the PDF reports. Install one: "
    "Debian/Ubuntu `apt-get install fonts-wqy-zenhei`, Fedora/RHEL `dnf install wqy-zenhei-fonts` "
    f"(or run `make system-deps`), or point {ENV_VAR} at a .ttf/.ttc file "
    "(Noto Sans CJK .otf does not work: reportlab cannot embed CFF outlines)."
)


register(
    {
        "report.font_not_embedded": (
            "No Chinese font is embedded (none was found): a viewer without one shows the Chinese text blank."
        ),
        "export.font_not_embedded": (
            "warning: no TrueType Chinese font was found, so the PDF names {font} without embedding it: a viewer "
            "without a Chinese font shows every Chinese character blank."
        ),
    }
)


def unembedded_note(lang: str) -> str:
    """What a PDF made without an embedded CJK font says on its first page ('' when one is embedded): in the
    reader's language and, where that is not English, in English too, which every viewer can show."""
    chain = font_chain()
    if chain.embedded:
        return ""
    note = t("report.font_not_embedded", lang)
    return note if lang == "en" else f"{note} / {t('report.font_not_embedded', 'en')}"


def unembedded_warning(lang: str) -> str:
    """The export's warning on standard error when no CJK font is embedded ('' when one is)."""
    return "" if font_chain().embedded else t("export.font_not_embedded", lang, font=CID_FONT) + "\n" + INSTALL_HINT


class FontNotFoundError(RuntimeError):
    """No usable CJK TrueType font: the message says which package to install."""


@dataclass(frozen=True)
class FontChoice:
    path: Path | None
    """None for the built-in CID font (no file)."""
    subfont_index: int = 0


@dataclass
class ChainFont:
    name: str
    """The reportlab font name."""
    path: str | None
    covers: Callable[[int], bool]


@dataclass
class FontChain:
    """The primary font first, then the fallbacks; ``font_for`` picks one per character."""

    fonts: list[ChainFont]
    system: bool = True
    primary_name: str = ""
    """The paragraphs' font (default: the first); it must have CJK glyphs, as page labels are drawn in it."""
    _cache: dict[int, str | None] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _fc_asked: int = 0

    @property
    def primary(self) -> str:
        return self.primary_name or self.fonts[0].name

    @property
    def embedded(self) -> bool:
        """The primary font is a file embedded in the PDF (not the viewer-supplied CID font)."""
        return self.primary != CID_FONT

    def font_for(self, cp: int) -> str | None:
        """The first font of the chain that has a glyph for code point ``cp``; None when no font has one."""
        try:
            return self._cache[cp]
        except KeyError:
            pass
        with self._lock:
            found = next((f.name for f in self.fonts if f.covers(cp)), None)
            if found is None and self.system and self._fc_asked < FC_LOOKUPS:
                self._fc_asked += 1
                extra = _fc_font_for(cp, {f.path for f in self.fonts})
                if extra is not None:
                    self.fonts.append(extra)
                    found = extra.name
            self._cache[cp] = found
            return found


FC_LOOKUPS = 64
"""At most this many fontconfig look-ups per process for characters no known font has (each ~10-50 ms)."""

_names = itertools.count(1)
_lock = threading.Lock()
_chain: FontChain | None = None
_registered: FontChoice | None = None


def _system_fonts() -> bool:
    return os.environ.get(SYSTEM_FONTS_VAR, "1").strip() not in ("0", "no", "false", "off")


def _resource_fonts() -> list[tuple[str, int]]:
    try:
        folder = resources.files("resources") / "fonts"
        if not folder.is_dir():
            return []
        return [
            (str(p), 0)
            for p in sorted(folder.iterdir(), key=lambda p: p.name)
            if p.name.lower().endswith((".ttf", ".ttc"))
        ]
    except (ModuleNotFoundError, FileNotFoundError, NotADirectoryError):
        return []


def _fc_query(pattern: str) -> list[tuple[str, int]]:
    exe = shutil.which("fc-list")
    if exe is None:
        return []
    try:
        out = subprocess.run(
            [exe, pattern, "file", "index"], capture_output=True, text=True, timeout=10, check=False
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return []
    found: list[tuple[str, int]] = []
    for line in sorted(out.splitlines()):
        path, _, rest = line.partition(":")
        if not path.lower().endswith((".ttf", ".ttc")):
            continue
        idx = rest.split("index=")[-1].strip().rstrip(":") if "index=" in rest else "0"
        found.append((path.strip(), int(idx) if idx.isdigit() else 0))
    return found


def _fc_list() -> list[tuple[str, int]]:
    return _fc_query(":lang=zh")


def candidates() -> list[tuple[str, int]]:
    """Where to look for the primary font, in order: the env variable, resources/fonts/, known system paths,
    fontconfig (the last two skipped with GPU_PROCURE_SYSTEM_FONTS=0)."""
    out: list[tuple[str, int]] = []
    env = os.environ.get(ENV_VAR, "").strip()
    if env:
        out.append((env, 0))
    out += _resource_fonts()
    if _system_fonts():
        out += list(KNOWN_PATHS)
        out += _fc_list()
    return out


def _load(path: str, index: int, name: str = FONT_NAME) -> Any:
    from reportlab.pdfbase.ttfonts import TTFont

    return TTFont(name, path, subfontIndex=index)


def find_font(cands: list[tuple[str, int]] | None = None) -> tuple[object, FontChoice]:
    """The first candidate reportlab loads that has Chinese glyphs; FontNotFoundError says what to install."""
    tried: list[str] = []
    for path, index in candidates() if cands is None else cands:
        if not Path(path).is_file():
            continue
        try:
            font = _load(path, index)
        except Exception as exc:  # reportlab raises TTFError and assorted struct errors on bad fonts
            tried.append(f"{path}: {exc}")
            continue
        if 0x4E2D not in font.face.charToGlyph:  # 中: not a Chinese font after all
            tried.append(f"{path}: has no Chinese glyphs")
            continue
        return font, FontChoice(Path(path), index)
    detail = ("; tried " + "; ".join(tried)) if tried else ""
    raise FontNotFoundError(INSTALL_HINT + detail)


def _ttf_entry(font: Any, path: str) -> ChainFont:
    glyphs = font.face.charToGlyph
    return ChainFont(font.fontName, path, glyphs.__contains__)


def _gb_covers(cp: int) -> bool:
    """STSong-Light (Adobe-GB1 through UniGB-UCS2-H) has the BMP characters of GBK/GB 18030's two-byte part."""
    if cp < 0x20:
        return False
    if cp < 0x7F:
        return True
    if cp > 0xFFFF:
        return False
    try:
        return len(chr(cp).encode("gbk")) == 2
    except UnicodeEncodeError:
        return False


def _latin1(cp: int) -> bool:
    return 0x20 <= cp <= 0x7E or 0xA0 <= cp <= 0xFF


def _cid_entries() -> list[ChainFont]:
    """No font file at all: Helvetica for Latin-1 (its CID-font Latin is monospaced and has no ¥ or no-break
    space) and STSong-Light for Chinese, both supplied by the PDF viewer."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont

    pdfmetrics.registerFont(UnicodeCIDFont(CID_FONT))
    return [ChainFont("Helvetica", None, _latin1), ChainFont(CID_FONT, None, _gb_covers)]


def _fc_font_for(cp: int, known: set[str | None]) -> ChainFont | None:
    """A TrueType font fontconfig says has ``cp``, registered under a new name; None when there is none."""
    from reportlab.pdfbase import pdfmetrics

    for path, index in _fc_query(f":charset={cp:x}"):
        if path in known:
            continue
        try:
            font = _load(path, index, f"GpuProcureFB{next(_names)}")
        except Exception:  # not loadable by reportlab (CFF outlines in a .ttc, a broken file): try the next
            continue
        if cp in font.face.charToGlyph:
            pdfmetrics.registerFont(font)
            return _ttf_entry(font, path)
    return None


def build_chain(
    primary: list[tuple[str, int]] | None = None, fallbacks: list[tuple[str, int]] | None = None
) -> FontChain:
    """Register and return the font chain (reportlab names are global, so call once; see ``font_chain``)."""
    from reportlab.pdfbase import pdfmetrics

    global _registered
    system = _system_fonts()
    fonts: list[ChainFont] = []
    primary_name = FONT_NAME
    try:
        font, choice = find_font(primary)
        pdfmetrics.registerFont(font)
        fonts.append(_ttf_entry(font, str(choice.path)))
        _registered = choice
    except FontNotFoundError:
        fonts += _cid_entries()
        primary_name = CID_FONT
        _registered = FontChoice(None)
    if fallbacks is None:
        fallbacks = list(FALLBACK_PATHS) if system else []
    seen = {f.path for f in fonts}
    for path, index in fallbacks:
        if path in seen or not Path(path).is_file():
            continue
        fonts.append(_lazy_entry(path, index))
        seen.add(path)
    return FontChain(fonts, system=system, primary_name=primary_name)


def _lazy_entry(path: str, index: int) -> ChainFont:
    """A fallback font read and registered only when a character is first looked up in it (HanaMin B alone
    takes about a second to read: most documents never need it)."""
    name = f"GpuProcureFB{next(_names)}"
    state: dict[str, Any] = {}

    def covers(cp: int) -> bool:
        if "glyphs" not in state:
            from reportlab.pdfbase import pdfmetrics

            try:
                font = _load(path, index, name)
                pdfmetrics.registerFont(font)
                state["glyphs"] = font.face.charToGlyph
            except Exception:  # a font reportlab cannot read covers nothing
                state["glyphs"] = {}
        return cp in state["glyphs"]

    return ChainFont(name, path, covers)


def font_chain() -> FontChain:
    """The process's font chain, built on first use (under a lock: reports may render in worker threads)."""
    global _chain
    with _lock:
        if _chain is None:
            _chain = build_chain()
        return _chain


def reset_font_chain(chain: FontChain | None = None) -> FontChain | None:
    """Replace the process's font chain (tests: a machine with other fonts); returns the previous one."""
    global _chain
    with _lock:
        old, _chain = _chain, chain
        return old


def register_cjk_font() -> str:
    """Register the fonts with reportlab (first call only) and return the primary font's reportlab name."""
    return font_chain().primary


def registered_font() -> FontChoice | None:
    """The primary font file in use (path None: the built-in CID font), once registered."""
    return _registered


def _utf16_hex(cp: int) -> str:
    return chr(cp).encode("utf-16-be").hex().upper()


def _to_unicode_cmap(fontname: str, subset: list[int]) -> str:
    """reportlab's ToUnicode CMap with characters beyond the BMP written as UTF-16 surrogate pairs (reportlab
    writes '<2123C>' for 𡈼, which readers take as U+2123 and a stray digit: the text layer loses the character)."""
    lines = [
        "/CIDInit /ProcSet findresource begin",
        "12 dict begin",
        "begincmap",
        "/CIDSystemInfo",
        f"<< /Registry ({fontname})",
        f"/Ordering ({fontname})",
        "/Supplement 0",
        ">> def",
        f"/CMapName /{fontname} def",
        "/CMapType 2 def",
        "1 begincodespacerange",
        f"<00> <{len(subset) - 1:02X}>",
        "endcodespacerange",
        f"{len(subset)} beginbfchar",
        *(f"<{i:02X}> <{_utf16_hex(v)}>" for i, v in enumerate(subset)),
        "endbfchar",
        "endcmap",
        "CMapName currentdict /CMap defineresource pop",
        "end",
        "end",
    ]
    return "\n".join(lines)


def _patch_reportlab() -> None:
    from reportlab.pdfbase import ttfonts

    ttfonts.makeToUnicodeCMap = _to_unicode_cmap


_patch_reportlab()

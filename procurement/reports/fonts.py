"""Finds a TrueType CJK font and registers it with reportlab once per process (embedded as a subset)."""

from __future__ import annotations

import os
import shutil
import subprocess
import threading
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

FONT_NAME = "GpuProcureCJK"
ENV_VAR = "GPU_PROCURE_CJK_FONT"

# TrueType (glyf) CJK fonts reportlab can embed. Noto/Source Han Sans CJK are CFF-based (.otf/.ttc with
# PostScript outlines): reportlab cannot embed those, so they are not listed and are skipped when found.
KNOWN_PATHS: tuple[tuple[str, int], ...] = (
    ("/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc", 0),
    ("/usr/share/fonts/wqy-zenhei/wqy-zenhei.ttc", 0),
    ("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc", 0),
    ("/usr/share/fonts/wqy-microhei/wqy-microhei.ttc", 0),
    ("/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf", 0),
    ("/usr/share/fonts/google-droid/DroidSansFallbackFull.ttf", 0),
    ("/Library/Fonts/Arial Unicode.ttf", 0),
    ("C:/Windows/Fonts/simhei.ttf", 0),
    ("C:/Windows/Fonts/msyh.ttc", 0),
)

INSTALL_HINT = (
    "no TrueType Chinese font found for the PDF reports. Install one: "
    "Debian/Ubuntu `apt-get install fonts-wqy-zenhei`, Fedora/RHEL `dnf install wqy-zenhei-fonts` "
    f"(or run `make system-deps`), or point {ENV_VAR} at a .ttf/.ttc file "
    "(Noto Sans CJK .otf does not work: reportlab cannot embed CFF outlines)."
)


class FontNotFoundError(RuntimeError):
    """No usable CJK TrueType font: the message says which package to install."""


@dataclass(frozen=True)
class FontChoice:
    path: Path
    subfont_index: int = 0


_lock = threading.Lock()
_registered: FontChoice | None = None


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


def _fc_list() -> list[tuple[str, int]]:
    exe = shutil.which("fc-list")
    if exe is None:
        return []
    try:
        out = subprocess.run(
            [exe, ":lang=zh", "file", "index"], capture_output=True, text=True, timeout=10, check=False
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return []
    found: list[tuple[str, int]] = []
    for line in out.splitlines():
        path, _, rest = line.partition(":")
        if not path.lower().endswith((".ttf", ".ttc")):
            continue
        idx = rest.split("index=")[-1].strip().rstrip(":") if "index=" in rest else "0"
        found.append((path.strip(), int(idx) if idx.isdigit() else 0))
    return found


def candidates() -> list[tuple[str, int]]:
    """Where to look, in order: the env variable, resources/fonts/, known system paths, fontconfig."""
    out: list[tuple[str, int]] = []
    env = os.environ.get(ENV_VAR, "").strip()
    if env:
        out.append((env, 0))
    out += _resource_fonts()
    out += list(KNOWN_PATHS)
    out += _fc_list()
    return out


def _load(path: str, index: int) -> Any:
    from reportlab.pdfbase.ttfonts import TTFont

    return TTFont(FONT_NAME, path, subfontIndex=index)


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


def register_cjk_font() -> str:
    """Register the CJK font with reportlab (first call only) and return its reportlab font name."""
    global _registered
    with _lock:
        if _registered is None:
            from reportlab.pdfbase import pdfmetrics

            font, choice = find_font()
            pdfmetrics.registerFont(font)
            _registered = choice
        return FONT_NAME


def registered_font() -> FontChoice | None:
    """The font file in use, once registered."""
    return _registered

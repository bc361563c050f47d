"""Renders the app's SVG icon to hicolor PNGs (16-512 px) at build/install time; PNGs are not committed.

Usage: python packaging/make_icons.py OUT_DIR
writes OUT_DIR/hicolor/NxN/apps/<id>.png and OUT_DIR/hicolor/scalable/apps/<id>.svg
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
# The same as gui.icon.DESKTOP_ID (not imported: this script must not depend on the gui package).
DESKTOP_ID = "io.github.gpuprocure.GpuProcure"
SVG = REPO / "resources" / "icons" / f"{DESKTOP_ID}.svg"
# The sizes desktops ask for: freedesktop's hicolor theme directories and Windows/macOS icon sizes.
SIZES = (16, 22, 24, 32, 48, 64, 128, 256, 512)


def render_icons(out_dir: Path, svg: Path = SVG, sizes: tuple[int, ...] = SIZES) -> list[Path]:
    """Write one PNG per size plus the scalable SVG under out_dir/hicolor; returns the files written."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QGuiApplication, QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    _app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])
    renderer = QSvgRenderer(str(svg))
    if not renderer.isValid():
        raise SystemExit(f"make_icons: {svg}: not a valid SVG for QtSvg")
    written: list[Path] = []
    for size in sizes:
        image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
        image.fill(Qt.GlobalColor.transparent)
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        renderer.render(painter)
        painter.end()
        path = out_dir / "hicolor" / f"{size}x{size}" / "apps" / f"{DESKTOP_ID}.png"
        path.parent.mkdir(parents=True, exist_ok=True)
        if not image.save(str(path)):
            raise SystemExit(f"make_icons: could not write {path}")
        written.append(path)
    scalable = out_dir / "hicolor" / "scalable" / "apps" / f"{DESKTOP_ID}.svg"
    scalable.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(svg, scalable)
    written.append(scalable)
    return written


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    for path in render_icons(Path(argv[0])):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

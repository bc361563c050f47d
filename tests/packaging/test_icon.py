"""The app icon: the SVG renders with QtSvg, app_icon() is usable, and the PNG sizes are generated."""

from __future__ import annotations

from pathlib import Path

import make_icons
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QImage, QPainter
from PySide6.QtSvg import QSvgRenderer

from gui.icon import DESKTOP_ID, app_icon, icon_path


@pytest.mark.parametrize("size", [16, 256])
def test_svg_renders_opaque_in_the_middle_and_clear_at_the_corner(qapp: object, size: int) -> None:
    renderer = QSvgRenderer(str(icon_path()))
    assert renderer.isValid()
    image = QImage(size, size, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    renderer.render(painter)
    painter.end()
    assert image.pixelColor(size // 2, size // 2).alpha() == 255
    # The rounded background (rx 48 of 256) leaves the very corner transparent.
    assert image.pixelColor(0, 0).alpha() == 0


def test_app_icon_gives_pixmaps(qapp: object) -> None:
    icon = app_icon()
    assert not icon.isNull()
    pixmap = icon.pixmap(48, 48)
    assert not pixmap.isNull() and pixmap.width() == 48
    assert icon_path().name == f"{DESKTOP_ID}.svg"


def test_generated_pngs_have_the_sizes_desktops_ask_for(qapp: object, tmp_path: Path) -> None:
    written = make_icons.render_icons(tmp_path)
    pngs = [p for p in written if p.suffix == ".png"]
    assert len(pngs) == len(make_icons.SIZES) == 9
    for size, path in zip(make_icons.SIZES, pngs, strict=True):
        assert path == tmp_path / "hicolor" / f"{size}x{size}" / "apps" / f"{DESKTOP_ID}.png"
        image = QImage(str(path))
        assert (image.width(), image.height()) == (size, size)
    assert (tmp_path / "hicolor" / "scalable" / "apps" / f"{DESKTOP_ID}.svg").read_bytes() == \
        make_icons.SVG.read_bytes()

"""What the spec keeps out of the bundle: GPL-only modules, and the libraries only the target's plugins need."""

from __future__ import annotations

import bundle_data


def test_gpl_only_modules_are_excluded() -> None:
    for module in ("readline", "_gdbm", "dbm.gnu"):
        assert module in bundle_data.PY_EXCLUDES


def test_libraries_needed_only_by_the_gtk_and_cups_plugins_are_left_to_the_target() -> None:
    needed = {
        "/q/libQt6Gui.so.6": ["libglib-2.0.so.0", "libfontconfig.so.1"],
        "/q/libqgtk3.so": ["libgtk-3.so.0", "libpango-1.0.so.0", "libglib-2.0.so.0"],
        "/q/libcupsprintersupport.so": ["libcups.so.2"],
        "/sys/libpango-1.0.so.0": ["libharfbuzz.so.0", "libglib-2.0.so.0"],
        "/sys/libcups.so.2": ["libgnutls.so.30"],
        "/sys/libfontconfig.so.1": ["libexpat.so.1"],
        "/py/libpython3.11.so.1.0": ["libz.so.1"],
    }
    binaries = [
        ("PySide6/Qt/lib/libQt6Gui.so.6", "/q/libQt6Gui.so.6"),
        ("PySide6/Qt/plugins/platformthemes/libqgtk3.so", "/q/libqgtk3.so"),
        ("PySide6/Qt/plugins/printsupport/libcupsprintersupport.so", "/q/libcupsprintersupport.so"),
        ("libpython3.11.so.1.0", "/py/libpython3.11.so.1.0"),
        *[(name, f"/sys/{name}") for name in ("libglib-2.0.so.0", "libfontconfig.so.1", "libexpat.so.1",
                                               "libpango-1.0.so.0", "libharfbuzz.so.0", "libcups.so.2",
                                               "libgnutls.so.30", "libz.so.1")],
    ]
    drop = bundle_data.libraries_only_for(binaries, needed=lambda src: needed.get(src, []))
    # glib is also needed by Qt itself, and libz by libpython: they stay
    assert drop == {"libpango-1.0.so.0", "libharfbuzz.so.0", "libcups.so.2", "libgnutls.so.30"}

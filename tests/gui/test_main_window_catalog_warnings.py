"""The window says when the user catalog holds implausible numbers (catalog/plausible.py)."""

from __future__ import annotations


def test_the_window_shows_the_warnings(qtbot, make_window) -> None:  # type: ignore[no-untyped-def]
    win = make_window()
    win.show_catalog_warnings(["nics.yaml:5: nic 'x': speed_gbps: 10000 is implausible", "b"])
    assert win.statusBar().currentMessage() == ("Implausible values in the user catalog (2); check them: "
                                                "nics.yaml:5: nic 'x': speed_gbps: 10000 is implausible")
    assert win.statusBar().toolTip().splitlines()[1] == "b"

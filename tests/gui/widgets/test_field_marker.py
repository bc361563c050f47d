"""Field markers: the indexed lookup finds exactly the widgets field_matches relates to a finding's fields."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtWidgets import QSpinBox

from gui.widgets.field_marker import PROPERTY, FieldMarkers, _PathIndex, field_matches
from procurement.findings import Finding, Severity

_segment = st.sampled_from(["server", "storage", "part", "count", "psu", "stor", "gpu", "[0]", "[1]", "[10]"])
_path = st.lists(_segment, min_size=1, max_size=4).map(lambda segs: ".".join(segs).replace(".[", "["))


@settings(max_examples=200, deadline=None)
@given(bound=st.lists(_path, max_size=30, unique=True), named=_path)
def test_the_index_relates_the_same_paths_as_field_matches(bound: list[str], named: str) -> None:
    expected = {p for p in bound if field_matches(p, named)}
    found = list(_PathIndex(bound).related(named))
    assert set(found) == expected
    assert len(found) == len(expected)  # each once


def test_apply_marks_rows_below_and_lists_above_with_the_worst_finding_first(qtbot) -> None:
    markers = FieldMarkers()
    widgets = {p: QSpinBox() for p in ("server.storage", "server.storage[0].count", "server.storage[10].count",
                                       "server.storage[1].count", "server.psu.count", "server.storage_note")}
    for w in widgets.values():
        qtbot.addWidget(w)
    for path, w in widgets.items():
        markers.bind(path, w)
    bays = Finding.of_text(rule="PCIE-DRIVE-BAYS", family="pcie", severity=Severity.ERROR, step=3,
                   fields=("server.storage", "server.chassis"), message="bays", fix="fewer")
    one = Finding.of_text(rule="BALANCE-STORAGE", family="balance", severity=Severity.WARNING, step=3,
                  fields=("server.storage[1].count",), message="row 1")
    marked = markers.apply([one, bays, one], "en")
    # 'server.storage' relates to the list itself and every row under it, not to 'server.storage_note'
    assert marked == {"server.storage": Severity.ERROR, "server.storage[0].count": Severity.ERROR,
                      "server.storage[10].count": Severity.ERROR, "server.storage[1].count": Severity.ERROR}
    row1 = widgets["server.storage[1].count"]
    assert row1.property(PROPERTY) == "error"
    assert row1.toolTip() == "• bays\n  → fewer\n• row 1"  # worst first, the repeated finding once
    assert widgets["server.psu.count"].property(PROPERTY) in (None, "")
    assert markers.apply([], "en") == {} and row1.property(PROPERTY) == ""


def test_re_worded_findings_on_many_widgets_are_set_a_slice_per_turn(qtbot, monkeypatch) -> None:
    """A finding on 'server.storage' of a 500-line plan re-words itself at each edit (it states the lane total):
    the tints stay, the tooltips change a slice per turn of the event loop and all of them end up right."""
    import gui.widgets.field_marker as fm

    markers = FieldMarkers()
    widgets = [QSpinBox() for _ in range(3 * FieldMarkers.TEXT_SLICE + 7)]
    for i, w in enumerate(widgets):
        qtbot.addWidget(w)
        markers.bind(f"server.storage[{i}].count", w)

    def lanes(total: int) -> Finding:
        return Finding.of_text(rule="PCIE-LANES", family="pcie", severity=Severity.ERROR, step=3,
                               fields=("server.storage",), message=f"{total} lanes")

    markers.apply([lanes(2000)], "en")
    qtbot.waitUntil(lambda: markers.pending_texts() == 0)
    assert all("2000 lanes" in w.toolTip() and w.property(PROPERTY) == "error" for w in widgets)
    calls = []
    real = fm.mark_field
    monkeypatch.setattr(fm, "mark_field", lambda *a, **k: (calls.append(a[0]), real(*a, **k)))
    markers.apply([lanes(2004)], "en")
    assert len(calls) == FieldMarkers.TEXT_SLICE, "one slice in the call that applied the findings"
    qtbot.waitUntil(lambda: markers.pending_texts() == 0)
    assert all("2004 lanes" in w.toolTip() and "2000" not in w.toolTip() for w in widgets)
    assert len(calls) == len(widgets), "each widget re-worded once"
    markers.apply([], "en")  # the finding went away: every tint and pending text cleared at once
    assert markers.pending_texts() == 0 and all(w.property(PROPERTY) == "" for w in widgets)

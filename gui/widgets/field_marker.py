"""Marks the widgets that edit plan fields named by findings: a tinted background plus the messages as tooltip."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Iterator

import shiboken6
from PySide6.QtCore import QTimer
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QAbstractScrollArea, QWidget

from procurement.findings import SEVERITY_ORDER, Finding, Severity
from procurement.messages import Lang

# Tints readable on light and dark palettes; error red, warning amber, info blue (Material 100 shades).
TINTS: dict[Severity, str] = {Severity.ERROR: "#ffcdd2", Severity.WARNING: "#ffe0b2", Severity.INFO: "#bbdefb"}
PROPERTY = "findingSeverity"
_BASE_TIP = "_baseToolTip"


def mark_field(widget: QWidget, severity: Severity | str | None, text: str = "") -> None:
    """Show (or with ``severity`` None, clear) a finding on ``widget``.

    The widget keeps its own tooltip; the finding's text is added under it. The severity is also set as the
    dynamic property ``findingSeverity`` ("error"/"warning"/"info"/"") for style sheets and tests."""
    if widget.property(_BASE_TIP) is None:
        widget.setProperty(_BASE_TIP, widget.toolTip())
    base = str(widget.property(_BASE_TIP) or "")
    if severity is None:
        widget.setProperty(PROPERTY, "")
        widget.setPalette(QPalette())
        widget.setToolTip(base)
        return
    sev = Severity(severity)
    tip = f"{base}\n\n{text}".strip() if base else text
    if widget.property(PROPERTY) == sev.value:
        # already tinted: only the text may have changed (a finding about 500 storage lines that states the lane
        # total re-words itself at each edit; re-tinting its 1 500 widgets cost ~40 ms per edit)
        if widget.toolTip() != tip:
            widget.setToolTip(tip)
        return
    widget.setProperty(PROPERTY, sev.value)
    pal = widget.palette()
    tint = QColor(TINTS[sev])
    for role in (QPalette.ColorRole.Base, QPalette.ColorRole.Button):
        pal.setColor(role, tint)
    pal.setColor(QPalette.ColorRole.Text, QColor("#000000"))
    pal.setColor(QPalette.ColorRole.ButtonText, QColor("#000000"))
    widget.setPalette(pal)
    if isinstance(widget, QAbstractScrollArea):
        widget.viewport().setPalette(pal)
    widget.setToolTip(tip)


def field_matches(bound: str, named: str) -> bool:
    """True when a finding that names ``named`` concerns the widget bound to ``bound``.

    'server.psu' matches 'server.psu.count' and 'server.storage[0].part' matches 'server.storage'."""
    if bound == named:
        return True
    for a, b in ((bound, named), (named, bound)):
        if a.startswith(b) and a[len(b)] in ".[":
            return True
    return False


class FieldMarkers:
    """The plan paths a page edits and their widgets; marks them from the current findings."""

    def __init__(self) -> None:
        self._widgets: dict[str, QWidget] = {}
        # what apply() last showed on each widget, (widget, severity, text) by id: an edit re-applies every
        # finding to every bound widget (1 511 on step 3 with 500 storage lines), and asking Qt for each
        # widget's property and tooltip cost ~50 ms per edit. The widget is kept so its id stays its own.
        self._shown: dict[int, tuple[QWidget, Severity | None, str]] = {}
        # tooltips whose words changed but whose tint did not, set TEXT_SLICE per turn of the event loop
        self._pending: dict[int, tuple[QWidget, Severity, str]] = {}
        self._related: dict[tuple[str, ...], tuple[str, ...]] = {}
        self._index: _PathIndex | None = None
        self._unseen: dict[int, QWidget] = {}

    TEXT_SLICE = 200
    """Tooltips re-worded per turn of the event loop. A finding naming 'server.storage' on a plan with 500
    storage lines marks 1 500 widgets and states the lane total, so each edit re-words all of them: one
    setToolTip each was 56 ms in one call (tests/hardening/test_responsive.py holds every gap under 0.1 s).
    A tooltip shows on hover, after a turn of the event loop has set it."""

    def bind(self, path: str, widget: QWidget) -> None:
        if self._widgets.get(path) is widget:
            return
        self._widgets[path] = widget
        self._related.clear()
        self._unseen[id(widget)] = widget

    def paths(self) -> list[str]:
        return list(self._widgets)

    def bound(self, path: str) -> bool:
        """True when a widget is bound to exactly ``path``."""
        return path in self._widgets

    def widget_for(self, path: str) -> QWidget | None:
        """The widget that edits ``path``: an exact binding first, then the closest related one."""
        if path in self._widgets:
            return self._widgets[path]
        related = [(len(p), w) for p, w in self._widgets.items() if field_matches(p, path)]
        return max(related, key=lambda x: x[0])[1] if related else None

    def _paths_for(self, fields: tuple[str, ...]) -> tuple[str, ...]:
        """The bound paths a finding naming ``fields`` marks, kept until a binding changes: an edit re-words
        the findings but seldom changes the fields they name (one naming each of 500 storage lines took 25 ms
        to look up again at every edit)."""
        found = self._related.get(fields)
        if found is None:
            if self._index is None or not self._related:
                self._index = _PathIndex(self._widgets)
            matched: dict[str, None] = {}
            for named in fields:
                matched.update(dict.fromkeys(self._index.related(named)))
            found = self._related[fields] = tuple(matched)
        return found

    def apply(self, findings: Iterable[Finding], lang: Lang) -> dict[str, Severity]:
        """Mark every bound widget with its worst finding, its tooltip the findings in ``lang``; returns
        {path: severity} of the marked ones.

        The bound paths are indexed once (comparing every named field with every bound path was 1.6 million
        ``field_matches`` calls, 0.35 s, for step 3 with 500 storage lines); only the widgets a finding marks
        now or marked before are visited."""
        unique = list(dict.fromkeys(findings))  # equal findings count once
        per_path: dict[str, list[int]] = {}  # the findings (their indices, rising) that mark each bound path
        for i, f in enumerate(unique):
            for path in self._paths_for(tuple(f.fields)):
                per_path.setdefault(path, []).append(i)
        by_widget: dict[int, tuple[QWidget, tuple[int, ...]]] = {}
        for path, found in per_path.items():
            widget = self._widgets[path]
            key = id(widget)
            before_found = by_widget.get(key)
            # a widget bound to two paths shows the findings of both
            merged = tuple(found) if before_found is None else tuple(sorted({*before_found[1], *found}))
            by_widget[key] = (widget, merged)
        # widgets marked by the same findings share one severity and one text: a finding naming
        # 'server.storage' marks the 1 500 widgets of 500 storage lines, worked out once instead of per widget
        looks: dict[tuple[int, ...], tuple[Severity, str]] = {}
        said: dict[int, str] = {}  # each finding rendered once, however many widgets it marks

        def look(found: tuple[int, ...]) -> tuple[Severity, str]:
            ordered = sorted(found, key=lambda i: SEVERITY_ORDER[unique[i].severity])
            text = "\n".join(said[i] if i in said else said.setdefault(i, _said(unique[i], lang)) for i in ordered)
            return unique[ordered[0]].severity, text

        shown: dict[int, tuple[QWidget, Severity | None, str]] = {}
        for key, (widget, marks) in by_widget.items():
            severity, text = looks[marks] if marks in looks else looks.setdefault(marks, look(marks))
            before = self._shown.get(key)
            if before is not None and before[0] is widget and before[1] == severity:
                if before[2] != text:
                    self._pending[key] = (widget, severity, text)  # the same tint: only the words change
            else:
                self._pending.pop(key, None)
                mark_field(widget, severity, text)
            shown[key] = (widget, severity, text)
        for key, (widget, _, _) in self._shown.items():
            if key not in shown:
                self._pending.pop(key, None)
                if shiboken6.isValid(widget):
                    mark_field(widget, None)
        for key, widget in self._unseen.items():
            # newly bound widgets without a finding: cleared if marked before this set of markers knew them
            if key not in shown and key not in self._shown and shiboken6.isValid(widget) \
                    and widget.property(PROPERTY):
                mark_field(widget, None)
        self._unseen.clear()
        self._shown = shown
        self._set_texts()
        return {path: min((unique[i] for i in found), key=lambda f: SEVERITY_ORDER[f.severity]).severity
                for path, found in per_path.items()}

    def _set_texts(self) -> None:
        """Set TEXT_SLICE of the pending tooltips now, the rest at the next turns of the event loop."""
        for _ in range(min(self.TEXT_SLICE, len(self._pending))):
            _, (widget, severity, text) = self._pending.popitem()
            if shiboken6.isValid(widget):  # a row removed since the findings came
                mark_field(widget, severity, text)
        if self._pending:
            QTimer.singleShot(0, self._set_texts)

    def pending_texts(self) -> int:
        """Tooltips not re-worded yet (tests wait for 0)."""
        return len(self._pending)


class _PathIndex:
    """Bound paths indexed for ``field_matches``: the same path, the paths above a named one (looked up at each
    cut before '.' or '['), and the paths below it (a range of the sorted paths)."""

    def __init__(self, paths: Iterable[str]) -> None:
        self._paths = set(paths)
        self._sorted = sorted(self._paths)

    def related(self, named: str) -> Iterator[str]:
        """The bound paths ``p`` with ``field_matches(p, named)``."""
        if named in self._paths:
            yield named
        for i, ch in enumerate(named):
            if ch in ".[" and named[:i] in self._paths:
                yield named[:i]
        for sep in ".[":
            # every string that starts with named + sep sorts in [named + sep, named + the next character)
            lo = bisect_left(self._sorted, named + sep)
            hi = bisect_left(self._sorted, named + chr(ord(sep) + 1), lo)
            yield from self._sorted[lo:hi]


def _said(finding: Finding, lang: Lang) -> str:
    fix = finding.fix_text(lang)
    return f"• {finding.message_text(lang)}" + (f"\n  → {fix}" if fix else "")

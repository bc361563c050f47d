"""A buyer at the keyboard and mouse: the journey tests' hands (real key and mouse events only).

Every action goes through QTest key and mouse events on the widget a person would use: click a step in the
step list, click into a field and type, open a combo and walk to an entry with the arrow keys, click a button,
press Ctrl+S. File dialogs are answered (tests/gui/conftest.py dialog_calls), as a person picks a path. What the
window did is then read from the saved file, the exported PDFs (pdftotext) and `gpu-procure check --json`.

Each action also measures the longest the event loop was blocked while it ran (``Buyer.worst_ms``): the
journeys report it with the action it belongs to (bench/bench_clicks.py measures it per click on its own)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from PySide6.QtCore import QPoint, Qt, QTimer
from PySide6.QtGui import QInputMethodEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractSpinBox,
    QApplication,
    QCheckBox,
    QComboBox,
    QLineEdit,
    QTableWidget,
    QWidget,
)

REPO = Path(__file__).resolve().parents[2]
LEFT = Qt.MouseButton.LeftButton


class Buyer:
    """One person driving one window."""

    def __init__(self, win: Any, qtbot: Any, dialog_calls: Any, folder: Path, shots: Path | None = None) -> None:
        self.win, self.qtbot, self.dialogs, self.folder = win, qtbot, dialog_calls, folder
        keep = os.environ.get("GPU_PROCURE_JOURNEY_SHOTS")  # a folder to keep the screenshots in, to look at
        self.shots = Path(keep) / folder.name if keep and shots is not None else shots
        self.worst_ms: list[tuple[float, str]] = []
        # a real file dialog would hang the run: each is answered by the journey, or fails it
        for name in ("ask_export_path", "ask_open_paths", "ask_directory"):
            self.answer_worker(name, _unexpected(name))

    @classmethod
    def start(cls, make_window: Callable[..., Any], qtbot: Any, dialog_calls: Any, folder: Path, lang: str,
              shots: bool = False, size: tuple[int, int] | None = (1280, 900)) -> Buyer:
        """A fresh window at ``size``, switched to ``lang`` by its View → Language action, and its buyer."""
        win = make_window()
        if size is not None:
            win.resize(*size)
        win.named_actions[f"lang_{lang}"].trigger()
        return cls(win, qtbot, dialog_calls, folder, shots=folder / "shots" if shots else None)

    def answer_worker(self, name: str, value: Any) -> None:
        """Answer the pages' own questions (gui/workers.py ask_…) with ``value`` (a callable gets the args)."""
        from gui import workers

        self.dialogs._mp.setattr(workers, name, lambda *args: value(*args) if callable(value) else value)

    # ---------------------------------------------------------------- timing
    @contextmanager
    def _timed(self, what: str) -> Iterator[None]:
        """The longest gap between 5 ms timer ticks while ``what`` runs and the window settles after it."""
        last = [time.perf_counter()]
        worst = [0.0]

        def tick() -> None:
            now = time.perf_counter()
            worst[0] = max(worst[0], now - last[0])
            last[0] = now

        timer = QTimer()
        timer.setInterval(5)
        timer.timeout.connect(tick)
        timer.start()
        try:
            yield
            self.settle()
        finally:
            timer.stop()
            self.worst_ms.append((worst[0] * 1000, what))
            log = os.environ.get("GPU_PROCURE_JOURNEY_TIMINGS")  # bench/bench_journeys.py collects these
            if log:
                with open(log, "a", encoding="utf-8") as fh:
                    fh.write(json.dumps({"ms": round(worst[0] * 1000, 1), "action": what}) + "\n")

    def settle(self, ms: int = 30) -> None:
        QTest.qWait(ms)

    # ---------------------------------------------------------------- navigation
    def go(self, step_index: int) -> Any:
        """Click the step's entry in the window's step list; returns the page shown."""
        lst = self.win.step_list
        item = lst.item(step_index)
        rect = lst.visualItemRect(item)
        with self._timed(f"open step {step_index + 1}"):
            QTest.mouseClick(lst.viewport(), LEFT, pos=rect.center())
        self.qtbot.waitUntil(lambda: self.win.current_index() == step_index, timeout=5000)
        page = self.win.page_at(step_index)
        self.qtbot.waitUntil(page.isVisible, timeout=5000)
        return page

    def shot(self, name: str) -> Path | None:
        """A screenshot of the window as it is now (the journeys keep one per step and language)."""
        if self.shots is None:
            return None
        self.shots.mkdir(parents=True, exist_ok=True)
        path = self.shots / f"{name}.png"
        QApplication.processEvents()
        assert self.win.grab().save(str(path)), path
        return path

    @staticmethod
    def visible(widget: QWidget) -> None:
        """Scroll the widget into view, as a person scrolls to it before clicking."""
        parent = widget.parentWidget()
        while parent is not None:
            ensure = getattr(parent, "ensureWidgetVisible", None)
            if callable(ensure):
                ensure(widget)
            parent = parent.parentWidget()
        QApplication.processEvents()

    # ---------------------------------------------------------------- typing and clicking
    def type(self, box: QWidget, text: str) -> None:
        """Click into a line edit or spin box, select all (Ctrl+A), type ``text``, Tab out."""
        self.visible(box)
        line = box.lineEdit() if isinstance(box, (QAbstractSpinBox, QComboBox)) else box
        spin = getattr(box, "spin", None)  # MoneyBox: the spin box inside
        if isinstance(spin, QAbstractSpinBox):
            line = spin.lineEdit()
        assert isinstance(line, QLineEdit), box
        with self._timed(f"type into {box.objectName() or type(box).__name__}"):
            QTest.mouseClick(line, LEFT)
            QTest.keyClick(line, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
            _keys(line, text)
            QTest.keyClick(line, Qt.Key.Key_Tab)

    def paste(self, box: QWidget, text: str) -> None:
        """Click into a line edit, select all, paste ``text`` from the clipboard (Ctrl+V), Tab out: how text with
        line breaks or control characters arrives (from a mail, a web page)."""
        self.visible(box)
        assert isinstance(box, QLineEdit), box
        # what the person copied elsewhere (a mail, a web page): the clipboard, not a widget, is set here
        QApplication.clipboard().setText(text)
        with self._timed(f"paste into {box.objectName() or type(box).__name__}"):
            QTest.mouseClick(box, LEFT)
            QTest.keyClick(box, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
            QTest.keyClick(box, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
            QTest.keyClick(box, Qt.Key.Key_Tab)

    def choose(self, combo: QComboBox, data: Any) -> None:
        """Open the combo with a click, walk to the entry whose data is ``data`` with the arrow keys, Enter."""
        target = combo.findData(data)
        assert target >= 0, (combo.objectName(), data, [combo.itemData(i) for i in range(combo.count())])
        self.visible(combo)
        with self._timed(f"choose {data} in {combo.objectName()}"):
            QTest.mouseClick(combo, LEFT)
            view = combo.view()
            self.qtbot.waitUntil(view.isVisible, timeout=3000)
            row = view.currentIndex().row()
            key = Qt.Key.Key_Down if target > row else Qt.Key.Key_Up
            for _ in range(abs(target - row)):
                QTest.keyClick(view, key)
            QTest.keyClick(view, Qt.Key.Key_Return)
        self.qtbot.waitUntil(lambda: not view.isVisible(), timeout=3000)
        assert combo.currentIndex() == target, (combo.objectName(), combo.currentText())

    def take_first_ranked_gpu(self) -> str:
        """Step 2: wait for the ranking, click its first row, press "Use the selected GPU"; the GPU's id."""
        page = self.go(1)
        self.qtbot.waitUntil(lambda: not page.ranking_pending() and page.table.rowCount() > 0, timeout=10_000)
        first: str = page.visible_ids()[0]
        self.click_row(page.table, 0)
        self.click(page.use_button)
        self.qtbot.waitUntil(lambda: self.win.controller.plan.gpu.model == first, timeout=5000)
        return first

    def click(self, button: QAbstractButton, what: str = "") -> None:
        self.visible(button)
        assert button.isEnabled(), f"{button.objectName() or button.text()} is disabled"
        with self._timed(what or f"click {button.objectName() or button.text()}"):
            if isinstance(button, QCheckBox):
                QTest.mouseClick(button, LEFT, pos=QPoint(8, button.height() // 2))  # on the indicator
            else:
                QTest.mouseClick(button, LEFT)

    def click_row(self, table: QTableWidget | QAbstractItemView, row: int, column: int = 0) -> None:
        model = table.model()
        index = model.index(row, column)
        table.scrollTo(index)
        rect = table.visualRect(index)
        with self._timed(f"click row {row}"):
            QTest.mouseClick(table.viewport(), LEFT, pos=rect.center())

    def key(self, widget: QWidget, key: Qt.Key, modifier: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier,
            what: str = "") -> None:
        if not widget.window().isActiveWindow():  # a shortcut reaches the active window only (a person
            widget.window().activateWindow()      # clicks on the window first)
            self.qtbot.waitUntil(widget.window().isActiveWindow, timeout=3000)
        with self._timed(what or f"key {key}"):
            QTest.keyClick(widget, key, modifier)

    # ---------------------------------------------------------------- the keyboard alone
    def tab_to(self, widget: QWidget, limit: int = 120) -> None:
        """Press Tab until ``widget`` (or the spin box or combo it is inside) has the focus, as a keyboard user
        does; fails when Tab never reaches it."""
        def focused() -> bool:
            f = QApplication.focusWidget()
            return f is not None and (f is widget or widget.isAncestorOf(f) or f.focusProxy() is widget)

        for _ in range(limit):
            if focused():
                return
            target = QApplication.focusWidget() or self.win
            self.key(target, Qt.Key.Key_Tab, what="Tab")
        raise AssertionError(f"Tab never reached {widget.objectName() or widget!r}")

    def keys_type(self, widget: QWidget, text: str) -> None:
        """Tab to the field, Ctrl+A, type, Tab out: no mouse."""
        self.tab_to(widget)
        target = QApplication.focusWidget()
        assert target is not None
        with self._timed(f"type into {widget.objectName() or type(widget).__name__}"):
            QTest.keyClick(target, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
            _keys(target, text)
            QTest.keyClick(target, Qt.Key.Key_Tab)

    def keys_choose(self, combo: QComboBox, data: Any) -> None:
        """Tab to the combo and walk to the entry with the arrow keys (a closed combo changes on Up/Down)."""
        target = combo.findData(data)
        assert target >= 0, (combo.objectName(), data)
        self.tab_to(combo)
        key = Qt.Key.Key_Down if target > combo.currentIndex() else Qt.Key.Key_Up
        for _ in range(abs(target - combo.currentIndex())):
            self.key(combo, key, what=f"choose {data}")
        assert combo.currentIndex() == target, combo.currentText()

    def keys_press(self, button: QAbstractButton) -> None:
        """Tab to the button and press Space."""
        self.tab_to(button)
        self.key(button, Qt.Key.Key_Space, what=f"press {button.objectName() or button.text()}")

    def keys_step(self, number: int) -> Any:
        """Ctrl+<number>: the window's shortcut to a step (1-5), the checklist (6) or the quote (7)."""
        key = getattr(Qt.Key, f"Key_{number}")
        self.key(self.win, key, Qt.KeyboardModifier.ControlModifier, f"Ctrl+{number}")
        self.qtbot.waitUntil(lambda: self.win.current_index() == number - 1, timeout=5000)
        page = self.win.page_at(number - 1)
        self.qtbot.waitUntil(page.isVisible, timeout=5000)
        return page

    # ---------------------------------------------------------------- files
    def save_as(self, name: str) -> Path:
        """Ctrl+S on a new plan: the save dialog is answered with ``name`` in the journey's folder."""
        path = self.folder / name
        self.dialogs.answer("ask_save_path", path)
        before = path.stat().st_mtime_ns if path.exists() else None
        self.key(self.win, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier, "save")
        try:
            self.qtbot.waitUntil(lambda: path.exists() and path.stat().st_mtime_ns != before, timeout=10_000)
        except Exception:
            raise AssertionError(f"not saved: {self.dialogs.names()} {self.win.statusBar().currentMessage()!r} "
                                 f"{QApplication.focusWidget()!r} {QApplication.activeModalWidget()!r}") from None
        return path

    def open_plan(self, path: Path) -> None:
        """Ctrl+O, the open dialog answered with ``path``."""
        self.dialogs.answer("ask_open_path", path)
        self.key(self.win, Qt.Key.Key_O, Qt.KeyboardModifier.ControlModifier, "open")
        self.qtbot.waitUntil(lambda: self.win.controller.path == path, timeout=10_000)

    def save_copy_as(self, name: str) -> Path:
        """Ctrl+Shift+S: the plan saved under a new name in the journey's folder."""
        path = self.folder / name
        self.dialogs.answer("ask_save_path", path)
        self.key(self.win, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
                 "save as")
        self.qtbot.waitUntil(path.exists, timeout=10_000)
        return path

    def export(self, button: QAbstractButton, name: str, done: Callable[[], bool] | None = None) -> Path:
        """Click an export button; the file dialog gets ``name``; wait until the PDF is written."""
        path = self.folder / name
        self.answer_worker("ask_export_path", path)
        self.click(button, f"export {name}")
        self.qtbot.waitUntil(lambda: path.exists() and path.stat().st_size > 0, timeout=60_000)
        if done is not None:
            self.qtbot.waitUntil(done, timeout=60_000)
        return path


def _keys(target: QWidget, text: str) -> None:
    """Type ``text`` into ``target``: ASCII as key presses, any other character as an input method commits it
    (a Chinese IME, an Arabic layout's digits: QTest's key clicks are ASCII only)."""
    for ch in text:
        if ch.isascii():
            QTest.keyClicks(target, ch)
        else:
            event = QInputMethodEvent("", [])
            event.setCommitString(ch)
            QApplication.sendEvent(target, event)


def _unexpected(name: str) -> Callable[..., Any]:
    def fail(*args: Any) -> Any:
        raise AssertionError(f"unexpected dialog {name}{args[1:]!r}")
    return fail


def yuan_amounts(text: str) -> list[float]:
    """Every ¥ amount in ``text``, in order ('¥18,998.00' → 18998.0): the money a PDF's text prints."""
    return [float(m.replace(",", "")) for m in re.findall(r"¥\s?(\d[\d,]*(?:\.\d+)?)", text)]


def pdf_text(path: Path) -> str:
    """The PDF's text as pdftotext reads it (poppler-utils; installed by packaging/system-deps.sh)."""
    tool = shutil.which("pdftotext")
    assert tool, "pdftotext (poppler-utils) is needed: bash packaging/system-deps.sh"
    run = subprocess.run([tool, "-layout", str(path), "-"], capture_output=True, text=True, timeout=60, check=True)
    return run.stdout


def check_json(path: Path, lang: str = "en") -> list[dict[str, Any]]:
    """`gpu-procure check PLAN --json` in a fresh process, as a person or CI runs it."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8", "PYTHONPATH": str(REPO),
           "QT_QPA_PLATFORM": "offscreen", "GPU_PROCURE_CACHE_DIR": "off"}
    run = subprocess.run([sys.executable, "-m", "gui.launch", "check", str(path), "--json", "--lang", lang],
                         capture_output=True, text=True, timeout=180, check=False, cwd=REPO, env=env)
    assert run.returncode in (0, 1, 3), run.stderr
    findings: list[dict[str, Any]] = json.loads(run.stdout)
    return findings

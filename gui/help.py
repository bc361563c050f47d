"""The Help menu's pages: the user guide, the keyboard shortcuts, the catalog's dates and the policy in force,
each rendered in a non-modal window in the UI's language (markdown in a QTextBrowser)."""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QEvent, Qt
from PySide6.QtGui import QAction, QGuiApplication, QKeySequence
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QTextBrowser, QVBoxLayout, QWidget

from gui.numbers import integer
from gui.safe_events import reported
from procurement.messages import Lang

if TYPE_CHECKING:
    from catalog.loader import Catalog
    from procurement.policy import Policy

translate = QCoreApplication.translate  # lupdate reads translate("help", "text")
KINDS = ("guide", "shortcuts", "catalog")


def guide_markdown(lang: Lang) -> str:
    """The user guide shipped in resources/help/ in ``lang`` (English when that language has none)."""
    folder = resources.files("resources") / "help"
    page = folder / f"user-guide.{lang}.md"
    if not page.is_file():
        page = folder / "user-guide.en.md"
    return page.read_text(encoding="utf-8")


def _plain(text: str) -> str:
    return text.replace("&&", "\0").replace("&", "").replace("\0", "&")


def shortcuts_markdown(actions: dict[str, QAction]) -> str:
    """Every menu action that has a key, read from the actions themselves (so the list cannot go stale), and
    the keys that work inside the pages."""
    rows = []
    for act in actions.values():
        keys = [k.toString(QKeySequence.SequenceFormat.NativeText) for k in act.shortcuts() if not k.isEmpty()]
        if keys and act.text():
            rows.append((_plain(act.text()).rstrip("…").strip(), ", ".join(keys)))
    inside = [
        (translate("help", "Next / previous control"), "Tab, Shift+Tab"),
        (translate("help", "Move within a table or list"), translate("help", "Arrow keys, Home, End")),
        (translate("help", "Select several rows (step 2, to compare)"), translate("help", "Shift+arrow keys")),
        (translate("help", "Use the GPU of the current row (step 2)"), translate("help", "Enter")),
        (translate("help", "Next / previous tab"), "Ctrl+Tab, Ctrl+Shift+Tab"),
        (translate("help", "The field or button of an underlined letter"), translate("help", "Alt+letter")),
        (translate("help", "Open a drop-down list"), translate("help", "Alt+Down or F4")),
    ]
    out = ["# " + translate("help", "Keyboard shortcuts"), "", "## " + translate("help", "Menus"), ""]
    out += [f"- **{keys}** — {name}" for name, keys in rows]
    out += ["", "## " + translate("help", "Inside a page"), ""]
    out += [f"- **{keys}** — {name}" for name, keys in inside]
    return "\n".join(out) + "\n"


def _policy_sources() -> dict[str, str]:
    """Each threshold's source, from the shipped policy file (resources/policy/default.yaml)."""
    import yaml

    text = (resources.files("resources") / "policy" / "default.yaml").read_text(encoding="utf-8")
    data = yaml.safe_load(text) or {}
    return {k: " ".join(str(v.get("source", "")).split()) for k, v in data.items() if isinstance(v, dict)}


def _value(value: object) -> str:
    if isinstance(value, tuple):
        return " / ".join(_value(v) for v in value)
    if isinstance(value, float) and value.is_integer():
        return integer(value)
    return str(value)


def catalog_policy_markdown(catalog: Catalog, policy: Policy, policy_path: Path | None) -> str:
    """The catalog's size and price dates (newest, oldest, undated), the user directories laid over it, and
    every threshold of the policy in force with its value, whether it differs from the shipped one, and its
    source."""
    from procurement.policy import default_policy

    dates = [d for d in (getattr(part, "price_date", None) for part in catalog) if d is not None]
    priced = [part for part in catalog if getattr(part, "price_cny", None) is not None]
    out = ["# " + translate("help", "Catalog and policy"), "", "## " + translate("help", "Catalog"), ""]
    out.append("- " + translate("help", "Parts: %1").replace("%1", integer(len(catalog))))
    out.append("- " + translate("help", "Parts with a reference price: %1").replace("%1", integer(len(priced))))
    if dates:
        out.append("- " + translate("help", "Newest price date: %1").replace("%1", max(dates).isoformat()))
        out.append("- " + translate("help", "Oldest price date: %1").replace("%1", min(dates).isoformat()))
    else:
        out.append("- " + translate("help", "Price dates: none recorded"))
    if catalog.overlays:
        out.append("- " + translate("help", "User catalog directories:"))
        out += [f"  - `{o.directory}`" for o in catalog.overlays]
    else:
        out.append("- " + translate("help", "User catalog directories: none (the shipped catalog only)"))
    out += ["", "## " + translate("help", "Policy in force"), ""]
    out.append(translate("help", "The file given with --policy: %1").replace("%1", f"`{policy_path}`")
               if policy_path is not None else
               translate("help", "The shipped policy (resources/policy/default.yaml); start the app with "
                                 "--policy FILE to use your own thresholds."))
    out.append("")
    sources = _policy_sources()
    shipped = default_policy()
    for name in type(policy).model_fields:
        value, default = getattr(policy, name), getattr(shipped, name)
        state = (translate("help", "as shipped") if value == default else
                 translate("help", "changed; shipped: %1").replace("%1", _value(default)))
        out.append(f"- `{name}` = **{_value(value)}** ({state}) — {sources.get(name, '—')}")
    return "\n".join(out) + "\n"


class HelpWindow(QDialog):
    """One non-modal window for the Help pages; ``show_kind`` fills it in the current language."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName("helpWindow")
        self.kind = "guide"
        self._render = lambda kind: ""
        self.browser = QTextBrowser(self)
        self.browser.setObjectName("helpText")
        self.browser.setOpenExternalLinks(False)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        self.buttons.rejected.connect(self.close)
        layout = QVBoxLayout(self)
        layout.addWidget(self.browser)
        layout.addWidget(self.buttons)
        self.setWindowFlag(Qt.WindowType.WindowContextHelpButtonHint, False)
        screen = parent.screen().availableGeometry() if parent.screen() is not None else None
        width, height = 760, 640
        if screen is not None:  # fits a 1280 × 800 screen with room for the frame
            width, height = min(width, screen.width() - 80), min(height, screen.height() - 100)
        self.resize(width, height)

    def show_kind(self, kind: str, render: object) -> None:
        self.kind = kind
        self._render = render  # type: ignore[assignment]
        self._fill()
        already = self.isVisible()
        self.show()
        if already and QGuiApplication.platformName() != "offscreen":  # offscreen (tests) cannot raise
            self.raise_()  # bring an open Help window forward
        self.activateWindow()
        self.browser.setFocus()

    def _fill(self) -> None:
        titles = {"guide": translate("help", "User guide"), "shortcuts": translate("help", "Keyboard shortcuts"),
                  "catalog": translate("help", "Catalog and policy")}
        self.setWindowTitle(titles.get(self.kind, ""))
        self.browser.setMarkdown(self._render(self.kind))

    def text(self) -> str:
        """What the window shows, as plain text (for tests and accessibility)."""
        return self.browser.toPlainText()

    @reported
    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange and self.isVisible():
            self._fill()
        super().changeEvent(event)

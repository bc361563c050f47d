"""Page: step 4 (镜像选择) — OS, driver, CUDA, framework and image, conflicts marked, and the Dockerfile."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QBrush, QFontDatabase, QGuiApplication, QPalette
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from catalog.models import ContainerImage, CudaRelease, DriverBranch, Framework, OperatingSystem, Part, parse_version
from gui import workers
from gui.controller import PlanController
from gui.pages.base import StepPage
from procurement import rules
from procurement.dockerfile import MIRRORS, dockerfile_for_plan, image_tags
from procurement.findings import Severity
from procurement.plan import PlanError, atomic_write, with_value
from procurement.software_stack import apply_values, image_fill, recommend_stack

CONFLICT_MARK = "⚠"

# (plan field, catalog kind) in the order a buyer decides them
FIELDS: tuple[tuple[str, type[Part]], ...] = (
    ("software.os", OperatingSystem),
    ("software.driver", DriverBranch),
    ("software.cuda", CudaRelease),
    ("software.framework", Framework),
    ("software.image", ContainerImage),
)


translate = QCoreApplication.translate  # lupdate reads translate("Context", "text") calls



def describe_software(part: Part) -> str:
    """The combo text: the name and what decides compatibility."""
    specs: list[str] = []
    if isinstance(part, OperatingSystem):
        specs = [part.version, "LTS" if part.lts else ""]
        if part.max_cuda:
            specs.append(translate("ImagePage", "CUDA ≤ %1").replace("%1", part.max_cuda))
    elif isinstance(part, DriverBranch):
        specs = [part.version, translate("ImagePage", "data centre only") if part.datacenter_only else ""]
    elif isinstance(part, CudaRelease):
        specs = [translate("ImagePage", "driver ≥ %1").replace("%1", part.min_driver_linux),
                 translate("ImagePage", "compute capability %1-%2").replace("%1", part.min_cc)
                 .replace("%2", part.max_cc)]
    elif isinstance(part, Framework):
        specs = [translate("ImagePage", "CUDA %1").replace("%1", ", ".join(part.cuda_versions)),
                 translate("ImagePage", "Python %1").replace("%1", part.python)]
    elif isinstance(part, ContainerImage):
        specs = [part.reference]
        if part.cuda:
            specs.append(f"CUDA {part.cuda}")
        specs.append(part.publisher if part.trusted
                     else translate("ImagePage", "%1, unofficial").replace("%1", part.publisher))
    text = ", ".join(s for s in specs if s)
    return f"{part.name} — {text}" if text else part.name


def _order(part: Part) -> tuple[Any, ...]:
    version = getattr(part, "version", None)
    try:
        key: tuple[int, ...] = parse_version(version) if version else ()
    except ValueError:
        key = ()
    return (part.vendor, part.name.split(" ")[0], tuple(-k for k in key), part.name)


def option_conflicts(controller: PlanController, path: str, options: list[Part]) -> dict[str, list[str]]:
    """For each option of ``path``: the rule messages (errors and warnings) that choosing it would raise
    about that field, given the choices so far. The rules decide; this only asks them "what if"."""
    plan, current = controller.plan, controller.value(path)
    out: dict[str, list[str]] = {}
    for part in options:
        if part.id == current:
            candidate = plan
        else:
            try:
                candidate = with_value(plan, path, part.id)
            except PlanError:
                continue
        findings = rules.evaluate(candidate, controller.catalog, controller.policy, controller.lang)
        reasons = [f.message_text(controller.lang) for f in findings
                   if f.severity != Severity.INFO and f.family in ("software", "licensing") and path in f.fields]
        if reasons:
            out[part.id] = reasons
    return out


class ImagePage(StepPage):
    step = 4

    def __init__(self, controller: PlanController, parent: QWidget | None = None) -> None:
        super().__init__(controller, parent)
        self.combos: dict[str, QComboBox] = {}
        self.conflicts: dict[str, dict[str, list[str]]] = {}
        self.error_label = QLabel()
        self.error_label.setWordWrap(True)
        self.error_label.setStyleSheet("color: #c62828")
        self.error_label.hide()
        self.choice_box = QGroupBox()
        self.form = QFormLayout(self.choice_box)
        self.reason_labels: dict[str, QLabel] = {}
        for path, _kind in FIELDS:
            combo = QComboBox()
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(32)  # 40 made step 4 wider than the room at 1024 px beside the findings
            self.combos[path] = combo
            # why the chosen option conflicts, in full under the combo (the closed combo would clip it)
            reason = QLabel()
            reason.setWordWrap(True)
            reason.setStyleSheet("color: #b26a00")
            reason.hide()
            self.reason_labels[path] = reason
            cell = QWidget()
            cell_layout = QVBoxLayout(cell)
            cell_layout.setContentsMargins(0, 0, 0, 0)
            cell_layout.setSpacing(2)
            cell_layout.addWidget(combo)
            cell_layout.addWidget(reason)
            self.form.addRow(QLabel(), cell)
            bind = getattr(self, "bind_field", None)
            if bind is not None:
                bind(path, combo)
        # what the chosen image brought with it (or where it disagrees with the plan), under the choices
        self.image_note = QLabel()
        self.image_note.setWordWrap(True)
        self.image_note.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.image_note.hide()
        self.form.addRow(self.image_note)
        # the stack the rules accept for the chosen GPU, each choice with its reason, applied in one undo step
        self.recommend_box = QGroupBox()
        self.recommend_text = QLabel()
        self.recommend_text.setWordWrap(True)
        self.recommend_text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.apply_button = QPushButton()
        rl = QVBoxLayout(self.recommend_box)
        rl.addWidget(self.recommend_text)
        rrow = QHBoxLayout()
        rrow.addStretch(1)
        rrow.addWidget(self.apply_button)
        rl.addLayout(rrow)
        self.recommended: dict[str, str] = {}
        self.noted_image: str | None = None
        self.docker_box = QGroupBox()
        self.dockerfile_view = QPlainTextEdit()
        self.dockerfile_view.setReadOnly(True)
        self.dockerfile_view.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.dockerfile_view.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.copy_button = QPushButton()
        self.save_button = QPushButton()
        # apt/pip mirrors in China and the base registry as a build argument (procurement/dockerfile.py MIRRORS)
        self.mirror_label = QLabel()
        self.mirror_combo = QComboBox()
        self.mirror_combo.addItem("", None)
        for mirror in MIRRORS.values():
            self.mirror_combo.addItem(mirror.name, mirror.id)
        self.mirror_label.setBuddy(self.mirror_combo)
        # the plan's image build choices (operations.image_base, operations.multi_stage; procurement/dockerfile.py)
        self.base_label = QLabel()
        self.base_combo = QComboBox()
        self.base_combo.setObjectName("cudaBase")
        self.base_combo.addItem("", "runtime")
        self.base_combo.addItem("", "devel")
        self.base_label.setBuddy(self.base_combo)
        self.multi_stage_check = QCheckBox()
        self.multi_stage_check.setObjectName("multiStage")
        self.tag_label = QLabel()
        self.tag_label.setObjectName("imageTag")
        self.tag_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        # a tag is one long word (4-a100-40gb-…:pytorch-2.1-cuda12.1-20261206): wrapped where it can be and
        # never wider than the page (it made step 4 819 px at least); the whole tag is selectable and in the tip
        self.tag_label.setWordWrap(True)
        self.tag_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        # the mirror and the base one under the other, the multi-stage choice and the buttons below: in one row
        # they made the page 1,325-1,362 px wide (the window must fit 1,280), side by side still 531 px, past the
        # room at 1,024 × 768 with the findings beside it
        choices = QFormLayout()
        choices.addRow(self.mirror_label, self.mirror_combo)
        choices.addRow(self.base_label, self.base_combo)
        buttons = QHBoxLayout()
        buttons.addWidget(self.multi_stage_check)
        buttons.addStretch(1)
        buttons.addWidget(self.copy_button)
        buttons.addWidget(self.save_button)
        for combo in (self.mirror_combo, self.base_combo):
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(14)
        dl = QVBoxLayout(self.docker_box)
        dl.addWidget(self.dockerfile_view)
        dl.addWidget(self.tag_label)
        dl.addLayout(choices)
        dl.addLayout(buttons)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        self.add_heading(outer)
        outer.addWidget(self.error_label)
        outer.addWidget(self.choice_box)
        outer.addWidget(self.recommend_box)
        outer.addWidget(self.docker_box, 1)
        self._connect_signals()
        self.retranslate()
        self.refresh_now()

    def _connect_signals(self) -> None:
        for path, combo in self.combos.items():
            combo.currentIndexChanged.connect(lambda _i, p=path, c=combo: self._choose(p, c.currentData()))
        self.apply_button.clicked.connect(self.apply_recommendation)
        self.mirror_combo.currentIndexChanged.connect(lambda _i: self.refresh_dockerfile())
        self.base_combo.currentIndexChanged.connect(lambda _i: self._choose_build(
            "operations.image_base", self.base_combo.currentData(), self.tr("CUDA base image")))
        self.multi_stage_check.toggled.connect(lambda on: self._choose_build(
            "operations.multi_stage", on, self.tr("Multi-stage build")))
        self.copy_button.clicked.connect(self.copy_dockerfile)
        self.save_button.clicked.connect(self.save_dockerfile)

    # -- language
    def retranslate(self) -> None:
        self.choice_box.setTitle(self.tr("Software stack"))
        self.docker_box.setTitle(self.tr("Dockerfile for the chosen image"))
        labels = [self.tr("Operating system:"), self.tr("Driver branch:"), self.tr("CUDA:"), self.tr("Framework:"),
                  self.tr("Container image:")]
        for row, text in enumerate(labels):
            item = self.form.itemAt(row, QFormLayout.ItemRole.LabelRole)
            label = item.widget() if item is not None else None
            if isinstance(label, QLabel):
                label.setText(text)
                label.setBuddy(self.combos[FIELDS[row][0]])
        self.recommend_box.setTitle(self.tr("Recommended stack for the chosen GPU"))
        self.apply_button.setText(self.tr("&Apply recommendation"))
        self.mirror_label.setText(self.tr("Package &mirror:"))
        self.mirror_combo.setItemText(0, self.tr("None (official sources)"))
        self.mirror_combo.setToolTip(self.tr("Point apt and pip at a mirror in mainland China, and make the base "
                                             "image's registry a build argument for an internal registry mirror"))
        self.base_label.setText(self.tr("CUDA ba&se:"))
        self.base_combo.setItemText(0, self.tr("runtime (smaller)"))
        self.base_combo.setItemText(1, self.tr("devel (compiler and headers)"))
        self.base_combo.setToolTip(self.tr("For NVIDIA CUDA base images: the runtime image holds the CUDA libraries "
                                           "only; the devel image adds the compiler and headers, 1.4-2.6 GB more"))
        self.multi_stage_check.setText(self.tr("M&ulti-stage build"))
        self.multi_stage_check.setToolTip(self.tr("Build the Python environment in the devel image and ship it in "
                                                  "the runtime image"))
        self.copy_button.setText(self.tr("Copy"))
        self.save_button.setText(self.tr("Save…"))
        self.dockerfile_view.setPlaceholderText(self.tr("Choose a container image to generate its Dockerfile."))

    # -- plan → widgets
    def refresh(self) -> None:
        # Marking the options asks the rules "what if" once per option: the base calls this only while the
        # page is on screen, not for every edit made on another step.
        cat = self.controller.catalog
        grey = QBrush(self.palette().color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text))
        for path, kind in FIELDS:
            combo = self.combos[path]
            options = sorted(cat.all(kind), key=_order)
            conflicts = option_conflicts(self.controller, path, options)
            self.conflicts[path] = conflicts
            current = self.controller.value(path)
            combo.clear()
            combo.addItem(self.tr("— not chosen —"), None)
            for part in options:
                text = describe_software(part)
                reasons = conflicts.get(part.id)
                if reasons:
                    # shown, selectable, but greyed and marked: never silently hidden. The reason goes in the
                    # tooltip and, once chosen, under the combo: appended to the text it was clipped.
                    combo.addItem(f"{CONFLICT_MARK} {text}", part.id)
                    combo.setItemData(combo.count() - 1, "\n".join(reasons), Qt.ItemDataRole.ToolTipRole)
                    combo.setItemData(combo.count() - 1, grey, Qt.ItemDataRole.ForegroundRole)
                else:
                    combo.addItem(text, part.id)
                    combo.setItemData(combo.count() - 1, text, Qt.ItemDataRole.ToolTipRole)
            if current is not None and combo.findData(current) < 0:
                combo.addItem(self.tr("%1 (not in the catalog)").replace("%1", str(current)), current)
            combo.setCurrentIndex(max(0, combo.findData(current)))
            chosen = conflicts.get(current or "")
            combo.setToolTip("\n".join(chosen) if chosen else "")
            self.reason_labels[path].setText("\n".join(f"{CONFLICT_MARK} {r}" for r in chosen or []))
            self.reason_labels[path].setVisible(bool(chosen))
        if self.controller.plan.software.image != self.noted_image:
            self.image_note.hide()
        self.refresh_recommendation()
        self.refresh_dockerfile()

    def refresh_dockerfile(self) -> None:
        ops = self.controller.plan.operations
        was = self.refreshing
        self.refreshing = True
        self.base_combo.setCurrentIndex(max(0, self.base_combo.findData(ops.image_base)))
        self.multi_stage_check.setChecked(ops.multi_stage)
        self.refreshing = was
        tags = image_tags(self.controller.plan, self.controller.catalog)
        self.tag_label.setText(self.tr("Image tag: %1 (then %2)").replace("%1", tags.ref()).replace(
            "%2", ", ".join(tags.environments)) if tags else "")
        self.tag_label.setToolTip(tags.ref() if tags else "")
        self.tag_label.setVisible(tags is not None)
        self.dockerfile_view.setPlainText(self.dockerfile_text())
        has_text = bool(self.dockerfile_view.toPlainText())
        self.copy_button.setEnabled(has_text)
        self.save_button.setEnabled(has_text)

    def refresh_recommendation(self) -> None:
        rec = recommend_stack(self.controller.plan, self.controller.catalog, self.controller.policy,
                              self.controller.lang)
        if rec is None:
            self.recommended = {}
            self.recommend_text.setText(self.tr("Choose a GPU in step 2 to get a recommended driver, CUDA and "
                                                "framework for it."))
            self.apply_button.setEnabled(False)
            return
        sw = self.controller.plan.software.model_dump()
        self.recommended = rec.values
        differs = {p: v for p, v in rec.values.items() if sw.get(p.split(".", 1)[1]) != v}
        lines = [f"• {r}" for r in rec.reasons]
        if rec.values and not differs:
            lines.append(self.tr("The plan already uses this stack."))
        self.recommend_text.setText("\n".join(lines))
        self.apply_button.setEnabled(bool(differs))

    def apply_recommendation(self) -> None:
        if not self.recommended:
            return
        after = apply_values(self.controller.plan, self.recommended)
        self.controller.replace_plan(after, lambda: self.tr("Apply the recommended software stack"))

    def dockerfile_text(self) -> str:
        return dockerfile_for_plan(self.controller.plan, self.controller.catalog, self.controller.lang,
                                   self.mirror_combo.currentData()) or ""

    # -- widgets → plan
    def _choose(self, path: str, value: Any) -> None:
        if self.refreshing:
            return
        if path == "software.image" and value is not None:
            self._choose_image(str(value))
            return
        if path == "software.image":
            self.image_note.hide()
        try:
            self.controller.set_value(path, value)
        except PlanError as exc:
            self.error_label.setText(str(exc))
            self.error_label.show()
            return
        self.error_label.hide()

    def _choose_build(self, path: str, value: Any, text: str) -> None:
        if self.refreshing:
            return
        self.controller.set_value(path, value, text)

    def _choose_image(self, image_id: str) -> None:
        """Choosing an image fills the CUDA line, framework and minimum driver it brings where the plan has
        none (one undo step), and says where the plan's choice differs from what the image contains."""
        fill = image_fill(self.controller.plan, self.controller.catalog, image_id, self.controller.lang)
        try:
            after = with_value(self.controller.plan, "software.image", image_id)
            after = apply_values(after, fill.changes)
        except PlanError as exc:
            self.error_label.setText(str(exc))
            self.error_label.show()
            return
        self.error_label.hide()
        self.controller.replace_plan(after, lambda: self.controller.field_label("software.image"))
        self.noted_image = image_id
        self.image_note.setText("\n".join(f"• {n}" for n in fill.notes))
        self.image_note.setVisible(bool(fill.notes))

    def focus_field(self, path: str) -> bool:
        combo = self.combos.get(path)
        if combo is None:
            return False
        combo.setFocus()
        return True

    def copy_dockerfile(self) -> None:
        QGuiApplication.clipboard().setText(self.dockerfile_view.toPlainText())

    def save_dockerfile(self) -> Path | None:
        """Ask where, then write atomically (the old file stays whole if writing fails)."""
        text = self.dockerfile_view.toPlainText()
        if not text:
            return None
        target = workers.ask_export_path(self, self.tr("Save Dockerfile"), Path("Dockerfile"),
                                         self.tr("Dockerfile (Dockerfile *.dockerfile);;All files (*)"))
        if target is None:
            return None
        try:
            atomic_write(target, text.encode("utf-8"))
        except OSError as exc:
            workers.show_error(self, self.tr("Save Dockerfile"),
                               self.tr("Could not write %1: %2").replace("%1", str(target))
                               .replace("%2", exc.strerror or str(exc)))
            return None
        return target

"""Step 1 需求分析: workload, model, precision, batch, data, budget and usage; the live VRAM estimate and advice."""

from __future__ import annotations

import html
from itertools import pairwise
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from gui.controller import PlanController
from gui.numbers import number, shortest
from gui.pages import step_heading
from gui.pages.base import StepPage
from gui.sizing_bridge import advice_for, vram_for
from gui.widgets.bar_chart import Segment, StackedBar, StackedBarChart
from gui.widgets.money import MoneyBox
from gui.widgets.spin import DoubleSpinBox, SpinBox, show_special_text, show_value
from procurement.plan import (
    Optimizer,
    Precision,
    Requirements,
    Sensitivity,
    TrainingMode,
    Usage,
    Workload,
    one_line,
    with_value,
)
from procurement.sizing import MODEL_PRESETS
from procurement.sizing.plan_sizing import effective_mode

R = "requirements."
NO_VALUE = ""  # combo item data for "not set" (the plan's None), so findData/currentData stay plain text
SHAPE_FIELDS = ("model_params_b", "layers", "hidden_size", "attention_heads", "kv_heads", "head_dim", "vocab_size")
TRAINING_CHECKS = ("sequence_parallel", "offload_params", "offload_activations")
"""Format 12's training options shown as check boxes (with the attention combo, the loss chunks and a ds_config)."""
OPTIONAL_SPINS = (*SHAPE_FIELDS, "tensor_parallel", "pipeline_parallel", "lora_rank", "concurrent_users",
                  "network_gbps", "utilisation_pct")
"""Spin boxes whose lowest value means 'not set' (None in the plan: unknown, or decided by the sizing)."""
TRISTATE = {"gradient_checkpointing"}
MAX_BARS = 16


class RequirementsPage(StepPage):
    step = 1

    def __init__(self, controller: PlanController, parent: QWidget | None = None) -> None:
        super().__init__(controller, parent)
        self.combos: dict[str, QComboBox] = {}
        self.spins: dict[str, QSpinBox | QDoubleSpinBox] = {}
        self.labels: dict[str, QLabel] = {}
        self.checks: dict[str, QCheckBox] = {}

        self.workload_box = QGroupBox(self)
        self.model_box = QGroupBox(self)
        self.data_box = QGroupBox(self)
        self.estimate_box = QGroupBox(self)
        self.layout_box = QGroupBox(self)
        self.training_box = QGroupBox(self)
        self.training_box.setObjectName("trainingOptions")
        self.advice_box = QGroupBox(self)
        wl = QFormLayout(self.workload_box)
        # the plan's title (window title, quote and checklist headers): first, what the plan is called
        self.title_edit = QLineEdit(self)
        self.title_edit.setObjectName("title")
        self.title_edit.setMaxLength(500)  # the plan's limit (ShortText)
        self.labels["title"] = QLabel(self)
        self.labels["title"].setBuddy(self.title_edit)
        wl.addRow(self.labels["title"], self.title_edit)
        self.bind_field("title", self.title_edit)
        for name in ("workload", "mode", "usage", "data_sensitivity", "deployment"):
            self._combo(wl, name)
        # the share of time at full load, for the cost of ownership (docs/tco.md): the buyer's figure, no default
        self._spin(wl, "utilisation_pct", SpinBox, -1, 100)
        ml = QFormLayout(self.model_box)
        self._combo(ml, "model_preset")
        self.load_config = QPushButton(self)
        self.load_config.setObjectName("loadConfig")
        self.config_status = QLabel(self)
        self.config_status.setObjectName("configStatus")
        self.config_status.setWordWrap(True)
        ml.addRow(self.load_config)
        ml.addRow(self.config_status)
        self._spin(ml, "model_params_b", DoubleSpinBox, 0, 100_000, decimals=1)
        self._spin(ml, "layers", SpinBox, 0, 100_000)
        self._spin(ml, "hidden_size", SpinBox, 0, 10_000_000)
        self._spin(ml, "attention_heads", SpinBox, 0, 100_000)
        self._spin(ml, "kv_heads", SpinBox, 0, 100_000)
        self._spin(ml, "head_dim", SpinBox, 0, 100_000)
        self._spin(ml, "vocab_size", SpinBox, 0, 100_000_000)
        self._combo(ml, "precision")
        self._combo(ml, "optimizer")
        self._spin(ml, "batch_size", SpinBox, 1, 1_000_000)
        self._spin(ml, "sequence_length", SpinBox, 1, 100_000_000)
        dl = QFormLayout(self.data_box)
        self._spin(dl, "dataset_gb", DoubleSpinBox, 0, 1e9, decimals=0)
        # the budget is a range (format 12): its minimum, then its maximum (budget_cny, the single budget of old)
        self.budget_min = MoneyBox(self)
        self.budget_min.setObjectName("budget_min_cny")
        self.labels["budget_min_cny"] = QLabel(self)
        dl.addRow(self.labels["budget_min_cny"], self.budget_min)
        self.labels["budget_min_cny"].setBuddy(self.budget_min.spin)
        self.bind_field(R + "budget_min_cny", self.budget_min)
        self.budget = MoneyBox(self)
        self.budget.setObjectName("budget_cny")
        self.labels["budget_cny"] = QLabel(self)
        dl.addRow(self.labels["budget_cny"], self.budget)
        self.labels["budget_cny"].setBuddy(self.budget.spin)
        self.bind_field(R + "budget_cny", self.budget)
        self._spin(dl, "nodes", SpinBox, 1, 100_000)
        for name in ("needs_mig", "needs_nvlink"):
            box = QCheckBox(self)
            box.setObjectName(name)
            self.checks[name] = box
            dl.addRow(box)
            self.bind_field(R + name, box)

        ll = QFormLayout(self.layout_box)
        for name in ("scheme", "gradient_checkpointing", "kv_precision"):
            self._combo(ll, name)
        self._spin(ll, "tensor_parallel", SpinBox, 0, 1024)
        self._spin(ll, "pipeline_parallel", SpinBox, 0, 1024)
        self._spin(ll, "lora_rank", SpinBox, 0, 65_536)
        self._spin(ll, "concurrent_users", SpinBox, 0, 10_000_000)
        self._spin(ll, "network_gbps", DoubleSpinBox, 0, 1_000_000, decimals=0)
        box = QCheckBox(self)
        box.setObjectName("offload_optimizer")
        self.checks["offload_optimizer"] = box
        ll.addRow(box)
        self.bind_field(R + "offload_optimizer", box)

        # training options (format 12), as `gpu-procure size` takes them; shown for a training workload
        tl = QFormLayout(self.training_box)
        self._combo(tl, "attention")
        self._spin(tl, "loss_chunks", SpinBox, 1, 65_536)
        for name in TRAINING_CHECKS:
            box = QCheckBox(self)
            box.setObjectName(name)
            self.checks[name] = box
            tl.addRow(box)
            self.bind_field(R + name, box)
        self.load_deepspeed = QPushButton(self)
        self.load_deepspeed.setObjectName("loadDeepspeed")
        self.clear_deepspeed = QPushButton(self)
        self.clear_deepspeed.setObjectName("clearDeepspeed")
        row = QHBoxLayout()
        row.addWidget(self.load_deepspeed)
        row.addWidget(self.clear_deepspeed)
        row.addStretch(1)
        tl.addRow(row)
        self.deepspeed_status = QLabel(self)
        self.deepspeed_status.setObjectName("deepspeedStatus")
        self.deepspeed_status.setWordWrap(True)
        tl.addRow(self.deepspeed_status)
        self.bind_field(R + "deepspeed_config", self.load_deepspeed)

        el = QVBoxLayout(self.estimate_box)
        self.total_label = QLabel(self)
        self.total_label.setObjectName("vramTotal")
        self.total_label.setWordWrap(True)
        self.chart = StackedBarChart(self)
        self.chart.setObjectName("vramChart")
        self.scheme_label = QLabel(self)
        self.scheme_label.setObjectName("vramScheme")
        self.scheme_label.setWordWrap(True)
        self.scheme_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.estimate_note = QLabel(self)
        self.estimate_note.setWordWrap(True)
        el.addWidget(self.total_label)
        el.addWidget(self.chart)
        el.addWidget(self.scheme_label)
        el.addWidget(self.estimate_note)
        al = QVBoxLayout(self.advice_box)
        self.advice = QLabel(self)
        self.advice.setObjectName("adviceText")
        self.advice.setWordWrap(True)
        self.advice.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        al.addWidget(self.advice)

        inner = QWidget(self)
        grid = QGridLayout(inner)
        grid.addWidget(self.workload_box, 0, 0)
        grid.addWidget(self.data_box, 1, 0)
        grid.addWidget(self.model_box, 0, 1, 2, 1)
        grid.addWidget(self.layout_box, 2, 0, 1, 2)
        grid.addWidget(self.training_box, 3, 0, 1, 2)
        grid.addWidget(self.estimate_box, 4, 0, 1, 2)
        grid.addWidget(self.advice_box, 5, 0, 1, 2)
        grid.setRowStretch(6, 1)
        grid.setColumnStretch(0, 1)
        grid.setColumnStretch(1, 1)
        scroll = self.scroll_area = QScrollArea(self)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        scroll.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # Tab goes from field to field, not to the scroll area
        scroll.setWidget(inner)
        self.heading = QLabel(self)
        self.heading.setObjectName("pageHeading")
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(self.heading)
        outer.addWidget(scroll)
        self._connect_signals()
        self._chain_tab_order()
        self.retranslate()
        self.refresh_now()

    def _chain_tab_order(self) -> None:
        """Tab in reading order: the left column (workload, then data and budget) before the model's fields on
        the right; made in construction order, Tab went through 14 model fields before reaching the budget."""
        chain: list[QWidget] = []
        for box in (self.workload_box, self.data_box, self.model_box, self.layout_box, self.training_box):
            chain += [w for w in box.findChildren(QWidget)
                      if w.focusPolicy() & Qt.FocusPolicy.TabFocus and w.focusProxy() is None
                      and w.window() is self.window()  # not a combo's popup
                      and not isinstance(w.parentWidget(), (QAbstractSpinBox, QComboBox))]
        for before, after in pairwise(chain):
            QWidget.setTabOrder(before, after)

    # ------------------------------------------------------------------ construction helpers
    def _combo(self, form: QFormLayout, name: str) -> None:
        combo = QComboBox(self)
        combo.setObjectName(name)
        combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        combo.setMinimumContentsLength(12)
        label = QLabel(self)
        label.setBuddy(combo)
        form.addRow(label, combo)
        self.combos[name], self.labels[name] = combo, label
        self.bind_field(R + name, combo)

    def _spin(
        self,
        form: QFormLayout,
        name: str,
        cls: type[QSpinBox] | type[QDoubleSpinBox],
        lo: float,
        hi: float,
        decimals: int = 0,
    ) -> None:
        spin = cls(self)
        spin.setObjectName(name)
        if isinstance(spin, QDoubleSpinBox):
            spin.setDecimals(decimals)
        spin.setRange(lo, hi)  # type: ignore[arg-type]
        spin.setGroupSeparatorShown(True)
        label = QLabel(self)
        label.setBuddy(spin)
        form.addRow(label, spin)
        self.spins[name], self.labels[name] = spin, label
        self.bind_field(R + name, spin)

    def _connect_signals(self) -> None:
        for name, combo in self.combos.items():
            combo.currentIndexChanged.connect(lambda _i, n=name: self._combo_changed(n))
        for name, spin in self.spins.items():
            spin.valueChanged.connect(lambda v, n=name: self._spin_changed(n, v))
        for name, box in self.checks.items():
            box.toggled.connect(lambda on, n=name: self.edit(R + n, on))
        self.budget.valueChanged.connect(lambda v: self.edit(R + "budget_cny", v, merge=True))
        self.budget_min.valueChanged.connect(lambda v: self.edit(R + "budget_min_cny", v, merge=True))
        # one line: a title pasted with line breaks or escape sequences keeps none of them
        self.title_edit.textEdited.connect(lambda text: self.edit("title", one_line(text), merge=True))
        self.load_config.clicked.connect(self._load_config)
        self.load_deepspeed.clicked.connect(self._load_deepspeed)
        self.clear_deepspeed.clicked.connect(lambda: self.edit(R + "deepspeed_config", None))
        self.controller.findings_changed.connect(self.when_on_screen(self._show_estimate))

    # ------------------------------------------------------------------ text
    def _choices(self, name: str) -> list[tuple[str, Any]]:
        choices: dict[str, list[tuple[str, Any]]] = {
            "workload": [
                (self.tr("Training"), Workload.TRAINING),
                (self.tr("Fine-tuning"), Workload.FINE_TUNING),
                (self.tr("Inference"), Workload.INFERENCE),
                (self.tr("Rendering"), Workload.RENDERING),
                (self.tr("Scientific computing"), Workload.SCIENTIFIC),
                (self.tr("Data analysis"), Workload.DATA_ANALYSIS),
            ],
            "mode": [
                (self.tr("As the workload implies"), NO_VALUE),
                (self.tr("Full training"), TrainingMode.FULL_TRAINING),
                (self.tr("Full fine-tuning"), TrainingMode.FULL_FINETUNE),
                (self.tr("LoRA fine-tuning"), TrainingMode.LORA),
                (self.tr("Inference only"), TrainingMode.INFERENCE),
            ],
            "usage": [
                (self.tr("Continuous (most days)"), Usage.CONTINUOUS),
                (self.tr("Occasional (bursts, projects)"), Usage.OCCASIONAL),
            ],
            "data_sensitivity": [
                (self.tr("Low (public or shareable)"), Sensitivity.LOW),
                (self.tr("High (must stay on premises)"), Sensitivity.HIGH),
            ],
            "deployment": [
                (self.tr("Data centre / server room"), "datacenter"),
                (self.tr("Office"), "office"),
                (self.tr("Lab"), "lab"),
            ],
            "model_preset": [(self.tr("Custom (enter the shape)"), NO_VALUE)]
            + [(p.name, p.id) for p in MODEL_PRESETS.values()],
            "precision": [
                (self.tr("FP32"), Precision.FP32),
                (self.tr("BF16/FP16 mixed (FP32 master)"), Precision.MIXED),
                (self.tr("BF16/FP16"), Precision.BF16),
                (self.tr("FP8"), Precision.FP8),
                (self.tr("INT8"), Precision.INT8),
                (self.tr("INT4"), Precision.INT4),
            ],
            "scheme": [
                (self.tr("Cheapest that fits"), NO_VALUE),
                (self.tr("Data parallel"), "dp"),
                (self.tr("ZeRO-1"), "zero1"),
                (self.tr("ZeRO-2"), "zero2"),
                (self.tr("ZeRO-3 / FSDP"), "zero3"),
            ],
            "gradient_checkpointing": [
                (self.tr("As the recipe does"), NO_VALUE),
                (self.tr("On"), "on"),
                (self.tr("Off"), "off"),
            ],
            "kv_precision": [
                (self.tr("BF16/FP16"), "bf16"),
                (self.tr("FP8"), "fp8"),
                (self.tr("FP32"), "fp32"),
            ],
            "attention": [
                (self.tr("FlashAttention"), "flash"),
                (self.tr("PyTorch SDPA"), "sdpa"),
                (self.tr("Eager (stores the score matrices)"), "eager"),
            ],
            "optimizer": [
                (self.tr("AdamW"), Optimizer.ADAMW),
                (self.tr("SGD with momentum"), Optimizer.SGD_MOMENTUM),
                (self.tr("8-bit Adam"), Optimizer.ADAM_8BIT),
            ],
        }
        return choices[name]

    def retranslate(self) -> None:
        self.heading.setText(f"<h2>{step_heading(1, self.controller.lang)}</h2>")
        self.workload_box.setTitle(self.tr("Workload"))
        self.model_box.setTitle(self.tr("Model"))
        self.data_box.setTitle(self.tr("Data, budget and scale"))
        self.estimate_box.setTitle(self.tr("GPU memory per GPU"))
        self.layout_box.setTitle(self.tr("Parallelism, recipe and serving"))
        self.advice_box.setTitle(self.tr("Cloud or own hardware?"))
        self.training_box.setTitle(self.tr("Training options (as gpu-procure size takes them)"))
        # each Alt+letter once on the page, none of the menu bar's F, E, V, H (tests/gui/test_main_window_mnemonics.py)
        texts = {
            "workload": self.tr("&Workload:"),
            "mode": self.tr("&Mode:"),
            "usage": self.tr("&Usage:"),
            "data_sensitivity": self.tr("Data &sensitivity:"),
            "deployment": self.tr("Where i&t runs:"),
            "model_preset": self.tr("&Preset:"),
            "model_params_b": self.tr("P&arameters:"),
            "layers": self.tr("&Layers:"),
            "hidden_size": self.tr("H&idden size:"),
            "kv_heads": self.tr("&KV heads:"),
            "attention_heads": self.tr("Attention heads:"),
            "vocab_size": self.tr("Vocabulary:"),
            "scheme": self.tr("Sharding scheme:"),
            "gradient_checkpointing": self.tr("Gradient checkpointing:"),
            "kv_precision": self.tr("KV-cache precision:"),
            "tensor_parallel": self.tr("Tensor parallel:"),
            "pipeline_parallel": self.tr("Pipeline parallel:"),
            "lora_rank": self.tr("LoRA rank:"),
            "concurrent_users": self.tr("Concurrent users:"),
            "network_gbps": self.tr("Network between nodes:"),
            "utilisation_pct": self.tr("Utilisation:"),
            "head_dim": self.tr("Head si&ze:"),
            "precision": self.tr("P&recision:"),
            "optimizer": self.tr("&Optimizer:"),
            "batch_size": self.tr("&Batch size:"),
            "sequence_length": self.tr("Se&quence length:"),
            "dataset_gb": self.tr("&Dataset size:"),
            "budget_cny": self.tr("Bud&get, maximum:"),
            "budget_min_cny": self.tr("Budget, minimum:"),
            "title": self.tr("Plan title:"),
            "attention": self.tr("Attention kernel:"),
            "loss_chunks": self.tr("Loss chunks:"),
            "nodes": self.tr("&Number of nodes:"),
        }
        for name, text in texts.items():
            self.labels[name].setText(text)
        self.spins["model_params_b"].setSuffix(self.tr(" B params"))
        self.spins["dataset_gb"].setSuffix(" GB")
        self.spins["sequence_length"].setSuffix(self.tr(" tokens"))
        for name in ("layers", "hidden_size", "kv_heads", "head_dim", "model_params_b", "attention_heads",
                     "vocab_size"):
            self.spins[name].setSpecialValueText(self.tr("unknown"))
        for name in ("tensor_parallel", "pipeline_parallel", "lora_rank"):
            self.spins[name].setSpecialValueText(self.tr("auto"))
        self.spins["concurrent_users"].setSpecialValueText(self.tr("not a serving requirement"))
        self.spins["utilisation_pct"].setSpecialValueText(self.tr("not stated"))
        self.spins["utilisation_pct"].setSuffix("%")
        self.spins["utilisation_pct"].setToolTip(self.tr("Share of the service life the servers run at full load: "
                                                         "the electricity in the cost of ownership (quote page)"))
        self.spins["network_gbps"].setSpecialValueText(self.tr("from the NICs"))
        self.spins["network_gbps"].setSuffix(" Gb/s")
        self.checks["offload_optimizer"].setText(self.tr("Offload the optimizer state to CPU RAM"))
        self.title_edit.setPlaceholderText(self.tr("e.g. Lab training server 2026"))
        self.title_edit.setToolTip(self.tr("Shown in the window title and on the quote and checklist PDFs"))
        self.budget_min.setToolTip(self.tr("The bottom of the budget range (optional): a total below it is "
                                           "pointed out, the budget could buy more"))
        self.budget.setToolTip(self.tr("The most that may be spent, including VAT"))
        self.spins["loss_chunks"].setToolTip(self.tr("Cross-entropy over this many chunks (chunked or compiled "
                                                     "loss, Liger); 1 = the whole sequence at once"))
        self.checks["sequence_parallel"].setText(self.tr("Sequence parallelism (with tensor parallel)"))
        self.checks["offload_params"].setText(self.tr("Offload the weights to CPU RAM (ZeRO-3)"))
        self.checks["offload_activations"].setText(self.tr("Offload the activation checkpoints to CPU RAM"))
        self.load_deepspeed.setText(self.tr("Load ds_config.json…"))
        self.load_deepspeed.setToolTip(self.tr("Size with a DeepSpeed configuration: its ZeRO stage, buffers "
                                               "and offloads"))
        self.clear_deepspeed.setText(self.tr("No DeepSpeed config"))
        self.load_config.setText(self.tr("Load config.json…"))
        self.load_config.setToolTip(self.tr("Size a model from its Hugging Face config.json"))
        self.spins["concurrent_users"].setToolTip(
            self.tr("Requests of the sequence length that must run at once (serving)"))
        self.spins["nodes"].setToolTip(self.tr("1 = a single server; more = a multi-node cluster"))
        self.spins["kv_heads"].setToolTip(self.tr("Key/value heads (grouped-query attention); used for the KV cache"))
        self.checks["needs_mig"].setText(self.tr("Needs MIG (GPU partitioning)"))
        self.checks["needs_nvlink"].setText(self.tr("Needs NVLink between GPUs"))
        self.chart.set_empty_text(self.tr("Enter the model size to see the estimate."))
        for name, combo in self.combos.items():
            blocked = combo.blockSignals(True)
            index = combo.currentIndex()
            combo.clear()
            for text, data in self._choices(name):
                combo.addItem(text, data)
            combo.setCurrentIndex(max(index, 0))
            combo.blockSignals(blocked)
        self._show_estimate()

    # ------------------------------------------------------------------ plan → widgets
    def refresh(self) -> None:
        req = self.controller.plan.requirements
        for name, combo in self.combos.items():
            value = getattr(req, name)
            if name in TRISTATE and value is not None:
                value = "on" if value else "off"
            index = combo.findData(NO_VALUE if value is None else value)
            if index < 0 and value is not None:  # a preset this version does not know: show it as custom
                index = 0
            combo.setCurrentIndex(max(index, 0))
        preset = MODEL_PRESETS.get(req.model_preset or "")
        from_preset = {} if preset is None else {
            "model_params_b": preset.published_params_b or round(preset.params_b, 2), "layers": preset.layers,
            "hidden_size": preset.hidden, "attention_heads": preset.heads, "kv_heads": preset.kv_heads,
            "head_dim": preset.head_dim, "vocab_size": preset.vocab}
        for name, spin in self.spins.items():
            value = getattr(req, name)
            show_value(spin, value if value is not None else spin.minimum())
            if name in from_preset or name in SHAPE_FIELDS:
                # a plan that names a preset and leaves the shape open is sized from the preset: show its
                # figures (the 70B preset showed Parameters and Layers as "unknown")
                known = from_preset.get(name) if value is None else None
                show_special_text(spin, self.tr("unknown") if known is None else
                                  self.tr("%1 (from the preset)").replace("%1", shortest(known)))
        self.budget.setValue(req.budget_cny)
        self.budget_min.setValue(req.budget_min_cny)
        title = self.controller.plan.title
        if self.title_edit.text() != title:  # not while typing: the cursor stays where it is
            self.title_edit.setText(title)
        for name, box in self.checks.items():
            box.setChecked(bool(getattr(req, name)))
        self.training_box.setVisible(effective_mode(req) != TrainingMode.INFERENCE)
        # the checkpoints can only be offloaded when there are checkpoints (the plan refuses the pair)
        self.checks["offload_activations"].setEnabled(req.gradient_checkpointing is not False)
        self.clear_deepspeed.setEnabled(req.deepspeed_config is not None)
        self._show_deepspeed(req)
        self._show_estimate()

    def _show_deepspeed(self, req: Requirements) -> None:
        cfg = req.deepspeed_config
        if cfg is None:
            self.deepspeed_status.setText(self.tr("No DeepSpeed configuration: the scheme and offloads above."))
            return
        zo = cfg.get("zero_optimization")
        stage = zo.get("stage") if isinstance(zo, dict) else None
        self.deepspeed_status.setText(
            self.tr("DeepSpeed configuration loaded: ZeRO stage %1.").replace("%1", str(stage))
            if stage is not None else self.tr("DeepSpeed configuration loaded (no ZeRO stage in it)."))

    def _show_estimate(self) -> None:
        ctl = self.controller
        est = vram_for(ctl.plan, ctl.catalog, ctl.policy, ctl.lang)
        if est is None:
            self.total_label.setText(self.tr("Not enough information for an estimate yet."))
            self.chart.set_bars([])
            self.chart.setToolTip("")
            self.scheme_label.setText("")
            self.estimate_note.setText("")
        else:
            segments = tuple(Segment(key, label, gb) for key, label, gb in est.parts)
            if est.gpus:
                shown = min(est.gpus, MAX_BARS)
                bars = [StackedBar(self.tr("GPU %1").replace("%1", str(i)), segments) for i in range(shown)]
                self.chart.set_bars(bars, "GB", est.one_gpu_gb, self.tr("one GPU"))
                text = (self.tr("Each GPU needs about <b>%1 GB</b> (%2 GB with the margin) of its %3 GB: %4.")
                        if est.fits else
                        self.tr("Each GPU needs about <b>%1 GB</b> (%2 GB with the margin): more than its %3 GB; "
                                "%4."))
                verdict = self.tr("fits") if est.fits else self.tr("does not fit")
                self.total_label.setText(text.replace("%1", number(est.per_gpu_gb, 1))
                                         .replace("%2", number(est.with_margin_gb, 1))
                                         .replace("%3 GB", _gb_and_gib(est.one_gpu_gb or 0)).replace("%4", verdict))
                more = "" if est.gpus <= MAX_BARS else self.tr(" (the first %1 of %2 GPUs shown; every GPU holds "
                                                               "the same share)").replace("%1", str(MAX_BARS)) \
                    .replace("%2", str(est.gpus))
                self.scheme_label.setText("\n".join(x for x in (est.comm + more, est.serving) if x))
            else:
                self.chart.set_bars([StackedBar(self.tr("whole model"), segments)], "GB")
                self.total_label.setText(
                    self.tr("About <b>%1 GB</b> of GPU memory for the whole model on one GPU (%2 GB with the margin); "
                            "choose the GPUs in step 2 to see each GPU's share.")
                    .replace("%1", number(est.per_gpu_gb, 1)).replace("%2", number(est.with_margin_gb, 1)))
                self.scheme_label.setText("")
            self.chart.setToolTip("\n".join(est.lines))
            self.estimate_note.setText("\n".join(est.notes))
        advice = advice_for(ctl.plan, ctl.catalog, ctl.lang)
        if advice:
            self.advice.setText("<b>" + html.escape(advice[0]) + "</b><br>"
                                + "<br>".join("• " + html.escape(a) for a in advice[1:]))
        else:
            self.advice.setText(self.tr("Advice appears once the usage and budget are known."))

    # ------------------------------------------------------------------ widgets → plan
    def _combo_changed(self, name: str) -> None:
        if self.refreshing:
            return
        data = self.combos[name].currentData() or None
        if name == "model_preset":
            plan = self.controller.plan
            plan = with_value(plan, R + "model_preset", data)
            plan = with_value(plan, R + "hf_config", None)
            preset = MODEL_PRESETS.get(data or "")
            if preset is not None:  # show the preset's shape in the fields, where the buyer can adjust it
                shape = {"model_params_b": preset.published_params_b or round(preset.params_b, 2),
                         "layers": preset.layers, "hidden_size": preset.hidden, "attention_heads": preset.heads,
                         "kv_heads": preset.kv_heads, "head_dim": preset.head_dim, "vocab_size": preset.vocab}
                for key, value in shape.items():
                    plan = with_value(plan, R + key, value)
            self.controller.replace_plan(plan, lambda: self.tr("Model preset"))
            return
        if name in TRISTATE:
            data = None if data is None else data == "on"
        self.edit(R + name, data)

    def _spin_changed(self, name: str, value: float) -> None:
        if self.refreshing:
            return
        spin = self.spins[name]
        new: Any = None if name in OPTIONAL_SPINS and value == spin.minimum() else value
        req: Requirements = self.controller.plan.requirements
        if name in SHAPE_FIELDS and (req.model_preset is not None or req.hf_config) and getattr(req, name) != new:
            plan = with_value(self.controller.plan, R + name, new)
            plan = with_value(plan, R + "model_preset", None)  # the shape no longer is the preset's
            plan = with_value(plan, R + "hf_config", None)  # nor the loaded config.json's
            self.controller.replace_plan(plan, lambda: self.controller.field_label(R + name))
            return
        self.edit(R + name, new, merge=True)

    def _load_deepspeed(self) -> None:
        """Ask for a ds_config.json, read it as the sizing does, and store it in the plan (deepspeed_config)."""
        from gui import dialogs
        from procurement.sizing.deepspeed import DeepSpeedConfigError, parse, read_config

        path = dialogs.ask_deepspeed_config_path(self)
        if path is None:
            return
        try:
            data = read_config(path)  # bounded: a FIFO or /dev/zero picked in the dialog is refused, not read
            parse(data, 0)
        except DeepSpeedConfigError as exc:
            self.deepspeed_status.setText(self.tr("Not loaded: %1").replace("%1", str(exc)))
            return
        self.edit(R + "deepspeed_config", data)

    def _load_config(self) -> None:
        """Ask for a config.json and take the model's shape from it (stored in the plan as hf_config)."""
        from gui import dialogs
        from procurement.sizing.models import ConfigError, read_hf_config

        path = dialogs.ask_config_json_path(self)
        if path is None:
            return
        try:
            spec, data = read_hf_config(str(path))
        except ConfigError as exc:
            self.config_status.setText(self.tr("Not loaded: %1").replace("%1", str(exc)))
            return
        plan = with_value(self.controller.plan, R + "model_preset", None)
        shape = {"model_params_b": round(spec.params_b, 2), "layers": spec.layers, "hidden_size": spec.hidden,
                 "attention_heads": spec.heads, "kv_heads": spec.kv_heads, "head_dim": spec.head_dim,
                 "vocab_size": spec.vocab}
        for key, value in shape.items():
            plan = with_value(plan, R + key, value)
        plan = with_value(plan, R + "hf_config", data)
        self.controller.replace_plan(plan, lambda: self.tr("Model config.json"))
        self.config_status.setText(
            self.tr("%1: %2 B parameters (%3 B active per token) from its config.json")
            .replace("%1", path.name).replace("%2", number(spec.params_b, 2))
            .replace("%3", number(spec.active_params_b, 2)))


def _gb_and_gib(gb: float) -> str:
    """'42.9 (40 GiB)': the estimate is in GB (10⁹ bytes, what allocators report), the catalog and step 2's table
    give a card's memory in GiB as vendors name it ("40GB" is 40 GiB); both, so 43 and 40 read as one card."""
    return f"{number(gb, 1)} GB ({shortest(round(gb / 1.073741824, 1))} GiB)"

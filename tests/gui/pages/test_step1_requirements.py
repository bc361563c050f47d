"""Step 1 driven as a buyer would: a 13B fine-tune's requirements land in the plan; undo restores."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox

from procurement.plan import Workload
from procurement.sizing import MODEL_PRESETS


def _choose(qtbot, combo: QComboBox, text: str) -> None:
    index = combo.findText(text)
    assert index >= 0, f"{text!r} not in {[combo.itemText(i) for i in range(combo.count())]}"
    combo.setFocus()
    combo.setCurrentIndex(index)


def test_13b_finetune_requirements_fill_the_plan(qtbot, make_window) -> None:
    win = make_window()
    page = win.pages[0]
    _choose(qtbot, page.combos["workload"], "Fine-tuning")
    assert win.controller.plan.requirements.workload == Workload.FINE_TUNING

    _choose(qtbot, page.combos["model_preset"], "Llama 2 13B")
    req = win.controller.plan.requirements
    preset = MODEL_PRESETS["llama-2-13b"]
    assert (req.model_preset, req.model_params_b, req.layers, req.hidden_size, req.kv_heads, req.head_dim) == (
        "llama-2-13b", 13.0, 40, 5120, 40, 128)
    assert (req.attention_heads, req.vocab_size) == (40, 32000)
    assert page.spins["layers"].value() == preset.layers == 40

    budget = page.budget.spin
    budget.selectAll()
    qtbot.keyClicks(budget, "300000")
    assert win.controller.plan.requirements.budget_cny == 300_000
    assert page.budget.wan.text() == "= ¥0.30 M"  # 300 000 CNY in millions (the English UI has no 万)
    assert win.isWindowModified()


def test_typing_a_number_is_one_undo_step_and_undo_restores(qtbot, make_window) -> None:
    win = make_window()
    page = win.pages[0]
    seq = page.spins["sequence_length"]
    seq.selectAll()
    qtbot.keyClicks(seq, "4096")
    assert win.controller.plan.requirements.sequence_length == 4096
    seq.clearFocus()
    qtbot.keyClick(win, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert win.controller.plan.requirements.sequence_length == 2048  # the default, in one undo step
    assert seq.value() == 2048
    assert not win.isWindowModified()
    win.named_actions["redo"].trigger()
    assert seq.value() == 4096


def test_editing_the_shape_leaves_the_preset(qtbot, make_window) -> None:
    win = make_window()
    page = win.pages[0]
    _choose(qtbot, page.combos["model_preset"], "Llama 2 7B")
    layers = page.spins["layers"]
    layers.selectAll()
    qtbot.keyClicks(layers, "48")
    req = win.controller.plan.requirements
    assert req.layers == 48 and req.model_preset is None
    assert page.combos["model_preset"].currentIndex() == 0  # shown as custom now
    assert req.hidden_size == 4096  # the rest of the 7B shape stays


def test_parallelism_and_recipe_fields_reach_the_plan(qtbot, make_window) -> None:
    win = make_window()
    page = win.pages[0]
    _choose(qtbot, page.combos["model_preset"], "Llama 2 7B")
    _choose(qtbot, page.combos["scheme"], "ZeRO-3 / FSDP")
    _choose(qtbot, page.combos["gradient_checkpointing"], "On")
    _choose(qtbot, page.combos["kv_precision"], "FP8")
    tp = page.spins["tensor_parallel"]
    tp.selectAll()
    qtbot.keyClicks(tp, "2")
    req = win.controller.plan.requirements
    assert (req.scheme, req.gradient_checkpointing, req.kv_precision, req.tensor_parallel) == ("zero3", True,
                                                                                                "fp8", 2)
    _choose(qtbot, page.combos["gradient_checkpointing"], "As the recipe does")
    assert win.controller.plan.requirements.gradient_checkpointing is None
    tp.selectAll()
    qtbot.keyClicks(tp, "0")
    assert win.controller.plan.requirements.tensor_parallel is None  # "auto"
    # the whole model on one GPU while no GPU is chosen: one stacked bar with its parts
    qtbot.waitUntil(lambda: len(page.chart.bars) == 1)
    assert {s.key for s in page.chart.bars[0].segments} >= {"weights", "gradients", "optimizer", "activations"}


def test_loading_a_config_json_sizes_that_model(qtbot, make_window, monkeypatch, tmp_path) -> None:
    import json

    from gui import dialogs

    cfg = tmp_path / "config.json"
    cfg.write_text(json.dumps({
        "model_type": "qwen3_moe", "hidden_size": 2048, "intermediate_size": 6144, "moe_intermediate_size": 768,
        "num_attention_heads": 32, "num_hidden_layers": 48, "num_key_value_heads": 4, "head_dim": 128,
        "vocab_size": 151936, "num_experts": 128, "num_experts_per_tok": 8}), encoding="utf-8")
    monkeypatch.setattr(dialogs, "ask_config_json_path", lambda parent: cfg)
    win = make_window()
    page = win.pages[0]
    qtbot.mouseClick(page.load_config, Qt.MouseButton.LeftButton)
    req = win.controller.plan.requirements
    assert req.hf_config is not None and req.hf_config["num_experts"] == 128 and req.model_preset is None
    assert (req.layers, req.hidden_size, req.attention_heads, req.kv_heads) == (48, 2048, 32, 4)
    assert req.model_params_b == pytest.approx(30.53, abs=0.01)
    assert "3.35 B active" in page.config_status.text()
    # a broken file says why, and leaves the plan alone
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    monkeypatch.setattr(dialogs, "ask_config_json_path", lambda parent: bad)
    qtbot.mouseClick(page.load_config, Qt.MouseButton.LeftButton)
    assert "not JSON" in page.config_status.text()
    assert win.controller.plan.requirements.hf_config is not None


def test_a_preset_without_typed_shape_shows_the_presets_figures_not_unknown(qtbot, catalog, policy):
    """The 70B example names the preset and leaves the shape open (sizing uses the preset): Parameters and
    Layers showed "unknown"; they show the preset's figures, and "unknown" again once the preset is cleared."""
    from gui.controller import PlanController
    from gui.pages.step1_requirements import RequirementsPage
    from procurement.plan import load_plan
    from procurement.sizing import MODEL_PRESETS
    from tests.conftest import REPO

    ctl = PlanController(catalog, policy, lang="en")
    ctl.new(load_plan(REPO / "resources" / "examples" / "llm-cluster-node.gpuplan.yaml", catalog))
    req = ctl.plan.requirements
    assert req.model_preset == "llama-2-70b" and req.model_params_b is None and req.layers is None
    page = RequirementsPage(ctl)
    qtbot.addWidget(page)
    preset = MODEL_PRESETS["llama-2-70b"]
    params = page.spins["model_params_b"].text()
    layers = page.spins["layers"].text()
    assert "unknown" not in params and f"{preset.published_params_b or preset.params_b:g}" in params
    assert layers.startswith(f"{preset.layers} ") and "preset" in layers
    ctl.set_value("requirements.model_preset", None)
    page.refresh_now()
    assert page.spins["layers"].text() == "unknown"


def test_vram_chart_of_the_8_node_example_compares_one_gpu_with_one_gpu(qtbot, make_window, catalog) -> None:
    """The chart drew one node's 687 GB against the whole job's 1,454 GB: each bar is now one GPU's share
    under the plan's layout (procurement.sizing's per-GPU memory model) against ONE GPU's memory."""
    from catalog.units import GIB_TO_GB
    from gui.sizing_bridge import vram_for
    from procurement.plan import load_plan
    from tests.conftest import REPO

    win = make_window()
    ctl = win.controller
    ctl.new(load_plan(REPO / "resources" / "examples" / "llm-cluster-node.gpuplan.yaml", catalog))
    win.show_page(0)
    page = win.page("RequirementsPage")
    qtbot.waitUntil(page.isVisible)
    plan = ctl.plan
    assert plan.requirements.nodes == 8 and plan.gpu.count == 8
    one_gpu_gb = catalog.gpu(plan.gpu.model).memory_gib * GIB_TO_GB
    est = vram_for(plan, catalog, ctl.policy, ctl.lang)
    assert est is not None and est.gpus == 64
    chart = page.chart
    assert chart.limit == pytest.approx(one_gpu_gb)  # 80 GiB = 85.9 GB, not 8 × (a node) or 64 × (the job)
    assert chart.bars and all(bar.total == pytest.approx(est.per_gpu_gb) for bar in chart.bars)
    assert all(bar.total < one_gpu_gb for bar in chart.bars)
    assert "of its 85.9 GB (80 GiB): fits" in page.total_label.text()


def test_training_options_are_shown_for_training_only(qtbot, make_window) -> None:
    win = make_window()
    win.show_page(0)
    page = win.pages[0]
    qtbot.waitUntil(page.isVisible)
    assert win.controller.plan.requirements.workload == Workload.TRAINING
    assert page.training_box.isVisible()
    _choose(qtbot, page.combos["workload"], "Inference")
    assert not page.training_box.isVisible()
    _choose(qtbot, page.combos["workload"], "Fine-tuning")
    assert page.training_box.isVisible()
    _choose(qtbot, page.combos["mode"], "Inference only")
    assert not page.training_box.isVisible()


def test_offloading_checkpoints_needs_checkpointing(qtbot, make_window) -> None:
    """The plan refuses activation offload with checkpointing off: the box is not offered then."""
    win = make_window()
    page = win.pages[0]
    _choose(qtbot, page.combos["gradient_checkpointing"], "Off")
    assert not page.checks["offload_activations"].isEnabled()
    _choose(qtbot, page.combos["gradient_checkpointing"], "On")
    page.checks["offload_activations"].click()
    assert win.controller.plan.requirements.offload_activations is True


def test_a_deepspeed_config_that_cannot_be_read_is_not_stored(qtbot, make_window, dialog_calls, tmp_path) -> None:
    win = make_window()
    page = win.pages[0]
    bad = tmp_path / "ds_config.json"
    bad.write_text('{"zero_optimization": {"stage": 5}}', encoding="utf-8")
    dialog_calls.answer("ask_deepspeed_config_path", bad)
    page.load_deepspeed.click()
    assert win.controller.plan.requirements.deepspeed_config is None
    assert "Not loaded" in page.deepspeed_status.text() and "stage" in page.deepspeed_status.text()
    good = tmp_path / "good.json"
    good.write_text('{"zero_optimization": {"stage": 2}}', encoding="utf-8")
    dialog_calls.answer("ask_deepspeed_config_path", good)
    page.load_deepspeed.click()
    assert win.controller.plan.requirements.deepspeed_config == {"zero_optimization": {"stage": 2}}
    qtbot.waitUntil(lambda: "ZeRO stage 2" in page.deepspeed_status.text())
    page.clear_deepspeed.click()
    assert win.controller.plan.requirements.deepspeed_config is None


def test_a_fifo_picked_as_the_deepspeed_config_is_refused_not_read(qtbot, make_window, dialog_calls,
                                                                   tmp_path) -> None:
    """A FIFO with no writer (stat: 0 bytes) hung the window on Load: the bounded reader refuses it unread."""
    import os

    win = make_window()
    page = win.pages[0]
    fifo = tmp_path / "ds_config.json"
    os.mkfifo(fifo)
    dialog_calls.answer("ask_deepspeed_config_path", fifo)
    page.load_deepspeed.click()
    assert win.controller.plan.requirements.deepspeed_config is None
    assert "Not loaded" in page.deepspeed_status.text() and "FIFO" in page.deepspeed_status.text()


def test_the_title_is_in_the_window_title_printable_and_short(qtbot, make_window) -> None:
    from gui.main_window import TITLE_IN_WINDOW, window_title_part

    win = make_window()
    page = win.pages[0]
    page.title_edit.setFocus()
    qtbot.keyClicks(page.title_edit, "Lab [*] server")
    assert win.controller.plan.title == "Lab [*] server"
    assert "Lab [*] server" in win.windowTitle().replace("[*][*]", "[*]")
    part = window_title_part("a\nb\x00c\u202e" + "x" * 200)
    assert part.startswith("\u2068a bc") and part.endswith("…\u2069") and len(part) == TITLE_IN_WINDOW + 2
    assert "\u202e" not in part and window_title_part("  ") == ""

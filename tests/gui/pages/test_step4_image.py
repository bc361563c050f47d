"""Step 4 (镜像选择): choices land in the plan, conflicts are shown with their reason, the Dockerfile is right."""

from __future__ import annotations

import re

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication

from catalog.models import ContainerImage, CudaRelease, Framework
from gui import workers
from gui.controller import PlanController
from gui.pages.step4_image import CONFLICT_MARK, ImagePage


@pytest.fixture
def page(qtbot, catalog, policy):
    ctl = PlanController(catalog, policy, lang="en")
    page = ImagePage(ctl)
    qtbot.addWidget(page)
    return page


def _ngc_image(catalog) -> ContainerImage:
    return next(i for i in catalog.all(ContainerImage) if i.reference.startswith("nvcr.io/nvidia/pytorch:"))


def test_choosing_an_image_writes_the_plan_and_generates_a_pinned_dockerfile(page, catalog, qtbot, tmp_path,
                                                                              monkeypatch):
    image = _ngc_image(catalog)
    combo = page.combos["software.image"]
    combo.setCurrentIndex(combo.findData(image.id))
    assert page.controller.plan.software.image == image.id
    text = page.dockerfile_view.toPlainText()
    assert re.search(rf"^FROM {re.escape(image.reference)}$", text, re.M)  # the catalog's pinned tag
    assert re.search(r"^HEALTHCHECK .*\\\n\s+CMD nvidia-smi", text, re.M)
    assert re.search(r"^USER 10001:10001$", text, re.M)
    assert page.dockerfile_view.isReadOnly()

    qtbot.mouseClick(page.copy_button, Qt.MouseButton.LeftButton)
    assert QGuiApplication.clipboard().text() == text

    target = tmp_path / "Dockerfile"
    monkeypatch.setattr(workers, "ask_export_path", lambda *a: target)
    qtbot.mouseClick(page.save_button, Qt.MouseButton.LeftButton)
    assert target.read_text(encoding="utf-8") == text
    assert [p.name for p in tmp_path.iterdir()] == ["Dockerfile"]  # no temporary file left behind


def test_save_to_an_unwritable_place_reports_and_writes_nothing(page, catalog, monkeypatch, tmp_path):
    image = _ngc_image(catalog)
    page.combos["software.image"].setCurrentIndex(page.combos["software.image"].findData(image.id))
    errors: list[str] = []
    monkeypatch.setattr(workers, "ask_export_path", lambda *a: tmp_path / "missing-dir" / "Dockerfile")
    monkeypatch.setattr(workers, "show_error", lambda _p, _t, text: errors.append(text))
    assert page.save_dockerfile() is None
    assert len(errors) == 1 and "missing-dir" in errors[0]
    assert not (tmp_path / "missing-dir").exists()


def test_no_image_no_dockerfile(page):
    assert page.dockerfile_view.toPlainText() == ""
    assert not page.save_button.isEnabled()


def test_framework_without_a_build_for_the_chosen_cuda_is_marked_not_hidden(page, catalog):
    """A framework whose CUDA builds do not include the chosen CUDA stays in the list, greyed, with the
    rule's reason; choosing it is still possible."""
    ctl = page.controller
    frameworks = catalog.all(Framework)
    cuda_ids = {c.id: c.version for c in catalog.all(CudaRelease)}
    pair = next(((fw, cid) for fw in frameworks for cid, ver in cuda_ids.items()
                 if not any(ver.startswith(v) for v in fw.cuda_versions)), None)
    if pair is None:
        pytest.skip("the catalog has no framework/CUDA pair that conflicts")
    fw, cuda_id = pair
    page.combos["software.cuda"].setCurrentIndex(page.combos["software.cuda"].findData(cuda_id))
    combo = page.combos["software.framework"]
    idx = combo.findData(fw.id)
    assert idx >= 0, "conflicting option hidden"
    assert CONFLICT_MARK in combo.itemText(idx)
    assert combo.itemData(idx, Qt.ItemDataRole.ToolTipRole)
    combo.setCurrentIndex(idx)
    assert ctl.plan.software.framework == fw.id


def test_unknown_id_in_the_plan_stays_visible(page):
    from procurement.plan import with_value

    ctl = page.controller
    ctl.replace_plan(with_value(ctl.plan, "software.os", "plan9-4"), "test")
    combo = page.combos["software.os"]
    assert combo.currentData() == "plan9-4"
    assert "not in the catalog" in combo.currentText()


def test_dockerfile_view_is_monospace(page):
    assert page.dockerfile_view.font().fixedPitch() or page.dockerfile_view.fontInfo().fixedPitch()


@pytest.mark.qt_log_ignore("does not support propagateSizeHints")  # the offscreen platform, on show()
def test_a_hidden_page_defers_its_what_if_evaluations_until_shown(qtbot, catalog, policy):
    from PySide6.QtWidgets import QStackedWidget, QWidget

    ctl = PlanController(catalog, policy, lang="en")
    stack = QStackedWidget()
    qtbot.addWidget(stack)
    other = QWidget()
    page = ImagePage(ctl)
    stack.addWidget(other)
    stack.addWidget(page)
    stack.show()
    qtbot.waitExposed(stack)
    image = _ngc_image(catalog)
    from procurement.plan import with_value

    ctl.replace_plan(with_value(ctl.plan, "software.image", image.id), "edit on another step")
    assert page.combos["software.image"].currentData() is None  # not refreshed while hidden
    stack.setCurrentWidget(page)
    qtbot.waitUntil(lambda: page.combos["software.image"].currentData() == image.id)
    assert image.reference in page.dockerfile_view.toPlainText()


def test_choosing_an_image_fills_what_it_contains_in_one_undo_step(page, catalog, qtbot):
    page.controller.set_value("gpu.model", "a100-pcie-80gb")
    page.controller.set_value("gpu.count", 4)
    page.refresh_now()
    combo = page.combos["software.image"]
    combo.setCurrentIndex(combo.findData("ngc-pytorch-24.05"))
    sw = page.controller.plan.software
    assert (sw.image, sw.cuda, sw.framework, sw.driver) == ("ngc-pytorch-24.05", "cuda-12.4", "pytorch-2.4", "r545")
    assert page.image_note.isVisible() or not page.isVisible()
    assert "CUDA 12.4.1" in page.image_note.text()
    page.controller.undo_stack.undo()  # one step takes the image and what it filled back
    sw = page.controller.plan.software
    assert (sw.image, sw.cuda, sw.framework, sw.driver) == (None, None, None, None)


def test_choosing_an_image_that_disagrees_states_the_mismatch_and_keeps_the_plans_choice(page, catalog):
    for path, value in (("gpu.model", "a100-pcie-80gb"), ("software.cuda", "cuda-12.1"),
                        ("software.framework", "pytorch-2.1"), ("software.driver", "r535")):
        page.controller.set_value(path, value)
    page.refresh_now()
    combo = page.combos["software.image"]
    combo.setCurrentIndex(combo.findData("ngc-pytorch-24.05"))
    sw = page.controller.plan.software
    assert (sw.cuda, sw.framework, sw.driver) == ("cuda-12.1", "pytorch-2.1", "r535")
    note = page.image_note.text()
    assert "the plan has CUDA 12.1" in note and "PyTorch 2.4" in note and "older than the image" in note


def test_the_recommended_stack_is_shown_with_reasons_and_applied_by_a_button(page, catalog, qtbot):
    assert not page.apply_button.isEnabled()  # no GPU yet
    assert "step 2" in page.recommend_text.text()
    page.controller.set_value("gpu.model", "rtx-5090")
    page.controller.set_value("gpu.count", 1)
    page.refresh_now()
    assert page.apply_button.isEnabled()
    text = page.recommend_text.text()
    assert "RTX 5090" in text and "CUDA" in text and "driver" in text
    qtbot.mouseClick(page.apply_button, Qt.MouseButton.LeftButton)
    sw = page.controller.plan.software
    assert sw.driver and sw.cuda and sw.framework and sw.os
    from procurement.evaluation import evaluate as full_evaluate
    findings = full_evaluate(page.controller.plan, catalog).findings
    assert not [f for f in findings if f.family == "software" and f.severity.value in ("error", "warning")]
    page.refresh_now()
    assert not page.apply_button.isEnabled()  # applied: nothing left to change
    assert "already uses" in page.recommend_text.text()
    page.controller.undo_stack.undo()
    assert page.controller.plan.software.driver is None


def test_the_mirror_choice_rewrites_the_dockerfile_and_none_restores_it(page, catalog, qtbot):
    image = _ngc_image(catalog)
    page.combos["software.image"].setCurrentIndex(page.combos["software.image"].findData(image.id))
    plain = page.dockerfile_view.toPlainText()
    assert "PIP_INDEX_URL" not in plain
    page.mirror_combo.setCurrentIndex(page.mirror_combo.findData("tuna"))
    text = page.dockerfile_view.toPlainText()
    assert "ENV PIP_INDEX_URL=https://pypi.tuna.tsinghua.edu.cn/simple" in text
    assert "ARG BASE_REGISTRY=nvcr.io" in text
    qtbot.mouseClick(page.copy_button, Qt.MouseButton.LeftButton)
    assert QGuiApplication.clipboard().text() == text  # what is copied is what is shown
    page.mirror_combo.setCurrentIndex(0)
    assert page.dockerfile_view.toPlainText() == plain
    assert page.mirror_label.buddy() is page.mirror_combo  # Alt+M reaches it


def test_the_image_build_choices_land_in_the_plan_and_the_dockerfile(page, catalog, qtbot):
    page.show()
    qtbot.waitExposed(page)  # laid out, so a click lands on the check box
    combo = page.combos["software.image"]
    combo.setCurrentIndex(combo.findData("cuda-12.4.1-devel-ubuntu22.04"))
    page.combos["software.framework"].setCurrentIndex(page.combos["software.framework"].findData("pytorch-2.4"))
    text = page.dockerfile_view.toPlainText()
    # runtime by default, built in devel: two stages
    assert "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04 AS build" in text
    assert re.search(r"^FROM nvidia/cuda:12\.4\.1-runtime-ubuntu22\.04$", text, re.M)
    assert "pytorch-2.4-cuda12.4-" in page.tag_label.text()
    page.base_combo.setCurrentIndex(page.base_combo.findData("devel"))
    assert page.controller.plan.operations.image_base == "devel"
    qtbot.mouseClick(page.multi_stage_check, Qt.MouseButton.LeftButton)
    assert page.controller.plan.operations.multi_stage is False
    text = page.dockerfile_view.toPlainText()
    assert " AS build" not in text and re.search(r"^FROM nvidia/cuda:12\.4\.1-devel-ubuntu22\.04$", text, re.M)
    page.controller.undo_stack.undo()
    assert page.controller.plan.operations.multi_stage is True and page.multi_stage_check.isChecked()

"""Choosing an image that holds no CUDA or no framework says so, not that the catalog does not record it."""

from __future__ import annotations

from procurement.plan import Plan
from procurement.software_stack import image_fill


def test_a_cpu_base_image_holds_no_cuda_and_no_framework_and_asks_no_driver(catalog) -> None:
    notes = image_fill(Plan(), catalog, "miniconda3", "en").notes
    assert notes == (
        "The image continuumio/miniconda3:latest holds no CUDA (per its source in the catalog): it comes from what "
        "is installed on top",
        "The image continuumio/miniconda3:latest holds no framework (per its source in the catalog): it comes from "
        "what is installed on top",
    )
    zh = image_fill(Plan(), catalog, "jupyter-scipy-notebook", "zh").notes
    assert zh and all("不含" in n and "未记录" not in n for n in zh)


def test_a_cuda_base_image_fills_its_cuda_and_holds_no_framework(catalog) -> None:
    fill = image_fill(Plan(), catalog, "cuda-12.1.1-runtime-ubuntu22.04", "en")
    assert fill.changes.get("software.cuda") == "cuda-12.1"
    assert any("holds no framework" in n for n in fill.notes)
    assert not any("does not record" in n for n in fill.notes)


def test_an_image_whose_contents_are_not_recorded_is_still_said_to_be_unchecked(catalog) -> None:
    notes = image_fill(Plan(), catalog, "ngc-pytorch-23.05", "en").notes
    assert sum("does not record its" in n for n in notes) == 3

"""Which link carries a layout's traffic follows the plan's real interconnect: NVSwitch joins an SXM board's
GPUs, an NVLink bridge joins two PCIe cards, nothing joins PCIe cards without bridges.

The mid-size example (4 × A100 PCIe, no NVLink asked for) was said to run "TP4 over NVLink (300 GB/s)".
"""

from __future__ import annotations

from procurement.evaluation import evaluate
from procurement.plan import load_plan, with_value
from tests.conftest import EXAMPLES


def _vram_text(plan, catalog, lang: str = "en") -> str:
    return " ".join(f.message for f in evaluate(plan, catalog, None, lang).findings if f.rule.startswith("VRAM"))


def test_pcie_cards_without_bridges_talk_over_pcie(catalog) -> None:
    plan = load_plan(EXAMPLES / "mid-size-training.gpuplan.yaml", catalog)
    assert not plan.requirements.needs_nvlink
    text = _vram_text(plan, catalog)
    assert "over PCIe" in text and "NVLink" not in text, text


def test_four_bridged_pcie_cards_still_cross_pcie_for_tp4(catalog) -> None:
    plan = with_value(load_plan(EXAMPLES / "mid-size-training.gpuplan.yaml", catalog), "requirements.needs_nvlink",
                      True)
    text = _vram_text(plan, catalog)
    assert "4 GPUs as" in text and "over PCIe" in text, text  # a bridge joins two cards, not four


def test_sxm_boards_talk_over_nvlink(catalog) -> None:
    plan = load_plan(EXAMPLES / "mid-size-training.gpuplan.yaml", catalog)
    plan = with_value(plan, "gpu.model", "a100-sxm4-40gb")
    text = _vram_text(plan, catalog)
    assert "over NVLink" in text, text

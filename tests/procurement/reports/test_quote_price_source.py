"""The quote PDF's prices table says where each price comes from in the reader's language: the Chinese quote
printed the catalog's English kind ("vendor MSRP (China retail, VAT included): NVIDIA official …")."""

from __future__ import annotations

import copy
import datetime as dt
import io
from pathlib import Path

import pypdf
import pytest

from catalog.loader import Catalog, load_catalog
from procurement.plan import Plan, with_value
from procurement.reports import render_quote_pdf
from procurement.reports.quote import catalog_price_kind

DATA = Path(__file__).parents[1] / "data"
SOURCE = "NVIDIA official suggested retail price in China (test citation)"


@pytest.fixture()
def cat() -> Catalog:
    cat = copy.deepcopy(load_catalog(data_dir=DATA / "reports_catalog"))
    gpu_id = "l40s"  # the GPU of reports_plan
    gpu = cat.parts["gpu"][gpu_id]
    cat.parts["gpu"][gpu_id] = gpu.model_copy(update={
        "price_kind": "vendor MSRP (China retail, VAT included)", "price_source": SOURCE,
        "price_includes_vat": True})
    return cat


def _text(pdf: bytes) -> str:
    return "".join(p.extract_text() for p in pypdf.PdfReader(io.BytesIO(pdf)).pages).replace("\n", "")


def test_chinese_quote_names_the_price_source_in_chinese(cat: Catalog) -> None:
    # a plan of priced lines only (the GPUs), so the document is the buyer's quote with its prices table
    plan = with_value(with_value(Plan(), "gpu.model", "l40s"), "gpu.count", 4)
    zh = _text(render_quote_pdf(plan, cat, lang="zh", today=dt.date(2026, 3, 1), findings=[]))
    assert "价格及来源" in zh
    assert "vendor MSRP" not in zh
    assert "厂商建议零售价（含税）；来源（原文）：" in zh.replace(" ", "")
    en = _text(render_quote_pdf(plan, cat, lang="en", today=dt.date(2026, 3, 1), findings=[]))
    assert "vendorMSRP(Chinaretail,VATincluded):NVIDIAofficial" in en.replace(" ", "")


@pytest.mark.parametrize(("kind", "vat", "zh"), [
    ("vendor MSRP (China retail, VAT included)", True, "厂商建议零售价（含税）"),
    ("press report (China street price; VAT status not stated)", None, "媒体报道价（是否含税未说明）"),
    ("distributor list", False, "目录参考价（不含税）"),
])
def test_catalog_price_kinds_in_chinese(kind: str, vat: bool | None, zh: str) -> None:
    assert catalog_price_kind(kind, vat, "zh") == zh
    assert catalog_price_kind(kind, vat, "en") == kind

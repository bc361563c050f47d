"""PDF quote and checklist: items, totals worked by hand, labels, sign-off, fonts, escaping, page breaks."""

from __future__ import annotations

import datetime as dt
import io
import re
import shutil
import subprocess
from decimal import Decimal
from pathlib import Path

import pypdf
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from catalog.loader import Catalog, load_catalog
from catalog.models import Storage
from procurement.checklist import NBSP
from procurement.findings import Finding, Severity
from procurement.plan import ChecklistMark, Plan, StorageItem, canonical_digest, load_plan, with_value
from procurement.policy import default_policy
from procurement.reports import build_quote, render_checklist_pdf, render_quote_pdf, suggested_filename
from procurement.reports.common import markup, safe_filename
from procurement.signoff import sign

DATA = Path(__file__).parents[1] / "data"
TODAY = dt.date(2026, 3, 1)


@pytest.fixture(scope="module")
def cat() -> Catalog:
    return load_catalog(data_dir=DATA / "reports_catalog")


@pytest.fixture()
def plan(cat: Catalog) -> Plan:
    return load_plan(DATA / "reports_plan.gpuplan.yaml", cat)


def pages(pdf: bytes) -> list[str]:
    reader = pypdf.PdfReader(io.BytesIO(pdf))
    return [p.extract_text().replace(NBSP, " ") for p in reader.pages]


def text(pdf: bytes) -> str:
    return "\n".join(pages(pdf))


def flat(s: str) -> str:
    """Text with line breaks removed (table cells wrap)."""
    return s.replace("\n", "").replace(" ", "")


def price(cat: Catalog, kind: str, pid: str) -> Decimal:
    part = cat.get(kind, pid)
    assert part is not None and part.price_cny is not None
    return Decimal(str(part.price_cny))


def test_quote_totals_worked_by_hand(plan: Plan, cat: Catalog) -> None:
    nodes = 2  # the plan's requirements.nodes: every per-server quantity doubles
    expected = (
        price(cat, "gpu", "l40s") * 4 * nodes  # 60 000 × 8  = 480 000
        + price(cat, "cpu", "epyc-9554") * 1 * nodes  # 30 000 × 2  =  60 000
        + price(cat, "memory", "ddr5-64g-4800-rdimm") * 8 * nodes  #  1 500 × 16 =  24 000
        + price(cat, "storage", "nvme-u2-3.84t") * (1 + 2) * nodes  # 2 500.5 × 6 = 15 003
        + price(cat, "nic", "cx7-400g") * 1 * nodes  # 12 000 × 2  =  24 000
        + price(cat, "psu", "smc-2000w-titanium") * 4 * nodes  #  3 000 × 8  =  24 000
        + price(cat, "chassis", "gpu-4u-pcie") * nodes  # 40 000 × 2  =  80 000
    )  # HDD: on request, excluded
    assert expected == Decimal("707003.0")
    q = build_quote(plan, cat, today=TODAY)
    assert q.subtotal == Decimal("707003.00")
    assert q.vat == Decimal("91910.39")  # 707 003 × 13 % = 91 910.39
    assert q.total == Decimal("798913.39")
    assert q.total_wan == Decimal("79.89")
    assert [line.name for line in q.unpriced] == ["16TB SATA HDD (备份盘)"]
    assert q.number == "Q-TEST-001" and q.valid_until == dt.date(2026, 3, 31)
    assert [line.category for line in q.lines][:3] == ["gpu", "cpu", "memory"]


def _priced(cat: Catalog, **prices: tuple[float, bool | None]) -> Catalog:
    """A copy of the test catalog with the given parts priced (part id -> (price, includes VAT))."""
    copy = load_catalog(data_dir=DATA / "reports_catalog")
    for pid, (value, vat) in prices.items():
        for by_id in copy.parts.values():
            if pid in by_id:
                by_id[pid] = by_id[pid].model_copy(update={
                    "price_cny": value, "price_includes_vat": vat, "price_date": TODAY, "price_source": "test"})
    return copy


def test_quote_pdf_zh_has_items_totals_and_labels(plan: Plan, cat: Catalog) -> None:
    """Every line priced: a 报价单 with 序号/品名/型号规格/单位, totals before and with VAT and 大写金额."""
    priced = _priced(cat, **{"hdd-16t": (3000.0, False)})
    q = build_quote(plan, priced, today=TODAY)
    assert q.complete and q.subtotal == Decimal("719003.00")  # 707 003 + 3 000 × 2 × 2
    assert q.total == Decimal("812473.39")  # 719 003 × 1.13
    body = text(render_quote_pdf(plan, priced, today=TODAY, findings=[]))
    for label in (
        "报价单",
        "报价编号",
        "有效期至",
        "采购方",
        "供应商",
        "序号",
        "品名",
        "型号/规格",
        "单位",
        "不含税单价（元）",
        "不含税金额（元）",
        "小计（不含税）",
        "增值税 13%",
        "合计（含税）",
        "大写金额",
        "合计（万元）",
        "说明与假设",
        "未解决的问题",
    ):
        assert flat(label) in flat(body), label
    assert "询价单" not in body
    for cat_label in ("GPU", "CPU", "内存", "存储", "网络", "电源", "软件"):
        assert cat_label in body
    f = flat(body)
    assert "NVIDIAL40S" in f and "块8¥60,000.00¥480,000.00" in f
    assert "¥719,003.00" in f and "¥93,470.39" in f and "¥812,473.39" in f and "81.25万元" in f
    assert "人民币捌拾壹万贰仟肆佰柒拾叁元叁角玖分" in f
    assert "2026-03-31（30天）" in f
    assert "某某大学 AI 实验室" in body and "Vendor & Co. <Ltd>" in body
    assert "数量按 2 台服务器计" in body
    # terms, cost of ownership and the signature blocks (docs/reports.md) take a third page
    assert re.search(r"第 1 页，共 [1-3] 页", body)


def test_unpriced_lines_make_a_request_for_quotation_without_totals(plan: Plan, cat: Catalog) -> None:
    """One line on request (the HDD): no sum is printed as a total; the document is a 询价单 for the vendor,
    with the price cells left to fill in, what is asked, and no internal content (findings, plan notes)."""
    q = build_quote(plan, cat, today=TODAY)
    assert not q.complete and [line.name for line in q.unpriced] == ["16TB SATA HDD (备份盘)"]
    finding = Finding.of_text(rule="POWER-PSU-CAPACITY", family="power", severity=Severity.ERROR, step=3,
                      message="内部问题：电源不足")
    body = text(render_quote_pdf(plan, cat, today=TODAY, findings=[finding]))
    f = flat(body)
    assert "询价单" in body and "报价单" not in body.replace("询价单", "")
    assert "含税单价（请填写）" in f and "交货期" in body and "付款方式" in body and "发票类型" in body
    for absent in ("合计（含税）", "小计（不含税）", "人民币", "¥707,003.00", "¥798,913.39", "¥60,000.00",
                   "内部问题", "未解决的问题"):
        assert absent not in f, absent
    assert "NVIDIAL40S" in f and "16TBSATAHDD" in f
    en = text(render_quote_pdf(plan, cat, today=TODAY, lang="en", findings=[]))
    assert "Request for quotation" in en and "Total (incl. VAT)" not in en


def test_a_vat_inclusive_retail_price_is_not_taxed_twice(plan: Plan, cat: Catalog) -> None:
    """¥12,999 incl. 13 % VAT: the quote's lines are VAT-inclusive (含税单价 × 数量 = 含税金额 to the fen), a net
    price gets its VAT per unit (rounded to the fen) before it is multiplied, and the VAT is split from the total
    once (价税分离), so every printed figure multiplies and adds up."""
    p = with_value(plan, "gpu.count", 1)
    priced = _priced(cat, **{"hdd-16t": (3000.0, False), "l40s": (12999.0, True)})
    q = build_quote(p, priced, today=TODAY)
    assert q.basis == "gross"
    gpu = next(line for line in q.lines if line.category == "gpu")
    assert gpu.unit_price == Decimal("12999.00") and gpu.amount == gpu.gross == Decimal("25998.00")  # × 2 nodes
    hdd = next(line for line in q.lines if line.part_id == "hdd-16t")
    assert hdd.unit_price == Decimal("3390.00") and hdd.amount == hdd.unit_price * hdd.qty
    for line in q.lines:
        if line.unit_price is not None:
            assert line.amount == line.unit_price * Decimal(line.qty), line.name
    total = sum((line.amount for line in q.lines if line.amount is not None), Decimal(0))
    assert q.total == total and q.subtotal == (total / Decimal("1.13")).quantize(Decimal("0.01"))
    assert q.total - q.subtotal == q.vat
    body = text(render_quote_pdf(p, priced, today=TODAY, lang="en", findings=[]))
    assert "Unit prices and amounts include 13% VAT" in body


def test_quote_pdf_en_and_psu_included_with_chassis(plan: Plan, cat: Catalog) -> None:
    # HGX platform ships with 4 PSUs; the plan asks for 6 → only 2 are bought on top, per server.
    p = with_value(plan, "gpu.model", "h100-sxm5-80g")
    p = with_value(p, "gpu.count", 8)
    p = with_value(p, "server.chassis", "hgx-8-sxm")
    p = with_value(p, "server.psu.count", 6)
    q = build_quote(p, cat, today=TODAY)
    psu = [line for line in q.lines if line.category == "power"]
    assert [(line.qty, line.amount) for line in psu] == [(4, Decimal("12000.00"))]  # 2 extra × 2 nodes × 3 000
    body = text(render_quote_pdf(p, _priced(cat, **{"hdd-16t": (3000.0, False)}), today=TODAY, lang="en",
                                 findings=[]))
    for label in (
        "Quotation",
        "Valid until",
        "Buyer",
        "Vendor",
        "Unit price excl. VAT (CNY)",
        "VAT 13%",
        "Total (incl. VAT)",
        "The chassis ships with 4 × Supermicro 2000W Titanium",
    ):
        assert flat(label) in flat(body), label
    assert "¥4,000,000.00" in flat(body)  # 250 000 × 8 × 2
    assert "万" not in body  # English totals in CNY only; the 万元 row is for Chinese paperwork


def test_open_findings_are_listed(plan: Plan, cat: Catalog) -> None:
    findings = [
        Finding.of_text(
            rule="POWER-PSU-CAPACITY",
            family="power",
            severity=Severity.ERROR,
            step=3,
            fields=("server.psu.count",),
            message="电源容量不足 <b>",
            fix="增加一个电源 & 重新检查",
        ),
        Finding.of_text(rule="PCIE-GEN-INFO", family="pcie", severity=Severity.INFO, step=3, message="仅提示"),
    ]
    body = text(render_quote_pdf(plan, _priced(cat, **{"hdd-16t": (3000.0, False)}), today=TODAY,
                                 findings=findings))  # the buyer's copy (a priced quote) lists open findings
    assert "POWER-PSU-CAPACITY" in body and "电源容量不足 <b>" in body and "建议：增加一个电源 & 重新检查" in body
    assert "仅提示" not in body  # info findings are not open problems
    cl = text(render_checklist_pdf(plan, cat, today=TODAY, findings=findings))
    assert "POWER-PSU-CAPACITY" in cl and "错误" in cl


def test_checklist_pdf_statuses_signoffs_and_digest(plan: Plan, cat: Catalog) -> None:
    signed = sign(plan, "approval", "王五", "采购经理", cat, dt.date(2026, 3, 2))
    signed = sign(signed, "approval", "Alice <admin> & Co", "IT", cat, dt.date(2026, 3, 2))
    digest = canonical_digest(signed)
    pdf = render_checklist_pdf(signed, cat, today=TODAY, findings=[])
    body = text(pdf)
    for label in (
        "GPU 服务器采购检查清单",
        "硬件检查清单",
        "软件检查清单",
        "检查项",
        "状态",
        "依据与数值",
        "备注",
        "电源功率足够",
        "镜像来源可信",
        "签字",
        "方案审批签署",
        "盖章",
        "不证明签署人身份",
    ):
        assert label in body, label
    f = flat(body)
    need = 1885 * (1 + default_policy().fan_power_pct / 100) * 1.2  # see test_checklist
    assert f"需{round(need):,}W" in f and "可用3,600W" in f
    assert "王五" in body and "采购经理" in body and "Alice <admin> & Co" in body
    assert digest in f
    assert flat("有效（王五（采购经理），2026-03-02；Alice <admin> & Co（IT），2026-03-02）") in f
    assert signed.signoffs["approval"].digest in f
    assert flat("已核对镜像摘要 sha256 <ok> & 拉取地址") in f
    n = len(pages(pdf))
    assert f"第 {n} 页，共 {n} 页" in body
    # After a change the paper copy says so.
    void = text(render_checklist_pdf(with_value(signed, "gpu.count", 2), cat, today=TODAY, findings=[]))
    assert "已失效：签署后内容已更改" in void and "签署后的更改" in void and flat("GPU 数量：4 → 2") in flat(void)
    en = text(render_checklist_pdf(with_value(signed, "gpu.count", 2), cat, today=TODAY, findings=[], lang="en"))
    assert "void: the content changed after signing" in en and "Hardware checklist" in en and "Page 1 of" in en
    assert flat("GPU count: 4 → 2") in flat(en)


def test_checklist_pdf_shows_verification(plan: Plan, cat: Catalog) -> None:
    report = {
        "schema_version": 1,
        "created": "2026-03-05T10:00:00Z",
        "host": {"hostname": "gpu-node-01 <a>"},
        "driver_version": "535.104.05",
        "cuda_version": "12.2",
        "gpus": [{"index": i, "name": "NVIDIA L40S"} for i in range(3)],
        "checks": [
            {"id": "GPU-COUNT", "status": "fail", "expected": "4", "actual": "3", "message": ""},
            {"id": "RAM", "status": "pass", "expected": "512", "actual": "503 GiB", "message": ""},
        ],
    }
    body = text(render_checklist_pdf(with_value(plan, "verification", [report]), cat, today=TODAY, findings=[]))
    assert "验证报告" in body and "gpu-node-01 <a>" in body and flat("通过 1 · 不通过 1 · 警告 0") in flat(body)
    assert flat("GPU：3 × NVIDIA L40S") in flat(body) and "3 × NVIDIA L40S" in body


def test_fonts_are_embedded_subsets_only(plan: Plan, cat: Catalog) -> None:
    for pdf in (
        render_quote_pdf(plan, cat, today=TODAY, findings=[]),
        render_checklist_pdf(plan, cat, today=TODAY, findings=[]),
    ):
        reader = pypdf.PdfReader(io.BytesIO(pdf))
        fonts = {}
        for page in reader.pages:
            for name, ref in page["/Resources"]["/Font"].items():
                fonts[name] = ref.get_object()
        assert fonts
        for font in fonts.values():
            desc = font.get("/FontDescriptor")
            assert desc is not None, font  # a standard-14 font would have none (and not be embedded)
            desc = desc.get_object()
            assert "/FontFile2" in desc
            assert str(font["/BaseFont"]).startswith("/AAAAA")  # subset tag: only the glyphs used


def test_paper_sizes(plan: Plan, cat: Catalog) -> None:
    a4 = pypdf.PdfReader(io.BytesIO(render_quote_pdf(plan, cat, today=TODAY, findings=[])))
    letter = pypdf.PdfReader(io.BytesIO(render_quote_pdf(plan, cat, today=TODAY, findings=[], paper="letter")))
    assert [round(float(x)) for x in a4.pages[0].mediabox[2:]] == [595, 842]
    assert [round(float(x)) for x in letter.pages[0].mediabox[2:]] == [612, 792]


def test_user_text_cannot_inject_markup_or_break_layout(plan: Plan, cat: Catalog) -> None:
    assert markup("<font size=80>x</font> & <br/>") == "&lt;font size=80&gt;x&lt;/font&gt; &amp; &lt;br/&gt;"
    long_word = "A" * 400
    p = with_value(plan, "quote.buyer.name", '<font size="60">BIG</font>&amp;' + long_word)
    p = with_value(p, "title", "<para>title</para>")
    p = p.model_copy(update={"checklist": {"ram": ChecklistMark(note="<img src='x'/>" + "长" * 3000)}})
    q = text(render_quote_pdf(p, cat, today=TODAY, findings=[]))
    assert flat('<font size="60">BIG</font>&amp;') in flat(q) and "<para>title</para>" in q
    assert flat(q).count("A") >= 400  # the long word wrapped, nothing dropped
    c = text(render_checklist_pdf(p, cat, today=TODAY, findings=[]))
    assert "<img src='x'/>" in c.replace("\n", "")


def test_500_line_quote_splits_with_repeated_header(plan: Plan, cat: Catalog) -> None:
    many = with_value(
        plan,
        "server.storage",
        [StorageItem(role="data", part="nvme-u2-3.84t", count=1).model_dump(mode="json")] * 500,
    )
    q = build_quote(many, cat, today=TODAY)
    assert sum(1 for line in q.lines if line.category == "storage") == 500
    # 500 × 2 nodes × 2 500.5 = 2 500 500 on top of the 480 000 + 60 000 + 24 000 + 24 000 + 24 000 + 80 000.
    assert q.subtotal == Decimal("2500500") + Decimal("692000")
    pdf = render_quote_pdf(many, cat, today=TODAY, findings=[])
    ps = pages(pdf)
    assert len(ps) >= 10
    item_pages = [p for p in ps if "3,840 GB NVMe U.2" in p]  # the spec column: line-item rows only
    assert len(item_pages) >= 10
    for page in item_pages:
        assert "型号/规格" in flat(page) and "金额（元）" in flat(page)  # the header row repeats on every page
    assert f"共 {len(ps)} 页" in ps[-1]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.text(max_size=120), note=st.text(max_size=300), title=st.text(max_size=120))
def test_arbitrary_unicode_exports(cat: Catalog, plan: Plan, name: str, note: str, title: str) -> None:
    p = with_value(plan, "quote.buyer.name", name)
    p = with_value(p, "title", title)
    p = p.model_copy(update={"checklist": {"cooling": ChecklistMark(checked=True, note=note)}, "notes": note})
    if name.strip():
        p = sign(p, "approval", name, note[:50], cat, TODAY)
    for pdf in (
        render_quote_pdf(p, cat, today=TODAY, findings=[]),
        render_checklist_pdf(p, cat, today=TODAY, findings=[]),
    ):
        assert pdf.startswith(b"%PDF-") and pdf.rstrip().endswith(b"%%EOF")
        assert len(pypdf.PdfReader(io.BytesIO(pdf)).pages) >= 1


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="pdftoppm (poppler-utils) not installed")
def test_page_one_renders(plan: Plan, cat: Catalog, tmp_path: Path) -> None:
    pdf = tmp_path / "quote.pdf"
    pdf.write_bytes(render_quote_pdf(plan, cat, today=TODAY, findings=[]))
    subprocess.run(
        ["pdftoppm", "-r", "40", "-png", "-f", "1", "-l", "1", str(pdf), str(tmp_path / "p")],
        check=True,
        capture_output=True,
        timeout=60,
    )
    png = next(tmp_path.glob("p*.png"))
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 5_000


def test_storage_model_is_what_the_500_line_test_assumes(cat: Catalog) -> None:
    part = cat.get("storage", "nvme-u2-3.84t")
    assert isinstance(part, Storage) and part.price_cny == 2500.5


def test_suggested_file_names(plan: Plan) -> None:
    assert suggested_filename(plan, "quote") == "报价单-Q-TEST-001.pdf"
    assert suggested_filename(plan, "checklist", "en") == "checklist-训练集群 _测试_ & 报价.pdf"
    unnamed = with_value(with_value(plan, "title", ""), "quote.number", "")
    assert suggested_filename(unnamed, "checklist") == f"检查清单-{canonical_digest(unnamed)[:8]}.pdf"
    assert suggested_filename(unnamed, "quote", "en").startswith("Quotation-Q")
    assert safe_filename("../../etc/passwd\\x:y") == "etc_passwd_x_y.pdf"
    assert safe_filename("///") == "report.pdf" and len(safe_filename("长" * 300)) == 84


def test_quote_without_any_price_says_on_request(plan: Plan, cat: Catalog) -> None:
    unpriced = Catalog(
        parts={k: {i: p.model_copy(update={"price_cny": None}) for i, p in v.items()} for k, v in cat.parts.items()}
    )
    q = build_quote(plan, unpriced, today=TODAY)
    assert q.total == 0 and len(q.unpriced) == len(q.lines)
    body = text(render_quote_pdf(plan, unpriced, today=TODAY, findings=[], lang="en"))
    assert "¥0.00" not in body and "Request for quotation" in body
    assert "Total (incl. VAT)" not in body


def test_hardware_on_request_never_totals_zero(catalog: Catalog) -> None:
    """Shipped catalog: free software at ¥0.00, every hardware part on request — totals say 询价, not ¥0.00."""
    plan = load_plan(Path(__file__).resolve().parents[3] / "resources/examples/mid-size-training.gpuplan.yaml",
                     catalog)
    quote = build_quote(plan, catalog)
    software = [line for line in quote.lines if line.category == "software"]
    assert software and all(line.unit_price == 0 for line in software)
    assert not quote.has_prices
    body = flat(text(render_quote_pdf(plan, catalog, lang="zh")))
    assert body.startswith("询价单") and "¥0.00" not in body
    for label in ("小计（不含税）", "合计（含税）", "合计（万元）"):
        assert label not in body, label

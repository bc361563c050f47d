"""Quote view: line items and totals, buyer/vendor fields, Export quote… (PDF in a worker), print preview."""

from __future__ import annotations

import io
from decimal import ROUND_HALF_UP, Decimal

import pytest
from pypdf import PdfReader
from PySide6.QtCore import Qt
from PySide6.QtPrintSupport import QPrinter

from catalog.models import Chassis, Cpu, Gpu
from gui import workers
from gui.controller import PlanController
from gui.pages.quote_view import PrintPreviewDialog, QuotePage
from procurement.plan import Plan

# A company price list (the catalog's overlay feature): the GPU and the chassis get negotiated prices, the
# CPU keeps none and must show as "on request" without counting in the totals.
PRICES = {"gpu": Decimal("12999.00"), "chassis": Decimal("30500.50")}


@pytest.fixture(scope="module")
def priced_catalog(tmp_path_factory):
    from catalog.loader import load_catalog

    shipped = load_catalog()
    overlay = tmp_path_factory.mktemp("company-prices")
    gpu, chassis = shipped.all(Gpu)[0], shipped.all(Chassis)[0]
    overlay.joinpath("prices.yaml").write_text(
        "prices:\n"
        f"  - {{id: {gpu.id}, price_cny: {PRICES['gpu']}, price_source: test price list}}\n"
        f"  - {{id: {chassis.id}, price_cny: {PRICES['chassis']}, price_source: test price list}}\n",
        encoding="utf-8")
    return load_catalog([overlay])


def _chosen(catalog):
    cpu = next((c for c in catalog.all(Cpu) if c.price_cny is None), catalog.all(Cpu)[0])
    return [(catalog.all(Gpu)[0], 4), (cpu, 2), (catalog.all(Chassis)[0], 1)]


@pytest.fixture
def ctl(priced_catalog, policy):
    catalog = priced_catalog
    (gpu, _), (cpu, _), (chassis, _) = _chosen(catalog)
    plan = Plan.model_validate({"gpu": {"model": gpu.id, "count": 4},
                                "server": {"cpu": cpu.id, "cpu_count": 2, "chassis": chassis.id}})
    ctl = PlanController(catalog, policy, lang="en")
    ctl.new(plan)
    return ctl


@pytest.fixture
def page(qtbot, ctl):
    page = QuotePage(ctl)
    qtbot.addWidget(page)
    yield page
    assert workers.wait_for_jobs(20_000)


def _expected_total(catalog, policy) -> tuple[Decimal, Decimal]:
    """4 GPUs and one chassis at the test prices; the unpriced CPU adds nothing."""
    subtotal = PRICES["gpu"] * 4 + PRICES["chassis"]
    assert subtotal == Decimal("82496.50")
    vat = (subtotal * Decimal(str(policy.vat_rate_pct)) / 100).quantize(Decimal("0.01"), ROUND_HALF_UP)
    return subtotal.quantize(Decimal("0.01")), subtotal + vat


def test_line_items_and_totals_match_catalog_prices(page, priced_catalog, policy):
    catalog = priced_catalog
    (gpu, _), (cpu, _), _ = _chosen(catalog)
    names = [page.table.item(r, 1).text() for r in range(page.table.rowCount())]
    assert gpu.name in names
    row = names.index(gpu.name)
    assert page.table.item(row, 3).text() == "4"
    assert page.table.item(row, 5).text() == "¥51,996.00"  # 4 × 12 999
    cpu_row = names.index(cpu.name)
    assert page.table.item(cpu_row, 3).text() == "2"
    assert cpu.price_cny is None  # the test overlay prices only the GPU and the chassis
    assert page.table.item(cpu_row, 4).text() == page.table.item(cpu_row, 5).text() == "on request"
    subtotal, total = _expected_total(catalog, policy)
    # the CPU has no price: the sum is labelled incomplete and no final total is offered
    assert f"Priced subtotal (incomplete) ¥{subtotal:,.2f}" in page.totals_label.text()
    assert f"¥{total:,.2f}" not in page.totals_label.text()
    unpriced = sum(page.table.item(r, 4).text() == "on request" for r in range(page.table.rowCount()))
    assert unpriced >= 1
    words = "1 part is" if unpriced == 1 else f"{unpriced} parts are"
    assert f"not a final total: {words} priced on request" in page.totals_label.text()
    assert "(s)" not in page.totals_label.text()


def test_a_quote_with_no_prices_says_on_request_not_zero(qtbot, catalog, policy):
    """The shipped catalog has no public hardware prices: the page must not claim a total of ¥0.00."""
    from procurement.plan import load_plan
    from tests.conftest import EXAMPLES

    ctl = PlanController(catalog, policy, lang="en")
    ctl.new(load_plan(EXAMPLES / "mid-size-training.gpuplan.yaml", catalog))
    page = QuotePage(ctl)
    qtbot.addWidget(page)
    page.refresh()
    assert page.table.rowCount() > 5
    cells = {page.table.item(r, 0).text(): [] for r in range(page.table.rowCount())}
    for r in range(page.table.rowCount()):
        cells[page.table.item(r, 0).text()].append(page.table.item(r, 5).text())
    assert all(v == "on request" for cat, vals in cells.items() if cat != "Software" for v in vals)
    assert set(cells["Software"]) == {"¥0.00"}  # Ubuntu, the driver, CUDA, PyTorch, NGC: free downloads
    assert "Total: on request" in page.totals_label.text()
    assert "¥0.00" not in page.totals_label.text()


def test_buyer_vendor_fields_are_written_to_the_plan(page, qtbot):
    buyer = page.fields["quote.buyer.name"]
    buyer.insert("清华大学")  # QTest types ASCII only; insert() is the input-method path for CJK
    qtbot.keyClicks(buyer, " <Lab> & Co")
    qtbot.keyClicks(page.fields["quote.number"], "Q-2026-001")
    page.validity.setValue(45)
    q = page.controller.plan.quote
    assert (q.buyer.name, q.number, q.validity_days) == ("清华大学 <Lab> & Co", "Q-2026-001", 45)
    # typing a field is one undo step, not one per key
    page.controller.undo_stack.undo()
    page.controller.undo_stack.undo()
    assert page.controller.plan.quote.number == ""
    assert page.fields["quote.number"].text() == ""


def test_export_quote_writes_a_pdf_with_the_line_items_without_blocking(page, qtbot, tmp_path, monkeypatch,
                                                                         priced_catalog, policy):
    catalog = priced_catalog
    qtbot.keyClicks(page.fields["quote.vendor.name"], "ACME Servers")
    target = tmp_path / "quote"
    monkeypatch.setattr(workers, "ask_export_path", lambda *a: target)
    with qtbot.waitSignal(page.work_done, timeout=20_000):  # the export runs in a worker
        qtbot.mouseClick(page.export_button, Qt.MouseButton.LeftButton)
    pdf = tmp_path / "quote.pdf"  # '.pdf' added when the user leaves it off
    assert pdf.exists() and "Saved" in page.status_label.text()
    text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.read_bytes())).pages)
    (gpu, _), (cpu, _), _ = _chosen(catalog)
    assert gpu.name in text and cpu.name in text and "ACME Servers" in text
    # the CPU is unpriced: Export quote still writes the quote (never a request for quotation in its place),
    # the CPU on request and the sums called lower bounds, not a total
    assert "Quotation" in text and "Request for quotation" not in text
    assert "on request" in text and "lower bound, not a total" in text


def test_export_to_a_missing_folder_reports_the_error(page, qtbot, tmp_path, monkeypatch):
    errors: list[str] = []
    monkeypatch.setattr(workers, "ask_export_path", lambda *a: tmp_path / "nope" / "q.pdf")
    monkeypatch.setattr(workers, "show_error", lambda _p, _t, text: errors.append(text))
    with qtbot.waitSignal(page.work_done, timeout=20_000):
        assert page.export_quote() is not None
    assert len(errors) == 1 and "nope" in errors[0]
    assert not (tmp_path / "nope").exists()


@pytest.mark.qt_log_ignore("does not support propagateSizeHints")  # the offscreen platform, on show()
def test_print_preview_shows_and_prints_the_same_pdf(page, qtbot, tmp_path, monkeypatch):
    shown: list[tuple[bytes, PrintPreviewDialog]] = []

    def fake_preview(parent, pdf, title):
        dialog = PrintPreviewDialog(pdf, title, parent)
        shown.append((pdf, dialog))

    monkeypatch.setattr(workers, "show_print_preview", fake_preview)
    with qtbot.waitSignal(page.work_done, timeout=20_000):
        page.print_quote()
    assert len(shown) == 1
    pdf, dialog = shown[0]
    assert pdf.startswith(b"%PDF")
    pages = len(PdfReader(io.BytesIO(pdf)).pages)
    assert dialog.document.pageCount() == pages >= 1
    # printing paints those same pages: print to a PDF file and count them
    out = tmp_path / "printed.pdf"
    printer = QPrinter(QPrinter.PrinterMode.ScreenResolution)
    printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
    printer.setOutputFileName(str(out))
    monkeypatch.setattr(workers, "ask_printer", lambda _parent: printer)
    qtbot.mouseClick(dialog.print_button, Qt.MouseButton.LeftButton)
    assert len(PdfReader(str(out)).pages) == pages
    dialog.deleteLater()


def test_a_fully_priced_quote_gives_the_total_and_its_short_form_without_wan_in_english(page, ctl, policy,
                                                                                       priced_catalog):
    ctl.set_value("server.cpu", None)  # only the priced GPU and chassis are left
    page.refresh()
    _subtotal, total = _expected_total(priced_catalog, policy)
    text = page.totals_label.text()
    assert f"Total ¥{total:,.2f} (¥{total / 1_000:,.1f} k)" in text  # 93 221.05 → ¥93.2 k (it said ¥0.09 M)
    assert "万" not in text and "incomplete" not in text


def test_typing_a_vendor_price_into_the_table_completes_the_quote_and_undo_takes_it_back(page, qtbot, ctl,
                                                                                        priced_catalog, policy):
    """The CPU is on request: the buyer types the vendor's VAT-inclusive price into its unit price cell (F2),
    the plan stores it, the totals become a real total, and Undo restores 'on request'."""
    (_, _), (cpu, _), _ = _chosen(priced_catalog)
    names = [page.table.item(r, 1).text() for r in range(page.table.rowCount())]
    row = names.index(cpu.name)
    assert page.table.item(row, 4).text() == "on request" and "not a final total" in page.totals_label.text()
    assert page.vat_included.isChecked()
    page.table.setFocus()
    page.table.setCurrentCell(row, 4)
    qtbot.keyClick(page.table, Qt.Key.Key_F2)
    editor = page.table.focusWidget()
    assert editor is not None and editor is not page.table
    editor.selectAll() if hasattr(editor, "selectAll") else None
    qtbot.keyClicks(editor, "11,300")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: cpu.id in ctl.plan.prices)
    entered = ctl.plan.prices[cpu.id]
    assert entered.price_cny == 11_300 and entered.with_vat is True and entered.kind == "entered"
    qtbot.waitUntil(lambda: "Total" in page.totals_label.text() and "not a final" not in page.totals_label.text())
    names = [page.table.item(r, 1).text() for r in range(page.table.rowCount())]
    row = names.index(cpu.name)
    assert page.table.item(row, 4).text() == "¥11,300.00"  # the quote's lines are VAT-inclusive, as typed
    assert page.table.horizontalHeaderItem(4).text() == "Unit price\nincl. VAT"  # on two lines, as it is narrow
    # the on-screen total is the PDF's total: 4 GPUs and the chassis (+13 %) and 2 CPUs at 11 300 incl. VAT
    # (each line to the fen: 58,755.48 + 34,465.57 + 22,600.00)
    expected = sum((x * Decimal("1.13")).quantize(Decimal("0.01"), ROUND_HALF_UP)
                   for x in (PRICES["gpu"] * 4, PRICES["chassis"])) + 22_600
    assert f"{expected:,.2f}" in page.totals_label.text()
    ctl.undo_stack.undo()
    qtbot.waitUntil(lambda: cpu.id not in ctl.plan.prices)
    assert "not a final total" in page.totals_label.text()


def test_a_price_that_is_not_a_number_is_refused_and_changes_nothing(page, qtbot, ctl, priced_catalog):
    (_, _), (cpu, _), _ = _chosen(priced_catalog)
    names = [page.table.item(r, 1).text() for r in range(page.table.rowCount())]
    row = names.index(cpu.name)
    page.table.item(row, 4).setText("abc")
    qtbot.waitUntil(lambda: "Not a price: abc" in page.status_label.text())  # applied after the cell's commit
    assert cpu.id not in ctl.plan.prices
    assert page.table.item(row, 4).text() == "on request"


@pytest.mark.qt_log_ignore("does not support propagateSizeHints")  # the offscreen platform, on show()
def test_print_preview_fits_the_available_screen_with_its_buttons_on_it(qtbot):
    """A fixed 800×1000 preview put Print/Close below the screen at 1280×800 (and at 2× scale); the
    preview must lie inside the screen's available area, its buttons included."""
    from pypdf import PdfWriter

    out = io.BytesIO()
    writer = PdfWriter()
    writer.add_blank_page(595, 842)  # one A4 page
    writer.write(out)
    dialog = PrintPreviewDialog(out.getvalue(), "Quote")
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    avail = dialog.screen().availableGeometry()
    assert avail.contains(dialog.frameGeometry()), (dialog.frameGeometry(), avail)
    for button in (dialog.print_button, dialog.buttons.button(dialog.buttons.StandardButton.Close)):
        top_left = button.mapToGlobal(button.rect().topLeft())
        bottom_right = button.mapToGlobal(button.rect().bottomRight())
        assert avail.contains(top_left) and avail.contains(bottom_right), (button.text(), bottom_right, avail)
    # and it still uses the room there is: not a postage stamp
    assert dialog.height() >= 0.8 * min(1000, avail.height() - (dialog.frameGeometry().height() - dialog.height()))


@pytest.mark.qt_log_ignore("does not support propagateSizeHints")
def test_printing_keeps_the_text_layer_and_the_page_range(qtbot, tmp_path, catalog) -> None:
    """Printed at the printer's 1200 dpi the old code rasterised every page (8.8 s, 1.09 GB, an image-only PDF,
    the range ignored): now the chosen pages of the PDF itself are printed, text included."""
    import resource
    import time

    from procurement.plan import ChecklistMark, load_plan
    from procurement.reports import render_checklist_pdf
    from tests.conftest import EXAMPLES

    plan = load_plan(EXAMPLES / "llm-cluster-node.gpuplan.yaml", catalog)
    plan = plan.model_copy(update={"checklist": {"ram": ChecklistMark(note="内存条 KF556C40BB-32 已逐条核对。" * 300)}})
    pdf = render_checklist_pdf(plan, catalog, findings=[], lang="zh")
    total = len(PdfReader(io.BytesIO(pdf)).pages)
    assert total >= 3
    dialog = PrintPreviewDialog(pdf, "Print preview")
    printer = QPrinter(QPrinter.PrinterMode.HighResolution)
    printer.setResolution(1200)
    printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
    out = tmp_path / "printed.pdf"
    printer.setOutputFileName(str(out))
    printer.setPrintRange(QPrinter.PrintRange.PageRange)
    printer.setFromTo(2, 3)
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    start = time.perf_counter()
    assert dialog.print_to(printer) == 2
    elapsed = time.perf_counter() - start
    grown_mib = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - rss_before) / 1024
    printed = PdfReader(str(out))
    assert len(printed.pages) == 2  # the range is honoured
    text = "".join(p.extract_text() for p in printed.pages)
    assert "第 2 页，共" in text and "第 3 页，共" in text and "第 1 页" not in text  # a text layer, pages 2-3
    assert "/Subtype /Image" not in out.read_bytes().decode("latin-1")
    assert elapsed < 1.0 and grown_mib < 200, (elapsed, grown_mib)
    dialog.deleteLater()


def test_export_quote_takes_the_price_still_being_typed(page, qtbot, ctl, tmp_path, monkeypatch, priced_catalog):
    """The buyer types the CPU's price and exports with File ▸ Export (the editor still open, no Return): the
    quote carries that price and is a complete quote, not a request for quotation without it."""
    (_, _), (cpu, _), _ = _chosen(priced_catalog)
    names = [page.table.item(r, 1).text() for r in range(page.table.rowCount())]
    row = names.index(cpu.name)
    page.table.setFocus()
    page.table.setCurrentCell(row, 4)
    qtbot.keyClick(page.table, Qt.Key.Key_F2)
    editor = page.table.focusWidget()
    assert editor is not None and editor is not page.table
    editor.selectAll() if hasattr(editor, "selectAll") else None
    qtbot.keyClicks(editor, "4321.50")
    target = tmp_path / "typed.pdf"
    monkeypatch.setattr(workers, "ask_export_path", lambda *a: target)
    with qtbot.waitSignal(page.work_done, timeout=20_000):
        assert page.export_pdf() is not None  # what the File menu calls
    assert ctl.plan.prices[cpu.id].price_cny == 4321.5
    text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(target.read_bytes())).pages)
    assert "¥4,321.50" in text and "¥8,643.00" in text  # 2 CPUs × the typed price, to the fen
    assert "Request for quotation" not in text and "(lower bound, not a total)" not in text

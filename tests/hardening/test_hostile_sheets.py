"""Hostile price files: every XLSX or CSV the importer is given is read within 200 MB and 10 s, or refused with
the file, row and column named (PriceFileError), never a traceback, never a hang on a FIFO."""

from __future__ import annotations

import io
import os
import struct
import threading
import time
import tracemalloc
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from procurement.pricing import sheets
from procurement.pricing.import_prices import PriceFileError, read_prices

PEAK_BOUND_B = 200 * 1024 * 1024
SECONDS_BOUND = 10.0

_CT = ('<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/'
       'content-types"/>')
_RELS = ('<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
         '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/'
         'officeDocument" Target="xl/workbook.xml"/></Relationships>')
_WB = ('<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
       'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>'
       '<sheet name="报价" sheetId="1" r:id="rId1"/></sheets></workbook>')
_WB_RELS = ('<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
            '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/'
            'worksheet" Target="worksheets/sheet1.xml"/>'
            '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/'
            'sharedStrings" Target="sharedStrings.xml"/>'
            '<Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/'
            'styles" Target="styles.xml"/></Relationships>')
_STYLES = ('<?xml version="1.0"?><styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
           '<cellXfs count="2"><xf numFmtId="0"/><xf numFmtId="14"/></cellXfs></styleSheet>')
_MAIN = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
HEADER = ('<row r="1"><c r="A1" t="inlineStr"><is><t>型号</t></is></c>'
          '<c r="B1" t="inlineStr"><is><t>单价</t></is></c></row>')


def sheet_xml(rows: str, header: str = HEADER) -> str:
    return f'<?xml version="1.0"?><worksheet {_MAIN}><sheetData>{header}{rows}</sheetData></worksheet>'


def xlsx(sheet: str | bytes, shared: str | bytes = f'<sst {_MAIN}></sst>', styles: str | bytes = _STYLES,
         level: int = 6) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED, compresslevel=level) as z:
        z.writestr("[Content_Types].xml", _CT)
        z.writestr("_rels/.rels", _RELS)
        z.writestr("xl/workbook.xml", _WB)
        z.writestr("xl/_rels/workbook.xml.rels", _WB_RELS)
        z.writestr("xl/styles.xml", styles)
        z.writestr("xl/sharedStrings.xml", shared)
        z.writestr("xl/worksheets/sheet1.xml", sheet)
    return buf.getvalue()


def declare_size(data: bytes, member: str, size: int) -> bytes:
    """The archive with ``member``'s uncompressed size in the central directory (and local header) forged."""
    out = bytearray(data)
    name = member.encode()
    at = out.find(b"PK\x01\x02" + b"")
    while at != -1:
        n = struct.unpack_from("<H", out, at + 28)[0]
        if bytes(out[at + 46:at + 46 + n]) == name:
            struct.pack_into("<I", out, at + 24, size)
            local = struct.unpack_from("<I", out, at + 42)[0]
            struct.pack_into("<I", out, local + 22, size)
        at = out.find(b"PK\x01\x02", at + 4)
    return bytes(out)


def bounded(fn: Callable[[], Any]) -> tuple[Any, int, float]:
    tracemalloc.start()
    start = time.perf_counter()
    try:
        try:
            result: Any = fn()
        except PriceFileError as exc:
            result = exc
        return result, tracemalloc.get_traced_memory()[1], time.perf_counter() - start
    finally:
        tracemalloc.stop()


def read(tmp_path: Path, data: bytes, name: str = "quote.xlsx") -> Any:
    path = tmp_path / name
    path.write_bytes(data)
    return read_prices(path, [])


def refused(tmp_path: Path, data: bytes, *words: str, name: str = "quote.xlsx") -> PriceFileError:
    path = tmp_path / name
    path.write_bytes(data)
    result, peak, seconds = bounded(lambda: read_prices(path, []))
    assert isinstance(result, PriceFileError), result
    text = result.message("en")
    assert text.startswith(name), text
    for word in words:
        assert word in text, text
    assert peak < PEAK_BOUND_B and seconds < SECONDS_BOUND, (peak, seconds)
    return result


def test_a_plain_sheet_reads(tmp_path: Path) -> None:
    rows = ('<row r="2"><c r="A2" t="inlineStr"><is><t>RTX 4090</t></is></c><c r="B2"><v>12999.5</v></c>'
            '<c r="C2" s="1"><v>46000</v></c></row>')
    found = read(tmp_path, xlsx(sheet_xml(rows)))
    assert found.sheet == "报价"
    lines = [(line.row, line.part_text, str(line.unit_price_cny)) for line in found.lines]
    assert lines == [(2, "RTX 4090", "12999.5")]


# -- refused before decompressing: the archive's declared sizes -----------------------------------------------

def test_4_gib_of_whitespace_is_refused_by_its_declared_size(tmp_path: Path) -> None:
    """openpyxl inflated it: MemoryError at a 4 GB cap. The member's declared size refuses it unread."""
    data = declare_size(xlsx(sheet_xml("")), "xl/worksheets/sheet1.xml", 0xFFFF_FFFF)
    refused(tmp_path, data, "declares 4,294,967,295 bytes", "before decompressing", "sheet1.xml")


def test_a_member_that_lies_about_its_size_is_a_broken_file_not_a_bomb(tmp_path: Path) -> None:
    """zipfile never inflates past the declared size: 80 MB of whitespace declared as 1 KB is a CRC error."""
    data = declare_size(xlsx(sheet_xml(" " * 80_000_000), level=9), "xl/worksheets/sheet1.xml", 1000)
    assert len(data) < 200_000
    refused(tmp_path, data, "sheet1.xml")


def test_whitespace_at_the_member_cap_reads_within_the_bounds(tmp_path: Path) -> None:
    """The cap itself (64 MB of whitespace in one sheet, a 64 KB file) is parsed within 200 MB and 10 s."""
    data = xlsx(sheet_xml("<row r='2'>" + " " * (sheets.DEFAULT.member_bytes - 1000) + "</row>"), level=9)
    result, peak, seconds = bounded(lambda: read(tmp_path, data))
    assert result.lines == ()  # the header, then one row of whitespace
    assert peak < PEAK_BOUND_B and seconds < SECONDS_BOUND, (peak, seconds)


# -- streaming caps: shared strings, rows, cells, cell length ---------------------------------------------------

def test_too_many_shared_strings_are_refused_as_they_stream() -> None:
    """20 M shared strings took > 120 s and 2.9 GB; the count cap stops the parse at the first one over (the
    default cap, 500,000, measured 3.9 s and 4 MiB under tracemalloc on the loaded 2-core machine)."""
    shared = f'<sst {_MAIN}>' + "<si><t>x</t></si>" * 1001 + "</sst>"
    with pytest.raises(sheets.SheetError, match="more than 1,000 shared strings") as raised:
        sheets.xlsx_rows(xlsx(sheet_xml(""), shared=shared), limits=sheets.Limits(shared_strings=1000))
    assert raised.value.part == "xl/sharedStrings.xml"
    assert sheets.DEFAULT.shared_strings == 500_000


def test_a_1_gib_cell_is_refused_at_excels_cell_limit(tmp_path: Path) -> None:
    big = "9" * 40_000
    refused(tmp_path, xlsx(sheet_xml(f'<row r="2"><c r="A2" t="inlineStr"><is><t>{big}</t></is></c></row>')),
            "row 2", "column A", "32,767 characters")
    shared = f'<sst {_MAIN}><si><t>{big}</t></si></sst>'
    refused(tmp_path, xlsx(sheet_xml(""), shared=shared), "shared string 1", "32,767")


def test_10_million_empty_rows_are_refused_at_the_row_cap(tmp_path: Path) -> None:
    """10 M empty rows: 1.07 GB and 57 s with openpyxl; the row-element cap ends the parse (the default cap,
    100,000, measured 1.1 s and 1 MiB)."""
    rows = "".join(f'<row r="{n}"/>' for n in range(2, 1003))
    with pytest.raises(sheets.SheetError, match="more than 1,000 rows"):
        list(sheets.xlsx_rows(xlsx(sheet_xml(rows)), limits=sheets.Limits(rows=1000))[2])
    refused(tmp_path, xlsx(sheet_xml('<row r="2"/>' * 2)), "bad row number '2' (after row 2)")


def test_too_many_cells_are_refused(tmp_path: Path) -> None:
    limits = sheets.Limits(cells=1000)
    cells = "".join(f'<c r="{sheets_col(n)}2"><v>1</v></c>' for n in range(1, 1100))
    with pytest.raises(sheets.SheetError, match="more than 1,000 cells"):
        list(sheets.xlsx_rows(xlsx(sheet_xml(f'<row r="2">{cells}</row>')), limits=limits)[2])


def sheets_col(n: int) -> str:
    letters = ""
    while n:
        n, rest = divmod(n - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


def test_a_doctype_is_refused(tmp_path: Path) -> None:
    laughs = ('<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]>'
              f'<sst {_MAIN}><si><t>&lol2;</t></si></sst>')
    refused(tmp_path, xlsx(sheet_xml(""), shared=laughs), "DOCTYPE")


def test_the_time_limit_ends_a_slow_parse() -> None:
    rows = "".join(f'<row r="{n}"><c r="A{n}"><v>1</v></c></row>' for n in range(2, 60_000))
    with pytest.raises(sheets.SheetError, match="took longer than"):
        list(sheets.xlsx_rows(xlsx(sheet_xml(rows)), limits=sheets.Limits(seconds=0.0))[2])


# -- malformed cells: the tracebacks, each a located error -----------------------------------------------

@pytest.mark.parametrize(("cell", "words"), [
    ('<c r="B2"><v>12,9x</v></c>', ("row 2", "column B", "is not a number")),
    ('<c r="B2"><v>NaN</v></c>', ("row 2", "column B", "not a number")),
    ('<c r="B2"><v>inf</v></c>', ("row 2", "column B", "not a number")),
    ('<c r="B2"><v>1e999</v></c>', ("row 2", "column B", "not a finite number")),
    ('<c r="ZZZZ2"><v>1</v></c>', ("row 2", "bad cell reference")),
    ('<c r="B3"><v>1</v></c>', ("row 2", "bad cell reference 'B3'")),
    ('<c r="B2" t="d"><v>yesterday</v></c>', ("row 2", "column B", "is not a date")),
    ('<c r="B2" s="1"><v>-5</v></c>', ("row 2", "column B", "not a date serial")),
    ('<c r="B2" s="1"><v>99999999</v></c>', ("row 2", "column B", "not a date serial")),
    ('<c r="B2" t="s"><v>7</v></c>', ("row 2", "column B", "shared string '7' does not exist")),
    ('<c r="B2" t="b"><v>maybe</v></c>', ("row 2", "column B", "true/false")),
    ('<c r="B2" t="zz"><v>1</v></c>', ("row 2", "column B", "unknown cell type")),
    ('<c r="B2" s="x"><v>1</v></c>', ("row 2", "column B", "style 'x'")),
])
def test_a_malformed_cell_is_located(tmp_path: Path, cell: str, words: tuple[str, ...]) -> None:
    row = f'<row r="2"><c r="A2" t="inlineStr"><is><t>RTX 4090</t></is></c>{cell}</row>'
    refused(tmp_path, xlsx(sheet_xml(row)), *words)


@pytest.mark.parametrize("row", ['<row r="-3"/>', '<row r="1"/>', '<row r="x"/>', '<row r="2000000"/>'])
def test_a_bad_row_number_is_located(tmp_path: Path, row: str) -> None:
    refused(tmp_path, xlsx(sheet_xml(row)), "bad row number")


def test_truncated_xml_and_broken_styles_are_located(tmp_path: Path) -> None:
    refused(tmp_path, xlsx(sheet_xml('<row r="2"><c r="A2"><v>1</v></c></row>')[:-40]), "sheet1.xml",
            "broken XML (line 1")
    refused(tmp_path, xlsx(sheet_xml(""), styles="<styleSheet><cellXfs><xf"), "styles.xml", "broken XML")
    bad_fmt = f'<styleSheet {_MAIN}><cellXfs><xf numFmtId="fourteen"/></cellXfs></styleSheet>'
    refused(tmp_path, xlsx(sheet_xml(""), styles=bad_fmt), "styles.xml", "'fourteen' is not a number")
    refused(tmp_path, b"PK\x03\x04 not really a zip", "not a zip archive")


def test_a_date_cell_reads_as_a_date(tmp_path: Path) -> None:
    header = HEADER.replace("</row>", '<c r="C1" t="inlineStr"><is><t>日期</t></is></c></row>')
    rows = ('<row r="2"><c r="A2" t="inlineStr"><is><t>x</t></is></c><c r="B2"><v>10</v></c>'
            '<c r="C2" s="1"><v>46000</v></c></row>')
    found = read(tmp_path, xlsx(sheet_xml(rows, header)))
    assert str(found.lines[0].date) == "2025-12-09"  # Excel's serial 46000


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.binary(min_size=1, max_size=64), st.integers(min_value=0, max_value=10_000))
def test_any_corruption_of_an_xlsx_file_is_a_price_file_error(tmp_path: Path, junk: bytes, at: int) -> None:
    rows = ('<row r="2"><c r="A2" t="inlineStr"><is><t>RTX 4090</t></is></c><c r="B2"><v>12999.5</v></c></row>')
    data = bytearray(xlsx(sheet_xml(rows), level=0))
    at %= len(data)
    data[at:at + len(junk)] = junk
    try:
        read(tmp_path, bytes(data))
    except PriceFileError:
        pass


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(max_size=30), st.sampled_from(["n", "s", "b", "d", "e", "str", "inlineStr", ""]),
       st.text(max_size=8))
def test_any_cell_value_is_read_or_located(tmp_path: Path, value: str, kind: str, ref: str) -> None:
    from xml.sax.saxutils import escape, quoteattr

    text = escape("".join(ch for ch in value if ch.isprintable()))
    cell = f'<c r={quoteattr(ref or "B2")} t="{kind}"><v>{text}</v></c>'
    row = f'<row r="2"><c r="A2" t="inlineStr"><is><t>RTX</t></is></c>{cell}</row>'
    try:
        read(tmp_path, xlsx(sheet_xml(row)))
    except PriceFileError as exc:
        assert exc.message("en").startswith("quote.xlsx")


# -- CSV: line, record and field caps ------------------------------------------------------------------------

def test_a_csv_near_the_file_cap_stays_within_the_bounds(tmp_path: Path) -> None:
    """CSVs near the 32 MiB limit peaked at 240–534 MB: one line of 32 M commas, millions of empty lines."""
    commas = b"part,price\n" + b"," * (31 * 1024 * 1024)
    refused(tmp_path, commas, "row 2", "longer than 65,536 characters", name="prices.csv")
    blank = b"part,price\n" + b"\n" * (31 * 1024 * 1024)
    refused(tmp_path, blank, "100,000 lines", name="prices.csv")
    wide = b"part,price\n" + (b"x" * 60_000 + b"\n") * 500
    _, peak, seconds = bounded(lambda: read(tmp_path, wide, "prices.csv"))
    assert peak < PEAK_BOUND_B and seconds < SECONDS_BOUND, (peak, seconds)


def test_a_csv_field_over_the_csv_limit_is_located(tmp_path: Path) -> None:
    data = b'part,price\n"' + b"x\n" * 70_000 + b'",1\n'
    refused(tmp_path, data, "row", "field larger than field limit", name="prices.csv")


def test_gbk_csv_still_reads(tmp_path: Path) -> None:
    found = read(tmp_path, "型号,单价\nRTX 4090,12999\n".encode("gb18030"), "prices.csv")
    assert [line.part_text for line in found.lines] == ["RTX 4090"]


# -- not a regular file ------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["prices.csv", "quote.xlsx"])
def test_a_fifo_or_device_is_refused_without_reading(tmp_path: Path, name: str) -> None:
    fifo = tmp_path / name
    os.mkfifo(fifo)
    done: list[Any] = []
    worker = threading.Thread(target=lambda: done.append(bounded(lambda: read_prices(fifo, []))), daemon=True)
    worker.start()
    worker.join(5)
    assert done, "read_prices hung on a FIFO with no writer"
    assert isinstance(done[0][0], PriceFileError) and "FIFO" in str(done[0][0])
    with pytest.raises(PriceFileError, match="character device"):
        _read_device(tmp_path, name)


def _read_device(tmp_path: Path, name: str) -> None:
    link = tmp_path / ("zero-" + name)
    link.symlink_to("/dev/zero")
    read_prices(link, [])

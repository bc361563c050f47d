"""Bounded readers of price files: the rows of a CSV or XLSX file, every cost capped before it is paid.

An XLSX file is a zip of XML files, so a 4 MB file can hold 4 GiB of whitespace, 20 million shared strings, a
1 GiB cell or 10 million empty rows; openpyxl reads each of them whole (MemoryError, minutes). This reader:

- takes the bytes from the one bounded reader (regular files only, ``MAX_FILE_BYTES``), never a FIFO or device;
- refuses the archive *before decompressing anything* when its directory declares a member or a total larger
  than the limits below (zipfile never inflates more than a member's declared size: a member that lies is a
  CRC error, reported as a broken file);
- parses the workbook, shared strings, styles and the one sheet with expat, streamed in 64 KiB pieces, and
  stops at the first of: too many shared strings, too many rows or cells, a cell longer than Excel allows,
  a DOCTYPE (entities), or its time limit;
- turns every malformed cell (a number that is none, NaN, infinity, a bad cell reference, a negative or
  decreasing row, a date serial out of range, truncated XML) into a :class:`SheetError` with the member, the
  row and the column, never a traceback.

CSV: decoded incrementally (UTF-8, else GB18030), each physical line at most ``MAX_LINE_CHARS`` characters
(so a row can hold no more fields than that), at most ``MAX_RECORDS`` records counted with the empty ones, and
fields at most csv's own limit (131,072 characters).

Every limit is a keyword argument (:class:`Limits`), so the tests run each hostile input at a small cap.
"""

from __future__ import annotations

import codecs
import csv
import datetime as dt
import io
import math
import re
import time
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any
from xml.parsers import expat

from procurement.safe_io import InputFileError, read_bounded

__all__ = ["Limits", "SheetError", "csv_rows", "read_file", "xlsx_rows"]


@dataclass(frozen=True)
class Limits:
    """What one price file may cost. The defaults keep any input under 200 MB and 10 s (tests/hardening)."""

    file_bytes: int = 32 * 1024 * 1024
    member_bytes: int = 64 * 1024 * 1024
    """Declared uncompressed size of one XML member (a 20,000-line sheet is about 10 MB)."""
    total_bytes: int = 160 * 1024 * 1024
    """Declared uncompressed size of the members read, together."""
    members: int = 10_000
    shared_strings: int = 500_000
    rows: int = 100_000
    """Row elements of the sheet, empty ones included (the importer reads at most 20,000 lines)."""
    cells: int = 2_000_000
    cell_chars: int = 32_767
    """Excel's own limit of characters in one cell."""
    styles: int = 65_000
    seconds: float = 10.0
    line_chars: int = 64 * 1024
    """One physical CSV line."""
    records: int = 100_000
    """CSV records, empty lines included."""


DEFAULT = Limits()


class SheetError(ValueError):
    """A price file this reader refuses: ``reason`` in words; ``part`` the archive member; ``row`` and ``column``
    (1-based) where known."""

    def __init__(self, reason: str, *, part: str = "", row: int | None = None, column: int | None = None) -> None:
        self.reason, self.part, self.row, self.column = reason, part, row, column
        where = ", ".join(x for x in (part, f"row {row}" if row else "", f"column {column}" if column else "") if x)
        super().__init__(f"{where}: {reason}" if where else reason)


def read_file(path: Any, limits: Limits = DEFAULT) -> bytes:
    """The bytes of a price file: the one bounded reader (regular files only, at most ``limits.file_bytes``)."""
    try:
        return read_bounded(path, limits.file_bytes)
    except InputFileError as exc:
        raise SheetError(str(exc.strerror)) from None
    except OSError as exc:
        raise SheetError(f"cannot be read: {exc.strerror or exc}") from None


# ---------------------------------------------------------------------------------------------------- CSV

def _decoder_for(data: bytes) -> str:
    """utf-8-sig when the whole file is UTF-8, else gb18030 (checked incrementally: no full decoded copy)."""
    for encoding in ("utf-8-sig", "gb18030"):
        dec = codecs.getincrementaldecoder(encoding)()
        try:
            for start in range(0, len(data), 1 << 20):
                dec.decode(data[start:start + (1 << 20)])
            dec.decode(b"", final=True)
        except UnicodeDecodeError:
            continue
        return encoding
    raise SheetError("is neither UTF-8 nor GBK text")


def csv_rows(data: bytes, *, tab: bool = False, limits: Limits = DEFAULT) -> Iterator[tuple[int, list[str]]]:
    """(record number, fields) of CSV ``data``; SheetError for a line, record count or field over its cap, or
    for text that is neither UTF-8 nor GB18030. Memory: the bytes plus one line."""
    encoding = _decoder_for(data)
    text = io.TextIOWrapper(io.BytesIO(data), encoding=encoding, newline="")
    sample = text.read(8192)
    text.seek(0)
    try:
        dialect: Any = csv.Sniffer().sniff(sample, delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel_tab if tab else csv.excel
    line_number = 0

    def lines() -> Iterator[str]:
        nonlocal line_number
        while True:
            line = text.readline(limits.line_chars + 1)
            if not line:
                return
            line_number += 1
            if len(line) > limits.line_chars:
                raise SheetError(f"a line longer than {limits.line_chars:,} characters: not a price list",
                                 row=line_number)
            yield line

    reader = csv.reader(lines(), dialect)
    deadline = time.monotonic() + limits.seconds
    number = 0
    try:
        for number, row in enumerate(reader, 1):
            if number > limits.records:
                raise SheetError(f"more than {limits.records:,} lines: not a price list", row=line_number)
            if number % 1024 == 0 and time.monotonic() > deadline:
                raise SheetError(f"took longer than {limits.seconds:g} s to read", row=line_number)
            yield number, row
    except csv.Error as exc:
        raise SheetError(str(exc), row=reader.line_num) from None


# ---------------------------------------------------------------------------------------------------- XLSX

_NS_MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
_NS_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_NS_PKG = "http://schemas.openxmlformats.org/package/2006/relationships"
_OFFICE_DOC = _NS_REL + "/officeDocument"
_CELL_REF = re.compile(r"\A([A-Z]{1,3})([1-9][0-9]{0,6})\Z")
_NUMBER = re.compile(r"\A[-+]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]{1,3})?\Z")
_MAX_ROW = 1_048_576
_MAX_COL = 16_384
# number formats Excel builds in that show a date (and a time): ECMA-376 §18.8.30, and the CJK ones
_DATE_FORMAT_IDS = frozenset({14, 15, 16, 17, 22, 27, 28, 29, 30, 31, 34, 35, 36, 50, 51, 52, 53, 54, 57, 58})
_STRIP_FORMAT = re.compile(r'\[(?!(?:hh?|mm?|ss?)\])[^\]]*\]|"[^"]*"|\\.')
_DATE_CHARS = re.compile(r"(?<![_\\])[dmyhsDMYHS]")
_CHUNK = 64 * 1024


def is_date_format(code: str) -> bool:
    """Whether a custom number format shows a date or time (its first section, quoted text left out)."""
    return _DATE_CHARS.search(_STRIP_FORMAT.sub("", code.split(";")[0])) is not None


def _column_number(letters: str) -> int:
    n = 0
    for ch in letters:
        n = n * 26 + ord(ch) - 64
    return n


class _Stop(Exception):
    """Raised inside an expat handler to end the parse with a SheetError."""

    def __init__(self, error: SheetError) -> None:
        self.error = error


class _Archive:
    def __init__(self, data: bytes, limits: Limits) -> None:
        self.limits = limits
        self.deadline = time.monotonic() + limits.seconds
        try:
            self.zip = zipfile.ZipFile(io.BytesIO(data))
        except Exception as exc:  # BadZipFile, struct.error, NotImplementedError… from a damaged directory
            raise SheetError(f"not an XLSX file (not a zip archive: {str(exc)[:120]})") from None
        infos = self.zip.infolist()
        if len(infos) > limits.members:
            raise SheetError(f"the archive holds {len(infos):,} files; an XLSX file holds far fewer")
        self.infos = {i.filename: i for i in infos}
        self.read_total = 0

    def has(self, name: str) -> bool:
        return name in self.infos

    def parse(self, name: str, start: Callable[[str, dict[str, str]], None],
              end: Callable[[str], None] | None = None, text: Callable[[str], None] | None = None) -> None:
        """Run the member ``name`` through expat with these handlers (names are 'namespace local')."""
        for _ in self.stream(name, start, end, text):
            pass

    def stream(self, name: str, start: Callable[[str, dict[str, str]], None],
               end: Callable[[str], None] | None = None, text: Callable[[str], None] | None = None
               ) -> Iterator[None]:
        """:meth:`parse`, yielding after each 64 KiB piece (so a caller can take what the handlers built)."""
        info = self.infos.get(name)
        if info is None:
            raise SheetError("missing from the archive", part=name)
        if info.file_size > self.limits.member_bytes:
            raise SheetError(f"declares {info.file_size:,} bytes uncompressed, over the limit of "
                             f"{self.limits.member_bytes:,} (refused before decompressing)", part=name)
        self.read_total += info.file_size
        if self.read_total > self.limits.total_bytes:
            raise SheetError(f"the parts read declare more than {self.limits.total_bytes:,} bytes uncompressed "
                             "(refused before decompressing)", part=name)
        parser = expat.ParserCreate(namespace_separator=" ")
        parser.buffer_text = True
        parser.buffer_size = _CHUNK

        def no_doctype(*_: object) -> None:
            raise _Stop(SheetError("has a DOCTYPE (entity declarations are not read)", part=name))

        parser.StartDoctypeDeclHandler = no_doctype
        parser.EntityDeclHandler = no_doctype
        parser.StartElementHandler = start
        if end is not None:
            parser.EndElementHandler = end
        if text is not None:
            parser.CharacterDataHandler = text
        try:
            with self.zip.open(info) as fh:
                while True:
                    chunk = fh.read(_CHUNK)
                    if time.monotonic() > self.deadline:
                        raise SheetError(f"took longer than {self.limits.seconds:g} s to read", part=name)
                    parser.Parse(chunk, not chunk)
                    yield
                    if not chunk:
                        break
        except _Stop as stop:
            raise stop.error from None
        except SheetError:
            raise
        except expat.ExpatError as exc:
            raise SheetError(f"broken XML (line {exc.lineno}, column {exc.offset}: "
                             f"{expat.ErrorString(exc.code)})", part=name) from None
        except Exception as exc:  # zipfile raises BadZipFile, zlib.error, struct.error, EOFError,
            # NotImplementedError (an unknown compression method), RuntimeError (encrypted)… on a damaged archive
            raise SheetError(f"cannot be unpacked ({type(exc).__name__}: {str(exc)[:120]})", part=name) from None


def _resolve(base: str, target: str) -> str:
    if target.startswith("/"):
        return target.lstrip("/")
    parts: list[str] = []
    for piece in (PurePosixPath(base).parent / target).parts:
        if piece == "..":
            if parts:
                parts.pop()
        elif piece != ".":
            parts.append(piece)
    return "/".join(parts)


def _rels(archive: _Archive, part: str) -> dict[str, tuple[str, str]]:
    """Id → (type, resolved target) of the relationships of ``part``."""
    folder, _, name = part.rpartition("/")
    rels_name = f"{folder}/_rels/{name}.rels" if folder else f"_rels/{name}.rels"
    found: dict[str, tuple[str, str]] = {}
    if not archive.has(rels_name):
        return found

    def start(tag: str, attrs: dict[str, str]) -> None:
        if tag == f"{_NS_PKG} Relationship" and attrs.get("TargetMode") != "External":
            if len(found) > archive.limits.members:
                raise _Stop(SheetError("too many relationships", part=rels_name))
            found[attrs.get("Id", "")] = (attrs.get("Type", ""), _resolve(part, attrs.get("Target", "")))

    archive.parse(rels_name, start)
    return found


@dataclass
class _Book:
    sheets: list[tuple[str, str]]
    """(name, member) in workbook order."""
    date1904: bool
    shared: list[str]
    date_styles: list[bool]
    """Per cell style index: whether its number format shows a date."""


def _workbook(archive: _Archive) -> _Book:
    root = next((target for kind, target in _rels(archive, "").values() if kind == _OFFICE_DOC), "xl/workbook.xml")
    names: list[tuple[str, str]] = []
    date1904 = [False]

    def start(tag: str, attrs: dict[str, str]) -> None:
        if tag == f"{_NS_MAIN} sheet":
            names.append((attrs.get("name", ""), attrs.get(f"{_NS_REL} id", "")))
        elif tag == f"{_NS_MAIN} workbookPr":
            date1904[0] = attrs.get("date1904", "").lower() in ("1", "true")

    archive.parse(root, start)
    rels = _rels(archive, root)
    sheets = [(name, rels[rid][1]) for name, rid in names if rid in rels]
    shared_part = next((target for kind, target in rels.values() if kind.endswith("/sharedStrings")), None)
    styles_part = next((target for kind, target in rels.values() if kind.endswith("/styles")), None)
    shared = _shared_strings(archive, shared_part) if shared_part and archive.has(shared_part) else []
    styles = _date_styles(archive, styles_part) if styles_part and archive.has(styles_part) else []
    return _Book(sheets, date1904[0], shared, styles)


def _shared_strings(archive: _Archive, part: str) -> list[str]:
    limits = archive.limits
    strings: list[str] = []
    pieces: list[str] = []
    length = 0
    depth = {"t": 0, "rPh": 0}
    si, t_tag, rph = f"{_NS_MAIN} si", f"{_NS_MAIN} t", f"{_NS_MAIN} rPh"

    def start(tag: str, attrs: dict[str, str]) -> None:
        nonlocal length
        if tag == si:
            if len(strings) >= limits.shared_strings:
                raise _Stop(SheetError(f"more than {limits.shared_strings:,} shared strings: not a price list",
                                       part=part))
            pieces.clear()
            length = 0
        elif tag == t_tag:
            depth["t"] += 1
        elif tag == rph:
            depth["rPh"] += 1

    def end(tag: str) -> None:
        if tag == si:
            strings.append("".join(pieces))
        elif tag == t_tag:
            depth["t"] -= 1
        elif tag == rph:
            depth["rPh"] -= 1

    def text(data: str) -> None:
        nonlocal length
        if depth["t"] and not depth["rPh"]:  # phonetic guides (rPh) are not the cell's text
            length += len(data)
            if length > limits.cell_chars:
                raise _Stop(SheetError(f"shared string {len(strings) + 1:,} is longer than {limits.cell_chars:,} "
                                       "characters", part=part))
            pieces.append(data)

    archive.parse(part, start, end, text)
    return strings


def _date_styles(archive: _Archive, part: str) -> list[bool]:
    limits = archive.limits
    custom: dict[int, bool] = {}
    xfs: list[bool] = []
    inside = [0]
    num_fmt, xf, cell_xfs = f"{_NS_MAIN} numFmt", f"{_NS_MAIN} xf", f"{_NS_MAIN} cellXfs"

    def start(tag: str, attrs: dict[str, str]) -> None:
        if tag == num_fmt:
            if len(custom) > limits.styles:
                raise _Stop(SheetError(f"more than {limits.styles:,} number formats", part=part))
            try:
                custom[int(attrs.get("numFmtId", ""))] = is_date_format(attrs.get("formatCode", ""))
            except ValueError:
                raise _Stop(SheetError(f"number format id {attrs.get('numFmtId', '')[:20]!r} is not a number",
                                       part=part)) from None
        elif tag == cell_xfs:
            inside[0] += 1
        elif tag == xf and inside[0]:
            if len(xfs) > limits.styles:
                raise _Stop(SheetError(f"more than {limits.styles:,} cell styles", part=part))
            try:
                fmt = int(attrs.get("numFmtId", "0"))
            except ValueError:
                raise _Stop(SheetError(f"cell style {len(xfs)}: number format id "
                                       f"{attrs.get('numFmtId', '')[:20]!r} is not a number", part=part)) from None
            xfs.append(custom.get(fmt, fmt in _DATE_FORMAT_IDS))

    def end(tag: str) -> None:
        if tag == cell_xfs:
            inside[0] -= 1

    archive.parse(part, start, end)
    return xfs


def _from_serial(serial: float, date1904: bool) -> dt.datetime:
    if date1904:
        base = dt.datetime(1904, 1, 1)
    elif serial < 60:
        base = dt.datetime(1899, 12, 31)  # before Excel's phantom 1900-02-29
    else:
        base = dt.datetime(1899, 12, 30)
    return base + dt.timedelta(days=serial)


class _SheetParser:
    """Streams one worksheet into rows of at most ``max_col`` values."""

    def __init__(self, book: _Book, part: str, max_col: int, limits: Limits) -> None:
        self.book, self.part, self.max_col, self.limits = book, part, max_col, limits
        self.rows: list[tuple[int, list[object]]] = []
        self.row_count = 0
        self.cell_count = 0
        self.row = 0
        self.last_row = 0
        self.values: list[object] = []
        self.cell: tuple[int, str, int] | None = None  # column, type, style
        self.col = 0
        self.pieces: list[str] = []
        self.length = 0
        self.collect = 0  # inside <v> or <is><t>
        self.in_is = 0

    def error(self, reason: str, column: int | None = None) -> _Stop:
        return _Stop(SheetError(reason, part=self.part, row=self.row or None, column=column))

    def start(self, tag: str, attrs: dict[str, str]) -> None:
        if not tag.startswith(_NS_MAIN):
            return
        local = tag[len(_NS_MAIN) + 1:]
        if local == "c":
            self.cell_count += 1
            if self.cell_count > self.limits.cells:
                raise self.error(f"more than {self.limits.cells:,} cells: not a price list")
            ref = attrs.get("r")
            if ref is None:
                col = self.col + 1
            else:
                m = _CELL_REF.match(ref)
                if m is None or int(m[2]) != self.row:
                    raise self.error(f"bad cell reference {ref[:20]!r} in row {self.row}", self.col + 1)
                col = _column_number(m[1])
            if not 0 < col <= _MAX_COL or col <= self.col:
                raise self.error(f"bad cell reference {str(ref)[:20]!r} (column out of order)", col)
            try:
                style = int(attrs.get("s", "0"))
            except ValueError:
                raise self.error(f"style {attrs.get('s', '')[:20]!r} is not a number", col) from None
            self.col = col
            self.cell = (col, attrs.get("t", "n"), style)
            self.pieces.clear()
            self.length = 0
        elif local == "row":
            self.row_count += 1
            if self.row_count > self.limits.rows:
                raise self.error(f"more than {self.limits.rows:,} rows: not a price list")
            ref = attrs.get("r")
            try:
                number = int(ref) if ref is not None else self.last_row + 1
            except ValueError:
                number = -1
            if not self.last_row < number <= _MAX_ROW:
                raise _Stop(SheetError(f"bad row number {str(ref)[:20]!r} (after row {self.last_row})",
                                       part=self.part))
            self.row = self.last_row = number
            self.values = []
            self.col = 0
        elif local == "v" and self.cell is not None:
            self.collect += 1
        elif local == "is":
            self.in_is += 1
        elif local == "t" and self.in_is and self.cell is not None:
            self.collect += 1
        elif local == "rPh":
            self.collect -= 1_000_000  # phonetic guides are not text

    def end(self, tag: str) -> None:
        if not tag.startswith(_NS_MAIN):
            return
        local = tag[len(_NS_MAIN) + 1:]
        if local == "c" and self.cell is not None:
            col, kind, style = self.cell
            self.cell = None
            if col <= self.max_col:
                value = self.value(col, kind, style, "".join(self.pieces))
                if value is not None:
                    self.values.extend([None] * (col - 1 - len(self.values)))
                    self.values.append(value)
        elif local == "row":
            if self.values:
                self.rows.append((self.row, self.values))
            self.values = []
        elif local == "v" and self.collect:
            self.collect -= 1
        elif local == "is":
            self.in_is -= 1
        elif local == "t" and self.in_is and self.collect:
            self.collect -= 1
        elif local == "rPh":
            self.collect += 1_000_000

    def text(self, data: str) -> None:
        if self.collect > 0 and self.cell is not None:
            self.length += len(data)
            if self.length > self.limits.cell_chars:
                raise self.error(f"a cell longer than {self.limits.cell_chars:,} characters", self.cell[0])
            self.pieces.append(data)

    def value(self, col: int, kind: str, style: int, raw: str) -> object:
        if kind in ("str", "inlineStr", "e"):
            return raw
        if raw == "":
            return None
        if kind == "s":
            try:
                return self.book.shared[int(raw)]
            except (ValueError, IndexError):
                raise self.error(f"shared string {raw[:20]!r} does not exist", col) from None
        if kind == "b":
            if raw not in ("0", "1"):
                raise self.error(f"{raw[:20]!r} is not a true/false value", col)
            return raw == "1"
        if kind == "d":
            try:
                return dt.datetime.fromisoformat(raw.strip().rstrip("Z"))
            except ValueError:
                raise self.error(f"{raw[:40]!r} is not a date", col) from None
        if kind != "n":
            raise self.error(f"unknown cell type {kind[:20]!r}", col)
        text = raw.strip()
        if _NUMBER.match(text) is None:
            raise self.error(f"{raw[:40]!r} is not a number", col)
        number = float(text)
        if not math.isfinite(number):
            raise self.error(f"{raw[:40]!r} is not a finite number", col)
        if 0 <= style < len(self.book.date_styles) and self.book.date_styles[style]:
            try:
                if number < 0:
                    raise ValueError
                return _from_serial(number, self.book.date1904)
            except (ValueError, OverflowError):
                raise self.error(f"{raw[:40]!r} is not a date serial number", col) from None
        return int(number) if number.is_integer() and "." not in text and "e" not in text.lower() else number


def xlsx_rows(data: bytes, sheet: str | None = None, *, max_col: int = 40,
              limits: Limits = DEFAULT) -> tuple[str, list[str], Iterator[tuple[int, list[object]]]]:
    """(sheet title, every sheet name, the rows) of XLSX ``data``: each row is (row number, the values of its
    first ``max_col`` columns), empty rows left out, parsed as they are taken. ``sheet`` None is the first
    sheet. SheetError for anything refused (an unknown sheet: ``reason`` starts with 'no sheet named')."""
    archive = _Archive(data, limits)
    book = _workbook(archive)
    if not book.sheets:
        raise SheetError("the workbook lists no sheet")
    names = [name for name, _ in book.sheets]
    if sheet is None:
        title, part = book.sheets[0]
    else:
        found = [(n, p) for n, p in book.sheets if n == sheet]
        if not found:
            raise SheetError(f"no sheet named {sheet!r}")
        title, part = found[0]
    parser = _SheetParser(book, part, max_col, limits)

    def rows() -> Iterator[tuple[int, list[object]]]:
        for _ in archive.stream(part, parser.start, parser.end, parser.text):
            yield from parser.rows
            parser.rows.clear()

    return title, names, rows()

"""Read a company price list or a vendor's quote (CSV or XLSX) and match its lines to the plan's parts.

The reader guesses which column is which from the header names (Chinese and English), parses every price,
quantity and date with the file, sheet, row and column named in any error, and matches each line to one of
the plan's parts (by part id, by exact model name or model code, then by the tokens of the model name) with
a confidence. Nothing is changed here: the caller shows the matches, the buyer confirms them, and
``PriceImport.apply`` returns a new plan with the confirmed prices (or the caller builds its own edit from
``entered_prices``). Lines that match no part (installation, shipping, a warranty extension) stay in the
result as extra lines.
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any, Literal

from catalog.loader import Catalog
from catalog.models import Part
from procurement.budgets.parts import resolve
from procurement.messages import Lang, plural, register, t
from procurement.plan import MAX_OFFER_LINES, EnteredPrice, Plan
from procurement.pricing import sheets

MAX_FILE_BYTES = 32 * 1024 * 1024
"""A price list of 20,000 lines is about 2 MB as XLSX, 1.5 MB as CSV: anything this large is not one."""
MAX_ROWS = 20_000
"""Data rows read at most (a plan holds at most 10,000 prices)."""
MAX_COLUMNS = 40
"""Columns read per row; a price list's columns are within the first few."""
HEADER_ROWS = 20
"""Rows searched for the header: a vendor's quote starts with a title, the parties and a date."""

Confidence = Literal["exact", "likely", "none"]
Field_ = Literal["part", "name", "spec", "price", "price_incl", "price_excl", "qty", "amount", "vat", "date",
                 "source"]
FIELDS: tuple[Field_, ...] = ("part", "name", "spec", "price", "price_incl", "price_excl", "qty", "amount",
                              "vat", "date", "source")

register({
    "prices.error.where": "{file}{sheet}, row {row}{column}: {message}",
    "prices.error.sheet": ", sheet '{sheet}'",
    "prices.error.column": ", column {letter} ({header})",
    "prices.error.not_number": "'{value}' is not a number",
    "prices.error.ambiguous_number": (
        "'{value}' is ambiguous: write the number with a point for decimals and commas only between groups of "
        "three digits (65,000.50)"
    ),
    "prices.error.negative": "the unit price {value} is negative and cannot be a part's price",
    "prices.error.too_large": "{value} is beyond any plausible price",
    "prices.error.not_date": "'{value}' is not a date (e.g. 2026-11-30)",
    "prices.error.not_flag": "'{value}' is not VAT included yes/no",
    "prices.error.no_header": (
        "no header in the first {rows} rows: a unit price column (单价, 含税单价, Unit price…) and a part number or "
        "model name column (型号, 品名, Part number, Model…) are needed"
    ),
    "prices.error.too_many_rows": "more than {limit} rows: not a price list this program reads",
    "prices.error.too_many_quote_lines": "more than {limit} lines: more than a plan keeps of one vendor's quote",
    "prices.imported": plural("{n} price imported from {file}", "{n} prices imported from {file}", "n"),
    "prices.error.too_big": "the file has {size} bytes, over the limit of {limit}",
    "prices.error.unreadable": "cannot be read: {reason}",
    "prices.error.encoding": "is neither UTF-8 nor GBK text",
    "prices.error.format": "only CSV and XLSX files can be imported (.csv, .tsv, .txt, .xlsx, .xlsm)",
    "prices.error.no_sheet": "has no sheet named '{name}'",
    "prices.error.mapping": "the column mapping names column {letter}, which the header does not have",
    "prices.reason.id": "same part id",
    "prices.reason.name": "same model name",
    "prices.reason.code": "same model code",
    "prices.reason.tokens": "model words agree ({score}%)",
    "prices.reason.ambiguous": "could be {first} or {second}",
    "prices.reason.duplicate": "same part as row {row}",
    "prices.reason.unpriced": "no unit price",
})


class PriceFileError(ValueError):
    """A price file that cannot be imported, with where: file, sheet, row and column (1-based) when known."""

    def __init__(self, file: Path, key: str, *, sheet: str | None = None, row: int | None = None,
                 column: int | None = None, header: str = "", **fields: object) -> None:
        self.file, self.key, self.sheet, self.row, self.column, self.header = file, key, sheet, row, column, header
        self.fields = fields
        super().__init__(self.message("en"))

    def message(self, lang: Lang = "en") -> str:
        text = t(self.key, lang, **self.fields)
        sheet = t("prices.error.sheet", lang, sheet=self.sheet) if self.sheet else ""
        if self.row is None:
            return f"{self.file.name}{sheet}: {text}"
        column = (t("prices.error.column", lang, letter=column_letter(self.column), header=self.header)
                  if self.column is not None else "")
        return t("prices.error.where", lang, file=self.file.name, sheet=sheet, row=self.row, column=column,
                 message=text)


def column_letter(index: int) -> str:
    """1 → A, 27 → AA: how a spreadsheet names a column."""
    letters = ""
    while index > 0:
        index, rest = divmod(index - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


# -- header names -------------------------------------------------------------------------------------------

def _norm_header(text: object) -> str:
    value = unicodedata.normalize("NFKC", str(text or "")).lower()
    return re.sub(r"[\s()\[\]{}（）【】/:：._\-*#№]+", "", value)


def guess_field(header: object) -> Field_ | None:
    """Which field a column holds, from its header (单价, 含税单价, 型号, Unit price, Part number…); None
    for a column the import does not use (单位, 备注…)."""
    h = _norm_header(header)
    if not h:
        return None
    pricey = "价" in h or "price" in h or "cost" in h
    if pricey and ("不含税" in h or "未税" in h or "除税" in h
                   or any(w in h for w in ("exvat", "exclvat", "excludingvat", "exclusivevat", "net", "withoutvat",
                                           "pretax", "beforetax"))):
        return "price_excl"
    if pricey and ("含税" in h or any(w in h for w in ("inclvat", "includingvat", "incvat", "withvat", "gross",
                                                          "inclusivevat", "aftertax", "taxincluded"))):
        return "price_incl"
    if "单价" in h or "unitprice" in h or "unitcost" in h or h in {"price", "报价", "价格", "单价元", "pricecny",
                                                                    "pricermb", "listprice", "单台价格"}:
        return "price"
    if any(w in h for w in ("金额", "总价", "合计", "小计", "amount", "total", "extended")):
        return "amount"
    if "数量" in h or h in {"qty", "quantity", "pcs", "count", "qtypcs", "数"} or h.startswith("qty"):
        return "qty"
    if h in {"含税", "是否含税", "含税否", "vat", "vatincluded", "inclvat", "includesvat", "taxincluded", "税",
             "含税是否"}:
        return "vat"
    if (any(w in h for w in ("型号", "料号", "物料编码", "物料号", "partnumber", "partno", "partid", "零件编号",
                             "modelno", "modelnumber", "modelname", "产品编码"))
            or h in {"pn", "mpn", "model", "sku", "id", "part", "编号", "货号", "productcode", "itemcode"}):
        return "part"
    if any(w in h for w in ("品名", "名称", "description", "货物", "产品", "商品", "设备")) or h in {
            "name", "item", "product", "desc", "itemname", "productname", "项目", "内容"}:
        return "name"
    if "规格" in h or "配置" in h or "spec" in h or "参数" in h:
        return "spec"
    if "日期" in h or "date" in h or "时间" in h:
        return "date"
    if any(w in h for w in ("供应商", "来源", "vendor", "supplier", "source", "厂商", "报价单位")):
        return "source"
    return None


def guess_mapping(header: Sequence[object]) -> dict[Field_, int]:
    """Field → 0-based column index, the first column of each field wins."""
    mapping: dict[Field_, int] = {}
    for index, cell in enumerate(header):
        guessed = guess_field(cell)
        if guessed is not None and guessed not in mapping:
            mapping[guessed] = index
    return mapping


def _usable(mapping: dict[Field_, int]) -> bool:
    return any(f in mapping for f in ("price", "price_incl", "price_excl")) and (
        "part" in mapping or "name" in mapping)


# -- matching -----------------------------------------------------------------------------------------------

_RUN = re.compile(r"[a-z0-9]+(?:\+)?")
_PIECE = re.compile(r"[a-z]+|[0-9]+")
_PAREN = re.compile(r"[(（]([^)）]*)[)）]")


def _nfkc(text: str) -> str:
    return unicodedata.normalize("NFKC", text).lower()


_NOT_ALNUM = re.compile(r"[^0-9a-z\u4e00-\u9fff+]")
_SEPARATORS = re.compile(r"[\s,，;/（）()]+")


def compact(text: str) -> str:
    """Letters and digits only, lower case, full-width folded: 'RTX 4090' and 'ＲＴＸ-4090' agree."""
    return _NOT_ALNUM.sub("", _nfkc(text))


def tokens(text: str) -> set[str]:
    """The alphanumeric runs of a text and their letter/digit pieces ('i9-13900K' → i9, 13900k, i, 9, 13900, k)."""
    return _tokens(_nfkc(text))


def _tokens(norm: str) -> set[str]:
    found: set[str] = set()
    for run in _RUN.findall(norm):
        run = run.rstrip("+")
        found.add(run)
        found.update(_PIECE.findall(run))
    return found


@dataclass(frozen=True)
class _Candidate:
    part: Part
    name: str
    short: str
    """The name without its parenthesised part numbers: 'Samsung PM9A3 3.84TB NVMe U.2'."""
    codes: frozenset[str]
    words: frozenset[str]
    numbers: frozenset[str]


def _candidate(part: Part) -> _Candidate:
    codes: set[str] = set()
    outside = _PAREN.sub(" ", part.name)
    # part numbers in brackets (M393A4K40EB3-CWE) and model codes in the name (AS-4124GS-TNR): one word of
    # letters and digits, six or more long ('(16 GB)' or '(4U, 8 GPU, dual EPYC 7003)' are no codes)
    words_in_brackets = [w for inner in _PAREN.findall(part.name) for w in re.split(r"[,，;]", inner)]
    for word in [*words_in_brackets, *outside.split()]:
        c = compact(word)
        if (len(word.split()) == 1 and len(c) >= 6 and re.search(r"[a-z]", c) is not None
                and re.search(r"[0-9]", c) is not None):
            codes.add(c)
    words = tokens(outside)
    numbers = {w for w in words if w.isdigit()}
    return _Candidate(part, compact(part.name), compact(outside), frozenset(codes), frozenset(words),
                      frozenset(numbers))


class Matcher:
    """Matches a line's part number / model name to one of a set of catalog parts."""

    LIKELY = 0.45
    """Share of the part name's words a line must contain (with every number in it) to be a likely match."""

    def __init__(self, parts: Iterable[Part]) -> None:
        self.candidates = [_candidate(p) for p in {p.id: p for p in parts}.values()]
        self.by_id = {c.part.id.lower(): c for c in self.candidates}
        self.by_name: dict[str, _Candidate] = {}
        self.by_code: dict[str, _Candidate] = {}
        shorts: dict[str, list[_Candidate]] = {}
        for c in self.candidates:
            shorts.setdefault(c.short, []).append(c)
        for c in self.candidates:
            if len(shorts[c.short]) == 1:  # two parts that differ only inside the brackets are no exact match
                self.by_name.setdefault(c.short, c)
        for c in self.candidates:
            self.by_name[c.name] = c
            for code in c.codes:
                self.by_code.setdefault(code, c)

    def match(self, texts: Sequence[str], lang: Lang = "en") -> tuple[Part | None, Confidence, str]:
        """The part, the confidence and why, for a line whose part-number / name cells are ``texts``."""
        norms = [_nfkc(s).strip() for s in texts if s and not s.isspace()]
        for norm in norms:
            c = self.by_id.get(norm)
            if c is not None:
                return c.part, "exact", t("prices.reason.id", lang)
        compacts = [_NOT_ALNUM.sub("", n) for n in norms]
        for key in compacts:
            c = self.by_name.get(key)
            if c is not None:
                return c.part, "exact", t("prices.reason.name", lang)
        if self.by_code:
            for key in compacts:
                c = self.by_code.get(key)
                if c is not None:
                    return c.part, "exact", t("prices.reason.code", lang)
            for norm in norms:  # the model code inside a longer cell: '三星 M393A4K40EB3-CWE 32G'
                for word in _SEPARATORS.split(norm):
                    if len(word) >= 6:
                        c = self.by_code.get(_NOT_ALNUM.sub("", word))
                        if c is not None:
                            return c.part, "exact", t("prices.reason.code", lang)
        line_words: set[str] = set().union(*(_tokens(n) for n in norms)) if norms else set()
        scored: list[tuple[float, _Candidate]] = []
        for c in self.candidates:
            if not c.words or not c.numbers <= line_words:
                continue
            score = len(c.words & line_words) / len(c.words)
            if score >= (self.LIKELY if c.numbers else 0.7):
                scored.append((score, c))
        if not scored:
            return None, "none", ""
        scored.sort(key=lambda sc: -sc[0])
        if len(scored) > 1 and scored[1][0] == scored[0][0]:
            return None, "none", t("prices.reason.ambiguous", lang, first=scored[0][1].part.name,
                                   second=scored[1][1].part.name)
        best_score, best = scored[0]
        return best.part, "likely", t("prices.reason.tokens", lang, score=round(best_score * 100))


def plan_parts(plan: Plan, catalog: Catalog) -> list[Part]:
    """The catalog parts a plan's quote lists (GPU, chassis, CPU, memory, PSU, drives, NICs)."""
    p = resolve(plan, catalog)
    found: list[Part] = [x for x in (p.gpu, p.chassis, p.cpu, p.memory, p.psu) if x is not None]
    found += [s.part for s in p.storage] + [n.part for n in p.nics]
    return found


# -- the result ---------------------------------------------------------------------------------------------

VatReading = Literal["column", "chosen", "statement", "default", "unstated"]

@dataclass(frozen=True)
class PriceLine:
    """One line of the file, as read and matched."""

    row: int
    """1-based row in the sheet (or line in the CSV file)."""
    part_text: str
    name_text: str
    spec_text: str
    quantity: Decimal | None
    unit_price_cny: Decimal | None
    includes_vat: bool | None
    date: dt.date | None
    source: str
    part_id: str | None
    part_name: str
    confidence: Confidence
    reason: str

    @property
    def label(self) -> str:
        """The line as the vendor wrote it."""
        return " · ".join(s for s in (self.name_text, self.part_text, self.spec_text) if s)

    @property
    def matched(self) -> bool:
        return self.part_id is not None and self.unit_price_cny is not None


@dataclass(frozen=True)
class PriceImport:
    """What a price file holds, matched to the plan's parts: nothing of the plan is changed yet."""

    path: Path
    sheet: str | None
    header_row: int
    columns: dict[Field_, str]
    """Field → the header text of the column it was read from."""
    kind: Literal["vendor_quote", "company"]
    source: str
    lines: tuple[PriceLine, ...]
    skipped_rows: tuple[int, ...] = field(default=())
    """Rows read as totals or notes (合计, 总计, 大写, 备注…), not as lines."""
    header: tuple[str, ...] = ()
    """Every cell of the header row as text (for a column-mapping dialog)."""
    mapping: dict[Field_, int] = field(default_factory=dict)
    """Field → 0-based column the lines were read with (guessed from the header, or the caller's)."""
    vat_statement: bool | None = None
    """What the file says of VAT in words ('以上报价含税', 'prices exclude VAT'); None: nothing, or both."""
    vat_note: str = ""
    """The file's own words of that statement (for the dialog to show beside the choice)."""
    info: dict[str, str] = field(default_factory=dict)
    """What the file's rows outside the table say of the quote (number, date, delivery, warranty, payment,
    vendor), as written; the buyer confirms them in the dialog."""
    vat_reading: VatReading = "unstated"
    """How the unit prices of a price column that does not name VAT were read: by the buyer's choice for this
    vendor, the file's statement, the caller's default, or not at all (None: read as excluding VAT)."""

    @property
    def matches(self) -> tuple[PriceLine, ...]:
        return tuple(line for line in self.lines if line.matched)

    @property
    def extras(self) -> tuple[PriceLine, ...]:
        """Lines that match no part of the plan (installation, shipping, warranty…), kept for the buyer."""
        return tuple(line for line in self.lines if not line.matched)

    def entered_prices(self, rows: Iterable[int] | None = None) -> dict[str, EnteredPrice]:
        """The plan prices of the confirmed lines (by row); by default the exact matches only."""
        chosen = set(rows) if rows is not None else {m.row for m in self.matches if m.confidence == "exact"}
        out: dict[str, EnteredPrice] = {}
        for line in self.matches:
            if line.row in chosen and line.part_id is not None and line.unit_price_cny is not None:
                out[line.part_id] = EnteredPrice(price_cny=float(line.unit_price_cny),
                                                 with_vat=line.includes_vat, kind=self.kind, date=line.date,
                                                 source=line.source[:200])
        return out

    def with_source(self, kind: Literal["vendor_quote", "company"], source: str) -> PriceImport:
        """The same import as another kind or with another source text (lines whose file named their own
        source keep it)."""
        lines = tuple(replace(line, source=source) if line.source == self.source else line for line in self.lines)
        return replace(self, kind=kind, source=source, lines=lines)

    def apply(self, plan: Plan, rows: Iterable[int] | None = None) -> Plan:
        """A new plan with the confirmed lines' prices added (replacing the plan's own price for those parts)."""
        prices = dict(plan.prices)
        prices.update(self.entered_prices(rows))
        return plan.model_copy(update={"prices": prices})


# -- reading ------------------------------------------------------------------------------------------------

_NO_PRICE = {"", "询价", "待定", "另议", "面议", "赠送", "免费", "包含", "含", "已含", "-", "--", "—", "/", "n/a", "na",
             "tbd", "tba", "onrequest", "included", "free", "foc", "\\"}
_FREE = {"赠送", "免费", "free", "foc", "包含", "含", "已含", "included"}
_TOTAL_ROW = re.compile(r"^(合计|总计|小计|总价|大写|人民币|备注|说明|注[:：]|total|subtotal|grand ?total|sum|note)",
                        re.IGNORECASE)
_TOO_LARGE = Decimal("1e12")
_PLAIN_NUMBER = re.compile(r"[-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|[-+]?\.\d+|[-+]?\d+\.")
# A sentence of the file that says whether its prices include VAT ('以上报价含税', '注：以上价格均含13%增值税',
# '报价不含税', 'All prices include 13% VAT'); a heading such as 含税单价 is a column's, read by guess_field.
_SUBJECT = r"(?:报价|价格|单价|总价|金额|以上|上述|所有|全部|均)"
_RATE = r"(?:\d{1,2}(?:\.\d+)?%)?"
_VAT_EXCL = re.compile(_SUBJECT + r"[^。；;，,]{0,12}?(?:不含|未含|未计|未)" + _RATE + r"(?:的)?(?:增值)?税"
                       r"|税(?:费|金)?另计|另(?:加|计)" + _RATE + r"(?:增值)?税"
                       r"|\b(?:prices?|quot\w*|amounts?)\b[^.;]{0,30}?"
                       r"\b(?:exclud\w*|excl\.?|exclusive of|net of|plus|before)\s+(?:\d+\s*%\s+)?(?:vat|tax)",
                       re.IGNORECASE)
_VAT_INCL = re.compile(_SUBJECT + r"[^。；;，,]{0,12}?(?<![不未])含" + _RATE + r"(?:的)?(?:增值)?税"
                       r"|\b(?:prices?|quot\w*|amounts?)\b[^.;]{0,30}?\b(?:includ\w*|incl\.?|inclusive of)"
                       r"\s+(?:\d+\s*%\s+)?(?:vat|tax)", re.IGNORECASE)


_INFO_LABELS: dict[str, tuple[str, ...]] = {
    "number": ("报价单号", "报价编号", "报价单编号", "单号", "编号", "quoteno", "quotationno", "quotenumber",
               "quoteref", "reference"),
    "date": ("报价日期", "日期", "date", "quotedate"),
    "delivery": ("交货期", "交期", "供货期", "交货时间", "到货时间", "delivery", "leadtime"),
    "warranty": ("质保", "质保期", "保修", "保修期", "售后", "售后服务", "warranty"),
    "payment": ("付款方式", "付款条件", "结算方式", "付款", "payment", "paymentterms"),
    "vendor": ("供应商", "报价单位", "报价方", "vendor", "supplier"),
}
_INFO_BY_LABEL = {label: key for key, labels in _INFO_LABELS.items() for label in labels}


def header_info(values: Sequence[object], *, colon_only: bool = False) -> dict[str, str]:
    """What a row outside the table says of the quote: '报价单号：HD-118', '交货期 | 合同签订后 4 周' (a label
    and its value, in one cell after a colon or in the next cell) — number, date, delivery, warranty, payment
    and vendor. ``colon_only``: only 'label：value' in one cell (a row under the table's heading)."""
    out: dict[str, str] = {}
    cells = [_text(v) for v in values]
    for i, cell in enumerate(cells):
        if not cell:
            continue
        label, sep, rest = unicodedata.normalize("NFKC", cell).partition(":")
        key = _INFO_BY_LABEL.get(re.sub(r"[\s._/-]", "", label.lower()))
        if key is None or key in out or (colon_only and not sep):
            continue
        value = rest.strip() if sep else next((c for c in cells[i + 1:] if c), "")
        if value:
            out[key] = value[:200]
    return out


def vat_statement(text: str) -> bool | None:
    """What a sentence says of VAT: True (prices include it), False (they do not), None (neither, or both)."""
    norm = unicodedata.normalize("NFKC", text).replace(" ", "") if re.search(r"[\u4e00-\u9fff]", text) else \
        unicodedata.normalize("NFKC", text)
    excl, incl = bool(_VAT_EXCL.search(norm)), bool(_VAT_INCL.search(norm))
    if excl == incl:
        return None
    return incl


_TRUE = {"是", "含税", "含", "yes", "y", "true", "1", "√", "✓", "incl", "included", "gross"}
_FALSE = {"否", "不含税", "不含", "未税", "no", "n", "false", "0", "×", "excl", "excluded", "net"}


@dataclass
class _Where:
    file: Path
    sheet: str | None
    header: Sequence[object]

    def error(self, key: str, row: int, column: int | None, **fields: object) -> PriceFileError:
        header = ""
        if column is not None and column < len(self.header):
            header = str(self.header[column] or "").strip()
        return PriceFileError(self.file, key, sheet=self.sheet, row=row,
                              column=None if column is None else column + 1, header=header, **fields)


def _text(value: object) -> str:
    if value is None:
        return ""
    if type(value) is str:
        return value.strip()
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip()


def _number(value: object, where: _Where, row: int, col: int) -> Decimal | None:
    """A price or quantity cell: None for empty or 'on request' (询价, 待定, -); an error for anything else."""
    if value is None or isinstance(value, bool):
        if isinstance(value, bool):
            raise where.error("prices.error.not_number", row, col, value=value)
        return None
    if isinstance(value, (int, float, Decimal)):
        try:
            number = Decimal(str(value))
        except InvalidOperation:
            raise where.error("prices.error.not_number", row, col, value=value) from None
        if not number.is_finite():
            raise where.error("prices.error.not_number", row, col, value=value)
        return number
    text = unicodedata.normalize("NFKC", str(value)).strip()
    bare = re.sub(r"[\s¥￥$]|rmb|cny", "", text.lower())
    if bare.replace(",", "").removesuffix("元") in _NO_PRICE:
        return Decimal(0) if bare.replace(",", "").removesuffix("元") in _FREE else None
    scale = Decimal(1)
    if bare.endswith("万元") or bare.endswith("万"):  # one 万 (×10 000); '1万万' is refused, not read as 1万
        scale, bare = Decimal(10_000), bare.removesuffix("元").removesuffix("万")
    else:
        bare = bare.removesuffix("元")
    # digits, with commas only as thousands separators (65,000.50); a comma as a decimal mark (65000,50) or
    # European grouping (1.234,56) is ambiguous and refused rather than guessed
    if not _PLAIN_NUMBER.fullmatch(bare):
        key = "prices.error.ambiguous_number" if re.fullmatch(r"[-+]?[\d.,]+", bare) else "prices.error.not_number"
        raise where.error(key, row, col, value=str(value)[:60])
    return Decimal(bare.replace(",", "")) * scale


def _date(value: object, where: _Where, row: int, col: int) -> dt.date | None:
    if value is None or value == "":
        return None
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    text = unicodedata.normalize("NFKC", str(value)).strip()
    m = re.fullmatch(r"(\d{4})\s*[-/.年]\s*(\d{1,2})\s*[-/.月]\s*(\d{1,2})\s*日?(?:[ T].*)?", text)
    if m is not None:
        try:
            return dt.date(int(m[1]), int(m[2]), int(m[3]))
        except ValueError:
            pass
    raise where.error("prices.error.not_date", row, col, value=text[:60])


def _flag(value: object, where: _Where, row: int, col: int) -> bool | None:
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        return value
    text = unicodedata.normalize("NFKC", str(value)).strip().lower()
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise where.error("prices.error.not_flag", row, col, value=text[:60])


def _sheet_error(path: Path, exc: sheets.SheetError, sheet: str | None = None) -> PriceFileError:
    reason = f"{exc.reason} ({exc.part})" if exc.part else exc.reason
    return PriceFileError(path, "prices.error.unreadable", sheet=sheet, row=exc.row, column=exc.column,
                          reason=reason)


def _csv_rows(path: Path, data: bytes) -> Iterator[tuple[int, list[str]]]:
    """The bounded CSV reader (procurement.pricing.sheets): line, record and field caps, GBK fallback."""
    try:
        for number, row in sheets.csv_rows(data, tab=path.suffix.lower() == ".tsv"):
            yield number, row[:MAX_COLUMNS]
    except sheets.SheetError as exc:
        if exc.reason.startswith("is neither UTF-8"):
            raise PriceFileError(path, "prices.error.encoding") from None
        raise _sheet_error(path, exc) from None


def _xlsx_rows(path: Path, data: bytes, sheet: str | None) -> tuple[str, Iterator[tuple[int, Sequence[object]]]]:
    """The bounded XLSX reader (procurement.pricing.sheets): declared sizes checked before decompressing,
    streaming caps on shared strings, rows and cells, every malformed cell a located error."""
    try:
        title, _names, found = sheets.xlsx_rows(data, sheet, max_col=MAX_COLUMNS)
    except sheets.SheetError as exc:
        if sheet is not None and exc.reason.startswith("no sheet named"):
            raise PriceFileError(path, "prices.error.no_sheet", name=sheet) from None
        raise _sheet_error(path, exc) from None

    def rows() -> Iterator[tuple[int, Sequence[object]]]:
        try:
            yield from found
        except sheets.SheetError as exc:
            raise _sheet_error(path, exc, title) from None
        finally:
            found.close()  # type: ignore[attr-defined]

    return title, rows()


def read_prices(path: Path, parts: Iterable[Part], *, kind: Literal["vendor_quote", "company"] = "vendor_quote",
                source: str = "", date: dt.date | None = None, includes_vat: bool | None = None,
                sheet: str | None = None, mapping: dict[Field_, int] | None = None,
                lang: Lang = "en", default_vat: bool | None = None) -> PriceImport:
    """Read ``path`` (CSV or XLSX) and match its lines to ``parts``.

    ``source`` (vendor and quote number, or the price list's name) and ``date`` are used for lines whose file
    says neither. VAT, one reading rule for every import (prices and vendor quotes): a line's own 含税 flag,
    else a price column that names it (含税单价 / 不含税单价), else ``includes_vat`` — the buyer's choice for
    this vendor —, else what the file says in words ('以上报价含税'), else ``default_vat``, else not stated
    (None, which the money side reads as excluding VAT, the higher reading). ``mapping`` (field → 0-based
    column) replaces the columns guessed from the header. Raises PriceFileError naming the file, sheet,
    row and column of the first bad cell; nothing is changed before the caller applies the result.
    """
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in {".csv", ".tsv", ".txt", ".xlsx", ".xlsm"}:
        raise PriceFileError(path, "prices.error.format")
    try:  # the one bounded reader: a FIFO or device is refused, never read; at most MAX_FILE_BYTES
        data = sheets.read_file(path, sheets.Limits(file_bytes=MAX_FILE_BYTES))
    except sheets.SheetError as exc:
        raise PriceFileError(path, "prices.error.unreadable", reason=exc.reason) from None
    sheet_name: str | None = None
    rows: Iterator[tuple[int, Sequence[object]]]
    if suffix in {".xlsx", ".xlsm"}:
        sheet_name, rows = _xlsx_rows(path, data, sheet)
    else:
        rows = _csv_rows(path, data)
    try:
        return _read(path, sheet_name, rows, Matcher(parts), kind=kind, source=source or path.name, date=date,
                     includes_vat=includes_vat, mapping=mapping, lang=lang, default_vat=default_vat)
    finally:
        if isinstance(rows, Generator):
            rows.close()  # the sheet's open member of the archive


def _read(path: Path, sheet: str | None, rows: Iterator[tuple[int, Sequence[object]]], matcher: Matcher, *,
          kind: Literal["vendor_quote", "company"], source: str, date: dt.date | None, includes_vat: bool | None,
          mapping: dict[Field_, int] | None, lang: Lang, default_vat: bool | None = None) -> PriceImport:
    statements: dict[bool, str] = {}
    info: dict[str, str] = {}

    def said(values: Sequence[object]) -> bool:
        return _note_vat_statements(values, statements)

    header, header_row, guessed = _find_header(rows, mapping, said, info)
    if not header_row:
        raise PriceFileError(path, "prices.error.no_header", sheet=sheet, rows=HEADER_ROWS)
    where = _Where(path, sheet, header)
    if mapping is not None:
        for col in mapping.values():
            if not 0 <= col < len(header):
                raise PriceFileError(path, "prices.error.mapping", sheet=sheet, letter=column_letter(col + 1))
        guessed = dict(mapping)
    columns = {f: str(header[i] or "").strip() for f, i in guessed.items()}
    get = guessed.get
    c_part, c_name, c_spec, c_qty = get("part"), get("name"), get("spec"), get("qty")
    c_date, c_source, c_vat = get("date"), get("source"), get("vat")
    c_price, column_vat, column_named = _price_column(guessed)
    flagged: set[int] = set()

    def cell(values: Sequence[object], col: int | None) -> object:
        return values[col] if col is not None and col < len(values) else None

    lines: list[PriceLine] = []
    skipped: list[int] = []
    seen: dict[str, int] = {}
    count = 0
    for number, values in rows:
        first = _first_text(values)
        if not first:
            continue
        count += 1
        if count > MAX_ROWS:
            raise PriceFileError(path, "prices.error.too_many_rows", sheet=sheet, limit=MAX_ROWS)
        if count > MAX_OFFER_LINES and kind == "vendor_quote":  # the plan keeps no more of one vendor's lines
            raise PriceFileError(path, "prices.error.too_many_quote_lines", sheet=sheet,
                                 limit=f"{MAX_OFFER_LINES:,}")
        part_text, name_text = _text(cell(values, c_part)), _text(cell(values, c_name))
        if _not_a_line(values, first, part_text, name_text, cell(values, c_price) in (None, ""), said, info):
            skipped.append(number)
            continue
        price = _number(cell(values, c_price), where, number, c_price)
        if price is not None and price > _TOO_LARGE:
            raise where.error("prices.error.too_large", number, c_price, value=price)
        qty = _number(cell(values, c_qty), where, number, c_qty) if c_qty is not None else None
        vat = _flag(cell(values, c_vat), where, number, c_vat) if c_vat is not None else None
        if vat is not None:
            flagged.add(number)
        line_date = (_date(cell(values, c_date), where, number, c_date) if c_date is not None else None) or date
        line_source = _text(cell(values, c_source)) if c_source is not None else ""
        found, confidence, reason = matcher.match([part_text, name_text], lang)
        part: Part | None = None
        if found is not None:
            part, confidence, reason = _taken(found, price, seen, (confidence, reason), lang, where, number, c_price)
        lines.append(PriceLine(
            row=number, part_text=part_text, name_text=name_text, spec_text=_text(cell(values, c_spec)),
            quantity=qty, unit_price_cny=price, includes_vat=vat if vat is not None else column_vat,
            date=line_date, source=line_source or source, part_id=part.id if part is not None else None,
            part_name=part.name if part is not None else "", confidence=confidence, reason=reason))
    statement = next(iter(statements)) if len(statements) == 1 else None  # both said: ambiguous, not guessed
    column_vat, reading = _vat_reading(column_vat, column_named, includes_vat, statement, default_vat)
    lines = [line if line.row in flagged else replace(line, includes_vat=column_vat) for line in lines]
    return PriceImport(path=path, sheet=sheet, header_row=header_row, columns=columns, kind=kind, source=source,
                       lines=tuple(lines), skipped_rows=tuple(skipped),
                       header=tuple(str(c if c is not None else "").strip() for c in header), mapping=guessed,
                       info=info, vat_statement=statement, vat_reading=reading,
                       vat_note=statements.get(statement, "") if statement is not None
                       else "；".join(statements.values()))


def _note_vat_statements(values: Sequence[object], statements: dict[bool, str]) -> bool:
    """Note a VAT statement in the row's text cells (the first text of each verdict); True when the row is one."""
    found = False
    for value in values:
        if isinstance(value, str) and len(value) <= 500:
            verdict = vat_statement(value)
            if verdict is not None:
                statements.setdefault(verdict, value.strip()[:200])
                found = True
    return found


def _find_header(rows: Iterator[tuple[int, Sequence[object]]], mapping: dict[Field_, int] | None,
                 said: Callable[[Sequence[object]], bool], info: dict[str, str],
                 ) -> tuple[Sequence[object], int, dict[Field_, int]]:
    """The header row (its cells, its number, the columns guessed from it), read from the top of ``rows``
    (row 0: none within HEADER_ROWS). The rows above it are noted: their VAT statements (``said``) and the
    quote's number, date … (``info``)."""
    guessed: dict[Field_, int] = {}
    for number, values in rows:
        guessed = guess_mapping(values)
        if _usable(guessed) or (mapping is not None and number == 1):
            return values, number, guessed
        said(values)  # the rows above the header: 报价单号, 日期 … and often '以上报价含税'
        for key, text in header_info(values).items():
            info.setdefault(key, text)
        if number >= HEADER_ROWS:
            break
    return (), 0, guessed


def _price_column(guessed: dict[Field_, int]) -> tuple[int, bool | None, bool]:
    """The price column, what its name says about VAT, and whether its name says it: 含税单价 over 不含税单价
    over 单价 (then the buyer's choice for this vendor, the file's statement, the caller's default — settled
    once the whole file is read, _vat_reading)."""
    if "price_incl" in guessed:
        return guessed["price_incl"], True, True
    if "price_excl" in guessed:
        return guessed["price_excl"], False, True
    return guessed["price"], None, False


def _vat_reading(column_vat: bool | None, column_named: bool, includes_vat: bool | None, statement: bool | None,
                 default_vat: bool | None) -> tuple[bool | None, VatReading]:
    """Whether the prices include VAT, and what says so: the column's name, the buyer's choice, the file's one
    statement, the caller's default, or nothing."""
    if column_named:
        return column_vat, "column"
    if includes_vat is not None:
        return includes_vat, "chosen"
    if statement is not None:
        return statement, "statement"
    if default_vat is not None:
        return default_vat, "default"
    return column_vat, "unstated"


def _not_a_line(values: Sequence[object], first: str, part_text: str, name_text: str, no_price: bool,
                said: Callable[[Sequence[object]], bool], info: dict[str, str]) -> bool:
    """A row below the header that is no price line: a note ('以上报价含税', '交货期：4 周', noted in ``info``
    and by ``said``), a total, or a row naming no part."""
    if no_price:
        noted = header_info(values, colon_only=True) if not (part_text and name_text) else {}
        if said(values) or noted:
            for key, text in noted.items():
                info.setdefault(key, text)
            return True
    return bool(_TOTAL_ROW.match(first)) or (not part_text and not name_text)


def _first_text(values: Sequence[object]) -> str:
    """The row's first non-empty cell as text ('' for an empty row)."""
    for value in values:
        if value is not None and value != "":
            first = _text(value)
            if first:
                return first
    return ""


def _taken(found: Part, price: Decimal | None, seen: dict[str, int], matched: tuple[Confidence, str], lang: Lang,
           where: _Where, row: int, col: int) -> tuple[Part | None, Confidence, str]:
    """The part a matched line prices (noted in ``seen``), or None with why not: a line without a price or a part
    priced on an earlier row. A negative price refuses the file."""
    if price is None:
        return None, "none", t("prices.reason.unpriced", lang)
    if found.id in seen:
        return None, "none", t("prices.reason.duplicate", lang, row=seen[found.id])
    if price < 0:
        raise where.error("prices.error.negative", row, col, value=price)
    seen[found.id] = row
    return found, *matched


def import_for_plan(path: Path, plan: Plan, catalog: Catalog, **options: Any) -> PriceImport:
    """``read_prices`` matched against the parts the plan's quote lists."""
    return read_prices(path, plan_parts(plan, catalog), **options)

"""Loads the shipped catalog and user overlay directories, validating parts and cross-references."""

from __future__ import annotations

import datetime as dt
import math
import os
import re
import stat
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from catalog import precompiled
from catalog.baseboards import BASEBOARDS
from catalog.files import kind_of
from catalog.models import (
    KIND_TO_TYPE,
    SECTION_TO_KIND,
    Chassis,
    ContainerImage,
    CudaRelease,
    Gpu,
    Part,
)
from catalog.plausible import implausible
from catalog.yamlsource import Locator, YamlError, cache_dir, format_loc, not_finite, parse_yaml, read_raw_text

P = TypeVar("P", bound=Part)

MAX_PRICE_CNY = 1e12
"""The largest price the loader accepts: the plan's budget bound, and well inside what the quote's
cent-exact decimal arithmetic can total (an overlay price of 1e300 or .inf made build_quote raise)."""

_CONTROL = re.compile(r"[\x00-\x1f\x7f\u2028\u2029]")


def _one_line(text: str) -> str:
    """A problem kept on one line: ids, keys and file names from a file may hold newlines."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


class CatalogError(ValueError):
    """One or more problems in catalog files; ``problems`` holds one located line each."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = [_one_line(p) for p in problems]
        super().__init__("\n".join(self.problems))


class PriceOverride(BaseModel):
    """A company-negotiated price for a shipped part (``prices:`` section of an overlay file)."""

    model_config = ConfigDict(defer_build=True, extra="forbid", frozen=True)
    id: str
    price_cny: float = Field(ge=0, le=MAX_PRICE_CNY)
    price_date: dt.date | None = None
    price_source: str = "company price list"
    price_includes_vat: bool | None = None


@dataclass
class OverlayReport:
    """What a user catalog directory adds to or changes in the shipped catalog."""

    directory: Path
    added: list[str] = field(default_factory=list)
    replaced: list[str] = field(default_factory=list)
    prices: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    """Located lines (file:line: part: field: why) for numbers that are possible but implausible
    (catalog/plausible.py): the catalog loads, and `catalog check` and the app say so."""
    ignored: list[str] = field(default_factory=list)
    """One line per catalog file in a subdirectory, which is not read (only the directory's own files are):
    the catalog loads, and `catalog check` and every command given `--catalog` say so."""
    _ids: set[tuple[str, str]] = field(default_factory=set, repr=False)


@dataclass
class _Source:
    """A catalog file's text, kept so that lines are found only when a message needs one."""

    display: str
    text: str
    _locator: Locator | None = None

    def line(self, loc: tuple[str | int, ...]) -> int | None:
        if self._locator is None:  # composed the first time a message needs a line
            self._locator = Locator(self.text)
        return self._locator.line(loc)

    def where(self, loc: tuple[str | int, ...]) -> str:
        line = self.line(loc)
        return f"{self.display}:{line}" if line else self.display


@dataclass
class Catalog:
    """All parts by kind and id, with the file each one came from (``where`` adds the line)."""

    parts: dict[str, dict[str, Part]] = field(default_factory=lambda: {k: {} for k in KIND_TO_TYPE})
    origin: dict[tuple[str, str], str] = field(default_factory=dict)
    """(kind, id) -> the file the part was read from, as shown in messages."""
    overlays: list[OverlayReport] = field(default_factory=list)
    _places: dict[tuple[str, str], tuple[_Source, str, int]] = field(default_factory=dict, repr=False)

    def get(self, kind: str, part_id: str | None) -> Part | None:
        if part_id is None:
            return None
        return self.parts.get(kind, {}).get(part_id)

    def typed(self, cls: type[P], part_id: str | None) -> P | None:
        part = self.get(cls.kind, part_id)
        return part if isinstance(part, cls) else None

    def all(self, cls: type[P]) -> list[P]:
        return [p for p in self.parts.get(cls.kind, {}).values() if isinstance(p, cls)]

    def __iter__(self) -> Iterator[Part]:
        for by_id in self.parts.values():
            yield from by_id.values()

    def __len__(self) -> int:
        return sum(len(v) for v in self.parts.values())

    def gpu(self, part_id: str | None) -> Gpu | None:
        return self.typed(Gpu, part_id)

    def cuda(self, version: str | None) -> CudaRelease | None:
        """A CUDA release by id ('cuda-12.1') or by version ('12.1')."""
        if version is None:
            return None
        found = self.typed(CudaRelease, version)
        if found:
            return found
        return next((c for c in self.all(CudaRelease) if c.version == version), None)

    def where(self, kind: str, part_id: str, *fields: str | int) -> str:
        """'file:line' of a part (or of one of its fields), for messages; '?' for an unknown part."""
        place = self._places.get((kind, part_id))
        if place is None:
            return self.origin.get((kind, part_id), "?")
        src, section, index = place
        return src.where((section, index, *fields))


def shipped_data_dir() -> Path:
    return Path(str(resources.files("catalog") / "data"))


def _is_yaml(path: Path) -> bool:
    return path.suffix in (".yaml", ".yml")


def _yaml_files(directory: Path) -> list[Path]:
    """Every ``*.yaml`` / ``*.yml`` entry directly in ``directory``, whatever it is (see :func:`_regular`)."""
    return sorted(p for p in directory.iterdir() if _is_yaml(p))


def _regular(files: list[Path], problems: list[str]) -> list[Path]:
    """The regular files of ``files``. An entry that is none (a dangling link, a FIFO, a directory named
    ``parts.yaml``) is reported, never skipped in silence (that gave '0 added' and exit 0), and is not opened:
    a FIFO opened for reading would wait for a writer."""
    kept = []
    for path in files:
        try:
            mode = os.stat(path).st_mode  # follows a link: what would be read
        except FileNotFoundError:
            if os.path.islink(path):
                problems.append(f"{_display(path)}: a link to '{os.readlink(path)}', which does not exist; "
                                "not read")
            else:  # removed since the listing
                problems.append(f"{_display(path)}: cannot read: it no longer exists")
            continue
        except OSError as exc:  # a link loop, a directory that may not be searched
            problems.append(f"{_display(path)}: cannot read: {exc.strerror or exc}")
            continue
        if not stat.S_ISREG(mode):
            problems.append(f"{_display(path)}: {kind_of(mode)}, not a regular file: only files are read")
            continue
        kept.append(path)
    return kept


MAX_IGNORED_SHOWN = 10
"""Files in a user catalog's subdirectories named one by one; beyond, one line says how many more."""
_MAX_WALKED = 10_000
"""Entries looked at below a user catalog directory when looking for files it does not read."""


def _ignored_below(directory: Path) -> list[str]:
    """Warnings for the catalog files in subdirectories of a user catalog, which are not read: only the
    directory's own files are (docs/catalog.md). Links to directories are not followed, and the walk is
    bounded, so a catalog directory placed at the top of a large tree costs little."""
    found: list[str] = []
    walked = 0
    for top, dirs, names in os.walk(directory):
        if top == str(directory):
            names = []  # the directory's own files are read, not ignored
        dirs[:] = sorted(d for d in dirs if not _is_yaml(Path(d)))  # 'x.yaml/' itself is refused as no file
        walked += len(dirs) + len(names)
        found += [os.path.join(top, n) for n in sorted(names) if _is_yaml(Path(n))]
        if walked > _MAX_WALKED:
            break
    out = [f"{_display(Path(f))}: in a subdirectory of the user catalog; not read (only the files directly in "
           f"{_display(directory)} are)" for f in found[:MAX_IGNORED_SHOWN]]
    if len(found) > MAX_IGNORED_SHOWN:
        out.append(f"{_display(directory)}: {len(found) - MAX_IGNORED_SHOWN} more .yaml files in its "
                   "subdirectories; not read")
    return out


def _inside(directory: Path, files: list[Path], problems: list[str]) -> list[Path]:
    """The files that really are inside the user catalog ``directory``: a symlink to a file elsewhere
    (``x.yaml -> /etc/shadow``) is reported and not read, so no line of it reaches an error message."""
    root = os.path.realpath(directory)
    kept = []
    for path in files:
        real = os.path.realpath(path)
        if os.path.commonpath([root, real]) != root:
            problems.append(f"{_display(path)}: a link to a file outside the user catalog directory; not read")
            continue
        kept.append(path)
    return kept


def _display(path: Path) -> str:
    """The path as a user would type it from here: relative to the working directory when inside it."""
    absolute = os.path.abspath(path)
    cwd = os.getcwd()
    if absolute.startswith(cwd + os.sep):
        return absolute[len(cwd) + 1:]
    return str(path)


def _validation_problems(
    exc: ValidationError, src: _Source, loc_prefix: tuple[str | int, ...], label: str
) -> list[str]:
    out = []
    for err in exc.errors(include_url=False):
        loc = tuple(err["loc"])
        field_name = format_loc(loc) or "(part)"
        msg = err["msg"]
        if err["type"] == "extra_forbidden":
            msg = "unknown field (not part of the catalog format)"
        elif not_finite(err):  # a NaN failed a bound: say what _unreasonable says of an unbounded .inf
            msg = "must be a finite number"
        out.append(f"{src.where((*loc_prefix, *loc))}: {label}: {field_name}: {msg}")
    return out


def _unreasonable(values: Any, loc: tuple[str | int, ...] = ()) -> list[tuple[tuple[str | int, ...], str]]:
    """Numbers a part's model accepts but nothing downstream can use: infinities, NaN, absurd prices."""
    out: list[tuple[tuple[str | int, ...], str]] = []
    items = values.items() if isinstance(values, dict) else enumerate(values) if isinstance(values, list) else ()
    for key, value in items:
        here = (*loc, key)
        if isinstance(value, float) and not math.isfinite(value):
            out.append((here, "must be a finite number"))
        elif key == "price_cny" and isinstance(value, (int, float)) and value > MAX_PRICE_CNY:
            out.append((here, f"Input should be less than or equal to {MAX_PRICE_CNY:.0f}"))
        else:
            out += _unreasonable(value, here)
    return out


@dataclass
class _Price:
    src: _Source
    index: int
    price: PriceOverride


@dataclass
class _Item:
    """A part (or an overlay's price) of one file, validated on its own: what the precompiled catalog keeps."""

    section: str
    index: int
    kind: str
    """The part's kind; '' for a price."""
    label: str
    value: Part | PriceOverride


@dataclass
class _File:
    """One catalog file read and validated, before its parts meet the other files' (duplicates, overlays)."""

    src: _Source
    items: list[_Item | str] = field(default_factory=list)
    """In the file's order: validated items, and the located problem of each item that failed."""

    @property
    def clean(self) -> bool:
        return all(not isinstance(item, str) for item in self.items)


def _validate_file(src: _Source, data: Any, overlay: bool) -> _File:
    """The parts of a parsed file validated one by one; a pure function of the file (no other file's parts)."""
    out = _File(src)
    if data is None:
        return out
    if not isinstance(data, dict):
        out.items.append(f"{src.display}:1: expected sections like 'gpus:' or 'cpus:' at the top level")
        return out
    for section, items in data.items():
        if section == "prices" and overlay:
            if not isinstance(items, list):
                out.items.append(f"{src.where((section,))}: 'prices' must be a list of "
                                 f"{{id, price_cny, price_date, price_source}}")
                continue
            for i, raw in enumerate(items):
                try:
                    out.items.append(_Item(section, i, "", f"price #{i + 1}", PriceOverride.model_validate(raw)))
                except ValidationError as exc:
                    out.items += _validation_problems(exc, src, (section, i), f"price #{i + 1}")
            continue
        kind = SECTION_TO_KIND.get(str(section))
        if kind is None:
            known = ", ".join(sorted(SECTION_TO_KIND))
            extra = " or prices" if overlay else ""
            out.items.append(f"{src.where((section,))}: unknown section '{section}' (known: {known}{extra})")
            continue
        if not isinstance(items, list):
            out.items.append(f"{src.where((section,))}: '{section}' must be a list of parts")
            continue
        cls = KIND_TO_TYPE[kind]
        for i, raw in enumerate(items):
            pid = raw.get("id") if isinstance(raw, dict) else None
            label = f"{kind} '{pid}'" if pid else f"{kind} #{i + 1}"
            if not isinstance(raw, dict):
                out.items.append(f"{src.where((section, i))}: {label}: expected a mapping of fields")
                continue
            try:
                part = cls.model_validate(raw)
            except ValidationError as exc:
                out.items += _validation_problems(exc, src, (section, i), label)
                continue
            unreasonable = _unreasonable(part.model_dump())
            if unreasonable:
                out.items += [f"{src.where((section, i, *loc))}: {label}: {format_loc(loc)}: {msg}"
                              for loc, msg in unreasonable]
                continue
            out.items.append(_Item(str(section), i, kind, label, part))
    return out


def _read_directory(paths: list[Path], overlay: bool, cache: Path | None, problems: list[str]) -> list[_File]:
    """Every file of one directory, read and validated, from the precompiled catalog when it holds them."""
    read: list[tuple[Path, bytes, str] | str] = []
    for path in paths:
        try:
            raw, text = read_raw_text(path)
        except YamlError as exc:
            read.append(f"{_display(path)}: {exc.message}")
            continue
        read.append((path, raw, text))
    ok = [r for r in read if not isinstance(r, str)]
    clean = len(ok) == len(read)
    kind = "overlay" if overlay else "shipped"
    # the first load of a listing leaves a sighting and does the work of no cache (catalog/precompiled.py)
    cached = cache is not None and clean and precompiled.sighted(
        cache, precompiled.sighting_key([(str(p), len(raw)) for p, raw, _ in ok], kind))
    key = precompiled.entry_key([(p.name, raw) for p, raw, _ in ok], kind) if cached else ""
    stored = precompiled.load(cache, key) if cache is not None and cached else None
    if isinstance(stored, list) and len(stored) == len(ok):
        return [_File(_Source(_display(path), text), items) for (path, _, text), items in zip(ok, stored, strict=True)]
    files: list[_File] = []
    for entry in read:
        if isinstance(entry, str):
            problems.append(entry)
            continue
        path, _raw, text = entry
        display = _display(path)
        try:
            data = parse_yaml(text, path)
        except YamlError as exc:
            problems.append(f"{display}:{exc.line}: {exc.message}" if exc.line else f"{display}: {exc.message}")
            clean = False
            continue
        parsed = _validate_file(_Source(display, text), data, overlay)
        clean = clean and parsed.clean
        files.append(parsed)
    if cache is not None and cached and clean:
        precompiled.store(cache, key, [f.items for f in files])
    return files


def _add_file(parsed: _File, cat: Catalog, problems: list[str], report: OverlayReport | None) -> list[_Price]:
    """Put a file's validated parts into the catalog (duplicates refused, an overlay's changes noted)."""
    src = parsed.src
    prices: list[_Price] = []
    for item in parsed.items:
        if isinstance(item, str):
            problems.append(item)
            continue
        if isinstance(item.value, PriceOverride):
            prices.append(_Price(src, item.index, item.value))
            continue
        part, kind, label, section, i = item.value, item.kind, item.label, item.section, item.index
        key = (kind, part.id)
        seen_here = key in cat._places if report is None else key in report._ids
        if seen_here:
            problems.append(f"{src.where((section, i))}: {label}: duplicate id "
                            f"(first defined at {cat.where(kind, part.id)})")
            continue
        if report is not None:
            (report.replaced if part.id in cat.parts[kind] else report.added).append(f"{kind} {part.id}")
            report._ids.add(key)
            report.warnings += [f"{src.where((section, i, name))}: {label}: {name}: {why}"
                                for name, why in implausible(kind, dict(part))]
        cat.parts[kind][part.id] = part
        cat.origin[key] = src.display
        cat._places[key] = (src, section, i)
    return prices


def _cross_check(cat: Catalog, problems: list[str]) -> None:
    for ch in cat.all(Chassis):
        if ch.psu_included and cat.get("psu", ch.psu_included) is None:
            problems.append(f"{cat.where('chassis', ch.id, 'psu_included')}: chassis '{ch.id}': psu_included: "
                            f"unknown psu '{ch.psu_included}'")
        board = BASEBOARDS.get(ch.baseboard) if ch.baseboard else None
        if ch.baseboard and board is None:
            problems.append(f"{cat.where('chassis', ch.id, 'baseboard')}: chassis '{ch.id}': baseboard: unknown "
                            f"baseboard '{ch.baseboard}' (known: {', '.join(sorted(BASEBOARDS))})")
        for i, gid in enumerate(ch.gpus_supported):
            gpu = cat.gpu(gid)
            if gpu is None:
                problems.append(f"{cat.where('chassis', ch.id, 'gpus_supported', i)}: chassis '{ch.id}': "
                                f"gpus_supported: unknown gpu '{gid}'")
            elif gpu.form_factor != ch.gpu_form_factor:
                problems.append(f"{cat.where('chassis', ch.id, 'gpus_supported', i)}: chassis '{ch.id}': "
                                f"gpus_supported: '{gid}' is {gpu.form_factor.value}, the chassis takes "
                                f"{ch.gpu_form_factor.value}")
            elif board is not None and gid not in board.modules:
                problems.append(f"{cat.where('chassis', ch.id, 'gpus_supported', i)}: chassis '{ch.id}': "
                                f"gpus_supported: '{gid}' does not fit the {board.name} baseboard")
    for img in cat.all(ContainerImage):
        if img.framework and cat.get("framework", img.framework) is None:
            problems.append(f"{cat.where('image', img.id, 'framework')}: image '{img.id}': framework: "
                            f"unknown framework '{img.framework}'")


def _apply_prices(cat: Catalog, prices: list[_Price], report: OverlayReport, problems: list[str]) -> None:
    first: dict[str, _Price] = {}
    for item in prices:
        price = item.price
        seen = first.setdefault(price.id, item)
        if seen is not item:  # two prices for one part in one directory: which one is meant is not known
            line = seen.src.line(("prices", seen.index))
            at = f"line {line}" if seen.src is item.src and line else seen.src.where(("prices", seen.index))
            problems.append(f"{item.src.where(('prices', item.index))}: prices: duplicate price for "
                            f"'{price.id}' (first at {at})")
            continue
        target = next((k for k, by_id in cat.parts.items() if price.id in by_id), None)
        if target is None:
            problems.append(f"{item.src.where(('prices', item.index, 'id'))}: prices: unknown part id "
                            f"'{price.id}' (not in the shipped catalog or this directory)")
            continue
        old = cat.parts[target][price.id]
        report.warnings += [f"{item.src.where(('prices', item.index, 'price_cny'))}: prices: {target} '{price.id}': "
                            f"price_cny: {why}" for _name, why in implausible(target, {"price_cny": price.price_cny})]
        cat.parts[target][price.id] = old.model_copy(update={
            "price_cny": price.price_cny,
            "price_date": price.price_date,
            "price_source": price.price_source,
            "price_includes_vat": price.price_includes_vat,
            "price_kind": "company price list",
        })
        report.prices.append(f"{target} {price.id}: {old.price_cny} -> {price.price_cny} CNY")


def load_catalog(overlay_dirs: Iterable[Path] = (), data_dir: Path | None = None) -> Catalog:
    """Load the shipped catalog plus user overlays; raises CatalogError listing every problem.

    Cross-references are checked only when every file read cleanly, so one broken part does not also
    show up as a list of 'unknown id' messages wherever it is referenced.
    """
    cat = Catalog()
    problems: list[str] = []
    cache = cache_dir()
    shipped = _regular(_yaml_files(data_dir or shipped_data_dir()), problems)
    for parsed in _read_directory(shipped, False, cache, problems):
        _add_file(parsed, cat, problems, None)
    for directory in overlay_dirs:
        directory = Path(directory)
        if not directory.is_dir():  # a FIFO or a file given as the directory is there, but is no directory
            why = "is not a directory" if os.path.lexists(directory) else "does not exist"
            problems.append(f"{directory}: user catalog directory {why}")
            continue
        report = OverlayReport(directory, ignored=_ignored_below(directory))
        prices: list[_Price] = []
        files = _regular(_inside(directory, _yaml_files(directory), problems), problems)  # no link out is looked at
        for parsed in _read_directory(files, True, cache, problems):
            prices += _add_file(parsed, cat, problems, report)
        _apply_prices(cat, prices, report, problems)
        cat.overlays.append(report)
    if not problems:
        _cross_check(cat, problems)
    if problems:
        raise CatalogError(problems)
    return cat


def describe_overlay(report: OverlayReport) -> str:
    lines = [f"{report.directory}: {len(report.added)} added, {len(report.replaced)} replaced, "
             f"{len(report.prices)} price overrides"]
    lines += [f"  + {x}" for x in report.added]
    lines += [f"  ~ {x}" for x in report.replaced]
    lines += [f"  ¥ {x}" for x in report.prices]
    lines += [f"  warning: {_one_line(x)}" for x in report.ignored]
    if report.warnings:
        lines.append(f"{len(report.warnings)} implausible value(s) (loaded; check them):")
        lines += [f"  warning: {_one_line(x)}" for x in report.warnings]
    return "\n".join(lines)


def overlay_warnings(cat: Catalog) -> list[str]:
    """Every user catalog's implausible-value warnings, one located line each."""
    return [_one_line(w) for report in cat.overlays for w in report.warnings]


def overlay_ignored(cat: Catalog) -> list[str]:
    """Every user catalog's files in subdirectories, which are not read: one line each."""
    return [_one_line(w) for report in cat.overlays for w in report.ignored]


_DEFAULT: Catalog | None = None


def default_catalog() -> Catalog:
    """The shipped catalog, loaded once per process."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = load_catalog()
    return _DEFAULT


def as_dict(part: Part) -> dict[str, Any]:
    return part.model_dump(mode="json")

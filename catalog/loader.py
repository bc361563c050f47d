"""Loads the shipped catalog and user overlay directories, validating parts and cross-references."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from catalog.models import (
    KIND_TO_TYPE,
    SECTION_TO_KIND,
    Chassis,
    ContainerImage,
    CudaRelease,
    Gpu,
    Part,
)
from catalog.yamlsource import YamlError, format_loc, locate, read_yaml

P = TypeVar("P", bound=Part)


class CatalogError(ValueError):
    """One or more problems in catalog files; ``problems`` holds one located line each."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("\n".join(problems))


class PriceOverride(BaseModel):
    """A company-negotiated price for a shipped part (``prices:`` section of an overlay file)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    id: str
    price_cny: float = Field(ge=0)
    price_date: dt.date | None = None
    price_source: str = "company price list"


@dataclass
class OverlayReport:
    """What a user catalog directory adds to or changes in the shipped catalog."""

    directory: Path
    added: list[str] = field(default_factory=list)
    replaced: list[str] = field(default_factory=list)
    prices: list[str] = field(default_factory=list)


@dataclass
class Catalog:
    """All parts by kind and id, with the file:line each one came from."""

    parts: dict[str, dict[str, Part]] = field(default_factory=lambda: {k: {} for k in KIND_TO_TYPE})
    origin: dict[tuple[str, str], str] = field(default_factory=dict)
    overlays: list[OverlayReport] = field(default_factory=list)

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


def shipped_data_dir() -> Path:
    return Path(str(resources.files("catalog") / "data"))


def _yaml_files(directory: Path) -> list[Path]:
    return sorted(p for p in directory.iterdir() if p.suffix in (".yaml", ".yml") and p.is_file())


def _display(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def _validation_problems(
    exc: ValidationError, text: str, where: str, loc_prefix: tuple[str | int, ...], label: str
) -> list[str]:
    out = []
    for err in exc.errors(include_url=False):
        loc = tuple(err["loc"])
        line = locate(text, (*loc_prefix, *loc))
        field_name = format_loc(loc) or "(part)"
        msg = err["msg"]
        if err["type"] == "extra_forbidden":
            msg = "unknown field (not part of the catalog format)"
        out.append(f"{where}:{line}: {label}: {field_name}: {msg}")
    return out


def _read_file(
    path: Path, cat: Catalog, problems: list[str], report: OverlayReport | None
) -> list[PriceOverride]:
    where = _display(path)
    try:
        data, text = read_yaml(path)
    except YamlError as exc:
        problems.append(f"{where}:{exc.line}: {exc.message}" if exc.line else f"{where}: {exc.message}")
        return []
    if data is None:
        return []
    if not isinstance(data, dict):
        problems.append(f"{where}:1: expected sections like 'gpus:' or 'cpus:' at the top level")
        return []
    prices: list[PriceOverride] = []
    for section, items in data.items():
        line = locate(text, (section,))
        if section == "prices" and report is not None:
            for i, raw in enumerate(items or []):
                try:
                    prices.append(PriceOverride.model_validate(raw))
                except ValidationError as exc:
                    problems += _validation_problems(exc, text, where, (section, i), f"price #{i + 1}")
            continue
        kind = SECTION_TO_KIND.get(str(section))
        if kind is None:
            known = ", ".join(sorted(SECTION_TO_KIND))
            problems.append(f"{where}:{line}: unknown section '{section}' (known: {known})")
            continue
        if not isinstance(items, list):
            problems.append(f"{where}:{line}: '{section}' must be a list of parts")
            continue
        cls = KIND_TO_TYPE[kind]
        for i, raw in enumerate(items):
            pid = raw.get("id") if isinstance(raw, dict) else None
            label = f"{kind} '{pid}'" if pid else f"{kind} #{i + 1}"
            if not isinstance(raw, dict):
                line_i = locate(text, (section, i))
                problems.append(f"{where}:{line_i}: {label}: expected a mapping of fields")
                continue
            try:
                part = cls.model_validate(raw)
            except ValidationError as exc:
                problems += _validation_problems(exc, text, where, (section, i), label)
                continue
            origin = f"{where}:{locate(text, (section, i))}" if report is not None else where
            existing = cat.parts[kind].get(part.id)
            if existing is not None:
                if report is None or (kind, part.id) in _overlay_ids(cat, report):
                    first = cat.origin.get((kind, part.id), "?")
                    problems.append(f"{where}:{locate(text, (section, i))}: {label}: duplicate id "
                                    f"(first defined at {first})")
                    continue
                report.replaced.append(f"{kind} {part.id}")
            elif report is not None:
                report.added.append(f"{kind} {part.id}")
            cat.parts[kind][part.id] = part
            cat.origin[(kind, part.id)] = origin
    return prices


def _overlay_ids(cat: Catalog, report: OverlayReport) -> set[tuple[str, str]]:
    ids = set()
    for entry in report.added + report.replaced:
        kind, _, pid = entry.partition(" ")
        ids.add((kind, pid))
    return ids


def _cross_check(cat: Catalog, problems: list[str]) -> None:
    def where(kind: str, pid: str) -> str:
        return cat.origin.get((kind, pid), "?")

    for ch in cat.all(Chassis):
        if ch.psu_included and cat.get("psu", ch.psu_included) is None:
            problems.append(f"{where('chassis', ch.id)}: chassis '{ch.id}': psu_included: "
                            f"unknown psu '{ch.psu_included}'")
        for gid in ch.gpus_supported:
            gpu = cat.gpu(gid)
            if gpu is None:
                problems.append(f"{where('chassis', ch.id)}: chassis '{ch.id}': gpus_supported: "
                                f"unknown gpu '{gid}'")
            elif gpu.form_factor != ch.gpu_form_factor:
                problems.append(f"{where('chassis', ch.id)}: chassis '{ch.id}': gpus_supported: '{gid}' is "
                                f"{gpu.form_factor.value}, the chassis takes {ch.gpu_form_factor.value}")
    for img in cat.all(ContainerImage):
        if img.framework and cat.get("framework", img.framework) is None:
            problems.append(f"{where('image', img.id)}: image '{img.id}': framework: "
                            f"unknown framework '{img.framework}'")


def load_catalog(overlay_dirs: Iterable[Path] = (), data_dir: Path | None = None) -> Catalog:
    """Load the shipped catalog plus user overlays; raises CatalogError listing every problem."""
    cat = Catalog()
    problems: list[str] = []
    for path in _yaml_files(data_dir or shipped_data_dir()):
        _read_file(path, cat, problems, None)
    for directory in overlay_dirs:
        directory = Path(directory)
        if not directory.is_dir():
            problems.append(f"{directory}: user catalog directory does not exist")
            continue
        report = OverlayReport(directory)
        all_prices: list[tuple[Path, PriceOverride]] = []
        for path in _yaml_files(directory):
            all_prices += [(path, p) for p in _read_file(path, cat, problems, report)]
        for path, price in all_prices:
            target = next((k for k, by_id in cat.parts.items() if price.id in by_id), None)
            if target is None:
                problems.append(f"{_display(path)}: prices: unknown part id '{price.id}'")
                continue
            old = cat.parts[target][price.id]
            cat.parts[target][price.id] = old.model_copy(update={
                "price_cny": price.price_cny,
                "price_date": price.price_date,
                "price_source": price.price_source,
            })
            report.prices.append(f"{target} {price.id}: {old.price_cny} -> {price.price_cny} CNY")
        cat.overlays.append(report)
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
    return "\n".join(lines)


_DEFAULT: Catalog | None = None


def default_catalog() -> Catalog:
    """The shipped catalog, loaded once per process."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = load_catalog()
    return _DEFAULT


def as_dict(part: Part) -> dict[str, Any]:
    return part.model_dump(mode="json")

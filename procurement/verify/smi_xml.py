"""Parses `nvidia-smi -q -x` XML of every DTD generation (v11, v12, v13) into plain GPU records."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field

# Values nvidia-smi prints where it has no reading: 'N/A', '[N/A]', '[Not Supported]', '[Unknown Error]',
# '[Insufficient Permissions]', '[GPU requires reset]', and a deprecation text in newer drivers.
_NO_VALUE = {
    "n/a",
    "none",
    "",
    "requested functionality has been deprecated",
    "unknown error",
    "not supported",
}
_NUMBER = re.compile(r"^\s*(-?\d+(?:\.\d+)?)")
_DOCTYPE = re.compile(r"<!DOCTYPE\b", re.IGNORECASE)


class SmiParseError(ValueError):
    """The output is not a usable nvidia-smi XML report (garbage, truncated, or unsafe)."""


@dataclass
class MigDevice:
    index: int | None
    gpu_instance_id: int | None
    memory_total_mib: int | None


@dataclass
class SmiGpu:
    """One <gpu> block: the fields the checks need (the report keeps a subset)."""

    index: int
    bus_id: str | None
    name: str | None
    uuid: str | None = None
    serial: str | None = None
    architecture: str | None = None
    memory_total_mib: int | None = None
    pcie_gen_current: int | None = None
    pcie_gen_max: int | None = None
    pcie_width_current: int | None = None
    pcie_width_max: int | None = None
    power_limit_w: float | None = None
    default_power_limit_w: float | None = None
    max_power_limit_w: float | None = None
    power_draw_w: float | None = None
    persistence_mode: bool | None = None
    ecc_enabled: bool | None = None
    ecc_pending: bool | None = None
    ecc_uncorrectable_aggregate: int | None = None
    temperature_c: int | None = None
    mig_mode: bool | None = None
    mig_pending: bool | None = None
    mig_devices: list[MigDevice] = field(default_factory=list)
    retired_pending: bool | None = None
    retired_pages: int | None = None
    remapped_pending: bool | None = None
    remapped_failure: bool | None = None
    remapped_uncorrectable: int | None = None
    utilization_pct: int | None = None
    performance_state: str | None = None
    virtualization_mode: str | None = None


@dataclass
class SmiReport:
    driver_version: str | None
    cuda_version: str | None
    attached_gpus: int | None
    gpus: list[SmiGpu]
    timestamp: str | None = None


# ---------------------------------------------------------------- value helpers


def clean(text: str | None) -> str | None:
    """The text of a value, or None where nvidia-smi has no reading."""
    if text is None:
        return None
    value = " ".join(text.split())
    low = value.lower()
    if low in _NO_VALUE or (low.startswith("[") and low.endswith("]")):
        return None
    return value


def number(text: str | None) -> float | None:
    """The leading number of '81559 MiB', '700.00 W', '16x', '29 C'; None for N/A."""
    value = clean(text)
    if value is None:
        return None
    m = _NUMBER.match(value)
    return float(m.group(1)) if m else None


def integer(text: str | None) -> int | None:
    n = number(text)
    return None if n is None else round(n)


def flag(text: str | None) -> bool | None:
    """Enabled/Disabled, Yes/No, Active/Not Active -> bool; anything else None."""
    value = clean(text)
    if value is None:
        return None
    low = value.lower()
    if low in ("enabled", "yes", "active", "on", "true"):
        return True
    if low in ("disabled", "no", "not active", "off", "false"):
        return False
    return None


def _text(node: ET.Element | None, path: str) -> str | None:
    if node is None:
        return None
    el = node.find(path)
    return None if el is None else el.text


def _first(node: ET.Element, *paths: str) -> str | None:
    """The first of several paths that holds a value (elements were renamed between DTD versions)."""
    for path in paths:
        value = clean(_text(node, path))
        if value is not None:
            return value
    return None


def _version(text: str | None) -> str | None:
    """'610.57.04 [Deprecated; …]' -> '610.57.04'."""
    value = clean(text)
    if value is None:
        return None
    m = re.match(r"\d+(?:\.\d+)*", value)
    return m.group(0) if m else None


# ---------------------------------------------------------------- safety


def check_prolog(text: str) -> None:
    """Refuse an internal DTD subset (the only place ENTITY declarations can live).

    Real reports carry `<!DOCTYPE nvidia_smi_log SYSTEM "nvsmi_device_v13.dtd">`, which is harmless:
    ElementTree never fetches external DTDs. A document that declares entities is not nvidia-smi output
    and could expand without bound, so it is rejected before parsing.
    """
    root_at = text.find("<nvidia_smi_log")
    prolog = text[:root_at] if root_at >= 0 else text  # declarations can only precede the root element
    if "<!ENTITY" in prolog.upper():
        raise SmiParseError("the XML declares entities (<!ENTITY>), which nvidia-smi never does; refused")
    m = _DOCTYPE.search(prolog)
    if m:
        end = prolog.find(">", m.end())
        if end < 0 or "[" in prolog[m.end() : end]:
            raise SmiParseError("the XML has an internal DTD subset, which nvidia-smi never prints; refused")


# ---------------------------------------------------------------- parsing

_CLOCKS_OPEN, _CLOCKS_CLOSE = "<supported_clocks>", "</supported_clocks>"


def _drop_clock_tables(text: str) -> str:
    """Cut the <supported_clocks> tables (over half of an H100 report, never used) before parsing.

    A block without its closing tag is left alone, so truncated output still fails to parse.
    """
    parts: list[str] = []
    pos = 0
    while True:
        i = text.find(_CLOCKS_OPEN, pos)
        if i < 0:
            break
        j = text.find(_CLOCKS_CLOSE, i)
        if j < 0:
            break
        parts.append(text[pos:i])
        pos = j + len(_CLOCKS_CLOSE)
    if not parts:
        return text
    parts.append(text[pos:])
    return "".join(parts)


def parse_smi_xml(data: str | bytes) -> SmiReport:
    """Parse `nvidia-smi -q -x` output; raises SmiParseError on garbage, truncation or unsafe XML."""
    if isinstance(data, bytes):
        text = data.decode("utf-8", errors="replace")
    else:
        text = data
    if not text.strip():
        raise SmiParseError("nvidia-smi printed nothing")
    check_prolog(text)
    start = text.find("<")
    if start < 0:
        raise SmiParseError("the output is not XML")
    try:
        root = ET.fromstring(_drop_clock_tables(text[start:]))
    except ET.ParseError as exc:
        raise SmiParseError(f"the XML is malformed or truncated ({exc})") from None
    if root.tag != "nvidia_smi_log":
        raise SmiParseError(f"the XML root is <{root.tag}>, not <nvidia_smi_log>")
    gpus = [_parse_gpu(i, g) for i, g in enumerate(root.findall("gpu"))]
    return SmiReport(
        driver_version=_version(_first(root, "driver_version", "kmd_version")),
        cuda_version=_version(_first(root, "cuda_version", "cuda_umd_version")),
        attached_gpus=integer(_text(root, "attached_gpus")),
        gpus=gpus,
        timestamp=clean(_text(root, "timestamp")),
    )


def _parse_gpu(index: int, g: ET.Element) -> SmiGpu:
    link = g.find("pci/pci_gpu_link_info")
    power = g.find("gpu_power_readings")
    if power is None:
        power = g.find("power_readings")
    gpu = SmiGpu(
        index=index,
        bus_id=g.get("id") or clean(_text(g, "pci/pci_bus_id")),
        name=clean(_text(g, "product_name")),
        uuid=clean(_text(g, "uuid")),
        serial=clean(_text(g, "serial")),
        architecture=clean(_text(g, "product_architecture")),
        memory_total_mib=integer(_text(g, "fb_memory_usage/total")),
        persistence_mode=flag(_text(g, "persistence_mode")),
        ecc_enabled=flag(_text(g, "ecc_mode/current_ecc")),
        ecc_pending=flag(_text(g, "ecc_mode/pending_ecc")),
        temperature_c=integer(_text(g, "temperature/gpu_temp")),
        mig_mode=flag(_text(g, "mig_mode/current_mig")),
        mig_pending=flag(_text(g, "mig_mode/pending_mig")),
        utilization_pct=integer(_text(g, "utilization/gpu_util")),
        performance_state=clean(_text(g, "performance_state")),
        virtualization_mode=clean(_text(g, "gpu_virtualization_mode/virtualization_mode")),
    )
    if link is not None:
        gpu.pcie_gen_current = integer(_text(link, "pcie_gen/current_link_gen"))
        gpu.pcie_gen_max = integer(_text(link, "pcie_gen/max_link_gen"))
        gpu.pcie_width_current = integer(_text(link, "link_widths/current_link_width"))
        gpu.pcie_width_max = integer(_text(link, "link_widths/max_link_width"))
    if power is not None:
        # v12+: current_power_limit; v11: enforced_power_limit (what the GPU obeys), then power_limit.
        gpu.power_limit_w = number(
            _first(power, "current_power_limit", "enforced_power_limit", "power_limit")
        )
        gpu.default_power_limit_w = number(_text(power, "default_power_limit"))
        gpu.max_power_limit_w = number(_text(power, "max_power_limit"))
        gpu.power_draw_w = number(_first(power, "instant_power_draw", "power_draw", "average_power_draw"))
    _parse_memory_health(g, gpu)
    for dev in g.findall("mig_devices/mig_device"):
        gpu.mig_devices.append(
            MigDevice(
                index=integer(_text(dev, "index")),
                gpu_instance_id=integer(_text(dev, "gpu_instance_id")),
                memory_total_mib=integer(_text(dev, "fb_memory_usage/total")),
            )
        )
    return gpu


def _parse_memory_health(g: ET.Element, gpu: SmiGpu) -> None:
    retired = g.find("retired_pages")
    if retired is not None:
        pending = [flag(_text(retired, p)) for p in ("pending_retirement", "pending_blacklist")]
        known = [p for p in pending if p is not None]
        gpu.retired_pending = any(known) if known else None
        counts = [
            integer(_text(retired, p))
            for p in ("multiple_single_bit_retirement/retired_count", "double_bit_retirement/retired_count")
        ]
        nums = [c for c in counts if c is not None]
        gpu.retired_pages = sum(nums) if nums else None
    remapped = g.find("remapped_rows")
    if remapped is not None and len(remapped):
        gpu.remapped_pending = flag(_text(remapped, "remapped_row_pending"))
        gpu.remapped_failure = flag(_text(remapped, "remapped_row_failure"))
        gpu.remapped_uncorrectable = integer(_text(remapped, "remapped_row_unc"))
    aggregate = g.find("ecc_errors/aggregate")
    if aggregate is not None:
        names = (
            "dram_uncorrectable",
            "sram_uncorrectable",
            "sram_uncorrectable_parity",
            "sram_uncorrectable_secded",
            "double_bit/total",
        )
        values = [integer(_text(aggregate, n)) for n in names]
        nums = [v for v in values if v is not None]
        gpu.ecc_uncorrectable_aggregate = sum(nums) if nums else None

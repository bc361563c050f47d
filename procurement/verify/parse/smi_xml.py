"""Parses `nvidia-smi -q -x` XML of every DTD generation (v11, v12, v13) into plain GPU records."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import DefusedXMLParser

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

# Readings that mean the GPU (or the driver's view of it) is faulty, not that the field does not apply:
# nvidia-smi prints '[Unknown Error]' in XML, 'ERR!' in its table, '[GPU requires reset]', '[GPU is lost]'.
_FAULT = re.compile(r"\s*\[?\s*(?:unknown error|err!|gpu requires reset|gpu is lost)", re.IGNORECASE)
# The same readings anywhere in the document: most reports have none, and then no element is scanned.
_FAULT_ANYWHERE = re.compile(r">\s*\[?\s*(?:unknown error|err!|gpu requires reset|gpu is lost)", re.IGNORECASE)
# Words the pattern above cannot match without: a plain substring test of the lower-cased text rules most
# reports out ten times faster than the case-insensitive pattern (which then runs only where one occurs).
_FAULT_WORDS = ("unknown error", "err!", "gpu requires reset", "gpu is lost")


MAX_READING = 1e15
MAX_GPUS = 256
"""GPUs one node can report (the largest servers hold 16 to 20; NVML enumerates every GPU and MIG parent the same
way): a forged report of 96,000 GPUs took 874 MB and many minutes in judge."""
"""Larger than any count, size in MiB, power, clock or temperature nvidia-smi reports."""


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
    app_clock_graphics_mhz: int | None = None
    """<applications_clocks>: the clocks `nvidia-smi -ac` sets (the default ones unless someone fixed them)."""
    app_clock_memory_mhz: int | None = None
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
    vbios_version: str | None = None
    board_part_number: str | None = None
    inforom_image: str | None = None
    replay_counter: int | None = None
    """PCIe replay counter (link retransmissions since boot)."""
    throttle: dict[str, bool] = field(default_factory=dict)
    """Clock event (throttle) reasons by short name ('hw_thermal_slowdown', 'sw_power_cap', …) -> active."""
    temp_slowdown_c: int | None = None
    temp_shutdown_c: int | None = None
    tlimit_margin_c: int | None = None
    """v13 T.Limit: degrees below the GPU's own limit now (H100 and newer report this instead of °C)."""
    tlimit_slowdown_c: int | None = None
    tlimit_shutdown_c: int | None = None
    memory_temp_c: int | None = None
    fabric_state: str | None = None
    """HGX fabric (NVSwitch/Fabric Manager) state per GPU: 'Completed', 'In Progress', 'Not Started'."""
    fabric_status: str | None = None
    ecc_uncorrectable_volatile: int | None = None
    """Uncorrectable ECC errors since the driver loaded."""
    faults: list[tuple[str, str]] = field(default_factory=list)
    """(element path, reading) for every reading nvidia-smi could not take because of a fault
    ('[Unknown Error]', 'ERR!', '[GPU requires reset]'): such a GPU cannot be said to pass anything."""
    unreadable: set[str] = field(default_factory=set)
    """Names of the fields above whose reading was a fault (as opposed to 'N/A' / not supported)."""


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
    if not m:
        return None
    n = float(m.group(1))
    if not math.isfinite(n) or abs(n) > MAX_READING:
        # a 400-digit temperature or memory size is no reading: say so, instead of an OverflowError
        digits = m.group(1)
        shown = digits if len(digits) <= 24 else f"{digits[:12]}…{digits[-4:]} ({len(digits)} characters)"
        raise SmiParseError(f"the XML holds an impossible number: {shown}")
    return n


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


_STEPS: dict[str, tuple[str, ...]] = {}


def _find(node: ET.Element, path: str) -> ET.Element | None:
    """``node.find(path)`` for a plain 'a/b/c' path, one child lookup per step: the C element's find of a
    single tag is a scan in C, while a path with '/' goes through ElementPath in Python (several times
    slower, and the parser looks up about 140 paths per GPU)."""
    steps = _STEPS.get(path)
    if steps is None:
        steps = _STEPS[path] = tuple(path.split("/"))
    el: ET.Element | None = node
    for step in steps:
        el = el.find(step)  # type: ignore[union-attr]
        if el is None:
            return None
    return el


def _text(node: ET.Element | None, path: str) -> str | None:
    if node is None:
        return None
    el = _find(node, path)
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


def is_fault(text: str | None) -> bool:
    """True for a reading nvidia-smi could not take because the GPU faulted ('[Unknown Error]', 'ERR!')."""
    return text is not None and _FAULT.match(text) is not None


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


class _PrologDone(Exception):
    """Raised by the prolog check at the root element: every declaration comes before it."""


class _StopAtRoot:
    """Tree-builder target for the prolog check: stops the parse at the first element."""

    def start(self, tag: str, attrib: dict[str, str]) -> None:
        raise _PrologDone

    def close(self) -> None:
        return None


def _refuse_entities(text: str) -> None:
    """defusedxml's refusal of entity declarations and external references, applied to the prolog.

    Entities can only be declared in the DTD's internal subset, which XML puts before the root element, so
    defusedxml's parser stops at the root element: it has seen every declaration by then (and raises on the
    first), while the document itself is then built by the C parser, several times faster than defusedxml's
    pure-Python tree builder. A document with no declaration has no entity the C parser could expand; a
    reference to an undeclared one is a parse error there.
    """
    parser = DefusedXMLParser(target=_StopAtRoot(), forbid_dtd=False, forbid_entities=True,
                              forbid_external=True)
    try:
        parser.feed(text)
        parser.close()  # no element at all: the parse error says why
    except _PrologDone:
        return


def parse_smi_xml(data: str | bytes) -> SmiReport:
    """Parse `nvidia-smi -q -x` output; raises SmiParseError on garbage, truncation or unsafe XML."""
    if isinstance(data, bytes):
        text = data.decode("utf-8", errors="replace")
    else:
        text = data
    if not text.strip():
        raise SmiParseError("nvidia-smi printed nothing")
    start = text.find("<")
    if start < 0:
        raise SmiParseError("the output is not XML")
    try:
        # defusedxml refuses entity declarations and external references by construction, wherever they
        # hide (a text guard was fooled by a comment); the DOCTYPE nvidia-smi prints names an external DTD,
        # which is allowed and never fetched.
        body = _drop_clock_tables(text[start:])
        _refuse_entities(body)
        root = ET.fromstring(body)
    except DefusedXmlException as exc:
        raise SmiParseError(f"the XML declares entities or external references, which nvidia-smi never "
                            f"prints; refused ({exc})") from None
    except ET.ParseError as exc:
        raise SmiParseError(f"the XML is malformed or truncated ({exc})") from None
    if root.tag != "nvidia_smi_log":
        raise SmiParseError(f"the XML root is <{root.tag}>, not <nvidia_smi_log>")
    # the readings the tree holds are those of ``body`` (the clock tables are not read)
    low = body.lower()
    faults = any(w in low for w in _FAULT_WORDS) and _FAULT_ANYWHERE.search(body) is not None
    found = root.findall("gpu")
    if len(found) > MAX_GPUS:
        raise SmiParseError(f"the XML lists {len(found):,} GPUs; no node has more than {MAX_GPUS} (refused)")
    gpus = [_parse_gpu(i, g, faults) for i, g in enumerate(found)]
    return SmiReport(
        driver_version=_version(_first(root, "driver_version", "kmd_version")),
        cuda_version=_version(_first(root, "cuda_version", "cuda_umd_version")),
        attached_gpus=integer(_text(root, "attached_gpus")),
        gpus=gpus,
        timestamp=clean(_text(root, "timestamp")),
    )


def _parse_gpu(index: int, g: ET.Element, faults: bool = True) -> SmiGpu:
    link = _find(g, "pci/pci_gpu_link_info")
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
        app_clock_graphics_mhz=integer(_text(g, "applications_clocks/graphics_clock")),
        app_clock_memory_mhz=integer(_text(g, "applications_clocks/mem_clock")),
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
    _parse_health(g, gpu, faults)
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
    aggregate = _find(g, "ecc_errors/aggregate")
    if aggregate is not None:
        gpu.ecc_uncorrectable_aggregate = _uncorrectable(aggregate)


# Uncorrectable ECC counters under the names the captured drivers print (they differ between driver versions);
# whichever this driver prints are added.
_UNCORRECTABLE = ("dram_uncorrectable", "sram_uncorrectable", "sram_uncorrectable_parity",
                  "sram_uncorrectable_secded", "double_bit/total")


def _uncorrectable(counters: ET.Element) -> int | None:
    """The uncorrectable ECC errors of one <volatile> or <aggregate> block; None where none is readable."""
    nums = [v for v in (integer(_text(counters, n)) for n in _UNCORRECTABLE) if v is not None]
    return sum(nums) if nums else None


# Field -> the elements it is read from (for telling a fault reading from a missing one).
FIELD_PATHS: dict[str, tuple[str, ...]] = {
    "name": ("product_name",),
    "memory_total_mib": ("fb_memory_usage/total",),
    "pcie_gen_current": ("pci/pci_gpu_link_info/pcie_gen/current_link_gen",),
    "pcie_gen_max": ("pci/pci_gpu_link_info/pcie_gen/max_link_gen",),
    "pcie_width_current": ("pci/pci_gpu_link_info/link_widths/current_link_width",),
    "pcie_width_max": ("pci/pci_gpu_link_info/link_widths/max_link_width",),
    "power_limit_w": (
        "gpu_power_readings/current_power_limit",
        "power_readings/enforced_power_limit",
        "power_readings/power_limit",
    ),
    "default_power_limit_w": ("gpu_power_readings/default_power_limit", "power_readings/default_power_limit"),
    "persistence_mode": ("persistence_mode",),
    "ecc_enabled": ("ecc_mode/current_ecc",),
    "temperature_c": ("temperature/gpu_temp",),
    "mig_mode": ("mig_mode/current_mig",),
    "vbios_version": ("vbios_version",),
    "board_part_number": ("board_part_number",),
    "fabric_state": ("fabric/state",),
}


def _parse_health(g: ET.Element, gpu: SmiGpu, faults: bool = True) -> None:
    gpu.vbios_version = clean(_text(g, "vbios_version"))
    gpu.board_part_number = clean(_text(g, "board_part_number"))
    gpu.inforom_image = clean(_text(g, "inforom_version/img_version"))
    gpu.replay_counter = integer(_text(g, "pci/replay_counter"))
    for block in ("clocks_event_reasons", "clocks_throttle_reasons"):  # v13 name, v11/v12 name
        node = g.find(block)
        if node is None:
            continue
        for child in node:
            name = re.sub(r"^clocks_(?:event|throttle)_reason_", "", child.tag)
            value = flag(child.text)
            if value is not None:
                gpu.throttle[name] = value
        break
    temp = g.find("temperature")
    if temp is not None:
        gpu.temp_slowdown_c = integer(_text(temp, "gpu_temp_slow_threshold"))
        gpu.temp_shutdown_c = integer(_text(temp, "gpu_temp_max_threshold"))
        gpu.tlimit_margin_c = integer(_text(temp, "gpu_temp_tlimit"))
        gpu.tlimit_slowdown_c = integer(_text(temp, "gpu_temp_slow_tlimit_threshold"))
        gpu.tlimit_shutdown_c = integer(_text(temp, "gpu_temp_max_tlimit_threshold"))
        gpu.memory_temp_c = integer(_text(temp, "memory_temp"))
    gpu.fabric_state = clean(_text(g, "fabric/state"))
    gpu.fabric_status = clean(_text(g, "fabric/status"))
    volatile = _find(g, "ecc_errors/volatile")
    if volatile is not None:
        gpu.ecc_uncorrectable_volatile = _uncorrectable(volatile)
    if not faults:
        return
    for el in g.iter():
        if el is not g and len(el) == 0 and is_fault(el.text):
            gpu.faults.append((_path_of(g, el), " ".join((el.text or "").split())))
    for fname, paths in FIELD_PATHS.items():
        if any(is_fault(_text(g, p)) for p in paths):
            gpu.unreadable.add(fname)


def _path_of(root: ET.Element, target: ET.Element) -> str:
    """'fb_memory_usage/total' for an element below ``root`` (the tree has no parent links)."""
    stack: list[tuple[ET.Element, str]] = [(root, "")]
    while stack:
        node, path = stack.pop()
        for child in node:
            p = f"{path}/{child.tag}" if path else child.tag
            if child is target:
                return p
            stack.append((child, p))
    return target.tag

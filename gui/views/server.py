"""What step 3 shows: the gauges' readings and colours, and the text of each catalog part, from the evaluation.

The figures are the evaluation's budgets (never recomputed) worded in the core's messages, the same words
and digits as the PDFs and `gpu-procure check` (procurement/facility_summary.py for the wall power, the rack
and the PDU; the quote's part specs): one figure reads the same on screen and on paper. Numbers are written
as the core writes them (thousands with ',', a '.' for the decimals), which is how the app's locales
(en_US, zh_CN) write them too (tests/gui/test_numbers_locale.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from catalog.models import Chassis, Cpu, MemoryModule, Nic, Part, Psu, Storage
from procurement import part_texts  # noqa: F401  (the quote's spec words: cores, GPU positions, tower/rack)
from procurement.facility_summary import cord_lines, rack_lines, server_line
from procurement.findings import Finding, Severity
from procurement.messages import Lang, plural, register, t

if TYPE_CHECKING:
    from procurement.compatibility import Fit
    from procurement.evaluation import Budgets

UNKNOWN = "—"

GAUGES: tuple[str, ...] = ("power", "pcie", "cooling", "rack")
GAUGE_BUDGET = {"power": "power", "pcie": "lanes", "cooling": "heat", "rack": "power"}
"""Gauge → the budget it shows."""
RACK_FIELDS = frozenset({"server.servers_per_rack", "server.rack_power_limit_kw"})
"""A finding that names one of these fields is about the rack (POWER-RACK-LIMIT, POWER-RACK-UNITS,
COOLING-LIQUID): it colours the rack gauge, not the gauge of its family. The page named the three rule ids;
a new rack rule now colours the rack gauge by naming the field it is about."""


@dataclass(frozen=True)
class GaugeReading:
    """One gauge: the amount used, the capacity it is compared with (None: unknown) and the detail lines."""

    used: float | None
    capacity: float | None
    detail: str


def _n(value: float | None, digits: int = 0) -> str:
    """1050 → '1,050' (``digits`` after the point); None → '—'."""
    return UNKNOWN if value is None else f"{value:,.{digits}f}"


def _short(value: float | None) -> str:
    """The shortest exact form: 12.0 → '12', 1.5 → '1.5', 7165.0 → '7,165'."""
    if value is None:
        return UNKNOWN
    return f"{round(value):,}" if float(value).is_integer() else f"{value:,}"


def gauge_readings(budgets: Budgets, lang: Lang, tower: bool = False) -> dict[str, GaugeReading]:
    """The gauges' numbers from the evaluation's budgets: power, lanes and airflow of one server, and its rack
    (servers per rack × wall power against the rack limit, or the liquid-cooling density where no limit is
    set; a tower stands alone: no rack reading)."""
    out = {key: GaugeReading(None, None, budgets.errors.get(name, "")) for key, name in GAUGE_BUDGET.items()}
    pb = budgets.power
    if pb is not None:
        lines = [t("gauge.power", lang, draw=_n(pb.draw_w), headroom=_short(pb.headroom_pct),
                   required=_n(pb.required_w), usable=_n(pb.usable_w))]
        server = server_line(pb, lang)
        if server is not None:
            lines += [server, *cord_lines(pb, lang, stops=True)]
        out["power"] = GaugeReading(pb.draw_w, pb.usable_w or None, "\n".join(lines))
        rack = pb.rack
        if rack is not None and not tower:
            threshold = budgets.heat.liquid_threshold_kw if budgets.heat is not None else None
            # without the site's own rack limit the gauge compares with the liquid-cooling threshold, and says so
            limit = pb.rack_limit_kw or threshold
            lines = rack_lines(pb, lang)
            if rack.rack_units is not None:
                lines.insert(min(1, len(lines)), t("gauge.rack.space", lang, servers=rack.servers_per_rack,
                                                   units=rack.rack_units, usable=rack.rack_units_usable))
            if not pb.rack_limit_kw and threshold is not None:
                lines.append(t("gauge.rack.no_limit", lang, kw=_short(threshold)))
            out["rack"] = GaugeReading(rack.rack_kw, limit, "\n".join(lines))
    lb = budgets.lanes
    if lb is not None:
        used = lb.cpu_needed + lb.switch_needed
        available = None if lb.cpu_lanes is None else lb.cpu_lanes + lb.switch_lanes
        narrower = ", ".join(f"{d.count} × {d.label} x{d.granted}" if d.count > 1 and d.kind != "gpu"
                             else f"{d.label} x{d.granted}" for d in lb.reduced)
        text = t("gauge.lanes", lang, used=used, available=UNKNOWN if available is None else available,
                 cpu=UNKNOWN if lb.cpu_lanes is None else lb.cpu_lanes, switches=lb.switch_lanes)
        if narrower:
            text += "\n" + t("gauge.lanes.narrower", lang, devices=narrower)
        out["pcie"] = GaugeReading(used, available or None, text)
    hb = budgets.heat
    if hb is not None:
        out["cooling"] = GaugeReading(hb.required_cfm, hb.chassis_cfm,
                                      t("gauge.airflow", lang, heat=_n(hb.heat_w), need=_n(hb.required_cfm),
                                        have=_n(hb.chassis_cfm)))
    return out


def cord_figures(budgets: Budgets, lang: Lang) -> str:
    """Per cord at the site voltage: amps and VA with every PSU sharing, then with the redundant units failed,
    one line each, in the words and digits of `check`, the quote, the RFQ and the checklist
    (procurement.facility_summary.cord_lines over the power budget; nothing recomputed here). Empty when there
    is nothing to sign: no wall power, no GPU or CPU, or no PSU count."""
    pb = budgets.power
    return "" if pb is None else "\n".join(cord_lines(pb, lang, stops=True))


def gauge_states(findings: Iterable[Finding]) -> dict[str, str]:
    """Each gauge's colour ('error', 'warning'; absent: 'ok') from the findings of its rule family: the rules
    decide, not the gauge. A rack finding colours the rack gauge only (the PSU gauge turned red at 48 % load
    because the rack limit, same "power" family, was exceeded)."""
    states: dict[str, str] = {}
    for f in findings:
        if f.severity == Severity.INFO:
            continue
        sev = "error" if f.severity == Severity.ERROR else "warning"
        key = "rack" if RACK_FIELDS.intersection(f.fields) else f.family
        if states.get(key) != "error":
            states[key] = sev
    return states


# ---------------------------------------------------------------- part descriptions (key specs in the item)

def describe_part(part: Part, lang: Lang) -> str:
    """The text of a catalog part in a list: its name and the specs a buyer compares, in the quote's words."""
    specs: list[str] = []
    if isinstance(part, Cpu):
        specs = [t("quote.spec.cores", lang, cores=part.cores)]
        if part.tdp_w:
            specs.append(f"{_short(part.tdp_w)} W")
        if part.pcie_lanes:
            specs.append(t("parts.pcie_lanes", lang, lanes=part.pcie_lanes))
        specs.append(f"PCIe Gen{part.pcie_gen}")
        if part.max_sockets is None:
            specs.append(t("parts.sockets_unknown", lang))
        elif part.max_sockets > 1:
            specs.append(t("parts.sockets", lang, sockets=part.max_sockets))
    elif isinstance(part, MemoryModule):
        specs = [f"{part.capacity_gib} GiB {part.memory_type}-{part.speed_mts}",
                 "ECC" if part.ecc else t("parts.no_ecc", lang), "RDIMM" if part.registered else "UDIMM"]
    elif isinstance(part, Storage):
        specs = [_capacity(part.capacity_gb), part.storage_kind.value.upper().replace("_", " "), part.interface]
    elif isinstance(part, Nic):
        specs = [f"{part.ports} × {_short(part.speed_gbps)} Gb/s {part.fabric}",
                 f"PCIe Gen{part.pcie_gen} x{part.pcie_lanes}"]
    elif isinstance(part, Psu):
        if part.low_line == "rated" and part.rated_w_low_line:
            low = f"{_short(part.rated_w_low_line)} W"
        elif part.low_line == "unsupported":
            low = t("parts.low_line.unsupported", lang)
        else:
            low = t("parts.low_line.unpublished", lang)
        specs = [t("parts.psu.high_line", lang, watts=_short(part.rated_w_high_line))]
        if part.rated_w_220_240:
            specs.append(t("parts.psu.220_240", lang, watts=_short(part.rated_w_220_240)))
        specs.append(t("parts.psu.low_line", lang, watts=low))
        if part.efficiency:
            specs.append(part.efficiency)
    elif isinstance(part, Chassis):
        form = (f"{part.rack_units}U" if part.form == "rack" and part.rack_units
                else t(f"quote.spec.form.{part.form}", lang))
        specs = [form, t("parts.gpu_slots", lang, positions=t("quote.spec.gpus", lang, n=part.gpu_slots),
                         form=part.gpu_form_factor.value.upper()),
                 # an unpublished bay count is left out, never shown as "None"
                 t("parts.psu_bays", lang, bays=part.psu_bays) if part.psu_bays else "",
                 # "air-cooled", not the quote's bare "air": a list item ending in ", air" read as unfinished
                 t(f"parts.cooling.{part.cooling}", lang)]
    if part.price_cny is not None:
        specs.append(f"¥{_n(part.price_cny)}")
    return f"{part.name} — {', '.join(s for s in specs if s)}" if specs else part.name


@dataclass(frozen=True)
class PartChoice:
    """One item of a part list on step 3: the part id, its text and tooltip, and whether it fits the plan."""

    id: str
    text: str
    tooltip: str
    fits: bool


def part_choices(fits: Sequence[Fit], lang: Lang, show_incompatible: bool,
                 current: str | None = None) -> tuple[PartChoice, ...]:
    """The items of a part list: the parts that fit (procurement.compatibility), then the ones that do not,
    greyed and marked with why not (after the name, so that typing a name still finds its item): all of them
    when ``show_incompatible``, otherwise only ``current`` (the plan's own choice is always listed, never
    silently swapped for another). Each group in vendor and name order."""
    ordered = sorted(fits, key=lambda f: (f.part.vendor, f.part.name))
    out = []
    for f in ordered:
        if f.fits:
            text = describe_part(f.part, lang)
            out.append(PartChoice(f.part.id, text, text, True))
    for f in ordered:
        if f.fits or not (show_incompatible or f.part.id == current):
            continue
        reason = f.reason(lang)
        out.append(PartChoice(f.part.id, t("parts.incompatible", lang, name=f.part.name, reason=reason),
                              t("parts.incompatible.tooltip", lang, part=describe_part(f.part, lang),
                                reason=reason), False))
    return tuple(out)


def _capacity(gb: float) -> str:
    return f"{_short(gb / 1000)} TB" if gb >= 1000 else f"{_short(gb)} GB"


register(
    {
        "gauge.power": (
            "Estimated draw {draw} W (with {headroom}% headroom: {required} W); usable PSU capacity {usable} W"
        ),
        "gauge.rack.space": "Space: {servers} × {units}U of {usable}U usable",
        "gauge.rack.no_limit": (
            "No rack power limit set: compared with {kw} kW per rack, above which liquid cooling is advised"
        ),
        "gauge.lanes": "PCIe lanes wanted {used}, available {available} (CPUs {cpu}, PCIe switches {switches})",
        "gauge.lanes.narrower": "Running narrower: {devices}",
        "gauge.airflow": "Heat {heat} W needs about {need} CFM; the chassis moves {have} CFM",
        "parts.pcie_lanes": plural("{lanes} PCIe lane", "{lanes} PCIe lanes", "lanes"),
        "parts.sockets_unknown": "socket limit unknown",
        "parts.sockets": "up to {sockets} sockets",
        "parts.no_ecc": "no ECC",
        "parts.low_line.unsupported": "not supported",
        "parts.low_line.unpublished": "not published",
        "parts.psu.high_line": "{watts} W at 200-240 V",
        "parts.psu.220_240": "{watts} W at 220-240 V",
        "parts.psu.low_line": "{watts} at 100-127 V",
        "parts.gpu_slots": "{positions} ({form})",
        "parts.cooling.air": "air-cooled",
        "parts.cooling.liquid": "liquid-cooled",
        "parts.psu_bays": plural("{bays} PSU bay", "{bays} PSU bays", "bays"),
        "parts.incompatible": "{name} — ✕ {reason}",
        "parts.incompatible.tooltip": "{part}\nDoes not fit what is chosen: {reason}",
    }
)

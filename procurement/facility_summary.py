"""The facility figures a data-centre engineer signs, as text and data: per server and per cord, the rack, the PDU.

One computation (procurement/budgets/power.py over procurement/facility.py), shown in `check` (text and
`--json` figures), the quote, the request for quotation and the checklist, so every place prints the same
numbers. Wall power from a model (not the vendor's published maximum) says so.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from procurement.budgets.power import PowerBudget
from procurement.coded import coded, names
from procurement.messages import Lang, plural, register, t

if TYPE_CHECKING:
    from catalog.loader import Catalog
    from procurement.facility import RackPlan
    from procurement.plan import Plan
    from procurement.policy import Policy

FACILITY_RECORD = "POWER-FACILITY"
"""The rule id of the finding-shaped record `check --json` carries the figures in (info, never a verdict)."""


def _has_load(b: PowerBudget) -> bool:
    """A GPU or a CPU is chosen (a plan with neither has only the platform's overhead: nothing to sign)."""
    return any(i.key in ("gpu", "cpu") and i.count > 0 for i in b.items)


def _not_counted(b: PowerBudget) -> list[str]:
    """The chosen parts whose power is not known, when the wall figure is modelled from the parts (a vendor's
    published maximum covers them): the figures are then a lower bound."""
    if b.system is None or b.system.from_vendor:
        return []
    return [i.label for i in b.unknown]


def _cords_known(r: RackPlan) -> bool:
    """Whether the rack's cords are known (a PSU is chosen): else only the balanced current is."""
    return sum(r.cords_per_phase) > 0


def facility_figures(b: PowerBudget) -> dict[str, object] | None:
    """The figures as data (None: no wall power known, no GPU or CPU chosen)."""
    s = b.system
    if s is None or s.ac_w <= 0 or not _has_load(b):
        return None
    out: dict[str, object] = {
        "wall_w": round(s.ac_w, 1),
        "wall_from_vendor_max": s.from_vendor,
        "lower_bound": bool(_not_counted(b)),
        "not_counted": _not_counted(b),
        "va": round(s.va, 1),
        "btu_h": round(s.btu_h),
        "volts": s.volts,
        "power_factor": s.power_factor,
        "efficiency": round(s.efficiency, 4),
        "efficiency_assumed": s.efficiency_assumed and not s.from_vendor,
        "amps": round(s.amps, 2),
        "psus": b.psu_count,
        "redundant_psus": b.redundant_units,
        "amps_per_cord": None if b.amps_per_cord_shared is None else round(b.amps_per_cord_shared, 2),
        "va_per_cord": round(s.va_per_cord(b.psu_count), 1) if b.psu_count else None,
        "amps_per_cord_after_failover": None if b.amps_per_cord is None else round(b.amps_per_cord, 2),
    }
    r = b.rack
    if r is not None:
        out["rack"] = {
            "servers": r.servers_per_rack,
            "kw": round(r.rack_kw, 2),
            "btu_h": round(r.rack_btu_h),
            "racks": r.racks_needed,
            "pdu_phases": r.pdu_phases,
            "pdu_volts": round(r.pdu_volts, 1),
            "connection": r.connection if r.pdu_phases == 3 else None,
            "pdu_amps": round(r.pdu_amps, 2),
            "balanced_amps": round(r.balanced_amps, 2),
            "cords_per_phase": list(r.cords_per_phase) if _cords_known(r) else None,
            "pdu_rating_amps": r.pdu_rating_amps,
        }
    return out


def _n(value: float, digits: int = 0) -> str:
    return f"{value:,.{digits}f}"


def facility_lines(b: PowerBudget, lang: Lang) -> list[str]:
    """The figures in words, one line each: the server, its cords, the rack and its PDU."""
    server = server_line(b, lang)
    if server is None:
        return []
    return [server, *cord_lines(b, lang, stops=True), *rack_lines(b, lang)]


def server_line(b: PowerBudget, lang: Lang) -> str | None:
    """One server at the wall: watts (and on what they rest), VA, BTU/h, amps (None: nothing to sign)."""
    s = b.system
    if s is None or s.ac_w <= 0 or not _has_load(b):
        return None
    missing = _not_counted(b)
    basis = t("facility.basis.vendor" if s.from_vendor else
              "facility.basis.model.lower" if missing else "facility.basis.model", lang,
              eff=f"{100 * s.efficiency:.0f}", parts=names(missing))
    return t("facility.server", lang, wall=_n(s.ac_w), va=_n(s.va), btu=_n(s.btu_h), amps=_n(s.amps, 1),
             volts=f"{s.volts:g}", pf=f"{s.power_factor:g}", basis=basis)


def rack_lines(b: PowerBudget, lang: Lang) -> list[str]:
    """The rack (servers, kW, BTU/h, racks for the nodes) and its PDU; empty without a rack or a load."""
    r = b.rack
    if r is None or server_line(b, lang) is None:
        return []
    lines = [t("facility.rack", lang, servers=r.servers_per_rack, kw=_n(r.rack_kw, 1), btu=_n(r.rack_btu_h),
               racks=coded("facility.racks", n=r.racks_needed))]
    rating = f"{r.pdu_rating_amps}" if r.pdu_rating_amps is not None else t("facility.pdu_over", lang)
    if r.pdu_phases == 3 and not _cords_known(r):  # no PSU yet: the balanced current, the least it can be
        lines.append(t(f"facility.pdu3.{r.connection}.balanced", lang, v_ll=_n(r.pdu_volts),
                       balanced=_n(r.balanced_amps, 1), rating=rating))
    elif r.pdu_phases == 3:
        lines.append(t(f"facility.pdu3.{r.connection}", lang, v_ll=_n(r.pdu_volts), amps=_n(r.pdu_amps, 1),
                       spread="/".join(str(c) for c in r.cords_per_phase), rating=rating,
                       balanced=_n(r.balanced_amps, 1)))
    else:
        lines.append(t("facility.pdu1", lang, volts=_n(r.pdu_volts), amps=_n(r.pdu_amps, 1), rating=rating))
    return lines


def cord_lines(b: PowerBudget, lang: Lang, stops: bool = False) -> list[str]:
    """Only the cords: amps and VA per cord shared, and after the redundant units fail (the checklist's PSU
    item shows these beside the capacity figures, without the sentence stops unless ``stops``)."""
    s = b.system
    if s is None or not _has_load(b) or not b.psu_count or b.amps_per_cord_shared is None:
        return []
    out = [t("facility.cords.one" if b.psu_count == 1 else "facility.cords", lang, cords=b.psu_count,
             amps=_n(b.amps_per_cord_shared, 1),
             va=_n(s.va_per_cord(b.psu_count)), volts=f"{s.volts:g}")]
    if b.redundant_units and b.amps_per_cord is not None:
        key = "facility.failover.one" if b.cords_after_failover == 1 else "facility.failover"
        out.append(t(key, lang, spare=b.redundant_units, cords=b.cords_after_failover, amps=_n(b.amps_per_cord, 1)))
    return out if stops else [line.rstrip(".。") for line in out]  # reasons are joined with "; "


def facility_section(plan: Plan, catalog: Catalog, policy: Policy, st: Any, lang: Lang) -> list[Any]:
    """The facility figures as a section of a PDF (the quote and the request for quotation): a heading and one
    paragraph per line; empty where there is nothing to sign (no GPU or CPU chosen). ``st``: the report's
    styles (procurement.reports.common.Styles)."""
    from procurement.budgets.power import power_budget

    lines = facility_lines(power_budget(plan, catalog, policy), lang)
    if not lines:
        return []
    paras = [st.p(line, st.body) for line in lines]
    return [st.section(t("facility.title", lang), paras[0]), *paras[1:]]


register(
    {
        "facility.basis.vendor": "the vendor's published maximum",
        "facility.basis.model": "modelled from the parts, PSU efficiency {eff}%",
        "facility.basis.model.lower": (
            "modelled from the parts, PSU efficiency {eff}%; at least this: the power of {parts} is not known"
        ),
        "facility.server": (
            "Per server: {wall} W at the wall ({basis}), {va} VA, {btu} BTU/h; {amps} A at {volts} V (PF {pf})."
        ),
        "facility.cords": "Per cord ({cords} PSU cords sharing): {amps} A, {va} VA at {volts} V.",
        "facility.cords.one": "The one PSU cord: {amps} A, {va} VA at {volts} V.",
        "facility.failover": plural(
            "With {spare} redundant PSU failed: {cords} cords carry {amps} A each.",
            "With {spare} redundant PSUs failed: {cords} cords carry {amps} A each.",
            "spare",
        ),
        "facility.failover.one": plural(
            "With {spare} redundant PSU failed: the one cord left carries {amps} A.",
            "With {spare} redundant PSUs failed: the one cord left carries {amps} A.",
            "spare",
        ),
        "facility.rack": plural(
            "Per rack: {servers} server, {kw} kW, {btu} BTU/h; {racks} for the nodes.",
            "Per rack: {servers} servers, {kw} kW, {btu} BTU/h; {racks} for the nodes.",
            "servers",
        ),
        "facility.racks": plural("{n} rack", "{n} racks", "n"),
        "facility.pdu3.ln": (
            "PDU: three-phase {v_ll} V line-to-line, servers line-to-neutral; cords per phase {spread}; most "
            "loaded line {amps} A (balanced {balanced} A) → {rating} A PDU per feed."
        ),
        "facility.pdu3.ll": (
            "PDU: three-phase {v_ll} V, servers line-to-line; cords per line pair {spread}; most loaded line "
            "{amps} A (balanced {balanced} A) → {rating} A PDU per feed."
        ),
        "facility.pdu3.ln.balanced": (
            "PDU: three-phase {v_ll} V line-to-line, servers line-to-neutral; the cords are not known until a PSU "
            "is chosen: {balanced} A per line if they are spread evenly, more if not → at least a {rating} A PDU "
            "per feed."
        ),
        "facility.pdu3.ll.balanced": (
            "PDU: three-phase {v_ll} V, servers line-to-line; the cords are not known until a PSU is chosen: "
            "{balanced} A per line if they are spread evenly, more if not → at least a {rating} A PDU per feed."
        ),
        "facility.pdu1": "PDU: single-phase {volts} V, {amps} A → {rating} A PDU per feed.",
        "facility.pdu_over": "more than 125",
        "facility.title": "Facility (power, cords, heat)",
    }
)

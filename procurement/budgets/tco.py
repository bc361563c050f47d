"""Total cost of ownership: the purchase price plus electricity over the service life, and cloud rent for comparison.

electricity (CNY) = wall power of one server at full load (procurement/facility.py via the power budget) × servers
× PUE × utilisation × 8 760 h × years × price per kWh. Every input is the buyer's own figure or a published one
the buyer chose (docs/tco.md, docs/sources.md §T); none is assumed. A term that is not known is listed in
``missing`` and the sum of the known terms is a lower bound, never called a total (DESIGN.md, rules of truth).

The full-load wall power is the power budget's maximum (the vendor's published maximum input power where there
is one): running at utilisation u means u of the hours at that power; idle hours are not counted, so the
estimate rests on that split and says so.
"""

from __future__ import annotations

from dataclasses import dataclass

from catalog.loader import Catalog
from procurement.budgets.cost import CostBreakdown, plan_cost, yuan
from procurement.budgets.power import PowerBudget, power_budget
from procurement.messages import Lang, plural, register, t
from procurement.plan import Plan
from procurement.policy import Policy

HOURS_PER_YEAR = 8760.0
"""365 days × 24 h (a year of continuous running; leap days are not counted)."""

Term = str
"""'purchase', 'purchase_partial', 'power', 'power_partial', 'kwh_price', 'pue', 'utilisation', 'life'."""


@dataclass(frozen=True)
class Tco:
    """The cost of owning the plan's servers over their service life, with what is missing."""

    purchase_cny: float
    """VAT-inclusive purchase of all servers (the priced lines: a lower bound while ``purchase_complete`` is
    False)."""
    purchase_complete: bool
    wall_w: float | None
    """Wall power of one server at full load (None: no part draws a known power)."""
    wall_complete: bool
    """False when some part's power is unknown: ``wall_w`` is then a lower bound."""
    servers: int
    gpus: int
    """GPUs in all servers (for the cloud comparison)."""
    kwh_price: float | None
    pue: float | None
    utilisation_pct: float | None
    life_years: float | None
    cloud_gpu_hour_cny: float | None

    @property
    def kwh_per_year(self) -> float | None:
        """Energy the servers and their room draw in one year (None: an input is unknown)."""
        if self.wall_w is None or self.pue is None or self.utilisation_pct is None:
            return None
        return self.wall_w * self.servers * self.pue * self.utilisation_pct / 100 * HOURS_PER_YEAR / 1000

    @property
    def electricity_cny(self) -> float | None:
        """Electricity over the service life (None: an input is unknown)."""
        kwh = self.kwh_per_year
        if kwh is None or self.kwh_price is None or self.life_years is None:
            return None
        return kwh * self.kwh_price * self.life_years

    @property
    def missing(self) -> tuple[Term, ...]:
        """What keeps the sum from being a total, in a fixed order."""
        out: list[Term] = []
        if not self.purchase_complete:
            out.append("purchase_partial")
        if self.wall_w is None:
            out.append("power")
        elif not self.wall_complete:
            out.append("power_partial")
        for term, value in (("kwh_price", self.kwh_price), ("pue", self.pue),
                            ("utilisation", self.utilisation_pct), ("life", self.life_years)):
            if value is None:
                out.append(term)
        return tuple(out)

    @property
    def complete(self) -> bool:
        return not self.missing

    @property
    def own_cny(self) -> float:
        """Purchase plus electricity as far as known: the total only when ``complete``, else a lower bound."""
        return self.purchase_cny + (self.electricity_cny or 0.0)

    @property
    def own_yuan(self) -> int:
        """``own_cny`` as printed: the sum of the terms each in whole yuan, as they are printed beside it, so that
        'Purchase ¥34,161' and 'Electricity ¥33,276' add up to the '¥67,437' under them (the exact sum,
        67,437.58, rounds to 67,438)."""
        return round(self.purchase_cny) + (round(self.electricity_cny) if self.electricity_cny is not None else 0)

    @property
    def cloud_cny(self) -> float | None:
        """Renting the same number of GPUs for the same hours over the same life (None: an input unknown)."""
        if self.cloud_gpu_hour_cny is None or self.utilisation_pct is None or self.life_years is None:
            return None
        return self.gpus * self.cloud_gpu_hour_cny * self.utilisation_pct / 100 * HOURS_PER_YEAR * self.life_years

    def as_dict(self) -> dict[str, object]:
        """The figures as JSON-ready data (``check --json``)."""
        return {
            "purchase_cny": round(self.purchase_cny, 2), "purchase_complete": self.purchase_complete,
            "wall_w_per_server": None if self.wall_w is None else round(self.wall_w, 1),
            "wall_complete": self.wall_complete, "servers": self.servers,
            "kwh_price_cny": self.kwh_price, "pue": self.pue, "utilisation_pct": self.utilisation_pct,
            "service_life_years": self.life_years,
            "kwh_per_year": None if self.kwh_per_year is None else round(self.kwh_per_year, 1),
            "electricity_cny": None if self.electricity_cny is None else round(self.electricity_cny, 2),
            "own_cny": round(self.own_cny, 2), "complete": self.complete,
            "own_is_lower_bound": not self.complete, "missing": list(self.missing),
            "cloud_cny_per_gpu_hour": self.cloud_gpu_hour_cny,
            "cloud_cny": None if self.cloud_cny is None else round(self.cloud_cny, 2),
        }


def tco_of(plan: Plan, policy: Policy, cost: CostBreakdown, power: PowerBudget | None) -> Tco:
    """The total cost of ownership from the plan's inputs and the budgets already computed."""
    req, inputs = plan.requirements, plan.tco
    wall: float | None = None
    wall_complete = False
    if power is not None and power.draw_w > 0:
        wall = power.ac_w
        wall_complete = not power.unknown
    return Tco(
        purchase_cny=cost.gross_total_cny(policy),
        purchase_complete=cost.complete and bool(cost.lines),
        wall_w=wall,
        wall_complete=wall_complete,
        servers=req.nodes,
        gpus=plan.gpu.count * req.nodes,
        kwh_price=inputs.electricity_cny_per_kwh,
        pue=inputs.pue,
        utilisation_pct=req.utilisation_pct,
        life_years=inputs.service_life_years,
        cloud_gpu_hour_cny=inputs.cloud_cny_per_gpu_hour,
    )


def plan_tco(plan: Plan, catalog: Catalog, policy: Policy) -> Tco:
    """``tco_of`` with the cost and power budgets computed here (for callers without an Evaluation)."""
    return tco_of(plan, policy, plan_cost(plan, catalog), power_budget(plan, catalog, policy))


def _num(value: float) -> str:
    return f"{value:,.2f}".rstrip("0").rstrip(".")


_ELECTRICITY_TERMS = ("power", "kwh_price", "pue", "utilisation", "life")


def _join(terms: list[str], lang: Lang) -> str:
    return "、".join(terms) if lang == "zh" else ", ".join(terms)


def describe_tco(tco: Tco, lang: Lang) -> list[str]:
    """The cost of ownership in lines for a person: purchase, electricity (with how it was computed), and the
    sum, called a total only when every term is known."""
    years = _num(tco.life_years) if tco.life_years is not None else "?"
    lines = [t("tco.purchase" if tco.purchase_complete else "tco.purchase.lower", lang, cost=yuan(tco.purchase_cny))]
    if tco.electricity_cny is not None and tco.kwh_per_year is not None and tco.wall_w is not None:
        lines.append(t("tco.electricity" if tco.wall_complete else "tco.electricity.lower", lang,
                       cost=yuan(tco.electricity_cny), years=years, kwh=f"{tco.kwh_per_year:,.0f}",
                       wall=f"{tco.wall_w:,.0f}", servers=tco.servers, pue=_num(tco.pue or 0),
                       util=_num(tco.utilisation_pct or 0), price=_num(tco.kwh_price or 0)))
    else:
        lacking = [t(f"tco.term.{m}", lang) for m in tco.missing if m in _ELECTRICITY_TERMS]
        lines.append(t("tco.electricity.unknown", lang, terms=_join(lacking, lang)))
    if tco.cloud_cny is not None and tco.gpus:
        lines.append(t("tco.cloud", lang, years=years, gpus=tco.gpus, cost=yuan(tco.cloud_cny),
                       util=_num(tco.utilisation_pct or 0), price=_num(tco.cloud_gpu_hour_cny or 0)))
    if tco.complete:
        lines.append(t("tco.total", lang, years=years, cost=yuan(tco.own_yuan)))
    else:
        why = [t(f"tco.term.{m}", lang) for m in tco.missing]
        # without a service life there is no "over N years" to state (never '? years')
        key = "tco.lower" if tco.life_years is not None else "tco.lower.no_life"
        lines.append(t(key, lang, years=years, cost=yuan(tco.own_yuan), terms=_join(why, lang)))
    return lines


register(
    {
        "tco.title": "Total cost of ownership (purchase + electricity)",
        "tco.purchase": "Purchase incl. VAT: {cost}",
        "tco.purchase.lower": "Purchase incl. VAT: at least {cost} (some parts have no price yet: a lower bound)",
        "tco.electricity": plural(
            (
                "Electricity over {years} years: {cost} ({kwh} kWh a year = full-load wall power {wall} W × {servers} "
                "server × PUE {pue} × {util}% utilisation × 8,760 h; {price} CNY/kWh)"
            ),
            (
                "Electricity over {years} years: {cost} ({kwh} kWh a year = full-load wall power {wall} W × {servers} "
                "servers × PUE {pue} × {util}% utilisation × 8,760 h; {price} CNY/kWh)"
            ),
            "servers",
        ),
        "tco.electricity.lower": plural(
            (
                "Electricity over {years} years: at least {cost} (some parts' power is unknown: a lower bound; {kwh} "
                "kWh a year = full-load wall power {wall} W × {servers} server × PUE {pue} × {util}% utilisation × "
                "8,760 h; {price} CNY/kWh)"
            ),
            (
                "Electricity over {years} years: at least {cost} (some parts' power is unknown: a lower bound; {kwh} "
                "kWh a year = full-load wall power {wall} W × {servers} servers × PUE {pue} × {util}% utilisation × "
                "8,760 h; {price} CNY/kWh)"
            ),
            "servers",
        ),
        "tco.electricity.unknown": "Electricity: unknown (missing: {terms})",
        "tco.cloud": plural(
            (
                "For comparison: renting {gpus} GPU in the cloud for the same {years} years at {util}% is about {cost} "
                "({price} CNY per GPU-hour)"
            ),
            (
                "For comparison: renting {gpus} GPUs in the cloud for the same {years} years at {util}% is about "
                "{cost} ({price} CNY per GPU-hour)"
            ),
            "gpus",
        ),
        "tco.total": "Cost of ownership over {years} years: {cost}",
        "tco.lower": "Cost of ownership over {years} years: at least {cost} (a lower bound; unknown: {terms})",
        "tco.lower.no_life": "Cost of ownership: at least {cost} (a lower bound; unknown: {terms})",
        "tco.term.purchase_partial": "prices of some parts",
        "tco.term.power": "power draw",
        "tco.term.power_partial": "power of some parts",
        "tco.term.kwh_price": "electricity price",
        "tco.term.pue": "PUE",
        "tco.term.utilisation": "utilisation",
        "tco.term.life": "service life",
        "tco.record": "Total cost of ownership: {lines}",
    }
)

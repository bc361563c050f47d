"""Licensing rules: GeForce drivers in a data centre, export-controlled and China-market GPU models.

Sources: NVIDIA GeForce driver licence §2.1.3 "No Datacenter Deployment. The SOFTWARE is not licensed
for datacenter deployment, except that blockchain processing in a datacenter is permitted."
(https://www.nvidia.com/en-us/drivers/geforce-license/); export notes per GPU from the catalog
(docs/sources.md "Export-control summary": US BIS rules of 2022-10-07 and 2023-10-17).
"""

from __future__ import annotations

from catalog.loader import Catalog
from catalog.models import Segment
from procurement.coded import by_language
from procurement.findings import Family, Finding, Severity
from procurement.messages import register
from procurement.plan import Plan
from procurement.policy import Policy
from procurement.rules.base import make, resolve
from procurement.rules.registry import rule

FAMILY: Family = "licensing"


@rule(FAMILY, "LIC-GEFORCE-DATACENTER", step=2, item="gpu_model_count")
def geforce_datacenter(plan: Plan, catalog: Catalog, policy: Policy) -> list[Finding]:
    """LIC-GEFORCE-DATACENTER: GeForce cards in a data-centre deployment (driver licence)."""
    p = resolve(plan, catalog)
    if p.gpu is None or p.gpu.segment != Segment.CONSUMER or plan.requirements.deployment != "datacenter":
        return []
    return [
        make(
            "LIC-GEFORCE-DATACENTER",
            Severity.WARNING,
            ("gpu.model", "requirements.deployment"),
            gpu=p.gpu.name,
        )
    ]


@rule(FAMILY, "LIC-EXPORT", "LIC-CHINA-MARKET", step=2, item="gpu_model_count")
def export_control(plan: Plan, catalog: Catalog, policy: Policy) -> list[Finding]:
    """LIC-EXPORT (the model carries an export-control note, shown in the user's language) and
    LIC-CHINA-MARKET (a China-only variant)."""
    p = resolve(plan, catalog)
    if p.gpu is None:
        return []
    if p.gpu.export_note or p.gpu.export_note_zh:
        return [
            make(
                "LIC-EXPORT",
                Severity.WARNING,
                ("gpu.model",),
                gpu=p.gpu.name,
                note=by_language({"zh": p.gpu.export_note_for("zh"), "en": p.gpu.export_note_for("en")},
                                 p.gpu.export_note_for("*")),
            )
        ]
    if p.gpu.market == "china":
        return [make("LIC-CHINA-MARKET", Severity.INFO, ("gpu.model",), gpu=p.gpu.name)]
    return []



register(
    {
        "LIC-GEFORCE-DATACENTER.message": (
            "{gpu} is a GeForce card: its driver licence (§2.1.3) does not permit data-centre deployment."
        ),
        "LIC-GEFORCE-DATACENTER.fix": (
            "For a data centre choose data-centre or professional GPUs (L40S, A100, H100…), or set the deployment to "
            "office/lab."
        ),
        "LIC-EXPORT.message": "Export-control note on {gpu}: {note}",
        "LIC-EXPORT.fix": "Check the current US BIS rules and the supply channel before quoting.",
        "LIC-CHINA-MARKET.message": "{gpu} is a China-market variant.",
        "LIC-CHINA-MARKET.fix": "Check that current export rules still allow supply before quoting.",
    }
)

"""Licensing rules: GeForce drivers in a data centre, export-controlled and China-market GPU models.

Sources: NVIDIA GeForce driver licence §2.1.3 "No Datacenter Deployment. The SOFTWARE is not licensed
for datacenter deployment, except that blockchain processing in a datacenter is permitted."
(https://www.nvidia.com/en-us/drivers/geforce-license/); export notes per GPU from the catalog
(docs/sources.md "Export-control summary": US BIS rules of 2022-10-07 and 2023-10-17).

Where a model has no note, its 'total processing performance' (TPP) is bounded from below by the catalog's dense
FP16 tensor rate: TPP is 2 × MacTOPS × bit length of the fastest operation (15 CFR 774 Supp. 1, ECCN 3A090,
Technical Note), so a dense FP16 rate of R TFLOPS gives TPP ≥ 16 × R whatever the other precisions do. ECCN
3A090.a controls integrated circuits with a TPP of 4800 or more (the December 2024 interim final rule restates
it; https://www.lenzo.ai/eccn/3a090/ quotes the entry), and 3A090.a items need a US licence for China (§742.6(a)(6)).
"""

from __future__ import annotations

from catalog.loader import Catalog
from catalog.models import Gpu, Segment
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


TPP_LICENCE = 4800
"""ECCN 3A090.a.1: a 'total processing performance' of 4800 or more (see the module's sources)."""


def tpp_lower_bound(gpu: Gpu) -> int | None:
    """A lower bound of the GPU's TPP: dense FP16 tensor TFLOPS × 16 bits (None: the rate is not in the catalog).
    The catalog's GeForce figures use FP32 accumulate, half the FP16-accumulate rate: still a lower bound."""
    return None if gpu.fp16_tensor_tflops is None else int(gpu.fp16_tensor_tflops * 16)


@rule(FAMILY, "LIC-EXPORT", "LIC-EXPORT-TPP", "LIC-CHINA-MARKET", step=2, item="gpu_model_count")
def export_control(plan: Plan, catalog: Catalog, policy: Policy) -> list[Finding]:
    """LIC-EXPORT (the model carries an export-control note, shown in the user's language), LIC-EXPORT-TPP (no
    note, but its TPP is at least ECCN 3A090.a's 4800: a US licence is needed for China) and LIC-CHINA-MARKET
    (a China-only variant)."""
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
    tpp = tpp_lower_bound(p.gpu)
    if tpp is not None and tpp >= TPP_LICENCE:
        return [make("LIC-EXPORT-TPP", Severity.WARNING, ("gpu.model",), gpu=p.gpu.name,
                     fp16=p.gpu.fp16_tensor_tflops, tpp=tpp, limit=TPP_LICENCE)]
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
        "LIC-EXPORT-TPP.message": (
            "{gpu}: dense FP16 {fp16} TFLOPS × 16 bits puts its total processing performance at {tpp} or more, at or "
            "above the {limit} of US ECCN 3A090.a: a US export licence is needed to supply it to China."
        ),
        "LIC-EXPORT-TPP.fix": (
            "Check the current US BIS rules and whether the supplier holds a licence; for a buyer in China choose a "
            "model below the limit (a China-market variant)."
        ),
        "LIC-CHINA-MARKET.message": "{gpu} is a China-market variant.",
        "LIC-CHINA-MARKET.fix": "Check that current export rules still allow supply before quoting.",
    }
)

"""The declared verification checks: one function per check id, each pass/fail/warn/unknown/skip with why.

`CHECKS` lists every node check in report order (docs/verify.md's table is tested against it). The registry
(`registry`: `@check`, `Ctx`, `Facts`, `evaluate`) sits below the check modules, which register in the
report's order when this package is imported: `gpu` (inventory and configuration), `health` (including
NVLink and the GPU-NIC affinity), `host` (CPU, memory, storage, network ports, OS), `software` (driver,
CUDA, containers, framework, the bundled benchmark), `tuning` (the handover's host tuning and MIG layout)
and `load` (the acceptance load run).
"""

from procurement.verify.checks import gpu, health, host, software, tuning  # noqa: F401  (register in report order)
from procurement.verify.checks import load as _load  # noqa: F401  (the load-run checks come last)
from procurement.verify.checks.gpu import gpu_verdicts, repeated_uuids
from procurement.verify.checks.registry import (
    CHECKS,
    CheckSpec,
    Ctx,
    Facts,
    check,
    evaluate,
    gpu_record,
    match_gpu,
)

__all__ = ["CHECKS", "CheckSpec", "Ctx", "Facts", "check", "evaluate", "gpu_record", "gpu_verdicts", "match_gpu",
           "repeated_uuids"]

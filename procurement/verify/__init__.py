"""On-host verification: nvidia-smi and host probes, checks against the plan, JSON reports and merging.

The GUI's step 5 uses this API:

- ``run_probe(plan, catalog, ProbeOptions(...), lang, progress=cb, cancel=threading.Event())`` runs on a
  worker thread; ``progress(step, total, label)`` reports each step; setting the event kills a running
  nvidia-smi and raises ``VerificationCancelled``.
- ``load_report(path)`` / ``parse_report(dict)`` read node reports; ``merge_reports(reports, plan)``
  combines them.
- ``gpu_verdicts(gpu_record, part)`` gives per-GPU pass/fail marks for a table.
- ``collect(plan, catalog, options)`` returns this machine's raw facts (procurement.verify.collect.raw);
  ``judge(raw, plan, catalog, policy, lang)`` turns raw facts from any machine into a report
  (docs/verify.md, "Raw facts"). ``CHECKS`` is the declared check registry.
"""

from procurement.verify.checks import CHECKS, gpu_verdicts, match_gpu
from procurement.verify.judge import RawError, judge
from procurement.verify.merge import MergedReport, load_reports, merge_reports
from procurement.verify.probe import ProbeOptions, VerificationCancelled, collect, report_from_outputs, run_probe
from procurement.verify.report import (
    CheckRecord,
    GpuRecord,
    HostRecord,
    ReportError,
    VerificationReport,
    load_report,
    parse_report,
    report_to_dict,
    write_report,
)

__all__ = [
    "CHECKS",
    "CheckRecord",
    "GpuRecord",
    "HostRecord",
    "MergedReport",
    "ProbeOptions",
    "RawError",
    "ReportError",
    "VerificationCancelled",
    "VerificationReport",
    "collect",
    "gpu_verdicts",
    "judge",
    "load_report",
    "load_reports",
    "match_gpu",
    "merge_reports",
    "parse_report",
    "report_from_outputs",
    "report_to_dict",
    "run_probe",
    "write_report",
]

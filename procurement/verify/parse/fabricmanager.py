"""Fabric Manager's own log (`/var/log/fabricmanager.log`): its starts and the errors of its latest run."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime

from procurement.verify.collect.raw import FM_FATAL, FM_START

_START = re.compile(FM_START + r" at:?\s*(\d\d/\d\d/\d{4} \d\d:\d\d:\d\d)?", re.IGNORECASE)
"""The line each Fabric Manager run writes as it opens its log (NVIDIA's FM 535 prints
'Fabric Manager Log initializing at: 12/19/2024 22:08:53.808')."""
_ERROR = re.compile(r"^\[[^]]*\] \[(?:ERROR|CRITICAL)\]")
_FATAL = re.compile(FM_FATAL, re.IGNORECASE)  # the lines the collector kept by the same patterns
_PREFIX = re.compile(r"^\[[^]]*\] \[\w+\] (?:\[tid \d+\] )?")


@dataclass
class FmLog:
    """What the log's newest end says."""

    path: str
    starts: int = 0
    """Fabric Manager runs that began within the lines read (each writes its start line) in this boot (all of
    them when the boot time is not known)."""
    errors: list[str] = field(default_factory=list)
    """[ERROR] and [CRITICAL] lines of the latest run: those after the last start, or all of them when no start
    is within the lines read (they are then all later than the latest start)."""
    earlier_errors: int = 0
    """[ERROR] and [CRITICAL] lines of runs before the latest one, in this boot."""
    earlier_last: str = ""
    """The newest of those lines."""
    older_errors: int = 0
    """[ERROR] and [CRITICAL] lines of earlier boots' runs (before a start that is older than this boot)."""
    fatal: list[str] = field(default_factory=list)
    """NVSwitch fatal errors, in whichever run."""


def parse_fm_log(path: str, lines: list[str], boot: str | None = None) -> FmLog:
    """``boot``: when this boot began, local time ('2024-12-20T00:35:58', the collector's `boot`); runs that
    started before it are earlier boots' (Fabric Manager starts with each boot and appends to its log)."""
    out = FmLog(path)
    booted = _time(boot, "%Y-%m-%dT%H:%M:%S")
    run_of_earlier_boot = False  # the lines before the first start read: their run's start is not known
    for line in lines:
        start = _START.search(line)
        if start:
            began = _time(start.group(1), "%m/%d/%Y %H:%M:%S")
            start_of_earlier_boot = booted is not None and began is not None and (booted - began).total_seconds() > 60
            # the errors of the run this start ends: an earlier boot's when that run, or this start itself, is
            # older than this boot (they came before it); else this boot's
            if run_of_earlier_boot or start_of_earlier_boot:
                out.older_errors += len(out.errors)
            elif out.errors:
                out.earlier_errors += len(out.errors)
                out.earlier_last = out.errors[-1]
            run_of_earlier_boot = start_of_earlier_boot
            out.starts += 0 if run_of_earlier_boot else 1
            out.errors = []
        elif _ERROR.search(line):
            out.errors.append(line.strip())
        if _FATAL.search(line):
            out.fatal.append(line.strip())
    return out


def message_of(line: str) -> str:
    """A log line without its time stamp, level and thread: 'detected NVSwitch non-fatal error 12028 on …'."""
    return _PREFIX.sub("", line.strip())[:200]


def _time(text: str | None, fmt: str) -> datetime | None:
    try:
        return datetime.strptime(text, fmt) if text else None
    except ValueError:
        return None

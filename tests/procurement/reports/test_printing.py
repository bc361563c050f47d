"""Printing through CUPS `lp`: the PDF itself is queued with the printer, copies and title; an `lp` that fails
or never answers is an OSError with its reason (the quote page shows it), never an exception out of the window."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from procurement.reports import printing


def _fake_lp(folder: Path, body: str) -> None:
    folder.mkdir(exist_ok=True)
    (folder / "lp").write_text("#!/bin/sh\n" + body)
    (folder / "lp").chmod(0o755)


def test_the_pdf_is_queued_with_its_printer_copies_and_title(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bin_dir = tmp_path / "bin"
    _fake_lp(bin_dir, f'printf "%s\\n" "$@" > {tmp_path}/args; cat > {tmp_path}/job.pdf\n')
    monkeypatch.setenv("PATH", f"{bin_dir}:{os.environ['PATH']}")
    assert printing.lp_available()
    printing.send_to_lp(b"%PDF-1.4 fake", "office-a4", copies=2, title="报价单 EX-1")
    assert (tmp_path / "args").read_text().split("\n")[:6] == ["-t", "报价单 EX-1", "-n", "2", "-d", "office-a4"]
    assert (tmp_path / "job.pdf").read_bytes() == b"%PDF-1.4 fake"


def test_a_failing_or_hanging_lp_is_an_oserror_with_its_reason(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    bin_dir = tmp_path / "bin"
    monkeypatch.setenv("PATH", f"{bin_dir}:{os.environ['PATH']}")
    _fake_lp(bin_dir, 'echo "lp: The printer or class does not exist." >&2; exit 1\n')
    with pytest.raises(OSError, match="The printer or class does not exist"):
        printing.send_to_lp(b"%PDF", "nope")
    _fake_lp(bin_dir, "cat > /dev/null; exec sleep 30\n")
    monkeypatch.setattr(printing, "LP_TIMEOUT_S", 0.5)
    started = time.monotonic()
    with pytest.raises(OSError, match=r"lp did not answer within 0.5 s"):
        printing.send_to_lp(b"%PDF", "stuck")
    assert time.monotonic() - started < 10

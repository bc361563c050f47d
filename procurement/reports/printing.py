"""Printing the PDFs as they are (vector pages, text layer kept): choose a page range, hand the PDF to a PDF
printer (a file) or to the print system (CUPS `lp`), which rasterises at the printer's own resolution."""

from __future__ import annotations

import io
import shutil
import subprocess
from collections.abc import Iterable, Sequence


def page_count(pdf: bytes) -> int:
    from pypdf import PdfReader

    return len(PdfReader(io.BytesIO(pdf)).pages)


def normalise_pages(pages: Iterable[int], count: int) -> list[int]:
    """1-based page numbers within 1..count, in order, once each (an empty choice means every page)."""
    chosen = sorted({p for p in pages if 1 <= p <= count})
    return chosen or list(range(1, count + 1))


def select_pages(pdf: bytes, pages: Sequence[int], count: int | None = None) -> bytes:
    """A PDF of only ``pages`` (1-based) of ``pdf``, copied as they are: text, fonts and vectors unchanged.
    With ``count`` (the document's page count) known and every page chosen, ``pdf`` itself, unparsed."""
    if count is not None and list(pages) == list(range(1, count + 1)):
        return pdf
    from pypdf import PdfReader, PdfWriter

    reader = PdfReader(io.BytesIO(pdf))
    chosen = normalise_pages(pages, len(reader.pages))
    if chosen == list(range(1, len(reader.pages) + 1)):
        return pdf
    writer = PdfWriter()
    for p in chosen:
        writer.add_page(reader.pages[p - 1])
    for key, value in (reader.metadata or {}).items():
        writer.add_metadata({key: value})
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


LP_TIMEOUT_S = 60.0
"""How long `lp` may take to queue a job (it returns once the job is spooled)."""


def lp_available() -> bool:
    return shutil.which("lp") is not None


def send_to_lp(pdf: bytes, printer: str, copies: int = 1, title: str = "gpu-procure") -> None:
    """Queue ``pdf`` on a CUPS printer (the print system rasterises it at the printer's resolution)."""
    exe = shutil.which("lp")
    if exe is None:
        raise OSError("lp (CUPS) is not installed")
    cmd = [exe, "-t", title, "-n", str(max(1, copies))]
    if printer:
        cmd += ["-d", printer]
    try:
        run = subprocess.run(cmd, input=pdf, capture_output=True, timeout=LP_TIMEOUT_S, check=False)
    except subprocess.TimeoutExpired:
        raise OSError(f"lp did not answer within {LP_TIMEOUT_S:g} s: the print job may not have been queued") from None
    if run.returncode != 0:
        raise OSError(run.stderr.decode("utf-8", "replace").strip() or f"lp exited with {run.returncode}")

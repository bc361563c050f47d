"""The words of a part's specification shared by the quote's lines and the app's part lists (one vocabulary).

Registered in a module of its own, light to import (no reportlab), so that the app's step 3 lists word a CPU's
cores or a chassis's GPU positions as the quote PDF does without loading the PDF code.
"""

from __future__ import annotations

from procurement.messages import plural, register

register(
    {
        "quote.spec.form.tower": "tower",
        "quote.spec.form.rack": "rack",
        "quote.spec.cores": plural("{cores} core", "{cores} cores", "cores"),
        "quote.spec.gpus": plural("{n} GPU position", "{n} GPU positions", "n"),
    }
)

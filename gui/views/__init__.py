"""Qt-free presenters: what each step page shows, computed from the `Evaluation` and the verification reports.

A page calls its presenter and puts the rows it returns into widgets; the verdicts, marks and texts are
decided here, once, in code tested without Qt (tests/gui/views/). No module in this package imports
PySide6: the import-linter contract "Presenters are Qt-free" in pyproject.toml forbids it.
"""

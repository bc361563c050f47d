"""What a handover says (its README and the terminal summary) and how its files are written: all or none."""

from __future__ import annotations

import errno
from collections.abc import Sequence
from pathlib import Path

from procurement.handover.generate import Handover
from procurement.messages import Lang, t
from procurement.probe import texts  # noqa: F401  (registers the messages)
from procurement.safe_io import write_tree
from procurement.terminal import one_line


def shown(name: str, limit: int = 200) -> str:
    """A node name as README.txt and the terminal show it: one line, control and bidi characters escaped,
    at most ``limit`` characters (rejected names come from reports as they are)."""
    text = one_line(name)
    return text if len(text) <= limit else text[:limit] + "…"


def summary(h: Handover, lang: Lang) -> str:
    """What was handed over and what was not: the README's text (the path, `.`, is the handover folder), and
    without accepted nodes only the refusals (nothing is written, so no line may say it was)."""
    lines = [t("probe.handover.written", lang, n=len(h.accepted), path="."), ""] if h.accepted else []
    lines += [f"  + {name}" for name in h.accepted]
    if h.rejected:
        lines += ["", t("probe.handover.rejected", lang, nodes="")] if lines else [t("probe.handover.rejected",
                                                                                        lang, nodes="")]
        lines += [f"  - {shown(name)}: {shown(why, 500)}" for name, why in h.rejected]
    if h.unknown_slowdown:
        lines += ["", t("probe.handover.slowdown_unknown", lang, nodes=", ".join(h.unknown_slowdown))]
    return "\n".join(lines) + "\n"


def write_all(directory: Path, files: dict[str, str], force: bool, inputs: Sequence[Path] = ()) -> None:
    """All files or none, folders too (procurement.safe_io.write_tree), never over an input; scripts made
    executable."""
    if directory.exists() and any(directory.iterdir()) and not force:
        raise FileExistsError(errno.EEXIST, f"{directory} is not empty (--force writes into it)")
    write_tree(directory, [(rel, text.encode("utf-8")) for rel, text in files.items()], inputs=list(inputs))
    for rel in files:
        if rel.endswith(".sh"):
            (directory / rel).chmod(0o755)

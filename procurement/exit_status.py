"""The exit statuses every `gpu-procure` command returns, in one table (the README shows the same table)."""

from __future__ import annotations

from enum import IntEnum


class ExitStatus(IntEnum):
    """What a command's exit status means; the same for every command.

    argparse already exits 2 on a usage error, which is why "input unusable" is 2.
    """

    OK = 0
    """All good: nothing failed and everything could be decided."""
    FAILED = 1
    """Errors or failures: an error finding, a failed check, a problem in a catalog directory."""
    UNUSABLE = 2
    """The input is unusable: a usage error, an unreadable plan, policy, catalog or report, an unwritable path."""
    INCOMPLETE = 3
    """Incomplete or unknown: nothing failed, but something could not be decided (a step still lacks a
    choice, a rule could not run, nothing on the machine could be probed)."""


# The README's table (tests/test_commands.py checks that the README says the same).
MEANING: dict[ExitStatus, str] = {
    ExitStatus.OK: "all good",
    ExitStatus.FAILED: "errors or failures",
    ExitStatus.UNUSABLE: "input unusable (usage errors included)",
    ExitStatus.INCOMPLETE: "incomplete or unknown (nothing failed, but something could not be decided)",
}


def worst_exit(*statuses: int) -> ExitStatus:
    """The status to report when several parts of one command ended differently.

    Unusable input outranks failures, failures outrank incompleteness, which outranks all good.
    """
    rank = {ExitStatus.OK: 0, ExitStatus.INCOMPLETE: 1, ExitStatus.FAILED: 2, ExitStatus.UNUSABLE: 3}
    return max((ExitStatus(s) for s in statuses), key=rank.__getitem__, default=ExitStatus.OK)

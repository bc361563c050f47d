"""Two `gpu-procure sign` runs at once never lose a signer: both signers are kept, or one exits non-zero."""

from __future__ import annotations

import multiprocessing
import shutil
from pathlib import Path
from typing import Any

import pytest

from catalog.loader import Catalog
from procurement.plan import load_plan
from procurement.signoff import SignoffState, signoff_status
from tests.conftest import EXAMPLES

ROUNDS = 50


def _signer(name: str, paths: list[str], barrier: Any, codes: Any, slot: int) -> None:
    import io
    import sys

    from procurement.commands.cli import main

    sys.stdout = sys.stderr = io.StringIO()  # the children's chatter is not the test's
    for i, path in enumerate(paths):
        barrier.wait(timeout=60)  # both signers start each round at the same moment
        codes[slot * len(paths) + i] = main(["sign", path, "--kind", "approval", "--name", name, "--role", name,
                                             "--date", "2026-12-01", "--lang", "en"])


@pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(), reason="needs fork (POSIX)")
def test_two_signers_at_once_keep_both(tmp_path: Path, catalog: Catalog) -> None:
    paths = []
    for i in range(ROUNDS):
        path = tmp_path / f"plan{i}.gpuplan.yaml"
        shutil.copy(EXAMPLES / "mid-size-training.gpuplan.yaml", path)
        paths.append(str(path))
    ctx = multiprocessing.get_context("fork")
    barrier = ctx.Barrier(2)
    codes = ctx.Array("i", [-1] * (2 * ROUNDS))
    workers = [ctx.Process(target=_signer, args=(name, paths, barrier, codes, slot))
               for slot, name in enumerate(("Zhang", "Li"))]
    for w in workers:
        w.start()
    for w in workers:
        w.join(timeout=600)
        assert w.exitcode == 0
    lost = []
    for i, name in enumerate(paths):
        plan = load_plan(name, catalog)
        names = sorted(s.name for s in plan.signoffs["approval"].signers)
        both_ok = codes[i] == 0 and codes[ROUNDS + i] == 0
        if both_ok and names != ["Li", "Zhang"]:
            lost.append((i, names))
        assert signoff_status(plan, "approval", catalog).state == SignoffState.VALID
    assert lost == [], f"a signer was lost in {len(lost)} of {ROUNDS} rounds: {lost[:5]}"
    assert [codes[i] for i in range(2 * ROUNDS)] == [0] * (2 * ROUNDS)  # with the lock, neither has to give up

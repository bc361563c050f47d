"""Test settings: headless Qt, the shipped catalog once per session, paths to shared fixtures."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("LANG", "C.UTF-8")
# keep the parsed-YAML cache of the catalog out of ~/.cache during tests
os.environ.setdefault(
    "GPU_PROCURE_CACHE_DIR", os.path.join(tempfile.gettempdir(), f"gpu-procure-test-cache-{os.getpid()}")
)
# and the state directory (recovery copies, logs) out of ~/.local/state
os.environ["XDG_STATE_HOME"] = os.path.join(tempfile.gettempdir(), f"gpu-procure-test-state-{os.getpid()}")

import pytest

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "resources" / "examples"


# The real captures are copied into tests/fixtures so that CI and a fresh clone have them.
NVIDIA_SMI_FIXTURES = REPO / "tests" / "fixtures" / "nvidia-smi"


@pytest.fixture(scope="session")
def catalog():
    from catalog.loader import load_catalog

    return load_catalog()


def every_part_priced():
    """The shipped catalog with a price on every part that has none (¥1,000, VAT not included): the quote is
    then the buyer's priced copy with notes and findings, not the vendor-facing request for quotation that
    leaves internal content out."""
    from catalog.loader import load_catalog

    priced = load_catalog()
    for by_id in priced.parts.values():
        for pid, part in list(by_id.items()):
            if part.price_cny is None:
                by_id[pid] = part.model_copy(update={"price_cny": 1000.0, "price_includes_vat": False})
    return priced


@pytest.fixture(scope="session")
def buyer_catalog():
    return every_part_priced()


@pytest.fixture(scope="session")
def policy():
    from procurement.policy import default_policy

    return default_policy()


def _nobody() -> tuple[int, int]:
    try:
        import pwd

        entry = pwd.getpwnam("nobody")
        return entry.pw_uid, entry.pw_gid
    except (ImportError, KeyError):
        return 65534, 65534


@contextmanager
def unprivileged() -> Iterator[None]:
    """Run the block with the effective ids of 'nobody' when the tests run as root (CI does): root ignores
    file permissions, so a read-only folder would test nothing and the test would have to be skipped. The
    real ids stay root's, so the block ends back as root. Use it on a folder from ``open_tmp``."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        yield
        return
    uid, gid = _nobody()
    os.setegid(gid)
    os.seteuid(uid)
    try:
        yield
    finally:
        os.seteuid(0)
        os.setegid(0)


def unprivileged_child() -> dict[str, object]:
    """``subprocess.run`` arguments that start the child as 'nobody' when the tests run as root (else none):
    for a script whose refusal to run unprivileged must be seen. Its files belong in ``open_tmp``."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return {}
    uid, gid = _nobody()
    return {"user": uid, "group": gid, "extra_groups": []}


@pytest.fixture
def open_tmp() -> Iterator[Path]:
    """A temporary folder that 'nobody' can reach (mode 0755; tmp_path's parents are root's own, mode 0700)."""
    folder = Path(tempfile.mkdtemp(prefix="gpu-procure-test-open-"))
    folder.chmod(0o755)
    try:
        yield folder
    finally:
        for sub in [folder, *folder.rglob("*")]:
            if sub.is_dir() and not sub.is_symlink():
                sub.chmod(0o755)
        shutil.rmtree(folder, ignore_errors=True)


# Skips that say why a check did not run on this machine. In CI (CI=true) only the first kind is allowed: a
# test skipped because a tool is missing is a check that never ran, and `make test` installs every tool
# (packaging/system-deps.sh), so such a skip fails the run.
ALLOWED_CI_SKIPS = ("root",)
"""Reasons that depend on who runs the tests, not on what is installed: root ignores permissions."""

_disallowed_skips: list[str] = []


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if not report.skipped or getattr(report, "wasxfail", None) is not None:
        return
    reason = str(report.longrepr[2]) if isinstance(report.longrepr, tuple) else str(report.longrepr)
    if not any(allowed in reason for allowed in ALLOWED_CI_SKIPS):
        _disallowed_skips.append(f"{report.nodeid}: {reason}")


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if os.environ.get("CI") == "true" and _disallowed_skips and exitstatus == 0:
        session.exitstatus = 1


def pytest_terminal_summary(terminalreporter, exitstatus: int, config: pytest.Config) -> None:
    if os.environ.get("CI") == "true" and _disallowed_skips:
        terminalreporter.section("skips not allowed in CI (a tool that make test should install is missing)")
        for line in _disallowed_skips:
            terminalreporter.write_line(line)


@pytest.fixture(autouse=True)
def _app_language_back_to_english() -> Iterator[None]:
    """Each test starts in English whatever the one before it switched to: a test that installs a language
    through its own gui.i18n.Translators (not make_window's) would otherwise leave Qt's translators in the
    application for the next test in the same process, and which test comes next depends on the order (one
    worker of `make test` runs other files than the serial order puts before it)."""
    yield
    import sys

    if "PySide6.QtCore" not in sys.modules:
        return
    from PySide6.QtCore import QCoreApplication, QEvent, QLocale, QTranslator

    app = QCoreApplication.instance()
    if app is None:
        return
    leftover = app.findChildren(QTranslator)
    for tr in leftover:
        app.removeTranslator(tr)
    QLocale.setDefault(QLocale(QLocale.Language.English, QLocale.Country.UnitedStates))
    if leftover:
        QCoreApplication.sendPostedEvents(None, QEvent.Type.LanguageChange)

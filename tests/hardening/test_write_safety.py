"""The one safe writer (procurement.safe_io) and the one bounded reader, attacked file by file, and through the
commands and the window that use them: symlinks, hard links, modes, umask, owner, read-only files, devices,
FIFOs, the input file, standard output, backups, another editor, a full disk and kills."""

from __future__ import annotations

import errno
import io
import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from catalog.files import InputFileError, read_bounded
from procurement.plan import dump_plan, load_plan, save_plan
from procurement.safe_io import (
    FileChangedError,
    WriteError,
    remove_stale_temps,
    stamp_of,
    write_file,
    write_files,
)
from tests.conftest import EXAMPLES, REPO

QT_NOISE = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")
ROOT = hasattr(os, "geteuid") and os.geteuid() == 0
PLAN = EXAMPLES / "llm-cluster-node.gpuplan.yaml"


def _mode(path: Path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def _names(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


# ---------------------------------------------------------------- through links, keeping what the file was

def test_a_symlinked_file_stays_a_symlink_and_its_target_gets_the_content(tmp_path: Path) -> None:
    real = tmp_path / "real" / "plan.gpuplan.yaml"
    real.parent.mkdir()
    real.write_bytes(b"old")
    link = tmp_path / "plan.gpuplan.yaml"
    link.symlink_to(real)
    write_file(link, b"new")
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_bytes() == b"new"
    assert _names(real.parent) == ["plan.gpuplan.yaml"] and _names(tmp_path) == ["plan.gpuplan.yaml", "real"]


def test_every_name_of_a_hard_linked_file_sees_the_new_content(tmp_path: Path) -> None:
    first = tmp_path / "a.yaml"
    first.write_bytes(b"old")
    second = tmp_path / "b.yaml"
    os.link(first, second)
    write_file(first, b"new content")
    assert second.read_bytes() == b"new content" and os.stat(first).st_ino == os.stat(second).st_ino
    assert os.stat(first).st_nlink == 2 and _names(tmp_path) == ["a.yaml", "b.yaml"]


@pytest.mark.parametrize("mode", [0o600, 0o640, 0o664, 0o755])
def test_the_mode_of_an_existing_file_is_kept(tmp_path: Path, mode: int) -> None:
    target = tmp_path / "plan.yaml"
    target.write_bytes(b"old")
    target.chmod(mode)
    write_file(target, b"new")
    assert _mode(target) == mode  # was 0600 whatever it had been


@pytest.mark.parametrize("umask", [0o022, 0o027, 0o077, 0o002])
def test_a_new_file_follows_the_umask(tmp_path: Path, umask: int) -> None:
    old = os.umask(umask)
    try:
        write_file(tmp_path / "new.pdf", b"%PDF")
    finally:
        os.umask(old)
    assert _mode(tmp_path / "new.pdf") == 0o666 & ~umask


@pytest.mark.skipif(not ROOT, reason="only root can give a file to another user")
def test_root_saving_a_users_file_leaves_it_the_users(tmp_path: Path) -> None:
    target = tmp_path / "plan.yaml"
    target.write_bytes(b"old")
    os.chown(target, 4321, 4322)
    write_file(target, b"new")
    st = os.stat(target)
    assert (st.st_uid, st.st_gid) == (4321, 4322) and target.read_bytes() == b"new"


def test_a_read_only_file_is_refused_even_for_root(tmp_path: Path) -> None:
    target = tmp_path / "plan.yaml"
    target.write_bytes(b"old")
    target.chmod(0o444)
    with pytest.raises(WriteError, match="read-only") as raised:
        write_file(target, b"new")
    assert raised.value.filename == str(target)
    assert target.read_bytes() == b"old" and _names(tmp_path) == ["plan.yaml"]


# ---------------------------------------------------------------- what is never written over

def test_a_fifo_and_a_symlink_to_one_are_refused_and_stay(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    link = tmp_path / "stdout"  # what /dev/stdout is in a pipeline: a symlink to a pipe
    link.symlink_to(fifo)
    for target in (fifo, link):
        with pytest.raises(WriteError, match="FIFO"):
            write_file(target, b"%PDF")
    assert stat.S_ISFIFO(os.stat(fifo).st_mode) and link.is_symlink()
    assert _names(tmp_path) == ["pipe", "stdout"]


def test_a_device_is_refused_before_anything_is_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    opened: list[str] = []
    real_open = os.open
    monkeypatch.setattr(os, "open", lambda p, *a, **k: opened.append(str(p)) or real_open(p, *a, **k))
    with pytest.raises(WriteError, match="character device"):
        write_file("/dev/null", b"%PDF")  # as root this replaced the device node with a file
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
    assert opened == [], "nothing was created beside the device"


def test_a_directory_is_refused(tmp_path: Path) -> None:
    with pytest.raises(WriteError, match="directory"):
        write_file(tmp_path, b"x")


def test_the_input_file_is_refused_by_any_of_its_names(tmp_path: Path) -> None:
    plan = tmp_path / "plan.yaml"
    plan.write_bytes(b"the plan")
    alias = tmp_path / "alias.yaml"
    alias.symlink_to(plan)
    hard = tmp_path / "hard.yaml"
    os.link(plan, hard)
    for target in (plan, alias, hard, tmp_path / "." / "plan.yaml"):
        with pytest.raises(WriteError, match="input file"):
            write_file(target, b"%PDF", inputs=[plan])
    assert plan.read_bytes() == b"the plan"


def test_standard_output_only_where_the_caller_offers_it(tmp_path: Path) -> None:
    out = io.BytesIO()
    write_file("-", b"%PDF-1.4", allow_stdout=True, stdout=out)
    assert out.getvalue() == b"%PDF-1.4"
    with pytest.raises(WriteError, match="standard output"):
        write_file("-", b"x")
    assert not Path("-").exists()


# ---------------------------------------------------------------- backup, another editor

def test_one_backup_of_the_previous_plan(tmp_path: Path) -> None:
    target = tmp_path / "plan.gpuplan.yaml"
    for text in (b"one", b"two", b"three"):
        write_file(target, text, backup=True)
    assert target.read_bytes() == b"three"
    assert (tmp_path / "plan.gpuplan.yaml.bak").read_bytes() == b"two"
    assert _names(tmp_path) == ["plan.gpuplan.yaml", "plan.gpuplan.yaml.bak"]


def test_a_file_changed_since_it_was_opened_is_not_overwritten_unasked(tmp_path: Path) -> None:
    target = tmp_path / "plan.yaml"
    target.write_bytes(b"as opened")
    stamp = stamp_of(target)
    os.utime(target, ns=(1, 1))  # touched, content the same: not a change
    write_file(target, b"mine", expect=stamp)
    stamp = stamp_of(target)
    other = tmp_path / "other"
    other.write_bytes(b"theirs")
    os.replace(other, target)  # another window saved (atomically: a new inode)
    with pytest.raises(FileChangedError):
        write_file(target, b"mine again", expect=stamp)
    assert target.read_bytes() == b"theirs"
    write_file(target, b"mine again")  # once the person said to
    assert target.read_bytes() == b"mine again"


# ---------------------------------------------------------------- failures leave nothing behind

def test_a_full_disk_leaves_the_old_file_and_no_temporary_file(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "plan.yaml"
    target.write_bytes(b"old")

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(OSError, match="No space left") as raised:
        write_file(target, b"new" * 1000)
    assert raised.value.filename == str(target), "the error names the file, not the temporary one"
    assert target.read_bytes() == b"old" and _names(tmp_path) == ["plan.yaml"]


def test_a_full_disk_on_the_second_pdf_leaves_neither(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    quote, checklist = tmp_path / "quote.pdf", tmp_path / "checklist.pdf"
    quote.write_bytes(b"old quote")
    real_fsync, calls = os.fsync, []

    def second_fails(fd: int) -> None:
        calls.append(fd)
        if len(calls) == 2:
            raise OSError(errno.ENOSPC, "No space left on device")
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", second_fails)
    with pytest.raises(OSError, match="No space left") as raised:
        write_files([(quote, b"new quote"), (checklist, b"new checklist")])
    assert raised.value.filename == str(checklist)
    assert quote.read_bytes() == b"old quote" and not checklist.exists()
    assert _names(tmp_path) == ["quote.pdf"]


def test_a_failed_rename_of_the_second_file_puts_the_first_back(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    quote, checklist = tmp_path / "quote.pdf", tmp_path / "checklist.pdf"
    quote.write_bytes(b"old quote")
    checklist.write_bytes(b"old checklist")
    real_replace = os.replace

    def refuse_checklist(src: str, dst: str) -> None:
        if str(dst) == str(checklist):
            raise OSError(errno.EIO, "Input/output error")
        real_replace(src, dst)

    monkeypatch.setattr(os, "replace", refuse_checklist)
    with pytest.raises(OSError, match="Input/output"):
        write_files([(quote, b"new quote"), (checklist, b"new checklist")])
    monkeypatch.setattr(os, "replace", real_replace)
    assert quote.read_bytes() == b"old quote" and checklist.read_bytes() == b"old checklist"
    assert _names(tmp_path) == ["checklist.pdf", "quote.pdf"]


_WRITER = """
import os, sys
sys.path.insert(0, {repo!r})
from procurement.safe_io import write_file
i = 0
while True:
    i += 1
    write_file({target!r}, (b"%d " % i) * 200_000)
    os.write(1, b"w")
"""


def test_kills_during_writes_leave_the_old_or_new_file_and_the_next_write_clears_their_temporaries(
        tmp_path: Path) -> None:
    target = tmp_path / "plan.yaml"
    target.write_bytes(b"0 ")
    leftovers = 0
    for round_ in range(12):
        child = subprocess.Popen([sys.executable, "-c", _WRITER.format(repo=str(REPO), target=str(target))],
                                 stdout=subprocess.PIPE)
        assert child.stdout is not None
        child.stdout.read(1 + round_ % 3)  # let it finish a write or three, then kill it mid-way through one
        time.sleep(0.001 * (round_ % 4))
        child.send_signal(signal.SIGKILL)
        child.wait()
        child.stdout.close()
        words = set(target.read_bytes().split())
        assert len(words) == 1, "the file is one complete write, never a mix"
        leftovers += len([n for n in _names(tmp_path) if n.endswith(".tmp")])
        write_file(target, b"0 ")  # the next write removes the temporaries of the killed process
        assert _names(tmp_path) == ["plan.yaml"]
    print(f"FIGURES kill-during-write: 12 kills, {leftovers} temporary files left by them, all removed")


def test_a_live_writers_temporary_file_is_left_alone(tmp_path: Path) -> None:
    live = tmp_path / f".plan.yaml.{os.getpid()}.0123abcd.tmp"
    dead = tmp_path / ".plan.yaml.999999999.0123abcd.tmp"
    live.write_bytes(b"")
    dead.write_bytes(b"")
    assert remove_stale_temps(tmp_path, "plan.yaml") == 1
    assert live.exists() and not dead.exists()


# ---------------------------------------------------------------- the bounded reader

def test_reading_stops_at_the_limit_whatever_stat_says(tmp_path: Path) -> None:
    big = tmp_path / "big.yaml"
    big.write_bytes(b"x" * 1001)
    assert read_bounded(big, 1001) == b"x" * 1001
    with pytest.raises(InputFileError, match="too large"):
        read_bounded(big, 1000)
    for device, kind in (("/dev/zero", "character device"), (str(tmp_path), "directory")):
        with pytest.raises(InputFileError, match=kind):
            read_bounded(device)


def test_a_fifo_without_a_writer_is_refused_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "plan.yaml"
    os.mkfifo(fifo)
    start = time.monotonic()
    with pytest.raises(InputFileError, match="FIFO"):
        read_bounded(fifo)
    assert time.monotonic() - start < 1


# ---------------------------------------------------------------- the commands

def _cli(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "PYTHONPATH": str(REPO), "GPU_PROCURE_CACHE_DIR": "off"}
    return subprocess.run([sys.executable, "-m", "procurement.commands.cli", *args], capture_output=True, timeout=120,
                          env=env, input=stdin)


@pytest.mark.parametrize("args", [("check", "{fifo}"), ("check", "/dev/zero"), ("check", "{plan}", "--policy",
                                  "/dev/zero"), ("verify", "--plan", "/dev/zero"), ("verify", "--merge", "{fifo}")])
def test_commands_refuse_devices_and_fifos_instead_of_reading_them(tmp_path: Path, args: tuple[str, ...]) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    done = _cli(*(a.format(fifo=fifo, plan=PLAN) for a in args))
    err = done.stderr.decode()
    assert done.returncode == 2, err
    assert "not a regular file" in err and "Traceback" not in err


def test_export_never_overwrites_its_plan_and_streams_a_pdf_to_standard_output(tmp_path: Path) -> None:
    plan = tmp_path / "plan.gpuplan.yaml"
    plan.write_bytes(PLAN.read_bytes())
    done = _cli("export", str(plan), "--quote", str(plan), "--lang", "en")
    assert done.returncode == 2 and "input file" in done.stderr.decode()
    assert plan.read_bytes() == PLAN.read_bytes()
    streamed = _cli("export", str(plan), "--quote", "-", "--lang", "en")
    assert streamed.returncode == 0, streamed.stderr.decode()
    assert streamed.stdout.startswith(b"%PDF-") and b"wrote request for quotation" in streamed.stderr


def test_verify_never_writes_its_json_over_the_plan(tmp_path: Path) -> None:
    plan = tmp_path / "plan.gpuplan.yaml"
    plan.write_bytes(PLAN.read_bytes())
    done = _cli("verify", "--plan", str(plan), "--json", str(plan), "--nvidia-smi", str(tmp_path / "none"))
    assert done.returncode == 2 and "input file" in done.stderr.decode(), done.stderr.decode()
    assert plan.read_bytes() == PLAN.read_bytes()


# ---------------------------------------------------------------- plans and the window

def test_save_plan_keeps_a_backup_and_refuses_a_plan_changed_since_it_was_opened(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    target = tmp_path / "plan.gpuplan.yaml"
    plan = load_plan(PLAN, catalog)
    first = save_plan(plan, target)
    second = save_plan(plan.model_copy(update={"title": "Second"}), target, expect=first, backup=True)
    assert load_plan(tmp_path / "plan.gpuplan.yaml.bak").title == plan.title
    target.write_text(dump_plan(plan.model_copy(update={"title": "Someone else"})), encoding="utf-8")
    with pytest.raises(FileChangedError):
        save_plan(plan, target, expect=second)
    assert load_plan(target).title == "Someone else"


@QT_NOISE
def test_two_windows_on_one_file_the_second_save_asks(make_window, dialog_calls, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    target = tmp_path / "plan.gpuplan.yaml"
    target.write_bytes(PLAN.read_bytes())
    first, second = make_window(), make_window()
    assert first.open_path(target) and second.open_path(target)
    first.controller.set_value("title", "Edited in the first window")
    assert first.save()
    second.controller.set_value("title", "Edited in the second window")
    dialog_calls.answer("ask_overwrite_changed", False)
    assert not second.save()
    assert load_plan(target).title == "Edited in the first window"  # was silently replaced
    assert second.controller.dirty
    dialog_calls.answer("ask_overwrite_changed", True)
    assert second.save()
    assert load_plan(target).title == "Edited in the second window"
    assert load_plan(tmp_path / "plan.gpuplan.yaml.bak").title == "Edited in the first window"
    assert dialog_calls.names() == ["ask_overwrite_changed", "ask_overwrite_changed"]


@QT_NOISE
def test_opening_a_looping_symlink_says_why(make_window, dialog_calls, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    win = make_window()
    other = tmp_path / "other.gpuplan.yaml"
    other.write_bytes(PLAN.read_bytes())
    assert win.open_path(other)  # a non-empty recent list
    loop = tmp_path / "loop.gpuplan.yaml"
    loop.symlink_to(loop)
    dialog_calls.answer("show_error", None)
    assert not win.open_path(loop, ask=False)
    assert dialog_calls.names() == ["show_error"]  # raised inside settings.remove_recent, no dialog
    assert win.settings.recent_files == [other.resolve()]

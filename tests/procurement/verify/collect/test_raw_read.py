"""The probe's file reads on this machine's real /proc and /sys (not a fake tree): every engine's reports
carry the kernel release only when a /proc/sys read succeeds."""

from __future__ import annotations

import os
from pathlib import Path

from procurement.verify.collect import raw
from procurement.verify.host import host_from_raw


def missing(argv: object, timeout: float) -> dict[str, object]:
    return raw.result(list(argv), missing=True)  # type: ignore[call-overload]


def test_proc_sys_files_are_read_on_the_real_kernel() -> None:
    # one read() of the cap's size is refused on /proc/sys (ENOMEM); streamed reads are not
    assert raw.read_small_file("/proc/sys/kernel/osrelease") == os.uname().release + "\n"
    assert raw.read_small_file("/proc/sys/kernel/hostname") == os.uname().nodename + "\n"
    with open("/proc/meminfo", "rb", buffering=0) as fh:
        first = fh.read(64)
    assert (raw.read_small_file("/proc/meminfo") or "").startswith(first.decode())


def test_the_collected_host_has_its_kernel() -> None:
    doc = raw.collect("/", run=missing, timeout=5)
    info = host_from_raw(doc)
    assert info.kernel == os.uname().release
    assert info.hostname == os.uname().nodename


def test_a_file_longer_than_the_cap_is_cut_and_a_fifo_is_not_read(tmp_path: Path) -> None:
    big = tmp_path / "big"
    big.write_bytes(b"x" * 200_000)
    assert raw.read_small_file(str(big), limit=150_001) == "x" * 150_001
    assert raw.read_small_file(str(tmp_path / "absent")) is None
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)  # nobody writes: a blocking open or read would hang the probe
    assert raw.read_small_file(str(fifo)) is None
    assert raw.read_small_file(str(tmp_path)) is None  # a directory

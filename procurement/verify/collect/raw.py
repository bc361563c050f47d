"""Collects the raw facts of one machine as a JSON-ready dict: standard library only, Python 3.6 syntax.

This module is the collecting half of verification (docs/verify.md, "Raw facts"). It never judges: it
runs programs and reads files and stores what they said (output, exit status, failure), so that the judge
(procurement.verify.judge) can decide on the same facts on this machine or on another one. It imports
nothing from the rest of gpu-procure, so the standalone probe can ship this file as it is and run it on
the system python3 of an old server (RHEL 8's Python 3.6): keep it free of f-string `=`, walrus,
dataclasses, `from __future__ import annotations`, `X | Y` types and other post-3.6 syntax.
"""

import collections
import datetime
import json
import os
import platform
import re
import shutil
import signal
import stat
import subprocess
import sys
import threading
import time
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

KIND = "gpu-procure-raw"
RAW_SCHEMA_VERSION = 1
PROBE_VERSION = "1.3"
"""Version of this collector; bump it when what is collected changes (the schema version when its shape
changes incompatibly)."""

OUTPUT_CAP_BYTES = 32 * 1024 * 1024
"""Each program's stdout/stderr is cut at this size (a real `nvidia-smi -q -x` of 8 GPUs is ~0.3 MB)."""

KERNEL_LOG_LINES = 4000
"""At most this many matching kernel-log lines are kept (the newest)."""

_KERNEL_LOG_MATCH = re.compile(r"NVRM|Xid|NVSwitch|nvidia|AER|pcieport|mlx5|fabric", re.IGNORECASE)

_KERNEL_LOG_ENTRY = re.compile(
    r"^\s*(?:\[\s*\d+\.\d+\]"                          # dmesg: '[    0.000000] Linux version …'
    r"|\[\w{3} \w{3} +\d+ \d\d:\d\d:\d\d \d{4}\]"      # dmesg -T: '[Sun Feb 23 16:24:18 2025] …'
    r"|\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)"                 # dmesg --time-format iso, journalctl -o short-iso
    r"|Linux version \S")
"""A line the kernel logged, as dmesg and journalctl print one: a time stamp first (or this boot's 'Linux
version' line). journalctl's own lines ('-- No entries --', '-- Boot … --', '-- Logs begin at … --') and
hints are none: a readable kernel log of this boot holds at least the boot messages, so output without one
entry is a log that could not be read (journalctl run by a user outside systemd-journal/adm prints '-- No
entries --' and exits 0)."""

FM_CONFIG = "usr/share/nvidia/nvswitch/fabricmanager.cfg"
"""Fabric Manager's configuration file, where LOG_FILE_NAME and LOG_USE_SYSLOG are set (NVIDIA, "Fabric
Manager for NVIDIA NVSwitch Systems", config options)."""
FM_LOG_DEFAULT = "/var/log/fabricmanager.log"
"""LOG_FILE_NAME's default in the same guide (an empty value falls back to it)."""
FM_LOG_TAIL_BYTES = 4 * 1024 * 1024
"""At most this much of the Fabric Manager log's newest end is read (it appends up to LOG_FILE_MAX_SIZE, 1 GB
by default, and logs every multicast team set up at INFO)."""
FM_LOG_LINES = 2000
"""At most this many matching Fabric Manager log lines are kept (the newest)."""
FM_START = r"Fabric Manager Log initializing"
"""The line each Fabric Manager run writes as it opens its log (parse/fabricmanager.py reads its time)."""
FM_FATAL = r"(?<!non-)fatal error"
"""An NVSwitch fatal error (its wording taken from the non-fatal one's: no fatal line has been captured)."""
_FM_LOG_MATCH = re.compile(FM_START + r"|^\[[^]]*\] \[(?:ERROR|CRITICAL|WARNING)\]|" + FM_FATAL, re.IGNORECASE)
"""A Fabric Manager start ('Fabric Manager Log initializing at: …', written as each run opens its log), a line
logged at WARNING or above ('[Dec 19 2024 19:17:49] [ERROR] [tid 1374] detected NVSwitch non-fatal error …'),
an NVSwitch fatal error."""

RunResult = Dict[str, Any]
Run = Callable[[Sequence[str], float], RunResult]
"""(argv, timeout_s) -> {"argv", "returncode", "stdout", "stderr", "missing", "timed_out", "cancelled",
"error"}; replaced by a fake in tests and by the app's runner in `gpu-procure verify`."""


class Cancelled(Exception):
    """The cancel flag was set while collecting."""


def result(argv: Sequence[str], returncode: Optional[int] = None, stdout: str = "", stderr: str = "",
           missing: bool = False, timed_out: bool = False, cancelled: bool = False,
           error: Optional[str] = None) -> RunResult:
    """One command's outcome in the raw format."""
    return {
        "argv": [str(a) for a in argv],
        "returncode": returncode,
        "stdout": stdout,
        "stderr": stderr,
        "missing": missing,
        "timed_out": timed_out,
        "cancelled": cancelled,
        "error": error,
    }


def _kill_group(proc: Any) -> None:
    # os.killpg and SIGKILL are POSIX only: where they are missing (Windows) the child alone is ended
    killpg = getattr(os, "killpg", None)
    try:
        if killpg is None or not hasattr(signal, "SIGKILL"):
            raise OSError("no process groups here")
        killpg(proc.pid, signal.SIGKILL)
    except OSError:
        try:
            proc.kill()
        except OSError:
            pass


TAIL_PROGRAMS = ("dmesg", "journalctl")
"""Logs: their newest end matters (a fault is at the end of a long log), so of these the last
OUTPUT_CAP_BYTES are kept and the program runs to its end; of every other program the first OUTPUT_CAP_BYTES
are kept and it is stopped there (an nvidia-smi that writes endlessly)."""


def keeps_tail(argv: Sequence[str]) -> bool:
    return bool(argv) and os.path.basename(str(argv[0])) in TAIL_PROGRAMS


class _Capture(object):
    """One output stream read in chunks: at most ``limit`` bytes kept, the head or the tail."""

    def __init__(self, limit: int, tail: bool) -> None:
        self.limit = limit
        self.tail = tail
        self.chunks = collections.deque()  # type: Any
        self.size = 0
        self.dropped = 0
        self.over = False

    def add(self, chunk: bytes) -> None:
        if not self.tail:
            room = self.limit - self.size
            if len(chunk) > room:
                self.dropped += len(chunk) - max(0, room)
                self.over = True
                chunk = chunk[:max(0, room)]
        self.chunks.append(chunk)
        self.size += len(chunk)
        # the tail: whole chunks fall off the front while the rest still holds the limit
        while self.tail and self.chunks and self.size - len(self.chunks[0]) >= self.limit:
            gone = self.chunks.popleft()
            self.size -= len(gone)
            self.dropped += len(gone)

    def data(self) -> bytes:
        whole = b"".join(self.chunks)
        if len(whole) > self.limit:  # the tail: cut inside the first chunk kept
            self.dropped += len(whole) - self.limit
            whole = whole[len(whole) - self.limit:]
        return whole


PIPE_GRACE_S = 1.0
"""How long a program's output may stay open after it ended (or was killed) before a process it left behind
is taken to hold it (a wrapper script's `sleep 1000 &`); that process's group is then killed, and as long
again is waited for the output's end. A process that left the group is left running, and its pipes with it."""


def _drain(stream: Any, into: "_Capture", stop: Any, ended: Any) -> None:
    """Read ``stream`` into ``into`` until it ends, is over the cap (then set ``stop``) or the run has
    returned (``ended``); the stream is closed here, by the one thread that reads it."""
    try:
        _drain_into(getattr(stream, "read1", stream.read), into, stop, ended)
    finally:
        try:
            stream.close()
        except OSError:
            pass


def _drain_into(read: Any, into: "_Capture", stop: Any, ended: Any) -> None:
    while True:
        try:
            chunk = read(64 * 1024)
        except (OSError, ValueError):
            return
        if not chunk or ended.is_set():
            return
        into.add(chunk)
        if into.over and not into.tail:
            stop.set()
            return


def resolve_program(name: str) -> Optional[str]:
    """An explicit path (absolute, or relative to the working directory like `./smi`) as an absolute
    path; a bare name looked up on PATH; None when not found."""
    if os.sep in name or os.path.isfile(name):
        return os.path.abspath(name)
    return shutil.which(name)


def run_command(argv: Sequence[str], timeout: float, cancel: Any = None) -> RunResult:
    """Run argv without a shell; on timeout or cancel kill its whole process group. Never raises.

    Output is read as it comes, never more than OUTPUT_CAP_BYTES per stream in memory: a program that
    writes more is stopped there (error), except the logs of TAIL_PROGRAMS, of which the newest end is kept
    (`dropped_bytes` says how much of the start was left out). A process the program left behind that keeps
    its output open past PIPE_GRACE_S is killed with its group (`left_running`: what was written is kept)."""
    args = [str(a) for a in argv]
    found = _executable(args)
    if isinstance(found, dict):
        return found
    exe = found
    try:
        proc = subprocess.Popen(
            [exe] + args[1:], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            start_new_session=True,
        )
    except OSError as exc:
        return result(args, error=f"{exe}: {exc.strerror or exc}")
    tail = keeps_tail(args)
    out, err = _Capture(OUTPUT_CAP_BYTES, tail), _Capture(OUTPUT_CAP_BYTES, tail)
    over, ended = threading.Event(), threading.Event()
    readers = _start_readers(proc, out, err, over, ended)
    deadline = time.monotonic() + max(0.0, timeout)
    timed_out, cancelled = _wait(proc, deadline, cancel, over)
    left_running = stop_readers(proc, readers, ended, PIPE_GRACE_S)
    res = result(args, proc.returncode, out.data().decode("utf-8", "replace"),
                 err.data().decode("utf-8", "replace"), timed_out=timed_out, cancelled=cancelled,
                 error=("{}: output larger than {} MiB; stopped".format(exe, OUTPUT_CAP_BYTES // (1024 * 1024))
                        if over.is_set() else None))
    if out.dropped or err.dropped:
        res["dropped_bytes"] = out.dropped + err.dropped
    if left_running:
        res["left_running"] = True
    return res


def _executable(args: List[str]) -> Union[str, RunResult]:
    """The program to start: argv[0] as given when it has a path separator, else looked up on PATH; or the
    result of a program that is missing or not executable."""
    if not args:
        return result(args, missing=True)
    exe = args[0] if os.sep in args[0] else shutil.which(args[0])
    if exe is None or not os.path.isfile(exe):
        return result(args, missing=True)
    if not os.access(exe, os.X_OK):
        return result(args, missing=True, error=exe + " is not executable")
    return exe


def _start_readers(proc: Any, out: "_Capture", err: "_Capture", stop: Any, ended: Any) -> List[threading.Thread]:
    """One daemon thread per output stream, reading it into its capture as it comes."""
    readers = [threading.Thread(target=_drain, args=(stream, cap, stop, ended))
               for stream, cap in ((proc.stdout, out), (proc.stderr, err))]
    for th in readers:
        th.daemon = True
        th.start()
    return readers


def _wait(proc: Any, deadline: float, cancel: Any, over: Any) -> Tuple[bool, bool]:
    """Wait for the program to end; kill its group when its output is over the cap, on cancel or at the
    deadline. Returns (timed_out, cancelled)."""
    while True:
        try:
            proc.wait(timeout=max(0.0, min(0.05, deadline - time.monotonic())))
            return False, False
        except subprocess.TimeoutExpired:
            timed_out = cancelled = False
            if over.is_set():
                pass
            elif cancel is not None and cancel.is_set():
                cancelled = True
            elif time.monotonic() >= deadline:
                timed_out = True
            else:
                continue
            _kill_group(proc)
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass
            return timed_out, cancelled


def stop_readers(proc: Any, readers: List[threading.Thread], ended: Any, grace: float) -> bool:
    """Wait for the output's end once the program has ended or was killed; True when a process it left
    behind kept the output open past ``grace`` seconds (also the app's runner's, procurement.verify.collect.runner).

    Such a process (same group) is killed, and its end waited for as long again. One that left the group
    keeps its pipes: its readers are left blocked in read() (daemon threads that close their stream when it
    ends), since closing a buffered stream under a reader blocks on the reader's lock, for ever."""
    if _join(readers, grace):
        return False
    _kill_group(proc)
    _join(readers, grace)
    ended.set()
    return True


def _join(readers: List[threading.Thread], seconds: float) -> bool:
    """Whether every reader ended within ``seconds`` (all together)."""
    until = time.monotonic() + seconds
    for th in readers:
        th.join(max(0.0, until - time.monotonic()))
    return not any(th.is_alive() for th in readers)


def ok(res: Optional[RunResult]) -> bool:
    return bool(res) and res.get("returncode") == 0 and not (  # type: ignore[union-attr]
        res.get("missing") or res.get("timed_out") or res.get("cancelled") or res.get("error")  # type: ignore[union-attr]
    )


# The PyTorch child of `verify --benchmark` and of the probe (one copy, shipped in the zipapp). Sizes: an
# 8192² bf16/fp16 GEMM (about 1.1 TFLOP per call) and a 1 GiB device-to-device copy are large enough to reach
# steady clocks on data-centre GPUs and small enough to finish in seconds.
BENCH_SCRIPT = r"""
import json, sys
try:
    import torch
except Exception as exc:
    print(json.dumps({"skip": "no torch: " + str(exc)[:200]})); sys.exit(0)
if not torch.cuda.is_available():
    print(json.dumps({"skip": "torch " + torch.__version__ + " sees no CUDA device"})); sys.exit(0)
res = []
for i in range(torch.cuda.device_count()):
    item = {"index": i, "name": torch.cuda.get_device_name(i)}
    try:
        dev = torch.device("cuda", i)
        dt = torch.bfloat16 if torch.cuda.is_bf16_supported() else torch.float16
        n = 8192
        a = torch.randn(n, n, device=dev, dtype=dt); b = torch.randn(n, n, device=dev, dtype=dt)
        for _ in range(3):
            a @ b
        torch.cuda.synchronize(dev)
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        iters = 20
        s.record()
        for _ in range(iters):
            a @ b
        e.record(); torch.cuda.synchronize(dev)
        item["matmul_tflops"] = 2 * n ** 3 * iters / (s.elapsed_time(e) / 1e3) / 1e12
        del a, b
        nbytes = 1 << 30
        x = torch.empty(nbytes, dtype=torch.uint8, device=dev); y = torch.empty_like(x)
        y.copy_(x); torch.cuda.synchronize(dev)
        s.record()
        for _ in range(iters):
            y.copy_(x)
        e.record(); torch.cuda.synchronize(dev)
        item["bandwidth_gbs"] = 2 * nbytes * iters / (s.elapsed_time(e) / 1e3) / 1e9
        del x, y
        torch.cuda.empty_cache()
    except Exception as exc:
        item["error"] = str(exc).splitlines()[0][:200] if str(exc) else type(exc).__name__
    res.append(item)
print(json.dumps({"torch": torch.__version__, "gpus": res}))
"""

# Python run in a child so that a broken torch/tensorflow install (hanging CUDA init, segfault) can only
# cost the timeout, never hang or crash the collection.
FRAMEWORK_SCRIPT = r"""
import importlib.util, json
out = {}
if importlib.util.find_spec("torch") is not None:
    try:
        import torch
        d = {"version": torch.__version__, "cuda": getattr(torch.version, "cuda", None)}
        try:
            d["cuda_available"] = bool(torch.cuda.is_available())
            d["device_count"] = torch.cuda.device_count() if d["cuda_available"] else 0
        except Exception as exc:
            d["cuda_available"] = False
            d["error"] = str(exc)[:300]
        out["torch"] = d
    except Exception as exc:
        out["torch"] = {"error": str(exc)[:300]}
if importlib.util.find_spec("tensorflow") is not None:
    try:
        import tensorflow as tf
        gpus = tf.config.list_physical_devices("GPU")
        out["tensorflow"] = {"version": tf.__version__, "cuda_available": bool(gpus),
                             "device_count": len(gpus)}
    except Exception as exc:
        out["tensorflow"] = {"error": str(exc)[:300]}
print(json.dumps(out))
"""

# Files read as text (relative to the root). Missing or unreadable ones are recorded as null.
HOST_FILES = (
    "proc/sys/kernel/hostname",
    "etc/hostname",
    "proc/sys/kernel/osrelease",
    "etc/os-release",
    "usr/lib/os-release",
    "proc/cpuinfo",
    "proc/meminfo",
    "etc/machine-id",
    "sys/class/dmi/id/product_serial",
    "sys/class/dmi/id/product_uuid",
    "sys/class/dmi/id/board_serial",
    "sys/class/dmi/id/sys_vendor",
    "sys/class/dmi/id/product_name",
    "proc/driver/nvidia/version",
    # the handover's host tuning, judged by the TUNE-* checks (procurement/host_tuning.py; collector 1.2 on)
    "proc/swaps",
    "proc/mounts",
    "proc/self/limits",
    "sys/kernel/mm/transparent_hugepage/enabled",
)
MAX_CPUS = 8192
"""At most this many cpuN directories are read for their cpufreq governor (Linux's NR_CPUS tops out at 8192)."""
GOVERNOR_READ_BYTES = 256
"""A scaling_governor file holds one word ('performance\n')."""
PROGRAMS = ("nvidia-smi", "dcgmi", "nv-hostengine", "nvidia-fabricmanager", "ibstat", "ibv_devinfo")
_NET_FILES = ("speed", "type", "operstate", "address")
_IB_PORT_FILES = ("state", "phys_state", "rate", "link_layer")


READ_CAP_BYTES = 4 * 1024 * 1024
"""At most this much of one file is kept (/proc/cpuinfo of a 256-thread server is ~0.5 MB)."""
_READ_CHUNK = 64 * 1024


def read_small_file(path: str, limit: int = READ_CAP_BYTES) -> Optional[str]:
    """The text of a /proc, /sys or /etc file, at most ``limit`` bytes; None when it cannot be read.

    Streamed in small reads: one read() the size of the cap is refused by the kernel on /proc/sys
    (ENOMEM for a 4 MiB request), and /proc files report size 0, so the size cannot be asked first.
    Anything but a regular file (a FIFO or a device planted under the root) is not read: it could block
    or never end.
    """
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except (OSError, ValueError):
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        return _read_up_to(fd, limit).decode("utf-8", "replace")
    except OSError:
        return None
    finally:
        os.close(fd)


def _read_up_to(fd: int, limit: int) -> bytes:
    """At most ``limit`` bytes from ``fd``'s position on, in chunks (one 4 MiB read of some /proc files fails)."""
    chunks = []  # type: List[bytes]
    left = limit
    while left > 0:
        chunk = os.read(fd, min(_READ_CHUNK, left))
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def read_tail(path: str, limit: int) -> Tuple[Optional[str], Optional[str]]:
    """(the last ``limit`` bytes of a regular file as text, from its first whole line; None) or (None, why:
    'not found', 'permission denied', 'not a regular file', the OS's words)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        return None, _os_why(exc)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return None, "not a regular file"
        start = max(0, st.st_size - limit)
        os.lseek(fd, start, os.SEEK_SET)
        data = _read_up_to(fd, limit)
        if start > 0:  # cut inside a line: its start is not read
            data = data[data.find(b"\n") + 1:] if b"\n" in data else b""
        return data.decode("utf-8", "replace"), None
    except OSError as exc:
        return None, _os_why(exc)
    finally:
        os.close(fd)


def _os_why(exc: OSError) -> str:
    if isinstance(exc, FileNotFoundError):
        return "not found"
    if isinstance(exc, PermissionError):
        return "permission denied"
    return (exc.strerror or str(exc))[:200]


class Collector:
    """Reads below ``root`` and runs programs through ``run``; all of it fakeable for tests."""

    def __init__(self, root: str = "/", run: Optional[Run] = None, timeout: float = 30.0,
                 nvidia_smi: Optional[str] = None, python: Optional[str] = None, cancel: Any = None,
                 progress: Optional[Callable[[str], None]] = None, deadline_at: Optional[float] = None) -> None:
        self.root = root
        self.cancel = cancel
        self.run_fn = run or (lambda argv, t: run_command(argv, t, cancel))
        self.timeout = timeout
        self.python = python or sys.executable or "python3"
        self.progress = progress
        self.smi = nvidia_smi  # None: "nvidia-smi" on PATH
        self.deadline_at = deadline_at
        """time.monotonic() by which the whole run ends (None: no deadline): no program runs past it."""
        left = self.left()
        self.after_reserve = 0.0 if left is None else min(AFTER_RESERVE_S, max(0.0, left) / 10)
        """Seconds the load tools leave free before the deadline for the re-read after the load."""

    # ------------------------------------------------------------ helpers
    def path(self, rel: str) -> str:
        return os.path.join(self.root, rel.lstrip("/"))

    def read(self, rel: str, limit: int = READ_CAP_BYTES) -> Optional[str]:
        return read_small_file(self.path(rel), limit)

    def listdir(self, rel: str) -> List[str]:
        try:
            return sorted(os.listdir(self.path(rel)))
        except OSError:
            return []

    def left(self, reserve: float = 0.0) -> Optional[float]:
        """Seconds left before the deadline, less ``reserve`` (None: no deadline)."""
        if self.deadline_at is None:
            return None
        return self.deadline_at - time.monotonic() - reserve

    def run(self, *argv: str, **kw: Any) -> RunResult:
        if self.cancel is not None and self.cancel.is_set():
            raise Cancelled()
        timeout = kw.get("timeout", self.timeout)
        left = self.left(kw.get("reserve", 0.0))
        cut = False
        if left is not None and left < timeout:
            if left <= 0:  # the run's deadline has passed: the program is not started
                return dict(result(argv, timed_out=True), deadline=True, seconds=0.0)
            timeout, cut = left, True
        try:
            res = self.run_fn(list(argv), timeout)
        except Exception as exc:  # a probe must never take the collection down with it
            res = result(argv, error=str(exc))
        if res.get("cancelled"):
            raise Cancelled()
        if cut and res.get("timed_out"):
            res["deadline"] = True  # stopped by the run's deadline, not by its own limit
        return res

    def run_together(self, into: Dict[str, Any], commands: Dict[str, Sequence[str]]) -> None:
        """Run ``commands`` (key → argv) at once and store each result under its key in ``into``."""
        failed = []  # type: List[BaseException]

        def one(key: str, argv: Sequence[str]) -> None:
            try:
                into[key] = self.run(*argv)
            except BaseException as exc:  # Cancelled: re-raised in the caller's thread
                failed.append(exc)

        threads = [threading.Thread(target=one, args=(k, a), daemon=True) for k, a in commands.items()]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        if failed:
            raise failed[0]

    def step(self, key: str) -> None:
        if self.cancel is not None and self.cancel.is_set():
            raise Cancelled()
        if self.progress is not None:
            self.progress(key)

    def smi_argv(self) -> str:
        if self.smi:
            found = resolve_program(self.smi)
            return found or self.smi
        return "nvidia-smi"

    # ------------------------------------------------------------ parts
    def gpu(self, raw: Dict[str, Any]) -> None:
        self.step("smi")
        smi = self.smi_argv()
        cmds = raw["commands"]
        q = cmds["nvidia_smi_q"] = self.run(smi, "-q", "-x")
        raw["nvidia_smi_path"] = smi
        self.step("topo")
        ngpus = len(re.findall(r"<gpu\s+id=", q.get("stdout") or ""))
        together = {}  # type: Dict[str, Sequence[str]]
        if ngpus > 1:
            # the reads at once, each in its own thread (0.7 s one after another on an 8-GPU node)
            together.update({"nvidia_smi_topo": (smi, "topo", "-m"), "nvidia_smi_nvlink": (smi, "nvlink", "-s"),
                             "nvidia_smi_nvlink_errors": (smi, "nvlink", "-e")})
        if ngpus > 0:
            # the MIG instances (MIG-LAYOUT): `mig -lgi` needs root on some drivers, `-L` lists them without
            together.update({"nvidia_smi_mig_lgi": (smi, "mig", "-lgi"), "nvidia_smi_list": (smi, "-L")})
        if together:
            self.run_together(cmds, together)
        bus_ids = re.findall(r"<gpu\s+id=\"([0-9A-Fa-f:.]+)\"", q.get("stdout") or "")
        raw["pci_aer"] = self.pci_aer(bus_ids)

    def pci_aer(self, bus_ids: List[str]) -> Dict[str, Any]:
        """AER counters of each GPU's PCI function (sysfs, readable without root)."""
        out = {}  # type: Dict[str, Any]
        for bus in bus_ids:
            short = sysfs_bus_id(bus)
            base = "sys/bus/pci/devices/" + short
            entry = {}  # type: Dict[str, Any]
            for name in ("aer_dev_correctable", "aer_dev_nonfatal", "aer_dev_fatal"):
                entry[name] = self.read(base + "/" + name)
            out[short] = entry
        return out

    def host(self, raw: Dict[str, Any]) -> None:
        self.step("host")
        files = raw["files"]
        for rel in HOST_FILES:
            files["/" + rel] = self.read(rel)
        self.cpu_governors(files)
        cmds = raw["commands"]
        cpuinfo = files.get("/proc/cpuinfo") or ""
        if "physical id" not in cpuinfo or "core id" not in cpuinfo or "model name" not in cpuinfo:
            cmds["lscpu"] = self.run("lscpu")
        cmds["lsblk"] = self.run("lsblk", "--json", "--bytes", "--nodeps", "-o", "NAME,TYPE,SIZE,MODEL,TRAN,ROTA")
        raw["edac_mc"] = [n for n in self.listdir("sys/devices/system/edac/mc") if n.startswith("mc")]
        net = []
        for name in self.listdir("sys/class/net"):
            base = "sys/class/net/" + name
            if not os.path.exists(self.path(base + "/device")):
                continue  # lo, bridges, veths, bonds: no hardware behind them
            entry = {"name": name}  # type: Dict[str, Any]
            for f in _NET_FILES:
                value = self.read(base + "/" + f)
                entry[f] = value.strip() if value is not None else None
            net.append(entry)
        raw["net"] = net
        ib = []
        for dev in self.listdir("sys/class/infiniband"):
            base = "sys/class/infiniband/" + dev
            fw = self.read(base + "/fw_ver")
            hca = self.read(base + "/hca_type")
            for port in self.listdir(base + "/ports"):
                entry = {"device": dev, "port": port, "fw_ver": fw.strip() if fw else None,
                         "hca_type": hca.strip() if hca else None}
                for f in _IB_PORT_FILES:
                    value = self.read(base + "/ports/" + port + "/" + f)
                    entry[f] = value.strip() if value is not None else None
                ib.append(entry)
        raw["infiniband"] = ib
        cmds["ibstat"] = self.run("ibstat")
        cmds["lspci"] = self.run("lspci", "-nn", "-D")
        cmds["fabricmanager"] = self.run("systemctl", "is-active", "nvidia-fabricmanager")
        # which of NVIDIA's tools are installed: nvidia-smi missing beside an installed DCGM is not "no driver"
        raw["programs"] = {name: resolve_program(name) for name in PROGRAMS}
        raw["kernel_log"] = self.kernel_log()
        raw["fabricmanager_log"] = self.fabricmanager_log()

    def cpu_governors(self, files: Dict[str, Any]) -> None:
        """Each online CPU's cpufreq governor (TUNE-GOVERNOR), null where it has none (a VM, no cpufreq
        driver). An offline CPU (its `online` file reads 0) has no cpufreq directory and is left out."""
        base = "sys/devices/system/cpu/"
        cpus = [n for n in self.listdir(base) if re.match(r"^cpu\d+$", n)]
        for name in sorted(cpus, key=lambda n: int(n[3:]))[:MAX_CPUS]:
            online = self.read(base + name + "/online", 16)
            if online is not None and online.strip() == "0":
                continue
            rel = base + name + "/cpufreq/scaling_governor"
            files["/" + rel] = self.read(rel, GOVERNOR_READ_BYTES)

    def kernel_log(self) -> Dict[str, Any]:
        """The kernel log lines that matter for GPUs (Xid, NVRM, AER, NVSwitch, mlx5), the newest kept: the
        log is read from its end (TAIL_PROGRAMS). A log without one kernel entry (_KERNEL_LOG_ENTRY) although
        the program succeeded is not a clean log: the next source is tried, and the record says why none was
        usable. ``entries`` counts the kernel's lines read (collector 1.3 on)."""
        tried = []
        for argv in (("dmesg", "--time-format", "iso"), ("journalctl", "-k", "-b", "--no-pager", "-o",
                                                          "short-iso")):
            res = self.run(*argv)
            text = res.get("stdout") or ""
            every = text.splitlines()
            entries = sum(1 for ln in every if _KERNEL_LOG_ENTRY.search(ln))
            if ok(res) and entries:
                lines = [ln for ln in every if _KERNEL_LOG_MATCH.search(ln)]
                return {"source": argv[0], "lines": lines[-KERNEL_LOG_LINES:], "truncated":
                        len(lines) > KERNEL_LOG_LINES or bool(res.get("dropped_bytes")), "error": None,
                        "read_lines": len(every), "entries": entries,
                        "dropped_bytes": res.get("dropped_bytes") or 0}
            first = ((res.get("stderr") or "").strip().splitlines() or [res.get("error") or ""])[0]
            if ok(res) and text.strip():
                said = next(ln.strip() for ln in every if ln.strip())
                why = "exit 0 but printed no kernel log entry ({})".format(said[:120])
            elif ok(res):
                why = "exit 0 but printed nothing"
            elif res.get("missing"):
                why = "not installed"
            elif res.get("timed_out"):
                why = "did not finish in time" + (" (the run's deadline)" if res.get("deadline") else "")
            else:
                why = first or "exit {}".format(res.get("returncode"))
            # dmesg names itself in its message ('dmesg: read kernel buffer failed: …'): not named twice
            tried.append((why if why.startswith(argv[0] + ":") else "{}: {}".format(argv[0], why))[:300])
        return {"source": None, "lines": [], "truncated": False, "error": "; ".join(tried)}

    def fabricmanager_log(self) -> Dict[str, Any]:
        """The newest end of Fabric Manager's own log (its starts, the lines at WARNING and above, NVSwitch
        fatal errors), at the LOG_FILE_NAME of its configuration file or the default path; ``lines`` null
        with ``error`` when it was not readable, ``syslog`` when the configuration sends the log to syslog."""
        cfg = self.read(FM_CONFIG, 256 * 1024)
        path, syslog = FM_LOG_DEFAULT, False
        for line in (cfg or "").splitlines():
            key, _, value = line.strip().partition("=")
            if key.strip() == "LOG_FILE_NAME" and value.strip().startswith("/"):
                path = value.strip()
            elif key.strip() == "LOG_USE_SYSLOG":
                syslog = value.strip() == "1"
        rec = {"path": path, "config": cfg is not None, "syslog": syslog, "lines": None, "read_lines": 0,
               "truncated": False, "error": None, "boot": None}  # type: Dict[str, Any]
        # when this boot began, in the local time Fabric Manager stamps its lines with: a start before it is
        # an earlier boot's, not a restart
        btime = re.search(r"^btime\s+(\d+)", self.read("proc/stat") or "", re.MULTILINE)
        if btime:
            rec["boot"] = time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(int(btime.group(1))))
        text, error = read_tail(self.path(path), FM_LOG_TAIL_BYTES)
        if text is None:
            rec["error"] = error
            return rec
        every = text.splitlines()
        lines = [ln for ln in every if _FM_LOG_MATCH.search(ln)]
        rec.update(lines=[ln[:400] for ln in lines[-FM_LOG_LINES:]], read_lines=len(every),
                   truncated=len(lines) > FM_LOG_LINES or len(text) >= FM_LOG_TAIL_BYTES)
        return rec

    def software(self, raw: Dict[str, Any], image: Optional[str]) -> None:
        self.step("software")
        cmds = raw["commands"]
        cmds["nvcc"] = self.run("nvcc", "--version")
        cmds["docker_version"] = self.run("docker", "version", "--format", "{{.Server.Version}}")
        if ok(cmds["docker_version"]) and (cmds["docker_version"].get("stdout") or "").strip():
            cmds["docker_runtimes"] = self.run("docker", "info", "--format", "{{json .Runtimes}}")
            if image:
                cmds["docker_image"] = self.run("docker", "image", "inspect", image)
                raw["image"] = image
        cmds["nvidia_ctk"] = self.run("nvidia-ctk", "--version")
        cmds["frameworks"] = self.run(self.python, "-c", FRAMEWORK_SCRIPT)


# ---------------------------------------------------------------- the load run

LOAD_LEVELS = ("quick", "full")
BURN_SECONDS = {"quick": 300, "full": 1800}
"""How long the concurrent burn runs unless --duration says otherwise: quick keeps a node under 15 minutes
with the other tools; full is long enough for any air- or liquid-cooled node to reach thermal steady state."""
SAMPLE_EVERY_S = 10.0
SAMPLE_QUERIES = (
    "index,power.draw,temperature.gpu,clocks.sm,clocks_event_reasons.active",  # drivers from 535 on
    "index,power.draw,temperature.gpu,clocks.sm,clocks_throttle_reasons.active",  # older drivers
)


def load_plan(level: str, gpus: int, duration: Optional[float] = None) -> List[Dict[str, Any]]:
    """The tools a load run starts, in order: name, argv and timeout (seconds)."""
    burn = float(duration) if duration else float(BURN_SECONDS[level])
    n = str(max(1, gpus))
    return [
        {"name": "dcgmi_diag", "argv": ["dcgmi", "diag", "-r", "1" if level == "quick" else "3"],
         "timeout": 600.0 if level == "quick" else 3600.0},
        {"name": "nvbandwidth", "argv": ["nvbandwidth", "-t", "device_to_device_memcpy_read_ce"],
         "timeout": 600.0},
        {"name": "all_reduce_perf",
         "argv": ["all_reduce_perf", "-b", "8M" if level == "quick" else "8", "-e", "1G" if level == "quick"
                  else "8G", "-f", "2", "-g", n], "timeout": 900.0},
        {"name": "gpu_burn", "argv": ["gpu_burn", str(int(burn))], "timeout": burn + 180.0, "sample": True},
    ] + ([{"name": "p2p_bandwidth", "argv": ["p2pBandwidthLatencyTest"], "timeout": 600.0}] if level == "full" else [])


def cross_node_plan(level: str, gpus: int, env: Dict[str, str], hostfile: Optional[str] = None
                    ) -> Optional[Dict[str, Any]]:
    """NCCL all_reduce_perf across nodes, one rank per GPU: with ``hostfile`` through Open MPI's mpirun,
    otherwise from the first node of a Slurm allocation of several nodes through srun (--overlap: it runs
    beside the step the probe itself may be in). None when neither applies (this node's run is enough)."""
    sizes = ["-b", "8M", "-e", "1G"] if level == "quick" else ["-b", "8", "-e", "8G"]
    test = ["all_reduce_perf"] + sizes + ["-f", "2", "-g", "1"]
    per = max(1, gpus)
    if hostfile:
        try:  # a regular file only, at most 1 MiB (a FIFO would hang, /dev/zero fill the memory)
            if not os.path.isfile(hostfile):
                raise OSError("not a regular file")
            with open(hostfile, "rb") as fh:
                text = fh.read(1024 * 1024).decode("utf-8")
            hosts = [ln.split("#")[0].split()[0] for ln in text.splitlines() if ln.split("#")[0].strip()]
        except (OSError, UnicodeDecodeError):
            hosts = []
        nodes = len(hosts)
        argv = ["mpirun", "--hostfile", hostfile, "-np", str(max(1, nodes) * per), "--map-by",
                "ppr:%d:node" % per] + test
        return {"name": "all_reduce_perf_nodes", "argv": argv, "timeout": 1200.0, "nodes": nodes,
                "launcher": "mpirun"}
    try:
        nodes = int(env.get("SLURM_JOB_NUM_NODES") or env.get("SLURM_NNODES") or "1")
    except ValueError:
        nodes = 1
    if nodes < 2 or env.get("SLURM_NODEID", "0") != "0":
        return None
    argv = ["srun", "--overlap", "-N", str(nodes), "--ntasks-per-node", str(per)] + test
    return {"name": "all_reduce_perf_nodes", "argv": argv, "timeout": 1200.0, "nodes": nodes, "launcher": "srun"}


# The burn where gpu_burn is not installed but PyTorch with CUDA is: every GPU at once (one thread each; the
# GEMMs release the GIL), the same bf16/fp16 matrix product over and over until the deadline, each result
# compared with the first one on that GPU (a mismatch is a computing error, as gpu_burn counts them).
TORCH_BURN_SCRIPT = r"""
import json, sys, threading, time
import torch
seconds = float(sys.argv[1])
n = 8192
out = []
def burn(i, rec):
    try:
        dev = torch.device("cuda", i)
        torch.cuda.set_device(dev)
        dt = torch.bfloat16 if torch.cuda.is_bf16_supported() else torch.float16
        g = torch.Generator(device=dev).manual_seed(1234 + i)
        a = torch.randn(n, n, device=dev, dtype=dt, generator=g)
        b = torch.randn(n, n, device=dev, dtype=dt, generator=g)
        ref = torch.matmul(a, b).float().sum().item()
        iters = errors = 0
        start = time.time()
        while time.time() - start < seconds:
            for _ in range(10):
                c = torch.matmul(a, b)
            if c.float().sum().item() != ref:
                errors += 1
            iters += 10
        torch.cuda.synchronize(dev)
        took = time.time() - start
        rec.update(iterations=iters, errors=errors, seconds=round(took, 1),
                   tflops=round(2.0 * n ** 3 * iters / took / 1e12, 1))
    except Exception as exc:
        rec["error"] = str(exc)[:300]
threads = []
for i in range(torch.cuda.device_count()):
    rec = {"index": i, "name": torch.cuda.get_device_name(i)}
    out.append(rec)
    t = threading.Thread(target=burn, args=(i, rec))
    t.start()
    threads.append(t)
for t in threads:
    t.join()
print(json.dumps({"torch": torch.__version__, "gpus": out}))
"""


def _torch_cuda(raw: Dict[str, Any]) -> bool:
    fw = raw["commands"].get("frameworks") or {}
    try:
        found = json.loads((fw.get("stdout") or "").strip().splitlines()[-1])
    except (ValueError, IndexError):
        return False
    return isinstance(found, dict) and bool((found.get("torch") or {}).get("cuda_available"))


IPMITOOL_POWER = ("ipmitool", "dcmi", "power", "reading")
IPMITOOL_PSU = ("ipmitool", "sdr", "type", "Power Supply")


def _bmc_sample(c: "Collector", bmc: List[Dict[str, Any]]) -> None:
    """The BMC's own view at this moment: its power reading (DCMI) and its power-supply sensors."""
    entry = {"t": time.time()}  # type: Dict[str, Any]
    for key, argv in (("power", IPMITOOL_POWER), ("psu", IPMITOOL_PSU)):
        res = c.run_fn(list(argv), _bounded(c, 20.0))
        entry[key] = {"returncode": res.get("returncode"), "stdout": res.get("stdout") or "",
                      "stderr": (res.get("stderr") or "")[-2000:], "error": res.get("error")}
    bmc.append(entry)


def _bounded(c: "Collector", timeout: float) -> float:
    left = c.left()
    return timeout if left is None else max(1.0, min(timeout, left))


def _sample(c: "Collector", smi: str, samples: List[Dict[str, Any]], stop: Any,
            bmc: Optional[List[Dict[str, Any]]] = None) -> None:
    """Query power, temperature, SM clock and throttle reasons every SAMPLE_EVERY_S until ``stop``; with
    ``bmc``, also the BMC's power reading and PSU sensors (ipmitool)."""
    queries = list(SAMPLE_QUERIES)
    while not stop.is_set():
        left = c.left()
        if left is not None and left <= 1:
            return  # the run's deadline: no more samples
        res = c.run_fn([smi, "--query-gpu=" + queries[0], "--format=csv,noheader,nounits"], _bounded(c, 20.0))
        if res.get("returncode") not in (0, None) and len(queries) > 1:
            queries.pop(0)  # this driver does not know the field name: ask with the older one
            continue
        samples.append({"t": time.time(), "stdout": res.get("stdout") or "", "returncode": res.get("returncode")})
        if bmc is not None:
            _bmc_sample(c, bmc)
        stop.wait(SAMPLE_EVERY_S)


def run_load(c: "Collector", raw: Dict[str, Any], level: str, duration: Optional[float] = None,
             hostfile: Optional[str] = None, env: Optional[Dict[str, str]] = None) -> None:
    """Run the acceptance tools that are installed, each with its timeout; sample power, temperature,
    clocks and throttle reasons while the burn runs. A missing tool is recorded as missing. Across nodes
    (``hostfile``, or a Slurm allocation of several nodes seen in ``env``) NCCL runs once more over all of
    them, before the burn."""
    import threading

    if level not in LOAD_LEVELS:
        raise ValueError("load level must be quick or full")
    q = raw["commands"].get("nvidia_smi_q") or {}
    gpus = len(re.findall(r"<gpu\s+id=", q.get("stdout") or ""))
    load = {"level": level, "duration_s": duration, "gpus": gpus, "tools": {}, "samples": []}  # type: Dict[str, Any]
    raw["load"] = load
    smi = c.smi_argv()
    # The BMC (ipmitool) is read alongside the GPUs while they burn: the whole system's draw and the PSUs'
    # state at full load. Without ipmitool that is recorded as missing.
    bmc = None  # type: Optional[List[Dict[str, Any]]]
    if _found(IPMITOOL_POWER[0]):
        bmc = load["bmc_samples"] = []
    else:
        load["tools"]["ipmitool"] = result(list(IPMITOOL_POWER), missing=True)
    tools = load_plan(level, gpus, duration)
    across = cross_node_plan(level, gpus, dict(os.environ) if env is None else env, hostfile)
    if across is not None:
        tools.insert(len(tools) - 1, across)
    for tool in tools:
        if tool.get("launcher") and not (_found(tool["argv"][0]) and _found("all_reduce_perf")):
            missing = tool["argv"][0] if not _found(tool["argv"][0]) else "all_reduce_perf"
            load["tools"][tool["name"]] = dict(result([missing] + tool["argv"][1:], missing=True),
                                               nodes=tool["nodes"], launcher=tool["launcher"])
            continue
        if tool["name"] == "gpu_burn" and not _found(tool["argv"][0]) and _torch_cuda(raw):
            # no gpu_burn here: burn with PyTorch instead (recorded as torch_burn; gpu_burn stays missing)
            load["tools"]["gpu_burn"] = result(tool["argv"], missing=True)
            tool = {"name": "torch_burn", "argv": [c.python, "-c", TORCH_BURN_SCRIPT, tool["argv"][1]],
                    "timeout": tool["timeout"], "sample": True}
        c.step("load:" + tool["name"])
        samples = []  # type: List[Dict[str, Any]]
        stop = threading.Event()
        sampler = None
        if tool.get("sample"):
            sampler = threading.Thread(target=_sample, args=(c, smi, samples, stop, bmc),
                                       name="gpu-procure-sampler")
            sampler.daemon = True
            sampler.start()
        started = time.time()
        try:
            # the re-read after the load must still fit before the deadline
            res = c.run(*tool["argv"], timeout=tool["timeout"], reserve=c.after_reserve)
        finally:
            stop.set()
            if sampler is not None:
                sampler.join(30)
        res["seconds"] = round(time.time() - started, 1)
        res["limit_s"] = tool["timeout"]
        if tool.get("launcher"):
            res["nodes"], res["launcher"] = tool["nodes"], tool["launcher"]
        load["tools"][tool["name"]] = res
        if samples:
            load["samples"].extend(samples)
    if level == "full":
        # the ports as the verbs layer sees them (beside ibstat and sysfs)
        load["tools"]["ibv_devinfo"] = c.run("ibv_devinfo", reserve=c.after_reserve)
    load["after"] = after_load(c, smi, gpus)


AFTER_RESERVE_S = 60.0
"""Seconds kept free before the run's deadline for re-reading the health counters after the load (at most a
tenth of the deadline: a short deadline still leaves the tools most of it)."""


def after_load(c: "Collector", smi: str, gpus: int) -> Dict[str, Any]:
    """The health counters read again once the load has run: what the load provoked (an Xid, new ECC
    errors, a GPU fallen off the bus, AER errors, NVLink errors) shows only here."""
    c.step("load:after")
    after = {"nvidia_smi_q": c.run(smi, "-q", "-x")}  # type: Dict[str, Any]
    bus_ids = re.findall(r"<gpu\s+id=\"([0-9A-Fa-f:.]+)\"", after["nvidia_smi_q"].get("stdout") or "")
    if gpus > 1:
        after["nvidia_smi_nvlink_errors"] = c.run(smi, "nvlink", "-e")
    after["pci_aer"] = c.pci_aer(bus_ids)
    after["kernel_log"] = c.kernel_log()
    return after


def _found(name: str) -> bool:
    return resolve_program(name) is not None


def sysfs_bus_id(bus: str) -> str:
    """nvidia-smi's '00000000:53:00.0' as sysfs names it: '0000:53:00.0' (lower case)."""
    m = re.match(r"^([0-9A-Fa-f]+):([0-9A-Fa-f]{2}):([0-9A-Fa-f]{2})\.([0-7])$", bus.strip())
    if not m:
        return bus.strip().lower()
    return f"{int(m.group(1), 16) & 0xFFFF:04x}:{m.group(2).lower()}:{m.group(3).lower()}.{m.group(4)}"


def new_raw() -> Dict[str, Any]:
    now = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0).isoformat()
    return {
        "kind": KIND,
        "raw_schema_version": RAW_SCHEMA_VERSION,
        "probe_version": PROBE_VERSION,
        "created": now,
        "python": platform.python_version(),
        "platform": sys.platform,
        "nvidia_smi_path": None,
        "commands": {},
        "files": {},
        "net": [],
        "infiniband": [],
        "edac_mc": [],
        "pci_aer": {},
        "kernel_log": None,
        "fabricmanager_log": None,
        "image": None,
        "load": None,
    }


DEADLINE_S = {None: 600.0, "quick": 900.0, "full": 7200.0}
"""The whole run's default deadline (docs/verify.md, "Load"): a quick load run is documented to end within
15 minutes; a full one (DCGM level 3, about 30 minutes or more, and a 30-minute burn) within two hours; the
probe without a load within ten minutes."""


def default_deadline(load: Optional[str] = None, duration: Optional[float] = None) -> float:
    """DEADLINE_S, moved by as much as ``duration`` lengthens or shortens the burn."""
    base = DEADLINE_S.get(load, DEADLINE_S[None])
    if load in BURN_SECONDS and duration:
        base = max(DEADLINE_S[None], base + float(duration) - BURN_SECONDS[load])
    return base


def collect(root: str = "/", run: Optional[Run] = None, timeout: float = 30.0, nvidia_smi: Optional[str] = None,
            python: Optional[str] = None, image: Optional[str] = None, cancel: Any = None,
            progress: Optional[Callable[[str], None]] = None, load: Optional[str] = None,
            duration: Optional[float] = None, hostfile: Optional[str] = None,
            deadline: Optional[float] = None) -> Dict[str, Any]:
    """All raw facts of this machine, with the load run when ``load`` is 'quick' or 'full'; raises
    Cancelled when ``cancel.is_set()``. ``deadline``: seconds the whole run may take (default:
    default_deadline()); no program runs past it, and what it cut short is recorded so."""
    if deadline is None or deadline <= 0:
        deadline = default_deadline(load, duration)
    deadline_at = time.monotonic() + deadline
    c = Collector(root, run, timeout, nvidia_smi, python, cancel, progress, deadline_at)
    raw = new_raw()
    raw["timeout_s"] = timeout
    raw["deadline_s"] = deadline
    # nvidia-smi takes seconds on a loaded 8-GPU machine, and so do lscpu, ibstat, docker and importing the
    # frameworks: the GPU part runs in a second thread while the host and software parts run here (each part
    # writes keys of its own in ``raw``), so the probe takes about as long as the slower of the two
    failed = []  # type: List[BaseException]
    # progress stays in order: both GPU steps are announced as the GPU part starts; its own collector says
    # nothing (cancelling still stops it)
    c.step("smi")
    c.step("topo")
    quiet = Collector(root, run, timeout, nvidia_smi, python, cancel, None, deadline_at)

    def gpu_part() -> None:
        try:
            quiet.gpu(raw)
        except BaseException as exc:  # re-raised below, in the caller's thread (Cancelled included)
            failed.append(exc)

    worker = threading.Thread(target=gpu_part, name="gpu-procure-probe-gpu", daemon=True)
    worker.start()
    try:
        c.host(raw)
        c.software(raw, image)
    finally:
        worker.join()
    if failed:
        raise failed[0]
    if load:
        run_load(c, raw, load, duration, hostfile)
    return raw


def dumps(raw: Dict[str, Any]) -> str:
    return json.dumps(raw, ensure_ascii=False, indent=1, sort_keys=True) + "\n"


if __name__ == "__main__":  # pragma: no cover - the standalone probe has its own entry point
    sys.stdout.write(dumps(collect()))

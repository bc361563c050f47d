#!/usr/bin/env python3
"""gpu-procure probe: the command that collects a GPU server's raw facts as JSON (stdlib, Python 3.6+).

Runs on the target machine's system python3 with nothing installed and without root (as root it also
reads the kernel log where dmesg is restricted, and the DMI serial numbers). It judges nothing: the facts
come from the same collector `gpu-procure verify` uses (procurement/verify/collect/raw.py, shipped beside this file
in the zipapp as gpu_procure_raw.py), and `gpu-procure judge` compares them with the plan. Usage:

    python3 gpu-procure-probe.pyz [-o FILE] [--load quick|full [--duration S]] [--benchmark] [--timeout S]
                                  [--deadline S] [--nvidia-smi PATH] [--image REF] [--python PATH]

This file must stay runnable by Python 3.6: no dataclasses, no `from __future__ import annotations`, no
subprocess.run(capture_output=...), no walrus; tests/procurement/probe checks it with vermin and runs the zipapp under
every interpreter found on the machine.
"""

import argparse
import json
import os
import sys
import tempfile
import time
from typing import Any, Dict, Optional, Sequence

try:  # inside the zipapp
    import gpu_procure_raw as raw
except ImportError:  # from the source tree / the installed app
    from procurement.verify.collect import raw

PROBE_CLI_VERSION = "1.0.0"
"""Version of this command (the collector has its own, raw.PROBE_VERSION; both go into the file)."""

BENCH_TIMEOUT_S = 300.0

def _gpu_count(doc: Dict[str, Any]) -> int:
    q = doc["commands"].get("nvidia_smi_q") or {}
    return (q.get("stdout") or "").count("<gpu id=")


def _torch_sees_cuda(doc: Dict[str, Any]) -> bool:
    fw = doc["commands"].get("frameworks") or {}
    try:
        found = json.loads((fw.get("stdout") or "").strip().splitlines()[-1])
    except (ValueError, IndexError):
        return False
    return isinstance(found, dict) and bool((found.get("torch") or {}).get("cuda_available"))


def benchmark(doc: Dict[str, Any], python: str, timeout: float = BENCH_TIMEOUT_S) -> Dict[str, Any]:
    """The PyTorch run as `verify --benchmark` stores it: its result, or {"skip": reason}."""
    if not raw.ok(doc["commands"].get("nvidia_smi_q")) or not _gpu_count(doc):
        return {"skip": "no_gpu"}
    if not _torch_sees_cuda(doc):
        return {"skip": "no_torch"}
    res = raw.run_command([python, "-c", raw.BENCH_SCRIPT], timeout)
    if res.get("timed_out"):
        return {"skip": f"timeout {timeout:g} s"}
    if res.get("missing") or res.get("error"):
        return {"skip": res.get("error") or (python + " not found")}
    lines = [ln for ln in (res.get("stdout") or "").strip().splitlines() if ln.startswith("{")]
    if res.get("returncode") != 0 or not lines:
        return {"skip": ((res.get("stderr") or "").strip().splitlines() or ["no output"])[-1][:200]}
    try:
        data = json.loads(lines[-1])
    except ValueError:
        return {"skip": "unreadable benchmark output"}
    if not isinstance(data, dict):
        return {"skip": "unreadable benchmark output"}
    if "skip" in data:
        return {"skip": str(data["skip"])}
    return data


def write_atomic(path: str, data: bytes) -> None:
    """The file is either the old one or the complete new one, never half written."""
    directory = os.path.dirname(os.path.abspath(path)) or "."
    fd, tmp = tempfile.mkstemp(prefix=".gpu-procure-probe-", dir=directory)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="gpu-procure-probe",
        description="Collect this GPU server's raw facts as JSON for `gpu-procure judge` (nothing is judged "
                    "here; nothing needs installing; root reads more but is not needed).")
    version = f"{PROBE_CLI_VERSION} (collector {raw.PROBE_VERSION}, raw schema {raw.RAW_SCHEMA_VERSION})"
    p.add_argument("--version", action="version", version="gpu-procure-probe " + version)
    p.add_argument("-o", "--output", metavar="FILE", default=None,
                   help="write the JSON to FILE (default: standard output)")
    p.add_argument("--load", choices=raw.LOAD_LEVELS, default=None,
                   help="also run the acceptance load where installed: dcgmi diag, nvbandwidth, all_reduce_perf "
                        "and gpu_burn while the GPUs are sampled (as `gpu-procure verify --load`)")
    p.add_argument("--duration", type=float, default=None, metavar="S",
                   help="seconds of the burn (default: 300 quick, 1800 full)")
    p.add_argument("--benchmark", action="store_true",
                   help="short PyTorch matmul/bandwidth run per GPU when PyTorch sees CUDA (as verify --benchmark)")
    p.add_argument("--timeout", type=float, default=30.0, metavar="S",
                   help="kill a program after S seconds (default 30; load steps have their own limits)")
    p.add_argument("--deadline", type=float, default=None, metavar="S",
                   help="seconds the whole run may take; no program runs past it (default: 600, with --load quick "
                        "900, full 7200, moved by --duration)")
    p.add_argument("--nvidia-smi", default=None, metavar="PATH", dest="nvidia_smi",
                   help="nvidia-smi to run instead of the one on PATH")
    p.add_argument("--image", default=None, metavar="REF",
                   help="container image the plan uses (is it pulled here?)")
    p.add_argument("--python", default=None, metavar="PATH",
                   help="interpreter whose PyTorch/TensorFlow to check (default: this one)")
    p.add_argument("--root", default="/", help=argparse.SUPPRESS)
    p.add_argument("-q", "--quiet", action="store_true", help="no progress on standard error")
    return p


def collect(args: argparse.Namespace, progress: Any = None) -> Dict[str, Any]:
    timeout = args.timeout if args.timeout and args.timeout > 0 else 30.0
    python = args.python or sys.executable or "python3"
    started = time.monotonic()
    doc = raw.collect(root=args.root, timeout=timeout, nvidia_smi=args.nvidia_smi, python=python,
                      image=args.image, progress=progress, load=args.load, duration=args.duration,
                      deadline=args.deadline)
    doc["timeout_s"] = timeout
    if args.benchmark:
        if progress is not None:
            progress("bench")
        doc["benchmark"] = benchmark(doc, python)
    doc["probe"] = {"cli_version": PROBE_CLI_VERSION, "duration_s": round(time.monotonic() - started, 3),
                    "euid": os.geteuid() if hasattr(os, "geteuid") else None}
    return doc


def main(argv: Optional[Sequence[str]] = None) -> int:
    """0: the JSON was written (whatever it says); 2: bad usage or it could not be written."""
    args = build_parser().parse_args(argv)

    def progress(text: str) -> None:
        if not args.quiet:
            sys.stderr.write(f"gpu-procure-probe: {text}\n")
            sys.stderr.flush()

    doc = collect(args, progress)
    # ASCII (escaped) JSON: a Python 3.6 under LANG=C cannot print anything else to its stdout
    data = (json.dumps(doc, ensure_ascii=True, indent=1, sort_keys=True) + "\n").encode("ascii")
    if args.output in (None, "-"):
        out = getattr(sys.stdout, "buffer", None)
        if out is None:
            sys.stdout.write(data.decode("ascii"))
        else:
            out.write(data)
        sys.stdout.flush()
        return 0
    try:
        write_atomic(args.output, data)
    except OSError as exc:
        sys.stderr.write(f"gpu-procure-probe: cannot write {args.output}: {exc.strerror or exc}\n")
        return 2
    progress("wrote " + args.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())

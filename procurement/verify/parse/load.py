"""The acceptance load run, judged: DCGM diagnostics, nvbandwidth, NCCL all_reduce_perf and a concurrent
gpu_burn with power/temperature/clock sampling (collected by procurement.verify.collect.raw.run_load)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

# How to get each tool when it is missing (the check is then unknown, with this hint).
INSTALL = {
    "dcgmi_diag": "DCGM: install the datacenter-gpu-manager package from NVIDIA's CUDA repository and start "
    "nvidia-dcgm (https://docs.nvidia.com/datacenter/dcgm/latest/user-guide/getting-started.html)",
    "nvbandwidth": "build https://github.com/NVIDIA/nvbandwidth (cmake; needs the CUDA toolkit) and put "
    "nvbandwidth on PATH",
    "all_reduce_perf": "build https://github.com/NVIDIA/nccl-tests (make; needs CUDA and NCCL) and put "
    "build/all_reduce_perf on PATH",
    "gpu_burn": "build https://github.com/wilicc/gpu-burn (make) and put gpu_burn on PATH",
    "p2p_bandwidth": "build p2pBandwidthLatencyTest from https://github.com/NVIDIA/cuda-samples "
    "(Samples/5_Domain_Specific/p2pBandwidthLatencyTest; needs the CUDA toolkit) and put it on PATH",
    "ipmitool": "install the ipmitool package (apt install ipmitool / dnf install ipmitool), load the ipmi_si "
    "and ipmi_devintf kernel modules so /dev/ipmi0 exists, and run as root",
}


@dataclass
class AfterLoad:
    """The health counters read again after the load (raw `load.after`), parsed by the judge."""

    smi: Any = None
    """SmiReport of `nvidia-smi -q -x` after the load (None: it gave none, see ``smi_error``)."""
    smi_error: str | None = None
    smi_deadline: bool = False
    """nvidia-smi was not run or was stopped because the run's deadline had come."""
    kernel_new: list[str] | None = None
    """Kernel-log lines that appeared during the run (None: the log could not be read after the load)."""
    kernel_error: str | None = None
    aer: dict[str, dict[str, int | None]] = field(default_factory=dict)
    nvlink_errors: str | None = None
    """`nvidia-smi nvlink -e` output after the load (None: not read)."""


@dataclass
class LoadFacts:
    """What a load run produced (procurement.verify.parse.load fills it from the raw facts)."""

    level: str
    tools: dict[str, Any] = field(default_factory=dict)
    after: AfterLoad | None = None
    """The re-read after the load (None: the raw facts have none, e.g. an older collector's)."""


# ---------------------------------------------------------------- parsers (real outputs in tests/fixtures/acceptance)

# Launchers that mark every line with its rank: Slurm's `srun -l` ('0: ', right-aligned as ' 3: ' among ten or
# more tasks) and Open MPI's `mpirun --tag-output` ('[1,0]<stdout>:'), also with a job id and rank
# ('[1,0]<stderr>:', the line right after the colon). Stripped before any parsing, so a tagged table reads as an
# untagged one.
_LAUNCHER_PREFIX = re.compile(r"^(?:\s*\d+: |\[\d+,\d+\]<(?:stdout|stderr|stddiag)>:)")


def strip_launcher_prefixes(text: str) -> str:
    """``text`` without the rank tag srun -l / mpirun --tag-output put before each line."""
    return "\n".join(_LAUNCHER_PREFIX.sub("", line, count=1) for line in text.splitlines())


# dcgmi's exit statuses are DCGM's return codes as an unsigned byte (dcgm_structs.h: DCGM_ST_NVVS_ERROR = -30,
# DCGM_ST_DIAG_ALREADY_RUNNING = -39, DCGM_ST_DIAG_BAD_LAUNCH = -41; DCGM's own test suite expects
# c_uint8(DCGM_ST_NVVS_ERROR) = 226 from a failing `dcgmi diag`).
DCGM_EXIT = {226: "DCGM_ST_NVVS_ERROR: the diagnostic reported an error",
             217: "DCGM_ST_DIAG_ALREADY_RUNNING: another diagnostic is running",
             215: "DCGM_ST_DIAG_BAD_LAUNCH: the diagnostic could not be launched"}

_SIGNALS = {4: "SIGILL", 6: "SIGABRT", 7: "SIGBUS", 8: "SIGFPE", 9: "SIGKILL", 11: "SIGSEGV", 15: "SIGTERM"}


def exit_text(rc: object) -> str | None:
    """How a program ended when that was not success: 'exit 226', 'killed by SIGSEGV' (None: exit 0)."""
    if not isinstance(rc, int) or rc == 0:
        return None
    if rc < 0:  # killed by a signal (Popen's convention)
        return f"killed by {_SIGNALS.get(-rc, f'signal {-rc}')}"
    if rc > 128 and rc - 128 in _SIGNALS:  # a shell or wrapper reports a signal as 128 + N
        return f"exit {rc} ({_SIGNALS[rc - 128]})"
    return f"exit {rc}"


_ERROR_LINE = re.compile(r"error|fail|abort|assert|invalid|cannot|couldn't|unable|not |died|fault|denied|"
                         r"no such|terminate|core dumped|mismatch", re.IGNORECASE)


def error_line(text: str) -> str:
    """The first line of an output that reads like an error (else its first non-empty line), for a message."""
    lines = [ln.strip() for ln in strip_launcher_prefixes(text).splitlines() if ln.strip()]
    hit = next((ln for ln in lines if _ERROR_LINE.search(ln) and not ln.startswith("#")), None)
    return (hit or (lines[0] if lines else "no output"))[:200]


# Data checks of the bandwidth tools: nvbandwidth compares every copied buffer with its pattern ("Invalid value
# when checking the pattern at …", then "ASSERT in expression h_errorFlag == 0 …"; NVIDIA/nvbandwidth issues 19
# and 34), the CUDA samples' tests end "Test FAILED"/"Result = FAIL", nccl-tests counts "#wrong".
_CORRUPTION = re.compile(r"Invalid value when checking the pattern|ASSERT in expression|data mismatch|"
                         r"verification failed|Result = FAIL|Test FAILED", re.IGNORECASE)


def corruption_line(text: str) -> str | None:
    """The first line that reports wrong data from a transfer or computation (None: none)."""
    for line in strip_launcher_prefixes(text).splitlines():
        if _CORRUPTION.search(line):
            return line.strip()[:200]
    return None



def parse_dcgm_diag(text: str) -> list[tuple[str, str]]:
    """(test, result) rows of `dcgmi diag` output: the table ('GPU Memory', 'Fail - All') or, with `-j`,
    the JSON ('DCGM GPU Diagnostic' > test_categories > tests > results, one status per GPU)."""
    start = text.find("{")
    if start >= 0:
        try:
            data = json.loads(text[start:])
        except ValueError:
            data = None
        if isinstance(data, dict):
            return _dcgm_json(data)
    rows = []
    for line in text.splitlines():
        m = re.match(r"^\|\s*([^|]+?)\s*\|\s*((?:Pass|Fail|Skip|Warn)\b[^|]*?)\s*\|\s*$", line)
        if m:
            rows.append((m.group(1), m.group(2)))
    return rows


# The sections of `dcgmi diag`'s table a run of each level prints (DCGM's dcgmi/Diag.cpp prints a section per
# category that ran, then DIAG_FOOTER; nvvs/src/NvidiaValidationSuite.cpp FillTestVectors: level 1 runs the software
# (Deployment) tests only, level 2 adds the pcie (Integration) and memory (Hardware) plugins, level 3 the
# diagnostic (Hardware) and the memory_bandwidth / targeted_stress / targeted_power (Stress) plugins, level 4 more).
DCGM_LEVEL_SECTIONS: dict[int, tuple[str, ...]] = {
    1: ("Deployment",),
    2: ("Deployment", "Integration", "Hardware"),
    3: ("Deployment", "Integration", "Hardware", "Stress"),
    4: ("Deployment", "Integration", "Hardware", "Stress"),
}
_DCGM_LEVEL_NAMES = {"quick": 1, "short": 1, "medium": 2, "long": 3, "xlong": 4}
_DCGM_SECTION = re.compile(r"^[|+]-{5}\s+(\w+)\s+-+\+-+[|+]\s*$")
_DCGM_HEADER = re.compile(r"^\+=+\+=+\+\s*$")
_DCGM_FOOTER = re.compile(r"^\+-+\+-+\+\s*$")


def dcgm_level(argv: object) -> int | None:
    """The suite level of a `dcgmi diag -r N` / `--run long` command line (None: not a level, e.g. named tests)."""
    args = [str(a) for a in argv] if isinstance(argv, list | tuple) else []
    for i, arg in enumerate(args):
        value = args[i + 1] if arg in ("-r", "--run") and i + 1 < len(args) else (
            arg.split("=", 1)[1] if arg.startswith("--run=") else None)
        if value is not None:
            value = value.strip().lower()
            return int(value) if value in ("1", "2", "3", "4") else _DCGM_LEVEL_NAMES.get(value)
    return None


@dataclass
class DcgmGaps:
    """What a `dcgmi diag` output lacks of the complete result of its level (all false/empty: complete)."""

    no_footer: bool = False
    """The table's closing border (DIAG_FOOTER) never came: the output ended inside the table."""
    missing_sections: list[str] = field(default_factory=list)
    """Sections the level runs that the output has no heading for (DCGM's own names: 'Integration', …)."""
    json_cut: bool = False
    """The JSON form (-j) does not parse to its end."""

    def __bool__(self) -> bool:
        return self.no_footer or bool(self.missing_sections) or self.json_cut


def dcgm_diag_gaps(text: str, level: int | None) -> DcgmGaps:
    """What of its own complete form a `dcgmi diag` output lacks: the table's closing border and the sections of
    the level's tests, or (with -j) a JSON document that parses. ``level`` None: only the Deployment section."""
    want = DCGM_LEVEL_SECTIONS.get(level or 1, DCGM_LEVEL_SECTIONS[1])
    lines = text.splitlines()
    header = next((i for i, ln in enumerate(lines) if _DCGM_HEADER.match(ln.strip())), None)
    start = text.find("{")
    if header is None and start >= 0:
        try:
            data = json.loads(text[start:])
        except ValueError:
            return DcgmGaps(json_cut=True)
        root = data.get("DCGM GPU Diagnostic") or data.get("DCGM Diagnostic") or data if isinstance(data, dict) \
            else None
        cats = [str(c.get("category")) for c in (root.get("test_categories") or []) if isinstance(c, dict)] \
            if isinstance(root, dict) else []
        return DcgmGaps(missing_sections=[s for s in want if s not in cats] if cats else [])
    if header is None:
        return DcgmGaps(no_footer=True, missing_sections=list(want))
    body = [ln.strip() for ln in lines[header + 1:]]
    seen = [m.group(1) for m in (_DCGM_SECTION.match(ln) for ln in body) if m]
    return DcgmGaps(no_footer=not any(_DCGM_FOOTER.match(ln) for ln in body),
                    missing_sections=[s for s in want if s not in seen])


def _dcgm_json(data: dict[str, Any]) -> list[tuple[str, str]]:
    root = data.get("DCGM GPU Diagnostic") or data.get("DCGM Diagnostic") or data
    tests: list[Any] = []
    if isinstance(root, dict):
        for cat in root.get("test_categories") or []:
            if isinstance(cat, dict):
                tests += [t for t in cat.get("tests") or [] if isinstance(t, dict)]
        tests += [t for t in root.get("tests") or [] if isinstance(t, dict)]  # DCGM 4 hoists them
    rows = []
    for test in tests:
        statuses = [str(r.get("status", "")).strip().upper() for r in test.get("results") or [] if isinstance(r, dict)]
        if not statuses:
            continue
        failed = [st for st in statuses if st.startswith("FAIL")]
        word = "Fail" if failed else ("Warn" if "WARN" in statuses else
                                      ("Pass" if any(st == "PASS" for st in statuses) else "Skip"))
        rows.append((str(test.get("name") or "?"), f"{word} - {len(failed) or len(statuses)}/{len(statuses)}"))
    return rows


@dataclass
class NcclResult:
    avg_busbw_gbs: float | None
    peak_busbw_gbs: float | None
    wrong: int
    """Sum of the #wrong columns (data corruption)."""
    failure: str | None
    """A 'Test ... failure' line, when the test aborted."""
    out_of_bounds: int | None = None
    """nccl-tests' closing '# Out of bounds values : N OK|FAILED' (None: not printed)."""
    started: bool = False
    """nccl-tests printed its header (the test itself ran, whatever the launcher did)."""
    sizes: int = 0
    """How many message sizes (data rows) it measured."""

    @property
    def summarised(self) -> bool:
        """nccl-tests printed its closing summary, '# Out of bounds values : N OK' and '# Avg bus bandwidth : X'
        (src/common.cu prints both once every size has run): without it the output ended early."""
        return self.out_of_bounds is not None and self.avg_busbw_gbs is not None


def parse_all_reduce(text: str) -> NcclResult:
    text = strip_launcher_prefixes(text)
    peak: float | None = None
    wrong = 0
    sizes = 0
    for line in text.splitlines():
        cells = line.split()
        if len(cells) >= 12 and cells[0].isdigit() and cells[2] in ("float", "half", "bfloat16", "double",
                                                                      "int8", "uint8", "int32"):
            # size count type redop root time algbw busbw #wrong time algbw busbw #wrong (new format);
            # the old format has 'error' instead of '#wrong' and no root column.
            nums = [c for c in cells[3:]]
            try:
                busbws = [float(nums[i]) for i in (_col(cells, "busbw", 0), _col(cells, "busbw", 1))]
            except (ValueError, IndexError):
                continue
            peak = max([peak or 0.0, *busbws])
            sizes += 1
            if len(cells) == 13:
                for i in (8, 12):
                    if cells[i].isdigit():
                        wrong += int(cells[i])
    avg = re.search(r"Avg bus bandwidth\s*:\s*([\d.]+)", text)
    fail = re.search(r"^.*(?:Test (?:CUDA |NCCL )?failure|Test failure).*$", text, re.MULTILINE)
    oob = re.search(r"Out of bounds values\s*:\s*(\d+)", text)
    started = bool(re.search(r"^#\s*(?:nThread|Using devices|\s*Rank\s+\d+)", text, re.MULTILINE))
    return NcclResult(float(avg.group(1)) if avg else None, peak, wrong, fail.group(0).strip() if fail else None,
                      int(oob.group(1)) if oob else None, started, sizes)


def _col(cells: list[str], name: str, which: int) -> int:
    """Index (within cells[3:]) of the out-of-place (0) or in-place (1) busbw value of a data row."""
    # New format (13 cells): size count type redop root time algbw busbw #wrong time algbw busbw #wrong
    # Old format (12 cells): size count type redop time algbw busbw error time algbw busbw error
    del name
    if len(cells) == 13:
        return (4, 8)[which]
    return (3, 7)[which]


def parse_nvbandwidth(text: str) -> list[float]:
    """The GPU-to-GPU bandwidths (GB/s) of an nvbandwidth matrix (N/A cells left out)."""
    values: list[float] = []
    in_matrix = False
    columns = 0
    for line in text.splitlines():
        if "bandwidth (GB/s)" in line:
            in_matrix = True
            continue
        if in_matrix:
            cells = line.split()
            if not cells:
                if values:
                    break
                continue
            if not columns:  # the header: column numbers
                columns = len(cells)
                continue
            if cells[0].isdigit() and len(cells) == columns + 1:
                for c in cells[1:]:
                    try:
                        values.append(float(c))
                    except ValueError:
                        pass
    return values


@dataclass
class NvbwMatrix:
    """The shape of nvbandwidth's GPU(row) -> GPU(column) matrix: how far the output got."""

    columns: int
    """GPUs in the matrix's header line (its columns)."""
    rows: int
    """Rows printed whole (the row's number and one cell per column)."""
    pairs: int
    """GPU pairs (off the diagonal) with a measured value."""
    summed: bool
    """The 'SUM <test> <GB/s>' line (or '&&&& PERF …' with a performance formatter) nvbandwidth prints after
    every matrix (inline_common.h, operator<< of PeerValueMatrix) came."""


def nvbandwidth_matrix(text: str) -> NvbwMatrix | None:
    """How complete the first bandwidth matrix of an nvbandwidth output is (None: no matrix began)."""
    lines = text.splitlines()
    at = next((i for i, ln in enumerate(lines) if "bandwidth (GB/s)" in ln), None)
    if at is None:
        return None
    columns, rows, pairs, end = 0, 0, 0, len(lines)
    for i in range(at + 1, len(lines)):
        cells = lines[i].split()
        if not cells:
            if rows:
                end = i
                break
            continue
        if not columns:
            columns = len(cells)
            continue
        if cells[0].isdigit() and len(cells) == columns + 1:
            rows += 1
            row = int(cells[0])
            pairs += sum(1 for col, cell in enumerate(cells[1:]) if col != row and _is_number(cell))
        else:
            end = i
            break
    summed = any(re.match(r"^(?:SUM|&&&& PERF)\s+\S+\s+[\d.]+", ln.strip()) for ln in lines[end:])
    return NvbwMatrix(columns, rows, pairs, summed)


def _is_number(cell: str) -> bool:
    try:
        float(cell)
    except ValueError:
        return False
    return True


def parse_gpu_burn(text: str) -> dict[int, str]:
    """GPU index -> 'OK' / 'FAULTY' from gpu_burn's final 'Tested N GPUs' summary."""
    out = {}
    tail = text[text.rfind("Tested "):] if "Tested " in text else ""
    for m in re.finditer(r"GPU (\d+): (OK|FAULTY)", tail):
        out[int(m.group(1))] = m.group(2)
    return out


@dataclass
class BurnFaults:
    died: list[int]
    """GPUs whose worker died: '(DIED!)' after their error count, or 'proc'd: -1' in the last progress line."""
    init_errors: list[str]
    """"Couldn't init a GPU test: …" / "Couldn't init CUDA: …" lines: a worker that never started (gpu_burn
    still prints OK for its GPU: wilicc/gpu-burn issues 7 and 14)."""
    aborted: bool
    """'No clients are alive!  Aborting': every worker died and gpu_burn gave up (exit 123)."""


def gpu_burn_faults(text: str) -> BurnFaults:
    """The deaths gpu_burn reports in its progress lines and on standard error."""
    died: list[int] = []
    progress = [ln for ln in re.split(r"[\r\n]", text) if "proc'd:" in ln]
    if progress:
        last = progress[-1]
        procd = re.findall(r"(-?\d+) \(\d+ Gflop/s\)", last.split("errors:")[0])
        died += [i for i, n in enumerate(procd) if n == "-1"]
        errs = last.split("errors:", 1)[1].split("temps:")[0] if "errors:" in last else ""
        for i, m in enumerate(re.finditer(r"(-?\d+)\s*(\((?:DIED|WARNING)!\))?", errs)):
            if m.group(2) == "(DIED!)" and i not in died:
                died.append(i)
    inits = [ln.strip()[:200] for ln in text.splitlines() if re.search(r"Couldn't init (?:a GPU test|CUDA)", ln)]
    return BurnFaults(sorted(died), inits, "No clients are alive" in text)


@dataclass
class Sample:
    index: int
    power_w: float | None
    temp_c: float | None
    sm_mhz: float | None
    reasons: int | None
    """Bit mask of clocks_throttle_reasons.active."""


# nvmlClocksThrottleReasons bits (nvml.h): HW slowdown 0x8, HW thermal 0x40, HW power brake 0x80,
# SW thermal 0x20, SW power cap 0x4.
HW_SLOWDOWN_BITS = 0x8 | 0x40 | 0x80
SW_THERMAL_BIT = 0x20


def parse_samples(samples: list[Any]) -> list[Sample]:
    out = []
    for s in samples:
        if not isinstance(s, dict):
            continue
        for line in str(s.get("stdout") or "").splitlines():
            cells = [c.strip() for c in line.split(",")]
            if len(cells) < 5 or not cells[0].isdigit():
                continue
            if len(cells) >= 7:  # the standalone probe's query: index, timestamp, power, temp, clock, reasons, util
                cells = [cells[0], *cells[2:6]]
            out.append(Sample(int(cells[0]), _f(cells[1]), _f(cells[2]), _f(cells[3]), _hex(cells[4])))
    return out


def _f(text: str) -> float | None:
    """'69.85', '69.85 W', '345 MHz' -> the number; '[N/A]' -> None."""
    m = re.match(r"\s*(-?\d+(?:\.\d+)?)", text)
    return float(m.group(1)) if m else None


def _hex(text: str) -> int | None:
    try:
        return int(text, 16)
    except ValueError:
        return None


@dataclass
class BmcPower:
    watts: float | None
    """The instantaneous reading; None when the BMC gave none or said its power reading is deactivated."""
    state: str | None


def parse_dcmi_power(text: str) -> BmcPower:
    """`ipmitool dcmi power reading`: 'Instantaneous power reading:  215 Watts' and 'Power reading state is:
    activated'. A deactivated reading is not a measurement (OpenBMC answers 0 W when it has no sensor)."""
    m = re.search(r"Instantaneous power reading\s*:\s*(\d+(?:\.\d+)?)\s*Watts", text)
    st = re.search(r"Power reading state is\s*:\s*(\w+)", text)
    state = st.group(1).lower() if st else None
    watts = float(m.group(1)) if m and state != "deactivated" else None
    return BmcPower(watts, state)


@dataclass
class PsuSensor:
    name: str
    status: str
    reading: str


PSU_FAULTS = ("failure detected", "ac lost", "input lost", "predictive failure", "redundancy lost",
              "non-redundant", "redundancy degraded", "configuration error", "out-of-range")
"""Sensor-specific offsets of the IPMI Power Supply (0x08) and redundancy sensors, as ipmitool prints them."""


def parse_psu_sensors(text: str) -> list[PsuSensor]:
    """`ipmitool sdr type "Power Supply"` lines ('Power Supply 1 | 06h | ok | 10.1 | Presence detected,
    Failure detected'), or the same with `-c` (comma separated)."""
    out = []
    for line in text.splitlines():
        cells = [x.strip() for x in (line.split("|") if "|" in line else line.split(","))]
        if len(cells) >= 5 and re.match(r"^[0-9A-Fa-f]+h$", cells[1]):
            out.append(PsuSensor(cells[0], cells[2], ", ".join(x for x in cells[4:] if x)))
    return out


def _out(res: dict[str, Any]) -> str:
    """A tool's stdout and stderr, as one text."""
    return f"{res.get('stdout') or ''}\n{res.get('stderr') or ''}"


def load_facts(doc: dict[str, Any]) -> LoadFacts | None:
    """The load run of a raw-facts document: `load.tools` (verify --load) or `load.commands` (the
    standalone probe); samples as a list of query records or one `nvidia-smi --query-gpu -l N` record."""
    load = doc.get("load")
    if not isinstance(load, dict):
        return None
    tools = load.get("tools") if isinstance(load.get("tools"), dict) else load.get("commands")
    if not isinstance(tools, dict):
        return None
    facts = LoadFacts(level=str(load.get("level") or "?"), tools=dict(tools))
    if "seconds" not in (facts.tools.get("gpu_burn") or {}) and isinstance(facts.tools.get("gpu_burn"), dict):
        facts.tools["gpu_burn"] = {**facts.tools["gpu_burn"], "seconds": load.get("burn_seconds", "?")}
    samples = load.get("samples")
    facts.tools["_samples"] = [samples] if isinstance(samples, dict) else (samples or [])
    bmc = load.get("bmc_samples")
    facts.tools["_bmc"] = [b for b in bmc if isinstance(b, dict)] if isinstance(bmc, list) else None
    if isinstance(load.get("after"), dict):
        facts.after = _after_load(doc, load["after"])
    return facts


def _after_load(doc: dict[str, Any], after: dict[str, Any]) -> AfterLoad:
    """The re-read after the load, parsed: its nvidia-smi report, the kernel-log lines the run added, the AER
    counters and the NVLink error counters."""
    from procurement.verify.parse.aer import parse_aer
    from procurement.verify.parse.kernel_log import new_lines
    from procurement.verify.parse.smi_xml import SmiParseError, parse_smi_xml

    out = AfterLoad()
    found = after.get("nvidia_smi_q")
    q: dict[str, Any] = found if isinstance(found, dict) else {}
    text = str(q.get("stdout") or "")
    try:
        out.smi = parse_smi_xml(text) if text.strip() else None
    except SmiParseError as exc:
        out.smi_error = f"nvidia-smi -q -x: {exc}"
    if q.get("timed_out") and q.get("deadline"):
        out.smi, out.smi_deadline = None, True
    elif q.get("missing"):
        out.smi_error = "nvidia-smi -q -x: not found"
    elif q.get("timed_out"):
        out.smi_error = "nvidia-smi -q -x did not answer in time (a GPU or the driver may be hung)"
    elif exit_text(q.get("returncode")) is not None:
        out.smi_error = f"nvidia-smi -q -x: {exit_text(q.get('returncode'))}: {error_line(_out(q))}"
    elif out.smi is None and out.smi_error is None:
        out.smi_error = "nvidia-smi -q -x printed nothing"
    log, before = after.get("kernel_log"), doc.get("kernel_log")
    read_before = isinstance(before, dict) and before.get("source") and isinstance(before.get("lines"), list)
    if isinstance(log, dict) and log.get("source") and isinstance(log.get("lines"), list) and not read_before:
        # nothing to compare with: what the log holds may be older than the run
        out.kernel_error = "not read before the load, so what is new cannot be told"
    elif isinstance(log, dict) and log.get("source") and isinstance(log.get("lines"), list):
        old = [str(x) for x in before.get("lines") or []] if isinstance(before, dict) else []
        out.kernel_new = new_lines(old, [str(x) for x in log["lines"]])
    else:
        out.kernel_error = str(log.get("error") or "not read") if isinstance(log, dict) else "not read"
    aer = after.get("pci_aer")
    for bus, entry in (aer.items() if isinstance(aer, dict) else ()):
        if isinstance(entry, dict):
            out.aer[str(bus)] = {k: parse_aer(entry.get(f"aer_dev_{k}") if isinstance(entry.get(f"aer_dev_{k}"), str)
                                              else None) for k in ("correctable", "nonfatal", "fatal")}
    nv = after.get("nvidia_smi_nvlink_errors")
    if isinstance(nv, dict) and nv.get("returncode") == 0:
        out.nvlink_errors = str(nv.get("stdout") or "")
    return out


def nccl_hosts(text: str) -> list[str]:
    """The distinct hosts of all_reduce_perf's '#  Rank  8 Group  0 Pid 2315 on HOST device  0' lines."""
    text = strip_launcher_prefixes(text)
    hosts: list[str] = []
    for m in re.finditer(r"^#\s*Rank\s+\d+\s+Group\s+\d+\s+Pid\s+\d+\s+on\s+(\S+)\s+device", text, re.MULTILINE):
        if m.group(1) not in hosts:
            hosts.append(m.group(1))
    return hosts




def parse_torch_burn(text: str) -> list[dict[str, Any]] | None:
    """The per-GPU records the PyTorch burn (raw.TORCH_BURN_SCRIPT) prints as its last JSON line."""
    for line in reversed(text.strip().splitlines()):
        if line.startswith("{"):
            try:
                data = json.loads(line)
            except ValueError:
                return None
            gpus = data.get("gpus") if isinstance(data, dict) else None
            return [g for g in gpus if isinstance(g, dict)] if isinstance(gpus, list) else None
    return None




def parse_p2p(text: str) -> tuple[list[tuple[int, int]], list[float]]:
    """CUDA samples' p2pBandwidthLatencyTest: (the pairs that cannot access each other, "Device=0 CANNOT Access
    Peer Device=1"; the off-diagonal GB/s of its "Unidirectional P2P=Enabled Bandwidth" matrix)."""
    text = strip_launcher_prefixes(text)
    cannot = [(int(a), int(b)) for a, b in re.findall(r"Device=(\d+) CANNOT Access Peer Device=(\d+)", text)]
    values: list[float] = []
    at = re.search(r"^Unidirectional P2P=Enabled Bandwidth.*Matrix \(GB/s\)\s*$", text, re.MULTILINE)
    if at:
        for line in text[at.end():].splitlines()[2:]:
            cells = line.split()
            if not cells or not cells[0].isdigit():
                break
            row = int(cells[0])
            for col, cell in enumerate(cells[1:]):
                try:
                    if col != row:
                        values.append(float(cell))
                except ValueError:
                    pass
    return cannot, values


# The matrices p2pBandwidthLatencyTest prints after its connectivity matrix, in order, with how many N-row tables
# each has (the latency ones a GPU and a CPU table), then its closing NOTE line (NVIDIA/cuda-samples,
# Samples/5_Domain_Specific/p2pBandwidthLatencyTest: the headings say "P2P Reads" with --p2p_read).
P2P_MATRICES: tuple[tuple[str, int], ...] = (
    ("Unidirectional P2P=Disabled Bandwidth", 1),
    ("Unidirectional P2P=Enabled Bandwidth", 1),
    ("Bidirectional P2P=Disabled Bandwidth", 1),
    ("Bidirectional P2P=Enabled Bandwidth", 1),
    ("P2P=Disabled Latency", 2),
    ("P2P=Enabled Latency", 2),
)
P2P_END = "NOTE: The CUDA Samples are not meant for performance measurements"


@dataclass
class P2pShape:
    """How far a p2pBandwidthLatencyTest output got."""

    devices: int
    """'Device: N, …' lines (the GPUs the test saw)."""
    rows: dict[str, int]
    """Matrix heading (P2P_MATRICES) -> its rows printed whole (one cell per device)."""
    ended: bool
    """The closing NOTE line came."""


def p2p_shape(text: str) -> P2pShape:
    text = strip_launcher_prefixes(text)
    devices = len(re.findall(r"^Device: \d+,", text, re.MULTILINE))
    rows: dict[str, int] = {}
    current: str | None = None
    for line in text.splitlines():
        heading = next((name for name, _ in P2P_MATRICES if line.startswith(name)), None)
        if heading is not None:
            current = heading
            rows.setdefault(current, 0)
            continue
        if line.startswith("P2P Connectivity Matrix") or line.startswith(P2P_END):
            current = None
            continue
        cells = line.split()
        if current and cells and cells[0].isdigit() and len(cells) == devices + 1 and all(
                _is_number(c) for c in cells[1:]):
            rows[current] += 1
    return P2pShape(devices, rows, any(line.startswith(P2P_END) for line in text.splitlines()))

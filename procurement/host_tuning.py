"""Host tuning after delivery: the plan's choices over the policy defaults, the script that applies them, the check.

Each choice has a default with its source and what it costs (DEFAULTS); the plan's `operations.host` overrides
it. ECC off (`nvidia-smi -e 0`) and fixed application clocks (`nvidia-smi -ac`) are never defaults: they are
applied only when the plan asks, with the warning. The check reads the raw facts' files (the probe's `files`
mapping, path -> text or None); a file it needs that is missing makes that check `unknown`, never `pass`.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Mapping
from dataclasses import dataclass, field

from procurement.coded import clauses, coded, render_value
from procurement.messages import Lang, register, t
from procurement.plan import Plan


@dataclass(frozen=True)
class TuningDefault:
    value: object
    source: str
    trade_off: str


DEFAULTS: dict[str, TuningDefault] = {
    "cpu_governor": TuningDefault(
        "performance",
        "Linux kernel docs, CPU Performance Scaling, 'performance' governor "
        "(https://docs.kernel.org/admin-guide/pm/cpufreq.html): the highest frequency within the policy limits",
        "more idle power: the cores no longer slow down between data-loading bursts"),
    "swap": TuningDefault(
        "off",
        "Kubernetes, Installing kubeadm, 'Swap configuration' (https://kubernetes.io/docs/setup/production-"
        "environment/tools/kubeadm/install-kubeadm/): the kubelet fails to start by default when swap is on",
        "no cushion when memory runs out: the OOM killer ends a job instead of the host slowing down"),
    "hugepages_2m": TuningDefault(
        "keep",
        "Linux kernel docs, HugeTLB Pages (https://docs.kernel.org/admin-guide/mm/hugetlbpage.html): "
        "vm.nr_hugepages reserves persistent huge pages, taken from all other memory",
        "reserved pages serve only hugetlbfs users (DPDK, some databases), so the reservation is left as it is "
        "unless the plan says how many"),
    "transparent_hugepages": TuningDefault(
        "madvise",
        "Linux kernel docs, Transparent Hugepage Support (https://docs.kernel.org/admin-guide/mm/transhuge.html): "
        "'madvise' gives huge pages to the regions that ask for them",
        "'always' can add latency and memory bloat to programs that did not ask; 'never' denies them to those that "
        "do"),
    "data_mount": TuningDefault(
        "noatime",
        "mount(8), FILESYSTEM-INDEPENDENT MOUNT OPTIONS (https://man7.org/linux/man-pages/man8/mount.8.html): "
        "noatime does not update access times and implies nodiratime",
        "programs that read access times (some backup and clean-up tools) no longer see them"),
    "data_fs": TuningDefault(
        "any",
        "the seed guide §8.1 (XFS or ext4 for data disks); xfs(5) and ext4(5)",
        "'any' accepts XFS or ext4; another filesystem is reported, not reformatted"),
    "fd_limit": TuningDefault(
        1_048_576,
        "limits.conf(5) (https://man7.org/linux/man-pages/man5/limits.conf.5.html) and systemd-system.conf(5), "
        "DefaultLimitNOFILE; the kernel's fs.nr_open ceiling is 1048576 by default (proc_sys_fs(5))",
        "a descriptor leak surfaces later; data loaders with many workers and many shards no longer hit the "
        "1024 soft limit"),
}

ECC_WARNING = (
    "ECC off (nvidia-smi -e 0) frees the ECC share of memory and a little bandwidth, but memory errors are no "
    "longer detected or corrected: a flipped bit silently corrupts a result. It takes effect after a reboot."
)
CLOCKS_WARNING = (
    "Fixed application clocks (nvidia-smi -ac) hold the GPU at the given clocks: above the default they may exceed "
    "the power or thermal envelope the plan was sized for; nvidia-smi -rac restores the default."
)

register({
    "tuning.governor.pass": "CPU governor '{found}' on every CPU read ({n})",
    "tuning.governor.fail": "CPU governor: expected '{expected}', found {found}",
    "tuning.governor.unknown": "CPU governor: no cpufreq scaling_governor was read (a VM, or no cpufreq driver)",
    "tuning.swap.pass": "Swap is off (SwapTotal 0 kB)",
    "tuning.swap.fail": "Swap is on: SwapTotal {kb} kB (planned off)",
    "tuning.hugepages.pass": "Huge pages of 2 MiB reserved: {found} (planned {expected})",
    "tuning.hugepages.fail": "Huge pages of 2 MiB reserved: {found}, planned {expected}",
    "tuning.thp.pass": "Transparent huge pages '{found}'",
    "tuning.thp.fail": "Transparent huge pages '{found}', planned '{expected}'",
    "tuning.mount.pass": "Data filesystems {mounts}: {fstype}, mounted noatime",
    "tuning.mount.fail": "Data filesystem {mount}: {problem}",
    "tuning.mount.none": "No data filesystem is mounted apart from the system's (/, /boot, …)",
    "tuning.mount.fstype": "{fstype}, planned {expected}",
    "tuning.mount.atime": "mounted without noatime ({options})",
    "tuning.nofile.pass": "Open files limit {soft} (hard {hard}), planned at least {expected}",
    "tuning.nofile.warn": (
        "Open files: soft limit {soft} below the planned {expected} (hard {hard}); a job must raise it"
    ),
    "tuning.nofile.fail": "Open files: hard limit {hard} below the planned {expected}",
    "tuning.ecc.pass": "ECC {found} on every GPU, as planned",
    "tuning.ecc.fail": "ECC: planned {expected}, found {found}",
    "tuning.clocks.pass": "Application clocks memory {memory} MHz, graphics {graphics} MHz on every GPU, as planned",
    "tuning.clocks.fail": "Application clocks: planned memory {memory} MHz, graphics {graphics} MHz; found {found}",
    "tuning.clocks.found": "GPU {gpu}: memory {memory} MHz, graphics {graphics} MHz",
    "tuning.kept": "Not tuned: the plan keeps the system's setting",
    "tuning.unread": "{what}: {path} could not be read",
})


@dataclass(frozen=True)
class Choice:
    key: str
    value: object
    from_plan: bool
    source: str
    trade_off: str


def choices(plan: Plan) -> dict[str, Choice]:
    """Every tuning choice of the plan: its own value, else the policy default (with the default's source)."""
    host = plan.operations.host
    out: dict[str, Choice] = {}
    for key, default in DEFAULTS.items():
        own = getattr(host, key)
        out[key] = Choice(key, default.value if own is None else own, own is not None, default.source,
                          default.trade_off)
    return out


@dataclass(frozen=True)
class TuningCheck:
    id: str
    status: str
    """pass / fail / warn / unknown / skip."""
    message: str
    code: str = ""
    """The message's code (procurement.messages) and its parameters: a report stores these, not the text."""
    params: dict[str, object] = field(default_factory=dict, compare=False, hash=False)


_GOV = re.compile(r"^/sys/devices/system/cpu/cpu(\d+)/cpufreq/scaling_governor$")
SYSTEM_MOUNTS = ("/", "/boot", "/boot/efi", "/efi", "/home", "/var", "/usr", "/tmp")
_DISK = re.compile(r"^/dev/(nvme\d+n\d+(p\d+)?|sd[a-z]+\d*|vd[a-z]+\d*|md\d+(p\d+)?|mapper/.+|dm-\d+)$")

FILES = ("/proc/meminfo", "/proc/mounts", "/proc/self/limits", "/sys/kernel/mm/transparent_hugepage/enabled")
"""The files the check reads besides each CPU's cpufreq/scaling_governor (the probe's `files` must hold them)."""


def _as_int(value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"not a count: {value!r}")
    return value


def _meminfo(text: str, key: str) -> int | None:
    m = re.search(rf"^{re.escape(key)}:\s+(\d+)", text, re.M)
    return int(m.group(1)) if m else None


def data_mounts(mounts: str) -> list[tuple[str, str, str, str]]:
    """(device, mount point, fstype, options) of block-device filesystems that are not the system's own."""
    out = []
    for line in mounts.splitlines():
        parts = line.split()
        if len(parts) < 4:
            continue
        dev, mnt, fstype, opts = parts[:4]
        mnt = mnt.replace("\\040", " ")
        if _DISK.match(dev) and mnt not in SYSTEM_MOUNTS and not mnt.startswith(("/snap/", "/boot/")) \
                and fstype not in ("swap", "vfat", "squashfs", "iso9660"):
            out.append((dev, mnt, fstype, opts))
    return out


class _Checks:
    """The checks made so far, their messages in ``lang``."""

    def __init__(self, lang: Lang) -> None:
        self.lang = lang
        self.out: list[TuningCheck] = []

    def add(self, check_id: str, status: str, key: str, **fields: object) -> None:
        text = t(key, self.lang, **{k: render_value(v, self.lang) for k, v in fields.items()})
        self.out.append(TuningCheck(check_id, status, text, key, dict(fields)))

    def unread(self, check_id: str, what: str, path: str) -> None:
        self.add(check_id, "unknown", "tuning.unread", what=what, path=path)


def check_host(plan: Plan, files: Mapping[str, str | None], lang: Lang = "en",
               ecc_enabled: list[bool | None] | None = None,
               app_clocks: list[tuple[int | None, int | None]] | None = None) -> list[TuningCheck]:
    """The host's tuning against the plan's choices, from the raw facts' files (and nvidia-smi's ECC modes and
    application clocks, (memory MHz, graphics MHz) per GPU)."""
    c = choices(plan)
    out = _Checks(lang)
    meminfo = files.get("/proc/meminfo")
    _governor(out, c, files)
    _swap(out, c, meminfo)
    _hugepages(out, c, meminfo)
    _thp(out, c, files)
    _check_mounts(out, c, files)
    _nofile(out, c, files)
    _ecc(out, plan, ecc_enabled)
    _clocks(out, plan, app_clocks)
    return out.out


def _governor(out: _Checks, c: dict[str, Choice], files: Mapping[str, str | None]) -> None:
    """TUNE-GOVERNOR: every CPU's frequency governor is the plan's."""
    if c["cpu_governor"].value == "keep":
        out.add("TUNE-GOVERNOR", "skip", "tuning.kept")
    else:
        govs = {int(m.group(1)): (v or "").strip() for k, v in files.items() if (m := _GOV.match(k))}
        read = {cpu: g for cpu, g in govs.items() if g}
        if not read or len(read) < len(govs):
            out.add("TUNE-GOVERNOR", "unknown", "tuning.governor.unknown")
        else:
            wrong = sorted({g for g in read.values() if g != c["cpu_governor"].value})
            if wrong:
                out.add("TUNE-GOVERNOR", "fail", "tuning.governor.fail", expected=c["cpu_governor"].value,
                        found=", ".join(f"'{g}'" for g in wrong))
            else:
                out.add("TUNE-GOVERNOR", "pass", "tuning.governor.pass", found=c["cpu_governor"].value, n=len(read))


def _swap(out: _Checks, c: dict[str, Choice], meminfo: str | None) -> None:
    """TUNE-SWAP: no swap, when the plan turns it off."""
    if c["swap"].value == "keep":
        out.add("TUNE-SWAP", "skip", "tuning.kept")
    elif meminfo is None or (swap := _meminfo(meminfo, "SwapTotal")) is None:
        out.unread("TUNE-SWAP", "SwapTotal", "/proc/meminfo")
    else:
        out.add("TUNE-SWAP", "pass" if swap == 0 else "fail", "tuning.swap.pass" if swap == 0 else "tuning.swap.fail",
                kb=swap)


def _hugepages(out: _Checks, c: dict[str, Choice], meminfo: str | None) -> None:
    """TUNE-HUGEPAGES: the 2 MiB huge pages reserved (only when the plan says how many)."""
    want_pages = c["hugepages_2m"].value
    pages = _meminfo(meminfo, "HugePages_Total") if meminfo else None
    size = _meminfo(meminfo, "Hugepagesize") if meminfo else None
    if want_pages == "keep":
        out.add("TUNE-HUGEPAGES", "skip", "tuning.kept")
    elif pages is None or size is None:
        out.unread("TUNE-HUGEPAGES", "HugePages_Total", "/proc/meminfo")
    else:
        found = pages if size == 2048 else 0
        ok = found == want_pages
        out.add("TUNE-HUGEPAGES", "pass" if ok else "fail", "tuning.hugepages.pass" if ok else "tuning.hugepages.fail",
                found=found, expected=want_pages)


def _thp(out: _Checks, c: dict[str, Choice], files: Mapping[str, str | None]) -> None:
    """TUNE-THP: the transparent huge pages mode."""
    thp_want = c["transparent_hugepages"].value
    thp = files.get("/sys/kernel/mm/transparent_hugepage/enabled")
    if thp_want == "keep":
        out.add("TUNE-THP", "skip", "tuning.kept")
    elif thp is None or not (m := re.search(r"\[(\w+)\]", thp)):
        out.unread("TUNE-THP", "transparent_hugepage", "/sys/kernel/mm/transparent_hugepage/enabled")
    else:
        ok = m.group(1) == thp_want
        out.add("TUNE-THP", "pass" if ok else "fail", "tuning.thp.pass" if ok else "tuning.thp.fail",
                found=m.group(1), expected=thp_want)


def _check_mounts(out: _Checks, c: dict[str, Choice], files: Mapping[str, str | None]) -> None:
    """TUNE-DATA-MOUNT: the data filesystems' type and mount options."""
    mounts = files.get("/proc/mounts")
    fs_want = c["data_fs"].value
    if mounts is None:
        out.unread("TUNE-DATA-MOUNT", "mounts", "/proc/mounts")
    elif not (data := data_mounts(mounts)):
        out.add("TUNE-DATA-MOUNT", "unknown", "tuning.mount.none")
    else:
        allowed = ("xfs", "ext4") if fs_want == "any" else (str(fs_want),)
        bad = False
        for _dev, mnt, fstype, opts in data:
            if fstype not in allowed:
                bad = True
                out.add("TUNE-DATA-MOUNT", "fail", "tuning.mount.fail", mount=mnt,
                        problem=coded("tuning.mount.fstype", fstype=fstype, expected=" / ".join(allowed)))
            if c["data_mount"].value == "noatime" and "noatime" not in opts.split(","):
                bad = True
                out.add("TUNE-DATA-MOUNT", "fail", "tuning.mount.fail", mount=mnt,
                        problem=coded("tuning.mount.atime", options=opts))
        if not bad:
            out.add("TUNE-DATA-MOUNT", "pass", "tuning.mount.pass", mounts=", ".join(d[1] for d in data),
                    fstype="/".join(sorted({d[2] for d in data})))


def _nofile(out: _Checks, c: dict[str, Choice], files: Mapping[str, str | None]) -> None:
    """TUNE-NOFILE: the open-files limit, soft and hard."""
    limits = files.get("/proc/self/limits")
    want_files = _as_int(c["fd_limit"].value)
    m = re.search(r"^Max open files\s+(\d+|unlimited)\s+(\d+|unlimited)", limits or "", re.M)
    if not m:
        out.unread("TUNE-NOFILE", "Max open files", "/proc/self/limits")
    else:
        soft, hard = (10**18 if v == "unlimited" else int(v) for v in m.groups())
        if hard < want_files:
            out.add("TUNE-NOFILE", "fail", "tuning.nofile.fail", hard=m.group(2), expected=want_files)
        elif soft < want_files:
            out.add("TUNE-NOFILE", "warn", "tuning.nofile.warn", soft=m.group(1), hard=m.group(2), expected=want_files)
        else:
            out.add("TUNE-NOFILE", "pass", "tuning.nofile.pass", soft=m.group(1), hard=m.group(2), expected=want_files)


def _ecc(out: _Checks, plan: Plan, ecc_enabled: list[bool | None] | None) -> None:
    """TUNE-ECC: the GPUs' ECC mode (only when the plan sets it; the verify ECC check judges the catalog's
    expectation otherwise)."""
    ecc = plan.operations.host.ecc
    if ecc == "keep":
        out.add("TUNE-ECC", "skip", "tuning.kept")
    elif not ecc_enabled or any(e is None for e in ecc_enabled):
        out.unread("TUNE-ECC", "ECC mode", "nvidia-smi -q -x")
    else:
        want = ecc == "on"
        modes = sorted({"on" if e else "off" for e in ecc_enabled})
        ok = all(e == want for e in ecc_enabled)
        out.add("TUNE-ECC", "pass" if ok else "fail", "tuning.ecc.pass" if ok else "tuning.ecc.fail",
                expected=ecc, found="/".join(modes))


def _clocks(out: _Checks, plan: Plan, app_clocks: list[tuple[int | None, int | None]] | None) -> None:
    """TUNE-CLOCKS: the GPUs' application clocks (only when the plan fixes them with `nvidia-smi -ac`)."""
    want = plan.operations.host.application_clocks
    if want is None:
        out.add("TUNE-CLOCKS", "skip", "tuning.kept")
    elif not app_clocks or any(m is None or g is None for m, g in app_clocks):
        out.unread("TUNE-CLOCKS", "application clocks", "nvidia-smi -q -x")
    else:
        wrong = [coded("tuning.clocks.found", gpu=i, memory=m, graphics=g) for i, (m, g) in enumerate(app_clocks)
                 if (m, g) != (want.memory_mhz, want.graphics_mhz)]
        if wrong:
            out.add("TUNE-CLOCKS", "fail", "tuning.clocks.fail", memory=want.memory_mhz, graphics=want.graphics_mhz,
                    found=clauses(wrong))
        else:
            out.add("TUNE-CLOCKS", "pass", "tuning.clocks.pass", memory=want.memory_mhz, graphics=want.graphics_mhz)


# ---------------------------------------------------------------- the handover's script


def tuning_script(plan: Plan, data_mounts_hint: tuple[str, ...] = ("/data",)) -> str:
    """A bash script that applies the plan's tuning idempotently, with --dry-run and --undo.

    Every file it changes is saved once under $STATE before the first change, so --undo restores them however
    often the script ran. GPU_PROCURE_ROOT (default empty) prefixes every path, which is how it is tested.
    """
    c = choices(plan)
    q = shlex.quote
    host = plan.operations.host
    gov, swap, thp = c["cpu_governor"].value, c["swap"].value, c["transparent_hugepages"].value
    pages, nofile = c["hugepages_2m"].value, _as_int(c["fd_limit"].value)
    def say(text: str) -> str:
        return "say " + q(text)

    lines = [
        "#!/bin/bash",
        "# gpu-procure: host tuning from the plan (docs/operations.md gives each choice's source and trade-off).",
        "#   bash host-tuning.sh            apply (again: changes nothing more)",
        "#   bash host-tuning.sh --dry-run  print what it would do",
        "#   bash host-tuning.sh --undo     put back what it changed",
        "set -euo pipefail",
        'MODE=apply; case "${1:-}" in --dry-run) MODE=dry;; --undo) MODE=undo;; "") ;; '
        '*) echo "usage: $0 [--dry-run|--undo]" >&2; exit 2;; esac',
        'R="${GPU_PROCURE_ROOT:-}"',
        'STATE="$R/var/lib/gpu-procure/host-tuning"',
        f"DATA_MOUNTS=({' '.join(q(m) for m in data_mounts_hint)})  # the data filesystems' mount points",
        'run() { echo "+ $*"; if [ "$MODE" != dry ]; then "$@"; fi; }',
        'say() { echo "# $*"; }',
        "save() {  # save FILE once (a missing file is remembered as missing)",
        '  local f="$1" s; s="$STATE/files$1"',
        '  [ -e "$s" ] || [ -e "$s.absent" ] && return 0',
        '  [ "$MODE" = dry ] && return 0',
        '  mkdir -p "$(dirname "$s")"',
        '  if [ -e "$R$f" ]; then cp -p "$R$f" "$s"; else : > "$s.absent"; fi',
        "}",
        "put() {  # put FILE CONTENT: write when different",
        '  local f="$1"',
        '  if [ -e "$R$f" ] && [ "$(cat "$R$f")" = "$2" ]; then return 0; fi',
        '  save "$f"; echo "+ write $f: $2"',
        '  if [ "$MODE" != dry ]; then mkdir -p "$(dirname "$R$f")"; printf \'%s\\n\' "$2" > "$R$f"; fi',
        "}",
        'if [ -z "$R" ] && [ "$MODE" != dry ] && [ "$(id -u)" != 0 ]; then echo "run as root" >&2; exit 2; fi',
        "",
        'if [ "$MODE" = undo ]; then',
        '  [ -d "$STATE/files" ] || { echo "# nothing to undo"; exit 0; }',
        '  if [ -z "$R" ]; then systemctl disable gpu-procure-cpu-governor.service 2>/dev/null || true; fi',
        '  while IFS= read -r -d "" s; do',
        '    f="${s#"$STATE/files"}"',
        '    case "$f" in *.absent) rm -f "$R${f%.absent}"; echo "+ remove ${f%.absent}";;',
        '      *) cat "$s" > "$R$f"; echo "+ restore $f";; esac',
        '  done < <(find "$STATE/files" -type f -print0)',
        '  if [ -z "$R" ]; then systemctl daemon-reload || true; swapon -a || true;',
        '    sysctl --system >/dev/null || true; fi',
    ]
    if host.application_clocks is not None:
        lines.append('  run nvidia-smi -rac')
    lines += [
        '  rm -rf "$STATE"',
        "  exit 0",
        "fi",
        "",
    ]
    if gov != "keep":
        lines += [
            say(f"CPU governor {gov}: {DEFAULTS['cpu_governor'].trade_off}"),
            'for f in "$R"/sys/devices/system/cpu/cpu[0-9]*/cpufreq/scaling_governor; do',
            '  [ -e "$f" ] || continue',
            f'  put "${{f#"$R"}}" {q(str(gov))}',
            "done",
            "put /etc/systemd/system/gpu-procure-cpu-governor.service \"[Unit]",
            "Description=gpu-procure: CPU governor " + str(gov),
            "[Service]",
            "Type=oneshot",
            "ExecStart=/bin/sh -c 'for f in /sys/devices/system/cpu/cpu*/cpufreq/scaling_governor; do echo "
            + str(gov) + " > \\$f; done'",
            "[Install]",
            'WantedBy=multi-user.target"',
            "",
        ]
    if swap == "off":
        lines += [
            say(f"Swap off: {DEFAULTS['swap'].trade_off}"),
            'if [ -e "$R/etc/fstab" ] && grep -qE \'^[^#][^[:space:]]*[[:space:]]+[^[:space:]]+[[:space:]]+swap\' '
            '"$R/etc/fstab"; then',
            '  save /etc/fstab; echo "+ comment out the swap lines of /etc/fstab"',
            '  if [ "$MODE" != dry ]; then sed -i -E \'s/^([^#][^[:space:]]*[[:space:]]+[^[:space:]]+[[:space:]]+swap'
            '[[:space:]])/#gpu-procure# \\1/\' "$R/etc/fstab"; fi',
            "fi",
            'if [ -z "$R" ]; then run swapoff -a; fi',
            "",
        ]
    if pages != "keep":
        lines += [
            say(f"Huge pages: {pages} of 2 MiB reserved"),
            f'put /etc/sysctl.d/90-gpu-procure-hugepages.conf "vm.nr_hugepages = {_as_int(pages)}"',
            f'if [ -e "$R/proc/sys/vm/nr_hugepages" ]; then put /proc/sys/vm/nr_hugepages {_as_int(pages)}; fi',
            "",
        ]
    if thp != "keep":
        lines += [
            say(f"Transparent huge pages {thp}: {DEFAULTS['transparent_hugepages'].trade_off}"),
            'f=/sys/kernel/mm/transparent_hugepage/enabled',
            f'if [ -e "$R$f" ] && ! grep -q "\\[{thp}\\]" "$R$f"; then save "$f"; echo "+ write $f: {thp}";',
            f'  if [ "$MODE" != dry ]; then echo {thp} > "$R$f"; fi; fi',
            "",
        ]
    if c["data_mount"].value == "noatime":
        lines += [
            say(f"Data filesystems noatime: {DEFAULTS['data_mount'].trade_off}"),
            'for m in "${DATA_MOUNTS[@]}"; do',
            '  [ -e "$R/etc/fstab" ] || break',
            '  line=$(awk -v m="$m" \'$1 !~ /^#/ && $2 == m\' "$R/etc/fstab")',
            '  if [ -z "$line" ]; then say "$m is not in /etc/fstab: left as it is"; continue; fi',
            '  if awk -v m="$m" \'$1 !~ /^#/ && $2 == m { if ($4 ~ /(^|,)noatime(,|$)/) f=1 } END { exit !f }\' '
            '"$R/etc/fstab"; then continue; fi',
            '  save /etc/fstab; echo "+ add noatime to $m in /etc/fstab"',
            '  if [ "$MODE" != dry ]; then',
            '    awk -v m="$m" \'BEGIN{OFS="\\t"} $1 !~ /^#/ && $2 == m { $4 = $4 ",noatime" } { print }\' '
            '"$R/etc/fstab" > "$R/etc/fstab.gpu-procure" && cat "$R/etc/fstab.gpu-procure" > "$R/etc/fstab"'
            ' && rm -f "$R/etc/fstab.gpu-procure"',
            "  fi",
            '  if [ -z "$R" ]; then run mount -o remount,noatime "$m"; fi',
            "done",
            "",
        ]
    lines += [
        say(f"Open files {nofile}: {DEFAULTS['fd_limit'].trade_off}"),
        f'put /etc/security/limits.d/90-gpu-procure.conf "*    soft    nofile    {nofile}',
        f'*    hard    nofile    {nofile}"',
        'put /etc/systemd/system.conf.d/90-gpu-procure.conf "[Manager]',
        f'DefaultLimitNOFILE={nofile}"',
        "",
    ]
    if host.ecc != "keep":
        flag = "0" if host.ecc == "off" else "1"
        if host.ecc == "off":
            lines += [say("WARNING: " + ECC_WARNING)]
        lines += [f"run nvidia-smi -e {flag}", say("ECC mode changes after the next reboot"), ""]
    if host.application_clocks is not None:
        ac = host.application_clocks
        lines += [say("WARNING: " + CLOCKS_WARNING),
                  f"run nvidia-smi -ac {ac.memory_mhz},{ac.graphics_mhz}", ""]
    lines += ['if [ -z "$R" ] && [ "$MODE" = apply ]; then',
              "  systemctl daemon-reload",
              "  systemctl daemon-reexec  # system.conf.d (DefaultLimitNOFILE) is read on re-execution",
              "  systemctl enable gpu-procure-cpu-governor.service 2>/dev/null || true",
              "  sysctl --system >/dev/null",
              "fi", ""]
    return "\n".join(lines)


register({f"tuning.trade_off.{key}": default.trade_off for key, default in DEFAULTS.items()})
register({"tuning.warning.ecc": ECC_WARNING, "tuning.warning.clocks": CLOCKS_WARNING})


def trade_off(key: str, lang: Lang) -> str:
    """What the choice ``key`` costs, in the reader's language."""
    return t(f"tuning.trade_off.{key}", lang)

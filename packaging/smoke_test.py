"""Smoke test of the frozen bundle: --version, --help, check on example plans, the GUI offscreen, every bundled
file's licence, and the glibc the bundle needs (its floor: it runs on Linux systems with that glibc or newer).

Usage: python packaging/smoke_test.py dist/gpu-procure
Each run must exit as expected and write nothing to stderr; exit status 0 when all pass, 1 otherwise.
"""

from __future__ import annotations

import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
# Qt libraries that QT_EXCLUDES keeps out of the bundle; finding one means an exclude stopped working.
# Qt's offscreen platform plugin warns about a feature it lacks whenever a window is laid out; that line, and
# only that line, is not an error of the app. Every other stderr line fails the smoke test.
OFFSCREEN_NOISE = ("This plugin does not support propagateSizeHints()",)
# Never acceptable in any output: a Python traceback, PyInstaller's bootloader error, or the frozen program
# being re-run as a Python interpreter (code that runs sys.executable -c ... breaks when frozen).
FORBIDDEN = ("Traceback (most recent call last)", "[PYI-", "unrecognized arguments: -c")
UNWANTED_LIBS = ("Qt6Quick", "Qt6Qml", "Qt6WebEngine", "Qt63D", "Qt6Multimedia", "Qt6Designer", "Qt6Sql",
                 # GPL-only: GNU Readline and GDBM (bundle_data.PY_EXCLUDES keeps their modules out)
                 "libreadline", "libgdbm")
_GLIBC = re.compile(rb"GLIBC_(2\.\d+(?:\.\d+)?)\x00")


def glibc_floor(bundle: Path) -> tuple[tuple[int, ...], list[str]]:
    """The newest GLIBC_x.y symbol version any ELF file in the bundle asks for, and the files that ask for it.

    A version-needed entry names the version as a NUL-terminated string; any such string in a file counts,
    which can only overstate the floor, never understate it.
    """
    best: tuple[int, ...] = (0,)
    who: list[str] = []
    for path in sorted(bundle.rglob("*")):
        if not path.is_file() or path.is_symlink():
            continue
        with open(path, "rb") as fh:
            if fh.read(4) != b"\x7fELF":
                continue
            data = fh.read()
        found = {tuple(int(x) for x in m.decode().split(".")) for m in _GLIBC.findall(data)}
        if not found:
            continue
        top = max(found)
        if top > best:
            best, who = top, [path.name]
        elif top == best:
            who.append(path.name)
    return best, who


def _version(v: tuple[int, ...]) -> str:
    return ".".join(map(str, v))


def _exe(bundle: Path) -> Path:
    for name in ("gpu-procure", "gpu-procure.exe"):
        if (bundle / name).is_file():
            return bundle / name
    raise SystemExit(f"smoke: no gpu-procure executable in {bundle}")


def _env(home: Path, platform: str) -> dict[str, str]:
    """A clean environment: the repository is not on the path and no user settings apply."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "QT_", "VIRTUAL_ENV"))}
    env.update(QT_QPA_PLATFORM=platform, HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"),
               XDG_DATA_HOME=str(home / ".local" / "share"), XDG_CACHE_HOME=str(home / ".cache"),
               LANG=os.environ.get("LANG", "C.UTF-8"))
    return env


def _examples(bundle: Path) -> list[Path]:
    for where in (bundle / "_internal" / "resources" / "examples", bundle / "resources" / "examples",
                  REPO / "resources" / "examples"):
        found = sorted(where.glob("*.gpuplan.yaml")) if where.is_dir() else []
        if found:
            return found
    return []


def _default_plan(tmp: Path) -> Path:
    """An empty plan, written with the source tree's own dump_plan, for when no example plans exist yet."""
    sys.path.insert(0, str(REPO))
    from procurement.plan import Plan, dump_plan

    path = tmp / "empty.gpuplan.yaml"
    path.write_text(dump_plan(Plan()), encoding="utf-8")
    return path


class Smoke:
    def __init__(self, exe: Path, tmp: Path) -> None:
        self.exe, self.tmp, self.failures = exe, tmp, 0

    def run(self, label: str, args: list[str], ok_codes: tuple[int, ...], stdout_has: str = "",
            stderr_has: str = "", stdout_json: bool = False, allow: tuple[str, ...] = (),
            stderr_ok: bool = False, files: dict[str, bytes] | None = None, json_files: tuple[str, ...] = (),
            wrapper: tuple[str, ...] = (), platform: str = "offscreen", timeout: float = 120,
            extra_env: dict[str, str] | None = None) -> None:
        """Run the frozen program; `files` are outputs that must start with the given bytes."""
        start = time.perf_counter()
        try:
            proc = subprocess.run([*wrapper, str(self.exe), *args], cwd=self.tmp,
                                  env={**_env(self.tmp, platform), **(extra_env or {})}, capture_output=True,
                                  text=True,
                                  encoding="utf-8", errors="replace", timeout=timeout)
        except subprocess.TimeoutExpired:
            self._fail(label, f"no exit within {timeout:.0f} s")
            return
        took = time.perf_counter() - start
        problems = []
        if proc.returncode not in ok_codes:
            problems.append(f"exit {proc.returncode}, expected {' or '.join(map(str, ok_codes))}")
        problems += [f"printed {bad!r}" for bad in FORBIDDEN if bad in proc.stdout + proc.stderr]
        if stderr_has:
            if stderr_has not in proc.stderr:
                problems.append(f"stderr should name {stderr_has!r}")
        else:
            noise = [ln for ln in proc.stderr.splitlines() if ln.strip() and ln.strip() not in allow]
            if noise and not stderr_ok:
                problems.append("wrote to stderr")
        for name, head in (files or {}).items():
            out = self.tmp / name
            if not out.is_file() or not out.read_bytes().startswith(head):
                problems.append(f"{name} missing or not starting with {head!r}")
        for name in json_files:
            try:
                json.loads((self.tmp / name).read_text(encoding="utf-8"))
            except (OSError, ValueError) as exc:
                problems.append(f"{name} is not a JSON report ({exc})")
        if stdout_has and stdout_has not in proc.stdout:
            problems.append(f"stdout lacks {stdout_has!r}")
        if stdout_json:
            try:
                json.loads(proc.stdout)
            except ValueError as exc:
                problems.append(f"stdout is not JSON ({exc})")
        if problems:
            self._fail(label, "; ".join(problems), proc)
        else:
            print(f"smoke: ok   {label} (exit {proc.returncode}, {took:.2f} s)")

    def _fail(self, label: str, why: str, proc: subprocess.CompletedProcess[str] | None = None) -> None:
        self.failures += 1
        print(f"smoke: FAIL {label}: {why}")
        if proc is not None:
            for name, text in (("stdout", proc.stdout), ("stderr", proc.stderr)):
                if text.strip():
                    tail = text.strip().splitlines()[-25:]
                    print(f"  --- {name} ---\n" + "\n".join("  " + ln for ln in tail))


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    bundle = Path(argv[0]).resolve()
    exe = _exe(bundle)
    unwanted = sorted({p.name for p in bundle.rglob("*") if any(u in p.name for u in UNWANTED_LIBS)})
    with tempfile.TemporaryDirectory(prefix="gpu-procure-smoke-") as tmp_name:
        tmp = Path(tmp_name)
        smoke = Smoke(exe, tmp)
        if unwanted:
            smoke._fail("excluded Qt modules", "bundle contains " + ", ".join(unwanted[:8]))
        size = sum(p.stat().st_size for p in bundle.rglob("*") if p.is_file() and not p.is_symlink())
        count = sum(1 for p in bundle.rglob("*") if p.is_file())
        print(f"smoke: bundle {bundle.name}: {size / 1e6:.0f} MB in {count} files")
        if sys.platform.startswith("linux"):
            floor, who = glibc_floor(bundle)
            libc, build_glibc = platform.libc_ver()
            print(f"smoke: glibc floor {_version(floor)}: the bundle needs glibc {_version(floor)} or newer "
                  f"(newest symbols used by {', '.join(who[:4])}{'…' if len(who) > 4 else ''}); "
                  f"built with {libc} {build_glibc}")
        sys.path.insert(0, str(REPO / "packaging"))
        import notices

        contents = bundle / "_internal" if (bundle / "_internal").is_dir() else bundle
        licence_problems = notices.check_folder(contents, top_level=[exe])
        if licence_problems:
            smoke._fail("licences", f"{len(licence_problems)} problem(s): " + "; ".join(licence_problems[:10]))
        elif not (contents / notices.NOTICES_FILE).is_file():
            smoke._fail("licences", f"no {notices.NOTICES_FILE} in the bundle")
        else:
            print(f"smoke: ok   every bundled file has a known, allowed licence "
                  f"({contents.name}/{notices.NOTICES_FILE})")
        from procurement import __version__ as version_in_source

        smoke.run("--version", ["--version"], (0,), stdout_has=f"gpu-procure {version_in_source}")
        smoke.run("--help", ["--help"], (0,), stdout_has="check")
        plans = _examples(bundle) or [_default_plan(tmp)]
        for plan in plans:
            # 0: no findings at error level, 1: findings, 3: incomplete; all are a working check.
            smoke.run(f"check {plan.name}", ["check", str(plan)], (0, 1, 3))
            smoke.run(f"check --json {plan.name}", ["check", "--json", str(plan)], (0, 1, 3), stdout_json=True,
                      stderr_ok=True)
        smoke.run(f"export {plans[0].name}", ["export", str(plans[0]), "--quote", "quote.pdf",
                                              "--checklist", "checklist.pdf"], (0,),
                  files={"quote.pdf": b"%PDF-", "checklist.pdf": b"%PDF-"})
        # Fonts: with GPU_PROCURE_SYSTEM_FONTS=0 only what the bundle carries (and reportlab's CID font) is used.
        smoke.run("export with the bundle's fonts only", ["export", str(plans[0]), "--quote", "bare.pdf", "--lang",
                                                          "zh"], (0,), files={"bare.pdf": b"%PDF-"},
                  extra_env={"GPU_PROCURE_SYSTEM_FONTS": "0"})
        # No driver here: verify reports what it could check (exit 3: nothing GPU-related verified) and
        # still writes the report; it prints progress on stderr by design.
        smoke.run("verify without nvidia-smi", ["verify", "--nvidia-smi", str(tmp / "no-nvidia-smi"),
                                                "--json", "verify.json"], (0, 1, 3), stderr_ok=True,
                  json_files=("verify.json",))
        missing = tmp / "missing.gpuplan.yaml"
        smoke.run("check on a missing file", ["check", str(missing)], (2,), stderr_has="missing.gpuplan.yaml")
        smoke.run("GUI --self-test (offscreen)", ["--self-test"], (0,), allow=OFFSCREEN_NOISE)
        if shutil.which("xvfb-run") and sys.platform.startswith("linux"):
            # The X11 plugin and the xcb libraries in the bundle, on a real (virtual) X server.
            smoke.run("GUI --self-test (X11 under Xvfb)", ["--self-test"], (0,), platform="xcb",
                      wrapper=("xvfb-run", "-a"))
        else:
            print("smoke: skip GUI on X11 (xvfb-run not installed: apt-get install xvfb xauth)")
    total = "all passed" if not smoke.failures else f"{smoke.failures} failed"
    print(f"smoke: {total}")
    return 1 if smoke.failures else 0


if __name__ == "__main__":
    sys.path.insert(0, str(REPO))
    sys.exit(main(sys.argv[1:]))

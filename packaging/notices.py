"""Third-party notices for the bundle, generated from what PyInstaller actually put into it.

The spec hands over every entry of the bundle (destination, source file, kind): the binaries and data files
of the COLLECT step and the pure-Python modules inside the executable's archive. Each source file is traced
to a component that has a licence:

- the app's own files (catalog/, procurement/, gui/, resources/, gpu_procure/): Apache-2.0, `LICENSE`;
- a Python distribution whose RECORD lists the file: its `License-Expression`, `License` or trove
  classifier, with the licence files of its dist-info;
- the Python runtime (standard library, lib-dynload, libpython): PSF-2.0;
- PyInstaller's bootloader and run-time modules: GPL-2.0-or-later WITH Bootloader-exception;
- a system library: the Debian package that owns it (`dpkg -S`) and that package's copyright file, or the
  RPM package (`rpm -qf`) and its License tag.

Anything else is *unknown*; a licence that only allows GPL use (GNU Readline) is *forbidden* in a bundle
of an Apache-2.0 app. :func:`problems` names both, the spec stops the build on them, and
packaging/smoke_test.py checks the built folder against the file index this module writes
(`_internal/licenses/files.json`). No PyInstaller import here: tests/packaging/test_notices.py runs it
without a build.
"""

from __future__ import annotations

import email.message
import importlib.metadata as md
import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
APP_PACKAGES = ("catalog", "procurement", "gui", "resources", "gpu_procure")
NOTICES_FILE = "THIRD-PARTY-NOTICES.txt"
INDEX_FILE = "licenses/files.json"
"""Under the bundle's contents folder (_internal): every bundled file with the component it comes from."""
COMMON_LICENSES = Path("/usr/share/common-licenses")

# Licences whose terms let an Apache-2.0 app ship the component in its bundle (SPDX ids). GPL-only ones
# (GPL-2.0/3.0 without an exception, AGPL) are not here: such a component must stay out of the bundle.
ALLOWED = {
    "Apache-2.0", "MIT", "MIT-CMU", "BSD-2-Clause", "BSD-3-Clause", "BSD-4-Clause-UC", "ISC", "Zlib", "PSF-2.0",
    "Python-2.0", "HPND", "FTL", "libpng-2.0", "Libpng", "IJG", "libtiff", "BSL-1.0", "0BSD", "OFL-1.1",
    "Unicode-3.0", "Unicode-DFS-2016", "X11", "MPL-2.0", "LGPL-2.0-or-later", "LGPL-2.1-only",
    "LGPL-2.1-or-later", "LGPL-3.0-only", "LGPL-3.0-or-later", "public-domain", "bzip2-1.0.6", "curl",
    "OpenSSL", "SSLeay", "GPL-2.0-or-later WITH Bootloader-exception", "GPL-3.0-or-later WITH GCC-exception-3.1",
    "FSFAP", "FSFUL", "FSFULLR", "BSD-Source-Code", "Unlicense", "AFL-2.1",
}

# Trove classifiers and free-form `License:` values seen in the dependencies, as SPDX ids.
CLASSIFIERS = {
    "License :: OSI Approved :: MIT License": "MIT",
    "License :: OSI Approved :: BSD License": "BSD-3-Clause",
    "License :: OSI Approved :: Apache Software License": "Apache-2.0",
    "License :: OSI Approved :: Python Software Foundation License": "PSF-2.0",
    "License :: OSI Approved :: ISC License (ISCL)": "ISC",
    "License :: OSI Approved :: Mozilla Public License 2.0 (MPL 2.0)": "MPL-2.0",
}

# Debian copyright files name licences in their own words; these map the short names to SPDX ids.
DEBIAN_NAMES = {
    "expat": "MIT", "mit": "MIT", "x11": "X11", "mit/x11": "X11", "zlib": "Zlib", "bsd-3-clause": "BSD-3-Clause",
    "bsd-2-clause": "BSD-2-Clause", "isc": "ISC", "lgpl-2.1": "LGPL-2.1-only", "lgpl-2.1+": "LGPL-2.1-or-later",
    "lgpl-2+": "LGPL-2.0-or-later", "lgpl-3": "LGPL-3.0-only", "lgpl-3+": "LGPL-3.0-or-later",
    "gpl-2": "GPL-2.0-only", "gpl-2+": "GPL-2.0-or-later", "gpl-3": "GPL-3.0-only", "gpl-3+": "GPL-3.0-or-later",
    "apache-2.0": "Apache-2.0", "public-domain": "public-domain", "bzip2-1.0.6": "bzip2-1.0.6",
    "permissive": "MIT", "mpl-2.0": "MPL-2.0", "hpnd": "HPND", "unicode": "Unicode-3.0",
    "gpl-3+ with gcc-runtime-library exception": "GPL-3.0-or-later WITH GCC-exception-3.1",
}

# Debian packages whose copyright file is not machine-readable (or lists many licences for files that are
# not in the library): the licence of the shared library itself, from that copyright file.
DEBIAN_PACKAGES = {
    "libxcb1": "MIT", "libxau6": "MIT", "libxdmcp6": "MIT", "libxkbcommon0": "MIT", "libxkbcommon-x11-0": "MIT",
    "libxcb-icccm4": "MIT", "libxcb-keysyms1": "MIT", "libxcb-cursor0": "MIT", "libxcb-util1": "MIT",
    "libxcb-image0": "MIT", "libxcb-render-util0": "MIT", "libxcb-xkb1": "MIT", "libxcb-randr0": "MIT",
    "libxcb-shape0": "MIT", "libxcb-xfixes0": "MIT", "libxcb-sync1": "MIT", "libxcb-render0": "MIT",
    "libxcb-shm0": "MIT", "libxcb-xinput0": "MIT", "libxcb-glx0": "MIT", "libxcb-dri3-0": "MIT",
    "libxcb-present0": "MIT", "libx11-6": "X11", "libx11-xcb1": "X11",
    "libwayland-client0": "MIT", "libwayland-cursor0": "MIT", "libwayland-egl1": "MIT",
    "libffi8": "MIT", "zlib1g": "Zlib", "libbz2-1.0": "bzip2-1.0.6", "liblzma5": "public-domain",
    "libexpat1": "MIT", "libssl3": "Apache-2.0", "libuuid1": "BSD-3-Clause", "libsqlite3-0": "public-domain",
    "libncursesw6": "X11", "libtinfo6": "X11", "libmpdec3": "BSD-2-Clause", "libgdbm6": "GPL-3.0-or-later",
    "libreadline8": "GPL-3.0-or-later", "libdbus-1-3": "GPL-2.0-or-later OR AFL-2.1",
    "libfontconfig1": "HPND", "libfreetype6": "FTL OR GPL-2.0-or-later", "libpng16-16": "Libpng",
    "libglib2.0-0": "LGPL-2.1-or-later", "libpcre2-8-0": "BSD-3-Clause", "libbrotli1": "MIT",
    "libgcc-s1": "GPL-3.0-or-later WITH GCC-exception-3.1", "libstdc++6": "GPL-3.0-or-later WITH GCC-exception-3.1",
    "libegl1": "MIT", "libgl1": "MIT", "libglvnd0": "MIT", "libglx0": "MIT", "libopengl0": "MIT",
    "libcrypt1": "LGPL-2.1-or-later", "libmd0": "BSD-3-Clause", "libbsd0": "BSD-3-Clause",
    "libgraphite2-3": "LGPL-2.1-or-later", "libharfbuzz0b": "MIT", "libsystemd0": "LGPL-2.1-or-later",
    "libzstd1": "BSD-3-Clause", "liblz4-1": "BSD-2-Clause", "libcap2": "BSD-3-Clause",
    "libgcrypt20": "LGPL-2.1-or-later",
    "libgpg-error0": "LGPL-2.1-or-later", "libxext6": "MIT", "libxrender1": "HPND", "libpcre2-16-0": "BSD-3-Clause",
    "libjpeg62-turbo": "IJG AND BSD-3-Clause AND Zlib", "libpixman-1-0": "MIT",
    # MIT Kerberos (QtNetwork, which QtPdf links, needs GSSAPI): the MIT Kerberos licence, permissive; its
    # Debian copyright file is not machine-readable. com_err comes with it (e2fsprogs' lib/et, whose
    # MIT-style licence the package's `Files: *` GPL-2 paragraph does not cover), keyutils' library is
    # `Files: keyutils.*` LGPL-2+ in its copyright file (the GPL-2+ there is for the tools).
    "libgssapi-krb5-2": "MIT", "libk5crypto3": "MIT", "libkrb5-3": "MIT", "libkrb5support0": "MIT",
    "libcom-err2": "MIT", "libkeyutils1": "LGPL-2.0-or-later",
}

PYINSTALLER_LICENCE = "GPL-2.0-or-later WITH Bootloader-exception"
PSF = "PSF-2.0"


@dataclass
class Component:
    """Something the bundle ships: one Python distribution, the Python runtime, a system package, the app."""

    name: str
    version: str
    licence: str
    """An SPDX expression; "unknown" when nothing says which."""
    origin: str
    licence_files: list[Path] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    """Bundle paths (relative to the bundle's contents folder) that come from it."""

    @property
    def key(self) -> str:
        return f"{self.name} {self.version}".strip()


def spdx_terms(expression: str) -> list[str]:
    """The alternatives of an SPDX expression ("A OR B" -> [A, B]); "A AND B" stays one term."""
    return [t.strip().strip("()") for t in re.split(r"\s+OR\s+", expression) if t.strip()]


def allowed(expression: str) -> bool:
    """True when the expression offers at least one licence the bundle may be distributed under."""
    if expression == "unknown":
        return False
    for term in spdx_terms(expression):
        parts = [p.strip().strip("()") for p in re.split(r"\s+AND\s+", term)]
        if all(p in ALLOWED for p in parts):
            return True
    return False


# Free-form `License:` values that name a licence without being SPDX ids.
LICENSE_ALIASES = {"PSFL": "PSF-2.0", "PSF": "PSF-2.0", "MIT License": "MIT", "BSD": "BSD-3-Clause",
                   "Apache 2.0": "Apache-2.0", "Apache License 2.0": "Apache-2.0"}
_SPDX_LIKE = re.compile(r"(?:[A-Za-z0-9.+-]+(?: WITH [A-Za-z0-9.+-]+)?)(?: (?:OR|AND) [A-Za-z0-9.+-]+(?: WITH "
                        r"[A-Za-z0-9.+-]+)?)*")
_GNU = re.compile(r"^(A|L)?GPL-\d\.\d-(only|or-later)$")


def _known_term(term: str) -> bool:
    return term in ALLOWED or bool(_GNU.match(term))


def _dist_licence(meta: email.message.Message, licence_files: Sequence[Path] = ()) -> str:
    expr = meta.get("License-Expression")
    if expr:
        return str(expr).strip()
    text = str(meta.get("License") or "").strip()
    if text in LICENSE_ALIASES:
        return LICENSE_ALIASES[text]
    if text and _SPDX_LIKE.fullmatch(text) and all(_known_term(t) for t in spdx_terms(text)):
        return text
    for classifier in meta.get_all("Classifier") or []:
        if classifier in CLASSIFIERS:
            return CLASSIFIERS[classifier]
        if classifier.endswith("GNU Library or Lesser General Public License (LGPL)"):
            # which LGPL: the text shipped with it (only the version it names; no "or later" is assumed)
            for path in licence_files:
                head = _licence_head(path)
                if "GNU LESSER GENERAL PUBLIC LICENSE" in head:
                    return "LGPL-3.0-only" if "Version 3" in head else "LGPL-2.1-only"
    return "unknown"


def _licence_head(path: Path) -> str:
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            return fh.read(400)
    except OSError:
        return ""


class Attributor:
    """Maps source files to components; built once per run (indexes every installed distribution)."""

    def __init__(self, repo: Path = REPO, dpkg: bool = True, rpm: bool = True) -> None:
        self.repo = repo.resolve()
        self.components: dict[str, Component] = {}
        self._by_file: dict[Path, str] = {}
        self._dpkg = dpkg and shutil.which("dpkg") is not None
        self._rpm = rpm and shutil.which("rpm") is not None
        self._dpkg_cache: dict[str, str | None] = {}
        self._runtime_dirs = {Path(p).resolve() for p in {
            sysconfig.get_paths()["stdlib"], sysconfig.get_paths()["platstdlib"],
            str(Path(sys.base_prefix) / "lib"),
        }}
        for dist in md.distributions():
            name = dist.metadata["Name"]
            if not name or not dist.files:
                continue
            key = f"py:{name.lower()}"
            if key in self.components:
                continue  # the first on sys.path wins, as for imports
            licence_files = [Path(str(dist.locate_file(f))) for f in dist.files
                             if ".dist-info/" in f.as_posix()
                             and re.match(r"(licen[cs]e|copying|notice|authors)", f.name, re.I)]
            comp = Component(name, dist.version, _dist_licence(dist.metadata, licence_files),
                             "Python package (PyPI)", sorted(set(licence_files)))
            if name.lower() in ("pyinstaller", "pyinstaller-hooks-contrib"):
                comp.licence = PYINSTALLER_LICENCE
            self.components[key] = comp
            base = os.path.normpath(str(dist.locate_file("")))
            for f in dist.files:  # no resolve(): it would stat each of the many thousand files
                self._by_file.setdefault(Path(os.path.normpath(os.path.join(base, str(f)))), key)
        app_licence = self.repo / "LICENSE"
        self.components["app"] = Component("gpu-procure", _app_version(self.repo), "Apache-2.0",
                                           "this project", [app_licence] if app_licence.is_file() else [])
        runtime_licence = Path(sysconfig.get_paths()["stdlib"]) / "LICENSE.txt"
        self.components["python"] = Component("Python", sys.version.split()[0], PSF, "the Python runtime",
                                              [runtime_licence] if runtime_licence.is_file() else [])

    def attribute(self, src: str | Path) -> str:
        """The key of the component ``src`` comes from; registers "unknown:…" components as needed."""
        path = Path(os.path.normpath(os.path.abspath(src)))
        key = self._by_file.get(path)
        if key:
            return key
        try:
            path = path.resolve()
        except OSError:
            pass
        key = self._by_file.get(path)
        if key:
            return key
        if path.is_relative_to(self.repo):
            rel = path.relative_to(self.repo)
            if rel.parts and rel.parts[0] in APP_PACKAGES:
                return self._sidecar(path) or "app"
        if any(path.is_relative_to(d) for d in self._runtime_dirs) or path.name.startswith("libpython"):
            return "python"
        if "PyInstaller" in path.parts:
            return "py:pyinstaller"
        deb = self._debian(path) if self._dpkg else None
        if deb:
            return deb
        rpm = self._rpm_package(path) if self._rpm else None
        if rpm:
            return rpm
        key = f"unknown:{path}"
        self.components.setdefault(key, Component(path.name, "", "unknown", str(path)))
        return key

    def _sidecar(self, path: Path) -> str | None:
        """A file of the app with its own licence (a font): `NAME.license` or a licence file beside it."""
        for cand in [path.with_name(path.name + ".license"), *sorted(path.parent.glob("*"))]:
            if cand.is_file() and (cand.name == path.name + ".license"
                                   or re.match(r"(OFL|LICEN[CS]E|COPYING)", cand.name, re.I)):
                if cand.parent == self.repo or cand == self.repo / "LICENSE":
                    return None
                text = cand.read_text(encoding="utf-8", errors="replace")
                spdx = re.search(r"SPDX-License-Identifier:\s*(\S+)", text)
                licence = spdx.group(1) if spdx else ("OFL-1.1" if "SIL OPEN FONT LICENSE" in text.upper()
                                                      else "unknown")
                key = f"file:{cand}"
                self.components.setdefault(key, Component(path.parent.name, "", licence,
                                                          f"this project ({cand.relative_to(self.repo)})",
                                                          [cand]))
                return key
        return None

    def prefetch_debian(self, sources: Iterable[str | Path]) -> None:
        """Look up the Debian packages of many files with one `dpkg -S` call (one call per file is slow)."""
        if not self._dpkg:
            return
        wanted = [p for src in sources for p in _merged_usr(Path(src))
                  if Path(os.path.normpath(src)) not in self._by_file and p not in self._dpkg_cache]
        if not wanted:
            return
        for p in wanted:
            self._dpkg_cache[p] = None
        try:
            proc = subprocess.run(["dpkg", "-S", *wanted], capture_output=True, text=True, timeout=120)
        except (OSError, subprocess.TimeoutExpired):
            return
        for line in proc.stdout.splitlines():
            owner, _, path = line.partition(": ")
            if path in self._dpkg_cache and "," not in owner:
                self._dpkg_cache[path] = owner.split(":", 1)[0].strip()

    def _rpm_package(self, path: Path) -> str | None:
        """Fedora, RHEL and openSUSE: the RPM that owns the file; its License tag (SPDX on Fedora 38+, RHEL 10)."""
        for cand in _merged_usr(path):
            out = _rpm_query("-qf", "--qf", "%{NAME}\t%{VERSION}-%{RELEASE}\t%{LICENSE}\n", cand)
            if not out or "\t" not in out:
                continue
            name, version, licence = [*out.splitlines()[0].split("\t"), "", ""][:3]
            key = f"rpm:{name}"
            if key not in self.components:
                files = [Path(f) for f in (_rpm_query("-qL", name) or "").splitlines() if f.startswith("/")]
                self.components[key] = Component(name, version, licence.strip() or "unknown", "RPM package",
                                                 [f for f in files if f.is_file()])
            return key
        return None

    def _debian(self, path: Path) -> str | None:
        self.prefetch_debian([path])
        for cand in _merged_usr(path):
            package = self._dpkg_cache.get(cand)
            if package:
                key = f"deb:{package}"
                if key not in self.components:
                    copyright_file = Path("/usr/share/doc") / package / "copyright"
                    licence = DEBIAN_PACKAGES.get(package) or _dep5_licence(copyright_file)
                    version = _dpkg_version(package)
                    self.components[key] = Component(package, version, licence, "Debian package",
                                                     [copyright_file] if copyright_file.is_file() else [])
                return key
        return None


def _rpm_query(*args: str) -> str | None:
    try:
        proc = subprocess.run(["rpm", *args], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return proc.stdout if proc.returncode == 0 else None


def _merged_usr(path: Path) -> list[str]:
    """The path and its other spelling on a merged-/usr system (dpkg knows only the one it installed)."""
    text = str(path)
    if text.startswith("/usr/lib/"):
        return [text, text[4:]]
    if text.startswith("/lib/"):
        return [text, "/usr" + text]
    return [text]


def _dpkg_version(package: str) -> str:
    try:
        proc = subprocess.run(["dpkg-query", "-W", "-f=${Version}", package], capture_output=True, text=True,
                              timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return proc.stdout.strip() if proc.returncode == 0 else ""


def _dep5_licence(copyright_file: Path) -> str:
    """The licence of the `Files: *` paragraph of a machine-readable Debian copyright file."""
    try:
        text = copyright_file.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return "unknown"
    if not text.startswith("Format:"):
        return "unknown"
    for para in re.split(r"\n\s*\n", text):
        if re.search(r"^Files:\s*\*\s*$", para, re.M):
            found = re.search(r"^License:\s*(.+)$", para, re.M)
            if found:
                name = found.group(1).strip().lower()
                return DEBIAN_NAMES.get(name, "unknown")
    return "unknown"


def _app_version(repo: Path) -> str:
    found = re.search(r'__version__ = "([^"]+)"', (repo / "procurement" / "__init__.py").read_text(encoding="utf-8"))
    return found.group(1) if found else ""


def collect(entries: Iterable[tuple[str, str, str]], attributor: Attributor | None = None) -> dict[str, Component]:
    """Attribute each bundle entry (destination, source, kind); returns the components that own at least one."""
    att = attributor or Attributor()
    entries = list(entries)
    att.prefetch_debian(src for _, src, _ in entries if src)
    used: dict[str, Component] = {}
    for dest, src, _kind in entries:
        if not src or src == "-":  # a namespace package: no file of its own
            continue
        key = att.attribute(src)
        comp = att.components[key]
        comp.files.append(dest)
        used[key] = comp
    return used


def problems(components: dict[str, Component]) -> list[str]:
    """Why the bundle may not be shipped: files with no known licence, or under a licence it may not carry."""
    out = []
    for comp in components.values():
        if comp.licence == "unknown":
            out.append(f"no known licence: {comp.key} ({comp.origin}): {', '.join(sorted(comp.files)[:5])}")
        elif not allowed(comp.licence):
            out.append(f"licence not allowed in the bundle: {comp.key} is {comp.licence}: "
                       f"{', '.join(sorted(comp.files)[:5])}")
    return out


QT_REPLACEMENT = """\
Qt and PySide6 are used under the GNU Lesser General Public License version 3 (LGPL-3.0-only; PySide6 is
offered under LGPL-3.0-only OR GPL-2.0-only OR GPL-3.0-only, and this bundle uses the LGPL). The LGPL-3.0
text and the GPL-3.0 text it builds on are included below.

Replacing the Qt libraries. This is a one-folder bundle: nothing is linked statically and nothing is packed
into the executable. The Qt libraries are ordinary shared libraries in the bundle's folder:
  _internal/PySide6/Qt/lib/libQt6*.so.6 (Linux), _internal/PySide6/Qt*.dll (Windows),
  _internal/PySide6/Qt/lib/Qt*.framework (macOS), with Qt's plugins under _internal/PySide6/Qt/plugins/
and PySide6's bindings (the QtCore.abi3.so modules) and shiboken6 beside them. To use a modified Qt, build
Qt {qt_version} (or a binary-compatible later 6.x release) from its sources and copy your libraries over the
ones of the same name; to modify PySide6 as well, build PySide6 {pyside_version} from its sources and replace
the files in _internal/PySide6 and _internal/shiboken6 (their Python modules are plain .py files there, not
packed into the executable). The app loads whatever libraries are in that folder. The same holds for every
other LGPL component listed above: its files are separate files in _internal and can be replaced.
Sources: Qt https://download.qt.io/official_releases/qt/ (and https://code.qt.io/qt/qt5.git, tag v{qt_version});
PySide6 and shiboken6 https://download.qt.io/official_releases/QtForPython/ (and
https://code.qt.io/pyside/pyside-setup.git, tag v{pyside_version}). On request, the maintainers of gpu-procure
provide the exact sources of the Qt and PySide6 versions in this bundle for three years from its release.
"""


def _licence_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace").strip("\n")
    except OSError:
        return f"(licence file {path} could not be read)"


def _common_licence(name: str) -> str | None:
    path = COMMON_LICENSES / name
    return _licence_text(path) if path.is_file() else None


def render(components: dict[str, Component], app_name: str = "gpu-procure") -> str:
    """THIRD-PARTY-NOTICES.txt: a table of what is bundled, then each component's licence texts."""
    comps = sorted(components.values(), key=lambda c: (c.name != app_name, c.name.lower()))
    lines = [f"{app_name}: licences of the components in this bundle", "",
             "Generated by packaging/notices.py from the files the bundle build collected.", "",
             f"{'component':40} {'version':18} {'files':>5}  licence", "-" * 100]
    for c in comps:
        lines.append(f"{c.name[:40]:40} {c.version[:18]:18} {len(c.files):5}  {c.licence}")
    qt = [c for c in comps if c.name.lower().startswith(("pyside6", "shiboken6"))]
    if qt:
        version = qt[0].version
        lines += ["", "=" * 100, "Qt for Python (PySide6, shiboken6) and Qt", "=" * 100,
                  QT_REPLACEMENT.format(qt_version=version, pyside_version=version)]
        for name, title in (("LGPL-3", "GNU LESSER GENERAL PUBLIC LICENSE, version 3"),
                            ("GPL-3", "GNU GENERAL PUBLIC LICENSE, version 3")):
            text = _common_licence(name) or _embedded_gpl_text(name)
            lines += ["", f"---- {title} ----", text]
    seen: set[Path] = set()
    for c in comps:
        lines += ["", "=" * 100, f"{c.key}  [{c.licence}]  from {c.origin}", "=" * 100]
        if not c.licence_files:
            lines.append("(no licence file shipped with this component; its licence is named above)")
        for path in c.licence_files:
            if path in seen:
                lines.append(f"(same text as {path.name} above)")
                continue
            seen.add(path)
            lines += [f"---- {path.name} ----", _licence_text(path)]
    return "\n".join(lines) + "\n"


def _embedded_gpl_text(name: str) -> str:
    return (f"The full text of the {name} licence is at https://www.gnu.org/licenses/ "
            f"({'lgpl-3.0' if name == 'LGPL-3' else 'gpl-3.0'}.txt); /usr/share/common-licenses/{name} was not "
            "available on the build machine.")


def index(components: dict[str, Component]) -> dict[str, str]:
    """Bundle path -> "component version [licence]" for the smoke test's licence check."""
    out: dict[str, str] = {}
    for c in components.values():
        for dest in c.files:
            out[Path(dest).as_posix()] = f"{c.key} [{c.licence}]"
    return out


def write(contents_dir: Path, components: dict[str, Component], extra_files: Sequence[str] = ()) -> Path:
    """Write THIRD-PARTY-NOTICES.txt and licenses/files.json into the bundle's contents folder (_internal)."""
    notices = contents_dir / NOTICES_FILE
    notices.write_text(render(components), encoding="utf-8")
    idx = index(components)
    for name in (NOTICES_FILE, INDEX_FILE, *extra_files):
        idx[name] = "gpu-procure [Apache-2.0]"
    target = contents_dir / INDEX_FILE
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(idx, indent=1, sort_keys=True, ensure_ascii=False), encoding="utf-8")
    return notices


def check_folder(contents_dir: Path, top_level: Sequence[Path] = ()) -> list[str]:
    """Every file in the built folder must be in the index with an allowed licence (the smoke test's check)."""
    try:
        idx: dict[str, str] = json.loads((contents_dir / INDEX_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        return [f"no licence index {INDEX_FILE} in the bundle ({exc})"]
    out = []
    for path in sorted(p for p in contents_dir.rglob("*") if p.is_file() or p.is_symlink()):
        rel = path.relative_to(contents_dir).as_posix()
        if rel not in idx:
            out.append(f"no known licence: {rel}")
            continue
        licence = idx[rel].rsplit("[", 1)[-1].rstrip("]")
        if not allowed(licence):
            out.append(f"licence not allowed: {rel} ({idx[rel]})")
    for exe in top_level:
        if exe.name not in idx and f"../{exe.name}" not in idx:
            out.append(f"no known licence: {exe.name}")
    return out

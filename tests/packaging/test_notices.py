"""The third-party notices generator: every bundled file is traced to a component with a licence, GPL-only
components are refused, unknown files are named, and the notices carry the LGPL texts and the Qt note."""

from __future__ import annotations

import importlib.util
import json
import shutil
import sys
from pathlib import Path

import notices
import pytest
import yaml

from tests.conftest import REPO


@pytest.fixture(scope="module")
def att() -> notices.Attributor:
    return notices.Attributor(dpkg=shutil.which("dpkg") is not None)


def _src(module: str) -> str:
    spec = importlib.util.find_spec(module)
    assert spec is not None and spec.origin
    return spec.origin


def test_files_are_traced_to_their_component(att: notices.Attributor) -> None:
    entries = [
        ("procurement/plan.py", str(REPO / "procurement" / "plan.py"), "PYMODULE"),
        ("resources/policy/default.yaml", str(REPO / "resources" / "policy" / "default.yaml"), "DATA"),
        ("yaml/__init__.py", str(Path(yaml.__file__)), "PYMODULE"),
        ("json/__init__.py", _src("json"), "PYMODULE"),
        ("pydantic/main.py", _src("pydantic.main"), "PYMODULE"),
    ]
    used = notices.collect(entries, att)
    by_file = {f: c for c in used.values() for f in c.files}
    assert by_file["procurement/plan.py"].licence == "Apache-2.0"
    assert by_file["procurement/plan.py"].name == "gpu-procure"
    assert by_file["resources/policy/default.yaml"].name == "gpu-procure"
    assert by_file["yaml/__init__.py"].name.lower() == "pyyaml" and by_file["yaml/__init__.py"].licence == "MIT"
    assert by_file["json/__init__.py"].licence == "PSF-2.0"
    assert by_file["pydantic/main.py"].licence == "MIT"
    assert any(p.name.startswith("LICENSE") for p in by_file["pydantic/main.py"].licence_files)
    assert notices.problems(used) == []


def test_an_unknown_file_is_a_problem(att: notices.Attributor, tmp_path: Path) -> None:
    stray = tmp_path / "libmystery.so.1"
    stray.write_bytes(b"\x7fELF")
    used = notices.collect([("libmystery.so.1", str(stray), "BINARY")], att)
    (problem,) = notices.problems(used)
    assert problem.startswith("no known licence: libmystery.so.1") and "libmystery.so.1" in problem


@pytest.mark.skipif(not Path("/lib/x86_64-linux-gnu/libreadline.so.8").exists() or shutil.which("dpkg") is None,
                    reason="needs Debian's libreadline8")
def test_gnu_readline_is_refused(att: notices.Attributor) -> None:
    used = notices.collect([("libreadline.so.8", "/lib/x86_64-linux-gnu/libreadline.so.8", "BINARY")], att)
    (comp,) = used.values()
    assert comp.name == "libreadline8" and comp.licence == "GPL-3.0-or-later"
    (problem,) = notices.problems(used)
    assert "licence not allowed" in problem and "GPL-3.0-or-later" in problem


@pytest.mark.parametrize(("expr", "ok"), [
    ("MIT", True), ("LGPL-3.0-only OR GPL-2.0-only OR GPL-3.0-only", True), ("GPL-3.0-or-later", False),
    ("GPL-2.0-only", False), ("unknown", False), ("FTL OR GPL-2.0-or-later", True),
    ("GPL-2.0-or-later WITH Bootloader-exception", True), ("MIT AND GPL-3.0-only", False),
    ("Apache-2.0 AND MIT", True),
])
def test_allowed_licences(expr: str, ok: bool) -> None:
    assert notices.allowed(expr) is ok


def test_qt_notice_has_the_lgpl_texts_and_how_to_replace_qt(att: notices.Attributor) -> None:
    pyside = importlib.util.find_spec("PySide6")
    if pyside is None or not pyside.origin:
        pytest.skip("PySide6 is not installed (the gui extra)")
    qtcore = next(Path(pyside.origin).parent.glob("QtCore.*"))
    used = notices.collect([("PySide6/" + qtcore.name, str(qtcore), "EXTENSION")], att)
    (comp,) = used.values()
    assert comp.name.lower().startswith("pyside6") and "LGPL-3.0-only" in comp.licence
    text = notices.render(used)
    assert "Replacing the Qt libraries" in text and "_internal/PySide6/Qt/lib/libQt6*.so.6" in text
    assert f"tag v{comp.version}" in text
    if Path("/usr/share/common-licenses/LGPL-3").is_file():
        assert "GNU LESSER GENERAL PUBLIC LICENSE" in text and "Version 3, 29 June 2007" in text
        assert "GNU GENERAL PUBLIC LICENSE" in text


def test_written_index_checks_the_folder(att: notices.Attributor, tmp_path: Path) -> None:
    contents = tmp_path / "_internal"
    (contents / "yaml").mkdir(parents=True)
    shutil.copy(yaml.__file__, contents / "yaml" / "__init__.py")
    used = notices.collect([("yaml/__init__.py", str(Path(yaml.__file__)), "PYMODULE")], att)
    notices.write(contents, used)
    assert notices.check_folder(contents) == []
    idx = json.loads((contents / notices.INDEX_FILE).read_text(encoding="utf-8"))
    assert idx["yaml/__init__.py"].endswith("[MIT]")
    assert "PyYAML" in (contents / notices.NOTICES_FILE).read_text(encoding="utf-8")
    (contents / "libextra.so").write_bytes(b"")  # something the build added that the index does not know
    assert notices.check_folder(contents) == ["no known licence: libextra.so"]


def test_python_runtime_is_psf(att: notices.Attributor) -> None:
    assert att.components[att.attribute(_src("json"))].licence == "PSF-2.0"
    assert sys.version.split()[0] == att.components["python"].version


def test_rpm_systems_name_the_package_and_its_licence(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the bundle is built on Fedora/RHEL, `rpm -qf` names the package and its SPDX License tag."""
    lib = tmp_path / "lib64" / "libxcb-cursor.so.0"
    lib.parent.mkdir()
    lib.write_bytes(b"\x7fELF")
    licence = tmp_path / "share" / "licenses" / "xcb-util-cursor" / "COPYING"
    licence.parent.mkdir(parents=True)
    licence.write_text("Permission is hereby granted, free of charge", encoding="utf-8")
    fake = tmp_path / "bin" / "rpm"
    fake.parent.mkdir()
    fake.write_text("#!/bin/sh\n"
                    f'if [ "$1" = -qf ] && [ "$4" = "{lib}" ]; then printf "xcb-util-cursor\\t0.1.5-1.fc41\\tMIT\\n";'
                    " exit 0; fi\n"
                    f'if [ "$1" = -qL ]; then echo "{licence}"; exit 0; fi\n'
                    "exit 1\n", encoding="utf-8")
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{fake.parent}:/usr/bin:/bin")
    att = notices.Attributor(dpkg=False)
    used = notices.collect([("libxcb-cursor.so.0", str(lib), "BINARY")], att)
    (comp,) = used.values()
    assert (comp.name, comp.version, comp.licence, comp.origin) == ("xcb-util-cursor", "0.1.5-1.fc41", "MIT",
                                                                     "RPM package")
    assert comp.licence_files == [licence]
    assert notices.problems(used) == []
    stray = tmp_path / "lib64" / "libother.so"
    stray.write_bytes(b"")
    assert notices.problems(notices.collect([("libother.so", str(stray), "BINARY")], att))  # rpm knows nothing

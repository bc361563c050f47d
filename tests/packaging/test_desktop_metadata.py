"""The .desktop entry, AppStream metainfo and plan MIME type: well-formed, consistent, valid per the tools."""

from __future__ import annotations

import configparser
import fnmatch
import shutil
import subprocess
import xml.etree.ElementTree as ET

import pytest

from tests.packaging.conftest import DESKTOP_ID, PACKAGING, PLAN_MIME

DESKTOP = PACKAGING / f"{DESKTOP_ID}.desktop"
METAINFO = PACKAGING / f"{DESKTOP_ID}.metainfo.xml"
MIME = PACKAGING / f"{DESKTOP_ID}.mime.xml"
MIME_NS = "{http://www.freedesktop.org/standards/shared-mime-info}"


def _desktop_entry() -> configparser.SectionProxy:
    parser = configparser.ConfigParser(interpolation=None, strict=True)
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # keys are case-sensitive
    parser.read_string(DESKTOP.read_text(encoding="utf-8"))
    return parser["Desktop Entry"]


def test_desktop_entry_opens_plans_with_the_app_icon() -> None:
    entry = _desktop_entry()
    assert entry["Type"] == "Application"
    assert entry["Icon"] == DESKTOP_ID
    assert entry["Exec"].split() == ["gpu-procure", "%f"]  # %f: a double-clicked plan reaches the app
    assert PLAN_MIME in entry["MimeType"].rstrip(";").split(";")
    assert entry["Name[zh_CN]"] and entry["Comment[zh_CN]"]


def test_metainfo_names_the_same_app_and_file_type() -> None:
    root = ET.parse(METAINFO).getroot()
    assert root.tag == "component" and root.get("type") == "desktop-application"
    assert root.findtext("id") == DESKTOP_ID
    assert root.findtext("launchable") == f"{DESKTOP_ID}.desktop"
    assert root.findtext("icon") == DESKTOP_ID
    assert [m.text for m in root.iter("mediatype")] == [PLAN_MIME]
    assert [b.text for b in root.iter("binary")] == ["gpu-procure"]
    from procurement import __version__

    assert root.find("releases/release").get("version") == __version__  # type: ignore[union-attr]


def test_mime_type_matches_plan_files_only() -> None:
    root = ET.parse(MIME).getroot()
    (mime,) = root.findall(f"{MIME_NS}mime-type")
    assert mime.get("type") == PLAN_MIME
    globs = [g.get("pattern") or "" for g in mime.findall(f"{MIME_NS}glob")]
    assert globs == ["*.gpuplan", "*.gpuplan.yaml"]  # the single extension Windows/macOS need, and 0.1.0's
    # Above the default weight 50 that the system's *.yaml glob has.
    assert int(mime.find(f"{MIME_NS}glob").get("weight", "50")) > 50  # type: ignore[union-attr]
    assert fnmatch.fnmatch("h100 集群.gpuplan", globs[0]) and fnmatch.fnmatch("h100 集群.gpuplan.yaml", globs[1])
    assert not any(fnmatch.fnmatch("default.yaml", g) for g in globs)
    assert mime.find(f"{MIME_NS}icon").get("name") == DESKTOP_ID  # type: ignore[union-attr]


def test_ids_agree_across_the_code() -> None:
    import make_icons

    from gui.icon import DESKTOP_ID as gui_id

    assert gui_id == make_icons.DESKTOP_ID == DESKTOP_ID
    assert make_icons.SVG.is_file()


@pytest.mark.parametrize(("tool", "args", "path"), [
    ("desktop-file-validate", [], DESKTOP),
    ("appstreamcli", ["validate", "--no-net"], METAINFO),
    ("xmllint", ["--noout"], MIME),
])
def test_freedesktop_validators_accept_the_files(tool: str, args: list[str], path: object) -> None:
    if shutil.which(tool) is None:
        pytest.skip(f"{tool} is not installed (apt-get install desktop-file-utils appstream libxml2-utils)")
    proc = subprocess.run([tool, *args, str(path)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stdout + proc.stderr

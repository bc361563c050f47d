"""Licence, version and project metadata agree across LICENSE, pyproject.toml, the metainfo and CHANGELOG."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from procurement import __version__
from tests.packaging.conftest import DESKTOP_ID, PACKAGING

REPO = PACKAGING.parent
METAINFO = PACKAGING / f"{DESKTOP_ID}.metainfo.xml"
SPDX = "Apache-2.0"


def _pyproject() -> str:
    return (REPO / "pyproject.toml").read_text(encoding="utf-8")


def test_licence_is_apache_everywhere() -> None:
    text = (REPO / "LICENSE").read_text(encoding="utf-8")
    assert "Apache License" in text and "Version 2.0, January 2004" in text
    assert "TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION" in text
    assert f'license = "{SPDX}"' in _pyproject()
    assert 'license-files = ["LICENSE"]' in _pyproject()
    assert ET.parse(METAINFO).getroot().findtext("project_license") == SPDX
    assert "Proprietary" not in _pyproject() and "proprietary" not in METAINFO.read_text(encoding="utf-8")


def test_one_version_source() -> None:
    project = _pyproject().split("[project]", 1)[1].split("\n[", 1)[0]
    assert not re.search(r"^version\s*=", project, re.M), "the version is written only in procurement/__init__.py"
    assert 'dynamic = ["version"]' in project
    assert 'version = { attr = "procurement.__version__" }' in _pyproject()
    import gpu_procure

    assert gpu_procure.__version__ == __version__
    releases = ET.parse(METAINFO).getroot().findall("releases/release")
    assert releases[0].get("version") == __version__
    changelog = (REPO / "CHANGELOG.md").read_text(encoding="utf-8")
    assert re.search(rf"^## \[{re.escape(__version__)}\] - \d{{4}}-\d\d-\d\d$", changelog, re.M)


def test_metainfo_has_homepage_developer_and_screenshots_that_exist() -> None:
    root = ET.parse(METAINFO).getroot()
    urls = {u.get("type"): u.text for u in root.findall("url")}
    assert urls["homepage"] == "https://github.com/gpuprocure/gpu-procure"
    assert f'Homepage = "{urls["homepage"]}"' in _pyproject()
    # AppStream: an io.github.NAME id must be hosted at github.com/NAME.
    assert DESKTOP_ID.lower().startswith("io.github." + urls["homepage"].split("/")[3])
    assert root.findtext("developer/name")
    images = [i.text or "" for i in root.iter("image")]
    assert len(images) >= 3
    for url in images:
        name = url.rsplit("/docs/screenshots/", 1)[1]
        assert (REPO / "docs" / "screenshots" / name).is_file(), url
    assert [s.get("type") for s in root.iter("screenshot")].count("default") == 1

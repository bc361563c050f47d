"""QSettings uses an organisation domain that matches the app id; the Linux settings file stays where it was."""

from __future__ import annotations

import sys

from PySide6.QtCore import QCoreApplication, QSettings

from gui.app import make_app
from gui.icon import DESKTOP_ID
from gui.settings import ORGANIZATION_DOMAIN, Settings


def test_organisation_domain_is_the_app_ids_prefix_reversed() -> None:
    assert ".".join(reversed(ORGANIZATION_DOMAIN.split("."))) == DESKTOP_ID.rsplit(".", 1)[0]
    make_app()
    assert QCoreApplication.organizationDomain() == ORGANIZATION_DOMAIN
    assert QCoreApplication.organizationName() == QCoreApplication.applicationName() == "gpu-procure"


def test_default_settings_use_the_app_identity() -> None:
    QCoreApplication.setOrganizationDomain("")
    settings = Settings()
    store: QSettings = settings._s
    assert store.organizationName() == "gpu-procure" and store.applicationName() == "gpu-procure"
    assert QCoreApplication.organizationDomain() == ORGANIZATION_DOMAIN
    if sys.platform.startswith("linux"):
        assert store.fileName().endswith("/gpu-procure/gpu-procure.conf")

"""Settings: the few things the app remembers between runs (geometry, language, recent files), typed."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import QByteArray, QCoreApplication, QSettings

from procurement.messages import languages

MAX_RECENT = 8
ORGANIZATION = "gpu-procure"
APPLICATION = "gpu-procure"
ORGANIZATION_DOMAIN = "gpuprocure.github.io"
"""The reverse of the app id's prefix (io.github.gpuprocure.GpuProcure): macOS names the settings file
io.github.gpuprocure.gpu-procure.plist from it. Linux (~/.config/gpu-procure/gpu-procure.conf) and Windows
(HKCU\\Software\\gpu-procure\\gpu-procure) use the organisation name, as 0.1.0 did, so settings carry over."""


def set_identity() -> None:
    """The names QSettings and Qt's platform code read; static, so this works before the QApplication exists."""
    QCoreApplication.setOrganizationName(ORGANIZATION)
    QCoreApplication.setOrganizationDomain(ORGANIZATION_DOMAIN)
    QCoreApplication.setApplicationName(APPLICATION)


class Settings:
    """A small typed view over QSettings; pass a QSettings (e.g. an INI file in a temp dir) in tests."""

    def __init__(self, store: QSettings | None = None) -> None:
        if store is None:
            set_identity()
            store = QSettings()  # the platform's place for the app identity above
        self._s = store

    def sync(self) -> None:
        self._s.sync()

    # -- window
    @property
    def geometry(self) -> QByteArray | None:
        value = self._s.value("window/geometry")
        return value if isinstance(value, QByteArray) and not value.isEmpty() else None

    @geometry.setter
    def geometry(self, value: QByteArray) -> None:
        self._s.setValue("window/geometry", value)

    @property
    def window_state(self) -> QByteArray | None:
        value = self._s.value("window/state")
        return value if isinstance(value, QByteArray) and not value.isEmpty() else None

    @window_state.setter
    def window_state(self, value: QByteArray) -> None:
        self._s.setValue("window/state", value)

    # -- language: None = follow the system locale
    @property
    def language(self) -> str | None:
        value = self._s.value("ui/language")
        return value if isinstance(value, str) and value in languages() else None

    @language.setter
    def language(self, value: str | None) -> None:
        if value is None:
            self._s.remove("ui/language")
        elif value in languages():
            self._s.setValue("ui/language", value)
        else:
            raise ValueError(f"unknown language {value!r}")

    # -- files
    @property
    def recent_files(self) -> list[Path]:
        value = self._s.value("files/recent")
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list):
            return []
        return [Path(v) for v in value if isinstance(v, str) and v][:MAX_RECENT]

    def add_recent(self, path: Path) -> None:
        path = _resolved(path)
        items = [p for p in self.recent_files if p != path]
        self._s.setValue("files/recent", [str(p) for p in [path, *items][:MAX_RECENT]])

    def remove_recent(self, path: Path) -> None:
        self._s.setValue("files/recent", [str(p) for p in self.recent_files if p != _resolved(path)])

    def clear_recent(self) -> None:
        self._s.setValue("files/recent", [])

    @property
    def last_dir(self) -> Path | None:
        value = self._s.value("files/last_dir")
        return Path(value) if isinstance(value, str) and value else None

    @last_dir.setter
    def last_dir(self, value: Path) -> None:
        self._s.setValue("files/last_dir", str(value))

    # -- vendor quotes: each vendor's column mapping (field -> header text), remembered for its next file
    @property
    def vendor_mappings(self) -> dict[str, dict[str, str]]:
        value = self._s.value("import/vendor_mappings")
        try:
            data = json.loads(value) if isinstance(value, str) else {}
        except ValueError:
            return {}
        if not isinstance(data, dict):
            return {}
        return {str(v): {str(f): str(h) for f, h in m.items()} for v, m in data.items() if isinstance(m, dict)}

    def set_vendor_mapping(self, vendor: str, mapping: dict[str, str]) -> None:
        data = self.vendor_mappings
        data[vendor] = dict(mapping)
        self._s.setValue("import/vendor_mappings", json.dumps(data, ensure_ascii=False, sort_keys=True))

    # -- sign-offs: the organisation's ssh-keygen allowed-signers file (SSH signatures are checked against it)
    @property
    def allowed_signers(self) -> Path | None:
        value = self._s.value("signoff/allowed_signers")
        return Path(value) if isinstance(value, str) and value else None

    @allowed_signers.setter
    def allowed_signers(self, value: Path | None) -> None:
        if value is None:
            self._s.remove("signoff/allowed_signers")
        else:
            self._s.setValue("signoff/allowed_signers", str(value))


def _resolved(path: Path) -> Path:
    """``path`` with symlinks resolved; a looping symlink (resolve raises) stays as given, made absolute."""
    try:
        return Path(path).resolve()
    except (OSError, RuntimeError):
        return Path(path).absolute()

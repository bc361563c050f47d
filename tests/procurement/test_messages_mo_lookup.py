"""language_name() finds the language's own name in its compiled catalogue without parsing it whole (the
window names every language in its menu before the first paint): the lookup agrees with gettext on every
entry, and anything it cannot read falls back to the whole catalogue."""

from __future__ import annotations

import gettext
from pathlib import Path

from procurement import messages
from procurement.messages import language_name, locale_dirs, mo_lookup


def _zh_mo() -> Path:
    return next(d / "zh" / "LC_MESSAGES" / "messages.mo" for d in locale_dirs()
                if (d / "zh" / "LC_MESSAGES" / "messages.mo").is_file())


def test_the_lookup_agrees_with_gettext_on_every_entry() -> None:
    mo = _zh_mo()
    with mo.open("rb") as fp:
        catalogue = gettext.GNUTranslations(fp)._catalog  # type: ignore[attr-defined]
    keys = [k for k in catalogue if isinstance(k, str) and k]
    assert len(keys) > 1000
    assert all(mo_lookup(mo, k) == catalogue[k] for k in keys)
    assert mo_lookup(mo, "no such key\x04nothing") is None


def test_language_name_reads_one_entry_and_falls_back_on_a_damaged_file(tmp_path: Path, monkeypatch) -> None:
    messages.reload_catalogues()
    assert language_name("zh") == "中文"
    assert "zh" not in messages._CATALOGUES  # the 3,000-entry catalogue was not parsed for one name
    assert language_name("en") == "English"
    damaged = tmp_path / "x.mo"
    damaged.write_bytes(b"\x00" * 10)
    assert mo_lookup(damaged, "language.name\x04English") is None
    assert mo_lookup(tmp_path / "missing.mo", "language.name\x04English") is None
    messages.reload_catalogues()

"""A user catalog directory: company parts and negotiated prices on top of the shipped catalog."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

import pytest

from catalog.loader import CatalogError, load_catalog, shipped_data_dir
from procurement.commands.cli import main

COMPANY_NIC = """\
# Parts our purchasing department buys that the shipped catalog lacks.
nics:
  - id: acme-x710-2x10g
    name: Intel X710-DA2 (company standard)
    vendor: Intel
    speed_gbps: 10
    ports: 2
    fabric: ethernet
    pcie_gen: 3
    pcie_lanes: 8
    source: "company hardware standard HW-STD-2024-07"
"""

PRICES = """\
prices:
  - id: h100-sxm5-80gb
    price_cny: 235000
    price_date: 2024-06-01
    price_source: "framework contract RK-2024-118"
  - id: acme-x710-2x10g
    price_cny: 1350
    price_date: 2024-06-01
    price_source: "framework contract RK-2024-118"
"""


@pytest.fixture
def overlay(tmp_path: Path) -> Path:
    d = tmp_path / "company"
    d.mkdir()
    (d / "parts.yaml").write_text(COMPANY_NIC, encoding="utf-8")
    (d / "prices.yaml").write_text(PRICES, encoding="utf-8")
    return d


def test_an_overlay_adds_parts_and_overrides_prices(overlay: Path) -> None:
    shipped = load_catalog()
    cat = load_catalog([overlay])
    assert len(cat) == len(shipped) + 1
    nic = cat.get("nic", "acme-x710-2x10g")
    assert nic is not None and nic.price_cny == 1350
    h100 = cat.gpu("h100-sxm5-80gb")
    assert h100 is not None
    assert (h100.price_cny, h100.price_date, h100.price_source) == (
        235000, dt.date(2024, 6, 1), "framework contract RK-2024-118")
    # everything but the price is the shipped part
    assert h100.price_kind == "company price list"
    price_fields = {"price_cny", "price_date", "price_source", "price_kind", "price_includes_vat"}
    assert h100.model_dump(exclude=price_fields) == \
        shipped.gpu("h100-sxm5-80gb").model_dump(exclude=price_fields)  # type: ignore[union-attr]
    (report,) = cat.overlays
    assert report.added == ["nic acme-x710-2x10g"]
    assert report.replaced == []
    assert report.prices == ["gpu h100-sxm5-80gb: None -> 235000.0 CNY", "nic acme-x710-2x10g: None -> 1350.0 CNY"]
    # the shipped files are untouched
    assert load_catalog().gpu("h100-sxm5-80gb").price_cny is None  # type: ignore[union-attr]


def test_catalog_check_prints_what_the_directory_adds_and_overrides(
        overlay: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["catalog", "check", str(overlay)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == [
        f"{overlay}: 1 added, 0 replaced, 2 price overrides",
        "  + nic acme-x710-2x10g",
        "  ¥ gpu h100-sxm5-80gb: None -> 235000.0 CNY",
        "  ¥ nic acme-x710-2x10g: None -> 1350.0 CNY",
    ]


def test_an_overlay_part_with_a_shipped_id_replaces_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    d = tmp_path / "site"
    d.mkdir()
    (d / "psus.yaml").write_text("""\
psus:
  - id: corsair-hx1500i
    name: Corsair HX1500i (measured at our site)
    vendor: Corsair
    rated_w_high_line: 1500
    rated_w_low_line: 1500
    efficiency: 80 PLUS Platinum
    source: "lab measurement LM-2024-03"
""", encoding="utf-8")
    cat = load_catalog([d])
    assert cat.get("psu", "corsair-hx1500i").rated_w_low_line == 1500  # type: ignore[union-attr]
    assert cat.overlays[0].replaced == ["psu corsair-hx1500i"]
    assert main(["catalog", "check", str(d)]) == 0
    assert "  ~ psu corsair-hx1500i" in capsys.readouterr().out.splitlines()


def test_an_unknown_id_in_prices_is_an_error(overlay: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (overlay / "prices.yaml").write_text(PRICES + "  - id: h100-sxm9\n    price_cny: 1\n", encoding="utf-8")
    with pytest.raises(CatalogError) as err:
        load_catalog([overlay])
    where = overlay / "prices.yaml"
    line = (PRICES.count("\n")) + 1
    assert err.value.problems == [
        f"{where}:{line}: prices: unknown part id 'h100-sxm9' (not in the shipped catalog or this directory)"]
    assert main(["catalog", "check", str(overlay)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.splitlines() == err.value.problems


def test_a_bad_price_names_the_entry_and_field(overlay: Path) -> None:
    (overlay / "prices.yaml").write_text(PRICES.replace("price_cny: 235000", "price_cny: -5"), encoding="utf-8")
    with pytest.raises(CatalogError) as err:
        load_catalog([overlay])
    assert err.value.problems == [f"{overlay / 'prices.yaml'}:3: price #1: price_cny: "
                                  f"Input should be greater than or equal to 0"]


def test_the_same_part_twice_in_one_directory_is_a_duplicate(overlay: Path) -> None:
    (overlay / "more.yaml").write_text(COMPANY_NIC, encoding="utf-8")
    with pytest.raises(CatalogError) as err:
        load_catalog([overlay])
    assert err.value.problems == [f"{overlay / 'parts.yaml'}:3: nic 'acme-x710-2x10g': duplicate id "
                                  f"(first defined at {overlay / 'more.yaml'}:3)"]


def test_overlay_parts_are_cross_checked(tmp_path: Path) -> None:
    d = tmp_path / "c"
    d.mkdir()
    (d / "chassis.yaml").write_text("""\
chassis:
  - id: acme-tower
    name: ACME tower
    vendor: ACME
    form: tower
    cpu_socket: LGA1700
    cpu_sockets: 1
    gpu_form_factor: pcie
    gpu_slots: 2
    passive_gpu_ready: false
    cooling: air
    psu_bays: 1
    psu_included: acme-psu-9000
    psu_included_count: 1
    memory_type: DDR5
    source: "ACME datasheet"
""", encoding="utf-8")
    with pytest.raises(CatalogError) as err:
        load_catalog([d])
    assert err.value.problems == [f"{d / 'chassis.yaml'}:13: chassis 'acme-tower': psu_included: "
                                  f"unknown psu 'acme-psu-9000'"]


def test_a_missing_directory_is_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "nope"
    assert main(["catalog", "check", str(missing)]) == 1
    assert capsys.readouterr().err.strip() == f"{missing}: user catalog directory does not exist"


def test_prices_are_only_for_overlays(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the shipped catalog's prices live on the parts, with their sources; a prices: section there is a mistake
    data = tmp_path / "data"
    shutil.copytree(shipped_data_dir(), data)
    (data / "zz.yaml").write_text(PRICES, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(CatalogError) as err:
        load_catalog(data_dir=data)
    (problem,) = err.value.problems
    assert problem.startswith("data/zz.yaml:1: unknown section 'prices' (known: ")

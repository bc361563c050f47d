"""Parsing every real `nvidia-smi -q -x` capture (DTD v11, v12, v13) and the awkward values they hold."""

from __future__ import annotations

import pytest

from procurement.verify.parse.smi_xml import SmiParseError, clean, flag, integer, number, parse_smi_xml
from tests.procurement.verify.conftest import A100_MIG_XML, FIX, H100_XML, P4_VGPU_XML, T4_XML


def test_every_xml_fixture_is_covered_here() -> None:
    assert {p.name for p in FIX.glob("*.xml")} == {
        H100_XML.name,
        A100_MIG_XML.name,
        T4_XML.name,
        P4_VGPU_XML.name,
    }


def test_h100_v13_eight_gpus() -> None:
    r = parse_smi_xml(H100_XML.read_bytes())
    assert (r.driver_version, r.cuda_version, r.attached_gpus) == ("580.105.08", "13.0", 8)
    assert len(r.gpus) == 8
    assert [g.index for g in r.gpus] == list(range(8))
    assert {g.name for g in r.gpus} == {"NVIDIA H100 80GB HBM3"}
    assert [g.bus_id for g in r.gpus] == [
        f"00000000:{b}:00.0" for b in ("53", "64", "75", "86", "97", "A8", "B9", "CA")
    ]
    assert [g.serial for g in r.gpus] == [f"165000000000{i}" for i in range(1, 9)]
    assert r.gpus[3].uuid == "GPU-00000003-0000-0000-0000-000000000003"
    assert [g.temperature_c for g in r.gpus] == [29, 30, 29, 32, 32, 29, 31, 29]
    for g in r.gpus:
        assert g.memory_total_mib == 81559
        assert (g.pcie_gen_current, g.pcie_gen_max, g.pcie_width_current, g.pcie_width_max) == (5, 5, 16, 16)
        assert (g.power_limit_w, g.default_power_limit_w, g.max_power_limit_w) == (700.0, 700.0, 700.0)
        assert g.persistence_mode is True
        assert (g.ecc_enabled, g.ecc_pending) == (True, True)
        assert (g.mig_mode, g.mig_pending) == (False, False)
        assert g.mig_devices == []
        # v13 prints retired pages as N/A and has remapped rows instead
        assert (g.retired_pending, g.remapped_pending, g.remapped_failure) == (None, False, False)
        assert g.ecc_uncorrectable_aggregate == 0
        assert g.architecture == "Hopper"
    assert r.gpus[0].power_draw_w == 68.92  # instant_power_draw, v13 name


def test_a100_mig_v12() -> None:
    r = parse_smi_xml(A100_MIG_XML.read_bytes())
    assert (r.driver_version, r.cuda_version, r.attached_gpus) == ("535.54.03", "12.2", 4)
    assert len(r.gpus) == 1  # trimmed upstream: 4 attached, one <gpu> block
    g = r.gpus[0]
    assert g.name == "NVIDIA A100-SXM4-80GB"
    assert g.serial == "1650522003820"
    assert g.uuid == "GPU-513536b6-7d19-9063-b049-1e69664bb298"
    assert g.memory_total_mib == 81920
    assert (g.pcie_gen_current, g.pcie_gen_max, g.pcie_width_current, g.pcie_width_max) == (4, 4, 16, 16)
    assert (g.power_limit_w, g.default_power_limit_w) == (500.0, 500.0)
    assert g.persistence_mode is False
    assert g.ecc_enabled is True
    assert (g.mig_mode, g.mig_pending) == (True, True)
    assert [(m.index, m.gpu_instance_id, m.memory_total_mib) for m in g.mig_devices] == [
        (0, 3, 19968),
        (1, 4, 19968),
        (2, 5, 19968),
        (3, 6, 19968),
    ]
    assert g.utilization_pct is None  # N/A under MIG
    assert g.temperature_c == 27
    assert g.power_draw_w == 67.03  # v12 <power_draw>


def test_t4_v11_pcie_x8() -> None:
    r = parse_smi_xml(T4_XML.read_bytes())
    assert (r.driver_version, r.cuda_version, r.attached_gpus) == ("515.105.01", "11.7", 1)
    g = r.gpus[0]
    assert g.name == "Tesla T4"
    assert g.uuid == "GPU-d37e67a5-91dd-3774-a5cb-99096249601a"
    assert g.memory_total_mib == 15360
    assert (g.pcie_gen_current, g.pcie_gen_max) == (3, 3)
    assert (g.pcie_width_current, g.pcie_width_max) == (8, 16)
    # v11 <power_readings>: enforced_power_limit is what the GPU obeys
    assert (g.power_limit_w, g.default_power_limit_w, g.max_power_limit_w) == (70.0, 70.0, 70.0)
    assert g.power_draw_w == 26.78
    assert g.persistence_mode is False
    assert g.ecc_enabled is True
    assert g.mig_mode is None  # N/A: Turing has no MIG
    assert (g.retired_pending, g.retired_pages) == (False, 0)
    assert g.remapped_pending is None  # <remapped_rows>N/A</remapped_rows>
    assert g.temperature_c == 40


def test_grid_vgpu_windows_almost_everything_na() -> None:
    r = parse_smi_xml(P4_VGPU_XML.read_bytes())
    assert (r.driver_version, r.cuda_version, r.attached_gpus) == ("513.46", "11.6", 1)
    g = r.gpus[0]
    assert g.name == "GRID P4-1Q"
    assert g.serial is None
    assert g.memory_total_mib == 1024
    assert (g.pcie_gen_current, g.pcie_gen_max, g.pcie_width_current, g.pcie_width_max) == (None,) * 4
    assert (g.power_limit_w, g.default_power_limit_w) == (None, None)
    assert (g.persistence_mode, g.ecc_enabled, g.mig_mode) == (None, None, None)
    assert g.ecc_uncorrectable_aggregate is None  # old single_bit/double_bit layout, all N/A
    assert g.virtualization_mode == "VGPU"
    assert g.temperature_c == 0


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("N/A", None),
        ("[N/A]", None),
        ("[Not Supported]", None),
        ("[Unknown Error]", None),
        ("[Insufficient Permissions]", None),
        ("Requested functionality has been deprecated", None),
        ("  Tesla  T4 ", "Tesla T4"),
        (None, None),
        ("", None),
    ],
)
def test_clean(raw: str | None, expected: str | None) -> None:
    assert clean(raw) == expected


def test_units_inside_values() -> None:
    assert integer("81559 MiB") == 81559
    assert number("700.00 W") == 700.0
    assert integer("16x") == 16
    assert integer("29 C") == 29
    assert integer("-8 C") == -8
    assert number("[Not Supported]") is None
    assert number("garbage") is None
    assert (flag("Enabled"), flag("Disabled"), flag("Yes"), flag("No"), flag("N/A")) == (
        True,
        False,
        True,
        False,
        None,
    )


def test_missing_elements_become_none() -> None:
    r = parse_smi_xml(
        '<?xml version="1.0" ?><nvidia_smi_log><gpu id="00000000:01:00.0">'
        "<product_name>NVIDIA L40S</product_name></gpu></nvidia_smi_log>"
    )
    g = r.gpus[0]
    assert (r.driver_version, r.cuda_version, r.attached_gpus) == (None, None, None)
    assert (g.name, g.bus_id, g.memory_total_mib, g.pcie_width_max, g.power_limit_w) == (
        "NVIDIA L40S",
        "00000000:01:00.0",
        None,
        None,
        None,
    )


def test_newer_driver_names_and_deprecation_suffix() -> None:
    # 610-series drivers call the driver the KMD and mark the old field deprecated (see the 610 -q capture)
    r = parse_smi_xml(
        "<nvidia_smi_log><driver_version>610.57.04 [Deprecated; will be removed in CUDA 14.0. "
        "Use KMD Version instead]</driver_version><cuda_umd_version>13.3</cuda_umd_version>"
        "</nvidia_smi_log>"
    )
    assert (r.driver_version, r.cuda_version, r.gpus) == ("610.57.04", "13.3", [])
    r = parse_smi_xml("<nvidia_smi_log><kmd_version>610.57.04</kmd_version></nvidia_smi_log>")
    assert r.driver_version == "610.57.04"


@pytest.mark.parametrize(
    "text",
    [
        "",
        "No devices were found\n",
        "\x00\x01\x02 binary garbage",
        H100_XML.read_text()[:5000],  # truncated mid-document
        "<html><body>not nvidia-smi</body></html>",
    ],
)
def test_garbage_and_truncation_raise(text: str) -> None:
    with pytest.raises(SmiParseError):
        parse_smi_xml(text)


def test_entity_declarations_are_refused() -> None:
    bomb = (
        '<?xml version="1.0"?><!DOCTYPE nvidia_smi_log [<!ENTITY a "aaaaaaaaaa">'
        '<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><nvidia_smi_log><timestamp>&b;</timestamp>'
        "</nvidia_smi_log>"
    )
    with pytest.raises(SmiParseError, match="entities"):
        parse_smi_xml(bomb)
    external = '<!DOCTYPE x [<!ENTITY a SYSTEM "file:///etc/passwd">]><nvidia_smi_log>&a;</nvidia_smi_log>'
    with pytest.raises(SmiParseError, match="entities"):
        parse_smi_xml(external)


def test_entities_behind_a_comment_naming_the_root_are_refused() -> None:
    """A comment holding '<nvidia_smi_log' before the DOCTYPE fooled the old text guard: the entity was
    expanded into a 1,000,000-character serial. defusedxml refuses the declaration wherever it is."""
    serial = "x" * 1_000_000
    sneaky = (
        f'<?xml version="1.0"?><!-- <nvidia_smi_log --><!DOCTYPE nvidia_smi_log [<!ENTITY s "{serial}">]>'
        '<nvidia_smi_log><gpu id="00000000:53:00.0"><serial>&s;</serial></gpu></nvidia_smi_log>'
    )
    with pytest.raises(SmiParseError, match="entities"):
        parse_smi_xml(sneaky)


def test_entities_hidden_before_a_fake_root_are_refused() -> None:
    sneaky = '<!DOCTYPE x [<!-- <nvidia_smi_log --><!ENTITY a "b">]><nvidia_smi_log>&a;</nvidia_smi_log>'
    with pytest.raises(SmiParseError):
        parse_smi_xml(sneaky)


def test_clock_tables_are_dropped_but_truncation_still_fails() -> None:
    text = H100_XML.read_text()
    cut = text.index("</supported_clocks>")
    with pytest.raises(SmiParseError):
        parse_smi_xml(text[:cut])  # an unclosed clock table is not silently removed


def test_the_real_doctype_line_is_accepted() -> None:
    text = H100_XML.read_text()
    assert '<!DOCTYPE nvidia_smi_log SYSTEM "nvsmi_device_v13.dtd">' in text
    assert len(parse_smi_xml(text).gpus) == 8

"""What a user sees when a catalog file is broken: file, line, part and field, and nothing else."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from catalog.loader import CatalogError, load_catalog, shipped_data_dir


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the shipped data at <tmp>/catalog/data, with the working directory at <tmp>."""
    target = tmp_path / "catalog" / "data"
    shutil.copytree(shipped_data_dir(), target)
    monkeypatch.chdir(tmp_path)
    return target


def _problems(data: Path) -> list[str]:
    with pytest.raises(CatalogError) as err:
        load_catalog(data_dir=data)
    assert str(err.value) == "\n".join(err.value.problems)
    return err.value.problems


def _line_of(text: str, needle: str, after: str = "") -> int:
    """1-based number of the first line equal to ``needle`` at or after the line equal to ``after``."""
    lines = text.splitlines()
    start = lines.index(after) if after else 0
    return lines.index(needle, start) + 1


def _edit(path: Path, old: str, new: str) -> str:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) >= 1, old
    text = text.replace(old, new, 1)
    path.write_text(text, encoding="utf-8")
    return text


def test_the_copy_loads(data: Path) -> None:
    assert len(load_catalog(data_dir=data)) == len(load_catalog())


def test_a_bad_value_names_file_line_part_and_field(data: Path) -> None:
    gpus = data / "gpus.yaml"
    text = gpus.read_text(encoding="utf-8")
    block = text.index("  - id: h100-sxm5-80gb\n")
    old = text[block:].index("    tdp_w: 700\n") + block
    text = text[:old] + "    tdp_w: 0\n" + text[old + len("    tdp_w: 700\n"):]
    gpus.write_text(text, encoding="utf-8")
    line = _line_of(text, "    tdp_w: 0", after="  - id: h100-sxm5-80gb")
    # one problem only: the broken part must not also show up as 'unknown gpu' in every chassis naming it
    assert _problems(data) == [
        f"catalog/data/gpus.yaml:{line}: gpu 'h100-sxm5-80gb': tdp_w: Input should be greater than 0"]


def test_a_missing_field_points_at_the_part(data: Path) -> None:
    text = _edit(data / "cpus.yaml", "    memory_channels: 12\n", "")
    part_line = _line_of(text, "  - id: epyc-9654")
    assert _problems(data) == [f"catalog/data/cpus.yaml:{part_line}: cpu 'epyc-9654': memory_channels: "
                               f"Field required"]


def test_an_unknown_field_is_named(data: Path) -> None:
    text = _edit(data / "nics.yaml", "    speed_gbps: 25\n", "    speed_gbit: 25\n")
    part = _line_of(text, "  - id: connectx-6-lx-2x25gbe")
    line = _line_of(text, "    speed_gbit: 25")
    assert _problems(data) == [
        f"catalog/data/nics.yaml:{part}: nic 'connectx-6-lx-2x25gbe': speed_gbps: Field required",
        f"catalog/data/nics.yaml:{line}: nic 'connectx-6-lx-2x25gbe': speed_gbit: unknown field (not part of "
        f"the catalog format)"]


def test_a_duplicate_id_names_both_places(data: Path) -> None:
    gpus = data / "gpus.yaml"
    text = gpus.read_text(encoding="utf-8")
    start = text.index("  - id: l4\n")
    end = text.index("\n  - id:", start + 1) + 1
    text = text.rstrip("\n") + "\n\n" + text[start:end]
    gpus.write_text(text, encoding="utf-8")
    first = _line_of(text, "  - id: l4")
    second = len(text.splitlines()) - text[start:end].count("\n") + 1
    assert _problems(data) == [f"catalog/data/gpus.yaml:{second}: gpu 'l4': duplicate id "
                               f"(first defined at catalog/data/gpus.yaml:{first})"]


def test_a_dangling_reference_names_the_field(data: Path) -> None:
    text = _edit(data / "chassis.yaml", "psu_included: supermicro-3000w", "psu_included: no-such-psu")
    line = _line_of(text, "    psu_included: no-such-psu")
    assert _problems(data) == [f"catalog/data/chassis.yaml:{line}: chassis 'supermicro-sys-821ge-tnhr': "
                               f"psu_included: unknown psu 'no-such-psu'"]


def test_an_image_naming_an_unknown_framework(data: Path) -> None:
    text = _edit(data / "images.yaml", "    framework: pytorch-2.6\n", "    framework: pytorch-9.9\n")
    line = _line_of(text, "    framework: pytorch-9.9")
    assert _problems(data) == [f"catalog/data/images.yaml:{line}: image 'ngc-pytorch-25.01': framework: "
                               f"unknown framework 'pytorch-9.9'"]


def test_an_hgx_platform_cannot_list_a_pcie_card(data: Path) -> None:
    text = _edit(data / "chassis.yaml", "    gpus_supported: [h100-sxm5-80gb]\n",
                 "    gpus_supported: [h100-sxm5-80gb, h100-pcie-80gb]\n")
    line = _line_of(text, "    gpus_supported: [h100-sxm5-80gb, h100-pcie-80gb]")
    assert _problems(data) == [f"catalog/data/chassis.yaml:{line}: chassis 'nvidia-dgx-h100': gpus_supported: "
                               f"'h100-pcie-80gb' is pcie, the chassis takes sxm"]


def test_malformed_yaml_gives_file_and_line(data: Path) -> None:
    text = _edit(data / "psus.yaml", "    rated_w_high_line: 1500\n", "    rated_w_high_line: 1500\n   oops: 1\n")
    line = _line_of(text, "   oops: 1")
    assert _problems(data) == [f"catalog/data/psus.yaml:{line}: not valid YAML: did not find expected '-' "
                               f"indicator"]


def test_an_unclosed_bracket_is_reported_where_the_parser_gives_up(data: Path) -> None:
    text = _edit(data / "psus.yaml", "    rated_w_high_line: 1500\n", "    rated_w_high_line: [1500\n")
    # libyaml notices the missing ']' at the next token, on the following line
    line = _line_of(text, "    rated_w_high_line: [1500") + 1
    assert _problems(data) == [f"catalog/data/psus.yaml:{line}: not valid YAML: did not find expected ',' or ']'"]


def test_a_python_tag_is_refused_not_run(data: Path, tmp_path: Path) -> None:
    marker = tmp_path / "pwned"
    text = _edit(data / "gpus.yaml", "    tdp_w: 450\n",
                 f"    tdp_w: !!python/object/apply:os.system ['touch {marker}']\n")
    line = _line_of(text, f"    tdp_w: !!python/object/apply:os.system ['touch {marker}']")
    assert _problems(data) == [f"catalog/data/gpus.yaml:{line}: tag '!!python/object/apply:os.system' is not "
                               f"allowed (only plain YAML data is read)"]
    assert not marker.exists()


def test_an_unknown_section_lists_the_known_ones(data: Path) -> None:
    (data / "extra.yaml").write_text("# company parts\n\ngpuz:\n  - id: x\n", encoding="utf-8")
    (problem,) = _problems(data)
    assert problem.startswith("catalog/data/extra.yaml:3: unknown section 'gpuz' (known: chassis, cpus, cuda,")


def test_a_file_that_is_not_utf8(data: Path) -> None:
    raw = "gpus:\n  - id: caf\xe9\n".encode("latin-1")
    (data / "zz.yaml").write_bytes(raw)
    assert _problems(data) == [f"catalog/data/zz.yaml: not UTF-8 text (byte {raw.index(0xE9)})"]


def test_every_problem_is_reported_at_once(data: Path) -> None:
    _edit(data / "gpus.yaml", "    tdp_w: 450\n", "    tdp_w: -450\n")
    _edit(data / "cpus.yaml", "    cores: 32\n", "    cores: lots\n")
    problems = _problems(data)
    assert [p.split(": ", 2)[1] for p in problems] == ["cpu 'epyc-7543'", "gpu 'rtx-4090'"]


def test_an_impossible_date_is_a_located_error_not_a_crash(data: Path) -> None:
    # PyYAML raises a bare ValueError for 2023-12-32; it must still come out as file:line
    text = _edit(data / "gpus.yaml", "    price_date: 2023-12-28\n", "    price_date: 2023-12-32\n")
    line = _line_of(text, "    price_date: 2023-12-32")
    assert _problems(data) == [f"catalog/data/gpus.yaml:{line}: not valid YAML: '2023-12-32' is not a valid "
                               f"date or time (day is out of range for month)"]

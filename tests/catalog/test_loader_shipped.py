"""The shipped catalog: every file loads, the minimums of issue #2 are met and the data is consistent."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from pydantic import ValidationError

from catalog.loader import Catalog, shipped_data_dir
from catalog.models import (
    SECTION_TO_KIND,
    Chassis,
    ContainerImage,
    CudaRelease,
    DriverBranch,
    Framework,
    Gpu,
    GpuFormFactor,
    MemoryModule,
    OperatingSystem,
    parse_version,
)
from catalog.yamlsource import read_yaml
from tests.conftest import NVIDIA_SMI_FIXTURES

DATA = shipped_data_dir()
FILES = sorted(DATA.glob("*.yaml"))


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_shipped_file_is_one_section_of_valid_parts(path: Path, catalog: Catalog) -> None:
    data, _ = read_yaml(path)
    assert isinstance(data, dict) and len(data) == 1, f"{path.name}: one section per file"
    (section, items), = data.items()
    assert path.stem == section, f"{path.name} holds section '{section}'"
    kind = SECTION_TO_KIND[section]
    assert items, f"{path.name} is empty"
    # every entry of the file made it into the catalog (nothing silently dropped)
    assert {item["id"] for item in items} <= set(catalog.parts[kind])
    assert catalog.origin[(kind, items[0]["id"])].endswith(f"catalog/data/{path.name}")


def test_one_file_per_section() -> None:
    assert sorted(p.stem for p in FILES) == sorted(SECTION_TO_KIND)


def test_counts_meet_the_minimums(catalog: Catalog) -> None:
    minimums = {"gpu": 25, "cpu": 15, "chassis": 8, "image": 10, "psu": 8, "nic": 6, "storage": 6}
    for kind, least in minimums.items():
        assert len(catalog.parts[kind]) >= least, kind


def test_the_china_variants_are_there_and_marked(catalog: Catalog) -> None:
    for gid in ("rtx-4090-d", "h20-96gb", "l20", "a800-pcie-80gb", "h800-sxm5-80gb", "h800-pcie-80gb"):
        gpu = catalog.gpu(gid)
        assert gpu is not None and gpu.market == "china" and gpu.export_note, gid
    # the global parts they replace carry the export note that sends a China buyer to them
    assert "4090 D" in catalog.gpu("rtx-4090").export_note  # type: ignore[union-attr]


def test_export_notes_are_given_in_both_languages(catalog: Catalog) -> None:
    cjk = re.compile(r"[\u4e00-\u9fff]")
    for gpu in catalog.all(Gpu):
        assert bool(gpu.export_note) == bool(gpu.export_note_zh), gpu.id
        if gpu.export_note:
            assert cjk.search(gpu.export_note_zh) and not cjk.search(gpu.export_note), gpu.id
            assert "docs/sources.md" not in gpu.export_note + gpu.export_note_zh, gpu.id  # sources stay in `source`
    assert "4090 D" in catalog.gpu("rtx-4090").export_note_zh  # type: ignore[union-attr]


def test_mig_and_ecc_are_sourced_or_unknown(catalog: Catalog) -> None:
    def gpu(gid: str) -> Gpu:
        g = catalog.gpu(gid)
        assert g is not None
        return g

    # NVIDIA's MIG user guide list: A30 4; A100, H100 (incl. the 94 GB NVL), H20, H200, B200 7
    assert gpu("a30").mig_max == 4
    for gid in ("a100-pcie-40gb", "a100-sxm4-80gb", "h100-sxm5-80gb", "h100-nvl-94gb", "h20-96gb", "b200"):
        assert gpu(gid).mig_max == 7, gid
    # China variants of the same silicon are not in that list and no datasheet was found: unknown, not "no"
    for gid in ("a800-pcie-80gb", "h800-sxm5-80gb", "h800-pcie-80gb"):
        assert gpu(gid).mig_max is None, gid
    assert gpu("rtx-4090").mig_max == 0 and gpu("t4").mig_max == 0  # not listed / compute capability 7.5
    # ECC: every data-centre GPU but the L4 (no source found) has a sourced value; GeForce stays unknown
    assert {g.id for g in catalog.all(Gpu) if g.segment == "datacenter" and g.ecc is None} == {"l4"}
    assert gpu("a100-pcie-40gb").ecc and gpu("h100-sxm5-80gb").ecc
    assert gpu("rtx-4090").ecc is None and gpu("rtx-2080-super").ecc is False


def test_psu_forms_and_low_line(catalog: Catalog) -> None:
    from catalog.models import Psu

    psus = {p.id: p for p in catalog.all(Psu)}
    assert all(p.form in ("atx", "server") for p in psus.values())
    assert psus["corsair-hx1500i"].form == "atx" and psus["supermicro-2000w-titanium"].form == "server"
    # a chassis shipping its PSUs takes that PSU's form
    for ch in catalog.all(Chassis):
        if ch.psu_included:
            assert ch.psu_form == psus[ch.psu_included].form, ch.id
    tower = catalog.get("chassis", "tower-z790-workstation")
    assert isinstance(tower, Chassis) and tower.psu_form == "atx"
    assert psus["supermicro-2000w-titanium"].low_line == "rated"  # 1000 W at 100-127 V (docs/sources.md §D1)
    assert psus["nvidia-dgx-h100-3300w"].low_line == "unsupported"  # 200-240 V only
    assert psus["nvidia-dgx-a100-3000w"].low_line == "unsupported"  # 200-240 V only (DGX A100 User Guide)
    assert psus["corsair-hx1500i"].low_line == "unknown"


def test_hgx_platforms_put_their_nics_behind_the_gpu_switches(catalog: Catalog) -> None:
    for cid in ("supermicro-sys-821ge-tnhr", "nvidia-dgx-h100"):
        ch = catalog.get("chassis", cid)
        assert isinstance(ch, Chassis) and ch.switch_nic_slots == 8 and "switch" in ch.notes, cid


def test_platform_kinds_the_issue_asks_for(catalog: Catalog) -> None:
    chassis = catalog.all(Chassis)
    assert any(c.form == "tower" for c in chassis)
    assert any(c.rack_units == 2 and c.gpu_slots == 4 and c.gpu_form_factor is GpuFormFactor.PCIE for c in chassis)
    assert any(c.rack_units == 4 and c.gpu_slots == 8 and c.pcie_switch_lanes >= 8 * 16 for c in chassis)
    assert any(c.gpu_form_factor is GpuFormFactor.SXM and c.gpu_slots == 8 and c.cooling == "air" for c in chassis)
    assert any(c.cooling == "liquid" for c in chassis)


def test_reference_software_is_complete(catalog: Catalog) -> None:
    # docs/sources.md §C1: every CUDA release in Table 3, with its GA driver floor
    c1 = {"11.8": "520.61.05", "12.0": "525.60.13", "12.1": "530.30.02", "12.2": "535.54.03",
          "12.3": "545.23.06", "12.4": "550.54.14", "12.5": "555.42.02", "12.6": "560.28.03",
          "12.8": "570.26", "12.9": "575.51.03", "13.0": "580.65.06", "13.1": "590.44.01",
          "13.2": "595.45.04"}
    assert {c.version: c.min_driver_linux for c in catalog.all(CudaRelease)} == c1
    # docs/sources.md §C3: PyTorch 2.1 .. 2.11
    assert {f.version for f in catalog.all(Framework)} == {f"2.{n}" for n in range(1, 12)}
    # docs/sources.md §C4: the NGC months with known contents, and the reference example's 23.05
    refs = {i.reference for i in catalog.all(ContainerImage)}
    for month in ("23.05", "24.05", "25.01", "25.12"):
        assert f"nvcr.io/nvidia/pytorch:{month}-py3" in refs
    # docs/sources.md §C5 distributions, and the driver branches named in the issue
    oses = {(o.family, o.version) for o in catalog.all(OperatingSystem)}
    assert {("ubuntu", "20.04"), ("ubuntu", "22.04"), ("ubuntu", "24.04"), ("rocky", "8"), ("rocky", "9"),
            ("debian", "12")} <= oses
    assert {"R535", "R550", "R570", "R580"} <= {d.branch for d in catalog.all(DriverBranch)}


def test_cuda_floors_rise_with_the_version(catalog: Catalog) -> None:
    releases = sorted(catalog.all(CudaRelease), key=lambda c: parse_version(c.version))
    floors = [parse_version(c.min_driver_linux) for c in releases]
    assert floors == sorted(floors)
    for c in releases:
        assert parse_version(c.min_cc) <= parse_version(c.max_cc), c.id
    # CUDA 13 dropped Volta and Pascal (docs/sources.md §C2): its oldest target is Turing 7.5
    assert catalog.cuda("13.0").min_cc == "7.5"  # type: ignore[union-attr]


def test_every_part_names_a_source(catalog: Catalog) -> None:
    for part in catalog:
        src = part.source
        assert re.search(r"https?://|docs/sources\.md §|tests/fixtures|GitHub copy", src), f"{part.id}: {src!r}"


def test_every_price_says_where_and_when(catalog: Catalog) -> None:
    priced = [p for p in catalog if p.price_cny is not None]
    assert priced, "at least the published RTX 4090 / 4090 D prices"
    for part in catalog:
        has_price = part.price_cny is not None
        assert has_price == (part.price_date is not None) == bool(part.price_source), part.id


def test_sxm_platforms_list_only_sxm_gpus(catalog: Catalog) -> None:
    for ch in catalog.all(Chassis):
        for gid in ch.gpus_supported:
            gpu = catalog.gpu(gid)
            assert gpu is not None, f"{ch.id}: {gid}"
            assert gpu.form_factor is ch.gpu_form_factor, f"{ch.id}: {gid}"
        if ch.gpu_form_factor is GpuFormFactor.SXM:
            assert ch.gpus_supported, f"{ch.id}: an HGX platform names the modules it carries"


def test_every_reference_between_parts_exists(catalog: Catalog) -> None:
    os_ids = set(catalog.parts["os"])
    for ch in catalog.all(Chassis):
        if ch.psu_included:
            assert catalog.get("psu", ch.psu_included) is not None, ch.id
    for img in catalog.all(ContainerImage):
        if img.framework:
            assert catalog.get("framework", img.framework) is not None, img.id
        if img.base_os:
            assert img.base_os in os_ids, img.id
        if img.cuda:
            line = ".".join(img.cuda.split(".")[:2])
            assert catalog.cuda(line) is not None, f"{img.id}: CUDA {img.cuda} is not catalogued"


def test_ids_are_unique_across_kinds(catalog: Catalog) -> None:
    # price overrides name a part by id alone, so an id must not be reused by another kind
    seen: dict[str, str] = {}
    for kind, by_id in catalog.parts.items():
        for pid in by_id:
            assert pid not in seen, f"'{pid}' is both a {seen[pid]} and a {kind}"
            seen[pid] = kind


def _fixture_product_names() -> set[str]:
    fixtures = NVIDIA_SMI_FIXTURES
    names: set[str] = set()
    for path in fixtures.glob("*.xml"):
        names |= set(re.findall(r"<product_name>([^<]+)</product_name>", path.read_text(encoding="utf-8")))
    for path in fixtures.glob("*_q.txt"):
        names |= set(re.findall(r"^\s+Product Name\s+: (.+)$", path.read_text(encoding="utf-8"), re.M))
    for path in fixtures.glob("*query-gpu.csv"):
        header, row = path.read_text(encoding="utf-8").splitlines()[:2]
        cols = [c.strip() for c in header.split(",")]
        names.add(row.split(", ")[cols.index("name")])
    return names


def test_every_gpu_in_the_real_captures_is_recognised(catalog: Catalog) -> None:
    names = _fixture_product_names() - {"GRID P4-1Q"}  # a vGPU profile, not a card one can buy
    assert {"NVIDIA H100 80GB HBM3", "Tesla T4", "NVIDIA A10", "NVIDIA L40S"} <= names
    by_name: dict[str, list[str]] = {}
    for gpu in catalog.all(Gpu):
        for n in gpu.smi_names:
            by_name.setdefault(n, []).append(gpu.id)
    for name in names | {"Tesla P100-SXM2-16GB", "Quadro RTX 8000"}:
        assert len(by_name.get(name, [])) == 1, f"{name!r} -> {by_name.get(name)}"
    assert all(len(ids) == 1 for ids in by_name.values()), "an nvidia-smi name maps to one catalog GPU"


def test_the_data_files_have_no_yaml_anchors_or_tags() -> None:
    # plain data only: what a reviewer reads is what the loader gets
    for path in FILES:
        events = yaml.parse(path.read_text(encoding="utf-8"), Loader=yaml.SafeLoader)
        for ev in events:
            assert getattr(ev, "anchor", None) is None, f"{path.name}: anchor"
            tag = getattr(ev, "tag", None)
            assert tag in (None, "!"), f"{path.name}: tag {tag}"


def test_parts_are_frozen(catalog: Catalog) -> None:
    part = catalog.gpu("h100-sxm5-80gb")
    assert part is not None
    with pytest.raises(ValidationError, match="frozen"):
        part.tdp_w = 1  # type: ignore[misc]


def test_memory_modules_cover_server_and_desktop(catalog: Catalog) -> None:
    mods = catalog.all(MemoryModule)
    assert any(m.memory_type == "DDR4" and m.registered and m.ecc for m in mods)
    assert any(m.memory_type == "DDR5" and m.registered and m.ecc for m in mods)
    assert any(m.memory_type == "DDR5" and not m.registered for m in mods)

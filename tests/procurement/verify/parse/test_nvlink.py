"""procurement/verify/parse/nvlink.py on real `nvidia-smi nvlink -s` / `-e` outputs (tests/fixtures/acceptance/nvsmi,
sources in its README)."""

from __future__ import annotations

from procurement.verify.parse.nvlink import parse_nvlink_errors, parse_nvlink_status
from tests.procurement.verify.conftest import ACCEPT

NVSMI = ACCEPT / "nvsmi"


def test_link_status_per_gpu() -> None:
    gpus = parse_nvlink_status((NVSMI / "nvidia-smi-nvlink-status-a100-8gpu.txt").read_text())
    assert [g.index for g in gpus] == list(range(8))
    assert all(len(g.links) == 12 and set(g.links.values()) == {25.0} and not g.all_inactive for g in gpus)


def test_a_gpu_with_every_link_inactive() -> None:
    (gpu,) = parse_nvlink_status((NVSMI / "nvidia-smi-nvlink-status-a100-all-links-inactive.txt").read_text())
    assert (gpu.index, gpu.all_inactive, gpu.links) == (6, True, {})


def test_error_counters_per_link() -> None:
    text = (NVSMI / "nvidia-smi-nvlink-e-h100-ml-engineering.txt").read_text()
    parsed = parse_nvlink_errors(text)
    assert [g.index for g in parsed] == [0] and sorted(parsed[0].links) == [0, 1, 17]
    assert parsed[0].links[17] == {"replay": 0, "recovery": 0, "crc": 0}
    bad = parse_nvlink_errors(text.replace("Link 1: CRC Errors: 0", "Link 1: CRC Errors: 12"))
    assert bad[0].links[1]["crc"] == 12

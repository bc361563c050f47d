"""The whole probe with fake nvidia-smi executables on PATH: real captures, real faults, the report JSON."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import pytest

from catalog.loader import Catalog
from procurement.plan import Plan
from procurement.verify.probe import ProbeOptions, VerificationCancelled, run_probe
from procurement.verify.report import VerificationReport, load_report, write_report
from tests.procurement.verify.conftest import (
    A100_MIG_XML,
    FIX,
    H100_TOPO,
    H100_XML,
    P4_VGPU_XML,
    T4_XML,
    h100_plan,
    host_runner,
    make_host_root,
    smi_error,
    smi_replay,
    write_exe,
)

GPU_FIELDS = {
    "index",
    "name",
    "catalog_id",
    "uuid",
    "serial",
    "memory_total_mib",
    "pcie_gen_current",
    "pcie_gen_max",
    "pcie_width_current",
    "pcie_width_max",
    "power_limit_w",
    "persistence_mode",
    "ecc_enabled",
    "temperature_c",
    "mig_mode",
    "bus_id",
    "vbios_version",
    "board_part_number",
    "faults",
}
HOST_FIELDS = {"hostname", "os", "kernel", "cpu_model", "cpu_sockets", "cpu_cores", "memory_gib", "machine_id",
               "dmi_serial", "dmi_uuid", "vendor", "product"}
TOP_FIELDS = {
    "schema_version",
    "kind",
    "tool_version",
    "status",
    "created",
    "host",
    "driver_version",
    "cuda_version",
    "gpus",
    "checks",
    "error",
    "plan_digest",
    "plan_title",
}


def probe(
    tmp_path: Path, cat: Catalog, plan: Plan | None = None, timeout: float = 5, **kw: object
) -> VerificationReport:
    root = tmp_path / "root"
    if not root.exists():
        make_host_root(root)
    return run_probe(plan, cat, ProbeOptions(root=root, runner=host_runner(), timeout=timeout), "en", **kw)


@pytest.mark.parametrize(
    ("xml", "n", "names", "catalog_ids"),
    [
        (H100_XML, 8, {"NVIDIA H100 80GB HBM3"}, {"h100-sxm5-80gb"}),
        (A100_MIG_XML, 1, {"NVIDIA A100-SXM4-80GB"}, {"a100-sxm4-80gb"}),
        (T4_XML, 1, {"Tesla T4"}, {"t4"}),
        (P4_VGPU_XML, 1, {"GRID P4-1Q"}, {None}),
    ],
)
def test_each_capture_replayed_through_path(
    tmp_path: Path,
    fake_path: Path,
    vcat: Catalog,
    xml: Path,
    n: int,
    names: set[str],
    catalog_ids: set[str | None],
) -> None:
    smi_replay(fake_path, xml)
    report = probe(tmp_path, vcat)
    assert report.error is None
    assert report.check("NVIDIA-SMI").status == "pass"  # type: ignore[union-attr]
    assert len(report.gpus) == n
    assert {g.name for g in report.gpus} == names
    assert {g.catalog_id for g in report.gpus} == catalog_ids
    assert report.exit_code() == {"fail": 1, "unknown": 3}.get(report.overall(), 0)


def test_report_json_has_exactly_the_documented_fields(
    tmp_path: Path, fake_path: Path, vcat: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GPU_PROCURE_TEST_SECRET", "s3cr3t-token-value")
    smi_replay(fake_path, H100_XML, H100_TOPO)
    report = probe(tmp_path, vcat, h100_plan())
    out = tmp_path / "node01.json"
    write_report(report, out)
    text = out.read_text(encoding="utf-8")
    data = json.loads(text)
    assert set(data) == TOP_FIELDS
    assert set(data["host"]) == HOST_FIELDS
    assert all(set(g) == GPU_FIELDS for g in data["gpus"])
    assert all(set(c) == {"id", "status", "expected", "actual", "message", "code", "params", "expected_code",
                          "expected_params", "actual_code", "actual_params"} for c in data["checks"])
    assert data["schema_version"] == 3 and data["error"] is None and data["kind"] == "gpu-procure-report"
    assert data["created"].endswith("+00:00")
    assert data["host"] == {
        "hostname": "node01",
        "os": "Ubuntu 22.04.4 LTS",
        "kernel": "5.15.0-105-generic",
        "cpu_model": "AMD EPYC 9654 96-Core Processor",
        "cpu_sockets": 2,
        "cpu_cores": 192,
        "memory_gib": 1511.5,
        "machine_id": None,
        "dmi_serial": None,
        "dmi_uuid": None,
        "vendor": None,
        "product": None,
    }
    g0 = data["gpus"][0]
    assert g0 == {
        "index": 0,
        "name": "NVIDIA H100 80GB HBM3",
        "catalog_id": "h100-sxm5-80gb",
        "uuid": "GPU-00000000-0000-0000-0000-000000000000",
        "serial": "1650000000001",
        "memory_total_mib": 81559,
        "pcie_gen_current": 5,
        "pcie_gen_max": 5,
        "pcie_width_current": 16,
        "pcie_width_max": 16,
        "power_limit_w": 700.0,
        "persistence_mode": True,
        "ecc_enabled": True,
        "temperature_c": 29,
        "mig_mode": False,
        "bus_id": "00000000:53:00.0",
        "vbios_version": "96.00.99.00.01",
        "board_part_number": "692-2G520-0200-000",
        "faults": [],
    }
    assert "s3cr3t-token-value" not in text  # no environment leaks into the report
    assert not list(tmp_path.glob(".node01.json.*"))  # atomic write leaves no temp file
    assert load_report(out) == report


# ---------------------------------------------------------------- faults


@pytest.mark.parametrize(
    ("capture", "code", "to_stderr", "line", "hint"),
    [
        ("error_no-devices-were-found.txt", 6, False, "No devices were found", "sees no GPU"),
        (
            "error_nvidia-smi-failed-communicate-driver.txt",
            9,
            False,
            "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.",
            "kernel module",
        ),
        (
            "error_nvml-driver-library-version-mismatch.txt",
            18,
            False,
            "Failed to initialize NVML: Driver/library version mismatch",
            "reboot the host",
        ),
        (
            "error_unknown-error-device-handle_plus-partial-table_4x-rtx-pro-6000_610.57.04.txt",
            255,
            True,
            "Unable to determine the device handle for GPU1: 0000:34:00.0: Unknown Error",
            "GPU1 0000:34:00.0",
        ),
    ],
)
def test_error_captures_become_findings(
    tmp_path: Path,
    fake_path: Path,
    vcat: Catalog,
    capture: str,
    code: int,
    to_stderr: bool,
    line: str,
    hint: str,
) -> None:
    # Exit codes: nvidia-smi(1) RETURN VALUE (6 not found, 9 driver not loaded, 255 other) and NVML's
    # NVML_ERROR_LIB_RM_VERSION_MISMATCH = 18 for the version mismatch.
    smi_error(fake_path, FIX / capture, code, first_line_to_stderr=to_stderr)
    report = probe(tmp_path, vcat, h100_plan())
    smi = report.check("NVIDIA-SMI")
    assert smi is not None and smi.status == "fail"
    assert line in smi.message and f"code {code}" in smi.message and hint in smi.message
    assert report.error == smi.message
    assert report.gpus == [] and report.driver_version is None
    assert report.exit_code() == 1  # the table says FAIL: so does the exit status (README), unknowns or not
    assert report.host.hostname == "node01"  # the host part was still verified and reported
    # the GPU checks are listed as not checked, never left out silently
    assert report.check("GPU-MODEL").status == "unknown"  # type: ignore[union-attr]


def test_missing_nvidia_smi(
    tmp_path: Path, fake_path: Path, vcat: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(fake_path))  # an empty bin dir: no nvidia-smi anywhere
    report = probe(tmp_path, vcat)
    assert report.check("NVIDIA-SMI").status == "fail"  # type: ignore[union-attr]
    assert report.exit_code() == 1  # FAIL in the table is exit 1 (README), whatever else is unknown
    assert "nvidia-smi was not found (PATH)" in (report.error or "")
    report = run_probe(
        None,
        vcat,
        ProbeOptions(nvidia_smi=tmp_path / "nope" / "nvidia-smi", root=tmp_path, runner=host_runner()),
        "en",
    )
    assert f"({tmp_path / 'nope' / 'nvidia-smi'})" in (report.error or "")


def test_hang_is_killed_at_the_timeout(tmp_path: Path, fake_path: Path, vcat: Catalog) -> None:
    write_exe(fake_path, "nvidia-smi", "sleep 30\n")
    start = time.monotonic()
    report = probe(tmp_path, vcat, timeout=1)
    assert time.monotonic() - start < 3
    assert report.check("NVIDIA-SMI").status == "fail"  # type: ignore[union-attr]
    assert report.exit_code() == 1  # FAIL in the table is exit 1 (README), whatever else is unknown
    assert "did not answer within 1 s" in (report.error or "")


@pytest.mark.parametrize(
    "body",
    [
        "printf 'garbage \\001\\002 not xml at all\\n'\n",
        f"head -c 4000 {H100_XML}\n",  # truncated XML, exit 0
        "exit 0\n",  # prints nothing
    ],
)
def test_garbage_and_truncated_output(tmp_path: Path, fake_path: Path, vcat: Catalog, body: str) -> None:
    write_exe(fake_path, "nvidia-smi", body)
    report = probe(tmp_path, vcat)
    assert report.check("NVIDIA-SMI").status == "fail"  # type: ignore[union-attr]
    assert report.exit_code() == 1  # FAIL in the table is exit 1 (README), whatever else is unknown
    assert "not a usable XML report" in (report.error or "")


def test_some_gpus_answer_while_one_fails(tmp_path: Path, fake_path: Path, vcat: Catalog) -> None:
    # XML for the GPUs that answered on stdout, the faulted GPU's line on stderr, non-zero exit
    write_exe(
        fake_path,
        "nvidia-smi",
        f"cat {H100_XML}\n"
        "echo 'Unable to determine the device handle for GPU1: 0000:34:00.0: Unknown Error' >&2\nexit 255\n",
    )
    report = probe(tmp_path, vcat, h100_plan())
    assert report.error is None and len(report.gpus) == 8
    assert report.check("NVIDIA-SMI").status == "fail"  # type: ignore[union-attr]
    assert report.exit_code() == 1


# ---------------------------------------------------------------- GUI contract: progress and cancel


def test_progress_reports_each_step(tmp_path: Path, fake_path: Path, vcat: Catalog) -> None:
    smi_replay(fake_path, T4_XML)
    seen: list[tuple[int, int, str]] = []
    probe(tmp_path, vcat, progress=lambda i, n, label: seen.append((i, n, label)))
    assert [s[0] for s in seen] == [0, 1, 2, 3, 4, 5]
    assert {s[1] for s in seen} == {5}
    assert seen[0][2] == "Reading nvidia-smi" and seen[-1][2] == "Done"


def test_cancel_kills_a_hanging_nvidia_smi(tmp_path: Path, fake_path: Path, vcat: Catalog) -> None:
    write_exe(fake_path, "nvidia-smi", "sleep 30\n")
    make_host_root(tmp_path / "root")
    cancel = threading.Event()
    threading.Timer(0.2, cancel.set).start()
    start = time.monotonic()
    with pytest.raises(VerificationCancelled):
        # the default runner is bound to the cancel flag
        run_probe(None, vcat, ProbeOptions(root=tmp_path / "root", timeout=20), "en", cancel=cancel)
    assert time.monotonic() - start < 3
